//! Braille Ready Format (BRF): pages of ASCII braille for an embosser or a
//! braille notetaker. Only the 64 braille characters (space and `!` to `_`,
//! one per cell), newlines and form feeds; at most `width` cells a line and
//! `lines` lines a page (40 and 25 by default), a form feed between pages.
//!
//! [`BrfWriter`] lays out braille that is already translated (by liblouis,
//! see `louis`, or any other translator): a paragraph's words wrap at
//! spaces, and a [`BrfWriter::units`] line keeps each unit (a move with its
//! number and clock time) whole, starting a new line (indented) rather than
//! splitting it.
//!
//! ```
//! use tandem_braille::brf::BrfWriter;
//! let mut w = BrfWriter::new(12, 2).unwrap();
//! w.units(&["#A' #CB-#BH".to_owned(), "#AI-#BC".to_owned()], 2);
//! w.units(&["#B' #BHX#AI".to_owned()], 2);
//! assert_eq!(w.finish(), "#A' #CB-#BH\n  #AI-#BC\n\x0c#B' #BHX#AI\n");
//! ```

/// The default line length, in cells.
pub const DEFAULT_WIDTH: usize = 40;
/// The default page length, in lines.
pub const DEFAULT_LINES: usize = 25;
/// The form feed between pages.
pub const FORM_FEED: char = '\x0c';

/// A page size BRF cannot have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrfError {
    /// Too narrow or too short to lay out a record.
    #[error(
        "a BRF page of {width} cells by {lines} lines is too small (at least 12 cells and 2 lines)"
    )]
    TooSmall {
        /// Cells a line.
        width: usize,
        /// Lines a page.
        lines: usize,
    },
    /// A character that is no braille cell.
    #[error("{0:?} is not a Braille Ready Format character")]
    NotBrf(char),
}

/// The BRF character of an ASCII braille character: BRF is upper case
/// (`a`-`z` are `A`-`Z`; `` ` { | } ~ `` are `@ [ \ ] ^`); `None` for a
/// character that is no braille cell.
#[must_use]
pub fn brf_char(c: char) -> Option<char> {
    match c {
        ' '..='_' => Some(c),
        '`'..='~' => Some((c as u8 - 0x20) as char),
        '\u{a0}' => Some(' '),
        _ => None,
    }
}

/// `braille` in BRF characters.
///
/// # Errors
/// [`BrfError::NotBrf`] names the first character that is no braille cell.
pub fn to_brf(braille: &str) -> Result<String, BrfError> {
    braille
        .chars()
        .map(|c| brf_char(c).ok_or(BrfError::NotBrf(c)))
        .collect()
}

/// Whether `text` is BRF laid out within `width` cells and `lines` lines:
/// the first problem found, in words, or `None`.
#[must_use]
pub fn check(text: &str, width: usize, lines: usize) -> Option<String> {
    for (p, page) in text.split(FORM_FEED).enumerate() {
        let page_lines: Vec<&str> = page
            .strip_suffix('\n')
            .unwrap_or(page)
            .split('\n')
            .collect();
        if page_lines.len() > lines {
            return Some(format!(
                "page {} has {} lines (at most {lines})",
                p + 1,
                page_lines.len()
            ));
        }
        for (i, l) in page_lines.iter().enumerate() {
            if let Some(c) = l.chars().find(|c| !(' '..='_').contains(c)) {
                return Some(format!("page {} line {}: {c:?} is not BRF", p + 1, i + 1));
            }
            if l.chars().count() > width {
                return Some(format!(
                    "page {} line {} has {} cells (at most {width})",
                    p + 1,
                    i + 1,
                    l.chars().count()
                ));
            }
        }
    }
    None
}

/// Lays out translated braille into BRF pages.
#[derive(Debug, Clone)]
pub struct BrfWriter {
    width: usize,
    lines: usize,
    pages: Vec<Vec<String>>,
}

impl BrfWriter {
    /// A writer for pages of `width` cells by `lines` lines.
    ///
    /// # Errors
    /// [`BrfError::TooSmall`] under 12 cells or 2 lines.
    pub fn new(width: usize, lines: usize) -> Result<BrfWriter, BrfError> {
        if width < 12 || lines < 2 {
            return Err(BrfError::TooSmall { width, lines });
        }
        Ok(BrfWriter {
            width,
            lines,
            pages: vec![Vec::new()],
        })
    }

    fn push_line(&mut self, line: String) {
        if self.pages.last().is_some_and(|p| p.len() >= self.lines) {
            self.pages.push(Vec::new());
        }
        let page = self.pages.last_mut().expect("there is always a page");
        // A page does not begin with a blank line.
        if line.is_empty() && page.is_empty() {
            return;
        }
        page.push(line);
    }

