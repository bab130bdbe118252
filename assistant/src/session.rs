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
use tandem_rules::{Clock, Color, DrawReason, GameOptions, Outcome, WinReason};
use tandem_speech::{AnnounceOptions, Announcer, Kind, Phrasebook, Priority, Utterance};

use crate::game::AnyPosition;
use crate::games::{BoardNotRead, Game, PreparedAction};

use crate::journal::{
    Event, HealthChange, Journal, JournalHealth, JournalWriter, Record, Source, StartInfo,
};
use crate::messages::{Messages, Msg};

/// Which players cannot see the board (001 ch. VIII).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Blind {
    /// White is blind or visually impaired.
    #[default]
    White,
    /// Black is.
    Black,
    /// Both are.
    Both,
    /// Neither (tandem as a plain recorder and clock).
    None,
}

impl Blind {
    /// The name used in the journal and the config file.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Blind::White => "white",
            Blind::Black => "black",
            Blind::Both => "both",
            Blind::None => "none",
        }
    }

    /// The one blind side, if exactly one.
    #[must_use]
    pub fn side(self) -> Option<Color> {
        match self {
            Blind::White => Some(Color::White),
            Blind::Black => Some(Color::Black),
            _ => None,
        }
    }
}

/// What a new game is started with.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// The start position (of any game the registry knows, `crate::game`).
    pub start: AnyPosition,
    /// The time control.
    pub control: TimeControl,
    /// Warning thresholds (default 5 min, 1 min, 10 s).
    pub warnings: Vec<Duration>,
    /// Names.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// Who is blind.
    pub blind: Blind,
    /// Speech language (`pl`, `en`).
    pub lang: String,
    /// Rule options.
    pub options: GameOptions,
}

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

/// What a draw command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawCmd {
    /// Offer a draw (after one's own move, 001 ch. II 5.1).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
    /// Claim a draw by repetition or fifty moves, where the game has such
    /// claims (002 art. 9.2, 9.3).
    Claim,
}

/// A request to the session, from any input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cmd {
    /// Play a move (loose text: `32-28`, `32 28`, `3228`, `28x19`).
    Move(String),
    /// A board is up to date (`None`: the one that is behind).
    Done(Option<Color>),
    /// What a board is missing (`None`: the blind player's, else the one behind).
    Missing(Option<Color>),
    /// The clock report (001 ch. VIII 5.1).
    Clock,
    /// Read the position.
    Position,
    /// The last move again.
    Last,
    /// The state as JSON (no speech).
    State,
    /// The boards differ; optionally the position one board shows (FEN).
    Mismatch(Option<String>),
    /// Stop the clock.
    Pause,
    /// Restart the clock.
    Resume,
    /// A draw offer or its answer; the side is the one that offers or answers.
    Draw(DrawCmd, Option<Color>),
    /// Resignation (`None`: the side to move).
    Resign(Option<Color>),
    /// Speak a text.
    Say(String),
    /// Help.
    Help,
    /// A command not understood (answered with an error, nothing changes).
    Unknown(String),
    /// Arbiter: set a side's remaining time, in seconds (001 ch. VIII 3.1.2).
    /// Refused unless the source is [`Source::Arbiter`].
    ClockSet(Color, u64),
    /// Arbiter: take back the last N plies after a mismatch, and why (001 ch.
    /// VIII 3.1.2). Refused unless the source is [`Source::Arbiter`].
    Takeback(u32, String),
    /// Voice input: the push-to-talk key (down, then up), or listening on/off.
    Listen,
}

fn parse_side(s: &str) -> Option<Color> {
    match s.trim().to_ascii_lowercase().as_str() {
        "white" | "w" | "białe" | "biale" => Some(Color::White),
        "black" | "b" | "czarne" => Some(Color::Black),
        _ => None,
    }
}

impl Cmd {
    /// A line typed on the screen or stdin: a command word (English or
    /// Polish) or else a move.
    #[must_use]
    pub fn parse_line(line: &str) -> Cmd {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let side = || {
            if rest.is_empty() {
                Ok(None)
            } else {
                parse_side(rest).map(Some).ok_or(())
            }
        };
        match word.to_lowercase().as_str() {
            "clock" | "zegar" | "czas" if rest.is_empty() => Cmd::Clock,
            "position" | "pozycja" if rest.is_empty() => Cmd::Position,
            "last" | "ostatni" if rest.is_empty() => Cmd::Last,
            "state" if rest.is_empty() => Cmd::State,
            "help" | "pomoc" if rest.is_empty() => Cmd::Help,
            "listen" | "słuchaj" | "sluchaj" if rest.is_empty() => Cmd::Listen,
            "pause" | "stop" | "pauza" if rest.is_empty() => Cmd::Pause,
            "resume" | "wznów" | "wznow" if rest.is_empty() => Cmd::Resume,
            "done" | "zrobione" | "gotowe" => {
                side().map_or_else(|()| Cmd::Unknown(line.into()), Cmd::Done)
            }
            "missing" | "brakuje" => {
                side().map_or_else(|()| Cmd::Unknown(line.into()), Cmd::Missing)
            }
            "resign" | "poddaję" | "poddaje" => {
                side().map_or_else(|()| Cmd::Unknown(line.into()), Cmd::Resign)
            }
            "mismatch" | "różnica" | "roznica" => {
                Cmd::Mismatch((!rest.is_empty()).then(|| rest.to_owned()))
            }
            "say" | "powiedz" => Cmd::Say(rest.to_owned()),
            "draw" | "remis" => {
                let mut it = rest.split_whitespace();
                let what = match it.next().map(str::to_lowercase).as_deref() {
                    Some("offer" | "propozycja") | None => Some(DrawCmd::Offer),
                    Some("accept" | "przyjmuję" | "tak") => Some(DrawCmd::Accept),
                    Some("decline" | "odrzucam" | "nie") => Some(DrawCmd::Decline),
                    Some("claim" | "reklamuję" | "reklamuje" | "reklamacja") => {
                        Some(DrawCmd::Claim)
                    }
                    _ => None,
                };
                let side = it.next().map(parse_side);
                match (what, side) {
                    (Some(w), None) => Cmd::Draw(w, None),
                    (Some(w), Some(Some(c))) => Cmd::Draw(w, Some(c)),
                    _ => Cmd::Unknown(line.into()),
                }
            }
            _ => Cmd::Move(line.to_owned()),
        }
    }
}

