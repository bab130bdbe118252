//! What a chess e-board is compared with (issue 42, docs/eboards.md): the
//! pieces now, before the last move, and after every legal move, square by
//! square. Castling puts both king and rook on their squares, en passant
//! takes the pawn beside the target square (002 art. 3.7(d), 3.8(b)): the
//! board shows the move once the hand is done, in whatever order it worked.
//! A promotion is the piece the pawn becomes on the last rank (002 art.
//! 3.7(e)), whichever it is: every promotion piece is its own next position.

use tandem_rules::chess::shakmaty::{Board, File, Piece, Position as _, Rank, Square};
use tandem_rules::chess::{ChessGame, ChessMove};

use crate::interface::{BoardSight, SightMove};

/// The 64 squares of `board`, a8 … h8, a7 … h1, FEN letters and `.`.
#[must_use]
pub fn placement(board: &Board) -> String {
    let mut s = String::with_capacity(64);
    for rank in Rank::ALL.iter().rev() {
        for file in File::ALL {
            s.push(
                board
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', |p| p.char()),
            );
        }
    }
    s
}

/// The e-board's view of `game`.
#[must_use]
pub fn sight(game: &ChessGame) -> BoardSight {
    let pos = game.position();
    let next = game
        .legal_moves()
        .iter()
        .map(|m| {
            let mut after = pos.clone();
            after.play_unchecked(&m.to_shakmaty());
            // 002 art. 3.7(e): the pawn may be set on the last rank before
            // it is exchanged for the piece it becomes.
            let mut via = Vec::new();
            if m.promotion.is_some() {
                let mut b = after.board().clone();
                b.set_piece_at(
                    m.to,
                    Piece {
                        color: pos.turn(),
                        role: m.role,
                    },
                );
                via.push(placement(&b));
            }
            // 002 art. 3.8(b): castling with the rook set down first passes
            // through the rook's own move.
            if let Some((from, to)) = m.rook_move() {
                let mut b = pos.board().clone();
                if let Some(rook) = b.remove_piece_at(from) {
                    b.set_piece_at(to, rook);
                }
                via.push(placement(&b));
            }
            SightMove {
                placement: placement(after.board()),
                text: m.uci(),
                squares: squares(m),
                via,
            }
        })
        .collect();
    let last = game.ply().checked_sub(1).and_then(|i| {
        let (before, m) = (game.position_at(i)?, game.moves().get(i)?);
        Some(SightMove {
            placement: placement(before.board()),
            text: m.uci(),
            squares: squares(m),
            via: Vec::new(),
        })
    });
    BoardSight {
        now: placement(pos.board()),
        last,
        next,
    }
}

/// The squares a move's lights show: the piece's (the king's when
/// castling) from and to.
fn squares(m: &ChessMove) -> Vec<String> {
    vec![m.from.to_string(), m.to.to_string()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_reads_from_a8_to_h1() {
        let g = ChessGame::new();
        let s = sight(&g);
        assert_eq!(
            s.now,
            "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR"
        );
        assert_eq!(s.next.len(), 20);
        assert!(s.last.is_none());
        let e4 = s.next.iter().find(|m| m.text == "e2e4").unwrap();
        assert_eq!(e4.squares, ["e2", "e4"]);
        assert_eq!(&e4.placement[32..40], "....P...", "rank 4");
        assert_eq!(&e4.placement[48..56], "PPPP.PPP", "rank 2");
    }

    #[test]
    fn castling_moves_both_pieces_and_promotion_has_each_piece() {
        let g = ChessGame::from_fen("8/P7/8/8/8/8/8/R3K2k w Q - 0 1").unwrap();
        let s = sight(&g);
        let castle = s.next.iter().find(|m| m.text == "e1c1").unwrap();
        assert_eq!(&castle.placement[56..64], "..KR...k");
        assert_eq!(
            &castle.via[0][56..64],
            "...RK..k",
            "the rook set down first"
        );
        let promos: Vec<_> = s
            .next
            .iter()
            .filter(|m| m.text.starts_with("a7a8"))
            .collect();
        assert_eq!(promos.len(), 4);
        let n = promos.iter().find(|m| m.text == "a7a8n").unwrap();
        assert_eq!(&n.placement[0..8], "N.......");
        assert_eq!(&n.via[0][0..8], "P.......");
    }
}
