//! A chess result as PGN writes it (002 art. 8.7, the scoresheet's result).

use crate::Outcome;

/// PGN result text: `1-0`, `0-1`, `1/2-1/2`, `*` while the game goes on.
#[must_use]
pub fn pgn_result(outcome: Option<Outcome>) -> &'static str {
    outcome.map_or("*", Outcome::one_point_result)
}
