//! The session actor: one tokio task owns the game (rules), the clock, the
//! two boards' sync state and the journal. Inputs (typed, spoken, braille
//! keys, control socket) arrive as [`SessionMsg`]s through a
//! [`SessionHandle`]; outputs (speech [`Utterance`]s, braille updates,
//! [`Notice`]s for the screen and event subscribers) leave through channels
//! that never block, so a slow synthesizer or display never holds up the
//! clock (Alice Ryhl's "Actors with Tokio").
//!
//! Every change follows "decide, journal, apply, announce": an input is
//! checked against the rules and the clock; the resulting [`Event`] is
//! appended to the journal and `fsync`ed; only then is it applied to the
//! state and announced. A restarted daemon replays the same events with the
//! same [`apply`](Table::apply), so the game it rebuilds is the one that was
//! announced.
//!
//! While the clock runs, a `tick` checkpoint is journaled a second after
//! the last line ([`CHECKPOINT`]), so a resume after a crash charges the
//! side to move up to at most a second before it.
//!
//! Time comes from tokio's clock (tests use `tokio::time::pause()`), counted
//! in whole milliseconds of game time so that live play and replay press the
//! rules clock at exactly the same moments.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

use tandem_braille::driver::DriverInput;
use tandem_braille::StatusInfo;
use tandem_rules::clock::{ClockEventKind, GameTime, TimeControl};
use tandem_rules::{Clock, Color, DrawReason, Outcome, WinReason};
use tandem_speech::{AnnounceOptions, Announcer, Kind, Phrasebook, Priority, Utterance};

use crate::interface::{BoardNotRead, Game, PreparedAction};
use crate::kind::AnyPosition;

use crate::journal::{
    Event, HealthChange, Journal, JournalHealth, JournalWriter, Record, Source, StartInfo,
};
use crate::messages::{Messages, Msg};

mod ask;
mod boards;
mod clock;
mod draws;
mod moves;
mod rated;
mod record;
mod seats;
mod table;
mod tongues;
mod view;
mod voice_input;
mod words;

pub use crate::request;
pub use record::DEFAULT_RECORD_LAST;
pub use request::{parse_record, Blind, Cmd, DeviceChange, DrawCmd, GameSetup, Tell, TellWords};
use seats::Audience;
pub use seats::SeatOutput;
pub use table::{start_info, Table};
pub use view::{
    BoardView, BoardsView, ClockView, ClocksView, Notice, Reply, ScreenView, StateView,
};
pub use words::{MAX_SAY_CHARS, SAY_BURST, SAY_WINDOW};

use table::{idx, ms};

/// How often the running clock is checkpointed in the journal (a `tick`
/// line a second after the last line): a crash loses at most this much of
/// the side to move's time.
pub const CHECKPOINT: Duration = Duration::from_secs(1);

/// Time the opponent gets for an incorrect draw claim (002 art. 9.5(b)).
pub const CLAIM_PENALTY_MS: u64 = 3 * 60 * 1000;

/// The default warning thresholds: 5 minutes, 1 minute, 10 seconds.
pub const DEFAULT_WARNINGS: [Duration; 3] = [
    Duration::from_secs(300),
    Duration::from_secs(60),
    Duration::from_secs(10),
];

/// A message to the actor.
#[derive(Debug)]
pub enum SessionMsg {
    /// A command, with its source and where to send the answer.
    Cmd {
        /// The command.
        cmd: Cmd,
        /// Where it came from.
        source: Source,
        /// The seat that asks (`tandem ctl --seat`, a seat's braille keys
        /// or microphone); `None`: the table's own channel.
        seat: Option<Color>,
        /// The answer (none for fire-and-forget inputs).
        reply: Option<oneshot::Sender<Reply>>,
    },
    /// Voice input: an utterance, or the microphone's state; from a seat's
    /// own microphone, or the table's (`None`).
    Voice(crate::voice::VoiceInput, Option<Color>),
    /// Stop the actor (the journal is already synced line by line).
    Shutdown,
}

