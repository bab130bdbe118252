//! Chess on a braille display (002 annex E: the blind player's board and
//! record): list, rows, 8-dot graphic and status views of an 8x8 position,
//! each cell keeping the square it shows so routing keys enter moves.
//!
//! Squares are numbered 1-64 rank by rank from white's side: `a1` = 1,
//! `b1` = 2, … `h1` = 8, `a2` = 9, … `h8` = 64
//! ([`tandem_rules::chess::square_number`]). A [`ChessLine`] is a
//! [`BrailleLine`] (cells, text, kinds: what every display writes) with that
//! number under each cell; the line's own draughts square map stays empty.
//!
//! The views:
//! - **list**: `W Ke1 Qd1 Ra1 Rh1 Bc1 Bf1 Nb1 Ng1 a2 b2 … | B Ke8 …`: each
//!   side's pieces by kind (king, queen, rooks, bishops, knights, then pawns
//!   by square without a letter), wrapped at word boundaries;
//! - **rows**: one rank per line, top (rank 8) to bottom: `a8:r b8:n c8:b …`
//!   with FEN letters (upper case white, lower case black) and `-` for an
//!   empty square;
//! - **graphic**: the rank's number, a space, then one 8-dot cell per square
//!   from a to h (see [`ChessPatterns`]);
//! - **status**: as for draughts (`last Nf3 | black to move | W 4:59 B 5:00 | behind W 0 B 1`).

pub mod keys;

pub use keys::ChessKeys;

use tandem_rules::chess::shakmaty::{
    Chess, Color as ShColor, File, Piece, Position, Rank, Role, Square,
};
use tandem_rules::chess::{square_from_number, square_number};

use crate::cell::Cell;
use crate::line::BrailleLine;
use crate::view::{status_lines, wrap, PrintedLine, StatusInfo, View, Width, Wrappable};

/// A line of a chess view: the braille line and the chess square (1-64)
/// under each cell.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChessLine {
    /// Cells, text and kinds, as every display writes them.
    pub line: BrailleLine,
    squares: Vec<Option<u8>>,
}

impl ChessLine {
    /// An empty line.
    #[must_use]
    pub fn new() -> ChessLine {
        ChessLine::default()
    }

    fn push_text(&mut self, text: &str, sq: Option<Square>) {
        for c in text.chars() {
            self.line.push_text(&c.to_string(), None);
            self.squares.push(sq.map(square_number));
        }
    }

    fn push_graphic(&mut self, cell: Cell, letter: char, sq: Square) {
        self.line.push_graphic(cell, letter, None);
        self.squares.push(Some(square_number(sq)));
    }

    fn extend(&mut self, other: &ChessLine) {
        self.line.extend(&other.line);
        self.squares.extend_from_slice(&other.squares);
    }

    /// Number of cells.
    #[must_use]
    pub fn len(&self) -> usize {
        self.line.len()
    }

    /// Whether the line has no cells.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// The text, one character per cell.
    #[must_use]
    pub fn text(&self) -> String {
        self.line.text()
    }

    /// The square number (1-64) under each cell.
    #[must_use]
    pub fn squares(&self) -> &[Option<u8>] {
        &self.squares
    }

    /// The square a routing key over cell `n` selects.
    #[must_use]
    pub fn cell_to_square(&self, n: usize) -> Option<Square> {
        self.squares
            .get(n)
            .copied()
            .flatten()
            .and_then(square_from_number)
    }

