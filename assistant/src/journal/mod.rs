//! The game journal: append-only JSON lines, one event a line, each line
//! carrying the SHA-256 of the line before it, so that an edit, a removal or
//! a reordering of lines is detectable (`tandem journal verify`).
//!
//! ```text
//! {"seq":1,"wall":"2026-05-02T10:00:00.000Z","t_ms":0,"prev":"000…0","event":{"type":"start",…}}
//! {"seq":2,"wall":"2026-05-02T10:00:41.250Z","t_ms":41250,"prev":"<sha256 of line 1>","event":{"type":"move",…}}
//! ```
//!
//! - `seq` counts lines from 1; `wall` is the wall clock (UTC, RFC 3339);
//!   `t_ms` is the monotonic game time in milliseconds (never goes back,
//!   continues across a resume); `prev` is the lowercase hex SHA-256 of the
//!   previous line's bytes (without its newline), 64 zeros on the first line.
//! - Every line is written with one `write` and `fsync`ed before the caller
//!   goes on: a move is on disk before it is announced (design: "The flow of
//!   one move", step 3).
//! - A power loss can leave the last line torn (no newline, or garbage). A
//!   reader reports it and drops it ([`Journal::torn`]); a resumed daemon cuts
//!   it off the file before appending ([`JournalWriter::resume`]).
//!
//! The event schema is documented in `docs/protocol.md`.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tandem_rules::{Color, GameOptions, Outcome};

mod fallback;
pub mod reports;
pub mod witness;
use fallback::Fallback;
pub use fallback::{fallback_dirs, private_folder};

/// `prev` of the first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Where an input came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Typed on the screen or stdin.
    Typed,
    /// Spoken and recognized.
    Spoken,
    /// Braille display keys.
    Keys,
    /// The control socket (`tandem ctl`).
    Control,
    /// tandem itself (clock events, resume).
    Tandem,
    /// The control socket with the arbiter's secret (`clock set`, `takeback`).
    Arbiter,
    /// A paired device, a seat's (`tandem play --seats`; docs/devices.md).
    Device,
    /// An electronic board, a seat's (`tandem play --seat SIDE:board=…`;
    /// docs/eboards.md): a move read from it, its board shown up to date, a
    /// placement that is no position of the game.
    Eboard,
}

/// What the game was started with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartInfo {
    /// `international` or `sixty-four`.
    pub variant: String,
    /// The start position (PDN FEN).
    pub fen: String,
    /// The time control in its written form (`rules::clock`).
    pub control: String,
    /// Warning thresholds in seconds.
    pub warnings_s: Vec<u64>,
    /// Names and event.
    #[serde(default)]
    pub white: Option<String>,
    /// Black's name.
    #[serde(default)]
    pub black: Option<String>,
    /// The event's name.
    #[serde(default)]
    pub event: Option<String>,
    /// The round in the event (`tandem play --round`): the hall's desk and
    /// its public views take it from here, never from what a table says of
    /// itself (docs/hall.md). Absent from journals without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// Which side(s) are blind: `white`, `black`, `both`, `none`.
    pub blind: String,
    /// Speech language (`pl`, `en`).
    pub lang: String,
    /// Rule options.
    #[serde(default)]
    pub options: GameOptions,
    /// The tandem version that wrote the journal.
    pub version: String,
}

/// The tests' start: international draughts from its start, `90m`, no
/// names, no warnings, white blind, English (each test sets what it needs).
#[cfg(test)]
impl StartInfo {
    pub(crate) fn for_tests() -> StartInfo {
        StartInfo {
            variant: "international".into(),
            fen: "W:W31-50:B1-20".into(),
            control: "90m".into(),
            warnings_s: vec![],
            white: None,
            black: None,
            event: None,
            round: None,
            blind: "white".into(),
            lang: "en".into(),
            options: tandem_rules::GameOptions::default(),
            version: "test".into(),
        }
    }
}

