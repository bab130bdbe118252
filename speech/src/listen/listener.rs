//! [`Listener`]: the one object the daemon holds for voice input.
//!
//! It owns the recognizer (loaded once), the words ([`Lexicon`]), the current
//! position's [`Grammar`] (swapped on the live recognizer by
//! [`Listener::set_position`]), the [`Gate`] (endpointing or push-to-talk,
//! and the [`MuteSwitch`] the speech output flips while tandem speaks), the
//! [`ConfirmPolicy`], and the read-back waiting for "yes" or "no".
//!
//! Each finished utterance becomes a [`Decision`]: what was heard and the
//! [`Action`] to take. The daemon plays, answers or speaks the reply
//! ([`Decision::reply`]); the listener never changes the game itself, and
//! nothing is played on a guess:
//!
//! | heard | nothing pending | a read-back pending |
//! | --- | --- | --- |
//! | a legal move | [`Action::Play`], or [`Action::ConfirmMove`] if the policy asks | [`Action::ConfirmMove`] of the new move (the player corrects himself, 001 ch. VIII 2.2) |
//! | "yes" | [`Action::Command`] (for the daemon: e.g. a draw offer) | [`Action::Play`] the pending move, or [`Action::Command`] the pending command |
//! | "no", "cancel" | [`Action::Command`] | [`Action::Cancelled`] |
//! | resign, draw | [`Action::ConfirmCommand`] (always) | the same, replacing the pending one |
//! | done | [`Action::Command`], or [`Action::ConfirmCommand`] if the policy asks | the same |
//! | clock, position, last move, repeat, square N, help | [`Action::Command`] | [`Action::Command`], the read-back stays pending |
//! | a game's own question (pips) | [`Action::Query`] | [`Action::Query`], the read-back stays pending |
//! | an ambiguous capture | [`Action::AskWhich`] | the same; the pending read-back is dropped |
//! | an illegal move | [`Action::Refuse`] with the rules engine's reason | the same; the pending read-back is dropped |
//! | nothing clear | [`Action::Repeat`] | [`Action::Repeat`], the read-back stays pending |
//!
//! ```
//! use tandem_rules::draughts::{Position, Variant};
//! use tandem_speech::listen::{
//!     audio::Mode, audio::VadConfig, Action, ConfirmPolicy, Lexicon, Listener,
//!     ScriptedRecognizer, Transcript,
//! };
//! let pos = Position::start(Variant::International);
//! let rec = ScriptedRecognizer::default(); // a Vosk recognizer in the daemon
//! let mut l = Listener::new(
//!     Box::new(rec),
//!     Lexicon::polish(),
//!     ConfirmPolicy::Always,
//!     Mode::Voice(VadConfig::default()),
//!     pos,
//! )
//! .unwrap();
//! let d = l.hear(&[Transcript::text("trzydzieści dwa na dwadzieścia osiem")]);
//! assert!(matches!(d.action, Action::ConfirmMove(_)));
//! let d = l.hear(&[Transcript::text("tak")]);
//! let Action::Play(m) = d.action else { panic!("{d:?}") };
//! assert_eq!((m.from().number(), m.to().number()), (32, 28));
//! ```

use tandem_rules::draughts::notation::ResolveError;
use tandem_rules::draughts::{Move, Position, Square};

use super::audio::{Gate, Mode, MuteSwitch, VadEvent};
use super::grammar::{understand, ConfirmPolicy, Grammar, Heard};
use super::lexicon::{CommandKind, Lexicon, Slot};
use super::{ListenError, Recognizer, Transcript};
use crate::announcer::Announcer;
use crate::phrasebook::Value;
use crate::utterance::{Kind, Priority, Utterance};

