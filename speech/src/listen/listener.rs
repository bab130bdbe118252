//! [`Listener`]: the one object the daemon holds for voice input.
//!
//! It owns the recognizer (loaded once), the game's words and the current
//! position's grammar ([`ListenGame::Words`], [`ListenGame::Grammar`];
//! swapped on the live recognizer by [`Listener::set_position`]), the
//! [`Gate`] (endpointing or push-to-talk, and the [`MuteSwitch`] the speech
//! output flips while tandem speaks), the [`ConfirmPolicy`], and the
//! read-back waiting for "yes" or "no".
//!
//! Each finished utterance becomes a [`Decision`]: what was heard and the
//! [`Action`] to take. The daemon plays, answers or speaks the reply
//! (each game's `Decision::reply`); the listener never changes the game itself, and
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
//! An example with a draughts position is in draughts' `listen` module.

use super::audio::{Gate, Mode, MuteSwitch, VadEvent};
use super::grammar::ConfirmPolicy;
use super::lexicon::{CommandKind, Lexicon, Slot};
use super::{ListenError, Recognizer, Transcript};

/// What the daemon does with an utterance. See the table in the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Action<M, E> {
    /// Play this move now (it was confirmed, or needs no confirmation).
    Play(M),
    /// Read the move back and wait: the listener keeps it until "yes",
    /// "no" or another move.
    ConfirmMove(M),
    /// Carry out this command, with the number said after it (the square
    /// of "square N" as the game numbers it, a move number): the game's
    /// adapter reads it.
    Command(CommandKind, Option<u8>),
    /// Read the command back and wait, as for a move.
    ConfirmCommand(CommandKind),
    /// The read-back was refused: say so (`Announcer::cancelled`).
    Cancelled,
    /// Several moves fit: ask which (a draughts capture by its captured
    /// squares, a chess move by its piece).
    AskWhich(Vec<M>),
    /// The squares heard name an illegal move: refuse with the reason.
    Refuse {
        /// The squares heard as a move text (`32-26`, `e2e5`).
        text: String,
        /// The rules engine's reason.
        error: E,
    },
    /// Nothing was heard clearly: ask to repeat (`Announcer::not_understood`).
    Repeat,
    /// A game's own question (the pip count in backgammon): the daemon
    /// answers it as the typed one; a pending read-back stays.
    Query(String),
}

/// One utterance, understood and decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<G: ListenGame> {
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
    /// A command, with the number said after it ([`Action::Command`]).
    Command(CommandKind, Option<u8>),
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
/// Each game implements it in its folder (draughts' `Draughts`, chess's
/// `ChessVoice`, backgammon's `BgVoice`).
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
    /// Whether it must be read back before anything is done (a command:
    /// [`CommandHeard::needs_confirmation`](super::grammar::CommandHeard::needs_confirmation)).
    fn needs_confirmation(heard: &Self::Heard, policy: ConfirmPolicy) -> bool;
    /// The transcript it came from.
    fn transcript(heard: &Self::Heard) -> &str;
    /// The language tag of the words (for `Debug`).
    fn lang(words: &Self::Words) -> &str;
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

/// What is waiting for "yes" or "no".
#[derive(Debug, Clone, PartialEq)]
enum Pending<M> {
    Move(M),
    Command(CommandKind),
}

/// Voice input for one player in the game `G`. See the [module docs](self).
pub struct Listener<G: ListenGame> {
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

impl<G: ListenGame> Listener<G> {
    /// A listener of game `G` for `pos`: gives the recognizer the
    /// position's grammar and checks every word of the language against
    /// the model ([`Listener::missing_words`]).
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
