//! Draughts for the shared [`Listener`]: the game half of the listener
//! ([`Draughts`]), the draughts listener's constructor and its replies.

use tandem_rules::draughts::notation::ResolveError;
use tandem_rules::draughts::{Move, Position};

use super::{understand, Grammar, Heard};
use crate::announcer::Announcer;
use crate::listen::audio::Mode;
use crate::listen::grammar::ConfirmPolicy;
use crate::listen::lexicon::Lexicon;
use crate::listen::listener::{command_phrase, Action, Decision, ListenGame, Listener, Understood};
use crate::listen::{ListenError, Recognizer, Transcript};
use crate::phrasebook::Value;
use crate::utterance::{Kind, Priority, Utterance};

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
            .map_or_else(|| understand(pos, grammar, words, transcripts), Heard::from)
    }

    fn meaning(heard: &Heard) -> Understood<Move, ResolveError> {
        match heard {
            Heard::Move { mv, .. } => Understood::Move(*mv),
            // The number of "square N" is the square's (001 ch. I 2.6).
            Heard::Command {
                command, square, ..
            } => Understood::Command(*command, *square),
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

impl Listener<Draughts> {
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
    ) -> Result<Listener<Draughts>, ListenError> {
        Listener::for_game(rec, lex, policy, mode, pos)
    }
}

impl Decision<Draughts> {
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
