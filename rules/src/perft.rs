//! Perft: the number of leaf nodes of the legal move tree, the standard check
//! of a move generator. Capture routes with the same start, end and captured
//! set count once (the convention of the published international counts).

use crate::mv::Move;
use crate::position::Position;

/// Leaf count at `depth` (bulk-counted: the last ply counts moves without playing them).
///
/// ```
/// use tandem_rules::{perft, Position, Variant};
/// assert_eq!(perft(&Position::start(Variant::International), 3), 658);
/// assert_eq!(perft(&Position::start(Variant::SixtyFour), 3), 302);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut stack: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
    perft_rec(pos, depth, &mut stack)
}

fn perft_rec(pos: &Position, depth: u32, stack: &mut [Vec<Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(&mut stack[0]) as u64,
        _ => {
            let (here, rest) = stack
                .split_last_mut()
                .expect("perft stack has depth+1 buffers");
            pos.legal_moves_into(here);
            let mut n = 0;
            for m in here.iter() {
                let mut child = *pos;
                child.play_unchecked(m);
                n += perft_rec(&child, depth - 1, rest);
            }
            n
        }
    }
}

/// Leaf counts below each legal move (`perft --divide`).
#[must_use]
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(&m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
