//! Renderers: a position (and the daemon's status) to braille lines of a
//! given width. Pure and golden-tested (`tests/golden/*.txt`).
//!
//! The views, for international draughts (64-square draughts names its
//! squares algebraically, 001 ch. I 2.6.4):
//! - **list**: `W 31 32 33 K45 | B 1 2 3 K12`: white's pieces then black's by
//!   square, kings with `K`; wrapped over further lines at word boundaries;
//! - **rows**: one board row per line, every square with what stands on it:
//!   `16:b 17:b 18:- 19:w 20:wk` (row 4 holds 16-20); `-` empty, `w`/`b` a
//!   white/black man, `wk`/`bk` a king; a row too long for the display
//!   continues on the next line;
//! - **graphic**: the row's first square, a space, then one 8-dot cell per
//!   square of the row (see [`GraphicPatterns`]);
//! - **status**: `last 32-28 | black to move | W 4:59 B 5:00 | behind W 0 B 1`.
//!
//! Every cell keeps the square it shows as its routing target
//! ([`BrailleLine::targets`], [`super::target`]: the square's number).

use tandem_rules::draughts::{Piece, Position, Role, Square, Variant};
use tandem_rules::Color;

use crate::cell::Cell;
use crate::line::BrailleLine;

use super::target::target;
use crate::view::{cut, status_lines, wrap, PrintedLine, StatusInfo, View, Width};

/// The dot patterns of the graphic view, one cell per square.
///
/// Defaults, chosen to be told apart by touch: the left column is white, the
/// right column black, a man is two dots high and a king three (a king is a
/// man "standing taller"); an empty square is a low line, so every square is
/// felt and can be counted. Dots 7-8 stay free for the selection mark.
///
/// | square      | dots  | cell |
/// |-------------|-------|------|
/// | empty       | 3 6   | ⠤    |
/// | white man   | 1 2   | ⠃    |
/// | white king  | 1 2 3 | ⠇    |
/// | black man   | 4 5   | ⠘    |
/// | black king  | 4 5 6 | ⠸    |
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphicPatterns {
    /// An empty square.
    pub empty: Cell,
    /// A white man.
    pub white_man: Cell,
    /// A white king.
    pub white_king: Cell,
    /// A black man.
    pub black_man: Cell,
    /// A black king.
    pub black_king: Cell,
}

impl Default for GraphicPatterns {
    fn default() -> GraphicPatterns {
        GraphicPatterns {
            empty: Cell(0b0010_0100),      // dots 3 6
            white_man: Cell(0b0000_0011),  // dots 1 2
            white_king: Cell(0b0000_0111), // dots 1 2 3
            black_man: Cell(0b0001_1000),  // dots 4 5
            black_king: Cell(0b0011_1000), // dots 4 5 6
        }
    }
}

impl GraphicPatterns {
    /// The cell for what stands on a square.
    #[must_use]
    pub fn cell(&self, piece: Option<Piece>) -> Cell {
        let Some(p) = piece else {
            return self.empty;
        };
        match (p.color, p.role) {
            (Color::White, Role::Man) => self.white_man,
            (Color::White, Role::King) => self.white_king,
            (Color::Black, Role::Man) => self.black_man,
            (Color::Black, Role::King) => self.black_king,
        }
    }
}

/// The letter naming a graphic cell in the line's text: `-`, `w`, `W`, `b`, `B`.
#[must_use]
pub fn graphic_letter(piece: Option<Piece>) -> char {
    piece.map_or('-', Piece::letter)
}

/// The rows view's word for what stands on a square.
#[must_use]
pub fn piece_code(piece: Option<Piece>) -> &'static str {
    match piece.map(|p| (p.color, p.role)) {
        None => "-",
        Some((Color::White, Role::Man)) => "w",
        Some((Color::White, Role::King)) => "wk",
        Some((Color::Black, Role::Man)) => "b",
        Some((Color::Black, Role::King)) => "bk",
    }
}

/// Turns a position into braille lines (what to show, not how).
pub trait BrailleRenderer {
    /// The lines of `view` for a display `width` cells wide.
    fn render(
        &self,
        pos: &Position,
        status: &StatusInfo,
        view: View,
        width: Width,
    ) -> Vec<BrailleLine>;
}

/// tandem's renderer (the views described in the module docs).
#[derive(Debug, Clone, Default)]
pub struct StandardRenderer {
    /// The graphic view's dot patterns.
    pub patterns: GraphicPatterns,
}

impl BrailleRenderer for StandardRenderer {
    fn render(
        &self,
        pos: &Position,
        status: &StatusInfo,
        view: View,
        width: Width,
    ) -> Vec<BrailleLine> {
        match view {
            View::List => wrap(&list_atoms(pos), " ", width),
            View::Rows => rows(pos, width),
            View::Graphic => self.graphic(pos, width),
            View::Status => status_lines(status, width),
        }
    }
}

impl StandardRenderer {
    fn graphic(&self, pos: &Position, width: Width) -> Vec<BrailleLine> {
        let v = pos.variant();
        board_rows(v)
            .map(|row| {
                let mut line = BrailleLine::new();
                // Every row has at least one square: rows of a board are never empty.
                if let Some(&first) = row.first() {
                    line.push_text(&v.square_name(first), None);
                    line.push_text(" ", None);
                }
                for sq in row {
                    let p = pos.piece_at(sq);
                    line.push_graphic(self.patterns.cell(p), graphic_letter(p), Some(target(sq)));
                }
                cut(line, width)
            })
            .collect()
    }
}

