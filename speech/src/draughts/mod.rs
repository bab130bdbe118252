//! Draughts in words: the draughts sentences of the shared announcer
//! ([`announcer`]) and the answers to questions about the board ([`ask`]).

pub mod announcer;
pub mod ask;
pub mod listen;

pub use announcer::SquareDiff;
