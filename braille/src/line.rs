//! A rendered line: cells, the text they came from, and the routing target
//! under each cell.

use crate::cell::{cells_to_string, Cell};
use crate::table::text_cell;

/// What a routing key over a cell picks, as the game's view numbers it: a
/// draughts square's number (`32`), a chess square (1-64)… The line, the
/// keys ([`crate::keys::Action`]) and the display's state machine
/// ([`crate::ui`]) only compare targets and hand them back; what one means
/// is the game's (its folder turns it back into a square, its adapter into
/// move text).
///
/// ```
/// use tandem_braille::line::Target;
/// assert_eq!(Target::new(32).number(), 32);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target(u16);

impl Target {
    /// The target numbered `n` by its game.
    #[must_use]
    pub const fn new(n: u16) -> Target {
        Target(n)
    }

    /// Its number, as its game gave it.
    #[must_use]
    pub const fn number(self) -> u16 {
        self.0
    }
}

/// What a cell carries, which decides how a display writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// A character of text: BrlAPI writes it through its text call so the
    /// user's own braille table applies; elsewhere the NABCC table does.
    Text,
    /// A dot pattern (the graphic view): written as dots everywhere.
    Graphic,
}

/// One line of a braille view.
///
/// The four vectors have the same length, one entry per cell:
/// - `text`: one character per cell (for a graphic cell, a letter naming
///   what it shows: `-`, `w`, `b`, `W`, `B`),
/// - `cells`: the dots (NABCC for text cells),
/// - `targets`: what a cell shows that a routing key picks (a square: see
///   [`Target`]), so that a routing key over cell `n` selects `targets[n]`
///   (like NVDA's `brailleToRawPos`),
/// - `kinds`: text or graphic.
///
/// Lines are not padded: a display blanks the cells past the end.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BrailleLine {
    text: Vec<char>,
    cells: Vec<Cell>,
    targets: Vec<Option<Target>>,
    kinds: Vec<CellKind>,
}

impl BrailleLine {
    /// An empty line.
    #[must_use]
    pub fn new() -> BrailleLine {
        BrailleLine::default()
    }

    /// A line of plain text (NABCC cells) that shows no target.
    ///
    /// ```
    /// use tandem_braille::BrailleLine;
    /// let l = BrailleLine::from_text("ok");
    /// assert_eq!(l.cells_string(), "⠕⠅");
    /// assert_eq!(l.targets(), &[None, None]);
    /// ```
    #[must_use]
    pub fn from_text(text: &str) -> BrailleLine {
        let mut l = BrailleLine::new();
        l.push_text(text, None);
        l
    }

    /// Appends text whose every cell shows `target`.
    pub fn push_text(&mut self, text: &str, target: Option<Target>) {
        for c in text.chars() {
            self.text.push(c);
            self.cells.push(text_cell(c));
            self.targets.push(target);
            self.kinds.push(CellKind::Text);
        }
    }

    /// Appends one graphic cell, named by `letter` in the text.
    pub fn push_graphic(&mut self, cell: Cell, letter: char, target: Option<Target>) {
        self.text.push(letter);
        self.cells.push(cell);
        self.targets.push(target);
        self.kinds.push(CellKind::Graphic);
    }

    /// Appends another line.
    pub fn extend(&mut self, other: &BrailleLine) {
        self.text.extend_from_slice(&other.text);
        self.cells.extend_from_slice(&other.cells);
        self.targets.extend_from_slice(&other.targets);
        self.kinds.extend_from_slice(&other.kinds);
    }

    /// Number of cells.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the line has no cells.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The text, one character per cell.
    #[must_use]
    pub fn text(&self) -> String {
        self.text.iter().collect()
    }

    /// The text characters, one per cell.
    #[must_use]
    pub fn chars(&self) -> &[char] {
        &self.text
    }

    /// The cells.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The first cell that routes to `target`.
    #[must_use]
    pub fn cell_of(&self, target: Target) -> Option<usize> {
        self.targets().iter().position(|t| *t == Some(target))
    }

