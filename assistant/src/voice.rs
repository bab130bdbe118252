//! Voice input in `tandem play` (the model found for `--lang`, or `--voice-model DIR`).
//!
//! One thread (`tandem-voice`) owns the microphone (cpal, whose stream must
//! stay on the thread that opened it) and the
//! [`Listener`](tandem_speech::listen::Listener) (the Vosk recognizer with the
//! legal-move grammar of the position, the confirmation flow). Every finished
//! utterance becomes a [`Spoken`] message to the session actor, which decides
//! on it exactly as on a typed move (same checks, same journal, same
//! announcement), after journaling what was heard ([`Event::Heard`]).
//!
//! ```text
//! mic (cpal) ─frames─▶ tandem-voice: Listener::push_frame ─Spoken─▶ session actor ─▶ journal, speech, braille
//!        ▲ muted while SpeakingState says tandem speaks          │
//!        └──────────── VoiceCtl::Position after every move ◀─────┘  (grammar swap)
//! ```
//!
//! - tandem must not hear itself: the speech output is wrapped in [`Muting`],
//!   which marks [`SpeakingState`] from the start of each utterance until the
//!   backend has finished it; the voice thread mutes the listener while
//!   tandem speaks and for [`ECHO_TAIL`] after.
//! - Every game is listened for the same way: the registry
//!   ([`AnyPosition::listener`]) makes the game's listener (a
//!   `Listener<G>` of the speech crate, `G` its [`VoiceGame`]: draughts,
//!   chess, backgammon) behind [`GameListener`], so this thread names no
//!   game; the confirmation flow is the same listener's, and every game's
//!   decisions become the same game-neutral [`HeardInput`] for the session.
//! - Push-to-talk (`--push-to-talk`): the control command `listen` (typed, or
//!   `tandem ctl listen`) starts an utterance and the next `listen` ends it.
//!   Without push-to-talk, `listen` turns listening off and on.
//! - The microphone vanishing (no audio for [`SILENT_LIMIT`], or the
//!   stream gone: cpal stops a device that reports an error) is announced
//!   at once; the game goes on with typed and braille input; the device is
//!   opened again every [`RETRY`] and its return is announced.
//!
//! [`Event::Heard`]: crate::journal::Event::Heard

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use tandem_rules::Color;
use tandem_speech::listen::{Action, CommandKind, ConfirmPolicy, Decision, ListenGame, Listener};
use tandem_speech::output::{Caps, SpeechError, SpeechOutput, VoiceParams};
use tandem_speech::{Announcer, Kind, Phrasebook, Priority, Utterance};

use crate::kind::AnyPosition;
use crate::request::{Cmd, DrawCmd};

pub mod ear;
mod game_listener;
pub use game_listener::{listener, GameListener, GameWords};

/// Below this confidence `--confirm low` reads a move back.
pub const LOW_CONFIDENCE: f64 = 0.8;

/// How long after tandem stops speaking the microphone stays muted (the
/// room's echo, a loudspeaker's tail).
pub const ECHO_TAIL: Duration = Duration::from_millis(300);

/// A microphone that sends no audio for this long is taken for gone.
pub const SILENT_LIMIT: Duration = Duration::from_secs(3);

/// How often a vanished microphone is looked for again.
pub const RETRY: Duration = Duration::from_secs(3);

/// When spoken moves are read back and wait for "yes" (`--confirm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfirmChoice {
    /// Every move (the default for tournament play).
    #[default]
    Always,
    /// Only moves heard with a confidence below 0.8.
    Low,
    /// Never (resigning and draws are still read back).
    Never,
}

impl ConfirmChoice {
    /// The listener's policy.
    #[must_use]
    pub fn policy(self) -> ConfirmPolicy {
        match self {
            ConfirmChoice::Always => ConfirmPolicy::Always,
            ConfirmChoice::Low => ConfirmPolicy::BelowConfidence(LOW_CONFIDENCE),
            ConfirmChoice::Never => ConfirmPolicy::Never,
        }
    }
}