    /// Adds `dots` to every cell that shows `sq` (the selection mark).
    pub fn mark(&mut self, sq: Square, dots: Cell) {
        let n = square_number(sq);
        let mut marked = BrailleLine::new();
        for (i, ((c, t), k)) in self
            .line
            .cells()
            .iter()
            .zip(self.line.chars())
            .zip(self.line.kinds())
            .enumerate()
        {
            let cell = if self.squares[i] == Some(n) {
                c.union(dots)
            } else {
                *c
            };
            match k {
                crate::line::CellKind::Graphic => marked.push_graphic(cell, *t, None),
                crate::line::CellKind::Text => {
                    let mut one = BrailleLine::new();
                    one.push_text(&t.to_string(), None);
                    if cell != one.cells()[0] {
                        // A marked text cell: graphic dots over its letter.
                        marked.push_graphic(cell, *t, None);
                    } else {
                        marked.extend(&one);
                    }
                }
            }
        }
        self.line = marked;
    }

    fn split_at(&self, n: usize) -> (ChessLine, ChessLine) {
        let mut head = ChessLine::new();
        let mut tail = ChessLine::new();
        for i in 0..self.len() {
            let target = if i < n { &mut head } else { &mut tail };
            let c = self.line.chars()[i];
            match self.line.kinds()[i] {
                crate::line::CellKind::Text => target.line.push_text(&c.to_string(), None),
                crate::line::CellKind::Graphic => {
                    target.line.push_graphic(self.line.cells()[i], c, None);
                }
            }
            target.squares.push(self.squares[i]);
        }
        (head, tail)
    }
}

/// The graphic view's dot patterns: the kind of piece in the upper four
/// dots, its colour in the bottom row (dot 3 white, dot 6 black: left white,
/// right black as in the draughts graphic), an empty square dots 3 and 6 (a
/// low line, so every square is felt). Dots 7-8 stay free for the selection mark.
///
/// | piece  | upper dots | white (+3) | black (+6) |
/// |--------|-----------|------------|------------|
/// | pawn   | 1         | ⠅ 1 3      | ⠡ 1 6      |
/// | knight | 1 2       | ⠇ 1 2 3    | ⠣ 1 2 6    |
/// | bishop | 1 4       | ⠍ 1 3 4    | ⠩ 1 4 6    |
/// | rook   | 1 2 4 5   | ⠟ 1 2 3 4 5| ⠻ 1 2 4 5 6|
/// | queen  | 1 4 5     | ⠝ 1 3 4 5  | ⠹ 1 4 5 6  |
/// | king   | 1 2 5     | ⠗ 1 2 3 5  | ⠳ 1 2 5 6  |
/// | empty  |           | ⠤ 3 6      |            |
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChessPatterns {
    /// An empty square.
    pub empty: Cell,
}

impl Default for ChessPatterns {
    fn default() -> ChessPatterns {
        ChessPatterns {
            empty: Cell::from_dots(&[3, 6]),
        }
    }
}

impl ChessPatterns {
    /// The cell for what stands on a square.
    #[must_use]
    pub fn cell(&self, piece: Option<Piece>) -> Cell {
        let Some(p) = piece else {
            return self.empty;
        };
        let upper: &[u8] = match p.role {
            Role::Pawn => &[1],
            Role::Knight => &[1, 2],
            Role::Bishop => &[1, 4],
            Role::Rook => &[1, 2, 4, 5],
            Role::Queen => &[1, 4, 5],
            Role::King => &[1, 2, 5],
        };
        let colour = if p.color == ShColor::White { 3 } else { 6 };
        Cell::from_dots(upper).union(Cell::from_dots(&[colour]))
    }
}

/// FEN letter of what stands on a square (`-` for none).
#[must_use]
pub fn piece_letter(piece: Option<Piece>) -> char {
    piece.map_or('-', Piece::char)
}

/// Renders chess positions (the views in the module docs).
#[derive(Debug, Clone, Default)]
pub struct ChessRenderer {
    /// The graphic view's patterns.
    pub patterns: ChessPatterns,
}

use tandem_rules::chess::ROLES as ORDER;

