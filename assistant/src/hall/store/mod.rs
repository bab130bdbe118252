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

mod aside;
mod broken;
pub mod facts;
pub mod reports;

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
    /// Every record held (parsed), each held once: the delayed views and
    /// their copies share them (`Arc`), they never copy a line.
    pub records: Vec<std::sync::Arc<Record>>,
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
    /// The game as the copy's lines have it ([`facts::Facts`]): what the
    /// views show.
    pub facts: facts::Facts,
    /// The last state message, cut to what the desk holds against the
    /// facts and what it needs to follow the table ([`kept_state`]).
    pub state: Option<Value>,
    /// The last state contradiction alerted (what, at which line): one alert each.
    mismatch_alerted: Option<(&'static str, u64)>,
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
    /// The copies of earlier games last given left-over lines (`earlier`),
    /// and their games, the most recent last ([`aside::ASIDES_KEPT`] at most;
    /// their hashes only, not their records).
    asides: Vec<(String, TableCopy)>,
    /// Whether the records are kept (the table's current copy; not a copy aside).
    keep_records: bool,
    /// A copy aside too big to read on the broker's thread, to be read on
    /// another ([`TableCopy::take_load`]): its game and file.
    want_load: Option<(String, PathBuf)>,
    /// Whether a copy aside is being read for this table.
    pub loading: bool,
    /// Copies of earlier games started from an `earlier` line 1 in this run.
    aside_made: u32,
    /// Copies aside opened for `earlier` lines: since when, how many.
    aside_opened: (Option<Instant>, u32),
    /// Lines held of the earlier games the table says it is sending.
    earlier_held: BTreeMap<String, u64>,
    /// When the table's new games began, this last hour (this run of the desk).
    games_started: std::collections::VecDeque<Instant>,
    /// Copies of this table's earlier games on disk.
    game_files: u32,
    /// Whether the table was told it starts too many games (once until it may again).
    games_refused: bool,
    /// Bytes of this table's copies of earlier games on disk.
    disk_aside: u64,
    /// Whether the table was told its copies are full.
    disk_refused: bool,
}

/// The bytes a table's copies (its current game's and its earlier games')
/// may take on disk (`TANDEM_HALL_TABLE_BYTES`, default 64 MiB; a real
/// game's journal is well under 1 MiB). The table's records held in memory
/// are bounded with them.
#[must_use]
pub fn table_bytes() -> u64 {
    static BYTES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| {
        std::env::var("TANDEM_HALL_TABLE_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|n: &u64| *n > 0)
            .unwrap_or(64 << 20)
    })
}

/// The bytes of `bytes` up to the end of its `n`th line (0: none).
fn end_of_lines(bytes: &[u8], n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(n - 1)
        .map_or(bytes.len(), |(i, _)| i + 1)
}

/// A table's state as the desk keeps it: only what the desk holds against
/// its copy's facts ([`facts::Facts::contradiction`]: the line it follows
/// from, the result, the position, the ply, the players, the round) and what
/// it needs to follow the table (the lines it has, whether its clock runs,
/// the earlier journals it is sending), each cut to its size. What a table
/// sends beyond that (its moves, its picture, anything else) is neither kept
/// nor shown: the views show the facts of the desk's own copy.
#[must_use]
pub fn kept_state(s: Value) -> Value {
    use serde_json::json;
    let text = |v: &Value, max: usize| match v {
        Value::String(t) => Value::String(cut(t, max)),
        Value::Null => Value::Null,
        v => Value::String(cut(&v.to_string(), max)),
    };
    let number = |v: &Value| v.as_u64().map_or(Value::Null, |n| json!(n));
    let earlier: Vec<Value> = s["earlier_journals"]
        .as_array()
        .into_iter()
        .flatten()
        .take(8)
        .map(|e| json!({"game": text(&e["game"], 64), "lines": number(&e["lines"])}))
        .collect();
    let mut kept = json!({
        "journal_seq": number(&s["journal_seq"]),
        "journal_lines": number(&s["journal_lines"]),
        "seq": number(&s["seq"]),
        "state_ms": number(&s["state_ms"]),
        "sent_ms": number(&s["sent_ms"]),
        "ply": number(&s["ply"]),
        "result": text(&s["result"], 16),
        "fen": text(&s["fen"], 512),
        "players": {"white": text(&s["players"]["white"], 200),
                    "black": text(&s["players"]["black"], 200)},
        "round": text(&s["round"], 64),
        "clocks": {"running": s["clocks"]["running"] == true},
    });
    if !earlier.is_empty() {
        kept["earlier_journals"] = Value::Array(earlier);
    }
    kept
}