/// Voice input settings (from the flags and the config file).
#[derive(Debug, Clone, PartialEq)]
pub struct VoiceConfig {
    /// The Vosk model folder.
    pub model: PathBuf,
    /// A phrasebook file (words listened for and said), else the built-in one of `--lang`.
    pub phrasebook: Option<PathBuf>,
    /// The confirmation policy.
    pub confirm: ConfirmChoice,
    /// Listen only between two `listen` commands.
    pub push_to_talk: bool,
    /// The input device's name (default: the system's default input).
    pub mic: Option<String>,
}

impl VoiceConfig {
    /// Checks the model folder before the game starts, so that a wrong path
    /// is a clear error at once and not a spoken one later.
    ///
    /// # Errors
    /// The folder does not exist or is not a Vosk model, or the
    /// (draughts) phrasebook does not load.
    pub fn check(&self) -> anyhow::Result<()> {
        self.check_model()?;
        if let Some(p) = &self.phrasebook {
            tandem_speech::Phrasebook::from_file(p)
                .map_err(|e| anyhow::anyhow!("--phrasebook {}: {e}", p.display()))?;
        }
        Ok(())
    }

    /// Checks the model folder only (a chess game's `--phrasebook` is a chess
    /// phrasebook, checked where it is loaded).
    ///
    /// # Errors
    /// The folder does not exist or is not a Vosk model.
    pub fn check_model(&self) -> anyhow::Result<()> {
        let m = &self.model;
        anyhow::ensure!(
            m.is_dir(),
            "--voice-model {}: no such folder (download a model from \
             https://alphacephei.com/vosk/models and unzip it; see docs/voice.md)",
            m.display()
        );
        anyhow::ensure!(
            m.join("am").is_dir() || m.join("final.mdl").is_file(),
            "--voice-model {}: not a Vosk model folder (it has no am/; give the \
             unzipped folder that holds am/ and conf/)",
            m.display()
        );
        Ok(())
    }
}

#[derive(Debug, Default)]
struct Speaking {
    speaking: bool,
    ended: Option<Instant>,
}

/// Whether tandem is speaking, shared by the speech output (which sets it)
/// and the voice thread (which mutes the microphone on it). Cloning shares it.
#[derive(Debug, Clone, Default)]
pub struct SpeakingState(Arc<Mutex<Speaking>>);

impl SpeakingState {
    fn with<T>(&self, f: impl FnOnce(&mut Speaking) -> T) -> T {
        f(&mut self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// An utterance starts.
    pub fn started(&self) {
        self.with(|s| s.speaking = true);
    }

    /// Speech has stopped (finished or cancelled).
    pub fn ended(&self) {
        self.with(|s| {
            if s.speaking {
                s.speaking = false;
                s.ended = Some(Instant::now());
            }
        });
    }

    /// Whether the microphone must stay muted: tandem speaks, or stopped
    /// less than `tail` ago.
    #[must_use]
    pub fn busy(&self, tail: Duration) -> bool {
        self.with(|s| s.speaking || s.ended.is_some_and(|e| e.elapsed() < tail))
    }
}

/// A speech backend that tells a [`SpeakingState`] when it speaks.
pub struct Muting {
    inner: Box<dyn SpeechOutput>,
    state: SpeakingState,
}

impl std::fmt::Debug for Muting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Muting")
            .field("backend", &self.inner.name())
            .finish_non_exhaustive()
    }
}

impl Muting {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: Box<dyn SpeechOutput>, state: SpeakingState) -> Muting {
        Muting { inner, state }
    }
}

/// `out` wrapped in [`Muting`] when voice input listens, else as it is.
#[must_use]
pub fn muting(out: Box<dyn SpeechOutput>, state: Option<SpeakingState>) -> Box<dyn SpeechOutput> {
    match state {
        Some(s) => Box::new(Muting::new(out, s)),
        None => out,
    }
}

