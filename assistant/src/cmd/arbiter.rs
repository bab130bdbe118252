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
//! - `tandem arbiter report JOURNAL [--json]`: the table's report lines
//!   (its binary's SHA-256, rated or not, what it opened; issue 41); exit 1
//!   when there is none or the binary changed during the game.
//!
//! Each game brings its part through `ArbiterGame` (the registry's
//! [`GameKind::arbiter`] is the one place that lists them); the logic is
//! pure, in the rules crate (each game's `arbiter` module, all on
//! [`tandem_rules::reconcile`]); `crate::arbiter` reads files and presents
//! the results (see `docs/arbiter.md`). This command picks the game and
//! hands the tools the registry they need ([`crate::game::arbiter_registry`]).

use std::process::ExitCode;

use crate::arbiter::{announcements, svg, Words};
use crate::game::GameKind;

pub use crate::arbiter::{
    AnnouncementsArgs, ArbiterCommand, Args, DiffArgs, DiffNumbering, Files, ReconcileArgs, Side,
};

/// Runs `tandem arbiter`: the game's tools through [`GameKind::arbiter`].
///
/// # Errors
/// A record, FEN or journal that cannot be read (exit status 2).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let reg = crate::game::arbiter_registry();
    match args.command {
        ArbiterCommand::Reconcile(a) => {
            let kind = match a.variant {
                Some(k) => k,
                None => detect_records(&a)?,
            };
            kind.arbiter().reconcile(&a, kind, &reg)
        }
        ArbiterCommand::Diff(a) => {
            let kind = a.variant.unwrap_or_else(|| {
                GameKind::DETECTED
                    .into_iter()
                    .find(|k| {
                        k.arbiter().claims_position(&a.a) || k.arbiter().claims_position(&a.b)
                    })
                    .unwrap_or(GameKind::FALLBACK)
            });
            if let Some(path) = &a.svg {
                svg::write_diff(path, &reg, kind, &a.a, &a.b, Words::new(a.lang))?;
            }
            kind.arbiter().diff(&a, kind)
        }
        ArbiterCommand::Announcements(a) => announcements::run_announcements(&a, &reg),
        ArbiterCommand::Report(a) => report(&a),
    }
}

/// `tandem arbiter report JOURNAL`: the table's report lines (exit 1 when
/// there is none, or the binary changed during the game).
fn report(a: &crate::arbiter::JournalReportArgs) -> anyhow::Result<ExitCode> {
    use std::io::Write as _;
    let j = crate::journal::Journal::read(&a.journal)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", a.journal.display()))?;
    let r = crate::journal::reports::Reports::of(&j);
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&r)?)?;
    } else {
        for line in r.text() {
            writeln!(out, "{}: {line}", a.journal.display())?;
        }
        // The latest report in full: what the table runs now.
        if let Some(last) = r.lines.last() {
            write!(out, "{}", last.report.text())?;
        }
    }
    let ok = !r.lines.is_empty() && !r.binary_changed;
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The game of two records given without `--variant`: the first game of
/// [`GameKind::DETECTED`] that claims either file, else [`GameKind::FALLBACK`].
fn detect_records(args: &ReconcileArgs) -> anyhow::Result<GameKind> {
    let table = args.braille_table();
    for kind in GameKind::DETECTED {
        let g = kind.arbiter();
        if g.claims_record(&args.a, &table)? || g.claims_record(&args.b, &table)? {
            return Ok(kind);
        }
    }
    Ok(GameKind::FALLBACK)
}
