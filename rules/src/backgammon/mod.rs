//! Backgammon as the EUBGF tournament rules play it (seed 004): the board,
//! legal moves for a roll, GNU Backgammon's notation, Position ID and Match
//! ID, match play with the doubling cube and the Crawford rule, and the
//! Jellyfish `.mat` record. Pure: no I/O, no randomness (the dice are given).
//!
//! GNU Backgammon is the reference: the move lists, the written moves and
//! the IDs are checked against it (`rules/tests/backgammon_gnubg.rs`).

pub mod arbiter;
mod board;
pub mod mat;
pub mod match_id;
mod match_play;
mod movegen;
pub mod notation;
mod partial;
pub mod position_id;
mod resolve;
mod table;

pub use board::{Board, BoardError, Dice, CHECKERS};
pub use match_play::{
    Action, ActionError, EndKind, GameEnd, GameRecord, Match, MatchOptions, Phase, MAX_CUBE,
};
pub use movegen::{apply, legal_plays, Play, Step};
pub use partial::{check_from, check_steps, steps_text, StepCheck};
pub use resolve::{parse, resolve, MoveError, ParseError, TextPath};