/// The answer to a request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reply {
    /// Whether the request was carried out.
    pub ok: bool,
    /// Why not (log wording; `said` has what the player heard).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What tandem said in answer, in order.
    pub said: Vec<String>,
    /// The state, for `state` (and after every change, for convenience).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<StateView>,
}

/// One side's clock in [`StateView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// Remaining time.
    pub remaining_ms: u64,
    /// Time used.
    pub used_ms: u64,
    /// Moves made.
    pub moves: u32,
    /// When the flag fell (game time), if it did.
    pub flag_ms: Option<u64>,
}

/// One board's sync state in [`StateView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// The ply the board shows.
    pub ply: u32,
    /// Moves (plies) it lacks.
    pub behind: u32,
}

/// The session's state as the `state` command reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateView {
    /// The game's name (`--variant`).
    pub variant: String,
    /// The position text (PDN FEN, FEN).
    pub fen: String,
    /// Plies played.
    pub ply: u32,
    /// Side to move.
    pub turn: Color,
    /// The moves in strict notation.
    pub moves: Vec<String>,
    /// Both clocks.
    pub clocks: ClocksView,
    /// Each board's sync state.
    pub boards: BoardsView,
    /// PDN result (`2-0`, `0-2`, `1-1`) or `null` while the game goes on.
    pub result: Option<String>,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// A pending draw offer: who made it.
    pub draw_offer: Option<Color>,
    /// Game time in milliseconds.
    pub t_ms: u64,
    /// The journal file.
    pub journal: PathBuf,
    /// Whether the journal file holds every line (a full or read-only disk:
    /// the game goes on in memory and in a fallback copy).
    pub journal_health: JournalHealth,
    /// Fields only the game at the table has (`Game::state_extra`), at the
    /// top level of the JSON object beside the others.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Both clocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClocksView {
    /// White's.
    pub white: ClockView,
    /// Black's.
    pub black: ClockView,
    /// Whether the clock runs.
    pub running: bool,
    /// Whether it was stopped (mismatch, arbiter, resume).
    pub paused: bool,
    /// The time control, written form.
    pub control: String,
}

/// Both boards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardsView {
    /// White's board.
    pub white: BoardView,
    /// Black's board.
    pub black: BoardView,
}

/// What subscribers (the screen, `ctl` event streams) are told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Notice {
    /// Something was said.
    Speech {
        /// `now`, `next`, `normal`.
        priority: Priority,
        /// What about.
        kind: Kind,
        /// The words.
        text: String,
    },
    /// The state changed (a move, a clock event, a board confirmation…).
    State(Box<StateView>),
}

/// A message to the actor.
#[derive(Debug)]
pub enum SessionMsg {
    /// A command, with its source and where to send the answer.
    Cmd {
        /// The command.
        cmd: Cmd,
        /// Where it came from.
        source: Source,
        /// The answer (none for fire-and-forget inputs).
        reply: Option<oneshot::Sender<Reply>>,
    },
    /// Voice input: an utterance, or the microphone's state.
    Voice(crate::voice::VoiceInput),
    /// Stop the actor (the journal is already synced line by line).
    Shutdown,
}

/// Where the session's outputs go.
#[derive(Debug, Clone)]
pub struct Outputs {
    /// Speech: the speech task speaks these in priority order.
    pub speech: mpsc::UnboundedSender<Utterance>,
    /// Braille: the display driver thread.
    pub braille: Option<std::sync::mpsc::Sender<DriverInput>>,
    /// Notices for the screen and subscribers.
    pub notices: broadcast::Sender<Notice>,
}

/// A cloneable handle to the actor.
#[derive(Debug, Clone)]
pub struct SessionHandle {
    tx: mpsc::Sender<SessionMsg>,
    notices: broadcast::Sender<Notice>,
}

