//! `tandem pdn export JOURNAL`: a journal as a PDN 3.0 game record (PGN for
//! a chess game), with the
//! names, the date and the result as tags, and each move's clock times as a
//! comment (`{white 1:29:48, black 1:30:00, move 0:12}`).

use std::path::Path;
use std::time::Duration;

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
}

fn clock(ms: u64) -> String {
    tandem_braille::render::format_clock(Some(Duration::from_millis(ms)))
}

/// The PDN text of a journal's game.
///
/// # Errors
/// The journal cannot be read, its chain is broken, or it is not a game.
pub fn pdn_from_journal(path: &Path, names: &Names) -> anyhow::Result<String> {
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
    let info = &table.info;
    let date = j
        .records
        .first()
        .map(|r| r.wall.get(..10).unwrap_or("").replace('-', "."))
        .filter(|d| d.len() == 10);
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            tags.push((k.to_owned(), v));
        }
    };
    tag("Event", names.event.clone().or_else(|| info.event.clone()));
    tag("Date", date);
    tag("White", names.white.clone().or_else(|| info.white.clone()));
    tag("Black", names.black.clone().or_else(|| info.black.clone()));
    // In the record's own form (PGN: `5400+30`).
    tag(
        "TimeControl",
        Some(table.game.record_control(&info.control)),
    );
    let mut comments = vec![None; table.game.ply()];
    for r in &j.records {
        if let Event::Move {
            ply,
            white_ms,
            black_ms,
            move_ms,
            ..
        } = &r.event
        {
            if let Some(c) = comments.get_mut((*ply as usize).saturating_sub(1)) {
                *c = Some(format!(
                    "white {}, black {}, move {}",
                    clock(*white_ms),
                    clock(*black_ms),
                    clock(*move_ms)
                ));
            }
        }
    }
    // The game's own record format (PDN; PGN for chess, 002 annex C).
    Ok(table.game.export(tags, comments))
}
