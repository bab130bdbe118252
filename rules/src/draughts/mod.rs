//! Draughts as the Polish Draughts Code defines it: international draughts
//! (10x10, squares 1-50, 001 ch. I) and 64-square draughts (the same moving
//! and capturing rules on 8x8, 001 ch. I, italic parts).
//!
//! - [`Position`] and [`Move`]: bitboards, move generation with the
//!   compulsory largest capture (001 ch. I 4.13-4.15), [`perft`].
//! - [`notation`]: moves written strictly (`32-28`, `28x19`) and read loosely.
//! - [`fen`] and [`pdn`]: PDN FEN positions and PDN 3.0 records.
//! - [`Game`]: a record with the results and draw rules of 001 ch. I 6-7;
//!   implements [`TableGame`](crate::TableGame).
//! - [`arbiter`]: two records or two boards that differ (001 ch. VIII 3.1).
//!
//! ```
//! use tandem_rules::draughts::{Position, Variant};
//! let mut pos = Position::start(Variant::International);
//! let m = pos.legal_moves().into_iter().find(|m| m.from().number() == 32 && m.to().number() == 28).unwrap();
//! pos.play_unchecked(&m);
//! assert_eq!(pos.turn(), tandem_rules::Color::Black);
//! ```

pub mod arbiter;
pub mod fen;
pub mod game;
mod movegen;
mod mv;
pub mod notation;
pub mod pdn;
mod perft;
mod position;
mod types;
mod variant;

pub use fen::FenError;
pub use game::{DrawCount, DrawRule, Game, PlayError};
pub use mv::{Move, MAX_CAPTURES};
pub use perft::{perft, perft_divide};
pub use position::{IllegalMove, Position};
pub use types::{Piece, Role, Square};
pub use variant::{ParseVariantError, Variant};
