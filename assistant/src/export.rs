//! `tandem pdn export JOURNAL`: a journal as a PDN 3.0 game record (PGN for
//! a chess game), with the
//! names, the date and the result as tags, and each move's clock times as a
//! comment (`{white 1:29:48, black 1:30:00, move 0:12}`; in PGN the mover's
//! remaining time as broadcast sites write it, `{[%clk 1:29:48]}`).

use std::path::Path;

use anyhow::Context;

use crate::journal::{Event, Journal};
use crate::session::Table;

/// Tags given on the command line (they win over the journal's).
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// The round (the hall's, from the table's `--round`).
    pub round: Option<String>,
    /// Where the game is played (the hall's feeds).
    pub site: Option<String>,
}

pub use crate::interface::both_clocks;

/// A journal read, its chain checked, its game replayed.
pub struct ReadGame {
    /// The journal's lines.
    pub journal: crate::journal::Journal,
    /// The game at the table, replayed.
    pub table: Table,
    /// The day the game began, as records write it (`2026.05.02`).
    pub date: Option<String>,
}

/// Reads a journal for a record: every line, the game replayed, its date.
///
/// # Errors
/// The journal cannot be read, its chain is broken, or it is not a game.
pub fn read_game(path: &Path) -> anyhow::Result<ReadGame> {
    let j = Journal::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if let Some(b) = &j.bad {
        anyhow::bail!(
            "{}: line {}: {} (run tandem journal verify)",
            path.display(),
            b.line,
            b.reason
        );
    }
    let table = Table::replay(&j.records)?;
    let date = j
        .records
        .first()
        .map(|r| r.wall.get(..10).unwrap_or("").replace('-', "."))
        .filter(|d| d.len() == 10);
    Ok(ReadGame {
        journal: j,
        table,
        date,
    })
}

/// The PDN text of a journal's game.
///
/// # Errors
/// The journal cannot be read, its chain is broken, or it is not a game.
pub fn pdn_from_journal(path: &Path, names: &Names) -> anyhow::Result<String> {
    let ReadGame {
        journal: j,
        table,
        date,
    } = read_game(path)?;
    Ok(record_text(&j.records, &table, date, names))
}

/// The PDN text of a game from its journal's records (the hall's delayed
/// copies: the lines a spectator may see).
///
/// # Errors
/// The records are not a game.
pub fn pdn_from_records<R: std::borrow::Borrow<crate::journal::Record>>(
    records: &[R],
    names: &Names,
) -> anyhow::Result<String> {
    let table = Table::replay(records)?;
    let date = records
        .first()
        .map(|r| r.borrow().wall.get(..10).unwrap_or("").replace('-', "."))
        .filter(|d| d.len() == 10);
    Ok(record_text(records, &table, date, names))
}

fn record_text<R: std::borrow::Borrow<crate::journal::Record>>(
    records: &[R],
    table: &Table,
    date: Option<String>,
    names: &Names,
) -> String {
    let info = &table.info;
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            tags.push((k.to_owned(), v));
        }
    };
    tag("Event", names.event.clone().or_else(|| info.event.clone()));
    tag("Site", names.site.clone());
    tag("Date", date);
    tag("Round", names.round.clone().or_else(|| info.round.clone()));
    tag("White", names.white.clone().or_else(|| info.white.clone()));
    tag("Black", names.black.clone().or_else(|| info.black.clone()));
    // In the record's own form (PGN: `5400+30`).
    tag(
        "TimeControl",
        Some(table.game.record_control(&info.control)),
    );
    let timed = info.control.trim() != "none";
    let mut comments = vec![None; table.game.ply()];
    for r in records.iter().map(R::borrow) {
        if let Event::Move {
            ply,
            side,
            white_ms,
            black_ms,
            move_ms,
            ..
        } = &r.event
        {
            if let Some(c) = comments.get_mut((*ply as usize).saturating_sub(1)) {
                *c = table
                    .game
                    .clock_comment(*side, *white_ms, *black_ms, *move_ms, timed);
            }
        }
    }
    // The game's own record format (PDN; PGN for chess, 002 annex C).
    table.game.export(tags, comments)
}

// ------------------------------------------------------------ documents

pub mod audio;
pub mod brf;
pub mod diagram;
pub mod pdf;
pub mod record;
pub mod report_pdf;
pub use report_pdf::to_pdf as report_pdf;

/// What `tandem export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The game's own record: PDN for draughts, PGN for chess.
    Record,
    /// Braille Ready Format for an embosser or a braille notetaker.
    Brf,
    /// The scoresheet as a PDF, for the arbiter to sign.
    Pdf,
    /// The record read aloud, as one WAV file.
    Audio,
}

/// How a document is made: its language, braille table and page size.
#[derive(Debug, Clone)]
pub struct DocOptions {
    /// `pl` or `en` (default: the journal's).
    pub lang: Option<String>,
    /// The liblouis table for BRF (default: the language's).
    pub table: Option<String>,
    /// BRF cells a line.
    pub width: usize,
    /// BRF lines a page.
    pub lines: usize,
}

/// A journal's game as a document, in one place for every game and format:
/// text formats as text, PDF and WAV as their bytes.
///
/// # Errors
/// The journal cannot be read; the document cannot be made.
pub fn export(
    path: &Path,
    format: Format,
    heading: &record::Heading,
    o: &DocOptions,
) -> anyhow::Result<Vec<u8>> {
    if format == Format::Record {
        let names = Names {
            white: heading.white.clone(),
            black: heading.black.clone(),
            event: heading.event.clone(),
            ..Names::default()
        };
        return Ok(pdn_from_journal(path, &names)?.into_bytes());
    }
    let rec = record::GameRecord::from_journal(path, heading)?;
    let lang = o.lang.clone().unwrap_or_else(|| rec.lang.clone());
    match format {
        Format::Record => unreachable!("handled above"),
        Format::Brf => {
            let table = o.table.clone().unwrap_or_else(|| brf::default_table(&lang));
            let opts = brf::BrfOptions {
                table,
                width: o.width,
                lines: o.lines,
            };
            Ok(brf::to_brf(&rec, &lang, &opts)?.into_bytes())
        }
        Format::Pdf => pdf::to_pdf(&rec, &lang),
        Format::Audio => audio::to_wav(&rec, &lang),
    }
}