/// Where the session's outputs go.
#[derive(Debug, Clone)]
pub struct Outputs {
    /// Speech: the table's own output; the speech task speaks these in
    /// priority order. Without seats it is the `--blind` side's (both
    /// sides' for `both`) and says everything; beside seats of their own
    /// it says only what every seat hears.
    pub speech: mpsc::UnboundedSender<Utterance>,
    /// Braille: the table's display driver thread.
    pub braille: Option<std::sync::mpsc::Sender<DriverInput>>,
    /// Notices for the screen and subscribers.
    pub notices: broadcast::Sender<Notice>,
    /// Whether the table's own speech output speaks at all (`--speech
    /// none`: no), for the journal's `to`.
    pub table_speaks: bool,
    /// Each seat's own outputs (`tandem play --seat`).
    pub seats: Vec<SeatOutput>,
}

impl Outputs {
    /// The table's outputs, with no seat of its own.
    #[must_use]
    pub fn new(
        speech: mpsc::UnboundedSender<Utterance>,
        braille: Option<std::sync::mpsc::Sender<DriverInput>>,
        notices: broadcast::Sender<Notice>,
    ) -> Outputs {
        Outputs {
            speech,
            braille,
            notices,
            table_speaks: true,
            seats: Vec::new(),
        }
    }
}

/// The message that asks the session `cmd` as `seat`'s, with the receiver
/// of its answer (the one form of [`SessionHandle::request_as`] and its
/// blocking twin).
fn command(
    cmd: Cmd,
    source: Source,
    seat: Option<Color>,
) -> (SessionMsg, oneshot::Receiver<Reply>) {
    let (tx, rx) = oneshot::channel();
    let msg = SessionMsg::Cmd {
        cmd,
        source,
        seat,
        reply: Some(tx),
    };
    (msg, rx)
}

fn stopped() -> anyhow::Error {
    anyhow::anyhow!("the session has stopped")
}

fn unanswered() -> anyhow::Error {
    anyhow::anyhow!("the session stopped before answering")
}

/// A cloneable handle to the actor.
#[derive(Debug, Clone)]
pub struct SessionHandle {
    tx: mpsc::Sender<SessionMsg>,
    notices: broadcast::Sender<Notice>,
    /// The lines in the journal file, as the session's writer tells them.
    written: tokio::sync::watch::Receiver<u64>,
}

impl SessionHandle {
    /// Sends `cmd` and waits for the answer.
    ///
    /// # Errors
    /// The session has stopped.
    pub async fn request(&self, cmd: Cmd, source: Source) -> anyhow::Result<Reply> {
        self.request_as(cmd, source, None).await
    }

    /// Sends `cmd` as `seat`'s (answered to that seat only) and waits for
    /// the answer.
    ///
    /// # Errors
    /// The session has stopped.
    pub async fn request_as(
        &self,
        cmd: Cmd,
        source: Source,
        seat: Option<Color>,
    ) -> anyhow::Result<Reply> {
        let (msg, rx) = command(cmd, source, seat);
        self.tx.send(msg).await.map_err(|_| stopped())?;
        rx.await.map_err(|_| unanswered())
    }

    /// [`SessionHandle::request`] from a plain thread (stdin, braille keys).
    ///
    /// # Errors
    /// The session has stopped.
    pub fn blocking_request(&self, cmd: Cmd, source: Source) -> anyhow::Result<Reply> {
        self.blocking_request_as(cmd, source, None)
    }

    /// [`SessionHandle::request_as`] from a plain thread (a seat's braille keys).
    ///
    /// # Errors
    /// The session has stopped.
    pub fn blocking_request_as(
        &self,
        cmd: Cmd,
        source: Source,
        seat: Option<Color>,
    ) -> anyhow::Result<Reply> {
        let (msg, rx) = command(cmd, source, seat);
        self.tx.blocking_send(msg).map_err(|_| stopped())?;
        rx.blocking_recv().map_err(|_| unanswered())
    }