impl SpeechOutput for Muting {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn capabilities(&self) -> Caps {
        self.inner.capabilities()
    }

    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError> {
        // Muted before the first sound.
        self.state.started();
        let r = self.inner.speak(u);
        if r.is_err() {
            self.state.ended();
        }
        r
    }

    fn is_speaking(&mut self) -> bool {
        let s = self.inner.is_speaking();
        if !s {
            self.state.ended();
        }
        s
    }

    fn cancel(&mut self) -> Result<(), SpeechError> {
        let r = self.inner.cancel();
        self.state.ended();
        r
    }

    fn set_params(&mut self, params: &VoiceParams) -> Result<(), SpeechError> {
        self.inner.set_params(params)
    }
}

/// The session to the voice thread.
#[derive(Debug, Clone, PartialEq)]
pub enum VoiceCtl {
    /// A new position (any move, a takeback, the start): swap the grammar.
    Position {
        /// Plies played.
        ply: u32,
        /// The position (draughts or chess).
        pos: AnyPosition,
    },
    /// Push-to-talk: the key is down (`true`) or up; otherwise listening on or off.
    Listen(bool),
}

/// One utterance, decided by the game's listener, as the voice thread has
/// it: the listener's own types ([`VoiceGame::input`] makes the session's
/// game-neutral [`HeardInput`] of it).
#[derive(Debug, Clone)]
pub struct Spoken<G: ListenGame> {
    /// The ply the listener heard it at.
    pub ply: u32,
    /// The position it was matched against.
    pub pos: G::Position,
    /// What was heard and what to do.
    pub decision: Decision<G>,
    /// What to say for the actions the listener answers itself (read-backs,
    /// "which capture?", refusals, "say again"), in the phrasebook's words.
    pub reply: Option<Utterance>,
}

/// What the session acts on for an utterance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeardAct {
    /// Play this move, written as it would be typed (`32-28`, `Nf3`).
    Play(String),
    /// Run a spoken command, with the number said after it (the square of
    /// "square N" as the game numbers it, a move number): the game reads it.
    Command(CommandKind, Option<u8>),
    /// An illegal move: refused with the rules engine's reason.
    Refuse {
        /// The move as heard.
        text: String,
        /// The rules engine's reason (for the log and the journal).
        reason: String,
    },
    /// Nothing to act on: say the listener's reply (a read-back, "which
    /// capture?", "cancelled", "say again").
    Reply,
    /// A game's own question (`pips`): answered as the typed one
    /// (`Game::query`); nothing changes.
    Query(String),
}

