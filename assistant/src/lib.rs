//! tandem: the daemon and command line that seat a blind or visually impaired
//! player at a draughts, chess or backgammon table on equal terms (Polish
//! Draughts Code, ch. VIII; FIDE Laws, annex E; the EUBGF rules).
//!
//! The games sit behind one interface ([`games::Game`]); each has its folder
//! in [`games`] (adapter and arbiter), listed by the registry [`game`]. The
//! session, the journal, the control socket, the screen, the hall and the
//! shared [`arbiter`] name no game.
//!
//! Everything testable lives in this library; `main.rs` only calls [`cli::main`].

pub mod arbiter;
pub mod cli;
pub mod client;
pub mod cmd;
pub mod config;
pub mod control;
pub mod export;
pub mod game;
pub mod game_book;
pub mod games;
pub mod hall;
pub mod journal;
pub mod kind;
pub mod lang;
pub mod logging;
pub mod messages;
pub mod one_shot;
pub mod outputs;
pub mod perft_count;
pub mod picture;
pub mod relay;
pub mod screen;
pub mod session;
pub mod table_options;
pub mod voice;
pub mod voice_start;