/// One journal event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Event {
    /// The game started (always line 1).
    Start(StartInfo),
    /// A move was played and the clock pressed.
    Move {
        /// Ply number, from 1.
        ply: u32,
        /// Who moved.
        side: Color,
        /// Strict notation (`32-28`, `28x19`).
        text: String,
        /// What was entered.
        input: String,
        /// Where it came from.
        source: Source,
        /// The move's time on the clock.
        move_ms: u64,
        /// Remaining times after the press.
        white_ms: u64,
        /// Black's remaining time after the press.
        black_ms: u64,
        /// The seat that made it (`tandem play --seat`, `tandem ctl --seat`);
        /// absent when it came from the table's own channel.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
    },
    /// A game action beyond moves (a roll of the dice, a double, a take),
    /// claimed by the game at the table (`Game::action`) and replayed with
    /// `Game::play_action`. `press`: it ended the turn and pressed the
    /// clock, like a move.
    Action {
        /// Plies played when it was taken.
        ply: u32,
        /// Who acted.
        side: Color,
        /// The action in the game's strict words (`roll 3 1`).
        text: String,
        /// What was entered.
        input: String,
        /// Where it came from.
        source: Source,
        /// Whether it pressed the clock.
        press: bool,
        /// White's remaining time after it.
        white_ms: u64,
        /// Black's remaining time after it.
        black_ms: u64,
        /// The seat that made it (`tandem play --seat`, `tandem ctl --seat`);
        /// absent when it came from the table's own channel.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
    },
    /// An announcement was handed to speech (what was said, for the record).
    Announced {
        /// `move`, `clock`, `sync`, … (see `tandem_speech::Kind`).
        kind: String,
        /// `now`, `next`, `normal`.
        priority: String,
        /// The words.
        text: String,
        /// The seats whose outputs got it (white, black; empty when no
        /// seat has speech). Journals before seats have none: read as empty.
        #[serde(default)]
        to: Vec<Color>,
        /// The language of these words when it is not the table's (a seat
        /// of its own language, `--seat SIDE:lang=en`): one line a language.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lang: Option<String>,
    },
    /// A side's board was brought up to date through `ply` (001 ch. VIII 1.3, 2.3).
    BoardDone {
        /// Whose board.
        side: Color,
        /// The ply it now shows.
        ply: u32,
        /// Who said so.
        source: Source,
    },
    /// Someone reported that the boards differ (001 ch. VIII 3.1).
    Mismatch {
        /// Who reported it.
        source: Source,
        /// The position read back from a board, if given.
        #[serde(default)]
        board_fen: Option<String>,
        /// The differing squares (`"23: record white man, board empty"`).
        #[serde(default)]
        diffs: Vec<String>,
    },
    /// The clock was stopped.
    Pause {
        /// Why (`mismatch`, `arbiter`, `resume`, `control`, `device`, …).
        reason: String,
        /// Who stopped it: `arbiter` (the desk's signed command, the
        /// arbiter's secret), `typed` (the table's screen), `control`
        /// (`tandem ctl`), a seat's `control`, `device`, `keys` or `spoken`,
        /// or `tandem` (a mismatch, a resumed journal). Absent in journals
        /// written before it was recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<Source>,
        /// The seat that stopped it to call the arbiter (FIDE 6.12b); absent
        /// when it was not a seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
    },
    /// The clock was restarted: by the arbiter or the table's operator,
    /// never a seat (FIDE Laws 6.12, 001 ch. VIII).
    Resume {
        /// Who restarted it (`arbiter`, `typed`, `control`). Absent in
        /// journals written before it was recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<Source>,
        /// Always absent: a seat never restarts the clock (kept for the
        /// line's shape, as `pause` has it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
    },
    /// A low-time warning was given.
    Warning {
        /// Whose time.
        side: Color,
        /// The threshold, in milliseconds.
        left_ms: u64,
    },
    /// A flag fell (001 ch. VIII 4.1.4).
    Flag {
        /// Whose.
        side: Color,
        /// When, in game time.
        at_ms: u64,
    },
    /// A draw offer (001 ch. II 5.1).
    DrawOffer {
        /// Who offered.
        side: Color,
    },
    /// A draw offer was declined (by answer or by a move).
    DrawDeclined {
        /// Who declined.
        side: Color,
    },
    /// The player on move claimed a draw (002 art. 9.2, 9.3). A valid
    /// claim is followed by the `result`; an invalid one gives the opponent
    /// `added_ms` more (9.5(b): three minutes) and play goes on.
    DrawClaim {
        /// Who claimed.
        side: Color,
        /// Whether the claim was correct.
        valid: bool,
        /// What was claimed (a valid claim: repetition or fifty moves).
        #[serde(default)]
        reason: Option<tandem_rules::DrawReason>,
        /// Time added to the opponent's clock for an incorrect claim.
        #[serde(default)]
        added_ms: u64,
    },
    /// The game ended.
    Result {
        /// PDN result (`2-0`, `0-2`, `1-1`).
        result: String,
        /// How.
        outcome: Outcome,
    },
    /// An input was refused (illegal move, unknown command); nothing changed.
    Rejected {
        /// Where it came from.
        source: Source,
        /// What was entered.
        input: String,
        /// Why (log wording; the player heard the phrasebook's).
        reason: String,
        /// The seat that made it (`tandem play --seat`, `tandem ctl --seat`);
        /// absent when it came from the table's own channel.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
    },
    /// A message spoken on request (`tandem ctl say`, the desk's `say`, a
    /// seat's or device's `say`).
    Say {
        /// The words.
        text: String,
        /// The seat whose words they are (a seat's or device's `say`: said
        /// as that seat's, never as the arbiter's); absent for the table's
        /// operator and the arbiter.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
        /// Who sent it (`arbiter` for the desk's `say`). Absent in journals
        /// written before it was recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<Source>,
    },
    /// A device became a seat (`tandem play --seats`; docs/devices.md): its
    /// code was redeemed. The code itself is never journaled.
    Paired {
        /// Whose seat it is now.
        seat: Color,
        /// The device's address (IP and port as the table saw it).
        address: String,
    },
    /// A device is a seat no more (`unpair SIDE`, typed or `tandem ctl`).
    Unpaired {
        /// Whose seat it was.
        seat: Color,
        /// The device's address when it paired.
        address: String,
    },
    /// The arbiter set a side's remaining time (001 ch. VIII 3.1.2, ch. II 6.19).
    ClockSet {
        /// Whose clock.
        side: Color,
        /// The remaining time set.
        remaining_ms: u64,
        /// Who did it (always `arbiter`).
        source: Source,
    },
    /// The arbiter took back the last plies after a mismatch (001 ch. VIII
    /// 3.1.2: play goes back to the last position where the records agree).
    /// Counted by the arbiter's ch. VIII 3.2 report.
    Correction {
        /// Plies taken back.
        plies: u32,
        /// The moves taken back, in strict notation, in the order they were played.
        undone: Vec<String>,
        /// Who did it (always `arbiter`).
        source: Source,
        /// Why (the arbiter's words; may be empty).
        #[serde(default)]
        reason: String,
    },
    /// The journal could not be written: tandem went on in memory.
    JournalDegraded {
        /// The write error.
        error: String,
        /// The first line that could not be written.
        from_seq: u64,
        /// Where the lines went meanwhile (a full copy of the journal), if anywhere.
        #[serde(default)]
        fallback: Option<PathBuf>,
    },
    /// The journal could be written again: every line kept meanwhile is in it.
    JournalRecovered {
        /// Lines that were kept in memory and are now written.
        flushed: u64,
    },
    /// The daemon resumed this journal after a restart.
    Resumed {
        /// Good lines found.
        lines: u64,
        /// Whether a torn last line was dropped.
        torn: bool,
    },
    /// An utterance heard by voice input, and what tandem did with it (001
    /// ch. VIII 3.2: the arbiter may count wrong announcements). A move it
    /// played is also a `move` line with `"source": "spoken"`.
    Heard {
        /// The ply it was heard at (the position it was matched against).
        ply: u32,
        /// What the recognizer returned (its best transcript).
        transcript: String,
        /// How sure, 0-100 (recognizer confidence times phrase match).
        confidence_pct: u8,
        /// What it was understood as: `move`, `command`, `ambiguous`, `illegal`, `unknown`.
        kind: String,
        /// The move (`33-29`), the command (`clock`, `square 23`), the
        /// candidate moves (`15x24 15x33`) or the illegal move's squares.
        #[serde(default)]
        text: String,
        /// What tandem did (see `docs/protocol.md`): `play`, `read-back`,
        /// `command`, `cancelled`, `ask-which`, `refused`, `repeat`, `stale`,
        /// `not-your-move`, `game-over`.
        decision: String,
        /// The seat that made it (its microphone);
        /// absent when it came from the table's own channel.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
    },
    /// A clock checkpoint: the clock was running at this line's `t_ms`.
    /// Written while the clock runs, a second after the journal's last line
    /// (so at most one a second), so that a crash at any moment loses at most
    /// about a second of the side to move's time: replay charges the time up
    /// to the last line, and this makes the last line recent. It changes
    /// nothing else and nobody is told (no announcement, no notice).
    Tick,
    /// The desk's signature of the head of this journal as it held it
    /// (`tandem hall`; docs/protocol.md, "Witnesses"): written when the
    /// table's relay brings it. No game content: never replayed, exported
    /// or said; `tandem journal verify --desk-key` checks it.
    Witness(witness::Witness),
    /// The table's report (`tandem report`, issue 41): the binary's
    /// version, commit and SHA-256, whether the game is rated, what the
    /// table listens on and connects to, its radios. Written after the
    /// `start` line, before the first move, and again after a `resumed`
    /// line (the binary may be another). Never replayed or said.
    Report(Box<crate::report::Report>),
    /// The microphone was opened (at start, or again after a loss) or
    /// stopped (voice input); typed and braille input go on meanwhile.
    Microphone {
        /// Whether it works now.
        ok: bool,
        /// Why it stopped (empty when it came back).
        #[serde(default)]
        error: String,
        /// Whose microphone (`--seat SIDE:mic=…`); absent: the table's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Color>,
    },
}

