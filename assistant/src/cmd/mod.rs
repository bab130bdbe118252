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
pub mod report;
pub mod say;
pub mod voice;