/// One utterance for the session, in no game's own types: what was heard
/// (for the journal), in which position, and what to do.
#[derive(Debug, Clone)]
pub struct HeardInput {
    /// The ply the listener heard it at.
    pub ply: u32,
    /// The position it was matched against.
    pub pos: AnyPosition,
    /// The recognizer's words.
    pub transcript: String,
    /// The recognizer's confidence.
    pub confidence: f64,
    /// The journal's words for what was heard: (`kind`, `text`).
    pub fields: (&'static str, String),
    /// The journal's word for the listener's decision ([`action_name`]).
    pub action: &'static str,
    /// Whether the decision is about a move (played, read back, or asked which).
    pub is_move: bool,
    /// What to do.
    pub act: HeardAct,
    /// What the listener answers itself, in the phrasebook's words.
    pub reply: Option<Utterance>,
}

/// The per-game half of voice input: what differs between games from the
/// listener's decision to the session's [`HeardInput`]. The rest (the
/// voice thread's loop, the journaling of what was heard, the stale,
/// not-your-move and game-over checks, the commands) is one code for all.
pub trait VoiceGame: ListenGame<Refusal: std::fmt::Display> + Sized {
    /// The journal's words for what was heard: (`kind`, `text`).
    fn fields(heard: &Self::Heard) -> (&'static str, String);
    /// The recognizer's confidence in what was heard.
    fn confidence(heard: &Self::Heard) -> f64;
    /// What the listener answers itself ([`Decision::reply`]).
    fn reply(
        decision: &Decision<Self>,
        listener: &Listener<Self>,
        announcer: &Announcer,
    ) -> Option<Utterance>;
    /// The position for this game's listener; `None` for another game's.
    fn listened_position(pos: AnyPosition) -> Option<Self::Position>;
    /// The listener's position as the registry's.
    fn any_position(pos: Self::Position) -> AnyPosition;
    /// A move as it would be typed (`32-28`, `Nf3`, `roll 3 1`).
    fn move_text(pos: &Self::Position, m: &Self::Move) -> String;
    /// The words listened for: the game's own words from `--phrasebook`
    /// (`own`, made by the command that starts the game), else the
    /// built-in ones of the language of `book` (the table's phrasebook,
    /// whose commands they take).
    fn words(book: &Phrasebook, own: Option<&GameWords>) -> Self::Words;
    /// Whether saying `m` is the side to move's own act (a move; not the
    /// opening roll of backgammon, which either player enters): the session
    /// refuses it when the sighted opponent is to move.
    fn turn_bound(_pos: &Self::Position, _m: &Self::Move) -> bool {
        true
    }
    /// The message for the session.
    fn input(spoken: Spoken<Self>) -> VoiceInput {
        let Spoken {
            ply,
            pos,
            decision,
            reply,
        } = spoken;
        let is_move = match &decision.action {
            Action::Play(m) | Action::ConfirmMove(m) => Self::turn_bound(&pos, m),
            Action::AskWhich(ms) => ms.iter().any(|m| Self::turn_bound(&pos, m)),
            _ => false,
        };
        let action = action_name(&decision.action);
        let act = match decision.action {
            Action::Play(m) => HeardAct::Play(Self::move_text(&pos, &m)),
            Action::Command(c, square) => HeardAct::Command(c, square),
            Action::Refuse { text, error } => HeardAct::Refuse {
                text,
                reason: error.to_string(),
            },
            Action::Query(q) => HeardAct::Query(q),
            _ => HeardAct::Reply,
        };
        VoiceInput::Heard(Box::new(HeardInput {
            ply,
            transcript: Self::transcript(&decision.heard).to_owned(),
            confidence: Self::confidence(&decision.heard),
            fields: Self::fields(&decision.heard),
            pos: Self::any_position(pos),
            action,
            is_move,
            act,
            reply,
        }))
    }
}

/// The voice thread to the session.
#[derive(Debug, Clone)]
pub enum VoiceInput {
    /// An utterance.
    Heard(Box<HeardInput>),
    /// The microphone was opened (`ok: true`: at start, or back after a
    /// loss) or stopped (`ok: false`, why).
    Microphone {
        /// Whether it works now.
        ok: bool,
        /// Why it stopped.
        error: String,
    },
    /// The recognizer could not start: voice input is off for this game.
    Failed(String),
}

/// What the session does for a spoken command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpokenCmd {
    /// Run it as the typed command.
    Run(Cmd),
    /// Say the last message again.
    Repeat,
    /// Say what stands on the square the game numbers so
    /// ([`Game::describe_square`](crate::games::Game::describe_square)).
    Square(u8),
    /// "yes" or "no" with nothing read back.
    NothingToConfirm,
    /// "cancel" with nothing read back.
    Cancelled,
    /// "square" without a square.
    NotUnderstood,
}

/// The session command for a spoken (and, where needed, confirmed) command
/// with the number said after it (`number`: the square of "square N" as
/// the game numbers it, a move number). `speaker` is the blind player (`None`: both are blind, then the side to
/// move speaks); `draw_offer` is who offered a draw, if anyone did: "draw"
/// accepts the opponent's offer and otherwise offers one.
#[must_use]
pub fn command_for(
    c: CommandKind,
    number: Option<u8>,
    speaker: Color,
    draw_offer: Option<Color>,
) -> SpokenCmd {
    match c {
        CommandKind::Clock => SpokenCmd::Run(Cmd::Clock),
        CommandKind::Position => SpokenCmd::Run(Cmd::Position),
        CommandKind::LastMove => SpokenCmd::Run(Cmd::Last),
        CommandKind::Help => SpokenCmd::Run(Cmd::Help),
        CommandKind::Done => SpokenCmd::Run(Cmd::Done(Some(speaker))),
        CommandKind::Resign => SpokenCmd::Run(Cmd::Resign(Some(speaker))),
        CommandKind::Draw if draw_offer == Some(speaker.other()) => {
            SpokenCmd::Run(Cmd::Draw(DrawCmd::Accept, Some(speaker)))
        }
        CommandKind::Draw => SpokenCmd::Run(Cmd::Draw(DrawCmd::Offer, Some(speaker))),
        // Chess (002 art. 9.2, 9.3); a draughts game refuses it with the reason.
        CommandKind::ClaimDraw => SpokenCmd::Run(Cmd::Draw(DrawCmd::Claim, Some(speaker))),
        CommandKind::Repeat => SpokenCmd::Repeat,
        CommandKind::Square => number.map_or(SpokenCmd::NotUnderstood, SpokenCmd::Square),
        CommandKind::Yes | CommandKind::No => SpokenCmd::NothingToConfirm,
        CommandKind::Cancel => SpokenCmd::Cancelled,
        // The record at the table (issue 15).
        CommandKind::Record => SpokenCmd::Run(Cmd::Record(None, None)),
        CommandKind::RecordFrom => number.map_or(SpokenCmd::NotUnderstood, |n| {
            SpokenCmd::Run(Cmd::Record(Some(u32::from(n)), None))
        }),
        CommandKind::MoveNumber => number.map_or(SpokenCmd::NotUnderstood, |n| {
            SpokenCmd::Run(Cmd::ReviewMove(u32::from(n)))
        }),
        CommandKind::Next => SpokenCmd::Run(Cmd::Next),
        CommandKind::Back => SpokenCmd::Run(Cmd::Back),
        CommandKind::Live => SpokenCmd::Run(Cmd::Live),
        // CommandKind is non-exhaustive: a command this daemon does not know.
        _ => SpokenCmd::NotUnderstood,
    }
}

/// The journal's word for what the listener decided.
#[must_use]
pub fn action_name<M, E>(a: &Action<M, E>) -> &'static str {
    match a {
        Action::Play(_) => "play",
        Action::ConfirmMove(_) | Action::ConfirmCommand(_) => "read-back",
        Action::Command(..) => "command",
        Action::Cancelled => "cancelled",
        Action::AskWhich(_) => "ask-which",
        Action::Refuse { .. } => "refused",
        Action::Query(_) => "command",
        _ => "repeat",
    }
}

