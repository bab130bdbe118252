//! Backgammon for the [`Listener`](crate::listen::Listener): the words
//! (the backgammon phrasebook's and the table's commands), what was heard,
//! the game half of the listener ([`BgVoice`]) and the replies.

use std::collections::BTreeSet;

use serde::Serialize;
use tandem_rules::backgammon::{ActionError, Match};

use super::understand::{understand_bg, BgHeard};
use super::{BgGrammar, BgInput, BgLexicon};
use crate::announcer::Announcer;
use crate::listen::grammar::{CommandGrammar, CommandHeard, ConfirmPolicy};
use crate::listen::lexicon::{words_of, CommandKind, Lexicon};
use crate::listen::listener::{command_phrase, Action as Act, Decision, ListenGame, Understood};
use crate::listen::Transcript;
use crate::phrasebook::Value;
use crate::utterance::{Kind, Priority, Utterance};

/// The words of backgammon by voice: the move words of a backgammon
/// phrasebook and the shared commands of a [`Lexicon`] (the table's, or
/// the backgammon phrasebook file's own `[listen.commands]`,
/// [`crate::listen::command_words`]). "Square N", "draw" and "claim
/// draw" are not listened for (points are not squares; no draws, 004).
#[derive(Debug, Clone)]
pub struct BgWords {
    /// The move words.
    pub moves: BgLexicon,
    /// The command words.
    pub commands: Lexicon,
}

impl BgWords {
    /// The words of `moves`, with the commands of `commands`.
    #[must_use]
    pub fn new(moves: BgLexicon, mut commands: Lexicon) -> BgWords {
        for c in [
            CommandKind::Square,
            CommandKind::Draw,
            CommandKind::ClaimDraw,
        ] {
            commands.commands.remove(&c);
        }
        // The questions about the board are backgammon's (`crate::backgammon::ask`).
        commands.ask = crate::backgammon::BgPhrasebook::builtin(moves.announcer().language())
            .map(|b| crate::backgammon::ask::phrases(&b))
            .unwrap_or_default();
        BgWords { moves, commands }
    }

    /// The built-in words of `lang` (`pl`, `en`).
    #[must_use]
    pub fn builtin(lang: &str) -> Option<BgWords> {
        Some(BgWords::new(
            BgLexicon::builtin(lang)?,
            Lexicon::builtin(lang)?,
        ))
    }
}

/// Every phrase of one state: the actions and the commands.
#[derive(Debug, Clone)]
pub struct BgVoiceGrammar {
    /// The actions.
    pub moves: BgGrammar,
    /// The commands (the shared ones; "move N" with the plain numbers).
    pub commands: CommandGrammar,
}

/// What was heard in backgammon: an action (or an ambiguity, an illegal
/// one, the pips, nothing) or a command. JSON as [`BgHeard`] and
/// [`CommandHeard`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum BgSaid {
    /// An action, an ambiguity, an illegal one, the pips, or nothing clear.
    Bg(BgHeard),
    /// A command or a question about the board.
    Command(CommandHeard),
}

impl BgSaid {
    /// What the recognizer returned.
    #[must_use]
    pub fn transcript(&self) -> &str {
        match self {
            BgSaid::Bg(
                BgHeard::Move { transcript, .. }
                | BgHeard::Ambiguous { transcript, .. }
                | BgHeard::Illegal { transcript, .. }
                | BgHeard::Query { transcript, .. }
                | BgHeard::Unknown { transcript },
            ) => transcript,
            BgSaid::Command(h) => h.transcript(),
        }
    }

    /// The confidence of an action, the pips or a command (0 for the others).
    #[must_use]
    pub fn confidence(&self) -> f64 {
        match self {
            BgSaid::Bg(BgHeard::Move { confidence, .. } | BgHeard::Query { confidence, .. }) => {
                *confidence
            }
            BgSaid::Bg(_) => 0.0,
            BgSaid::Command(h) => h.confidence(),
        }
    }

    /// For the journal: (`kind`, `text`): an action as the table's text
    /// (`move`, `roll 3 1` / `8/5 6/5`), an ambiguity as its candidates
    /// joined by ` | `, an illegal one as heard (`illegal`, `roll 6 6`), the
    /// pips and the commands by name (`command`, `pips`).
    #[must_use]
    pub fn fields(&self) -> (&'static str, String) {
        match self {
            BgSaid::Bg(BgHeard::Move { text, .. }) => ("move", text.clone()),
            BgSaid::Bg(BgHeard::Ambiguous { candidates, .. }) => {
                ("ambiguous", candidates.join(" | "))
            }
            BgSaid::Bg(BgHeard::Illegal { text, .. }) => ("illegal", text.clone()),
            BgSaid::Bg(BgHeard::Query { query, .. }) => ("command", query.clone()),
            BgSaid::Bg(BgHeard::Unknown { .. }) => ("unknown", String::new()),
            BgSaid::Command(h) => h.fields(),
        }
    }
}

/// Backgammon for the [`Listener`](crate::listen::Listener):
/// `Listener::<BgVoice>::for_game(rec, BgWords::builtin("pl")?, policy,
/// mode, match)`. The confirmation flow, the endpointing and the trial end
/// are the shared listener's; the cube actions and the resignations
/// offered or answered are always read back (they cannot be taken back).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BgVoice;

impl ListenGame for BgVoice {
    type Position = Match;
    type Words = BgWords;
    type Grammar = BgVoiceGrammar;
    type Move = BgInput;
    type Heard = BgSaid;
    type Refusal = ActionError;

