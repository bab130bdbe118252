//! Chess's board picture ([`crate::picture`]): 64 squares `a1`..`h8`,
//! white at the bottom, the files and ranks beside them, each piece by
//! its FEN letter; the last move's squares and the square of the piece it
//! took (beside the target square after en passant, 002 art. 3.7(d)).

use tandem_rules::chess::shakmaty::{Chess, File, Position as _, Rank, Role, Square};
use tandem_rules::chess::{ChessMove, MoveKind};
use tandem_rules::Color;

use crate::picture::{BoardPicture, Cell, Grid, Layout, Piece, Shape};

/// The picture of `pos`, with the squares of `last` (the move that led to
/// it) marked.
#[must_use]
pub fn picture(pos: &Chess, last: Option<&ChessMove>) -> BoardPicture {
    let board = pos.board();
    let mut squares = Vec::new();
    let mut pieces = Vec::new();
    for row in 0..8u8 {
        for col in 0..8u8 {
            let sq = Square::from_coords(File::new(u32::from(col)), Rank::new(u32::from(7 - row)));
            let id = sq.to_string();
            squares.push(Cell {
                id: id.clone(),
                col,
                row,
                numbered: false,
            });
            if let Some(p) = board.piece_at(sq) {
                let shape = match p.role {
                    Role::Pawn => Shape::Pawn,
                    Role::Knight => Shape::Knight,
                    Role::Bishop => Shape::Bishop,
                    Role::Rook => Shape::Rook,
                    Role::Queen => Shape::Queen,
                    Role::King => Shape::King,
                };
                pieces.push(Piece {
                    square: id,
                    code: p.char().to_string(),
                    side: Color::from(p.color),
                    shape,
                    count: 1,
                });
            }
        }
    }
    let captured = last.filter(|m| m.capture.is_some()).map(|m| match m.kind {
        MoveKind::EnPassant => Square::from_coords(m.to.file(), m.from.rank()),
        _ => m.to,
    });
    let grid = Layout::Grid(Grid {
        cols: 8,
        rows: 8,
        col_labels: ('a'..='h').map(String::from).collect(),
        row_labels: (1..=8).rev().map(|r: u8| r.to_string()).collect(),
        squares,
    });
    BoardPicture {
        last: last.map_or_else(Vec::new, |m| vec![m.from.to_string(), m.to.to_string()]),
        captured: captured.map(|s| s.to_string()).into_iter().collect(),
        ..BoardPicture::new(grid, pieces, Some(Color::from(pos.turn())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_rules::chess::ChessGame;

    #[test]
    fn the_start_has_its_pieces_by_fen_letter_white_at_the_bottom() {
        let p = picture(&Chess::default(), None);
        assert_eq!(p.pieces.len(), 32);
        assert_eq!(p.on("e1").next().unwrap().code, "K");
        assert_eq!(p.on("d8").next().unwrap().code, "q");
        let Layout::Grid(g) = &p.layout else {
            panic!("a grid")
        };
        let a1 = g.squares.iter().find(|c| c.id == "a1").unwrap();
        assert_eq!((a1.col, a1.row), (0, 7));
        assert_eq!((a1.col + a1.row) % 2, 1, "a1 is dark");
    }

    #[test]
    fn en_passant_marks_the_pawn_taken_beside_the_target() {
        let mut g = ChessGame::new();
        for m in ["e4", "a6", "e5", "d5", "exd6"] {
            g.play_text(m).unwrap();
        }
        let p = picture(g.position(), g.moves().last());
        assert_eq!(p.last, ["e5", "d6"]);
        assert_eq!(p.captured, ["d5"]);
        assert!(p.on("d5").next().is_none());
    }
}