/// The daemon's own sentences about voice input, in the table's language
/// (`assistant/data/voice-status/LANG.toml`, as [`crate::messages`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceMsg {
    /// The microphone stopped.
    MicLost,
    /// The microphone works again.
    MicBack,
    /// "yes"/"no" with nothing read back.
    NothingToConfirm,
    /// Listening (push-to-talk key down, or listening turned on).
    Listening,
    /// Listening turned off.
    NotListening,
    /// `listen` without voice input.
    VoiceOff,
    /// The recognizer failed to start.
    Failed,
}

impl VoiceMsg {
    /// The sentence in `lang` (`assistant/data/voice-status/LANG.toml`).
    #[must_use]
    pub fn text(&self, lang: &str) -> &'static str {
        let key = match self {
            VoiceMsg::MicLost => "mic_lost",
            VoiceMsg::MicBack => "mic_back",
            VoiceMsg::NothingToConfirm => "nothing_to_confirm",
            VoiceMsg::Listening => "listening",
            VoiceMsg::NotListening => "not_listening",
            VoiceMsg::VoiceOff => "voice_off",
            VoiceMsg::Failed => "failed",
        };
        crate::lang::sentences("voice-status", lang)
            .get(key)
            .map_or(key, String::as_str)
    }

    /// As an utterance: a vanished microphone is urgent (everyone must know
    /// at once that spoken moves are not heard).
    #[must_use]
    pub fn utter(&self, lang: &str) -> Utterance {
        let (p, k) = match self {
            VoiceMsg::MicLost | VoiceMsg::Failed => (Priority::Now, Kind::Rejection),
            VoiceMsg::NothingToConfirm | VoiceMsg::VoiceOff => (Priority::Next, Kind::Rejection),
            _ => (Priority::Next, Kind::Help),
        };
        Utterance::new(p, k, vec![self.text(lang).to_owned()])
    }
}

