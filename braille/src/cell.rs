//! One braille cell: an 8-dot mask.

use std::fmt;

/// One braille cell as a dot mask in ISO/TR 11548-1 order, as BrlAPI and
/// Unicode use it: bit 0 is dot 1, bit 1 dot 2, … bit 7 dot 8.
///
/// `Display` writes the Unicode braille pattern (U+2800 + mask), which is how
/// golden files and the terminal view show cells.
///
/// ```
/// use tandem_braille::Cell;
/// let c = Cell::from_dots(&[1, 2, 4, 5]);
/// assert_eq!(c.to_string(), "⠛");
/// assert_eq!(c.dots(), vec![1, 2, 4, 5]);
/// assert_eq!(Cell::from_char('⠛'), Some(c));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl Cell {
    /// The blank cell (no dots raised).
    pub const BLANK: Cell = Cell(0);
    /// Dots 7 and 8: the underline BRLTTY uses for its cursor; tandem uses it
    /// to mark the selected from-square.
    pub const UNDERLINE: Cell = Cell(0xC0);

    /// A cell with the given dots (1-8) raised; numbers outside 1-8 are ignored.
    #[must_use]
    pub fn from_dots(dots: &[u8]) -> Cell {
        Cell(
            dots.iter()
                .filter(|d| (1..=8).contains(*d))
                .fold(0u8, |m, d| m | 1 << (d - 1)),
        )
    }

    /// The raised dots, ascending.
    #[must_use]
    pub fn dots(self) -> Vec<u8> {
        (1..=8u8).filter(|d| self.0 & (1 << (d - 1)) != 0).collect()
    }

    /// The dot mask.
    #[must_use]
    pub fn mask(self) -> u8 {
        self.0
    }

    /// The Unicode braille pattern of this cell (U+2800 block).
    #[must_use]
    pub fn to_char(self) -> char {
        // U+2800 + 0..=255 stays inside the braille patterns block U+2800..U+28FF,
        // which are all valid scalar values.
        char::from_u32(0x2800 + u32::from(self.0)).unwrap_or('\u{2800}')
    }

    /// Reads a Unicode braille pattern back into a cell.
    #[must_use]
    pub fn from_char(c: char) -> Option<Cell> {
        let u = u32::from(c);
        (0x2800..=0x28FF)
            .contains(&u)
            .then(|| Cell((u - 0x2800) as u8))
    }

    /// The dots of both cells.
    #[must_use]
    pub fn union(self, other: Cell) -> Cell {
        Cell(self.0 | other.0)
    }

    /// Dot numbers joined by `sep`, as BRLTTY's `vr` driver reports them (`"1245"`).
    #[must_use]
    pub fn dot_string(self) -> String {
        self.dots().iter().map(|d| char::from(b'0' + d)).collect()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Cells as a Unicode braille string.
///
/// ```
/// use tandem_braille::{cell::cells_to_string, Cell};
/// assert_eq!(cells_to_string(&[Cell(1), Cell(3)]), "⠁⠃");
/// ```
#[must_use]
pub fn cells_to_string(cells: &[Cell]) -> String {
    cells.iter().map(|c| c.to_char()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mask_round_trips_through_unicode_and_dots() {
        for m in 0..=255u8 {
            let c = Cell(m);
            assert_eq!(Cell::from_char(c.to_char()), Some(c));
            assert_eq!(Cell::from_dots(&c.dots()), c);
        }
        assert_eq!(Cell::from_char('a'), None);
        assert_eq!(Cell::UNDERLINE.dots(), vec![7, 8]);
        assert_eq!(Cell::from_dots(&[0, 9, 3]).dots(), vec![3]);
    }
}