    /// Voice input from the voice thread (no answer).
    ///
    /// # Errors
    /// The session has stopped.
    pub fn blocking_voice(&self, v: crate::voice::VoiceInput) -> anyhow::Result<()> {
        self.blocking_voice_as(v, None)
    }

    /// Voice input from a seat's own microphone (no answer).
    ///
    /// # Errors
    /// The session has stopped.
    pub fn blocking_voice_as(
        &self,
        v: crate::voice::VoiceInput,
        seat: Option<Color>,
    ) -> anyhow::Result<()> {
        self.tx
            .blocking_send(SessionMsg::Voice(v, seat))
            .map_err(|_| stopped())
    }

    /// Notices from now on.
    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<Notice> {
        self.notices.subscribe()
    }

    /// Tells every subscriber something that is not the session's (a
    /// pairing code made): nobody listening is nobody to tell.
    pub fn notify(&self, notice: Notice) {
        let _ = self.notices.send(notice);
    }

    /// The number of lines in the journal file, changed each time the
    /// session writes lines to it (the relay reads the file then, and never
    /// polls it: [`crate::journal::JournalWriter::written`]). Its `changed`
    /// fails once the session has stopped: nothing more is written.
    #[must_use]
    pub fn journal_written(&self) -> tokio::sync::watch::Receiver<u64> {
        self.written.clone()
    }

    /// Asks the actor to stop.
    pub async fn shutdown(&self) {
        let _ = self.tx.send(SessionMsg::Shutdown).await;
    }

    /// Whether the actor has stopped.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

/// The actor's state.
pub struct Session {
    table: Table,
    journal: JournalWriter,
    /// The words every game shares (the turn, the clock, warnings, refusals).
    words: Announcer,
    msgs: Messages,
    blind: Blind,
    out: Outputs,
    /// Tokio instant of game time `base_ms`.
    origin: Instant,
    base_ms: u64,
    /// What was said while handling the current request.
    said: Vec<String>,
    /// The last braille update sent (clocks to the second), to skip repeats.
    last_braille: Option<(AnyPosition, StatusInfo)>,
    /// The last record sent to the braille display.
    last_record: Option<(Vec<String>, bool, Option<usize>)>,
    /// Voice input, when it listens.
    /// Voice input, when it listens: the table's microphone, or each
    /// seat's own.
    voices: Vec<crate::voice::VoiceLink>,
    /// The last thing the table's own output said (its "repeat").
    last_said: Option<Utterance>,
    /// Each seat's recent `say`s and what it last heard (`session/words.rs`).
    seat_words: words::SeatWords,
    /// The review cursor: the position after this many plies is shown and
    /// read; `None` while live (`session/record.rs`).
    review: Option<usize>,
    /// How many move pairs a bare `record` reads (`record-last`).
    record_last: u32,
    /// A table in a hall: the arbiter acts from the desk (what a refused
    /// arbiter's action says).
    in_hall: bool,
    /// Whether the current request journaled a change (its reply is a
    /// success only once that is in the journal file: [`Reply::unsaved`]).
    changed: bool,
    /// The seat whose request is being handled: its answers go to it alone
    /// (`session/seats.rs`).
    asker: Option<Color>,
    /// Whether the request only asks (its every word is the asker's answer).
    answering: bool,
    /// The languages the seats speak other than the table's (`session/tongues.rs`).
    tongues: Vec<tongues::Tongue>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("journal", &self.journal.path())
            .finish_non_exhaustive()
    }
}

fn phrasebook(lang: &str) -> Phrasebook {
    Phrasebook::builtin(lang).unwrap_or_else(Phrasebook::english)
}