/// One line of the journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Line number, from 1.
    pub seq: u64,
    /// Wall clock, UTC, RFC 3339 with milliseconds.
    pub wall: String,
    /// Game time in milliseconds.
    pub t_ms: u64,
    /// SHA-256 (hex) of the previous line.
    pub prev: String,
    /// What happened.
    pub event: Event,
}

/// The SHA-256 of a line, lowercase hex.
#[must_use]
pub fn line_hash(line: &[u8]) -> String {
    let digest = Sha256::digest(line);
    let mut s = String::with_capacity(64);
    for b in digest {
        use std::fmt::Write as _;
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The first thing wrong in a journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadLine {
    /// 1-based line number.
    pub line: u64,
    /// What is wrong with it.
    pub reason: String,
}

/// A torn last line (an incomplete write), dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TornLine {
    /// 1-based line number.
    pub line: u64,
    /// Its bytes (lossy UTF-8), for the report.
    pub text: String,
    /// Why it counts as torn.
    pub reason: String,
}

/// A journal as read from disk.
#[derive(Debug, Clone, Default)]
pub struct Journal {
    /// The good records, in order.
    pub records: Vec<Record>,
    /// The hash of the last good line (`GENESIS` when there is none).
    pub head: String,
    /// Bytes of the file that hold good lines (the torn tail starts here).
    pub good_len: u64,
    /// A torn last line that was dropped.
    pub torn: Option<TornLine>,
    /// The first bad line, if the chain is broken (an edit, a removal, a reordering).
    pub bad: Option<BadLine>,
}

/// What is wrong with `record` as line `n` of a journal whose last line
/// hashes to `head` and whose game time was `last_t`: the checks of
/// [`Journal::parse`] (`tandem journal verify`), one line at a time (the
/// hall's desk checks each line it is sent with it).
#[must_use]
pub fn next_line_problem(record: &Record, n: u64, head: &str, last_t: u64) -> Option<String> {
    if record.seq != n {
        Some(format!(
            "line number {} where {n} was expected (a line was removed, added or moved)",
            record.seq
        ))
    } else if record.prev != head {
        Some(
            "its hash of the previous line does not match (that line was edited, removed or moved)"
                .to_owned(),
        )
    } else if record.t_ms < last_t {
        Some(format!(
            "game time {} ms goes back from {last_t} ms",
            record.t_ms
        ))
    } else if (n == 1) != matches!(record.event, Event::Start(_)) {
        Some(if n == 1 {
            "the first line is not the game start".to_owned()
        } else {
            "a second game start".to_owned()
        })
    } else {
        None
    }
}

impl Journal {
    /// Reads and checks a journal file.
    ///
    /// # Errors
    /// Only when the file cannot be read; a bad chain is reported in [`Journal::bad`].
    pub fn read(path: &Path) -> io::Result<Journal> {
        let bytes = std::fs::read(path)?;
        Ok(Journal::parse(&bytes))
    }

    /// Checks journal bytes: the hash chain, the line numbers, game time never
    /// going back, and line 1 being the start. Stops at the first bad line.
    #[must_use]
    pub fn parse(bytes: &[u8]) -> Journal {
        let mut j = Journal {
            head: GENESIS.to_owned(),
            ..Journal::default()
        };
        let mut offset = 0usize;
        let mut n = 0u64;
        let mut last_t = 0u64;
        while offset < bytes.len() {
            n += 1;
            let rest = &bytes[offset..];
            let (line, complete) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            let is_last = offset + line.len() + usize::from(complete) >= bytes.len();
            let parsed = std::str::from_utf8(line)
                .map_err(|e| format!("not UTF-8: {e}"))
                .and_then(|s| {
                    serde_json::from_str::<Record>(s)
                        .map_err(|e| format!("not a journal record: {e}"))
                });
            let torn = |reason: String| TornLine {
                line: n,
                text: String::from_utf8_lossy(line).into_owned(),
                reason,
            };
            if !complete {
                // An incomplete write: whatever it holds, it was never acknowledged.
                j.torn = Some(torn("no end of line (an incomplete write)".into()));
                break;
            }
            let record = match parsed {
                Ok(r) => r,
                Err(reason) if is_last => {
                    // A power loss can leave garbage (zeros) in the last block.
                    j.torn = Some(torn(reason));
                    break;
                }
                Err(reason) => {
                    j.bad = Some(BadLine { line: n, reason });
                    break;
                }
            };
            let problem = next_line_problem(&record, n, &j.head, last_t);
            if let Some(reason) = problem {
                j.bad = Some(BadLine { line: n, reason });
                break;
            }
            last_t = record.t_ms;
            j.head = line_hash(line);
            offset += line.len() + 1;
            j.good_len = offset as u64;
            j.records.push(record);
        }
        j
    }

    /// The game's start, if the journal has one.
    #[must_use]
    pub fn start(&self) -> Option<&StartInfo> {
        match self.records.first().map(|r| &r.event) {
            Some(Event::Start(s)) => Some(s),
            _ => None,
        }
    }

    /// Game time of the last record, in milliseconds.
    #[must_use]
    pub fn last_t_ms(&self) -> u64 {
        self.records.last().map_or(0, |r| r.t_ms)
    }
}

/// Whether the journal is being written (`state` reports it as `journal_health`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct JournalHealth {
    /// Every line so far is on disk in the journal file.
    pub ok: bool,
    /// The last write error, while not ok.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Lines kept in memory, not yet in the journal file.
    pub pending: u64,
    /// A full copy of the journal written elsewhere while the file could not
    /// be written (kept afterwards for the arbiter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<PathBuf>,
    /// Whether the fallback copy holds every line (`pending` are safe there).
    pub fallback_ok: bool,
}

