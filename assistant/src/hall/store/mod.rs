//! The desk's copy of one table's journal (`DATA/EVENT/table-N.jsonl`), its
//! hash chain checked line by line as the lines come, and what the desk
//! knows of the table besides (its last state, its alerts, when it was seen).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use crate::journal::{line_hash, next_line_problem, Journal, Record, GENESIS};
use crate::relay::proto::{alert_of, now_ms, Alert, LineMsg};

/// Lines held back waiting for a missing one, at most (then the farthest is dropped: it comes again).
pub const MAX_PENDING: usize = 2_000;
/// Bytes of lines held back waiting, at most, per table.
pub const MAX_PENDING_BYTES: usize = 8 << 20;
/// The longest journal line the desk takes (a real one is a few KiB at most).
pub const MAX_LINE: usize = 256 << 10;
/// The longest alert text kept (a longer one is cut).
pub const MAX_ALERT_TEXT: usize = 500;
/// Alerts a table's view keeps (its own flood pushes out only its own).
const MAX_TABLE_ALERTS: usize = 200;
/// Copies of earlier games a table may have the desk start from an
/// `earlier` line 1, per run of the desk.
const MAX_ASIDE_MADE: u32 = 16;

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
    /// Their bytes.
    pending_bytes: usize,
    /// Bytes of the copy's file that hold complete lines.
    file_len: u64,
    /// The game time of the last line held.
    last_t: u64,
    /// Games this table had before the current one (their lines coming again
    /// mean two machines call themselves this table).
    earlier_games: Vec<String>,
    /// Since when a line has been missing.
    pub gap_since: Option<Instant>,
    /// Whether a gap alert was raised for the current gap.
    gap_alerted: bool,
    /// No edit, removal or reordering seen (or the arbiter acknowledged it):
    /// false stays false, across new games and restarts of the desk, until
    /// the arbiter acknowledges it.
    pub chain_ok: bool,
    /// Alerts, oldest first.
    pub alerts: Vec<Alert>,
    /// Alerts raised so far (the list is cut; this is not).
    raised: u64,
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
    /// When the desk last asked for an earlier game's lines again.
    pub asked_earlier: Option<Instant>,
    /// What [`TableCopy::earlier_lacking`] said at the last check (asked
    /// for only when it stays so: lines on their way are not asked for).
    pub earlier_last: Option<(String, u64)>,
    /// Since when the table has had lines the desk lacks.
    pub lacking_since: Option<Instant>,
    /// The copy of an earlier game last given a left-over line (`earlier`), and its game.
    aside: Option<Box<(String, TableCopy)>>,
    /// Copies of earlier games started from an `earlier` line 1 in this run.
    aside_made: u32,
    /// Copies aside opened for `earlier` lines: since when, how many.
    aside_opened: (Option<Instant>, u32),
    /// Lines held of the earlier games the table says it is sending.
    earlier_held: BTreeMap<String, u64>,
}