    /// An empty line (none at the top of a page).
    pub fn blank_line(&mut self) {
        self.push_line(String::new());
    }

    /// A paragraph: its words wrap at spaces onto lines indented by `indent`
    /// cells; a word longer than a line is cut.
    pub fn words(&mut self, braille: &str, indent: usize) {
        let words: Vec<String> = braille
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect();
        self.units(&words, indent);
    }

    /// One line of units separated by spaces; a unit that does not fit goes
    /// whole onto the next line, indented by `indent` cells. A unit longer
    /// than a whole line breaks at its own spaces; only a word longer than a
    /// line is cut.
    pub fn units(&mut self, units: &[String], indent: usize) {
        let indent = indent.min(self.width / 2);
        let mut line = String::new();
        let mut len = 0usize;
        let mut pieces: Vec<&str> = Vec::new();
        for u in units.iter().filter(|u| !u.is_empty()) {
            if u.chars().count() > self.width - indent {
                pieces.extend(u.split(' ').filter(|w| !w.is_empty()));
            } else {
                pieces.push(u);
            }
        }
        for u in pieces {
            let n = u.chars().count();
            if len > 0 && len + 1 + n <= self.width {
                line.push(' ');
                line.push_str(u);
                len += 1 + n;
                continue;
            }
            if len > 0 {
                self.push_line(std::mem::take(&mut line));
                line.push_str(&" ".repeat(indent));
                len = indent;
            }
            // A word on its own line: cut it if it is longer than the line.
            let mut rest: Vec<char> = u.chars().collect();
            while len + rest.len() > self.width {
                let take = self.width - len;
                line.extend(rest.drain(..take));
                self.push_line(std::mem::take(&mut line));
                line.push_str(&" ".repeat(indent));
                len = indent;
            }
            len += rest.len();
            line.extend(rest);
        }
        if len > 0 || units.iter().all(String::is_empty) {
            self.push_line(line);
        }
    }

    /// The BRF text: lines ended by newlines, a form feed before each page
    /// after the first.
    #[must_use]
    pub fn finish(self) -> String {
        let mut out = String::new();
        let pages: Vec<Vec<String>> = self.pages.into_iter().filter(|p| !p.is_empty()).collect();
        for (i, page) in pages.into_iter().enumerate() {
            if i > 0 {
                out.push(FORM_FEED);
            }
            for l in page {
                out.push_str(l.trim_end());
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_and_units_stay_whole() {
        let mut w = BrfWriter::new(12, 25).unwrap();
        w.words(".TURNIEJ3 .MISTRZOSTWA .POLSKI", 2);
        w.units(&["#A' #CB-#BH".into(), "#AI-#BC".into()], 2);
        let t = w.finish();
        assert_eq!(
            t,
            ".TURNIEJ3\n  .MISTRZOST\n  WA .POLSKI\n#A' #CB-#BH\n  #AI-#BC\n"
        );
        assert_eq!(check(&t, 12, 25), None);
    }

    #[test]
    fn a_unit_longer_than_a_line_breaks_at_its_spaces() {
        let mut w = BrfWriter::new(14, 25).unwrap();
        w.units(&["#A' #CC-#BI (#A3#BI3#EI)".into(), "#AG-#BA".into()], 2);
        assert_eq!(w.finish(), "#A' #CC-#BI\n  (#A3#BI3#EI)\n  #AG-#BA\n");
    }

    #[test]
    fn pages_break_with_a_form_feed_and_no_blank_top_line() {
        let mut w = BrfWriter::new(40, 2).unwrap();
        for i in 0..3 {
            w.words(&format!("LINE{i}"), 0);
        }
        w.blank_line();
        w.words("LAST", 0);
        let t = w.finish();
        assert_eq!(t, "LINE0\nLINE1\n\x0cLINE2\n\n\x0cLAST\n");
        assert_eq!(check(&t, 40, 2), None);
        assert!(check(&t, 40, 1).unwrap().contains("page 1 has 2 lines"));
        assert!(check("abc\n", 40, 2).unwrap().contains("not BRF"));
        assert!(check("ABCDE\n", 4, 2).unwrap().contains("5 cells"));
    }

    #[test]
    fn brf_is_upper_case_ascii_braille() {
        assert_eq!(to_brf("#a' .<+d!").unwrap(), "#A' .<+D!");
        assert_eq!(to_brf("`{|}~").unwrap(), "@[\\]^");
        assert_eq!(to_brf("\u{2801}"), Err(BrfError::NotBrf('\u{2801}')));
        assert!(BrfWriter::new(8, 25).is_err());
    }
}
