//! A table's earlier journals with lines the broker never acknowledged: a
//! game that ended while the broker was down, the table stopped before its
//! relay could drain, and the next game started at a new journal. At its
//! start the relay finds them beside the new journal (their cursor files,
//! `JOURNAL.relay.json`, name the event and the table and say how far each
//! got) and sends what is left of them, marked `earlier`, after the new
//! game's own lines: the desk adds them to that game's copy.
//!
//! Bounded: the [`MAX_EARLIER`] newest journals of this event and table,
//! none older than [`MAX_AGE`] nor bigger than [`MAX_BYTES`]; read on a
//! blocking thread, and sent only with the room the new game's lines leave,
//! so the new game never waits for them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::proto::LineMsg;
use super::tail::{Cursor, Tail};

/// Earlier journals relayed at a start, at most (the newest).
pub const MAX_EARLIER: usize = 8;
/// An earlier journal last written longer ago than this is left alone.
pub const MAX_AGE: Duration = Duration::from_secs(24 * 3600);
/// An earlier journal bigger than this is left alone (a real one is well under 1 MiB).
pub const MAX_BYTES: u64 = 16 << 20;

/// One earlier journal being relayed.
#[derive(Debug)]
pub struct Earlier {
    /// A number for it within this run (never 0: 0 is the current journal).
    pub id: u32,
    /// Its lines.
    pub tail: Tail,
    /// Its cursor.
    pub cursor: Cursor,
    cursor_path: PathBuf,
    /// Lines acknowledged above the cursor.
    acked_above: BTreeSet<u64>,
    /// The next line to publish on this connection.
    pub next: u64,
    /// The cursor changed and is not on disk yet.
    pub dirty: bool,
}

impl Earlier {
    /// Its game: the hash of its first line.
    #[must_use]
    pub fn game(&self) -> &str {
        self.tail.hash(1).unwrap_or_default()
    }

    /// The next line to publish on this connection, marked `earlier`, if any.
    #[must_use]
    pub fn next_message(&self) -> Option<LineMsg> {
        let mut m = self.tail.message(self.next)?;
        m.earlier = true;
        Some(m)
    }

    /// Whether the broker acknowledged every line.
    #[must_use]
    pub fn done(&self) -> bool {
        self.cursor.acked >= self.tail.len()
    }

    /// Line `seq` was acknowledged by the broker.
    pub fn acked(&mut self, seq: u64) {
        self.dirty |= self.cursor.ack(seq, &mut self.acked_above, &self.tail);
    }

    /// Writes the cursor (synced).
    pub fn save(&mut self) {
        self.dirty = false;
        if let Err(e) = self.cursor.save(&self.cursor_path, true) {
            tracing::warn!("relay: cannot save {}: {e}", self.cursor_path.display());
        }
    }
}

