//! Reading the records `tandem arbiter` compares: PDN, a tandem journal, a
//! typed move list, a BRF braille record; and the clock times a journal
//! holds at a ply.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Serialize;
use serde_json::Value as Json;
use tandem_rules::{Color, TimeControl};

use crate::journal::{Event, Journal};
use crate::kind::GameKind;

/// How a record file was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// PDN with tags.
    Pdn,
    /// PGN with tags (chess).
    Pgn,
    /// A tandem journal (JSON lines).
    Journal,
    /// A plain move list.
    List,
    /// A braille record (Braille Ready Format), back-translated with liblouis.
    Brf,
    /// A Jellyfish `.mat` match file (backgammon: gnubg, tandem's export).
    Mat,
}

/// A record read from a file.
#[derive(Debug, Clone)]
pub struct LoadedRecord {
    /// The file.
    pub path: PathBuf,
    /// Its form.
    pub format: RecordFormat,
    /// The moves as written.
    pub texts: Vec<String>,
    /// The game it names (PDN `[GameType]`, the journal's start).
    pub variant: Option<GameKind>,
    /// The start position it names (PDN `[FEN]`, the journal's start), as FEN.
    pub fen: Option<String>,
    /// The journal, if it is one.
    pub journal: Option<Journal>,
    /// Things the arbiter should know about how it was read.
    pub notes: Vec<String>,
}

/// Whether text is a tandem journal: its first non-blank line is a JSON object.
#[must_use]
pub fn is_journal(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| serde_json::from_str::<serde_json::Map<String, Json>>(l).is_ok())
}

/// The one game with moves of a record file (`games`, those the file
/// holds that count): the arbiter compares a game with a game.
///
/// # Errors
/// The file has no such game, or more than one.
pub(crate) fn the_one_game<'a, G>(games: &'a [G], path: &Path) -> anyhow::Result<&'a G> {
    match games {
        [] => bail!("{}: no moves found", path.display()),
        [game] => Ok(game),
        _ => bail!(
            "{}: holds {} games; give each record as a file with one game",
            path.display(),
            games.len()
        ),
    }
}

/// What the arbiter should know about how a journal was read: a broken
/// chain (read up to it), a torn last line (dropped).
pub(crate) fn journal_notes(path: &Path, j: &Journal) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(bad) = &j.bad {
        notes.push(format!(
            "{}: journal chain broken at line {} ({}); read up to it",
            path.display(),
            bad.line,
            bad.reason
        ));
    }
    if let Some(t) = &j.torn {
        notes.push(format!(
            "{}: torn last line {} dropped ({})",
            path.display(),
            t.line,
            t.reason
        ));
    }
    notes
}

/// Reads a journal given with `--journal`.
pub(crate) fn read_journal(p: &Path) -> anyhow::Result<Journal> {
    let bytes = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
    if !is_journal(&String::from_utf8_lossy(&bytes)) {
        bail!(
            "{}: not a tandem journal (the first line is not a JSON object)",
            p.display()
        );
    }
    let j = Journal::parse(&bytes);
    if j.start().is_none() {
        bail!(
            "{}: not a tandem journal (no game start on line 1)",
            p.display()
        );
    }
    Ok(j)
}

pub(crate) fn journal_record(path: &Path, j: Journal) -> anyhow::Result<LoadedRecord> {
    let Some(start) = j.start() else {
        bail!(
            "{}: not a tandem journal (no game start on line 1)",
            path.display()
        );
    };
    let variant: GameKind = start
        .variant
        .parse()
        .map_err(|e| anyhow::anyhow!("{}: journal start: {e}", path.display()))?;
    let notes = journal_notes(path, &j);
    Ok(LoadedRecord {
        path: path.to_owned(),
        format: RecordFormat::Journal,
        texts: journal_moves(&j),
        variant: Some(variant),
        fen: Some(start.fen.clone()),
        journal: Some(j),
        notes,
    })
}

/// The moves of a journal in order; a move event for a ply already played
/// (after a correction) replaces that ply and what followed.
#[must_use]
pub fn journal_moves(j: &Journal) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in &j.records {
        if let Event::Move { ply, text, .. } = &r.event {
            let k = (*ply as usize).saturating_sub(1);
            v.truncate(k);
            v.push(text.clone());
        }
    }
    v
}

/// Clock times at a ply, from a journal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClockTimes {
    /// The ply they belong to (0: the start).
    pub ply: usize,
    /// White's time left, seconds.
    pub white_remaining: f64,
    /// Black's time left, seconds.
    pub black_remaining: f64,
    /// White's time used, seconds.
    pub white_used: f64,
    /// Black's time used, seconds.
    pub black_used: f64,
}

pub(crate) fn secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// The clock times right after ply `ply` (0: the start of the game) as the
/// journal recorded them: time left after the press, time used as the sum of
/// each side's move times. `None` if the journal does not reach that ply.
#[must_use]
pub fn clocks_at(j: &Journal, ply: usize) -> Option<ClockTimes> {
    // (side, move_ms, white_ms, black_ms) per ply, later entries replacing earlier ones.
    let mut plies: Vec<(Color, u64, u64, u64)> = Vec::new();
    for r in &j.records {
        if let Event::Move {
            ply: p,
            side,
            move_ms,
            white_ms,
            black_ms,
            ..
        } = &r.event
        {
            let k = (*p as usize).saturating_sub(1);
            plies.truncate(k);
            plies.push((*side, *move_ms, *white_ms, *black_ms));
        }
    }
    clocks_after(j, ply, &plies)
}

/// The clock times after `ply` of `plies` (each: the side that pressed,
/// its move's time, then white's and black's time left, in ms): at 0 the
/// start's time control, after that the ply's times left and each side's
/// move times summed.
pub(crate) fn clocks_after(
    j: &Journal,
    ply: usize,
    plies: &[(Color, u64, u64, u64)],
) -> Option<ClockTimes> {
    let used = |c: Color| -> u64 {
        plies
            .iter()
            .take(ply)
            .filter(|p| p.0 == c)
            .map(|p| p.1)
            .sum()
    };
    let (white_ms, black_ms) = if ply == 0 {
        let initial = TimeControl::lookup(&j.start()?.control)
            .ok()?
            .initial_time();
        let ms = u64::try_from(initial.as_millis()).ok()?;
        (ms, ms)
    } else {
        let p = plies.get(ply - 1)?;
        (p.2, p.3)
    };
    Some(ClockTimes {
        ply,
        white_remaining: secs(white_ms),
        black_remaining: secs(black_ms),
        white_used: secs(used(Color::White)),
        black_used: secs(used(Color::Black)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journal_detection_needs_an_object_on_the_first_line() {
        assert!(is_journal("\n{\"seq\":1}\n"));
        assert!(!is_journal("[Event \"x\"]\n1. 32-28"));
        assert!(!is_journal("{not json"));
    }
}
