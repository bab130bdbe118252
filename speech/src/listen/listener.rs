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
//! | an ambiguous capture | [`Action::AskWhich`] | the same; the pending read-back is dropped |
//! | an illegal move | [`Action::Refuse`] with the rules engine's reason | the same; the pending read-back is dropped |
//! | nothing clear | [`Action::Repeat`] | [`Action::Repeat`], the read-back stays pending |
//!
//! ```
//! use tandem_rules::{Position, Variant};
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

use tandem_rules::notation::ResolveError;
use tandem_rules::{Move, Position, Square};

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
pub enum Action {
    /// Play this move now (it was confirmed, or needs no confirmation).
    Play(Move),
    /// Read the move back ([`Announcer::confirm_move`]) and wait: the
    /// listener keeps it until "yes", "no" or another move.
    ConfirmMove(Move),
    /// Carry out this command (the square of "square N").
    Command(CommandKind, Option<Square>),
    /// Read the command back and wait, as for a move.
    ConfirmCommand(CommandKind),
    /// The read-back was refused: say [`Announcer::cancelled`].
    Cancelled,
    /// Several captures fit: ask which, naming the captured squares
    /// ([`Announcer::on_rejected`] with [`ResolveError::Ambiguous`]).
    AskWhich(Vec<Move>),
    /// The squares heard name an illegal move: refuse with the reason
    /// ([`Announcer::on_rejected`]).
    Refuse {
        /// The squares heard as a move text (`32-26`).
        text: String,
        /// The rules engine's reason.
        error: ResolveError,
    },
    /// Nothing was heard clearly: ask to repeat ([`Announcer::not_understood`]).
    Repeat,
}

/// One utterance, understood and decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// What was understood (for the log and `tandem hear`).
    pub heard: Heard,
    /// What to do.
    pub action: Action,
}