    /// Where the cells carry dots 7-8 ([`Cell::UNDERLINE`]: a selected
    /// square, the record's current move), left to right.
    #[must_use]
    pub fn underlined(&self) -> Vec<usize> {
        let u = Cell::UNDERLINE.mask();
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.mask() & u == u)
            .map(|(i, _)| i)
            .collect()
    }

    /// The cells as Unicode braille.
    #[must_use]
    pub fn cells_string(&self) -> String {
        cells_to_string(&self.cells)
    }

    /// The target under each cell.
    #[must_use]
    pub fn targets(&self) -> &[Option<Target>] {
        &self.targets
    }

    /// The target cell `n` shows (`None` past the end or over a label).
    #[must_use]
    pub fn cell_to_target(&self, n: usize) -> Option<Target> {
        self.targets.get(n).copied().flatten()
    }

    /// Text or graphic, per cell.
    #[must_use]
    pub fn kinds(&self) -> &[CellKind] {
        &self.kinds
    }

    /// Whether some cells are text and others graphic.
    #[must_use]
    pub fn is_mixed(&self) -> bool {
        self.kinds.contains(&CellKind::Text) && self.kinds.contains(&CellKind::Graphic)
    }

    /// Adds `dots` to every cell that shows `target` (the selection mark).
    pub fn mark(&mut self, target: Target, dots: Cell) {
        for (c, s) in self.cells.iter_mut().zip(&self.targets) {
            if *s == Some(target) {
                *c = c.union(dots);
            }
        }
    }

    /// Adds `dots` to cell `n` (a mark on a line that shows no target: the
    /// current move of the record view); nothing past the end.
    pub fn mark_cell(&mut self, n: usize, dots: Cell) {
        if let Some(c) = self.cells.get_mut(n) {
            *c = c.union(dots);
        }
    }

    /// Extra dots per cell over what the text call writes: the graphic cells'
    /// dots and any marks on text cells; for BrlAPI's `orMask`.
    #[must_use]
    pub fn overlay(&self) -> Vec<Cell> {
        self.cells
            .iter()
            .zip(&self.text)
            .zip(&self.kinds)
            .map(|((c, t), k)| match k {
                CellKind::Graphic => *c,
                CellKind::Text => Cell(c.0 & !text_cell(*t).0),
            })
            .collect()
    }

    /// The cells padded with blanks (or cut) to `width`.
    #[must_use]
    pub fn cells_padded(&self, width: usize) -> Vec<Cell> {
        let mut v: Vec<Cell> = self.cells.iter().copied().take(width).collect();
        v.resize(width, Cell::BLANK);
        v
    }

    /// The text a BrlAPI text call writes: text cells as they are, graphic
    /// cells as spaces (their dots come from [`Self::overlay`]), padded or cut to `width`.
    #[must_use]
    pub fn text_padded(&self, width: usize) -> String {
        let mut s: String = self
            .text
            .iter()
            .zip(&self.kinds)
            .take(width)
            .map(|(t, k)| if *k == CellKind::Graphic { ' ' } else { *t })
            .collect();
        let n = s.chars().count();
        s.extend(std::iter::repeat(' ').take(width.saturating_sub(n)));
        s
    }

    /// Whether any cell carries dots the text call does not write.
    #[must_use]
    pub fn has_overlay(&self) -> bool {
        self.overlay().iter().any(|c| c.0 != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u16) -> Option<Target> {
        Some(Target::new(n))
    }

    #[test]
    fn mark_and_overlay_touch_only_the_square() {
        let mut l = BrailleLine::new();
        l.push_text("16", None);
        l.push_text(" ", None);
        l.push_graphic(Cell(0x03), 'w', sq(16));
        l.push_text("17", sq(17));
        assert!(l.is_mixed());
        assert_eq!(
            l.overlay(),
            vec![Cell(0), Cell(0), Cell(0), Cell(0x03), Cell(0), Cell(0)]
        );
        l.mark(Target::new(17), Cell::UNDERLINE);
        assert_eq!(l.cells()[4], text_cell('1').union(Cell::UNDERLINE));
        assert_eq!(l.overlay()[4], Cell::UNDERLINE);
        assert_eq!(l.text_padded(8), "16  17  ");
        assert_eq!(l.cells_padded(3).len(), 3);
        assert_eq!(l.cell_to_target(3), sq(16));
        assert_eq!(l.cell_to_target(99), None);
    }
}
