//! Draughts in words: the draughts sentences of the shared announcer
//! ([`announcer`]), its squares and pieces in the table's phrasebook
//! ([`DraughtsBook`]), the answers to questions about the board ([`ask`])
//! and draughts by voice ([`listen`]).

pub mod announcer;
pub mod ask;
mod book;
pub mod listen;
#[cfg(test)]
mod record_tests;

pub use announcer::SquareDiff;
pub use book::DraughtsBook;
