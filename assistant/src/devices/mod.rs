//! A seat on the player's own device (issue 33; `docs/devices.md`): the
//! table serves a page and its API (`tandem play --seats ADDR`) to a phone
//! or laptop paired with a one-time code (`tandem ctl pair SIDE`). A paired
//! device *is* that side's seat: its requests are the seat's (a move only
//! for its side, on its turn; its answers to it alone), journaled with
//! `"seat"` like any seat's, and it hears what that seat hears.
//!
//! - [`pairing`]: the codes (6 digits, 2 minutes, checked in turn at a
//!   global pace, counted per peer when wrong, a peer refused after its 10th
//!   until a new one) and the sessions (a random 128-bit token in an
//!   `HttpOnly`, `SameSite=Strict` cookie).
//! - [`web`]: the routes, the Host and Origin checks, the pages (embedded:
//!   nothing from elsewhere).
//! - [`serve`]: the bounds of the table's server (`crate::http`): in all,
//!   per peer, room kept for paired devices, the time for headers and body.
//!
//! - [`view`]: what the pages show (the state for one seat, its board
//!   drawn from its chair and what it may tap), apart from how.
//! - [`tls`] (`crate::http::tls`): beyond loopback, the pages over TLS
//!   with the table's own certificate, its fingerprint shown and said.
//! - [`at_table`]: `pair SIDE` and `unpair SIDE` typed on the table's own
//!   input line (or asked by a seat), the code said in the table's words.

pub mod at_table;
pub mod pairing;
pub mod serve;
pub mod view;
pub mod web;

pub use crate::http::tls;
pub use pairing::{PairCode, Pairing};
