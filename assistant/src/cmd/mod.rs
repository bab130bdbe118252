//! One module per subcommand.

pub mod arbiter;
pub mod braille;
pub mod clock;
pub mod ctl;
pub mod export;
pub mod hall;
pub mod hear;
pub mod hear_batch;
pub mod journal;
pub mod moves;
pub mod pdn;
pub mod perft;
pub mod play;
pub mod say;
pub mod voice;

use tandem_rules::draughts::{Move, Position};

/// A move's strict notation in `pos` (001 ch. I 8.2).
#[must_use]
pub fn notation_of(pos: &Position, m: &Move) -> String {
    tandem_rules::draughts::notation::write_move(pos, m)
}
