//! tandem's rules engine: international draughts (10x10, squares 1-50) and
//! 64-square draughts as the Polish Draughts Code defines them, with move
//! generation, notation, PDN FEN, PDN records, draw rules and clock arithmetic.
//!
//! The crate is pure: no I/O, no clocks read, no logging. Time is passed in.
//!
//! ```
//! use tandem_rules::{Position, Variant};
//! let mut pos = Position::start(Variant::International);
//! let m = pos.legal_moves().into_iter().find(|m| m.from().number() == 32 && m.to().number() == 28).unwrap();
//! pos.play_unchecked(&m);
//! assert_eq!(pos.turn(), tandem_rules::Color::Black);
//! ```
#![forbid(unsafe_code)]

pub mod arbiter;
pub mod backgammon;
pub mod chess;
pub mod clock;
pub mod fen;
pub mod game;
mod movegen;
mod mv;
pub mod notation;
pub mod pdn;
mod perft;
mod position;
pub mod reconcile;
pub mod record;
mod table_game;
mod types;
mod variant;

pub use clock::{Clock, ClockReport, GameTime, TimeControl};
pub use fen::FenError;
pub use game::{
    DrawCount, DrawReason, DrawRule, Game, GameOptions, Outcome, PlayError, PointNumbering,
    WinReason,
};
pub use mv::{Move, MAX_CAPTURES};
pub use perft::{perft, perft_divide};
pub use position::{IllegalMove, Position};
pub use table_game::TableGame;
pub use types::{Color, Piece, Role, Square};
pub use variant::{ParseVariantError, Variant};