/// What the daemon does with an utterance. See the table in the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Action<M = Move, E = ResolveError> {
    /// Play this move now (it was confirmed, or needs no confirmation).
    Play(M),
    /// Read the move back ([`Announcer::confirm_move`]) and wait: the
    /// listener keeps it until "yes", "no" or another move.
    ConfirmMove(M),
    /// Carry out this command (the square of "square N").
    Command(CommandKind, Option<Square>),
    /// Read the command back and wait, as for a move.
    ConfirmCommand(CommandKind),
    /// The read-back was refused: say [`Announcer::cancelled`].
    Cancelled,
    /// Several captures fit: ask which, naming the captured squares
    /// ([`Announcer::on_rejected`] with [`ResolveError::Ambiguous`]).
    AskWhich(Vec<M>),
    /// The squares heard name an illegal move: refuse with the reason
    /// ([`Announcer::on_rejected`]).
    Refuse {
        /// The squares heard as a move text (`32-26`, `e2e5`).
        text: String,
        /// The rules engine's reason.
        error: E,
    },
    /// Nothing was heard clearly: ask to repeat ([`Announcer::not_understood`]).
    Repeat,
    /// A game's own question (the pip count in backgammon): the daemon
    /// answers it as the typed one; a pending read-back stays.
    Query(String),
}

/// One utterance, understood and decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<G: ListenGame = Draughts> {
    /// What was understood (for the log and `tandem hear`).
    pub heard: G::Heard,
    /// What to do.
    pub action: Action<G::Move, G::Refusal>,
}

/// What an utterance means, as far as the confirmation flow cares: the
/// game-independent face of a game's understanding ([`ListenGame::meaning`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Understood<M, E> {
    /// A legal move.
    Move(M),
    /// A command (the square of "square N").
    Command(CommandKind, Option<Square>),
    /// Several legal moves fit: ask which.
    Ambiguous(Vec<M>),
    /// An illegal move: refuse with the reason.
    Illegal {
        /// The move text heard.
        text: String,
        /// The rules engine's reason.
        error: E,
    },
    /// Nothing clear.
    Unknown,
    /// A game's own question, by the name the game answers to (`pips`).
    Query(String),
}

/// The game-specific half of a [`Listener`]: the words, the grammar of a
/// position's legal moves and commands, and what a transcript means. The
/// other half (endpointing, the trial end, muting, the read-back waiting
/// for "yes" or "no") is the same for every game.
///
/// Implemented by [`Draughts`] (here),
/// [`ChessVoice`](crate::chess::listen::ChessVoice) and
/// [`BgVoice`](crate::backgammon::listen::BgVoice).
pub trait ListenGame {
    /// A position.
    type Position: Clone + PartialEq + std::fmt::Debug;
    /// The words listened for.
    type Words;
    /// Every phrase of one position.
    type Grammar;
    /// A legal move.
    type Move: Clone + PartialEq + std::fmt::Debug;
    /// What was understood (journaled, shown by `tandem hear`).
    type Heard: Clone + PartialEq + std::fmt::Debug;
    /// Why a move is illegal.
    type Refusal: Clone + PartialEq + std::fmt::Debug;

    /// The grammar of `pos`.
    fn grammar(pos: &Self::Position, words: &Self::Words) -> Self::Grammar;
    /// The phrases to give the recognizer.
    fn recognizer_phrases(grammar: &Self::Grammar) -> Vec<String>;
    /// Every word of the language (checked against the model).
    fn all_words(words: &Self::Words) -> Vec<String>;
    /// Whether `text` is a whole phrase that no longer phrase continues
    /// (the utterance may end early, [`Listener::push_frame`]).
    fn is_complete(grammar: &Self::Grammar, words: &Self::Words, text: &str) -> bool;
    /// Understands the n-best transcripts of one utterance in `pos`.
    fn understand(
        pos: &Self::Position,
        grammar: &Self::Grammar,
        words: &Self::Words,
        transcripts: &[Transcript],
    ) -> Self::Heard;
    /// What the confirmation flow makes of it.
    fn meaning(heard: &Self::Heard) -> Understood<Self::Move, Self::Refusal>;
    /// Whether it must be read back before anything is done
    /// ([`Heard::needs_confirmation`]).
    fn needs_confirmation(heard: &Self::Heard, policy: ConfirmPolicy) -> bool;
    /// The transcript it came from.
    fn transcript(heard: &Self::Heard) -> &str;
    /// The language tag of the words (for `Debug`).
    fn lang(words: &Self::Words) -> &str;
}