/// A change of [`JournalHealth`] the session must announce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HealthChange {
    /// Writing failed: lines are kept in memory (and in `fallback` if given).
    Degraded {
        /// The error.
        error: String,
        /// The first line not written to the journal file.
        from_seq: u64,
        /// The full copy written elsewhere, if it could be.
        fallback: Option<PathBuf>,
    },
    /// Every kept line is now in the journal file.
    Recovered {
        /// How many were written late.
        flushed: u64,
    },
}

/// Appends records to a journal file, each one `fsync`ed.
///
/// A write that fails does not stop the game (a full or read-only disk must
/// not cost a move): the line is kept in memory, chained as if written, and a
/// full copy of the journal is written to a fallback file
/// ([`fallback_dirs`]); every later append first tries the journal file again
/// (cutting any half-written line off), and when it can be written, every
/// kept line goes in, in order, so the chain on disk is whole. The session
/// announces each [`HealthChange`] ([`JournalWriter::take_change`]).
#[derive(Debug)]
pub struct JournalWriter {
    file: File,
    path: PathBuf,
    seq: u64,
    head: String,
    last_t_ms: u64,
    buf: Vec<u8>,
    /// Bytes of the file known good (complete, synced lines).
    good_len: u64,
    /// Lines (with their newline) not yet in the file, oldest first.
    pending: Vec<u8>,
    pending_lines: u64,
    error: Option<String>,
    fallback: Option<Fallback>,
    fallback_dirs: Vec<PathBuf>,
    change: Option<HealthChange>,
    /// The lines in the file, told to whoever follows it (the relay) each
    /// time lines reach the file: it reads the file then, and never polls.
    written: tokio::sync::watch::Sender<u64>,
}

