pub mod clock;
pub mod pdn;
pub mod perft;