impl ChessRenderer {
    /// The lines of `view` for a display `width` cells wide.
    #[must_use]
    pub fn render(
        &self,
        pos: &Chess,
        status: &StatusInfo,
        view: View,
        width: Width,
    ) -> Vec<ChessLine> {
        match view {
            View::List => wrap(&list_atoms(pos), " ", width),
            View::Rows => rows(pos, width),
            View::Graphic => self.graphic(pos, width),
            View::Status => {
                // The status line shows no square: every game's wording,
                // with the chess facts passed in `status`.
                status_lines(status, width)
                    .into_iter()
                    .map(|line| {
                        let n = line.len();
                        ChessLine {
                            line,
                            squares: vec![None; n],
                        }
                    })
                    .collect()
            }
        }
    }

    fn graphic(&self, pos: &Chess, width: Width) -> Vec<ChessLine> {
        let board = pos.board();
        (0..8u32)
            .rev()
            .map(|r| {
                let rank = Rank::new(r);
                let mut line = ChessLine::new();
                line.push_text(&format!("{} ", rank.char()), None);
                for f in 0..8u32 {
                    let sq = Square::from_coords(File::new(f), rank);
                    let p = board.piece_at(sq);
                    line.push_graphic(self.patterns.cell(p), piece_letter(p), sq);
                }
                cut(line, width)
            })
            .collect()
    }
}

fn list_atoms(pos: &Chess) -> Vec<ChessLine> {
    let board = pos.board();
    let mut atoms = Vec::new();
    for (i, color) in [ShColor::White, ShColor::Black].into_iter().enumerate() {
        let prefix = if i == 0 { "W " } else { "| B " };
        let mut first = true;
        for role in ORDER {
            for sq in board.by_piece(role.of(color)) {
                let mut a = ChessLine::new();
                if first {
                    a.push_text(prefix, None);
                    first = false;
                }
                let letter = if role == Role::Pawn {
                    String::new()
                } else {
                    role.upper_char().to_string()
                };
                a.push_text(&format!("{letter}{sq}"), Some(sq));
                atoms.push(a);
            }
        }
        if first {
            let mut a = ChessLine::new();
            a.push_text(prefix, None);
            a.push_text("-", None);
            atoms.push(a);
        }
    }
    atoms
}

fn rows(pos: &Chess, width: Width) -> Vec<ChessLine> {
    let board = pos.board();
    (0..8u32)
        .rev()
        .flat_map(|r| {
            let atoms: Vec<ChessLine> = (0..8u32)
                .map(|f| {
                    let sq = Square::from_coords(File::new(f), Rank::new(r));
                    let mut a = ChessLine::new();
                    a.push_text(
                        &format!("{sq}:{}", piece_letter(board.piece_at(sq))),
                        Some(sq),
                    );
                    a
                })
                .collect();
            wrap(&atoms, " ", width)
        })
        .collect()
}

impl Wrappable for ChessLine {
    fn cells(&self) -> usize {
        self.len()
    }
    fn push_separator(&mut self, sep: &str) {
        self.push_text(sep, None);
    }
    fn append(&mut self, other: &Self) {
        self.extend(other);
    }
    fn split(&self, n: usize) -> (Self, Self) {
        self.split_at(n)
    }
}

fn cut(line: ChessLine, width: Width) -> ChessLine {
    if line.len() <= width.get() {
        line
    } else {
        line.split_at(width.get()).0
    }
}

/// Move entry with routing keys: the first key pressed over a square picks
/// the start square (shown with dots 7-8), the second the target; pressing
/// the start square again cancels. The squares go to the rules engine as
/// move text (`e2e4`), which checks them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoutingEntry {
    from: Option<Square>,
}

impl RoutingEntry {
    /// The start square picked so far.
    #[must_use]
    pub fn selected(&self) -> Option<Square> {
        self.from
    }

    /// A routing key over `cell` of `line`: `Some(text)` when a move is complete.
    pub fn press(&mut self, line: &ChessLine, cell: usize) -> Option<String> {
        let sq = line.cell_to_square(cell)?;
        match self.from.take() {
            None => {
                self.from = Some(sq);
                None
            }
            Some(from) if from == sq => None,
            Some(from) => Some(move_text(from, sq)),
        }
    }
}