impl SessionHandle {
    /// Sends `cmd` and waits for the answer.
    ///
    /// # Errors
    /// The session has stopped.
    pub async fn request(&self, cmd: Cmd, source: Source) -> anyhow::Result<Reply> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(SessionMsg::Cmd {
                cmd,
                source,
                reply: Some(tx),
            })
            .await
            .map_err(|_| anyhow::anyhow!("the session has stopped"))?;
        rx.await
            .map_err(|_| anyhow::anyhow!("the session stopped before answering"))
    }

    /// [`SessionHandle::request`] from a plain thread (stdin, braille keys).
    ///
    /// # Errors
    /// The session has stopped.
    pub fn blocking_request(&self, cmd: Cmd, source: Source) -> anyhow::Result<Reply> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .blocking_send(SessionMsg::Cmd {
                cmd,
                source,
                reply: Some(tx),
            })
            .map_err(|_| anyhow::anyhow!("the session has stopped"))?;
        rx.blocking_recv()
            .map_err(|_| anyhow::anyhow!("the session stopped before answering"))
    }

    /// Voice input from the voice thread (no answer).
    ///
    /// # Errors
    /// The session has stopped.
    pub fn blocking_voice(&self, v: crate::voice::VoiceInput) -> anyhow::Result<()> {
        self.tx
            .blocking_send(SessionMsg::Voice(v))
            .map_err(|_| anyhow::anyhow!("the session has stopped"))
    }

    /// Notices from now on.
    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<Notice> {
        self.notices.subscribe()
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

/// The game state rebuilt from journal events: game, clock, boards, draw offers.
#[derive(Debug, Clone)]
pub struct Table {
    /// The start info (journal line 1).
    pub info: StartInfo,
    /// The game, behind the one game interface.
    pub game: Box<dyn Game>,
    /// The clock.
    pub clock: Clock,
    /// The ply each side's board shows.
    pub boards: [u32; 2],
    /// A pending draw offer and who made it.
    pub draw_offer: Option<Color>,
    /// Sides whose offer was declined and may not offer again yet (001 ch. II 5.1).
    pub barred: [bool; 2],
    /// A result event was recorded.
    pub result: Option<Outcome>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Table {
    /// The state at the start of a game; the clock starts at game time zero.
    ///
    /// # Errors
    /// The start info names an unknown variant, a bad FEN or time control.
    pub fn new(info: StartInfo) -> anyhow::Result<Table> {
        let game = crate::game::from_journal(&info.variant, &info.fen, info.options, &info.lang)?;
        let control = TimeControl::lookup(&info.control).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut clock = Clock::new(control)
            .with_warnings(info.warnings_s.iter().map(|s| Duration::from_secs(*s)));
        clock
            .start_with(game.turn(), GameTime::ZERO)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Table {
            game,
            info,
            clock,
            boards: [0, 0],
            draw_offer: None,
            barred: [false, false],
            result: None,
        })
    }

    /// Rebuilds the state from a journal's records.
    ///
    /// # Errors
    /// The journal has no start, or an event cannot be applied (a journal
    /// written by another program).
    pub fn replay(records: &[Record]) -> anyhow::Result<Table> {
        let Some(Record {
            event: Event::Start(info),
            ..
        }) = records.first()
        else {
            anyhow::bail!("the journal does not begin with a game start");
        };
        let mut t = Table::new(info.clone())?;
        for r in &records[1..] {
            t.apply(&r.event, GameTime::from_millis(r.t_ms))
                .map_err(|e| anyhow::anyhow!("journal line {}: {e}", r.seq))?;
        }
        Ok(t)
    }

    /// Applies an event that has been journaled.
    ///
    /// # Errors
    /// The event contradicts the state (only for a foreign journal: the
    /// session decides every event against this state before writing it).
    pub fn apply(&mut self, event: &Event, at: GameTime) -> anyhow::Result<()> {
        match event {
            Event::Move { text, side, .. } => {
                anyhow::ensure!(*side == self.game.turn(), "{side} moved out of turn");
                self.game
                    .play_text(text)
                    .map_err(|e| anyhow::anyhow!("move {text}: {e}"))?;
                if self.clock.is_running() {
                    self.clock
                        .press(at)
                        .map_err(|e| anyhow::anyhow!("clock: {e}"))?;
                } else {
                    // A move entered while the clock was stopped (not done by
                    // the session) still changes the side whose time runs.
                    let _ = self.clock.set_turn(side.other(), at);
                }
                // The mover made it on their own board; that confirms the
                // earlier moves too (design: "The flow of one move", 4).
                self.boards[idx(*side)] = self.game.ply() as u32;
                if self.draw_offer == Some(side.other()) {
                    self.draw_offer = None;
                }
            }
            Event::Action {
                text, side, press, ..
            } => {
                self.game
                    .play_action(text)
                    .map_err(|e| anyhow::anyhow!("action {text}: {e}"))?;
                if *press {
                    if self.clock.is_running() {
                        self.clock
                            .press(at)
                            .map_err(|e| anyhow::anyhow!("clock: {e}"))?;
                    } else {
                        let _ = self.clock.set_turn(side.other(), at);
                    }
                }
            }
            Event::BoardDone { side, ply, .. } => {
                self.boards[idx(*side)] = (*ply).min(self.game.ply() as u32)
            }
            Event::Pause { .. } => {
                if self.clock.is_running() {
                    self.clock
                        .pause(at)
                        .map_err(|e| anyhow::anyhow!("clock: {e}"))?;
                }
            }
            Event::Resume => {
                if self.clock.is_paused() {
                    self.clock
                        .resume(at)
                        .map_err(|e| anyhow::anyhow!("clock: {e}"))?;
                }
            }
            Event::DrawOffer { side } => {
                self.draw_offer = Some(*side);
                // An offer from the opponent lifts one's own bar.
                self.barred[idx(side.other())] = false;
            }
            Event::DrawDeclined { side } => {
                self.draw_offer = None;
                self.barred[idx(side.other())] = true;
            }
            Event::DrawClaim {
                side,
                valid: false,
                added_ms,
                ..
            } => {
                // 002 art. 9.5(b): the opponent gets the time.
                let opp = side.other();
                let left = self.clock.remaining(opp, at);
                self.clock
                    .set_remaining(opp, left + Duration::from_millis(*added_ms), at)
                    .map_err(|e| anyhow::anyhow!("clock: {e}"))?;
            }
            Event::DrawClaim { .. } => {}
            Event::Result { outcome, .. } => {
                self.game.declare(*outcome);
                self.result = Some(*outcome);
                self.draw_offer = None;
                if self.clock.is_running() {
                    let _ = self.clock.pause(at);
                }
            }
            // The clock gave these itself: settle it at that moment so it
            // does not give them again.
            Event::Flag { .. } | Event::Warning { .. } => {
                let _ = self.clock.advance(at);
            }
            Event::ClockSet {
                side, remaining_ms, ..
            } => {
                self.clock
                    .set_remaining(*side, Duration::from_millis(*remaining_ms), at)
                    .map_err(|e| anyhow::anyhow!("clock: {e}"))?;
            }
            Event::Correction { plies, undone, .. } => {
                anyhow::ensure!(
                    *plies as usize <= self.game.ply() && undone.len() == *plies as usize,
                    "a correction of {plies} plies after {} plies",
                    self.game.ply()
                );
                for _ in 0..*plies {
                    self.game.undo();
                }
                let ply = self.game.ply() as u32;
                for b in &mut self.boards {
                    *b = (*b).min(ply);
                }
                self.draw_offer = None;
                self.result = None;
                // The clock follows the record: the side to move and the
                // moves each side has made (time is the arbiter's `clock set`).
                for c in [Color::White, Color::Black] {
                    let _ = self.clock.set_moves(c, self.game.moves_made(c), at);
                }
                let _ = self.clock.set_turn(self.game.turn(), at);
            }
            Event::Start(_) => anyhow::bail!("a second game start"),
            // A checkpoint: the clock ran up to here. Nothing to apply (the
            // clock charges the side to move lazily, up to the `at` of the
            // next event); its point is that the journal's last line, where a
            // resume stops the clock, is at most about a second old.
            Event::Tick
            | Event::Announced { .. }
            | Event::Mismatch { .. }
            | Event::Rejected { .. }
            | Event::Say { .. }
            | Event::Resumed { .. }
            | Event::JournalDegraded { .. }
            | Event::JournalRecovered { .. }
            | Event::Heard { .. }
            | Event::Microphone { .. } => {}
        }
        Ok(())
    }

    /// Plies a side's board lacks.
    #[must_use]
    pub fn behind(&self, side: Color) -> u32 {
        (self.game.ply() as u32).saturating_sub(self.boards[idx(side)])
    }

    /// The state as reported.
    #[must_use]
    pub fn view(&self, at: GameTime, journal: &Path) -> StateView {
        let side = |c: Color| ClockView {
            remaining_ms: ms(self.clock.remaining(c, at)),
            used_ms: ms(self.clock.used(c, at)),
            moves: self.game.moves_made(c),
            flag_ms: self.clock.flag(c, at).map(GameTime::as_millis),
        };
        let board = |c: Color| BoardView {
            ply: self.boards[idx(c)],
            behind: self.behind(c),
        };
        let outcome = self.game.outcome();
        StateView {
            variant: self.game.kind().name().to_owned(),
            fen: self.game.fen(),
            ply: self.game.ply() as u32,
            turn: self.game.turn(),
            moves: self.game.move_texts(),
            clocks: ClocksView {
                white: side(Color::White),
                black: side(Color::Black),
                running: self.clock.is_running(),
                paused: self.clock.is_paused(),
                control: self.clock.control().to_string(),
            },
            boards: BoardsView {
                white: board(Color::White),
                black: board(Color::Black),
            },
            result: outcome.map(|o| self.game.result_text(Some(o)).to_owned()),
            outcome,
            draw_offer: self.draw_offer,
            t_ms: at.as_millis(),
            journal: journal.to_owned(),
            journal_health: JournalHealth {
                ok: true,
                ..JournalHealth::default()
            },
            extra: self.game.state_extra(),
        }
    }

    /// The braille status line's facts.
    #[must_use]
    pub fn status(&self, at: GameTime) -> StatusInfo {
        StatusInfo {
            last_move: self.game.last_move_text(),
            to_move: self.game.turn(),
            white_clock: Some(self.clock.remaining(Color::White, at)),
            black_clock: Some(self.clock.remaining(Color::Black, at)),
            white_behind: self.behind(Color::White),
            black_behind: self.behind(Color::Black),
        }
    }
}

/// Builds the start info of a new game.
#[must_use]
pub fn start_info(setup: &GameSetup) -> StartInfo {
    StartInfo {
        variant: setup.start.kind().name().to_owned(),
        fen: setup.start.to_fen(),
        control: setup.control.to_string(),
        warnings_s: setup.warnings.iter().map(Duration::as_secs).collect(),
        white: setup.white.clone(),
        black: setup.black.clone(),
        event: setup.event.clone(),
        blind: setup.blind.name().to_owned(),
        lang: setup.lang.clone(),
        options: setup.options,
        version: env!("CARGO_PKG_VERSION").to_owned(),
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
    /// Voice input, when it listens.
    voice: Option<crate::voice::VoiceLink>,
    /// The last thing said (for the spoken "repeat").
    last_said: Option<Utterance>,
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
        s.announce(s.words.turn(s.table.game.turn()));
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
        let lines = j.records.len() as u64;
        s.record(Event::Resumed {
            lines,
            torn: j.torn.is_some(),
        })?;
        if s.table.clock.is_running() {
            s.record(Event::Pause {
                reason: "resume".into(),
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
            voice: None,
            last_said: None,
        }
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
        self.voice = Some(link);
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
        self.table
            .apply(&rec.event, GameTime::from_millis(rec.t_ms))?;
        Ok(rec)
    }

    fn announce(&mut self, u: Utterance) {
        let text = u.text();
        if text.is_empty() {
            return;
        }
        let _ = self.out.speech.send(u.clone());
        let _ = self.out.notices.send(Notice::Speech {
            priority: u.priority,
            kind: u.kind,
            text: text.clone(),
        });
        // The record of what was said (001 ch. VIII 2.2): after the words are queued.
        let ev = Event::Announced {
            kind: kind_name(u.kind),
            priority: u.priority.name().to_owned(),
            text: text.clone(),
        };
        if let Err(e) = self.journal.append(self.now().as_millis(), ev) {
            tracing::error!("journal: {e}");
        }
        self.said.push(text);
        self.last_said = Some(u);
    }

    fn say_msg(&mut self, priority: Priority, kind: Kind, m: &Msg) {
        let u = self.msgs.utter(priority, kind, m);
        self.announce(u);
    }

    /// Sends the braille and screen updates.
    fn refresh(&mut self) {
        let now = self.now();
        if let Some(b) = &self.out.braille {
            // Clocks to the second: a display is rewritten only when what it shows changes.
            let mut status = self.table.status(now);
            let secs = |d: Option<Duration>| d.map(|d| Duration::from_secs(d.as_secs()));
            status.white_clock = secs(status.white_clock);
            status.black_clock = secs(status.black_clock);
            let update = (self.table.game.position(), status);
            if self.last_braille.as_ref() != Some(&update) {
                let _ = b.send(self.table.game.braille(&update.1));
                self.last_braille = Some(update);
            }
        }
        let _ = self.out.notices.send(Notice::State(Box::new(self.view())));
        // Voice input listens for the legal moves of the new position.
        if let Some(v) = self.voice.as_mut() {
            v.position(self.table.game.ply() as u32, self.table.game.position());
        }
    }

    fn refuse(&mut self, source: Source, input: &str, reason: String, u: Utterance) -> Reply {
        self.announce(u);
        if let Err(e) = self.journal.append(
            self.now().as_millis(),
            Event::Rejected {
                source,
                input: input.to_owned(),
                reason: reason.clone(),
            },
        ) {
            tracing::error!("journal: {e}");
        }
        Reply {
            ok: false,
            error: Some(reason),
            said: std::mem::take(&mut self.said),
            state: None,
        }
    }

    fn refuse_msg(&mut self, source: Source, input: &str, m: &Msg) -> Reply {
        let u = self.msgs.utter(Priority::Now, Kind::Rejection, m);
        let reason = self.msgs.text(m);
        self.refuse(source, input, reason, u)
    }

    fn ok(&mut self) -> Reply {
        Reply {
            ok: true,
            error: None,
            said: std::mem::take(&mut self.said),
            state: None,
        }
    }

    /// The next moment the clock has something to say (a warning, a flag).
    #[must_use]
    pub fn next_deadline(&self) -> Option<Instant> {
        if self.table.result.is_some() {
            return None;
        }
        self.table
            .clock
            .next_event(self.now())
            .map(|e| self.instant_of(e.at))
    }

    /// When the next clock checkpoint is due: [`CHECKPOINT`] after the
    /// journal's last line (any line is a checkpoint), while the clock runs
    /// and the game goes on. `None` while it is paused or the game is over.
    #[must_use]
    pub fn next_checkpoint(&self) -> Option<Instant> {
        if self.table.result.is_some() || !self.table.clock.is_running() {
            return None;
        }
        let at = self.journal.last_t_ms().saturating_add(ms(CHECKPOINT));
        Some(self.instant_of(GameTime::from_millis(at)))
    }

    /// Journals a `tick` checkpoint if one is due (see [`Session::next_checkpoint`]),
    /// so that a resume after a crash charges the side to move up to here.
    /// Nobody is told: it is not an announcement and changes no state.
    pub fn checkpoint(&mut self) {
        if self
            .next_checkpoint()
            .is_some_and(|due| due <= Instant::now())
        {
            if let Err(e) = self.journal.append(self.now().as_millis(), Event::Tick) {
                tracing::error!("journal: {e}");
            }
        }
    }

    /// Gives the clock's warnings and flag falls up to now (001 ch. VIII 4.1.4).
    pub fn poll_clock(&mut self) {
        if self.table.result.is_some() || !self.table.clock.is_running() {
            return;
        }
        let now = self.now();
        let mut probe = self.table.clock.clone();
        let events = match probe.advance(now) {
            Ok(e) => e,
            Err(e) => {
                tracing::error!("clock: {e}");
                return;
            }
        };
        for e in events {
            let event = match e.kind {
                ClockEventKind::Warning(left) => Event::Warning {
                    side: e.side,
                    left_ms: ms(left),
                },
                ClockEventKind::Flag => Event::Flag {
                    side: e.side,
                    at_ms: e.at.as_millis(),
                },
                _ => continue,
            };
            if let Err(err) = self.record(event) {
                tracing::error!("journal: {err}");
                continue;
            }
            match e.kind {
                ClockEventKind::Warning(left) => {
                    self.announce(self.words.low_time(e.side, left));
                }
                ClockEventKind::Flag => {
                    // 001 ch. VIII 4.1.4: the flag fall is claimed and recorded.
                    self.announce(self.words.flag_fall(e.side));
                    let o = self.table.game.flag_outcome(e.side);
                    self.finish(o);
                }
                _ => {}
            }
        }
        self.refresh();
    }

    fn finish(&mut self, outcome: Outcome) {
        if self.table.result.is_some() {
            return;
        }
        match self.record(Event::Result {
            result: outcome.pdn_result().to_owned(),
            outcome,
        }) {
            Ok(_) => {
                let u = self.table.game.game_over(&outcome);
                self.announce(u);
            }
            Err(e) => tracing::error!("journal: {e}"),
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Cmd, source: Source) -> Reply {
        // Reliability tests make the actor fail here (`failpoints` feature,
        // FAILPOINTS="session-handle=3*off->panic"): nothing without it.
        fail::fail_point!("session-handle");
        self.said.clear();
        self.poll_clock();
        self.said.clear();
        let reply = match cmd {
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
                self.announce(self.words.on_clock(&r));
                self.ok()
            }
            Cmd::Position => {
                self.announce(self.table.game.describe_position());
                self.ok()
            }
            Cmd::Last => {
                self.announce(self.table.game.last_move());
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
            Cmd::Say(text) => {
                if text.trim().is_empty() {
                    return self.refuse_msg(source, "say", &Msg::UnknownCommand("say".into()));
                }
                if let Err(e) = self
                    .journal
                    .append(self.now().as_millis(), Event::Say { text: text.clone() })
                {
                    tracing::error!("journal: {e}");
                }
                self.announce(Utterance::new(Priority::Next, Kind::Help, vec![text]));
                self.ok()
            }
            Cmd::Help => {
                self.announce(self.table.game.help());
                self.ok()
            }
            Cmd::ClockSet(side, secs) => self.clock_set(side, secs, source),
            Cmd::Takeback(plies, why) => self.takeback(plies, why, source),
            Cmd::Listen => self.listen(source),
            // A command word the session does not know may be the game's
            // own action (backgammon's `roll 3 1`, `double`).
            Cmd::Unknown(text) if self.table.game.action(&text).is_some() => {
                self.play(&text, source)
            }
            Cmd::Unknown(text) => {
                self.refuse_msg(source, &text, &Msg::UnknownCommand(text.clone()))
            }
        };
        let mut reply = reply;
        if reply.ok {
            self.refresh();
        }
        // A journal that failed or came back is told at once, in this answer too.
        self.said.clear();
        self.check_journal();
        reply.said.append(&mut self.said);
        reply
    }

    fn behind_side(&self) -> Color {
        let (w, b) = (
            self.table.behind(Color::White),
            self.table.behind(Color::Black),
        );
        if w > 0 && b == 0 {
            Color::White
        } else if b > 0 && w == 0 {
            Color::Black
        } else {
            self.table.game.turn()
        }
    }

    fn tell_missing(&mut self, side: Color) {
        let behind = self.table.behind(side);
        if behind == 0 {
            self.announce(self.table.game.boards_in_sync());
            return;
        }
        let at = self.table.boards[idx(side)] as usize;
        if let Some(u) = self.table.game.board_behind(at, behind) {
            self.announce(u);
        }
    }

    fn clock_report(&self) -> tandem_speech::ClockReport {
        let now = self.now();
        let c = &self.table.clock;
        let side = |s: Color| tandem_speech::SideClock {
            used: c.used(s, now),
            remaining: c.remaining(s, now),
        };
        let g = &self.table.game;
        tandem_speech::ClockReport {
            white: side(Color::White),
            black: side(Color::Black),
            // 001 ch. VIII 5.1: the number of moves made.
            moves_made: g.moves_made(Color::White).max(g.moves_made(Color::Black)),
            moves_to_control: c.moves_to_control(g.turn()),
        }
    }

    fn play(&mut self, text: &str, source: Source) -> Reply {
        if let Some(o) = self.table.game.outcome() {
            let u = self.words.game_over_refusal();
            return self.refuse(
                source,
                text,
                format!("the game is over ({})", o.pdn_result()),
                u,
            );
        }
        if self.table.clock.is_paused() {
            return self.refuse_msg(source, text, &Msg::ClockStoppedRefusal);
        }
        if let Some(action) = self.table.game.action(text) {
            return match action {
                Ok(a) => self.act(a, text, source),
                Err(r) => self.refuse(source, text, r.reason, r.say),
            };
        }
        let prepared = match self.table.game.prepare(text) {
            Ok(p) => p,
            Err(r) => return self.refuse(source, text, r.reason, r.say),
        };
        let side = self.table.game.turn();
        // A move answers a pending offer from the opponent: no (001 ch. II 5.1).
        if self.table.draw_offer == Some(side.other()) {
            if let Err(e) = self.record(Event::DrawDeclined { side }) {
                tracing::error!("journal: {e}");
            }
        }
        let t = self.now();
        let mut probe = self.table.clock.clone();
        let press = match probe.press(t) {
            Ok(p) => p,
            Err(e) => {
                return self.refuse(
                    source,
                    text,
                    format!("clock: {e}"),
                    self.words.not_understood(),
                )
            }
        };
        let event = Event::Move {
            ply: self.table.game.ply() as u32 + 1,
            side,
            text: prepared.text,
            input: text.to_owned(),
            source,
            move_ms: ms(press.move_time),
            white_ms: ms(probe.remaining(Color::White, t)),
            black_ms: ms(probe.remaining(Color::Black, t)),
        };
        // Journal first (fsync), then announce (design: "The flow of one move", 3).
        if let Err(e) = self.record(event) {
            tracing::error!("journal: {e}");
            return self.refuse_msg(source, text, &Msg::JournalFailed);
        }
        self.announce(prepared.announce);
        for e in press
            .events
            .iter()
            .filter(|e| matches!(e.kind, ClockEventKind::Flag))
        {
            let _ = self.record(Event::Flag {
                side: e.side,
                at_ms: e.at.as_millis(),
            });
            self.announce(self.words.flag_fall(e.side));
            self.finish(self.table.game.flag_outcome(e.side));
        }
        self.refresh();
        if let Some(o) = self.table.game.outcome() {
            self.finish(o);
        } else if let Some(u) = self.table.game.after_move() {
            self.announce(u);
        }
        self.ok()
    }

    /// A game action (decided by the game): journaled, applied, the clock
    /// pressed if it ends the turn, announced, exactly as a move is.
    fn act(&mut self, a: PreparedAction, input: &str, source: Source) -> Reply {
        let t = self.now();
        let mut probe = self.table.clock.clone();
        let press = if a.press {
            match probe.press(t) {
                Ok(p) => Some(p),
                Err(e) => {
                    return self.refuse(
                        source,
                        input,
                        format!("clock: {e}"),
                        self.words.not_understood(),
                    )
                }
            }
        } else {
            None
        };
        let event = Event::Action {
            ply: self.table.game.ply() as u32,
            side: a.side,
            text: a.text,
            input: input.to_owned(),
            source,
            press: a.press,
            white_ms: ms(probe.remaining(Color::White, t)),
            black_ms: ms(probe.remaining(Color::Black, t)),
        };
        if let Err(e) = self.record(event) {
            tracing::error!("journal: {e}");
            return self.refuse_msg(source, input, &Msg::JournalFailed);
        }
        self.announce(a.announce);
        for e in press
            .iter()
            .flat_map(|p| p.events.iter())
            .filter(|e| matches!(e.kind, ClockEventKind::Flag))
        {
            let _ = self.record(Event::Flag {
                side: e.side,
                at_ms: e.at.as_millis(),
            });
            self.announce(self.words.flag_fall(e.side));
            self.finish(self.table.game.flag_outcome(e.side));
        }
        if let Some(o) = self.table.game.outcome() {
            self.finish(o);
        }
        self.ok()
    }

    fn done(&mut self, side: Option<Color>, source: Source) -> Reply {
        let side = side.unwrap_or_else(|| self.behind_side());
        let ply = self.table.game.ply() as u32;
        if let Err(e) = self.record(Event::BoardDone { side, ply, source }) {
            return self.refuse(
                source,
                "done",
                format!("journal: {e}"),
                self.msgs
                    .utter(Priority::Now, Kind::Rejection, &Msg::JournalFailed),
            );
        }
        if self.table.behind(Color::White) == 0 && self.table.behind(Color::Black) == 0 {
            self.announce(self.table.game.boards_in_sync());
        } else {
            let other = side.other();
            self.tell_missing(other);
        }
        self.ok()
    }

    /// The boards differ (001 ch. VIII 3.1, 002 annex E.4): what a board
    /// read back shows (a position text, or squares one by one) is compared
    /// with the record by the game. It matches the record (said so), or a
    /// whole board shows an earlier position of the record and is only
    /// behind (the move to make is said); else the difference is journaled,
    /// the clock stops for the arbiter, and the differing squares are said
    /// (with no board read back: the record's position, read out). A few
    /// squares read back cannot tell an earlier position, so only a whole
    /// board is looked up.
    fn mismatch(&mut self, board: Option<String>, source: Source) -> Reply {
        let check = match self.table.game.check_board(board.as_deref()) {
            Ok(c) => c,
            Err(BoardNotRead) => {
                let b = board.unwrap_or_default();
                return self.refuse_msg(source, &b, &Msg::BoardNotRead(b.clone()));
            }
        };
        if check.matches_now {
            self.say_msg(Priority::Next, Kind::Sync, &Msg::BoardMatches);
            return self.ok();
        }
        if let Some(ply) = check.shows_ply {
            let behind = (self.table.game.ply() - ply) as u32;
            if let Some(u) = self.table.game.board_behind(ply, behind) {
                self.announce(u);
            }
            return self.ok();
        }
        if let Err(e) = self.record(Event::Mismatch {
            source,
            board_fen: check.board_fen,
            diffs: check.diffs,
        }) {
            tracing::error!("journal: {e}");
        }
        self.stop_for_mismatch();
        self.announce(check.differ);
        if !check.read_back {
            // Help to find the difference: the record's position, read out.
            self.announce(self.table.game.describe_position());
        }
        self.ok()
    }

    /// Stops the clock for a mismatch (001 ch. VIII 3.1, 002 annex E.4): the
    /// arbiter corrects the boards.
    fn stop_for_mismatch(&mut self) {
        if self.table.clock.is_running() {
            if let Err(e) = self.record(Event::Pause {
                reason: "mismatch".into(),
            }) {
                tracing::error!("journal: {e}");
            }
        }
    }

    fn clock_set(&mut self, side: Color, secs: u64, source: Source) -> Reply {
        let input = format!("clock set {side} {secs}");
        if source != Source::Arbiter {
            return self.refuse_msg(source, &input, &Msg::ArbiterOnly);
        }
        let remaining_ms = secs.saturating_mul(1000);
        if let Err(e) = self.record(Event::ClockSet {
            side,
            remaining_ms,
            source,
        }) {
            tracing::error!("journal: {e}");
        }
        self.say_msg(Priority::Next, Kind::Clock, &Msg::ClockSet(side, secs));
        self.ok()
    }

    fn takeback(&mut self, plies: u32, reason: String, source: Source) -> Reply {
        let input = format!("takeback {plies}");
        if source != Source::Arbiter {
            return self.refuse_msg(source, &input, &Msg::ArbiterOnly);
        }
        let g = &self.table.game;
        if plies == 0 || plies as usize > g.ply() {
            let m = Msg::UnknownCommand(format!("{input} ({} plies played)", g.ply()));
            return self.refuse_msg(source, &input, &m);
        }
        let undone: Vec<String> = g.move_texts()[g.ply() - plies as usize..].to_vec();
        if let Err(e) = self.record(Event::Correction {
            plies,
            undone,
            source,
            reason,
        }) {
            tracing::error!("journal: {e}");
            return self.refuse_msg(source, &input, &Msg::JournalFailed);
        }
        self.say_msg(Priority::Next, Kind::Sync, &Msg::TakenBack(plies));
        self.announce(self.words.turn(self.table.game.turn()));
        self.refresh();
        self.ok()
    }

    fn pause(&mut self, source: Source) -> Reply {
        if !self.table.clock.is_running() {
            return self.refuse_msg(source, "pause", &Msg::AlreadyPaused);
        }
        if let Err(e) = self.record(Event::Pause {
            reason: format!("{source:?}").to_lowercase(),
        }) {
            return self.refuse(
                source,
                "pause",
                format!("journal: {e}"),
                self.msgs
                    .utter(Priority::Now, Kind::Rejection, &Msg::JournalFailed),
            );
        }
        self.announce(self.words.clock_stopped());
        self.ok()
    }

    fn resume_clock(&mut self, source: Source) -> Reply {
        if !self.table.clock.is_paused() || self.table.result.is_some() {
            return self.refuse_msg(source, "resume", &Msg::NotPaused);
        }
        if let Err(e) = self.record(Event::Resume) {
            return self.refuse(
                source,
                "resume",
                format!("journal: {e}"),
                self.msgs
                    .utter(Priority::Now, Kind::Rejection, &Msg::JournalFailed),
            );
        }
        self.say_msg(Priority::Next, Kind::Clock, &Msg::ClockRunning);
        self.announce(self.words.turn(self.table.game.turn()));
        self.ok()
    }

    fn draw(&mut self, what: DrawCmd, side: Option<Color>, source: Source) -> Reply {
        let input = format!("draw {what:?}").to_lowercase();
        if self.table.game.outcome().is_some() {
            let u = self.words.game_over_refusal();
            return self.refuse(source, &input, "the game is over".into(), u);
        }
        let turn = self.table.game.turn();
        match what {
            DrawCmd::Offer => {
                // 001 ch. II 5.1: on one's own time, right after one's own move.
                let side = side.unwrap_or(turn.other());
                let g = &self.table.game;
                if g.ply() == 0 || side != turn.other() {
                    return self.refuse_msg(source, &input, &Msg::DrawNotYourTime);
                }
                if !g.may_offer_draw(side) {
                    let n = g.draw_offer_min_moves();
                    return self.refuse_msg(source, &input, &Msg::DrawTooEarly(n));
                }
                // Not in every game (002 art. 9.1: only repeated offers
                // that annoy, the arbiter's call).
                if self.table.barred[idx(side)] && g.declined_offer_bars() {
                    return self.refuse_msg(source, &input, &Msg::DrawBarred);
                }
                if self.table.draw_offer.is_some() {
                    return self.refuse_msg(source, &input, &Msg::DrawNotYourTime);
                }
                if let Err(e) = self.record(Event::DrawOffer { side }) {
                    return self.refuse(
                        source,
                        &input,
                        format!("journal: {e}"),
                        self.msgs
                            .utter(Priority::Now, Kind::Rejection, &Msg::JournalFailed),
                    );
                }
                self.say_msg(Priority::Next, Kind::Draw, &Msg::DrawOffered(side));
                self.ok()
            }
            DrawCmd::Claim => self.claim_draw(side.unwrap_or(turn), source),
            DrawCmd::Accept | DrawCmd::Decline => {
                let answerer = side.unwrap_or(turn);
                if self.table.draw_offer != Some(answerer.other()) {
                    return self.refuse_msg(source, &input, &Msg::NoDrawOffer);
                }
                if what == DrawCmd::Accept {
                    self.finish(Outcome::Draw {
                        reason: DrawReason::Agreement,
                    });
                } else {
                    if let Err(e) = self.record(Event::DrawDeclined { side: answerer }) {
                        tracing::error!("journal: {e}");
                    }
                    self.say_msg(Priority::Next, Kind::Draw, &Msg::DrawDeclined);
                }
                self.ok()
            }
        }
    }

    /// The player on move claims a draw by repetition or fifty moves (002
    /// art. 9.2, 9.3). A correct claim ends the game (9.5(a)); an incorrect
    /// one gives the opponent three minutes and play goes on (9.5(b)). A
    /// game whose draws come by themselves (001 ch. I 6) refuses the claim.
    fn claim_draw(&mut self, side: Color, source: Source) -> Reply {
        let input = "draw claim";
        if let Err(r) = self.table.game.draw_claims() {
            return self.refuse(source, input, r.reason, r.say);
        }
        if side != self.table.game.turn() {
            return self.refuse_msg(source, input, &Msg::DrawNotYourTime);
        }
        let reason = self.table.game.claimable_draw();
        let added_ms = if reason.is_some() {
            0
        } else {
            CLAIM_PENALTY_MS
        };
        if let Err(e) = self.record(Event::DrawClaim {
            side,
            valid: reason.is_some(),
            reason,
            added_ms,
        }) {
            tracing::error!("journal: {e}");
            return self.refuse_msg(source, input, &Msg::JournalFailed);
        }
        match reason {
            Some(reason) => self.finish(Outcome::Draw { reason }),
            None => self.announce(self.table.game.claim_wrong(added_ms / 60_000)),
        }
        self.ok()
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
                    Some(SessionMsg::Cmd { cmd, source, reply }) => {
                        let r = self.handle(cmd, source);
                        if let Some(tx) = reply {
                            let _ = tx.send(r);
                        }
                    }
                    Some(SessionMsg::Voice(v)) => self.voice_input(v),
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
        };
        let task = tokio::spawn(self.run(rx));
        (handle, task)
    }
}

/// Voice input (`crate::voice`): what was heard is journaled, then decided
/// on exactly as typed input is.
impl Session {
    fn say_voice(&mut self, m: &crate::voice::VoiceMsg) {
        let lang = self.words.phrasebook().language().to_owned();
        self.announce(m.utter(&lang));
    }

    fn listen(&mut self, source: Source) -> Reply {
        use crate::voice::VoiceMsg;
        let Some(v) = self.voice.as_mut().filter(|v| v.alive) else {
            let lang = self.words.phrasebook().language().to_owned();
            let u = VoiceMsg::VoiceOff.utter(&lang);
            return self.refuse(source, "listen", "voice input is off".into(), u);
        };
        let m = v.toggle();
        // Push-to-talk says nothing: speaking would mute the microphone just
        // as the player starts to talk.
        if !v.push_to_talk() {
            self.say_voice(&m);
        }
        self.ok()
    }

    fn voice_input(&mut self, v: crate::voice::VoiceInput) {
        use crate::voice::{VoiceInput, VoiceMsg};
        self.said.clear();
        self.poll_clock();
        self.said.clear();
        match v {
            VoiceInput::Heard(s) => self.spoken(*s),
            VoiceInput::Microphone { ok, error } => {
                if let Err(e) = self.journal.append(
                    self.now().as_millis(),
                    Event::Microphone {
                        ok,
                        error: error.clone(),
                    },
                ) {
                    tracing::error!("journal: {e}");
                }
                // Opened at start: on record only; lost, or back after a loss: said.
                let was_lost = self
                    .voice
                    .as_mut()
                    .is_some_and(|v| std::mem::replace(&mut v.mic_lost, !ok));
                if !ok {
                    self.say_voice(&VoiceMsg::MicLost);
                } else if was_lost {
                    self.say_voice(&VoiceMsg::MicBack);
                }
            }
            VoiceInput::Failed(error) => {
                tracing::error!("voice input: {error}");
                if let Some(v) = self.voice.as_mut() {
                    v.alive = false;
                }
                let error = format!("speech recognition: {error}");
                if let Err(e) = self.journal.append(
                    self.now().as_millis(),
                    Event::Microphone { ok: false, error },
                ) {
                    tracing::error!("journal: {e}");
                }
                self.say_voice(&VoiceMsg::Failed);
            }
        }
        self.refresh();
        self.said.clear();
        self.check_journal();
    }

    fn resync_voice(&mut self) {
        let (ply, pos) = (self.table.game.ply() as u32, self.table.game.position());
        if let Some(v) = self.voice.as_mut() {
            v.reset(ply, pos);
        }
    }

    /// What the session makes of an utterance before acting: `stale` (heard
    /// in a position that has passed), `not-your-move`, `game-over`, or
    /// the listener's action.
    fn voice_verdict(&self, stale: bool, is_move: bool, action: &'static str) -> &'static str {
        let turn = self.table.game.turn();
        if stale {
            "stale"
        } else if is_move && self.blind.side().is_some_and(|b| b != turn) {
            // The grammar holds the side to move's moves: the blind player
            // does not enter the sighted opponent's moves by voice.
            "not-your-move"
        } else if is_move && self.table.game.outcome().is_some() {
            "game-over"
        } else {
            action
        }
    }

    /// 001 ch. VIII 3.2: what was heard is on record before anything is done.
    fn journal_heard(
        &mut self,
        ply: u32,
        transcript: &str,
        conf: f64,
        fields: (&str, String),
        decision: &str,
    ) {
        let conf = conf.clamp(0.0, 1.0);
        let ev = Event::Heard {
            ply,
            transcript: transcript.to_owned(),
            // Rounded into 0..=100 by the clamp above.
            confidence_pct: (conf * 100.0).round() as u8,
            kind: fields.0.to_owned(),
            text: fields.1,
            decision: decision.to_owned(),
        };
        if let Err(e) = self.journal.append(self.now().as_millis(), ev) {
            tracing::error!("journal: {e}");
        }
    }

    /// A spoken command, run as the typed one.
    fn spoken_command(
        &mut self,
        c: tandem_speech::listen::CommandKind,
        square: Option<tandem_rules::Square>,
    ) {
        use crate::voice::{command_for, SpokenCmd, VoiceMsg};
        let speaker = self.blind.side().unwrap_or(self.table.game.turn());
        match command_for(c, square, speaker, self.table.draw_offer) {
            SpokenCmd::Run(cmd) => {
                let _ = self.handle(cmd, Source::Spoken);
            }
            SpokenCmd::Repeat => match self.last_said.clone() {
                Some(u) => self.announce(u),
                None => self.announce(self.words.not_understood()),
            },
            // Only games with numbered squares listen for "square N".
            SpokenCmd::Square(sq) => match self.table.game.describe_square(sq) {
                Some(u) => self.announce(u),
                None => self.announce(self.words.not_understood()),
            },
            SpokenCmd::NothingToConfirm => self.say_voice(&VoiceMsg::NothingToConfirm),
            SpokenCmd::Cancelled => self.announce(self.words.cancelled()),
            SpokenCmd::NotUnderstood => self.announce(self.words.not_understood()),
        }
    }

    /// An utterance, decided on as typed input once what was heard is on
    /// record.
    fn spoken(&mut self, s: crate::voice::HeardInput) {
        use crate::voice::HeardAct;
        let (ply, pos) = (self.table.game.ply() as u32, self.table.game.position());
        // An utterance of another game than the one at the table: never acted on.
        if !s.pos.same_game(&pos) {
            return self.resync_voice();
        }
        // Heard in another position (a move came in meanwhile): never acted on.
        let stale = s.ply != ply || s.pos != pos;
        let decision = self.voice_verdict(stale, s.is_move, s.action);
        self.journal_heard(s.ply, &s.transcript, s.confidence, s.fields, decision);
        match decision {
            "stale" => {
                self.announce(self.words.not_understood());
                return self.resync_voice();
            }
            "not-your-move" => {
                self.announce(self.table.game.to_move());
                return self.resync_voice();
            }
            "game-over" => {
                self.announce(self.words.game_over_refusal());
                return self.resync_voice();
            }
            _ => {}
        }
        match s.act {
            // Played exactly as a typed move: resolved, checked, journaled, announced.
            HeardAct::Play(text) => {
                let _ = self.handle(Cmd::Move(text), Source::Spoken);
            }
            HeardAct::Command(c, square) => self.spoken_command(c, square),
            // An illegal move is refused with the rules engine's reason, as typed.
            HeardAct::Refuse { text, reason } => {
                let u = s
                    .reply
                    .unwrap_or_else(|| match self.table.game.prepare(&text) {
                        Err(r) => r.say,
                        Ok(_) => self.words.not_understood(),
                    });
                let _ = self.refuse(Source::Spoken, &text, reason, u);
            }
            // Read-backs, "which capture?" ("which knight?"), "cancelled", "say again".
            HeardAct::Reply => match s.reply {
                Some(u) => self.announce(u),
                None => self.announce(self.words.not_understood()),
            },
        }
    }
}

fn kind_name(k: Kind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
