//! A chess result as PGN writes it (002 art. 8.7, the scoresheet's result).

use crate::{Color, Outcome};

/// PGN result text: `1-0`, `0-1`, `1/2-1/2`, `*` while the game goes on.
#[must_use]
pub fn pgn_result(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win {
            winner: Color::White,
            ..
        }) => "1-0",
        Some(Outcome::Win {
            winner: Color::Black,
            ..
        }) => "0-1",
        Some(Outcome::Draw { .. }) => "1/2-1/2",
        None => "*",
    }
}