/// The move text two routed squares give the rules engine: the squares in
/// coordinate form, `e2e4` (a promotion piece is asked for by the rules engine).
#[must_use]
pub fn move_text(from: Square, to: Square) -> String {
    format!("{from}{to}")
}

/// `tandem braille render`'s lines of `pos`: `view` at `width`, with the
/// square (1-64) under each cell and the status of the side to move.
#[must_use]
pub fn printed(pos: &Chess, view: View, width: Width) -> Vec<PrintedLine> {
    ChessRenderer::default()
        .render(pos, &StatusInfo::new(pos.turn().into()), view, width)
        .iter()
        .map(|l| {
            PrintedLine::with_squares(
                &l.line,
                l.squares().iter().map(|s| s.map(u16::from)).collect(),
                width,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_rules::chess::{from_fen, start};

    fn render(pos: &Chess, view: View, w: u16) -> Vec<ChessLine> {
        ChessRenderer::default().render(
            pos,
            &StatusInfo::new(tandem_rules::Color::White),
            view,
            Width::new(w).unwrap(),
        )
    }

    #[test]
    fn list_view_names_pieces_by_kind() {
        let pos = from_fen("4k3/1p6/8/8/8/8/P7/R3K2R w KQ - 0 1").unwrap();
        let l = render(&pos, View::List, 40);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].text(), "W Ke1 Ra1 Rh1 a2 | B Ke8 b7");
        assert_eq!(l[0].cell_to_square(2), Some(Square::E1));
        assert_eq!(l[0].cell_to_square(0), None);
        assert_eq!(l[0].squares()[2], Some(5));
    }

    #[test]
    fn every_view_fits_every_width_and_rows_map_all_64_squares() {
        let pos = start();
        for w in Width::MIN..=Width::MAX {
            for view in View::ALL {
                let lines = render(&pos, view, w);
                for l in &lines {
                    assert!(l.len() <= usize::from(w), "{view} {w}: {}", l.text());
                    assert_eq!(l.squares().len(), l.line.cells().len());
                }
                if view == View::Rows || (view == View::Graphic && w >= 10) {
                    let mut seen: Vec<u8> = lines
                        .iter()
                        .flat_map(|l| l.squares().iter().flatten().copied())
                        .collect();
                    seen.sort_unstable();
                    seen.dedup();
                    assert_eq!(seen, (1..=64).collect::<Vec<_>>(), "{view} {w}");
                }
            }
        }
    }

    #[test]
    fn graphic_patterns_are_distinct_and_leave_dots_7_8_free() {
        let p = ChessPatterns::default();
        let mut cells = vec![p.empty];
        for c in [ShColor::White, ShColor::Black] {
            for r in ORDER {
                cells.push(p.cell(Some(r.of(c))));
            }
        }
        for (i, a) in cells.iter().enumerate() {
            assert_eq!(a.0 & 0xC0, 0);
            for b in &cells[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn routing_keys_enter_a_move() {
        let pos = start();
        let rows = render(&pos, View::Rows, 40);
        // Rank 2 is the 7th line; "e2:P" starts at cell 20.
        let rank2 = &rows[6];
        assert_eq!(rank2.text(), "a2:P b2:P c2:P d2:P e2:P f2:P g2:P h2:P");
        let rank4 = &rows[4];
        let mut e = RoutingEntry::default();
        assert_eq!(e.press(rank2, 20), None);
        assert_eq!(e.selected(), Some(Square::E2));
        assert_eq!(e.press(rank4, 21), Some("e2e4".to_owned()));
        assert_eq!(e.selected(), None);
        let mut marked = rank2.clone();
        marked.mark(Square::E2, Cell::UNDERLINE);
        assert!(marked.line.cells()[20].0 & 0xC0 != 0);
        assert_eq!(marked.line.cells()[0], rank2.line.cells()[0]);
    }
}
