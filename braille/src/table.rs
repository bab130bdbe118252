//! Text to cells: North American Braille Computer Code (NABCC), 8-dot.
//!
//! This is the computer-braille table BRLTTY ships as `en-nabcc` (one cell
//! per character, no contractions): lower-case letters are the literary
//! letters, capitals add dot 7, digits are the letters a-j moved down (dots
//! 2-3-5-6 region: `1` = dot 2, `2` = dots 2-3, …, `0` = dots 3-5-6), and the
//! punctuation follows the NABCC chart. The table test checks every entry
//! against BRLTTY's own `/etc/brltty/Text/en-nabcc.ttb` when it is installed.
//!
//! It is used where tandem itself turns text into cells: the terminal view,
//! `tandem braille render`, golden files and the in-memory display. On a real
//! display text goes through BrlAPI's text call instead, so the user's own
//! BRLTTY table applies; a BRLTTY started with `-T en-nabcc` shows exactly
//! these cells.
//!
//! Characters outside printable ASCII: Unicode braille patterns (U+2800 block)
//! stand for themselves; anything else becomes [`UNKNOWN`] (all eight dots).

use crate::cell::Cell;

/// The cell for characters the table does not know: all eight dots (⣿).
pub const UNKNOWN: Cell = Cell(0xFF);

/// NABCC cells for ASCII 0x20 (space) to 0x7E (`~`), indexed by `c - 0x20`.
const NABCC: [u8; 95] = [
    0x00, // ' '
    0x2E, // '!'
    0x10, // '"'
    0x3C, // '#'
    0x2B, // '$'
    0x29, // '%'
    0x2F, // '&'
    0x04, // '\''
    0x37, // '('
    0x3E, // ')'
    0x21, // '*'
    0x2C, // '+'
    0x20, // ','
    0x24, // '-'
    0x28, // '.'
    0x0C, // '/'
    0x34, // '0'
    0x02, // '1'
    0x06, // '2'
    0x12, // '3'
    0x32, // '4'
    0x22, // '5'
    0x16, // '6'
    0x36, // '7'
    0x26, // '8'
    0x14, // '9'
    0x31, // ':'
    0x30, // ';'
    0x23, // '<'
    0x3F, // '='
    0x1C, // '>'
    0x39, // '?'
    0x48, // '@'
    0x41, // 'A'
    0x43, // 'B'
    0x49, // 'C'
    0x59, // 'D'
    0x51, // 'E'
    0x4B, // 'F'
    0x5B, // 'G'
    0x53, // 'H'
    0x4A, // 'I'
    0x5A, // 'J'
    0x45, // 'K'
    0x47, // 'L'
    0x4D, // 'M'
    0x5D, // 'N'
    0x55, // 'O'
    0x4F, // 'P'
    0x5F, // 'Q'
    0x57, // 'R'
    0x4E, // 'S'
    0x5E, // 'T'
    0x65, // 'U'
    0x67, // 'V'
    0x7A, // 'W'
    0x6D, // 'X'
    0x7D, // 'Y'
    0x75, // 'Z'
    0x6A, // '['
    0x73, // '\\'
    0x7B, // ']'
    0x58, // '^'
    0x38, // '_'
    0x08, // '`'
    0x01, // 'a'
    0x03, // 'b'
    0x09, // 'c'
    0x19, // 'd'
    0x11, // 'e'
    0x0B, // 'f'
    0x1B, // 'g'
    0x13, // 'h'
    0x0A, // 'i'
    0x1A, // 'j'
    0x05, // 'k'
    0x07, // 'l'
    0x0D, // 'm'
    0x1D, // 'n'
    0x15, // 'o'
    0x0F, // 'p'
    0x1F, // 'q'
    0x17, // 'r'
    0x0E, // 's'
    0x1E, // 't'
    0x25, // 'u'
    0x27, // 'v'
    0x3A, // 'w'
    0x2D, // 'x'
    0x3D, // 'y'
    0x35, // 'z'
    0x2A, // '{'
    0x33, // '|'
    0x3B, // '}'
    0x18, // '~'
];

/// The NABCC cell of one character.
///
/// ```
/// use tandem_braille::{table::text_cell, Cell};
/// assert_eq!(text_cell('a'), Cell::from_dots(&[1]));
/// assert_eq!(text_cell('K'), Cell::from_dots(&[1, 3, 7]));
/// assert_eq!(text_cell('3'), Cell::from_dots(&[2, 5]));
/// assert_eq!(text_cell('⠛'), Cell::from_dots(&[1, 2, 4, 5]));
/// ```
#[must_use]
pub fn text_cell(c: char) -> Cell {
    let u = u32::from(c);
    if (0x20..=0x7E).contains(&u) {
        return Cell(NABCC[(u - 0x20) as usize]);
    }
    Cell::from_char(c).unwrap_or(UNKNOWN)
}

/// The NABCC cells of a text, one per character.
#[must_use]
pub fn text_cells(text: &str) -> Vec<Cell> {
    text.chars().map(text_cell).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses BRLTTY's `char \XHH (dots)` lines.
    fn brltty_table(src: &str) -> Vec<(u32, Cell)> {
        let mut out = Vec::new();
        for line in src.lines() {
            let Some(rest) = line.strip_prefix("char \\X") else {
                continue;
            };
            let (hex, rest) = rest.split_at(2);
            let Ok(code) = u32::from_str_radix(hex, 16) else {
                continue;
            };
            let Some(open) = rest.find('(') else { continue };
            let Some(close) = rest.find(')') else {
                continue;
            };
            let dots: Vec<u8> = rest[open + 1..close]
                .bytes()
                .filter(u8::is_ascii_digit)
                .map(|b| b - b'0')
                .collect();
            out.push((code, Cell::from_dots(&dots)));
        }
        out
    }

    #[test]
    fn table_matches_brltty_en_nabcc() {
        let path = "/etc/brltty/Text/en-nabcc.ttb";
        let Some(src) = tandem_testkit::require(
            "BRLTTY's text tables (apt-get install brltty)",
            std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}")),
        ) else {
            return;
        };
        let entries = brltty_table(&src);
        let printable: Vec<_> = entries
            .iter()
            .filter(|(c, _)| (0x20..=0x7E).contains(c))
            .collect();
        assert_eq!(
            printable.len(),
            95,
            "BRLTTY's table lists every printable ASCII character"
        );
        for (code, cell) in printable {
            let c = char::from_u32(*code).expect("ASCII");
            assert_eq!(text_cell(c), *cell, "{c:?}");
        }
    }

    #[test]
    fn cells_are_distinct_for_distinct_characters() {
        let mut seen = std::collections::HashSet::new();
        for c in ' '..='~' {
            assert!(seen.insert(text_cell(c)), "{c:?} shares a cell");
        }
        assert_eq!(text_cell('é'), UNKNOWN);
        assert_eq!(
            text_cells("W 31"),
            vec![text_cell('W'), Cell(0), Cell(0x12), Cell(0x02)]
        );
    }
}
