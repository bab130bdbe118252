//! What a board shows, apart from how it is shown: one picture of a
//! position that every game fills ([`crate::games::Game::picture`]) and
//! every view draws without knowing the game: the full terminal screen
//! (`crate::screen`), the SVG of the hall's pages and of the arbiter's
//! reports ([`svg`]), and the PDF scoresheet's diagram.
//!
//! A picture is a layout (a grid of light and dark squares with their
//! labels, or a board of 24 points with a bar and a tray), the pieces by
//! square id, and the marks: the last move's squares, the squares whose
//! pieces the last move captured, the squares that differ from another
//! board; dice and a cube where the game has them.

pub mod svg;

use serde::{Deserialize, Serialize};
use tandem_rules::Color;

/// One board to draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPicture {
    /// How the board is laid out.
    pub layout: Layout,
    /// What stands where: one entry a square and side (a stack of
    /// checkers is one entry with its count).
    pub pieces: Vec<Piece>,
    /// The side to move (or to act); `None` when the game is over.
    pub turn: Option<Color>,
    /// The last move's squares (from, to and any in between).
    #[serde(default)]
    pub last: Vec<String>,
    /// Squares whose pieces the last move took off.
    #[serde(default)]
    pub captured: Vec<String>,
    /// Squares that differ from another board (a mismatch).
    #[serde(default)]
    pub differs: Vec<String>,
    /// The dice to play, if any.
    #[serde(default)]
    pub dice: Vec<u8>,
    /// The doubling cube, if the game has one.
    #[serde(default)]
    pub cube: Option<Cube>,
}

/// How a board is laid out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Layout {
    /// A square grid, drawn from the top row (row 0) down.
    Grid(Grid),
    /// 24 points (`1`..`24` numbered from white's side: white's home board
    /// is 1-6 at the bottom right, black's 19-24 at the top right), the bar
    /// (`bar`) and the borne-off checkers (`off`).
    Points,
}

/// A square grid. A square is dark when its column and row add up to an
/// odd number (the bottom left square of an even board is dark).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// Columns.
    pub cols: u8,
    /// Rows.
    pub rows: u8,
    /// The columns' labels under the board (`a`..`h`), or none.
    #[serde(default)]
    pub col_labels: Vec<String>,
    /// The rows' labels beside the board, top row first (`8`..`1`), or none.
    #[serde(default)]
    pub row_labels: Vec<String>,
    /// The squares that have an id (every square, or only the dark ones
    /// where only those are played on).
    pub squares: Vec<Cell>,
}

/// A named square of a grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Its id (`32`, `e4`).
    pub id: String,
    /// Its column, 0 at the left.
    pub col: u8,
    /// Its row, 0 at the top.
    pub row: u8,
    /// Whether its id is drawn small on the square (numbered squares, which
    /// the players announce moves by).
    #[serde(default)]
    pub numbered: bool,
}

/// What a piece looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// A plain disc (a man).
    Man,
    /// A crowned disc (a man made king).
    Crowned,
    /// A checker, stacked on points.
    Checker,
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

/// A piece (or a stack of checkers) on a square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// The square's id (`32`, `e4`, `13`, `bar`, `off`).
    pub square: String,
    /// The piece's code as the game writes it (`w` `b` `W` `B`, a FEN
    /// letter): the hall's `data-piece`.
    pub code: String,
    /// Whose.
    pub side: Color,
    /// How it looks.
    pub shape: Shape,
    /// How many (checkers in a stack; 1 otherwise).
    pub count: u32,
}

/// The doubling cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cube {
    /// Its value (1, 2, 4…).
    pub value: u32,
    /// Who holds it (`None`: in the middle).
    pub owner: Option<Color>,
}

impl BoardPicture {
    /// A board laid out as `layout` with its `pieces`, `turn` to move, and
    /// nothing marked: no last move, no capture, no difference, no dice, no
    /// cube (a game sets what it has).
    #[must_use]
    pub fn new(layout: Layout, pieces: Vec<Piece>, turn: Option<Color>) -> BoardPicture {
        BoardPicture {
            layout,
            pieces,
            turn,
            last: Vec::new(),
            captured: Vec::new(),
            differs: Vec::new(),
            dice: Vec::new(),
            cube: None,
        }
    }