/// The session's end of the voice thread.
#[derive(Debug)]
pub struct VoiceLink {
    tx: std::sync::mpsc::Sender<VoiceCtl>,
    last: Option<(u32, AnyPosition)>,
    push_to_talk: bool,
    listening: bool,
    /// Off after [`VoiceInput::Failed`].
    pub alive: bool,
    /// Whether the loss of the microphone was told (its return is then told too).
    pub mic_lost: bool,
    /// The seat whose microphone this is (`--seat SIDE:mic=…`); `None`:
    /// the table's (`--mic`), the `--blind` side's.
    pub seat: Option<Color>,
}

impl VoiceLink {
    /// A link sending to the voice thread.
    #[must_use]
    pub fn new(tx: std::sync::mpsc::Sender<VoiceCtl>, push_to_talk: bool) -> VoiceLink {
        VoiceLink {
            tx,
            last: None,
            push_to_talk,
            // Push-to-talk starts with the key up; voice mode listens.
            listening: !push_to_talk,
            alive: true,
            mic_lost: false,
            seat: None,
        }
    }

    /// The link of `seat`'s own microphone.
    #[must_use]
    pub fn for_seat(mut self, seat: Color) -> VoiceLink {
        self.seat = Some(seat);
        self
    }

    /// Tells the voice thread the position, unless it has it already.
    pub fn position(&mut self, ply: u32, pos: AnyPosition) {
        if self
            .last
            .as_ref()
            .is_some_and(|(p, last)| *p == ply && *last == pos)
        {
            return;
        }
        self.last = Some((ply, pos.clone()));
        let _ = self.tx.send(VoiceCtl::Position { ply, pos });
    }

    /// Sends the position again (drops a pending read-back on the voice thread).
    pub fn reset(&mut self, ply: u32, pos: AnyPosition) {
        self.last = None;
        self.position(ply, pos);
    }

    /// `listen`: toggles the push-to-talk key or listening. Returns what to say.
    pub fn toggle(&mut self) -> VoiceMsg {
        self.listening = !self.listening;
        let _ = self.tx.send(VoiceCtl::Listen(self.listening));
        match (self.listening, self.push_to_talk) {
            (true, _) => VoiceMsg::Listening,
            // The end of a push-to-talk utterance: its answer follows.
            (false, true) => VoiceMsg::NotListening,
            (false, false) => VoiceMsg::NotListening,
        }
    }

    /// Whether push-to-talk is on.
    #[must_use]
    pub fn push_to_talk(&self) -> bool {
        self.push_to_talk
    }
}

// What the voice thread (`crate::voice_thread`, above the registry of
// games, which gives it the game's listener) starts with and where it sends
// what it heard.

/// Where the voice thread sends what it heard (the session's handle,
/// given by whoever starts the thread: the voice thread knows no session).
pub type VoiceSink = dyn Fn(VoiceInput) -> anyhow::Result<()> + Send;

