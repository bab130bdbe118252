//! One module per subcommand.

pub mod arbiter;
pub mod braille;
pub mod clock;
pub mod ctl;
pub mod hear;
pub mod journal;
pub mod moves;
pub mod pdn;
pub mod perft;
pub mod play;
pub mod say;

use tandem_rules::{Move, Position};

/// A move's strict notation in `pos` (001 ch. I 8.2).
#[must_use]
pub fn notation_of(pos: &Position, m: &Move) -> String {
    tandem_rules::notation::write_move(pos, m)
}
