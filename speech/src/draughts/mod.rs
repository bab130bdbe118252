//! Draughts in words: the draughts sentences of the shared announcer
//! ([`announcer`]).

pub mod announcer;

pub use announcer::SquareDiff;