    /// The pieces on a square.
    pub fn on(&self, square: &str) -> impl Iterator<Item = &Piece> {
        let square = square.to_owned();
        self.pieces.iter().filter(move |p| p.square == square)
    }

    /// The same picture with `differs` marked.
    #[must_use]
    pub fn with_differs(mut self, differs: Vec<String>) -> BoardPicture {
        self.differs = differs;
        self
    }

    /// The picture as `side` sees it from its chair: a grid turned half
    /// round for black (its squares, labels and marks keep their ids); a
    /// board of points as it is (numbered from white's side).
    #[must_use]
    pub fn oriented(mut self, side: Color) -> BoardPicture {
        if side == Color::Black {
            if let Layout::Grid(g) = &mut self.layout {
                for c in &mut g.squares {
                    c.col = g.cols.saturating_sub(1).saturating_sub(c.col);
                    c.row = g.rows.saturating_sub(1).saturating_sub(c.row);
                }
                g.col_labels.reverse();
                g.row_labels.reverse();
            }
        }
        self
    }

    /// The squares of the picture, in drawing order (grid squares top row
    /// first; points 1-24, then `bar` and `off`).
    #[must_use]
    pub fn square_ids(&self) -> Vec<String> {
        match &self.layout {
            Layout::Grid(g) => g.squares.iter().map(|c| c.id.clone()).collect(),
            Layout::Points => (1..=24)
                .map(|p: u8| p.to_string())
                .chain(["bar".to_owned(), "off".to_owned()])
                .collect(),
        }
    }

    /// Keeps only the marks (`last`, `captured`, `differs`) that name a
    /// square of this picture, at most one each: marks that came over the
    /// network are never trusted further.
    #[must_use]
    pub fn marks_checked(mut self) -> BoardPicture {
        let ids = self.square_ids();
        let keep = |v: &mut Vec<String>| {
            let mut seen = Vec::new();
            v.retain(|s| {
                let ok = ids.contains(s) && !seen.contains(s);
                if ok {
                    seen.push(s.clone());
                }
                ok
            });
        };
        keep(&mut self.last);
        keep(&mut self.captured);
        keep(&mut self.differs);
        self
    }
}

