//! Where lines go: the [`BrailleDisplay`] trait and its backends.
//!
//! - [`brlapi::BrlApiDisplay`] (feature `brlapi`): a real display through
//!   BRLTTY. Text cells go through BrlAPI's text call so the user's own table
//!   applies, graphic cells as dots. It reconnects by itself when BRLTTY
//!   restarts.
//! - [`terminal::TerminalDisplay`]: Unicode braille (U+2800 block) and the
//!   text on a terminal, where no display is there.
//! - [`memory::MemoryDisplay`]: records every write and plays back scripted
//!   keys, for unit tests.

#[cfg(feature = "brlapi")]
pub mod brlapi;
pub mod memory;
pub mod terminal;

use std::fmt;
use std::time::Duration;

use crate::line::BrailleLine;
use crate::ui::Key;

/// A display's size in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Cells per line.
    pub width: usize,
    /// Lines (1 on nearly every display; tandem uses the first).
    pub height: usize,
}

/// Why a display call failed. None of these stops the game: the driver
/// reports them and keeps rendering; a backend that can reconnect does so in
/// the background.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DisplayError {
    /// No display is connected right now (BRLTTY not running, restarting, or
    /// its display gone). A reconnecting backend keeps the last line and
    /// writes it when the display is back.
    Disconnected(String),
    /// The display refused the call.
    Rejected(String),
    /// Writing to the terminal (or another byte sink) failed.
    Io(String),
    /// The backend was shut down.
    Closed,
}

impl fmt::Display for DisplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DisplayError::Disconnected(why) => write!(f, "braille display not connected: {why}"),
            DisplayError::Rejected(why) => write!(f, "braille display refused the write: {why}"),
            DisplayError::Io(why) => write!(f, "braille output failed: {why}"),
            DisplayError::Closed => f.write_str("braille display closed"),
        }
    }
}

impl std::error::Error for DisplayError {}

/// A braille display: writes one line, reads keys.
pub trait BrailleDisplay: Send {
    /// The display's size, if known (`Disconnected` while there is none).
    fn geometry(&self) -> Result<Geometry, DisplayError>;

    /// Shows `line` on the display's first line (padded with blanks or cut to
    /// its width).
    fn write(&mut self, line: &BrailleLine) -> Result<(), DisplayError>;

    /// Waits up to `timeout` for a key; `Ok(None)` when none came.
    fn read_key(&mut self, timeout: Duration) -> Result<Option<Key>, DisplayError>;

    /// Asks the display to call `wake` whenever a key arrives or the display
    /// appears or vanishes, so that its driver waits for that instead of
    /// looking for keys on a timer. `false`: it cannot, and a spawned driver
    /// looks every [`crate::driver::KEY_POLL`].
    fn wake_on_change(&mut self, _wake: Wake) -> bool {
        false
    }
}

/// What a display calls when it has something for its driver (a key, a
/// change of state).
pub type Wake = std::sync::Arc<dyn Fn() + Send + Sync>;

impl<D: BrailleDisplay + ?Sized> BrailleDisplay for Box<D> {
    fn geometry(&self) -> Result<Geometry, DisplayError> {
        (**self).geometry()
    }

    fn write(&mut self, line: &BrailleLine) -> Result<(), DisplayError> {
        (**self).write(line)
    }

    fn read_key(&mut self, timeout: Duration) -> Result<Option<Key>, DisplayError> {
        (**self).read_key(timeout)
    }

    fn wake_on_change(&mut self, wake: Wake) -> bool {
        (**self).wake_on_change(wake)
    }
}
