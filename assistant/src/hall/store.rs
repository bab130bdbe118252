//! The desk's copy of one table's journal (`DATA/EVENT/table-N.jsonl`), its
//! hash chain checked line by line as the lines come, and what the desk
//! knows of the table besides (its last state, its alerts, when it was seen).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use crate::journal::{line_hash, Journal, Record, GENESIS};
use crate::relay::proto::{alert_of, Alert, LineMsg};

/// Lines held back waiting for a missing one, at most (then the oldest wait is dropped).
const MAX_PENDING: usize = 20_000;

/// What became of a line that came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken {
    /// Appended (with the lines that waited for it): how many.
    Appended(u64),
    /// A copy of a line the desk has (same hash): dropped.
    Duplicate,
    /// Lines are missing before it: it waits; ask again from this line.
    Gap(u64),
    /// Not what the desk holds, or not chained to it: an alert was raised.
    Bad,
}

/// One table as the desk knows it.
#[derive(Debug)]
pub struct TableCopy {
    /// Its number.
    pub table: u32,
    file: PathBuf,
    out: Option<File>,
    /// The hash of every line held.
    hashes: Vec<String>,
    /// Every record held (parsed).
    pub records: Vec<Record>,
    /// Lines that came early, by number.
    pending: BTreeMap<u64, LineMsg>,
    /// Since when a line has been missing.
    pub gap_since: Option<Instant>,
    /// Whether a gap alert was raised for the current gap.
    gap_alerted: bool,
    /// No edit, removal or reordering seen.
    pub chain_ok: bool,
    /// Alerts, oldest first.
    pub alerts: Vec<Alert>,
    /// The last state message.
    pub state: Option<Value>,
    /// When the last state message came (desk time, ms since 1970).
    pub state_rx_ms: u64,
    /// When anything last came from the table.
    pub seen: Option<Instant>,
    /// Whether the table says it is connected (its `online` topic).
    pub online: Option<bool>,
    /// When the desk last asked for lines again.
    pub asked: Option<Instant>,
    /// Since when the table has had lines the desk lacks.
    pub lacking_since: Option<Instant>,
}