/// The squares where two pictures of the same game show different pieces
/// (in `a`'s drawing order): what a mismatch marks.
#[must_use]
pub fn differing(a: &BoardPicture, b: &BoardPicture) -> Vec<String> {
    let on = |p: &BoardPicture, sq: &str| {
        let mut v: Vec<(String, u32)> = p.on(sq).map(|x| (x.code.clone(), x.count)).collect();
        v.sort();
        v
    };
    let mut ids = a.square_ids();
    for id in b.square_ids() {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids.into_iter()
        .filter(|sq| on(a, sq) != on(b, sq))
        .collect()
}

/// How pieces are written where glyphs cannot be: the piece's code, with
/// a count above one (`w5`).
#[must_use]
pub fn ascii_code(p: &Piece) -> String {
    if p.count > 1 {
        format!("{}{}", p.code, p.count)
    } else {
        p.code.clone()
    }
}

/// The Unicode glyph of a piece (never an ASCII letter): white's outlined,
/// black's filled, so that the sides differ without colour; a king of
/// crowned disc a disc with a ring in it (geometric shapes, which every
/// terminal font has).
#[must_use]
pub fn glyph(shape: Shape, side: Color) -> char {
    let white = side == Color::White;
    match (shape, white) {
        (Shape::Man | Shape::Checker, true) => '○',
        (Shape::Man | Shape::Checker, false) => '●',
        (Shape::Crowned, true) => '◎',
        (Shape::Crowned, false) => '◉',
        (Shape::Pawn, true) => '♙',
        (Shape::Pawn, false) => '♟',
        (Shape::Knight, true) => '♘',
        (Shape::Knight, false) => '♞',
        (Shape::Bishop, true) => '♗',
        (Shape::Bishop, false) => '♝',
        (Shape::Rook, true) => '♖',
        (Shape::Rook, false) => '♜',
        (Shape::Queen, true) => '♕',
        (Shape::Queen, false) => '♛',
        (Shape::King, true) => '♔',
        (Shape::King, false) => '♚',
    }
}

/// The faces of dice (`⚀`..`⚅`).
#[must_use]
pub fn die_face(n: u8) -> char {
    match n {
        1 => '⚀',
        2 => '⚁',
        3 => '⚂',
        4 => '⚃',
        5 => '⚄',
        _ => '⚅',
    }
}

/// Where a point of a [`Layout::Points`] board is drawn: its column 0-11
/// from the left (the bar between 5 and 6) and whether it is in the top half.
#[must_use]
pub fn point_place(point: u8) -> (u8, bool) {
    match point {
        1..=12 => (12 - point, false),
        _ => (point - 13, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(square: &str, code: &str, count: u32) -> Piece {
        Piece {
            square: square.into(),
            code: code.into(),
            side: Color::White,
            shape: Shape::Checker,
            count,
        }
    }

    fn points(pieces: Vec<Piece>) -> BoardPicture {
        BoardPicture::new(Layout::Points, pieces, Some(Color::White))
    }

    #[test]
    fn differing_squares_are_those_whose_pieces_or_counts_differ() {
        let a = points(vec![
            piece("6", "w", 5),
            piece("8", "w", 3),
            piece("bar", "b", 1),
        ]);
        let b = points(vec![
            piece("6", "w", 4),
            piece("8", "w", 3),
            piece("5", "w", 1),
        ]);
        assert_eq!(differing(&a, &b), ["5", "6", "bar"]);
        assert!(differing(&a, &a).is_empty());
    }

    #[test]
    fn marks_from_elsewhere_keep_only_squares_of_the_board() {
        let mut p = points(vec![]);
        p.last = vec!["13".into(), "99".into(), "13".into(), "<script>".into()];
        p.captured = vec!["bar".into()];
        let p = p.marks_checked();
        assert_eq!(p.last, ["13"]);
        assert_eq!(p.captured, ["bar"]);
    }

    #[test]
    fn black_sees_the_grid_turned_half_round() {
        let cell = |id: &str, col, row| Cell {
            id: id.into(),
            col,
            row,
            numbered: false,
        };
        let mut p = points(vec![]);
        p.layout = Layout::Grid(Grid {
            cols: 8,
            rows: 8,
            col_labels: ["a", "b", "c", "d", "e", "f", "g", "h"]
                .map(String::from)
                .to_vec(),
            row_labels: ["8", "7", "6", "5", "4", "3", "2", "1"]
                .map(String::from)
                .to_vec(),
            squares: vec![cell("a1", 0, 7), cell("h8", 7, 0), cell("e4", 4, 4)],
        });
        assert_eq!(p.clone().oriented(Color::White), p);
        let Layout::Grid(g) = p.oriented(Color::Black).layout else {
            unreachable!("a grid stays a grid")
        };
        assert_eq!(
            g.squares,
            [cell("a1", 7, 0), cell("h8", 0, 7), cell("e4", 3, 3)]
        );
        assert_eq!(g.col_labels[0], "h");
        assert_eq!(g.row_labels[0], "1");
    }

    #[test]
    fn glyphs_are_never_ascii_and_sides_differ() {
        for shape in [
            Shape::Man,
            Shape::Crowned,
            Shape::Checker,
            Shape::Pawn,
            Shape::Knight,
            Shape::Bishop,
            Shape::Rook,
            Shape::Queen,
            Shape::King,
        ] {
            let (w, b) = (glyph(shape, Color::White), glyph(shape, Color::Black));
            assert!(!w.is_ascii() && !b.is_ascii() && w != b, "{shape:?}");
        }
        assert_eq!(point_place(1), (11, false));
        assert_eq!(point_place(12), (0, false));
        assert_eq!(point_place(13), (0, true));
        assert_eq!(point_place(24), (11, true));
    }
}
