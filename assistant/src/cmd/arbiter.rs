//! `tandem arbiter`: the arbiter's tools when the two boards differ
//! (001 ch. VIII 3.1; 002 annex E.7-E.8; 004 3.8, 4.2 (iii)) and when
//! announcements go wrong too often (001 ch. VIII 3.2).
//!
//! - `tandem arbiter reconcile A B [--variant V] [--fen FEN] [--match N] [--journal J] [--lang pl|en] [--json]`:
//!   compares two records of one game (PDN, PGN, a tandem journal, a
//!   backgammon `.mat` file, or a move list typed from a paper or braille
//!   scoresheet). Exit status 0 when the records agree move for move, 1
//!   when they differ (or one holds an illegal move), 2 when a record
//!   cannot be read.
//! - `tandem arbiter diff A B [--variant V] [--lang pl|en] [--json]`: the
//!   squares (points) where two positions (FEN, backgammon Position ID with
//!   its Match ID) differ and what to do on the second board to make it
//!   equal the first. Exit status 0 when they are the same, 1 when they
//!   differ, 2 on a bad position.
//! - `tandem arbiter announcements JOURNAL [--json]`: how often each side's
//!   input was refused (an illegal or misheard move, an unknown command).
//!
//! Each game brings its part through `ArbiterGame` (`arbiter_for` is the
//! one place that lists them); the logic is pure, in the rules crate
//! (each game's `arbiter` module, all on [`tandem_rules::reconcile`]);
//! this module reads files and presents the results (see `docs/arbiter.md`).

use std::process::ExitCode;

pub use crate::arbiter::{
    AnnouncementsArgs, ArbiterCommand, Args, DiffArgs, DiffNumbering, Files, ReconcileArgs, Side,
};

/// Runs `tandem arbiter`.
///
/// # Errors
/// A record, FEN or journal that cannot be read (exit status 2).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::arbiter::run(args)
}
