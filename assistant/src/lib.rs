//! tandem: the daemon and command line that seat a blind or visually impaired
//! player at a draughts, chess or backgammon table on equal terms (Polish
//! Draughts Code, ch. VIII; FIDE Laws, annex E; the EUBGF rules).
//!
//! The games sit behind one interface ([`interface::Game`]); each has its
//! folder in [`games`] (adapter and arbiter), listed by the registry
//! [`game`]. The session, the journal, the control socket, the screen, the
//! hall and the shared [`arbiter`] name no game.
//!
//! The modules stand on floors, each using only its own and those below
//! (`docs/architecture.md`, checked by `scripts/floors.py`), from the bottom:
//! 1. words and records: [`lang`], [`kind`], [`journal`], [`picture`],
//!    [`messages`], [`request`], [`seat`], [`brf_read`], [`game_book`],
//!    [`table_options`], [`perft_count`], [`logging`], [`paths`], [`random`],
//!    [`radios`], [`report`];
//! 2. the game interface and the tools the games build on: [`interface`],
//!    [`voice`], [`arbiter`], [`one_shot`];
//! 3. the games: [`games`];
//! 4. the registry: [`game`];
//! 5. the session: [`session`];
//! 6. the web server: [`http`];
//! 7. the adapters around the session: [`control`], [`client`], [`relay`],
//!    [`outputs`], [`screen`], [`export`], [`voice_start`], [`voice_thread`],
//!    [`devices`];
//! 8. the hall: [`hall`];
//! 9. the wiring: [`cmd`], [`config`], [`cli`], and [`table`]: `tandem play`'s
//!    list of parts (every adapter around the session, started and stopped alike).
//!
//! Everything testable lives in this library; `main.rs` only calls [`cli::main`].

pub mod arbiter;
pub mod brf_read;
pub mod cli;
pub mod client;
pub mod cmd;
pub mod config;
pub mod control;
pub mod desk_key;
pub mod devices;
pub mod eboard;
pub mod export;
pub mod game;
pub mod game_book;
pub mod games;
pub mod hall;
pub mod http;
pub mod interface;
pub mod journal;
pub mod kind;
pub mod lang;
pub mod logging;
pub mod messages;
pub mod one_shot;
pub mod outputs;
pub mod paths;
pub mod perft_count;
pub mod picture;
pub mod radios;
pub mod random;
pub mod relay;
pub mod report;
pub mod request;
pub mod screen;
pub mod seat;
pub mod session;
pub mod table;
pub mod table_options;
pub mod voice;
pub mod voice_start;
pub mod voice_thread;