/// A table's state as the desk keeps it: the table's own picture of its
/// board (`board`: every square and piece, about 5 KB as text and ten
/// times that as a JSON tree) cut down to what the desk takes from it, the
/// last move's marks and the position they belong to (`{"fen", "last",
/// "captured"}`); the desk draws the board itself from the position text.
#[must_use]
pub fn kept_state(mut s: Value) -> Value {
    if let Some(b) = s.get("board").filter(|b| b.is_object()) {
        let marks =
            serde_json::json!({"fen": s["fen"], "last": b["last"], "captured": b["captured"]});
        s["board"] = marks;
    }
    s
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
            pending_bytes: 0,
            file_len: 0,
            last_t: 0,
            earlier_games: Vec::new(),
            gap_since: None,
            gap_alerted: false,
            chain_ok: true,
            alerts: Vec::new(),
            raised: 0,
            state: None,
            state_rx_ms: 0,
            seen: None,
            online: None,
            asked: None,
            asked_earlier: None,
            earlier_last: None,
            lacking_since: None,
            aside: None,
            aside_made: 0,
            aside_opened: (None, 0),
            earlier_held: BTreeMap::new(),
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
                t.file_len = good as u64;
                t.last_t = j.records.last().map_or(0, |r| r.t_ms);
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
        if let Ok(text) = std::fs::read_to_string(t.broken_file()) {
            t.chain_ok = false;
            t.raise(Alert {
                kind: "chain".into(),
                text: cut(text.trim(), MAX_ALERT_TEXT),
                seq: None,
                wall: crate::journal::wall_now(),
            });
        }
        Ok(t)
    }

    /// `table-N.jsonl.broken`: the first break of the chain, kept until the arbiter acknowledges it.
    fn broken_file(&self) -> PathBuf {
        let mut name = self.file.file_name().unwrap_or_default().to_owned();
        name.push(".broken");
        self.file.with_file_name(name)
    }

    /// The arbiter has seen the broken chain: `chain_ok` is true again (the
    /// alerts stay in the list).
    ///
    /// # Errors
    /// The mark on disk cannot be removed.
    pub fn acknowledge(&mut self) -> std::io::Result<()> {
        match std::fs::remove_file(self.broken_file()) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        self.chain_ok = true;
        Ok(())
    }

    /// The game of the copy: the hash of its first line.
    #[must_use]
    pub fn game(&self) -> Option<&str> {
        self.hashes.first().map(String::as_str)
    }

    /// Lines waiting for a missing one, and their bytes.
    #[must_use]
    pub fn pending_size(&self) -> (usize, usize) {
        (self.pending.len(), self.pending_bytes)
    }

    /// Takes the table's state as it now is ([`kept_state`]), taken now.
    pub fn set_state(&mut self, state: Value) {
        self.state = Some(kept_state(state));
        self.state_rx_ms = now_ms();
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

    /// Adds an alert, unless the same one is in the list already (one per
    /// journal line: a line relayed twice raises it once; the same words
    /// again are not a new alert). Its text is cut to [`MAX_ALERT_TEXT`].
    pub fn raise(&mut self, mut a: Alert) -> bool {
        a.text = cut(&a.text, MAX_ALERT_TEXT);
        a.kind = cut(&a.kind, 32);
        let same = |x: &Alert| {
            x.kind == a.kind
                && if a.seq.is_some() {
                    x.seq == a.seq
                } else {
                    x.text == a.text
                }
        };
        if self.alerts.iter().any(same) {
            return false;
        }
        self.alerts.push(a);
        self.raised += 1;
        if self.alerts.len() > MAX_TABLE_ALERTS {
            self.alerts.remove(0);
        }
        true
    }

    fn chain_alert(&mut self, text: String) {
        if self.chain_ok {
            // The first break is kept on disk until the arbiter acknowledges it.
            let f = self.broken_file();
            if let Err(e) = std::fs::write(&f, text.as_bytes()) {
                tracing::error!("hall: cannot write {}: {e}", f.display());
            }
        }
        self.chain_ok = false;
        self.raise(Alert {
            kind: "chain".into(),
            text,
            seq: None,
            wall: crate::journal::wall_now(),
        });
    }

    /// An alert about what the table sent that is not a journal line of its game.
    pub fn junk(&mut self, what: &str) -> Option<Alert> {
        let a = Alert {
            kind: "junk".into(),
            text: format!("Table {}: {what}; ignored.", self.table),
            seq: None,
            wall: crate::journal::wall_now(),
        };
        self.raise(a.clone()).then_some(a)
    }

    /// Takes a line as relayed; returns what became of it and the alerts it raised.
    pub fn take(&mut self, msg: LineMsg) -> (Taken, Vec<Alert>) {
        let before = self.raised;
        let taken = self.take_inner(msg);
        let k = usize::try_from(self.raised - before).unwrap_or(usize::MAX);
        let raised = self.alerts[self.alerts.len().saturating_sub(k)..].to_vec();
        (taken, raised)
    }

    /// Takes a line of one of the table's earlier games, left over when the
    /// table stopped and sent at its next start (`earlier`): into that
    /// game's copy kept aside (`table-N-GAME.jsonl`), checked as any line,
    /// or into the current copy when it is that game. One copy per game:
    /// a copy aside is found again by its first line's hash; one is started
    /// only from the game's line 1 (else the table is asked for it).
    pub fn take_earlier(&mut self, msg: LineMsg) -> (Taken, Vec<Alert>) {
        if msg.game.is_empty() || self.game().map_or(true, |g| g == msg.game) {
            return self.take(msg);
        }
        let before = self.raised;
        let taken = self.take_aside(msg);
        let k = usize::try_from(self.raised - before).unwrap_or(usize::MAX);
        let raised = self.alerts[self.alerts.len().saturating_sub(k)..].to_vec();
        (taken, raised)
    }

    fn take_aside(&mut self, msg: LineMsg) -> Taken {
        let game = msg.game.clone();
        if self.aside.as_ref().map_or(true, |a| a.0 != game) {
            // A copy is read whole when opened: at most 4 a second, so a
            // table sending lines of games in turn cannot keep the desk
            // reading files (what is refused is asked for again).
            let (since, count) = &mut self.aside_opened;
            if since.map_or(true, |at| at.elapsed() >= std::time::Duration::from_secs(1)) {
                *since = Some(Instant::now());
                *count = 0;
            }
            if *count >= 4 {
                return Taken::Bad;
            }
            *count += 1;
            self.aside = None;
            let file = match self.aside_file(&game) {
                Some(f) => f,
                None if Self::starts_a_game(&msg) && self.aside_made < MAX_ASIDE_MADE => {
                    self.aside_made += 1;
                    self.aside_name(&game)
                }
                // Its start first (the desk never had this game).
                None => return Taken::Gap(1),
            };
            match TableCopy::open(self.table, &file) {
                Ok(c) => self.aside = Some(Box::new((game, c))),
                Err(e) => {
                    self.raise(Alert {
                        kind: "desk".into(),
                        text: format!(
                            "The desk cannot open its copy of an earlier game of table {} ({}): {e}.",
                            self.table,
                            file.display()
                        ),
                        seq: None,
                        wall: crate::journal::wall_now(),
                    });
                    return Taken::Bad;
                }
            }
        }
        let Some(aside) = self.aside.as_mut() else {
            return Taken::Bad;
        };
        let (taken, alerts) = aside.1.take(msg);
        let held = aside.1.len();
        self.earlier_held.insert(aside.0.clone(), held);
        for a in alerts {
            if a.kind == "chain" {
                self.chain_alert(a.text);
            } else {
                self.raise(a);
            }
        }
        taken
    }

    /// An earlier game the table says it is sending (its state's
    /// `earlier_journals`: game and lines) of which the desk lacks lines:
    /// the game and the first line lacked. At most the first 8 are looked at.
    pub fn earlier_lacking(&mut self) -> Option<(String, u64)> {
        let list = self.state.as_ref()?.get("earlier_journals")?.as_array()?;
        let list: Vec<(String, u64)> = list
            .iter()
            .take(8)
            .filter_map(|e| Some((e["game"].as_str()?.to_owned(), e["lines"].as_u64()?)))
            .filter(|(g, _)| g.len() == 64 && g.bytes().all(|b| b.is_ascii_hexdigit()))
            .collect();
        for (g, lines) in list {
            if self.game() == Some(g.as_str()) {
                continue;
            }
            let held = match self.earlier_held.get(&g) {
                Some(&h) => h,
                None => {
                    let h = self
                        .aside_file(&g)
                        .and_then(|f| TableCopy::open(self.table, &f).ok())
                        .map_or(0, |c| c.len());
                    if self.earlier_held.len() >= 64 {
                        self.earlier_held.clear();
                    }
                    self.earlier_held.insert(g.clone(), h);
                    h
                }
            };
            if lines > held {
                return Some((g, held + 1));
            }
        }
        None
    }

    /// The copy kept aside of `game` (the newest, if the game started over), if any.
    fn aside_file(&self, game: &str) -> Option<PathBuf> {
        let short = game.get(..12)?;
        let mut found = None;
        for k in 1.. {
            let f = self.aside_path(short, k);
            let Ok(file) = File::open(&f) else { break };
            // The first line only (at most a line's length).
            let mut first = Vec::new();
            use std::io::{BufRead, Read};
            let _ = std::io::BufReader::new(file.take(MAX_LINE as u64 + 1))
                .read_until(b'\n', &mut first);
            if first.last() == Some(&b'\n') {
                first.pop();
            }
            if line_hash(&first) == game {
                found = Some(f);
            }
        }
        found
    }

    /// A name for a new copy aside of `game`, over no other.
    fn aside_name(&self, game: &str) -> PathBuf {
        let short = game.get(..12).unwrap_or("old");
        let mut k = 1;
        while self.aside_path(short, k).exists() {
            k += 1;
        }
        self.aside_path(short, k)
    }

    /// The `k`th name (from 1) of a copy aside of the game whose hash starts
    /// `short`: `table-N-SHORT.jsonl`, then `table-N-SHORT-2.jsonl` and on.
    fn aside_path(&self, short: &str, k: u32) -> PathBuf {
        let prefix = format!("table-{}-{short}", self.table);
        if k == 1 {
            self.file.with_file_name(format!("{prefix}.jsonl"))
        } else {
            self.file.with_file_name(format!("{prefix}-{k}.jsonl"))
        }
    }

    /// A new game at this table (the next round): the old copy is kept
    /// aside as `table-N-GAME.jsonl` (never over another one) and the new
    /// one starts empty. A broken chain and the alerts stay.
    fn new_game(&mut self, game: &str) {
        let old = self.hashes.first().cloned().unwrap_or_default();
        self.out = None;
        self.aside = None;
        self.earlier_held.remove(&old);
        let aside = self.aside_name(&old);
        if self.file.exists() {
            if let Err(e) = std::fs::rename(&self.file, &aside) {
                tracing::error!("hall: cannot keep {} aside: {e}", self.file.display());
            }
        }
        if !old.is_empty() && !self.earlier_games.contains(&old) {
            self.earlier_games.push(old);
            if self.earlier_games.len() > 64 {
                self.earlier_games.remove(0);
            }
        }
        self.hashes.clear();
        self.records.clear();
        self.file_len = 0;
        self.last_t = 0;
        self.pending.retain(|_, m| m.game == game);
        self.pending_bytes = self.pending.values().map(|m| m.line.len()).sum();
        self.gap_since = None;
        self.gap_alerted = false;
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

    /// Whether `msg` starts a journal as a journal starts: line 1, its game
    /// the hash of the line, a start record chained to nothing.
    fn starts_a_game(msg: &LineMsg) -> bool {
        msg.seq == 1
            && msg.game == msg.hash
            && line_hash(msg.line.as_bytes()) == msg.hash
            && serde_json::from_str::<Record>(&msg.line)
                .ok()
                .is_some_and(|r| next_line_problem(&r, 1, GENESIS, 0).is_none())
    }

    fn take_inner(&mut self, msg: LineMsg) -> Taken {
        if msg.line.len() > MAX_LINE || msg.line.contains(['\n', '\r']) {
            self.junk(&format!(
                "line {} is not one journal line ({} bytes)",
                msg.seq,
                msg.line.len()
            ));
            return Taken::Bad;
        }
        if !msg.game.is_empty() && self.game().is_some_and(|g| g != msg.game) {
            if self.earlier_games.contains(&msg.game) {
                // A game put aside sends again: two machines are this table.
                let a = Alert {
                    kind: "duplicate".into(),
                    text: format!(
                        "Two machines send as table {}: lines of game {} came after game {} began; they are not taken.",
                        self.table,
                        msg.game.get(..12).unwrap_or(&msg.game),
                        self.game().and_then(|g| g.get(..12)).unwrap_or("?")
                    ),
                    seq: None,
                    wall: crate::journal::wall_now(),
                };
                self.raise(a);
                return Taken::Bad;
            }
            if !Self::starts_a_game(&msg) {
                // Another game, believed only from its start: asked for it.
                self.junk(&format!(
                    "line {} of another game ({}) that has not begun here",
                    msg.seq,
                    msg.game.get(..12).unwrap_or(&msg.game)
                ));
                return Taken::Gap(1);
            }
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
            if !self.pending.contains_key(&msg.seq) {
                self.pending_bytes += msg.line.len();
                self.pending.insert(msg.seq, msg);
                // Bounded: the farthest lines go (they are asked for again).
                while self.pending.len() > MAX_PENDING || self.pending_bytes > MAX_PENDING_BYTES {
                    if let Some((_, m)) = self.pending.pop_last() {
                        self.pending_bytes -= m.line.len();
                    }
                }
            }
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
                if let Some((_, m)) = self.pending.pop_first() {
                    self.pending_bytes -= m.line.len();
                }
            }
            next = self.pending.remove(&want);
            if let Some(m) = &next {
                self.pending_bytes -= m.line.len();
            }
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

    /// Appends the next line if it is what `tandem journal verify` accepts
    /// after the lines held; raises an alert if it is not, or if the copy
    /// cannot be written (then the line is not held: it is asked for again).
    fn append(&mut self, m: LineMsg) -> bool {
        let prev = self.hashes.last().map_or(GENESIS, String::as_str);
        let problem = match serde_json::from_str::<Record>(&m.line) {
            Ok(r) => next_line_problem(&r, m.seq, prev, self.last_t).map_or(Ok(r), Err),
            Err(e) => Err(format!("not a journal record: {e}")),
        };
        let record = match problem {
            Ok(r) => r,
            Err(why) => {
                self.chain_alert(format!(
                    "Table {}: line {} does not follow line {}: {why}.",
                    self.table,
                    m.seq,
                    m.seq - 1
                ));
                return false;
            }
        };
        if let Err(e) = self.write_line(&m.line) {
            let a = Alert {
                kind: "desk".into(),
                text: format!(
                    "The desk cannot write its copy of table {} ({}): {e}. The lines are asked for again.",
                    self.table,
                    self.file.display()
                ),
                seq: None,
                wall: crate::journal::wall_now(),
            };
            self.raise(a);
            return false;
        }
        self.hashes.push(m.hash);
        self.last_t = record.t_ms;
        if let Some(a) = alert_of(&record) {
            self.raise(a);
        }
        self.records.push(record);
        true
    }

    /// Appends one line to the copy's file; on an error the file is cut back
    /// to its complete lines and opened again next time.
    fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        if self.out.is_none() {
            if let Some(dir) = self.file.parent() {
                std::fs::create_dir_all(dir)?;
            }
            self.out = Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.file)?,
            );
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let r = match &mut self.out {
            Some(f) => f.write_all(&bytes),
            None => Ok(()),
        };
        match r {
            Ok(()) => {
                self.file_len += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                if let Some(f) = self.out.take() {
                    let _ = f.set_len(self.file_len);
                }
                Err(e)
            }
        }
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

/// `s` cut to at most `max` bytes (on a character boundary), with `…` when cut.
#[must_use]
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
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
        // The start position of that game, from the registry.
        fen: "international"
            .parse::<crate::game::GameKind>()
            .unwrap()
            .position(None)
            .unwrap()
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
            earlier: false,
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
        let mut again = TableCopy::open(1, &f).unwrap();
        assert_eq!(again.len(), 4);
        // The break stays shown, across a restart, until the arbiter acknowledges it.
        assert!(!again.chain_ok);
        assert!(again.alerts.iter().any(|a| a.kind == "chain"));
        again.acknowledge().unwrap();
        assert!(TableCopy::open(1, &f).unwrap().chain_ok);
    }

    fn with_game(l: &[LineMsg]) -> Vec<LineMsg> {
        l.iter()
            .map(|m| LineMsg {
                game: l[0].hash.clone(),
                ..m.clone()
            })
            .collect()
    }

    #[test]
    fn a_made_up_game_erases_nothing_and_no_copy_is_overwritten() {
        let a = with_game(&lines());
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("table-5.jsonl");
        let mut t = TableCopy::open(5, &f).unwrap();
        for m in &a {
            t.take(m.clone());
        }
        let before = std::fs::read(&f).unwrap();
        // A made-up game id on a line that is not a journal's start.
        let mut fake = a[1].clone();
        fake.game = "f".repeat(64);
        assert_eq!(t.take(fake).0, Taken::Gap(1));
        // Line 1 of a game whose id is not its hash.
        let mut fake1 = a[0].clone();
        fake1.game = "e".repeat(64);
        assert_eq!(t.take(fake1).0, Taken::Gap(1));
        assert_eq!(std::fs::read(&f).unwrap(), before, "the copy is untouched");
        assert_eq!(t.len(), 4);
        assert!(t.alerts.iter().any(|a| a.kind == "junk"));
        // The chain breaks, then a real new game starts: still broken, alerts kept.
        let mut edited = a[2].clone();
        edited.line = edited.line.replace("tick", "tock");
        edited.hash = line_hash(edited.line.as_bytes());
        assert_eq!(t.take(edited).0, Taken::Bad);
        assert!(!t.chain_ok);
        let b = with_game(&lines_of(Some("Next")));
        assert_eq!(t.take(b[0].clone()).0, Taken::Appended(1));
        assert!(!t.chain_ok, "a new game does not mend a broken chain");
        assert!(t.alerts.iter().any(|a| a.kind == "chain"));
        let aside = dir
            .path()
            .join(format!("table-5-{}.jsonl", &a[0].hash[..12]));
        assert_eq!(std::fs::read(&aside).unwrap(), before);
        // The first game's lines again: two machines, an alert; the copy stays with the new game.
        assert_eq!(t.take(a[3].clone()).0, Taken::Bad);
        assert!(t.alerts.iter().any(|a| a.kind == "duplicate"));
        assert_eq!(t.game(), Some(b[0].hash.as_str()));
        // The first game starting over (same first line) is the same game id: no overwrite.
        let c = with_game(&lines_of(Some("Third")));
        t.take(c[0].clone());
        let aside_b = dir
            .path()
            .join(format!("table-5-{}.jsonl", &b[0].hash[..12]));
        assert!(aside_b.exists());
        assert_eq!(std::fs::read(&aside).unwrap(), before, "never overwritten");
    }

    #[test]
    fn junk_is_bounded_and_repeated_alerts_are_one() {
        let l = lines();
        let dir = tempfile::tempdir().unwrap();
        let mut t = TableCopy::open(6, &dir.path().join("table-6.jsonl")).unwrap();
        t.take(l[0].clone());
        // Two lines in one: refused (the copy would hold a line that is not one).
        let mut two = l[1].clone();
        two.line.push_str("\n{}");
        two.hash = line_hash(two.line.as_bytes());
        assert_eq!(t.take(two).0, Taken::Bad);
        assert_eq!(t.len(), 1);
        // Lines far ahead: held up to the bounds, no more.
        let far = |seq: u64, pad: usize| {
            let line = format!("{{\"pad\":\"{}\",\"seq\":{seq}}}", "x".repeat(pad));
            LineMsg {
                seq,
                hash: line_hash(line.as_bytes()),
                line,
                game: String::new(),
                earlier: false,
            }
        };
        for seq in 3..(3 + MAX_PENDING as u64 + 50) {
            t.take(far(seq, 0));
        }
        assert_eq!(t.pending_size().0, MAX_PENDING);
        let mut t = TableCopy::open(7, &dir.path().join("table-7.jsonl")).unwrap();
        t.take(l[0].clone());
        for seq in 3..(3 + (MAX_PENDING_BYTES / (64 << 10)) as u64 + 20) {
            t.take(far(seq, 64 << 10));
        }
        let (n, bytes) = t.pending_size();
        assert!(
            bytes <= MAX_PENDING_BYTES && n < MAX_PENDING,
            "{n} lines, {bytes} bytes"
        );
        // The same alert again is not a new one.
        let a = Alert {
            kind: "behind".into(),
            text: "x".repeat(5000),
            seq: None,
            wall: String::new(),
        };
        assert!(t.raise(a.clone()));
        assert!(!t.raise(a));
        assert!(t.alerts.last().unwrap().text.len() <= MAX_ALERT_TEXT + 3);
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
    fn an_earlier_games_left_over_lines_go_to_its_own_copy() {
        let a = with_game(&lines());
        let b = with_game(&lines_of(Some("Next round")));
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("table-4.jsonl");
        let mut t = TableCopy::open(4, &f).unwrap();
        // Game a's first two lines, then game b starts: a is put aside.
        t.take(a[0].clone());
        t.take(a[1].clone());
        assert_eq!(t.take(b[0].clone()).0, Taken::Appended(1));
        let aside = dir
            .path()
            .join(format!("table-4-{}.jsonl", &a[0].hash[..12]));
        // The rest of game a, sent as left over: into its copy, no alert of a second machine.
        let earlier = |m: &LineMsg| LineMsg {
            earlier: true,
            ..m.clone()
        };
        assert_eq!(t.take_earlier(earlier(&a[3])).0, Taken::Gap(3));
        assert_eq!(t.take_earlier(earlier(&a[2])).0, Taken::Appended(2));
        assert_eq!(t.take_earlier(earlier(&a[2])).0, Taken::Duplicate);
        let whole: String = a.iter().map(|m| format!("{}\n", m.line)).collect();
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), whole);
        assert!(!t.alerts.iter().any(|x| x.kind == "duplicate"));
        assert!(t.chain_ok);
        assert_eq!(t.game(), Some(b[0].hash.as_str()));
        assert_eq!(t.len(), 1);
        // The same lines not marked: two machines, as before.
        assert_eq!(t.take(a[3].clone()).0, Taken::Bad);
        assert!(t.alerts.iter().any(|x| x.kind == "duplicate"));
        // A game the desk never had: asked for from its line 1, then kept aside.
        let c = with_game(&lines_of(Some("Third")));
        assert_eq!(t.take_earlier(earlier(&c[2])).0, Taken::Gap(1));
        for m in &c {
            t.take_earlier(earlier(m));
        }
        let aside_c = dir
            .path()
            .join(format!("table-4-{}.jsonl", &c[0].hash[..12]));
        let whole: String = c.iter().map(|m| format!("{}\n", m.line)).collect();
        assert_eq!(std::fs::read_to_string(&aside_c).unwrap(), whole);
        // An edited left-over line breaks the table's chain, as any line would.
        let mut edited = earlier(&a[3]);
        edited.line = edited.line.replace("tick", "tock");
        edited.hash = line_hash(edited.line.as_bytes());
        assert_eq!(t.take_earlier(edited).0, Taken::Bad);
        assert!(!t.chain_ok);
        // A desk restarted finds the copy aside again by its game.
        let mut again = TableCopy::open(4, &f).unwrap();
        assert_eq!(again.take_earlier(earlier(&a[3])).0, Taken::Duplicate);
        // Lines of two earlier games in turn: at most 4 copies opened a second.
        let taken: Vec<Taken> = (0..10)
            .map(|i| {
                let m = if i % 2 == 0 { &a[1] } else { &c[1] };
                again.take_earlier(earlier(m)).0
            })
            .collect();
        assert!(
            taken[..4].iter().all(|t| *t == Taken::Duplicate),
            "{taken:?}"
        );
        // Game a's lines (the switches past the quota) are refused; c's copy stays open.
        assert!(
            (4..10).step_by(2).all(|i| taken[i] == Taken::Bad),
            "{taken:?}"
        );
        assert_eq!(again.aside_opened.1, 4);
    }

    #[test]
    fn the_desk_asks_for_what_it_lacks_of_an_earlier_game_the_table_sends() {
        let a = with_game(&lines());
        let b = with_game(&lines_of(Some("Next round")));
        let dir = tempfile::tempdir().unwrap();
        let mut t = TableCopy::open(9, &dir.path().join("table-9.jsonl")).unwrap();
        t.take(a[0].clone());
        t.take(a[1].clone());
        t.take(b[0].clone());
        let said = |g: &str, lines: u64| {
            Some(serde_json::json!({"earlier_journals": [
                {"game": "not a game", "lines": 3},
                {"game": g, "lines": lines}]}))
        };
        // Game a: the desk holds 2 of its 4 lines.
        t.state = said(&a[0].hash, 4);
        assert_eq!(t.earlier_lacking(), Some((a[0].hash.clone(), 3)));
        let earlier = |m: &LineMsg| LineMsg {
            earlier: true,
            ..m.clone()
        };
        t.take_earlier(earlier(&a[2]));
        assert_eq!(t.earlier_lacking(), Some((a[0].hash.clone(), 4)));
        t.take_earlier(earlier(&a[3]));
        assert_eq!(t.earlier_lacking(), None);
        // A game the desk never had: from its line 1. The current game: never.
        let c = with_game(&lines_of(Some("Third")));
        t.state = said(&c[0].hash, 4);
        assert_eq!(t.earlier_lacking(), Some((c[0].hash.clone(), 1)));
        t.state = said(&b[0].hash, 9);
        assert_eq!(t.earlier_lacking(), None);
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