impl Decision {
    /// What tandem says for the actions the listener answers itself
    /// (read-backs, "cancelled", "which capture?", refusals, "say again"),
    /// in `pos` (the position the listener had). `None` for [`Action::Play`]
    /// and [`Action::Command`]: the daemon announces the move or the answer.
    #[must_use]
    pub fn reply(&self, pos: &Position, announcer: &Announcer, lex: &Lexicon) -> Option<Utterance> {
        match &self.action {
            Action::Play(_) | Action::Command(..) => None,
            Action::ConfirmMove(m) => Some(announcer.confirm_move(pos, m)),
            Action::ConfirmCommand(c) => {
                let phrase = lex
                    .commands
                    .get(c)
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
                    .unwrap_or_else(|| c.name().to_owned());
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
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pending {
    Move(Move),
    Command(CommandKind),
}

/// Voice input for one player. See the [module docs](self).
pub struct Listener {
    rec: Box<dyn Recognizer>,
    lex: Lexicon,
    policy: ConfirmPolicy,
    pos: Position,
    grammar: Grammar,
    gate: Gate,
    mute: MuteSwitch,
    pending: Option<Pending>,
    fed: usize,
    missing: Vec<String>,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("lang", &self.lex.lang)
            .field("policy", &self.policy)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}

impl Listener {
    /// A listener for `pos`: gives the recognizer the position's grammar
    /// and checks every word of the language against the model
    /// ([`Listener::missing_words`]).
    ///
    /// # Errors
    /// The recognizer rejects the grammar.
    pub fn new(
        mut rec: Box<dyn Recognizer>,
        lex: Lexicon,
        policy: ConfirmPolicy,
        mode: Mode,
        pos: Position,
    ) -> Result<Listener, ListenError> {
        let grammar = Grammar::build(&pos, &lex);
        rec.set_grammar(&grammar.recognizer_phrases())?;
        let words: Vec<String> = lex.all_words().into_iter().collect();
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
            fed: 0,
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
    pub fn lexicon(&self) -> &Lexicon {
        &self.lex
    }

    /// The position listened in.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The grammar of the position.
    #[must_use]
    pub fn grammar(&self) -> &Grammar {
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
    pub fn set_position(&mut self, pos: Position) -> Result<(), ListenError> {
        let grammar = Grammar::build(&pos, &self.lex);
        self.rec.set_grammar(&grammar.recognizer_phrases())?;
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
    /// # Errors
    /// The recognizer fails.
    pub fn push_frame(&mut self, frame: &[i16]) -> Result<Option<Decision>, ListenError> {
        match self.gate.push(frame) {
            VadEvent::Silence => Ok(None),
            VadEvent::Speech(audio) => {
                self.fed += audio.len();
                self.rec.accept(&audio)?;
                // A short silence after a whole phrase ends the utterance:
                // the read-back comes sooner (audio.rs, the endpointing table).
                if self.gate.may_end_early()
                    && self
                        .rec
                        .partial()
                        .is_some_and(|p| self.grammar.is_complete(&self.lex, &p))
                {
                    self.gate.end_now();
                    return self.end_utterance();
                }
                Ok(None)
            }
            VadEvent::Abandoned => {
                // tandem spoke over it: the audio may hold its own voice.
                self.rec.finish()?;
                self.fed = 0;
                Ok(None)
            }
            VadEvent::End => self.end_utterance(),
        }
    }

    fn end_utterance(&mut self) -> Result<Option<Decision>, ListenError> {
        if std::mem::take(&mut self.fed) == 0 {
            return Ok(None);
        }
        let t = self.rec.finish()?;
        Ok(Some(self.hear(&t)))
    }

    /// Decides on the recognizer's n-best transcripts of one utterance (or
    /// typed text, [`Transcript::text`]).
    pub fn hear(&mut self, transcripts: &[Transcript]) -> Decision {
        let heard = understand(&self.pos, &self.grammar, &self.lex, transcripts);
        let action = self.decide(&heard);
        Decision { heard, action }
    }

    fn decide(&mut self, heard: &Heard) -> Action {
        let needs = heard.needs_confirmation(self.policy);
        match heard {
            Heard::Move { mv, .. } => {
                // In a read-back, a new move is always read back too.
                if needs || self.pending.is_some() {
                    self.pending = Some(Pending::Move(*mv));
                    Action::ConfirmMove(*mv)
                } else {
                    Action::Play(*mv)
                }
            }
            Heard::Command {
                command, square, ..
            } => {
                let square = square.and_then(Square::new);
                match (command, self.pending) {
                    (CommandKind::Yes, Some(p)) => {
                        self.pending = None;
                        match p {
                            Pending::Move(m) => Action::Play(m),
                            Pending::Command(c) => Action::Command(c, None),
                        }
                    }
                    (CommandKind::No | CommandKind::Cancel, Some(_)) => {
                        self.pending = None;
                        Action::Cancelled
                    }
                    _ if needs => {
                        self.pending = Some(Pending::Command(*command));
                        Action::ConfirmCommand(*command)
                    }
                    _ => Action::Command(*command, square),
                }
            }
            Heard::Ambiguous { moves, .. } => {
                self.pending = None;
                Action::AskWhich(moves.clone())
            }
            Heard::Illegal { text, error, .. } => {
                self.pending = None;
                Action::Refuse {
                    text: text.clone(),
                    error: error.clone(),
                }
            }
            // Heard is non-exhaustive: anything else is not clear enough.
            _ => Action::Repeat,
        }
    }
}

#[cfg(test)]
mod tests {
    use tandem_rules::{Position, Variant};

    use super::*;
    use crate::listen::audio::{VadConfig, FRAME};
    use crate::listen::{Grammar, ScriptedRecognizer};

    /// The frame (counted from the first quiet one, 1-based) at which the
    /// utterance `said` ends, spoken for 400 ms and followed by silence, when
    /// the recognizer tells partial results or not.
    fn ends_after(lex: Lexicon, said: &str, partials: bool) -> (usize, Decision) {
        let pos = Position::start(Variant::International);
        let mut rec = ScriptedRecognizer::new(vec![vec![Transcript::text(said)]]);
        rec.partials = partials;
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
    fn a_whole_phrase_ends_after_300_ms_of_silence() {
        let (n, d) = ends_after(Lexicon::polish(), "trzydzieści dwa dwadzieścia osiem", true);
        assert_eq!(n, 15, "15 quiet frames of 20 ms");
        assert!(matches!(d.action, Action::ConfirmMove(_)), "{d:?}");
        let (n, _) = ends_after(Lexicon::polish(), "tak", true);
        assert_eq!(n, 15);
    }

    #[test]
    fn the_full_wait_without_partials_or_when_a_longer_phrase_may_follow() {
        // A recognizer that cannot tell partial results: 600 ms.
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
}