    fn grammar(m: &Match, words: &BgWords) -> BgVoiceGrammar {
        BgVoiceGrammar {
            moves: BgGrammar::build(m, &words.moves),
            commands: CommandGrammar::build(&words.commands, &words.commands.numbers()),
        }
    }

    fn recognizer_phrases(g: &BgVoiceGrammar) -> Vec<String> {
        // The commands' list ends with "[unk]".
        let mut v = g.moves.recognizer_phrases();
        v.extend(g.commands.recognizer_phrases());
        v
    }

    fn all_words(words: &BgWords) -> Vec<String> {
        let l = &words.moves;
        let mut set: BTreeSet<String> = BTreeSet::new();
        for p in 1..=24u8 {
            set.extend(words_of(&l.point_said(p)));
        }
        for d in 1..=6u8 {
            set.extend(words_of(&l.die_said(d)));
        }
        for v in l.forms.values() {
            for f in v {
                set.extend(words_of(f));
            }
        }
        set.extend(words.commands.command_words().cloned());
        set.into_iter().collect()
    }

    fn is_complete(g: &BgVoiceGrammar, words: &BgWords, text: &str) -> bool {
        if g.moves.is_complete(&words.moves, text) {
            return true;
        }
        let (whole, continued) = g.commands.completion(&words.commands, text);
        whole && !continued && !g.moves.continues(text)
    }

    fn understand(
        _m: &Match,
        g: &BgVoiceGrammar,
        words: &BgWords,
        transcripts: &[Transcript],
    ) -> BgSaid {
        // A question about the board, said exactly, before any move.
        if let Some(q) = crate::ask::heard(&words.commands.ask, transcripts) {
            return BgSaid::Command(q);
        }
        let h = understand_bg(&g.moves, &words.moves, transcripts);
        if matches!(
            h,
            BgHeard::Move { .. } | BgHeard::Ambiguous { .. } | BgHeard::Query { .. }
        ) {
            return BgSaid::Bg(h);
        }
        // A command said clearly wins over numbers that make an illegal move.
        match g.commands.understand(&words.commands, transcripts) {
            Some(c) => BgSaid::Command(c),
            None => BgSaid::Bg(h),
        }
    }

    fn meaning(heard: &BgSaid) -> Understood<BgInput, ActionError> {
        match heard {
            BgSaid::Bg(BgHeard::Move { input, .. }) => Understood::Move(*input),
            BgSaid::Bg(BgHeard::Ambiguous { inputs, .. }) => Understood::Ambiguous(inputs.clone()),
            BgSaid::Bg(BgHeard::Illegal { text, error, .. }) => Understood::Illegal {
                text: text.clone(),
                error: error.clone(),
            },
            BgSaid::Bg(BgHeard::Query { query, .. }) => Understood::Query(query.clone()),
            BgSaid::Bg(BgHeard::Unknown { .. }) => Understood::Unknown,
            // No "square N" in backgammon (BgWords::new drops it); a move
            // number ("ruch N") comes as the number.
            BgSaid::Command(CommandHeard::Command {
                command, square, ..
            }) => Understood::Command(*command, *square),
            BgSaid::Command(CommandHeard::Query { query, .. }) => Understood::Query(query.clone()),
        }
    }

    fn needs_confirmation(heard: &BgSaid, policy: ConfirmPolicy) -> bool {
        match heard {
            BgSaid::Bg(BgHeard::Move { input, .. }) if input.is_final() => true,
            BgSaid::Bg(BgHeard::Move { confidence, .. }) => match policy {
                ConfirmPolicy::Always => true,
                ConfirmPolicy::BelowConfidence(t) => *confidence < t,
                ConfirmPolicy::Never => false,
            },
            BgSaid::Bg(_) => false,
            BgSaid::Command(h) => h.needs_confirmation(policy),
        }
    }

    fn transcript(heard: &BgSaid) -> &str {
        heard.transcript()
    }

    fn lang(words: &BgWords) -> &str {
        &words.moves.lang
    }
}

impl Decision<BgVoice> {
    /// What tandem says for the actions the listener answers itself, in the
    /// match `m` the listener had: the read-back ("osiem na pięć, sześć na
    /// pięć, zgadza się?": the backgammon phrasebook's words in the table's
    /// `move.confirm`), "cancelled", "which one?", the refusal with the
    /// reason, "say again". `None` for [`Act::Play`], [`Act::Command`] and
    /// [`Act::Query`].
    #[must_use]
    pub fn reply(&self, m: &Match, announcer: &Announcer, words: &BgWords) -> Option<Utterance> {
        let confirm = |text: String| {
            announcer.message(
                "move.confirm",
                &[("move", Value::Text(text))],
                Priority::Next,
                Kind::Confirm,
            )
        };
        let lex = &words.moves;
        match &self.action {
            Act::Play(_) | Act::Command(..) | Act::Query(_) => None,
            Act::ConfirmMove(input) => Some(confirm(lex.readback(m, input))),
            Act::ConfirmCommand(c) => Some(confirm(command_phrase(&words.commands, *c))),
            Act::Cancelled => Some(announcer.cancelled()),
            Act::AskWhich(inputs) => {
                let said: Vec<String> = inputs.iter().map(|i| lex.readback(m, i)).collect();
                Some(Utterance::new(
                    Priority::Now,
                    Kind::Rejection,
                    vec![lex
                        .announcer
                        .phrase("refusals.ambiguous", &[("moves", &said.join(&lex.or))])],
                ))
            }
            Act::Refuse { text, error } => Some(Utterance::new(
                Priority::Now,
                Kind::Rejection,
                vec![lex.announcer.refusal(error, text)],
            )),
            // Action is non-exhaustive: anything else asks to repeat.
            _ => Some(announcer.not_understood()),
        }
    }
}