impl Session {
    /// Starts a new game: creates the journal and writes its start line.
    ///
    /// # Errors
    /// The journal cannot be created (it exists: resume it instead).
    pub fn start(setup: &GameSetup, journal: &Path, out: Outputs) -> anyhow::Result<Session> {
        let info = start_info(setup);
        let table = Table::new(info.clone())?;
        let mut writer = JournalWriter::create(journal)
            .map_err(|e| anyhow::anyhow!("cannot create the journal {}: {e}", journal.display()))?;
        writer.append(0, Event::Start(info))?;
        let mut s = Session::with(table, writer, 0, out);
        s.build_tongues();
        s.announce_with(|s| s.words.turn(s.table.game.turn()));
        s.refresh();
        Ok(s)
    }

    /// Resumes the game of a journal after a crash: a torn last line is
    /// dropped (and cut off), the game, boards and clock are rebuilt, the
    /// clock is stopped at the journal's last line (a running clock is
    /// charged to the side to move up to there: a `tick` checkpoint at most
    /// about a second before the crash), and tandem says that it resumed.
    ///
    /// # Errors
    /// The journal cannot be read, its chain is broken, or it is not a game.
    pub fn resume(journal: &Path, out: Outputs) -> anyhow::Result<Session> {
        let j = Journal::read(journal)
            .map_err(|e| anyhow::anyhow!("cannot read the journal {}: {e}", journal.display()))?;
        if let Some(t) = &j.torn {
            tracing::warn!(
                "{}: line {} torn ({}), dropped",
                journal.display(),
                t.line,
                t.reason
            );
        }
        let table = Table::replay(&j.records)?;
        let writer = JournalWriter::resume(journal, &j)?;
        let base = j.last_t_ms();
        let mut s = Session::with(table, writer, base, out);
        s.build_tongues();
        let lines = j.records.len() as u64;
        s.record(Event::Resumed {
            lines,
            torn: j.torn.is_some(),
        })?;
        if s.table.clock.is_running() {
            s.record(Event::Pause {
                reason: "resume".into(),
                source: Some(Source::Tandem),
                seat: None,
            })?;
        }
        let g = &s.table.game;
        let made = g.moves_made(Color::White).max(g.moves_made(Color::Black));
        s.announce(s.words.resumed(made, g.turn()));
        if s.table.result.is_none() {
            s.announce(s.words.clock_stopped());
        } else if let Some(o) = s.table.game.outcome() {
            s.announce(s.table.game.game_over(&o));
        }
        s.refresh();
        Ok(s)
    }

    fn with(table: Table, journal: JournalWriter, base_ms: u64, out: Outputs) -> Session {
        let book = phrasebook(&table.info.lang);
        let blind = match table.info.blind.as_str() {
            "black" => Blind::Black,
            "both" => Blind::Both,
            "none" => Blind::None,
            _ => Blind::White,
        };
        Session {
            words: Announcer::new(book.clone(), AnnounceOptions::default()),
            msgs: Messages::new(book),
            blind,
            table,
            journal,
            out,
            origin: Instant::now(),
            base_ms,
            said: Vec::new(),
            last_braille: None,
            last_record: None,
            voices: Vec::new(),
            last_said: None,
            seat_words: words::SeatWords::default(),
            review: None,
            record_last: DEFAULT_RECORD_LAST,
            in_hall: false,
            changed: false,
            asker: None,
            answering: false,
            tongues: Vec::new(),
        }
    }

    /// A session over a table already built and a journal already started
    /// (the tests of the game interface).
    #[cfg(test)]
    pub(crate) fn from_table(table: Table, journal: JournalWriter, out: Outputs) -> Session {
        Session::with(table, journal, 0, out)
    }

    /// Speaks with this phrasebook from now on (`--phrasebook`: the same
    /// words tandem listens for).
    pub fn set_phrasebook(&mut self, book: Phrasebook) {
        self.words = Announcer::new(book.clone(), AnnounceOptions::default());
        self.table.game.set_phrasebook(&book);
        self.msgs = Messages::new(book);
    }

