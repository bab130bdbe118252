//! Draughts in words: questions about the board ([`ask`]).

pub mod ask;
