//! The terminal view: Unicode braille (U+2800 block) followed by the text,
//! one line per update, for a sighted assistant or a player without a display.

use std::io::Write;
use std::time::Duration;

use crate::display::{BrailleDisplay, DisplayError, Geometry};
use crate::line::BrailleLine;
use crate::ui::Key;

/// Writes each line as `⠺⠀⠒⠂…  W 31 …` to a byte sink (stdout, a file, a
/// `Vec<u8>` in tests). It has no keys: the terminal's keyboard belongs to
/// the daemon's own input.
#[derive(Debug)]
pub struct TerminalDisplay<W: Write> {
    out: W,
    width: usize,
}

impl<W: Write> TerminalDisplay<W> {
    /// A terminal view `width` cells wide.
    pub fn new(out: W, width: usize) -> TerminalDisplay<W> {
        TerminalDisplay { out, width }
    }

    /// Writes one line: the cells padded to the width, two spaces, the text.
    pub fn write_line(&mut self, line: &BrailleLine) -> std::io::Result<()> {
        let cells: String = line
            .cells_padded(self.width)
            .iter()
            .map(|c| c.to_char())
            .collect();
        let text: String = line.chars().iter().take(self.width).collect();
        writeln!(self.out, "{cells}  {}", text.trim_end())?;
        self.out.flush()
    }

    /// The sink, back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write + Send> BrailleDisplay for TerminalDisplay<W> {
    fn geometry(&self) -> Result<Geometry, DisplayError> {
        Ok(Geometry {
            width: self.width,
            height: 1,
        })
    }

    fn write(&mut self, line: &BrailleLine) -> Result<(), DisplayError> {
        let cells: String = line
            .cells_padded(self.width)
            .iter()
            .map(|c| c.to_char())
            .collect();
        let text: String = line.chars().iter().take(self.width).collect();
        writeln!(self.out, "{cells}  {}", text.trim_end())
            .and_then(|()| self.out.flush())
            .map_err(|e| DisplayError::Io(e.to_string()))
    }

    fn read_key(&mut self, timeout: Duration) -> Result<Option<Key>, DisplayError> {
        std::thread::sleep(timeout);
        Ok(None)
    }

    /// No keys and a fixed width: nothing ever to wake its driver for.
    fn wake_on_change(&mut self, _wake: crate::display::Wake) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_padded_unicode_braille_and_the_text() {
        let mut t = TerminalDisplay::new(Vec::new(), 14);
        t.write(&BrailleLine::from_text("W 31")).unwrap();
        let s = String::from_utf8(t.into_inner()).unwrap();
        assert_eq!(s, "⡺⠀⠒⠂⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀  W 31\n");
    }
}