    /// Speaks the game's moves with the game's own phrasebook from now on
    /// (`tandem play --phrasebook FILE` of a game whose words have their own
    /// book type). `false`: not a phrasebook of this game.
    pub fn set_game_phrasebook(&mut self, book: &dyn std::any::Any) -> bool {
        self.table.game.set_game_phrasebook(book)
    }

    /// Connects voice input: the voice thread hears in the current position
    /// and is told every new one.
    pub fn set_voice(&mut self, mut link: crate::voice::VoiceLink) {
        link.position(self.table.game.ply() as u32, self.table.game.position());
        self.voices.retain(|v| v.seat != link.seat);
        self.voices.push(link);
    }

    /// The state.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Game time now, in whole milliseconds (never before the journal's last line).
    #[must_use]
    pub fn now(&self) -> GameTime {
        let since = Instant::now().saturating_duration_since(self.origin);
        GameTime::from_millis(self.base_ms.saturating_add(ms(since)))
    }

    fn instant_of(&self, t: GameTime) -> Instant {
        self.origin + Duration::from_millis(t.as_millis().saturating_sub(self.base_ms))
    }

    /// The state report.
    #[must_use]
    pub fn view(&self) -> StateView {
        let mut v = self.table.view(self.now(), self.journal.path());
        v.journal_health = self.journal.health();
        v.journal_seq = self.journal.len();
        v
    }

    /// Whether the journal file is behind (lines kept in memory).
    #[must_use]
    pub fn journal_ok(&self) -> bool {
        self.journal.health().ok
    }

    /// Tries the journal file again, then announces a change of its health.
    pub fn check_journal(&mut self) {
        if !self.journal.health().ok {
            self.journal.retry();
        }
        // Announcing journals a line, which may change the health again: at most twice.
        for _ in 0..2 {
            let Some(change) = self.journal.take_change() else {
                return;
            };
            let (event, msg) = match change {
                HealthChange::Degraded {
                    error,
                    from_seq,
                    fallback,
                } => {
                    let copied = fallback.is_some();
                    (
                        Event::JournalDegraded {
                            error,
                            from_seq,
                            fallback,
                        },
                        Msg::JournalDegraded(copied),
                    )
                }
                HealthChange::Recovered { flushed } => {
                    (Event::JournalRecovered { flushed }, Msg::JournalRecovered)
                }
            };
            let _ = self.journal.append(self.now().as_millis(), event);
            // Everyone at once (the players, the arbiter's screen): urgent.
            self.say_msg(Priority::Now, Kind::Rejection, &msg);
            self.refresh();
        }
    }

    /// Journals an event, then applies it. Nothing changes if the write fails.
    fn record(&mut self, event: Event) -> anyhow::Result<Record> {
        let t = self.now().as_millis();
        let rec = self.journal.append(t, event)?;
        self.changed = true;
        self.table
            .apply(&rec.event, GameTime::from_millis(rec.t_ms))?;
        self.sync_tongues(&rec.event, GameTime::from_millis(rec.t_ms));
        Ok(rec)
    }

    /// The desk's witness of the journal (from the relay, which checked its
    /// signature and that it names a line of this journal): one line, said
    /// to nobody, applied to nothing.
    fn witness(&mut self, w: crate::journal::witness::Witness, source: Source) -> Reply {
        if source != Source::Arbiter {
            let m = self.arbiter_only();
            return self.refuse_msg(source, "witness", &m);
        }
        if let Err(e) = self
            .journal
            .append(self.now().as_millis(), Event::Witness(w))
        {
            tracing::error!("journal: {e}");
        }
        self.ok()
    }

    fn announce(&mut self, u: Utterance) {
        let to = self.audience(u.kind);
        self.announce_to(u, to);
    }

    /// Says `u` to `to`'s outputs, tells the subscribers, and journals who
    /// heard it. Words made before the state changed (a move's): every
    /// seat hears the table's language ([`Session::announce_with`] says
    /// each seat's own).
    fn announce_to(&mut self, u: Utterance, to: Audience) {
        let n = 1 + self.tongues.len();
        self.announce_versions(vec![u; n], to);
    }