impl TableCopy {
    /// The copy kept at `file`, read back if the desk ran before.
    ///
    /// # Errors
    /// The file exists and cannot be read.
    pub fn open(table: u32, file: &Path) -> std::io::Result<TableCopy> {
        let mut t = TableCopy {
            table,
            file: file.to_owned(),
            out: None,
            hashes: Vec::new(),
            records: Vec::new(),
            pending: BTreeMap::new(),
            gap_since: None,
            gap_alerted: false,
            chain_ok: true,
            alerts: Vec::new(),
            state: None,
            state_rx_ms: 0,
            seen: None,
            online: None,
            asked: None,
            lacking_since: None,
        };
        match std::fs::read(file) {
            Ok(bytes) => {
                let j = Journal::parse(&bytes);
                let good = usize::try_from(j.good_len).unwrap_or(bytes.len());
                for line in bytes[..good]
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty())
                {
                    t.hashes.push(line_hash(line));
                }
                if let Some(b) = &j.bad {
                    t.chain_ok = false;
                    t.raise(Alert {
                        kind: "chain".into(),
                        text: format!(
                            "The desk's copy is broken at line {}: {}.",
                            b.line, b.reason
                        ),
                        seq: None,
                        wall: crate::journal::wall_now(),
                    });
                }
                t.hashes.truncate(j.records.len());
                t.records = j.records;
                for r in t.records.clone() {
                    if let Some(a) = alert_of(&r) {
                        t.raise(a);
                    }
                }
                if good < bytes.len() {
                    // A torn tail of an earlier run: cut it off, the lines come again.
                    let f = OpenOptions::new().write(true).open(file)?;
                    f.set_len(good as u64)?;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        Ok(t)
    }

    /// Lines held.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.hashes.len() as u64
    }

    /// No line held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The file of the copy.
    #[must_use]
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Whether lines are missing (some wait, or the table has more than the desk).
    #[must_use]
    pub fn lacking(&self) -> bool {
        !self.pending.is_empty() || self.relay_lines() > self.len()
    }

    /// How many lines the table said it has (in its last state).
    #[must_use]
    pub fn relay_lines(&self) -> u64 {
        self.state
            .as_ref()
            .and_then(|s| s["journal_lines"].as_u64())
            .unwrap_or(0)
    }

    /// Adds an alert (one per journal line: a line relayed twice raises it once).
    pub fn raise(&mut self, a: Alert) -> bool {
        if a.seq.is_some()
            && self
                .alerts
                .iter()
                .any(|x| x.seq == a.seq && x.kind == a.kind)
        {
            return false;
        }
        self.alerts.push(a);
        if self.alerts.len() > 200 {
            self.alerts.remove(0);
        }
        true
    }

    fn chain_alert(&mut self, text: String) {
        self.chain_ok = false;
        self.raise(Alert {
            kind: "chain".into(),
            text,
            seq: None,
            wall: crate::journal::wall_now(),
        });
    }

    /// Takes a line as relayed; returns what became of it and the alerts it raised.
    pub fn take(&mut self, msg: LineMsg) -> (Taken, Vec<Alert>) {
        let before = self.alerts.len();
        let taken = self.take_inner(msg);
        let raised = self
            .alerts
            .get(before..)
            .map(<[Alert]>::to_vec)
            .unwrap_or_default();
        (taken, raised)
    }

    /// A new game at this table (the next round): the old copy is kept
    /// aside as `table-N-GAME.jsonl` and the new one starts empty.
    fn new_game(&mut self, game: &str) {
        let old = self.hashes.first().cloned().unwrap_or_default();
        self.out = None;
        let aside = self.file.with_file_name(format!(
            "table-{}-{}.jsonl",
            self.table,
            old.get(..12).unwrap_or("old")
        ));
        if let Err(e) = std::fs::rename(&self.file, &aside) {
            tracing::error!("hall: cannot keep {} aside: {e}", self.file.display());
        }
        self.hashes.clear();
        self.records.clear();
        self.pending.retain(|_, m| m.game == game);
        self.chain_ok = true;
        self.gap_since = None;
        self.gap_alerted = false;
        self.alerts.clear();
        self.raise(Alert {
            kind: "new-game".into(),
            text: format!(
                "Table {} started another game; the last one's journal is kept as {}.",
                self.table,
                aside.file_name().unwrap_or_default().to_string_lossy()
            ),
            seq: None,
            wall: crate::journal::wall_now(),
        });
    }

    fn take_inner(&mut self, msg: LineMsg) -> Taken {
        if !msg.game.is_empty() && self.hashes.first().is_some_and(|g| *g != msg.game) {
            self.new_game(&msg.game.clone());
        }
        if line_hash(msg.line.as_bytes()) != msg.hash {
            self.chain_alert(format!(
                "Table {}: line {} came with a wrong hash (damaged on the way, or forged).",
                self.table, msg.seq
            ));
            return Taken::Bad;
        }
        let have = self.len();
        if msg.seq == 0 {
            return Taken::Bad;
        }
        if msg.seq <= have {
            let i = usize::try_from(msg.seq - 1).unwrap_or(usize::MAX);
            if self.hashes.get(i) == Some(&msg.hash) {
                return Taken::Duplicate;
            }
            self.chain_alert(format!(
                "Table {}: line {} differs from the desk's copy (the journal was edited or replaced).",
                self.table, msg.seq
            ));
            return Taken::Bad;
        }
        if msg.seq > have + 1 {
            if self.pending.len() >= MAX_PENDING {
                self.pending.pop_last();
            }
            self.pending.insert(msg.seq, msg);
            self.gap_since.get_or_insert_with(Instant::now);
            return Taken::Gap(have + 1);
        }
        let mut n = 0;
        let mut next = Some(msg);
        while let Some(m) = next {
            if !self.append(m) {
                break;
            }
            n += 1;
            let want = self.len() + 1;
            // Copies of lines now held are dropped with the wait.
            while let Some((&s, _)) = self.pending.first_key_value() {
                if s >= want {
                    break;
                }
                self.pending.pop_first();
            }
            next = self.pending.remove(&want);
        }
        if self.pending.is_empty() {
            self.gap_since = None;
            self.gap_alerted = false;
        }
        if n == 0 {
            Taken::Bad
        } else {
            Taken::Appended(n)
        }
    }

    /// Appends the next line if it chains; raises an alert if it does not.
    fn append(&mut self, m: LineMsg) -> bool {
        let prev = self.hashes.last().map_or(GENESIS, String::as_str);
        let record: Result<Record, _> = serde_json::from_str(&m.line);
        let chained = match &record {
            Ok(r) => r.prev == prev && r.seq == m.seq,
            Err(_) => false,
        };
        if !chained {
            self.chain_alert(format!(
                "Table {}: line {} does not follow line {} (a line was removed, edited or reordered).",
                self.table,
                m.seq,
                m.seq - 1
            ));
            return false;
        }
        if self.out.is_none() {
            if let Some(dir) = self.file.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            match OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.file)
            {
                Ok(f) => self.out = Some(f),
                Err(e) => tracing::error!("hall: cannot write {}: {e}", self.file.display()),
            }
        }
        if let Some(f) = &mut self.out {
            let mut bytes = Vec::with_capacity(m.line.len() + 1);
            bytes.extend_from_slice(m.line.as_bytes());
            bytes.push(b'\n');
            if let Err(e) = f.write_all(&bytes) {
                tracing::error!("hall: cannot write {}: {e}", self.file.display());
            }
        }
        self.hashes.push(m.hash);
        if let Ok(r) = record {
            if let Some(a) = alert_of(&r) {
                self.raise(a);
            }
            self.records.push(r);
        }
        true
    }

    /// A gap that has lasted `secs` raises its alert once.
    pub fn check_gap(&mut self, secs: u64) -> Option<Alert> {
        let since = self.gap_since?;
        if self.gap_alerted || since.elapsed().as_secs() < secs {
            return None;
        }
        self.gap_alerted = true;
        let a = Alert {
            kind: "gap".into(),
            text: format!(
                "Table {}: lines from {} on have not come for {secs} s.",
                self.table,
                self.len() + 1
            ),
            seq: None,
            wall: crate::journal::wall_now(),
        };
        self.raise(a.clone());
        Some(a)
    }