/// The earlier journals of `event` and `table` beside `journal` (not it)
/// with lines the broker has not acknowledged, oldest first, within the
/// bounds above.
#[must_use]
pub fn find(journal: &Path, event: &str, table: u32) -> Vec<Earlier> {
    let dir = match journal.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let own = journal.file_name().map(std::ffi::OsStr::to_owned);
    let now = SystemTime::now();
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(jname) = name.strip_suffix(".relay.json") else {
            continue;
        };
        if jname.is_empty() || own.as_deref() == Some(std::ffi::OsStr::new(jname)) {
            continue;
        }
        let cursor_path = entry.path();
        let cursor = Cursor::load(&cursor_path);
        if cursor.event != event || cursor.table != Some(table) {
            continue;
        }
        let jpath = dir.join(jname);
        let Ok(meta) = std::fs::metadata(&jpath) else {
            continue;
        };
        let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let age = now.duration_since(modified).unwrap_or_default();
        if !meta.is_file() || meta.len() > MAX_BYTES || age > MAX_AGE {
            continue;
        }
        found.push((modified, jpath, cursor_path, cursor));
    }
    // The newest MAX_EARLIER, then oldest first.
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found.truncate(MAX_EARLIER);
    found.reverse();
    let mut out = Vec::new();
    for (_, jpath, cursor_path, mut cursor) in found {
        let mut tail = Tail::new(&jpath);
        if let Err(e) = tail.poll() {
            tracing::warn!("relay: cannot read {}: {e}", jpath.display());
            continue;
        }
        let a = cursor.acked;
        if a > 0 && tail.hash(a) != Some(cursor.acked_hash.as_str()) {
            // Not the journal the cursor was about: all of it.
            cursor.acked = 0;
        }
        if tail.len() <= cursor.acked {
            continue;
        }
        tracing::info!(
            "relay: {} has {} lines the hall has not had; sending them",
            jpath.display(),
            tail.len() - cursor.acked
        );
        out.push(Earlier {
            id: u32::try_from(out.len()).unwrap_or(u32::MAX - 1) + 1,
            next: cursor.acked + 1,
            tail,
            cursor,
            cursor_path,
            acked_above: BTreeSet::new(),
            dirty: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn journal(dir: &Path, name: &str, lines: &[&str]) -> PathBuf {
        let p = dir.join(name);
        let mut f = std::fs::File::create(&p).unwrap();
        for l in lines {
            writeln!(f, "{l}").unwrap();
        }
        p
    }

    fn cursor(p: &Path, event: &str, table: u32, acked: u64, hash: &str) {
        Cursor {
            acked,
            acked_hash: hash.into(),
            event: event.into(),
            table: Some(table),
            ..Cursor::default()
        }
        .save(&Cursor::path_of(p), false)
        .unwrap();
    }

    #[test]
    fn only_this_tables_earlier_journals_with_lines_left_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let now = journal(d, "now.jsonl", &["{\"n\":1}"]);
        cursor(&now, "EV", 7, 0, "");
        // Two lines acknowledged of three: the third is left.
        let a = journal(d, "a.jsonl", &["{\"a\":1}", "{\"a\":2}", "{\"a\":3}"]);
        let h2 = crate::journal::line_hash(b"{\"a\":2}");
        cursor(&a, "EV", 7, 2, &h2);
        // Every line acknowledged.
        let b = journal(d, "b.jsonl", &["{\"b\":1}"]);
        cursor(&b, "EV", 7, 1, &crate::journal::line_hash(b"{\"b\":1}"));
        // Another table, another event, no cursor at all.
        let c = journal(d, "c.jsonl", &["{\"c\":1}"]);
        cursor(&c, "EV", 8, 0, "");
        let e = journal(d, "e.jsonl", &["{\"e\":1}"]);
        cursor(&e, "OTHER", 7, 0, "");
        journal(d, "f.jsonl", &["{\"f\":1}"]);
        // A cursor whose hash is not its journal's: all of it again.
        let g = journal(d, "g.jsonl", &["{\"g\":1}", "{\"g\":2}"]);
        cursor(&g, "EV", 7, 2, "not-this");
        let mut found = find(&now, "EV", 7);
        found.sort_by_key(|e| e.tail.hash(1).map(str::to_owned));
        let mut got: Vec<(u64, u64)> = found
            .iter()
            .map(|e| (e.tail.len(), e.cursor.acked))
            .collect();
        got.sort_unstable();
        assert_eq!(got, vec![(2, 0), (3, 2)]);
        let ea = found.iter_mut().find(|e| e.tail.len() == 3).unwrap();
        let m = ea.next_message().unwrap();
        assert!(m.earlier && m.seq == 3 && m.line == "{\"a\":3}");
        assert_eq!(m.game, crate::journal::line_hash(b"{\"a\":1}"));
        ea.acked(3);
        assert!(ea.done());
        ea.save();
        assert_eq!(Cursor::load(&Cursor::path_of(&a)).acked, 3);
        // Once sent, it is not found again.
        assert_eq!(find(&now, "EV", 7).len(), 1);
    }

    #[test]
    fn at_most_the_newest_few_are_taken() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let now = d.join("now.jsonl");
        for k in 0..(MAX_EARLIER + 4) {
            let p = journal(d, &format!("j{k:02}.jsonl"), &[&format!("{{\"k\":{k}}}")]);
            cursor(&p, "EV", 1, 0, "");
            let t = SystemTime::now() - Duration::from_secs(1000 - k as u64);
            std::fs::File::options()
                .append(true)
                .open(&p)
                .unwrap()
                .set_modified(t)
                .unwrap();
        }
        let old = journal(d, "old.jsonl", &["{\"old\":1}"]);
        cursor(&old, "EV", 1, 0, "");
        std::fs::File::options()
            .append(true)
            .open(&old)
            .unwrap()
            .set_modified(SystemTime::now() - MAX_AGE - Duration::from_secs(60))
            .unwrap();
        let found = find(&now, "EV", 1);
        assert_eq!(found.len(), MAX_EARLIER);
        let first: Vec<String> = found
            .iter()
            .map(|e| e.tail.message(1).unwrap().line)
            .collect();
        // Oldest first, the four oldest and the one past MAX_AGE left out.
        assert_eq!(first[0], "{\"k\":4}");
        assert_eq!(
            first[MAX_EARLIER - 1],
            format!("{{\"k\":{}}}", MAX_EARLIER + 3)
        );
    }
}