/// What the voice thread starts with.
#[derive(Debug, Clone)]
pub struct VoiceSetup {
    /// The settings.
    pub config: VoiceConfig,
    /// The phrasebook (the announcer's: read-backs, "cancelled", and
    /// the draughts words and commands).
    pub book: Phrasebook,
    /// The game's own words listened for, from `--phrasebook` (chess:
    /// `ChessWords`, backgammon: `BgWords`); `None`: the built-in ones
    /// of the language ([`VoiceGame::words`]).
    pub words: Option<GameWords>,
    /// The position and ply at start.
    pub ply: u32,
    /// The position.
    pub pos: AnyPosition,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spoken_commands_are_the_typed_ones_for_the_speaker() {
        let w = Color::White;
        assert_eq!(
            command_for(CommandKind::Clock, None, w, None),
            SpokenCmd::Run(Cmd::Clock)
        );
        assert_eq!(
            command_for(CommandKind::Done, None, w, None),
            SpokenCmd::Run(Cmd::Done(Some(w)))
        );
        assert_eq!(
            command_for(CommandKind::Resign, None, Color::Black, None),
            SpokenCmd::Run(Cmd::Resign(Some(Color::Black)))
        );
        // "draw" offers, or accepts the opponent's offer (001 ch. II 5.1).
        assert_eq!(
            command_for(CommandKind::Draw, None, w, None),
            SpokenCmd::Run(Cmd::Draw(DrawCmd::Offer, Some(w)))
        );
        assert_eq!(
            command_for(CommandKind::Draw, None, w, Some(Color::Black)),
            SpokenCmd::Run(Cmd::Draw(DrawCmd::Accept, Some(w)))
        );
        assert_eq!(
            command_for(CommandKind::Draw, None, w, Some(w)),
            SpokenCmd::Run(Cmd::Draw(DrawCmd::Offer, Some(w)))
        );
        // A chess draw claim (002 art. 9.2, 9.3), by the speaker.
        assert_eq!(
            command_for(CommandKind::ClaimDraw, None, w, None),
            SpokenCmd::Run(Cmd::Draw(DrawCmd::Claim, Some(w)))
        );
        let sq = 23;
        assert_eq!(
            command_for(CommandKind::Square, Some(sq), w, None),
            SpokenCmd::Square(sq)
        );
        assert_eq!(
            command_for(CommandKind::Square, None, w, None),
            SpokenCmd::NotUnderstood
        );
        // A bare "yes" never accepts anything (nothing is played on a guess).
        assert_eq!(
            command_for(CommandKind::Yes, None, w, Some(Color::Black)),
            SpokenCmd::NothingToConfirm
        );
    }

    #[test]
    fn muting_marks_speech_from_start_to_end() {
        use tandem_speech::output::recording::RecordingSpeech;
        let state = SpeakingState::default();
        // Held: it speaks until released, however slowly this test runs.
        let backend = RecordingSpeech::held();
        let speech = backend.clone();
        let mut out = Muting::new(Box::new(backend), state.clone());
        assert!(!state.busy(Duration::ZERO));
        out.speak(&Utterance::new(
            Priority::Next,
            Kind::Move,
            vec!["abc".into()],
        ))
        .unwrap();
        assert!(out.is_speaking());
        assert!(state.busy(Duration::ZERO), "muted while it speaks");
        speech.release();
        assert!(!out.is_speaking());
        assert!(!state.busy(Duration::ZERO), "unmuted when it has finished");
        assert!(
            state.busy(Duration::from_secs(60)),
            "but not before the echo tail"
        );
        out.speak(&Utterance::new(
            Priority::Now,
            Kind::Move,
            vec!["abc".into()],
        ))
        .unwrap();
        assert!(state.busy(Duration::ZERO));
        out.cancel().unwrap();
        assert!(
            !state.busy(Duration::ZERO),
            "a cancelled utterance ends speech"
        );
    }

    #[test]
    fn a_missing_model_folder_is_a_clear_error() {
        let c = VoiceConfig {
            model: "/nonexistent/model".into(),
            phrasebook: None,
            confirm: ConfirmChoice::Always,
            push_to_talk: false,
            mic: None,
        };
        let e = c.check().unwrap_err().to_string();
        assert!(e.contains("no such folder"), "{e}");
    }
}