    fn say_msg(&mut self, priority: Priority, kind: Kind, m: &Msg) {
        self.announce_with(|s| s.msgs.utter(priority, kind, m));
    }

    /// Sends the braille and screen updates.
    fn refresh(&mut self) {
        let now = self.now();
        // A takeback may leave the review past the last ply.
        let plies = self.table.game.ply();
        if let Some(at) = self.review.as_mut() {
            *at = (*at).min(plies);
        }
        if !self.displays().is_empty() {
            // Clocks to the second: a display is rewritten only when what it shows changes.
            let mut status = self.table.status(now);
            let secs = |d: Option<Duration>| d.map(|d| Duration::from_secs(d.as_secs()));
            status.white_clock = secs(status.white_clock);
            status.black_clock = secs(status.black_clock);
            // In review the display shows the review's position (issue 15).
            let g = &self.table.game;
            let shown = self.review.and_then(|at| g.position_at(at));
            let update = (shown.unwrap_or_else(|| g.position()), status);
            if self.last_braille.as_ref() != Some(&update) {
                let input = self
                    .review
                    .and_then(|at| g.braille_at(at, &update.1))
                    .unwrap_or_else(|| g.braille(&update.1));
                self.show(&input);
                self.last_braille = Some(update);
            }
            let record = (g.move_texts(), g.black_first(), self.review);
            if self.last_record.as_ref() != Some(&record) {
                self.show(&DriverInput::Record {
                    moves: record.0.clone(),
                    black_first: record.1,
                    review: record.2,
                });
                self.last_record = Some(record);
            }
        }
        // The view (the whole record, the legal moves for completion, the
        // diagram) is built only for someone listening: a state sent to no
        // subscriber is dropped anyway, and building it was most of a
        // headless move's time (BENCHMARKS.md, the daemon).
        if self.out.notices.receiver_count() > 0 {
            let _ = self.out.notices.send(Notice::State(Box::new(self.view())));
        }
        // Voice input listens for the legal moves of the new position.
        let (ply, pos) = (self.table.game.ply() as u32, self.table.game.position());
        for v in &mut self.voices {
            v.position(ply, pos.clone());
        }
    }

    fn refuse(&mut self, source: Source, input: &str, reason: String, u: Utterance) -> Reply {
        self.refuse_with(source, input, reason, |_| u.clone())
    }

    /// [`Session::refuse`] with the words in each seat's language (`f`
    /// evaluated in each: nothing has changed).
    fn refuse_with(
        &mut self,
        source: Source,
        input: &str,
        reason: String,
        f: impl Fn(&Session) -> Utterance,
    ) -> Reply {
        self.announce_with(f);
        self.rejected(source, input, reason)
    }

    /// Journals an input refused for `reason` (its words already said) and
    /// answers it so, with what the asker was told.
    fn rejected(&mut self, source: Source, input: &str, reason: String) -> Reply {
        if let Err(e) = self.journal.append(
            self.now().as_millis(),
            Event::Rejected {
                source,
                input: input.to_owned(),
                reason: reason.clone(),
                seat: self.asker,
            },
        ) {
            tracing::error!("journal: {e}");
        }
        Reply {
            ok: false,
            error: Some(reason),
            said: std::mem::take(&mut self.said),
            ..Reply::default()
        }
    }

    /// Refuses `input` the journal could not record (`e`): the reason
    /// names the error; the words say the journal failed.
    fn unrecorded(&mut self, source: Source, input: &str, e: &anyhow::Error) -> Reply {
        let u = self
            .msgs
            .utter(Priority::Now, Kind::Rejection, &Msg::JournalFailed);
        self.refuse(source, input, format!("journal: {e}"), u)
    }