/// The wall clock as RFC 3339 (UTC, milliseconds).
#[must_use]
pub fn wall_now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

impl JournalWriter {
    fn with_file(
        file: File,
        path: &Path,
        seq: u64,
        head: String,
        last_t_ms: u64,
        good_len: u64,
    ) -> Self {
        JournalWriter {
            file,
            path: path.to_owned(),
            seq,
            head,
            last_t_ms,
            buf: Vec::with_capacity(512),
            good_len,
            pending: Vec::new(),
            pending_lines: 0,
            error: None,
            fallback: None,
            fallback_dirs: fallback_dirs(),
            change: None,
            written: tokio::sync::watch::Sender::new(seq),
        }
    }

    /// Creates a new journal; refuses to overwrite an existing file (resume it instead).
    ///
    /// # Errors
    /// The file exists or cannot be created.
    pub fn create(path: &Path) -> io::Result<JournalWriter> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)?;
        // The new directory entry must survive a power loss too.
        sync_dir(path);
        Ok(JournalWriter::with_file(
            file,
            path,
            0,
            GENESIS.to_owned(),
            0,
            0,
        ))
    }

    /// Opens a journal read with [`Journal::read`] for appending: a torn tail
    /// is cut off first (and the cut `fsync`ed).
    ///
    /// # Errors
    /// The file cannot be opened or truncated, or its chain is broken
    /// (`InvalidData`: a tampered journal is for the arbiter, not to be continued).
    pub fn resume(path: &Path, journal: &Journal) -> io::Result<JournalWriter> {
        if let Some(bad) = &journal.bad {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: line {}: {}", path.display(), bad.line, bad.reason),
            ));
        }
        let file = OpenOptions::new().read(true).append(true).open(path)?;
        if file.metadata()?.len() != journal.good_len {
            file.set_len(journal.good_len)?;
            file.sync_all()?;
        }
        Ok(JournalWriter::with_file(
            file,
            path,
            journal.records.len() as u64,
            journal.head.clone(),
            journal.last_t_ms(),
            journal.good_len,
        ))
    }

    /// Where fallback copies go (tests, and a config that names a folder).
    #[must_use]
    pub fn with_fallback_dirs(mut self, dirs: Vec<PathBuf>) -> JournalWriter {
        self.fallback_dirs = dirs;
        self
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Lines written so far (including those read on resume and those kept in memory).
    #[must_use]
    pub fn len(&self) -> u64 {
        self.seq
    }

    /// Whether nothing has been written.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.seq == 0
    }

    /// Game time of the last line appended (or read on resume), in milliseconds.
    #[must_use]
    pub fn last_t_ms(&self) -> u64 {
        self.last_t_ms
    }

    /// The number of lines in the file, changed each time lines reach it (a
    /// line appended, or the lines kept in memory written at last): a
    /// follower of the file waits on it instead of reading the file on a
    /// timer. It ends (`changed` fails) when the writer is dropped: nothing
    /// more is written then.
    #[must_use]
    pub fn written(&self) -> tokio::sync::watch::Receiver<u64> {
        self.written.subscribe()
    }

    /// Whether the journal file holds every line, and where the others are.
    #[must_use]
    pub fn health(&self) -> JournalHealth {
        let fb = self.fallback.as_ref();
        JournalHealth {
            ok: self.error.is_none(),
            error: self.error.clone(),
            pending: self.pending_lines,
            fallback: fb.map(|f| f.path.clone()),
            fallback_ok: fb.is_some_and(|f| f.file.is_some()),
        }
    }

    /// The last health change, once (the session announces it).
    pub fn take_change(&mut self) -> Option<HealthChange> {
        self.change.take()
    }

    /// Appends one event at game time `t_ms`. The line is `fsync`ed to the
    /// journal file before this returns; if that fails it is kept (see the
    /// type's docs) and the session goes on. Returns the record.
    ///
    /// # Errors
    /// Only if the record cannot be serialized (never for [`Event`]s).
    pub fn append(&mut self, t_ms: u64, event: Event) -> io::Result<Record> {
        // Game time never goes back in the journal, even if the caller's clock did.
        let t_ms = t_ms.max(self.last_t_ms);
        let record = Record {
            seq: self.seq + 1,
            wall: wall_now(),
            t_ms,
            prev: self.head.clone(),
            event,
        };
        self.buf.clear();
        serde_json::to_writer(&mut self.buf, &record).map_err(io::Error::other)?;
        let hash = line_hash(&self.buf);
        self.buf.push(b'\n');
        self.seq += 1;
        self.head = hash;
        self.last_t_ms = t_ms;
        let line = std::mem::take(&mut self.buf);
        if self.error.is_some() {
            self.keep(&line);
            self.retry();
        } else if let Err(e) = write_synced(&self.file, &line) {
            self.degrade(&e, record.seq, &line);
        } else {
            self.good_len += line.len() as u64;
            self.written.send_replace(self.seq);
        }
        self.buf = line;
        Ok(record)
    }

    /// Tries to write the kept lines to the journal file (the session calls
    /// this every second while the journal is not healthy). Returns whether
    /// the file now holds every line.
    pub fn retry(&mut self) -> bool {
        if self.error.is_none() {
            return true;
        }
        // Cut a half-written line off first, then everything kept, in order.
        let res = self
            .file
            .set_len(self.good_len)
            .and_then(|()| write_synced(&self.file, &self.pending));
        match res {
            Ok(()) => {
                self.good_len += self.pending.len() as u64;
                let flushed = self.pending_lines;
                self.pending.clear();
                self.pending.shrink_to_fit();
                self.pending_lines = 0;
                self.error = None;
                self.written.send_replace(self.seq);
                self.change = Some(HealthChange::Recovered { flushed });
                true
            }
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    fn keep(&mut self, line: &[u8]) {
        self.pending.extend_from_slice(line);
        self.pending_lines += 1;
        if let Some(fb) = self.fallback.as_mut() {
            if let Some(f) = &fb.file {
                if write_synced(f, line).is_err() {
                    fb.file = None;
                }
            }
        }
    }

    /// The journal file refused `line` (line `from_seq`): keep it, in the
    /// fallback copy too, and tell the session where it is.
    fn degrade(&mut self, e: &io::Error, from_seq: u64, line: &[u8]) {
        tracing::error!(
            "journal {}: {e}; keeping lines in memory",
            self.path.display()
        );
        self.error = Some(e.to_string());
        // A half-written line is cut off now if the file allows it (again on retry).
        let _ = self.file.set_len(self.good_len);
        // A copy from an earlier failure lacks the lines written since the
        // recovery: the copy is made again from the journal file (same path).
        match self.open_fallback() {
            Some(f) => self.fallback = Some(f),
            None => {
                if let Some(old) = self.fallback.as_mut() {
                    old.file = None;
                }
            }
        }
        self.keep(line);
        // Announced as copied only if the copy took this line too: a
        // file-size limit covers the copy as well, which then takes the old
        // lines and refuses this one (the players must not hear "saved to a
        // fallback file" when it is not).
        let fallback = self
            .fallback
            .as_ref()
            .filter(|f| f.file.is_some())
            .map(|f| f.path.clone());
        self.change = Some(HealthChange::Degraded {
            error: e.to_string(),
            from_seq,
            fallback,
        });
    }
}

/// One `write` of a whole buffer, then `fdatasync` (the file's size is data).
pub(super) fn write_synced(mut f: &File, bytes: &[u8]) -> io::Result<()> {
    f.write_all(bytes)?;
    f.sync_data()
}

pub(super) fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

#[cfg(test)]
mod tests;