impl TableCopy {
    /// The copy kept at `file`, read back if the desk ran before.
    ///
    /// A copy whose chain is broken (an edit, a removal, a reordering) is
    /// kept whole aside ([`TableCopy::keep_broken_at_start`]).
    ///
    /// # Errors
    /// The file exists and cannot be read, or a broken copy cannot be kept aside.
    pub fn open(table: u32, file: &Path) -> std::io::Result<TableCopy> {
        TableCopy::open_with(table, file, true)
    }

    /// [`TableCopy::open`], keeping the records only when `keep_records`
    /// (a copy aside keeps its lines' hashes, not their records).
    ///
    /// # Errors
    /// As [`TableCopy::open`].
    pub fn open_with(table: u32, file: &Path, keep_records: bool) -> std::io::Result<TableCopy> {
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
            facts: facts::Facts::default(),
            mismatch_alerted: None,
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
            asides: Vec::new(),
            keep_records: true,
            want_load: None,
            loading: false,
            aside_made: 0,
            aside_opened: (None, 0),
            earlier_held: BTreeMap::new(),
            games_started: std::collections::VecDeque::new(),
            game_files: 0,
            games_refused: false,
            disk_aside: 0,
            disk_refused: false,
        };
        t.keep_records = keep_records;
        match std::fs::read(file) {
            Ok(bytes) => {
                let mut j = Journal::parse(&bytes);
                let mut good = usize::try_from(j.good_len).unwrap_or(bytes.len());
                if let Some(b) = &j.bad {
                    // The line before the break may be the one edited (the
                    // break is found at the line after an edit): it is not
                    // kept either, and is asked for again with the rest.
                    j.records.pop();
                    good = end_of_lines(&bytes, j.records.len());
                    // Kept: the whole copy aside, the lines before as the
                    // copy, the break on disk until acknowledged.
                    t.keep_broken_at_start(&bytes, good, b, j.records.len())?;
                }
                for line in bytes[..good]
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty())
                {
                    t.hashes.push(line_hash(line));
                }
                t.hashes.truncate(j.records.len());
                t.file_len = good as u64;
                t.last_t = j.records.last().map_or(0, |r| r.t_ms);
                if keep_records {
                    t.records = j.records.into_iter().map(std::sync::Arc::new).collect();
                    let rs = &t.records;
                    let alerts: Vec<Alert> = rs
                        .iter()
                        .filter_map(|r| alert_of(r))
                        .chain(
                            (0..rs.len()).filter_map(|i| reports::changed(&rs[..i], &rs[i], table)),
                        )
                        .collect();
                    for a in alerts {
                        t.raise(a);
                    }
                }
                if good < bytes.len() && j.bad.is_none() {
                    // A torn tail of an earlier run: cut it off, the lines come again.
                    let f = OpenOptions::new().write(true).open(file)?;
                    f.set_len(good as u64)?;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        if keep_records {
            // A copy that cannot be replayed says so when its table is shown.
            let _ = t.refresh_facts();
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

    /// The game of the copy: the hash of its first line.
    #[must_use]
    pub fn game(&self) -> Option<&str> {
        self.hashes.first().map(String::as_str)
    }

    /// The last line held, its hash, and whether it is a witness line.
    #[must_use]
    pub fn head(&self) -> Option<(u64, &str, bool)> {
        let r = self.records.last()?;
        let hash = self.hashes.last()?;
        Some((
            r.seq,
            hash.as_str(),
            matches!(r.event, crate::journal::Event::Witness(_)),
        ))
    }

    /// Holds the witness lines among the records from the `from`th on
    /// against what the desk signs with `key` for `event`: each must carry
    /// the desk's signature of this table, this game and a line whose hash
    /// the copy has. Raises a `witness` alert for each that does not (a
    /// witness the desk never signed: a forged one, or one of a journal
    /// rewritten since), and returns the alerts newly raised.
    pub fn check_witnesses(
        &mut self,
        from: usize,
        key: &crate::desk_key::DeskKey,
        event: &str,
    ) -> Vec<Alert> {
        use crate::journal::witness::Flaw;
        let mut bad = Vec::new();
        for r in self.records.iter().skip(from) {
            let crate::journal::Event::Witness(w) = &r.event else {
                continue;
            };
            let game = self.game().unwrap_or_default();
            let hash_of = |n: u64| {
                let i = usize::try_from(n).ok()?.checked_sub(1)?;
                self.hashes.get(i).map(String::as_str)
            };
            let flaw = if w.well_formed() {
                w.flaw(r.seq, key, game, hash_of)
            } else {
                Some(Flaw::Signature)
            };
            let elsewhere = w.event != event || w.table != self.table;
            let why = match flaw {
                Some(Flaw::Signature) => Some("is not signed by this desk's key".to_owned()),
                _ if elsewhere || flaw == Some(Flaw::Game) => Some(format!(
                    "was signed for table {} of {:?}, another game or event",
                    w.table,
                    cut(&w.event, 40)
                )),
                Some(_) => Some(format!(
                    "names line {} with a hash the desk's copy does not have there",
                    w.line
                )),
                None => None,
            };
            if let Some(why) = why {
                bad.push(format!(
                    "Table {}'s journal line {} is a witness that {why}: a forged witness, or the \
                     table's journal rewritten.",
                    self.table, r.seq
                ));
            }
        }
        bad.into_iter()
            .filter_map(|text| self.raise_new("witness", &text))
            .collect()
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

    /// Whether the table said in its last state that its clock runs (the
    /// facts' clock of the side to move then runs on between lines).
    #[must_use]
    pub fn clock_said_running(&self) -> bool {
        self.state
            .as_ref()
            .is_some_and(|s| s["clocks"]["running"] == true)
    }

    /// Raises an alert of `kind` now ([`TableCopy::raise`]): it, when it is new.
    fn raise_new(&mut self, kind: &str, text: &str) -> Option<Alert> {
        let a = Alert {
            kind: kind.into(),
            text: cut(text, MAX_ALERT_TEXT),
            seq: None,
            wall: crate::journal::wall_now(),
        };
        self.raise(a.clone()).then_some(a)
    }

    /// Brings the facts up to the lines held ([`facts::Facts::refresh`]) and
    /// holds the table's last state against them: the alerts newly raised
    /// (the desk cannot replay a line; the state contradicts the copy,
    /// `state-mismatch`, once for each thing at each line).
    pub fn refresh_facts(&mut self) -> Vec<Alert> {
        let mut raised = Vec::new();
        if let Some(why) = self.facts.refresh(&self.records) {
            let text = format!(
                "The desk cannot replay table {}'s journal at {why}; it shows the game as the \
                 lines before it have it.",
                self.table
            );
            raised.extend(self.raise_new("replay", &text));
        }
        let found = self
            .state
            .as_ref()
            .and_then(|s| self.facts.contradiction(s));
        if let Some((what, said, copy)) = found {
            let at = self.facts.lines();
            if self.mismatch_alerted != Some((what, at)) {
                self.mismatch_alerted = Some((what, at));
                let text = format!(
                    "Table {} says its {what} is {said} at line {at}; the desk's copy of its \
                     journal says {copy}. The desk shows the journal's.",
                    self.table
                );
                raised.extend(self.raise_new("state-mismatch", &text));
            }
        }
        raised
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
            if !self.may_start_game() {
                return Taken::Bad;
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
        if !self.disk_room(m.line.len()) {
            return false;
        }
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
        if let Some(a) = reports::changed(&self.records, &record, self.table) {
            self.raise(a);
        }
        if self.keep_records {
            self.records.push(std::sync::Arc::new(record));
        }
        true
    }

    /// The bytes of this table's copies on disk (its current game's and its
    /// earlier games').
    #[must_use]
    pub fn disk(&self) -> u64 {
        self.file_len + self.disk_aside
    }

    /// Whether the table's copies are full ([`table_bytes`]): the desk no
    /// longer asks it for lines.
    #[must_use]
    pub fn full(&self) -> bool {
        self.disk_refused
    }

    /// The bytes of this table's copies of earlier games already on disk
    /// (counted by the desk as it starts).
    pub fn set_disk_aside(&mut self, bytes: u64) {
        self.disk_aside = bytes;
    }

    /// Whether a line of `len` bytes fits in [`table_bytes`]; if not, one
    /// alert says so (the line is not held: nothing held is lost, and the
    /// table keeps its journal).
    pub(super) fn disk_room(&mut self, len: usize) -> bool {
        if self.disk() + (len as u64) < table_bytes() {
            return true;
        }
        if !self.disk_refused {
            self.disk_refused = true;
            self.raise(Alert {
                kind: "disk".into(),
                text: format!(
                    "Table {}'s copies at the desk are full ({} MiB): the desk takes no more of its lines; \
                     the table keeps its journal.",
                    self.table,
                    table_bytes() >> 20
                ),
                seq: None,
                wall: crate::journal::wall_now(),
            });
        }
        false
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
                Event::Resume { .. } | Event::Correction { .. } | Event::Move { .. } => {
                    return false
                }
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
        // The start position of that game, from the registry.
        fen: "international"
            .parse::<crate::game::GameKind>()
            .unwrap()
            .position(None)
            .unwrap()
            .to_fen(),
        control: control.into(),
        white: white.map(str::to_owned),
        ..crate::journal::StartInfo::for_tests()
    };
    w.append(0, crate::journal::Event::Start(start)).unwrap();
    for _ in 0..3 {
        w.append(0, crate::journal::Event::Tick).unwrap();
    }
    line_msgs(&std::fs::read_to_string(&p).unwrap())
}

/// A journal's text as the lines a table relays, numbered from 1.
#[cfg(test)]
pub(crate) fn line_msgs(text: &str) -> Vec<LineMsg> {
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
mod tests;