/// Draughts (001): squares by number or by file and rank, [`Lexicon`] and
/// [`Grammar`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Draughts;

impl ListenGame for Draughts {
    type Position = Position;
    type Words = Lexicon;
    type Grammar = Grammar;
    type Move = Move;
    type Heard = Heard;
    type Refusal = ResolveError;

    fn grammar(pos: &Position, words: &Lexicon) -> Grammar {
        Grammar::build(pos, words)
    }

    fn recognizer_phrases(grammar: &Grammar) -> Vec<String> {
        grammar.recognizer_phrases()
    }

    fn all_words(words: &Lexicon) -> Vec<String> {
        words.all_words().into_iter().collect()
    }

    fn is_complete(grammar: &Grammar, words: &Lexicon, text: &str) -> bool {
        grammar.is_complete(words, text)
    }

    fn understand(
        pos: &Position,
        grammar: &Grammar,
        words: &Lexicon,
        transcripts: &[Transcript],
    ) -> Heard {
        // A question about the board, said exactly, before any move.
        crate::ask::heard(&words.ask, transcripts)
            .unwrap_or_else(|| understand(pos, grammar, words, transcripts))
    }

    fn meaning(heard: &Heard) -> Understood<Move, ResolveError> {
        match heard {
            Heard::Move { mv, .. } => Understood::Move(*mv),
            Heard::Command {
                command, square, ..
            } => Understood::Command(*command, square.and_then(Square::new)),
            Heard::Ambiguous { moves, .. } => Understood::Ambiguous(moves.clone()),
            Heard::Illegal { text, error, .. } => Understood::Illegal {
                text: text.clone(),
                error: error.clone(),
            },
            Heard::Query { query, .. } => Understood::Query(query.clone()),
            // Heard is non-exhaustive: anything else is not clear enough.
            _ => Understood::Unknown,
        }
    }

    fn needs_confirmation(heard: &Heard, policy: ConfirmPolicy) -> bool {
        heard.needs_confirmation(policy)
    }

    fn transcript(heard: &Heard) -> &str {
        heard.transcript()
    }

    fn lang(words: &Lexicon) -> &str {
        &words.lang
    }
}

