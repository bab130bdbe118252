//! tandem's rules engine: one folder per game, and what every game shares.
//!
//! - [`draughts`]: international draughts (10x10, squares 1-50) and
//!   64-square draughts as the Polish Draughts Code defines them: move
//!   generation, notation, PDN FEN, PDN records, draw rules, the arbiter's
//!   record and board comparisons (001 ch. I, ch. VIII).
//! - [`chess`]: chess under the FIDE Laws, annex E (002), on `shakmaty`.
//! - [`backgammon`]: backgammon under the EUBGF rules (004), checked against
//!   GNU Backgammon.
//!
//! Shared by every game: [`Color`], how a game ends ([`Outcome`]), the
//! event's options ([`GameOptions`]), the [`TableGame`] trait, the clock
//! arithmetic ([`clock`]), the lexing of written records ([`record`]) and
//! the generic record comparison ([`reconcile`]). Nothing outside a game's
//! folder names a game; this file is the registry that lists them.
//!
//! Two floors (`docs/architecture.md`): what every game shares (`color`,
//! `outcome`, [`clock`], [`record`], [`reconcile`], `table_game`) below
//! the games' folders, which use it and never each other.
//!
//! The crate is pure: no I/O, no clocks read, no logging. Time is passed in.
//!
//! ```
//! use tandem_rules::draughts::{Position, Variant};
//! let mut pos = Position::start(Variant::International);
//! let m = pos.legal_moves().into_iter().find(|m| m.from().number() == 32 && m.to().number() == 28).unwrap();
//! pos.play_unchecked(&m);
//! assert_eq!(pos.turn(), tandem_rules::Color::Black);
//! ```
#![forbid(unsafe_code)]

// The games: one folder each (the registry).
pub mod backgammon;
pub mod chess;
pub mod draughts;

// What every game shares.
pub mod clock;
mod color;
mod outcome;
pub mod reconcile;
pub mod record;
mod table_game;

pub use clock::{Clock, ClockReport, GameTime, TimeControl};
pub use color::Color;
pub use outcome::{DrawReason, GameOptions, Outcome, PointNumbering, WinReason};
pub use table_game::TableGame;
