//! tandem: the daemon and command line that seat a blind or visually impaired
//! draughts player at the table on equal terms (Polish Draughts Code, ch. VIII).
//!
//! Everything testable lives in this library; `main.rs` only calls [`cli::main`].

pub mod cli;
pub mod client;
pub mod cmd;
pub mod config;
pub mod control;
pub mod export;
pub mod game;
pub mod games;
pub mod hall;
pub mod journal;
pub mod logging;
pub mod messages;
pub mod outputs;
pub mod picture;
pub mod relay;
pub mod screen;
pub mod session;
pub mod voice;
pub mod voice_start;