    fn refuse_msg(&mut self, source: Source, input: &str, m: &Msg) -> Reply {
        let reason = self.msgs.text(m);
        self.refuse_with(source, input, reason, |s| {
            s.msgs.utter(Priority::Now, Kind::Rejection, m)
        })
    }

    fn ok(&mut self) -> Reply {
        Reply {
            ok: true,
            error: None,
            said: std::mem::take(&mut self.said),
            ..Reply::default()
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Cmd, source: Source) -> Reply {
        self.handle_as(cmd, source, None)
    }

    /// Handles one command of `seat` (`None`: the table's own channel):
    /// its answers go to that seat alone, and it plays only for its side.
    pub fn handle_as(&mut self, cmd: Cmd, source: Source, seat: Option<Color>) -> Reply {
        // Reliability tests make the actor fail here (`failpoints` feature,
        // FAILPOINTS="session-handle=3*off->panic"): nothing without it.
        fail::fail_point!("session-handle");
        self.said.clear();
        self.poll_clock();
        self.said.clear();
        self.changed = false;
        self.asker = seat;
        self.answering = Session::only_asks(&cmd);
        let cmd = self.for_seat(cmd);
        if let Some(reply) = self.other_sides(&cmd, source) {
            return self.conclude(reply);
        }
        // A question only the game has (`pips`), or a question about the
        // board typed bare (`knights`, `row 5`): answered, nothing changes
        // (docs/ask.md). Each is asked of the game once.
        if let Cmd::Unknown(text) | Cmd::Move(text) = &cmd {
            self.answering = true;
            let answered = self.bare_question(text, source);
            self.answering = Session::only_asks(&cmd);
            if let Some(reply) = answered {
                return self.conclude(reply);
            }
        }
        let reply = match cmd {
            Cmd::Ask(text) => self.ask(&text, true, source),
            Cmd::Move(text) => self.play(&text, source),
            Cmd::Done(side) => self.done(side, source),
            Cmd::Missing(side) => {
                let side = side
                    .or(self.blind.side())
                    .unwrap_or_else(|| self.behind_side());
                self.tell_missing(side);
                self.ok()
            }
            Cmd::Clock => {
                let r = self.clock_report();
                if self.table.clock.control().is_untimed() {
                    // `--control none`: no times to tell, only the moves made.
                    let m = Msg::NoClock(r.moves_made);
                    self.say_msg(Priority::Next, Kind::Clock, &m);
                } else {
                    self.announce_with(|s| s.words.on_clock(&r));
                }
                if self.table.game.after_clock().is_some() {
                    self.announce_with(|s| s.table.game.after_clock().unwrap_or_else(nothing));
                }
                self.ok()
            }
            Cmd::Position => {
                match self.review {
                    Some(at) => self.review_position(at),
                    None => self.announce_with(|s| s.table.game.describe_position()),
                }
                self.ok()
            }
            Cmd::Record(from, to) => self.read_record(from, to, source),
            Cmd::ReviewMove(n) => self.review_move(n, source),
            Cmd::ReviewPly(p) => self.review_ply(p, source),
            Cmd::Next => self.review_step(true, source),
            Cmd::Back => self.review_step(false, source),
            Cmd::Live => self.review_live(source),
            Cmd::Last => {
                self.announce_with(|s| s.table.game.last_move());
                self.ok()
            }
            Cmd::State => Reply {
                ok: true,
                state: Some(self.view()),
                ..Reply::default()
            },
            Cmd::Mismatch(board) => self.mismatch(board, source),
            Cmd::Pause => self.pause(source),
            Cmd::Resume => self.resume_clock(source),
            Cmd::Draw(what, side) => self.draw(what, side, source),
            // A game with more than one kind of resignation decides it as
            // its own action (Game::resign_action).
            Cmd::Resign(side) if self.table.game.resign_action(side).is_some() => {
                let text = self.table.game.resign_action(side).unwrap_or_default();
                self.play(&text, source)
            }
            Cmd::Resign(side) => {
                if let Some(o) = self.table.game.outcome() {
                    let _ = o;
                    let u = self.words.game_over_refusal();
                    return self.refuse(source, "resign", "the game is over".into(), u);
                }
                let side = side.unwrap_or_else(|| self.table.game.turn());
                self.finish(Outcome::Win {
                    winner: side.other(),
                    reason: WinReason::Resignation,
                });
                self.ok()
            }
            Cmd::Say(text) => self.say(&text, source),
            Cmd::Tell(tell) => self.tell(&tell, source),
            Cmd::Repeat => self.repeat(),
            Cmd::Device(change) => self.device_change(&change, source),
            Cmd::Help => {
                self.announce_with(|s| s.table.game.help());
                self.ok()
            }
            Cmd::ClockSet(side, secs) => self.clock_set(side, secs, source),
            Cmd::Takeback(plies, why) => self.takeback(plies, why, source),
            Cmd::Listen => self.listen(source),
            Cmd::Witness(w) => self.witness(*w, source),
            // A command word the session does not know may be the game's
            // own action (a roll of the dice, a cube action: `Game::action`).
            Cmd::Unknown(text) if self.table.game.action(&text).is_some() => {
                self.play(&text, source)
            }
            Cmd::Unknown(text) => {
                self.refuse_msg(source, &text, &Msg::UnknownCommand(text.clone()))
            }
        };
        self.conclude(reply)
    }

    /// What every answer ends with: the views refreshed after a change, and
    /// a journal that failed or came back told at once, in this answer too.
    fn conclude(&mut self, mut reply: Reply) -> Reply {
        if reply.ok {
            self.refresh();
        }
        // What follows (a journal that failed) is everyone's.
        self.asker = None;
        self.answering = false;
        self.said.clear();
        self.check_journal();
        reply.said.append(&mut self.said);
        // Carried out is not yet safe: a change whose line (or an earlier
        // one) is only in memory or the fallback copy is not a success.
        if reply.ok && self.changed && !self.journal_ok() {
            reply.unsaved = Some(self.journal.health());
        }
        reply
    }

    /// Runs the actor until shutdown or until every handle is dropped.
    pub async fn run(mut self, mut rx: mpsc::Receiver<SessionMsg>) {
        loop {
            let clock_due = self.next_deadline();
            let mut deadline = clock_due;
            if let Some(c) = self.next_checkpoint() {
                deadline = Some(deadline.map_or(c, |d| d.min(c)));
            }
            if !self.journal_ok() {
                // Try the journal file again every second until it takes the kept lines.
                let retry = Instant::now() + Duration::from_secs(1);
                deadline = Some(deadline.map_or(retry, |d| d.min(retry)));
            }
            let sleep = async move {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(SessionMsg::Cmd { cmd, source, seat, reply }) => {
                        let r = self.handle_as(cmd, source, seat);
                        if let Some(tx) = reply {
                            let _ = tx.send(r);
                        }
                    }
                    Some(SessionMsg::Voice(v, seat)) => self.voice_input(v, seat),
                    Some(SessionMsg::Shutdown) | None => break,
                },
                () = sleep => {
                    // The clock's warnings and flag first: a flag ends the
                    // game, and a checkpoint is never written past it.
                    if clock_due.is_some_and(|d| d <= Instant::now()) {
                        self.poll_clock();
                    }
                    self.checkpoint();
                    self.check_journal();
                }
            }
        }
    }

    /// Spawns the actor on the current tokio runtime.
    #[must_use]
    pub fn spawn(self) -> (SessionHandle, tokio::task::JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(64);
        let handle = SessionHandle {
            tx,
            notices: self.out.notices.clone(),
            written: self.journal.written(),
        };
        let task = tokio::spawn(self.run(rx));
        (handle, task)
    }
}

/// No words (an utterance that is not said).
pub(super) fn nothing() -> Utterance {
    Utterance::new(Priority::Normal, Kind::Help, Vec::new())
}

fn kind_name(k: Kind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