/// The words of a command's first phrasing ("tak", "remis"), for its read-back.
#[must_use]
pub fn command_phrase(lex: &Lexicon, c: CommandKind) -> String {
    lex.commands
        .get(&c)
        .and_then(|ts| ts.first())
        .map(|t| {
            t.iter()
                .filter_map(|s| match s {
                    Slot::Word(w) => Some(w.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| c.name().to_owned())
}

impl Decision {
    /// What tandem says for the actions the listener answers itself
    /// (read-backs, "cancelled", "which capture?", refusals, "say again"),
    /// in `pos` (the position the listener had). `None` for [`Action::Play`]
    /// and [`Action::Command`]: the daemon announces the move or the answer.
    #[must_use]
    pub fn reply(&self, pos: &Position, announcer: &Announcer, lex: &Lexicon) -> Option<Utterance> {
        match &self.action {
            Action::Play(_) | Action::Command(..) | Action::Query(_) => None,
            Action::ConfirmMove(m) => Some(announcer.confirm_move(pos, m)),
            Action::ConfirmCommand(c) => {
                let phrase = command_phrase(lex, *c);
                Some(announcer.message(
                    "move.confirm",
                    &[("move", Value::Text(phrase))],
                    Priority::Next,
                    Kind::Confirm,
                ))
            }
            Action::Cancelled => Some(announcer.cancelled()),
            Action::AskWhich(moves) => Some(announcer.on_rejected(
                pos,
                self.heard.transcript(),
                &ResolveError::Ambiguous {
                    candidates: moves.clone(),
                },
            )),
            Action::Refuse { text, error } => Some(announcer.on_rejected(pos, text, error)),
            Action::Repeat => Some(announcer.not_understood()),
        }
    }
}

/// What is waiting for "yes" or "no".
#[derive(Debug, Clone, PartialEq)]
enum Pending<M> {
    Move(M),
    Command(CommandKind),
}

/// Voice input for one player, in draughts (the default) or another
/// [`ListenGame`]. See the [module docs](self).
pub struct Listener<G: ListenGame = Draughts> {
    rec: Box<dyn Recognizer>,
    lex: G::Words,
    policy: ConfirmPolicy,
    pos: G::Position,
    grammar: G::Grammar,
    gate: Gate,
    mute: MuteSwitch,
    pending: Option<Pending<G::Move>>,
    /// Every sample of the utterance in progress, from its pre-roll on:
    /// what the recognizer is fed again after a trial end that was not a
    /// whole phrase.
    utterance: Vec<i16>,
    /// After a trial end that was not a whole phrase, while the speaker is
    /// still quiet: its transcripts. The recognizer was reset by the trial
    /// and has been fed nothing since (the quiet frames wait in
    /// `utterance`).
    trial: Option<Vec<Transcript>>,
    missing: Vec<String>,
}

impl<G: ListenGame> std::fmt::Debug for Listener<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("lang", &G::lang(&self.lex))
            .field("policy", &self.policy)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}

impl Listener {
    /// A draughts listener for `pos`: gives the recognizer the position's
    /// grammar and checks every word of the language against the model
    /// ([`Listener::missing_words`]).
    ///
    /// # Errors
    /// The recognizer rejects the grammar.
    pub fn new(
        rec: Box<dyn Recognizer>,
        lex: Lexicon,
        policy: ConfirmPolicy,
        mode: Mode,
        pos: Position,
    ) -> Result<Listener, ListenError> {
        Listener::for_game(rec, lex, policy, mode, pos)
    }
}

impl<G: ListenGame> Listener<G> {
    /// A listener of game `G` for `pos` (as [`Listener::new`]).
    ///
    /// # Errors
    /// The recognizer rejects the grammar.
    pub fn for_game(
        mut rec: Box<dyn Recognizer>,
        lex: G::Words,
        policy: ConfirmPolicy,
        mode: Mode,
        pos: G::Position,
    ) -> Result<Listener<G>, ListenError> {
        let grammar = G::grammar(&pos, &lex);
        rec.set_grammar(&G::recognizer_phrases(&grammar))?;
        let words = G::all_words(&lex);
        let missing = rec.missing_words(&words);
        let mute = MuteSwitch::default();
        Ok(Listener {
            rec,
            lex,
            policy,
            pos,
            grammar,
            gate: Gate::new(mode, mute.clone()),
            mute,
            pending: None,
            utterance: Vec::new(),
            trial: None,
            missing,
        })
    }

    /// The words of the language the model does not know: they cannot be
    /// heard (report them at start-up).
    #[must_use]
    pub fn missing_words(&self) -> &[String] {
        &self.missing
    }

    /// The switch to flip while tandem speaks (give a clone to the speech
    /// output): while muted, audio is dropped and an utterance in progress
    /// is thrown away.
    #[must_use]
    pub fn mute_switch(&self) -> MuteSwitch {
        self.mute.clone()
    }

    /// The words listened for.
    #[must_use]
    pub fn lexicon(&self) -> &G::Words {
        &self.lex
    }

    /// The position listened in.
    #[must_use]
    pub fn position(&self) -> &G::Position {
        &self.pos
    }

    /// The grammar of the position.
    #[must_use]
    pub fn grammar(&self) -> &G::Grammar {
        &self.grammar
    }

    /// Whether a read-back waits for "yes" or "no".
    #[must_use]
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// A new position (after any move, by either side, or an undo): the
    /// grammar of its legal moves replaces the old one on the live
    /// recognizer, and a pending read-back is dropped.
    ///
    /// # Errors
    /// The recognizer rejects the grammar.
    pub fn set_position(&mut self, pos: G::Position) -> Result<(), ListenError> {
        let grammar = G::grammar(&pos, &self.lex);
        self.rec.set_grammar(&G::recognizer_phrases(&grammar))?;
        self.pos = pos;
        self.grammar = grammar;
        self.pending = None;
        Ok(())
    }

    /// Changes the confirmation policy.
    pub fn set_policy(&mut self, policy: ConfirmPolicy) {
        self.policy = policy;
    }

    /// Takes one 20 ms frame of 16 kHz mono audio (from
    /// [`Microphone`](super::mic::Microphone) in the daemon); a finished
    /// utterance comes back decided.
    ///
    /// After [`VadConfig::end_frames_complete`] quiet frames the recognizer
    /// gives its final result so far ([`Recognizer::finish_early`]): a whole
    /// phrase of the grammar ends the utterance there. Otherwise the
    /// utterance goes on with a reset recognizer: if the speaker resumes, it
    /// is fed the whole utterance again (every sample once, in order); if the
    /// full silence passes first, the trial's transcripts are the
    /// utterance's (only quiet frames came after them).
    ///
    /// # Errors
    /// The recognizer fails.
    ///
    /// [`VadConfig::end_frames_complete`]: super::audio::VadConfig::end_frames_complete
    pub fn push_frame(&mut self, frame: &[i16]) -> Result<Option<Decision<G>>, ListenError> {
        match self.gate.push(frame) {
            VadEvent::Silence => Ok(None),
            VadEvent::Speech(audio) => {
                self.utterance.extend_from_slice(&audio);
                if self.trial.is_some() {
                    if self.gate.quiet_frames() > 0 {
                        // Still quiet: kept in `utterance` only.
                        return Ok(None);
                    }
                    // The speaker goes on after a pause inside a phrase.
                    self.trial = None;
                    self.rec.accept(&self.utterance)?;
                } else {
                    self.rec.accept(&audio)?;
                }
                if self.gate.may_end_early() {
                    if let Some(t) = self.rec.finish_early()? {
                        let whole = t
                            .first()
                            .is_some_and(|b| G::is_complete(&self.grammar, &self.lex, &b.text));
                        if whole {
                            self.gate.end_now();
                            self.utterance.clear();
                            return Ok(Some(self.hear(&t)));
                        }
                        self.trial = Some(t);
                    }
                }
                Ok(None)
            }
            VadEvent::Abandoned => {
                // tandem spoke over it: the audio may hold its own voice.
                if self.trial.take().is_none() && !self.utterance.is_empty() {
                    self.rec.finish()?;
                }
                self.utterance.clear();
                Ok(None)
            }
            VadEvent::End => self.end_utterance(),
        }
    }

    fn end_utterance(&mut self) -> Result<Option<Decision<G>>, ListenError> {
        if std::mem::take(&mut self.utterance).is_empty() {
            return Ok(None);
        }
        let t = match self.trial.take() {
            Some(t) => t,
            None => self.rec.finish()?,
        };
        Ok(Some(self.hear(&t)))
    }

    /// Decides on the recognizer's n-best transcripts of one utterance (or
    /// typed text, [`Transcript::text`]).
    pub fn hear(&mut self, transcripts: &[Transcript]) -> Decision<G> {
        let heard = G::understand(&self.pos, &self.grammar, &self.lex, transcripts);
        let action = self.decide(&heard);
        Decision { heard, action }
    }

    fn decide(&mut self, heard: &G::Heard) -> Action<G::Move, G::Refusal> {
        let needs = G::needs_confirmation(heard, self.policy);
        match G::meaning(heard) {
            Understood::Move(mv) => {
                // In a read-back, a new move is always read back too.
                if needs || self.pending.is_some() {
                    self.pending = Some(Pending::Move(mv.clone()));
                    Action::ConfirmMove(mv)
                } else {
                    Action::Play(mv)
                }
            }
            Understood::Command(command, square) => match (command, self.pending.take()) {
                (CommandKind::Yes, Some(p)) => match p {
                    Pending::Move(m) => Action::Play(m),
                    Pending::Command(c) => Action::Command(c, None),
                },
                (CommandKind::No | CommandKind::Cancel, Some(_)) => Action::Cancelled,
                (_, _) if needs => {
                    self.pending = Some(Pending::Command(command));
                    Action::ConfirmCommand(command)
                }
                (_, p) => {
                    // Read-outs leave the read-back pending.
                    self.pending = p;
                    Action::Command(command, square)
                }
            },
            Understood::Ambiguous(moves) => {
                self.pending = None;
                Action::AskWhich(moves)
            }
            Understood::Illegal { text, error } => {
                self.pending = None;
                Action::Refuse { text, error }
            }
            Understood::Unknown => Action::Repeat,
            // Answered like a read-out: the read-back stays pending.
            Understood::Query(q) => Action::Query(q),
        }
    }
}

#[cfg(test)]
mod tests {
    use tandem_rules::draughts::{Position, Variant};

    use super::*;
    use crate::listen::audio::{VadConfig, FRAME};
    use crate::listen::{Grammar, ScriptedRecognizer};

    /// The frame (counted from the first quiet one, 1-based) at which the
    /// utterance `said` ends, spoken for 400 ms and followed by silence, when
    /// the recognizer can tell its result before the end or not.
    fn ends_after(lex: Lexicon, said: &str, early: bool) -> (usize, Decision) {
        let pos = Position::start(Variant::International);
        let mut rec = ScriptedRecognizer::new(vec![vec![Transcript::text(said)]]);
        rec.early = early;
        let mut l = Listener::new(
            Box::new(rec),
            lex,
            ConfirmPolicy::Always,
            Mode::Voice(VadConfig::default()),
            pos,
        )
        .unwrap();
        let loud: Vec<i16> = (0..FRAME)
            .map(|i| if i % 2 == 0 { 8000 } else { -8000 })
            .collect();
        for _ in 0..20 {
            assert_eq!(l.push_frame(&loud).unwrap(), None);
        }
        let quiet = vec![0i16; FRAME];
        for n in 1..=40 {
            if let Some(d) = l.push_frame(&quiet).unwrap() {
                return (n, d);
            }
        }
        panic!("{said:?} never ended");
    }

    #[test]
    fn a_whole_phrase_ends_after_100_ms_of_silence() {
        let (n, d) = ends_after(Lexicon::polish(), "trzydzieści dwa dwadzieścia osiem", true);
        assert_eq!(n, 5, "5 quiet frames of 20 ms");
        assert!(matches!(d.action, Action::ConfirmMove(_)), "{d:?}");
        let (n, _) = ends_after(Lexicon::polish(), "tak", true);
        assert_eq!(n, 5);
    }

    #[test]
    fn the_full_wait_without_an_early_result_or_when_a_longer_phrase_may_follow() {
        // A recognizer that cannot tell its result before the end: 600 ms.
        let (n, _) = ends_after(
            Lexicon::polish(),
            "trzydzieści dwa dwadzieścia osiem",
            false,
        );
        assert_eq!(n, 30);
        // "square twenty" is a whole phrase, but "square twenty-eight" goes on.
        let (n, d) = ends_after(Lexicon::english(), "square twenty", true);
        assert_eq!(n, 30, "{d:?}");
        // Half a move: not a phrase.
        let (n, _) = ends_after(Lexicon::polish(), "trzydzieści dwa", true);
        assert_eq!(n, 30);
    }

    #[test]
    fn whole_phrases_of_the_grammar() {
        let pos = Position::start(Variant::International);
        let pl = Lexicon::polish();
        let g = Grammar::build(&pos, &pl);
        assert!(g.is_complete(&pl, "trzydzieści dwa dwadzieścia osiem"));
        assert!(g.is_complete(&pl, "Z trzydziestu dwóch na dwadzieścia osiem"));
        assert!(!g.is_complete(&pl, "trzydzieści dwa"));
        assert!(!g.is_complete(&pl, ""));
        // Illegal moves are phrases too (heard, to be refused with the reason).
        assert!(g.is_complete(&pl, "trzydzieści dwa dwadzieścia siedem"));
        let en = Lexicon::english();
        let g = Grammar::build(&pos, &en);
        assert!(g.is_complete(&en, "thirty-two twenty-eight"));
        assert!(g.is_complete(&en, "square twenty-eight"));
        assert!(!g.is_complete(&en, "square twenty"), "square 28 goes on");
    }

    /// Finishes logged by [`BurstRecognizer`]: `(early, samples held)`.
    type Finishes = std::sync::Arc<std::sync::Mutex<Vec<(bool, usize)>>>;

    /// A fake recognizer that transcribes exactly the audio fed since its
    /// last reset (no real recognizer can be told what to hear): a frame of
    /// amplitude `1000 * k` says `chunks[k - 1]`, a run of such frames once;
    /// quiet frames say nothing. Audio lost or fed twice changes the
    /// transcript, and every finish logs the samples it held.
    struct BurstRecognizer {
        chunks: Vec<&'static str>,
        heard: Vec<i16>,
        finishes: Finishes,
    }

    impl BurstRecognizer {
        fn end(&mut self, early: bool) -> Vec<Transcript> {
            let mut words = Vec::new();
            let mut last = 0;
            for f in self.heard.chunks(FRAME) {
                let k = usize::from(f.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0)) / 1000;
                if k > 0 && k != last {
                    words.push(self.chunks[k - 1]);
                }
                last = k;
            }
            self.finishes
                .lock()
                .unwrap()
                .push((early, std::mem::take(&mut self.heard).len()));
            if words.is_empty() {
                Vec::new()
            } else {
                vec![Transcript::text(&words.join(" "))]
            }
        }
    }

    impl Recognizer for BurstRecognizer {
        fn set_grammar(&mut self, _phrases: &[String]) -> Result<(), ListenError> {
            Ok(())
        }
        fn accept(&mut self, samples: &[i16]) -> Result<(), ListenError> {
            assert_eq!(samples.len() % FRAME, 0, "whole frames");
            self.heard.extend_from_slice(samples);
            Ok(())
        }
        fn finish(&mut self) -> Result<Vec<Transcript>, ListenError> {
            Ok(self.end(false))
        }
        fn finish_early(&mut self) -> Result<Option<Vec<Transcript>>, ListenError> {
            Ok(Some(self.end(true)))
        }
        fn missing_words(&mut self, _words: &[String]) -> Vec<String> {
            Vec::new()
        }
    }

    /// A listener over a [`BurstRecognizer`] saying `chunks`, and its log.
    fn burst_listener(lex: Lexicon, chunks: Vec<&'static str>) -> (Listener, Finishes) {
        let finishes = Finishes::default();
        let rec = BurstRecognizer {
            chunks,
            heard: Vec::new(),
            finishes: finishes.clone(),
        };
        let l = Listener::new(
            Box::new(rec),
            lex,
            ConfirmPolicy::Always,
            Mode::Voice(VadConfig::default()),
            Position::start(Variant::International),
        )
        .unwrap();
        (l, finishes)
    }

    /// Pushes `frames` frames saying chunk `k` (0: quiet); the decisions
    /// with the number of the frame (1-based, within this call) they came on.
    fn say(l: &mut Listener, k: i16, frames: usize) -> Vec<(usize, Decision)> {
        let frame: Vec<i16> = (0..FRAME)
            .map(|i| if i % 2 == 0 { 1000 * k } else { -1000 * k })
            .collect();
        (1..=frames)
            .filter_map(|n| l.push_frame(&frame).unwrap().map(|d| (n, d)))
            .collect()
    }

    #[test]
    fn a_pause_inside_a_phrase_feeds_the_whole_utterance_again_once() {
        let (mut l, log) = burst_listener(
            Lexicon::polish(),
            vec!["trzydzieści dwa", "dwadzieścia osiem"],
        );
        assert!(say(&mut l, 0, 5).is_empty());
        assert!(say(&mut l, 1, 20).is_empty());
        // 400 ms of pause: the trial end at 100 ms finds half a move.
        assert!(say(&mut l, 0, 20).is_empty());
        assert_eq!(*log.lock().unwrap(), [(true, 30 * FRAME)], "5 + 20 + 5");
        assert!(say(&mut l, 2, 20).is_empty());
        let d = say(&mut l, 0, 40);
        assert_eq!(d.len(), 1, "{d:?}");
        let (n, d) = &d[0];
        assert_eq!(*n, 5, "a whole move: 100 ms");
        assert_eq!(d.heard.transcript(), "trzydzieści dwa dwadzieścia osiem");
        let Action::ConfirmMove(m) = d.action else {
            panic!("{d:?}")
        };
        assert_eq!((m.from().number(), m.to().number()), (32, 28));
        // Fed again from the first sample of the pre-roll, nothing twice.
        assert_eq!(
            *log.lock().unwrap(),
            [(true, 30 * FRAME), (true, (5 + 20 + 20 + 20 + 5) * FRAME)]
        );
        // The next utterance starts afresh (10 frames of pre-roll).
        assert!(say(&mut l, 1, 20).is_empty());
        assert_eq!(say(&mut l, 0, 30).len(), 1);
        assert_eq!(log.lock().unwrap()[2], (true, (10 + 20 + 5) * FRAME));
    }

    #[test]
    fn after_a_trial_that_may_go_on_the_full_silence_decides_on_its_words() {
        let (mut l, log) = burst_listener(Lexicon::english(), vec!["square twenty"]);
        assert!(say(&mut l, 1, 20).is_empty());
        let d = say(&mut l, 0, 40);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].0, 30, "square twenty-eight may follow: 600 ms");
        assert_eq!(
            d[0].1.action,
            Action::Command(CommandKind::Square, Square::new(20))
        );
        assert_eq!(
            *log.lock().unwrap(),
            [(true, 25 * FRAME)],
            "one decode: the quiet frames after the trial add no words"
        );
    }

    #[test]
    fn muting_after_a_trial_drops_the_utterance() {
        let (mut l, log) = burst_listener(Lexicon::polish(), vec!["trzydzieści dwa", "tak"]);
        assert!(say(&mut l, 1, 20).is_empty());
        assert!(say(&mut l, 0, 20).is_empty());
        let mute = l.mute_switch();
        mute.mute();
        assert!(say(&mut l, 0, 40).is_empty(), "no decision once muted");
        mute.unmute();
        assert!(say(&mut l, 0, 5).is_empty());
        assert!(say(&mut l, 2, 20).is_empty());
        let d = say(&mut l, 0, 40);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            d[0].1.heard.transcript(),
            "tak",
            "nothing of the dropped one"
        );
        assert_eq!(
            *log.lock().unwrap(),
            [(true, 25 * FRAME), (true, 30 * FRAME)],
            "the trial had reset the recognizer: no second finish on muting"
        );
    }
}