    /// Whether the boards were reported different and play has not resumed since.
    #[must_use]
    pub fn mismatch(&self) -> bool {
        use crate::journal::Event;
        for r in self.records.iter().rev() {
            match r.event {
                Event::Mismatch { .. } => return true,
                Event::Resume | Event::Correction { .. } | Event::Move { .. } => return false,
                _ => {}
            }
        }
        false
    }
}

/// The lines a table relays for a draughts game started with `control`
/// (`white` named or not), then three ticks: the desk's tests' journal.
#[cfg(test)]
pub(crate) fn journal_lines(white: Option<&str>, control: &str) -> Vec<LineMsg> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("j.jsonl");
    let mut w = crate::journal::JournalWriter::create(&p).unwrap();
    let start = crate::journal::StartInfo {
        variant: "international".into(),
        fen: tandem_rules::draughts::Position::start(
            tandem_rules::draughts::Variant::International,
        )
        .to_fen(),
        control: control.into(),
        warnings_s: vec![],
        white: white.map(str::to_owned),
        black: None,
        event: None,
        blind: "white".into(),
        lang: "en".into(),
        options: tandem_rules::GameOptions::default(),
        version: "test".into(),
    };
    w.append(0, crate::journal::Event::Start(start)).unwrap();
    for _ in 0..3 {
        w.append(0, crate::journal::Event::Tick).unwrap();
    }
    let text = std::fs::read_to_string(&p).unwrap();
    text.lines()
        .enumerate()
        .map(|(i, l)| LineMsg {
            seq: i as u64 + 1,
            hash: line_hash(l.as_bytes()),
            line: l.to_owned(),
            game: String::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Vec<LineMsg> {
        lines_of(None)
    }

    fn lines_of(white: Option<&str>) -> Vec<LineMsg> {
        journal_lines(white, "90m")
    }

    #[test]
    fn lines_in_order_duplicates_gaps_and_edits() {
        let l = lines();
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("t/table-1.jsonl");
        let mut t = TableCopy::open(1, &f).unwrap();
        assert_eq!(t.take(l[0].clone()).0, Taken::Appended(1));
        assert_eq!(t.take(l[0].clone()).0, Taken::Duplicate);
        assert_eq!(t.take(l[2].clone()).0, Taken::Gap(2));
        assert_eq!(t.take(l[3].clone()).0, Taken::Gap(2));
        assert!(t.lacking());
        assert_eq!(t.take(l[1].clone()).0, Taken::Appended(3));
        assert_eq!(t.len(), 4);
        assert!(t.chain_ok && !t.lacking());
        // What the desk wrote verifies as a journal.
        let j = Journal::read(&f).unwrap();
        assert!(j.bad.is_none() && j.torn.is_none());
        assert_eq!(j.records.len(), 4);
        // An edited line 2 sent again is an alert.
        let mut edited = l[1].clone();
        edited.line = edited.line.replace("tick", "tock");
        edited.hash = line_hash(edited.line.as_bytes());
        assert_eq!(t.take(edited).0, Taken::Bad);
        assert!(!t.chain_ok);
        assert!(t.alerts.iter().any(|a| a.kind == "chain"));
        // The copy is read back by a desk that restarts.
        let again = TableCopy::open(1, &f).unwrap();
        assert_eq!(again.len(), 4);
        assert!(again.chain_ok);
    }

    #[test]
    fn another_game_at_the_table_starts_a_new_copy() {
        let (a, b) = (lines(), lines_of(Some("Next round")));
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("table-3.jsonl");
        let mut t = TableCopy::open(3, &f).unwrap();
        for m in &a {
            let mut m = m.clone();
            m.game = a[0].hash.clone();
            t.take(m);
        }
        assert_eq!(t.len(), 4);
        let mut first = b[0].clone();
        first.game = b[0].hash.clone();
        assert_eq!(t.take(first).0, Taken::Appended(1));
        assert_eq!(t.len(), 1);
        assert!(t.chain_ok);
        assert!(t.alerts.iter().any(|a| a.kind == "new-game"));
        let aside = dir
            .path()
            .join(format!("table-3-{}.jsonl", &a[0].hash[..12]));
        assert_eq!(Journal::read(&aside).unwrap().records.len(), 4);
    }

    #[test]
    fn a_line_not_chained_is_refused() {
        let l = lines();
        let dir = tempfile::tempdir().unwrap();
        let mut t = TableCopy::open(2, &dir.path().join("table-2.jsonl")).unwrap();
        t.take(l[0].clone());
        // Line 3 relabelled as line 2 (line 2 removed).
        let mut moved = l[2].clone();
        moved.seq = 2;
        assert_eq!(t.take(moved).0, Taken::Bad);
        assert!(!t.chain_ok);
        let mut bad_hash = l[1].clone();
        bad_hash.hash = "00".into();
        assert_eq!(t.take(bad_hash).0, Taken::Bad);
    }
}
