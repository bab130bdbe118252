//! Draughts' board picture ([`crate::picture`]): the dark squares by their
//! numbers (001 ch. I 2.6: the number drawn small on the square in
//! international draughts, the players announce moves by it, ch. VIII 2.2;
//! the files and rows of 64-square draughts, 001 ch. I 2.6.4), men and
//! kings (`w` `b` `W` `B`), the last move and the pieces it took.

use tandem_rules::draughts::{Move, Position, Role, Variant};
use tandem_rules::Color;

use crate::picture::{BoardPicture, Cell, Grid, Layout, Piece, Shape};

/// The picture of `pos`, with the squares of `last` (the move that led to
/// it) marked.
#[must_use]
pub fn picture(pos: &Position, last: Option<&Move>) -> BoardPicture {
    let variant = pos.variant();
    let n = variant.size();
    let sixty_four = variant == Variant::SixtyFour;
    let mut squares = Vec::new();
    let mut pieces = Vec::new();
    for sq in variant.all_squares() {
        let (row, col) = variant.coords(sq);
        let id = sq.number().to_string();
        squares.push(Cell {
            id: id.clone(),
            col,
            row,
            numbered: !sixty_four,
        });
        if let Some(p) = pos.piece_at(sq) {
            let (code, shape) = match (p.color, p.role) {
                (Color::White, Role::Man) => ("w", Shape::Man),
                (Color::White, Role::King) => ("W", Shape::Crowned),
                (Color::Black, Role::Man) => ("b", Shape::Man),
                (Color::Black, Role::King) => ("B", Shape::Crowned),
            };
            pieces.push(Piece {
                square: id,
                code: code.to_owned(),
                side: p.color,
                shape,
                count: 1,
            });
        }
    }
    let (col_labels, row_labels) = if sixty_four {
        (
            (0..n).map(|c| char::from(b'a' + c).to_string()).collect(),
            (0..n).map(|r| (n - r).to_string()).collect(),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let last_squares = last.map_or_else(Vec::new, |m| {
        let mut v = vec![m.from()];
        v.extend(m.landings());
        v.push(m.to());
        v.dedup();
        v
    });
    let grid = Layout::Grid(Grid {
        cols: n,
        rows: n,
        col_labels,
        row_labels,
        squares,
    });
    BoardPicture {
        last: last_squares
            .iter()
            .map(|s| s.number().to_string())
            .collect(),
        captured: last.map_or_else(Vec::new, |m| {
            m.captured().map(|s| s.number().to_string()).collect()
        }),
        ..BoardPicture::new(grid, pieces, Some(pos.turn()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_rules::draughts::Game as Rules;
    use tandem_rules::GameOptions;

    #[test]
    fn the_start_has_twenty_men_a_side_on_numbered_dark_squares() {
        let p = picture(&Position::start(Variant::International), None);
        let Layout::Grid(g) = &p.layout else {
            panic!("a grid")
        };
        assert_eq!((g.cols, g.rows, g.squares.len()), (10, 10, 50));
        // 001 ch. I 2.6.1: square 1 is the second of the top row, and dark.
        let one = &g.squares[0];
        assert_eq!((one.id.as_str(), one.row, one.col), ("1", 0, 1));
        assert_eq!((one.col + one.row) % 2, 1);
        let count = |code: &str| p.pieces.iter().filter(|x| x.code == code).count();
        assert_eq!((count("w"), count("b")), (20, 20));
        assert_eq!(p.on("31").next().unwrap().code, "w");
        assert_eq!(p.on("20").next().unwrap().code, "b");
        assert!(p.on("25").next().is_none());
    }

    #[test]
    fn a_capture_marks_its_path_and_the_pieces_taken() {
        let mut g = Rules::from_position(
            Position::from_fen(Variant::International, "W:W32:B27,17").unwrap(),
            GameOptions::default(),
        );
        g.play_text("32x12").unwrap();
        let p = picture(g.position(), g.moves().last());
        assert_eq!(p.last, ["32", "21", "12"]);
        let mut g = Rules::new(Variant::International);
        g.play_text("32-28").unwrap();
        assert_eq!(picture(g.position(), g.moves().last()).last, ["32", "28"]);
        assert_eq!(p.captured, ["27", "17"]);
        assert_eq!(p.on("12").next().unwrap().code, "w");
    }
}
