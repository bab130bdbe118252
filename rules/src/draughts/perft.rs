//! Perft: the number of leaf nodes of the legal move tree, the standard check
//! of a move generator. Capture routes with the same start, end and captured
//! set count once (the convention of the published international counts).

use crate::draughts::movegen::{self, Eight, PerftBuffers, Ten};
use crate::draughts::mv::Move;
use crate::draughts::position::Position;
use crate::draughts::variant::Variant;
use crate::Color;

/// Leaf count at `depth` (bulk-counted: the last ply counts moves without playing them).
///
/// ```
/// use tandem_rules::draughts::{perft, Position, Variant};
/// assert_eq!(perft(&Position::start(Variant::International), 3), 658);
/// assert_eq!(perft(&Position::start(Variant::SixtyFour), 3), 302);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut bufs = PerftBuffers::new(depth);
    let s = pos.sides();
    match (pos.variant(), pos.turn()) {
        (Variant::International, Color::White) => movegen::perft::<Ten, true>(s, depth, &mut bufs),
        (Variant::International, Color::Black) => movegen::perft::<Ten, false>(s, depth, &mut bufs),
        (Variant::SixtyFour, Color::White) => movegen::perft::<Eight, true>(s, depth, &mut bufs),
        (Variant::SixtyFour, Color::Black) => movegen::perft::<Eight, false>(s, depth, &mut bufs),
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