/// The squares of each board row, top (black's side) to bottom.
fn board_rows(v: Variant) -> impl Iterator<Item = Vec<Square>> {
    (0..v.size()).map(move |r| (0..v.size()).filter_map(|c| v.square_at(r, c)).collect())
}

/// An unbreakable piece of a line.
type Atom = BrailleLine;

fn list_atoms(pos: &Position) -> Vec<Atom> {
    let v = pos.variant();
    let mut atoms = Vec::new();
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let mut first = true;
        let prefix = if i == 0 { "W " } else { "| B " };
        for (sq, piece) in pos.pieces().filter(|(_, p)| p.color == color) {
            let mut a = Atom::new();
            if first {
                a.push_text(prefix, None);
                first = false;
            }
            let king = if piece.role == Role::King { "K" } else { "" };
            a.push_text(&format!("{king}{}", v.square_name(sq)), Some(target(sq)));
            atoms.push(a);
        }
        if first {
            let mut a = Atom::new();
            a.push_text(prefix, None);
            a.push_text("-", None);
            atoms.push(a);
        }
    }
    atoms
}

fn rows(pos: &Position, width: Width) -> Vec<BrailleLine> {
    let v = pos.variant();
    board_rows(v)
        .flat_map(|row| {
            let atoms: Vec<Atom> = row
                .into_iter()
                .map(|sq| {
                    let mut a = Atom::new();
                    a.push_text(
                        &format!("{}:{}", v.square_name(sq), piece_code(pos.piece_at(sq))),
                        Some(target(sq)),
                    );
                    a
                })
                .collect();
            wrap(&atoms, " ", width)
        })
        .collect()
}
/// `tandem braille render`'s lines of `pos`: `view` at `width`, with the
/// square under each cell and the status of the side to move.
#[must_use]
pub fn printed(pos: &Position, view: View, width: Width) -> Vec<PrintedLine> {
    StandardRenderer::default()
        .render(pos, &StatusInfo::new(pos.turn()), view, width)
        .iter()
        .map(|l| PrintedLine::of(l, width))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(fen: Option<&str>, v: Variant, view: View, w: u16) -> Vec<BrailleLine> {
        let pos = match fen {
            Some(f) => Position::from_fen(v, f).unwrap(),
            None => Position::start(v),
        };
        StandardRenderer::default().render(
            &pos,
            &StatusInfo::new(pos.turn()),
            view,
            Width::new(w).unwrap(),
        )
    }

    #[test]
    fn list_view_matches_the_issue_example() {
        let lines = render(
            Some("W:W31,32,33,K45:B1,2,3,K12"),
            Variant::International,
            View::List,
            40,
        );
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].text(), "W 31 32 33 K45 | B 1 2 3 K12");
        let l = &lines[0];
        assert_eq!(l.cell_to_target(0), None);
        assert_eq!(l.cell_to_target(2), Square::new(31).map(target));
        assert_eq!(l.cell_to_target(11), Square::new(45).map(target)); // the K of K45
        assert_eq!(l.cell_to_target(15), None); // the bar
    }

    #[test]
    fn rows_view_row_4_holds_16_to_20() {
        let lines = render(None, Variant::International, View::Rows, 40);
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[3].text(), "16:b 17:b 18:b 19:b 20:b");
        for (i, sq) in lines[3].targets().iter().enumerate() {
            if lines[3].chars()[i] != ' ' {
                assert!((16..=20).contains(&sq.unwrap().number()));
            }
        }
    }

    #[test]
    fn every_view_fits_every_width_and_maps_every_square() {
        for v in Variant::ALL {
            let pos = Position::from_fen(v, "W:W31,32,K27:B1,K2,3").unwrap();
            for w in Width::MIN..=Width::MAX {
                for view in View::ALL {
                    let lines = StandardRenderer::default().render(
                        &pos,
                        &StatusInfo::new(Color::White),
                        view,
                        Width::new(w).unwrap(),
                    );
                    assert!(!lines.is_empty());
                    for l in &lines {
                        assert!(l.len() <= w.into(), "{view} {w}: {:?}", l.text());
                        assert_eq!(l.cells().len(), l.targets().len());
                    }
                    if matches!(view, View::Rows | View::Graphic) {
                        let mut seen: Vec<u8> = lines
                            .iter()
                            .flat_map(|l| l.targets().iter().flatten())
                            .map(|t| super::super::target::square(*t).unwrap().number())
                            .collect();
                        seen.dedup();
                        assert_eq!(seen, (1..=v.squares()).collect::<Vec<_>>(), "{view} {w}");
                    }
                }
            }
        }
    }

    #[test]
    fn graphic_patterns_are_distinct() {
        let p = GraphicPatterns::default();
        let all = [
            p.empty,
            p.white_man,
            p.white_king,
            p.black_man,
            p.black_king,
        ];
        for (i, a) in all.iter().enumerate() {
            assert_eq!(a.0 & 0xC0, 0, "dots 7-8 are kept for the selection mark");
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn view_names_round_trip() {
        for v in View::ALL {
            assert_eq!(v.name().parse::<View>().unwrap(), v);
        }
        assert!("board".parse::<View>().is_err());
    }
}
