//! The grammar machinery every game shares (pure, table-tested through the
//! games' grammars): phrases and their meanings, the commands' phrases
//! ([`CommandGrammar`]), ranking a transcript against phrases with the
//! weighted edit distance of the [`matcher`](super::matcher), and what a
//! command heard is ([`CommandHeard`]).
//!
//! A game's grammar (in its folder: draughts' `Grammar`, chess's
//! `ChessVoiceGrammar`, backgammon's `BgVoiceGrammar`) adds the phrasings
//! of its legal moves and hands the commands the numbers its players say
//! after "square", "move" or "record from" ([`Numbers`]): draughts its
//! squares as the variant names them, the others the plain numbers
//! ([`Lexicon::numbers`]).
//!
//! A command is only ever reported when the transcript is close to one of
//! its phrasings and clearly closer to it than to any other meaning.

use std::collections::BTreeSet;

use serde::Serialize;

use super::lexicon::{words_of, CommandKind, Lexicon, Slot, Words};
use super::matcher::{Costs, MAX_COST, TIE_WINDOW};
use super::Transcript;

/// What a phrase means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// The legal move at this index of the game's list of moves.
    Move(usize),
    /// A command, with the number said after it (a square's number for
    /// `square N`, a move number).
    Command(CommandKind, Option<u8>),
}

/// One phrasing and its meaning.
#[derive(Debug, Clone)]
pub struct Phrase {
    /// The words.
    pub words: Words,
    /// The units the matcher compares ([`Lexicon::tokens`]).
    pub tokens: Words,
    /// What they mean.
    pub meaning: Meaning,
}

/// The numbers a game's players say after a command that takes one
/// (`square N`, `move N`, `record from N`): each number with every way of
/// saying it.
pub type Numbers = [(u8, Vec<Words>)];

/// The phrasings of every command of `lex`, a command that takes a number
/// once with each of `numbers`, in the lexicon's order of commands.
#[must_use]
pub fn command_phrases(lex: &Lexicon, numbers: &Numbers) -> Vec<Phrase> {
    let mut phrases = Vec::new();
    for (&kind, templates) in &lex.commands {
        for t in templates {
            let fixed = || {
                t.iter().filter_map(|s| match s {
                    Slot::Word(w) => Some(w.clone()),
                    _ => None,
                })
            };
            if t.iter().any(|s| !matches!(s, Slot::Word(_))) {
                for (n, forms) in numbers {
                    for form in forms {
                        let mut words = Vec::new();
                        for s in t {
                            match s {
                                Slot::Word(w) => words.push(w.clone()),
                                _ => words.extend(form.iter().cloned()),
                            }
                        }
                        phrases.push(Phrase {
                            tokens: lex.tokens(&words),
                            words,
                            meaning: Meaning::Command(kind, Some(*n)),
                        });
                    }
                }
            } else {
                let words: Words = fixed().collect();
                phrases.push(Phrase {
                    tokens: lex.tokens(&words),
                    words,
                    meaning: Meaning::Command(kind, None),
                });
            }
        }
    }
    phrases
}

/// The phrase list to give the recognizer: each distinct phrase once, the
/// questions, and `[unk]` last, so speech outside the grammar comes back as
/// unknown instead of being forced onto the nearest phrase.
#[must_use]
pub fn recognizer_phrases(phrases: &[Phrase], questions: &[String]) -> Vec<String> {
    let mut set: BTreeSet<String> = phrases.iter().map(|p| p.words.join(" ")).collect();
    set.extend(questions.iter().cloned());
    let mut v: Vec<String> = set.into_iter().collect();
    v.push("[unk]".to_owned());
    v
}

/// (`text` is exactly one whole phrase, a longer phrase starts with it),
/// compared unit by unit ([`Lexicon::tokens`]) as the matcher does.
#[must_use]
pub fn completion(phrases: &[Phrase], lex: &Lexicon, text: &str) -> (bool, bool) {
    let words = words_of(text);
    if words.is_empty() {
        return (false, false);
    }
    let t = lex.tokens(&words);
    let mut whole = false;
    for p in phrases {
        if p.tokens.len() > t.len() && p.tokens.starts_with(&t) {
            return (whole, true);
        }
        whole |= p.tokens == t;
    }
    (whole, false)
}

/// The meanings within reach of `heard` (tokens), each with the cost of its
/// nearest phrasing, cheapest first; phrasings costlier than
/// `MAX_COST + TIE_WINDOW` are left out.
#[must_use]
pub fn rank(phrases: &[Phrase], costs: &Costs<'_>, heard: &[String]) -> Vec<(Meaning, f32)> {
    rank_by(
        phrases.iter().map(|p| (p.tokens.as_slice(), p.meaning)),
        costs,
        heard,
    )
}

/// How one transcript's understanding stands among the n-best of an
/// utterance ([`first_fit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fit {
    /// It fits (a move, a command, an ambiguity, a question): it wins.
    Wins,
    /// A move the rules refuse: told only when nothing fits.
    Illegal,
    /// Nothing understood.
    Unknown,
    /// Passed over.
    Other,
}

/// The understanding of an utterance from those of its n-best transcripts
/// (made as they are asked for, best first): the first that wins; else the
/// first illegal move; else the first not understood; else `unknown`.
pub(crate) fn first_fit<H>(
    heards: impl IntoIterator<Item = H>,
    fit: impl Fn(&H) -> Fit,
    unknown: H,
) -> H {
    let mut fallback: Option<(H, Fit)> = None;
    for h in heards {
        match fit(&h) {
            Fit::Wins => return h,
            Fit::Illegal if !matches!(fallback, Some((_, Fit::Illegal))) => {
                fallback = Some((h, Fit::Illegal));
            }
            Fit::Unknown if fallback.is_none() => fallback = Some((h, Fit::Unknown)),
            _ => {}
        }
    }
    fallback.map_or(unknown, |(h, _)| h)
}

/// [`rank`] of any game's phrasings, each given as its words and what it
/// means (a move's index, a meaning).
pub(crate) fn rank_by<'p, M: PartialEq + Copy>(
    phrasings: impl IntoIterator<Item = (&'p [String], M)>,
    costs: &Costs<'_>,
    heard: &[String],
) -> Vec<(M, f32)> {
    let mut best: Vec<(M, f32)> = Vec::new();
    for (words, meaning) in phrasings {
        let c = costs.distance_within(heard, words, MAX_COST + TIE_WINDOW);
        if c > MAX_COST + TIE_WINDOW {
            continue;
        }
        match best.iter_mut().find(|(m, _)| *m == meaning) {
            Some(e) => e.1 = e.1.min(c),
            None => best.push((meaning, c)),
        }
    }
    best.sort_by(|a, b| a.1.total_cmp(&b.1));
    best
}

/// `x` rounded to two decimals (confidences).
#[must_use]
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The confidence of a phrase matched at `cost` from a transcript the
/// recognizer gave with `recognized` (0..1).
#[must_use]
pub fn confidence(recognized: f32, cost: f32) -> f64 {
    round2(f64::from(recognized.clamp(0.0, 1.0)) * f64::from(1.0 - cost).max(0.0))
}

/// Every phrase of the commands, the same in every position.
#[derive(Debug, Clone)]
pub struct CommandGrammar {
    /// All phrasings.
    pub phrases: Vec<Phrase>,
    /// The questions about the board as said (`crate::ask`), for the recognizer.
    pub questions: Vec<String>,
}

impl CommandGrammar {
    /// The commands of `lex`, a command that takes a number with `numbers`.
    #[must_use]
    pub fn build(lex: &Lexicon, numbers: &Numbers) -> CommandGrammar {
        CommandGrammar {
            phrases: command_phrases(lex, numbers),
            questions: lex.ask.iter().map(|q| q.words.join(" ")).collect(),
        }
    }

    /// The phrase list to give the recognizer ([`recognizer_phrases`]),
    /// ending with `[unk]`.
    #[must_use]
    pub fn recognizer_phrases(&self) -> Vec<String> {
        recognizer_phrases(&self.phrases, &self.questions)
    }

    /// (`text` is a whole command, a longer command starts with it).
    #[must_use]
    pub fn completion(&self, lex: &Lexicon, text: &str) -> (bool, bool) {
        completion(&self.phrases, lex, text)
    }

    /// The command the n-best `transcripts` say (best first; the first that
    /// says one clearly wins), if any: numbers written as digits are read
    /// as the lexicon's number words. Two commands about equally near: none.
    #[must_use]
    pub fn understand(&self, lex: &Lexicon, transcripts: &[Transcript]) -> Option<CommandHeard> {
        let costs = Costs::new(lex);
        transcripts.iter().find_map(|t| {
            let heard: Words = lex
                .numbers_said(&t.text)
                .into_iter()
                .filter(|w| w != "[unk]")
                .collect();
            let heard = lex.tokens(&heard);
            if heard.is_empty() {
                return None;
            }
            let best = rank(&self.phrases, &costs, &heard);
            let &(meaning, cost) = best.first().filter(|(_, c)| *c <= MAX_COST)?;
            if best.iter().filter(|(_, c)| *c - cost < TIE_WINDOW).count() > 1 {
                return None;
            }
            let Meaning::Command(command, square) = meaning else {
                return None;
            };
            Some(CommandHeard::Command {
                command,
                square,
                confidence: confidence(t.confidence, cost),
                transcript: t.text.clone(),
            })
        })
    }
}

/// A command or a question heard, in any game. JSON as the draughts
/// listener's (`{"kind": "command", "command": "clock", ...}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CommandHeard {
    /// A command.
    Command {
        /// Which.
        command: CommandKind,
        /// The number said after it (the square of `square N`, a move number).
        #[serde(skip_serializing_if = "Option::is_none")]
        square: Option<u8>,
        /// 0..1: the recognizer's confidence times how well the phrase matched.
        confidence: f64,
        /// What the recognizer returned.
        transcript: String,
    },
    /// A question about the board (`crate::ask`), in its typed form
    /// (`opponent kings`, `row 5`): answered, nothing changes.
    Query {
        /// The question.
        query: String,
        /// 0..1: the recognizer's (a question is heard only exactly).
        confidence: f64,
        /// What the recognizer returned.
        transcript: String,
    },
}

impl CommandHeard {
    /// The confidence.
    #[must_use]
    pub fn confidence(&self) -> f64 {
        match self {
            CommandHeard::Command { confidence, .. } | CommandHeard::Query { confidence, .. } => {
                *confidence
            }
        }
    }

    /// The transcript it came from.
    #[must_use]
    pub fn transcript(&self) -> &str {
        match self {
            CommandHeard::Command { transcript, .. } | CommandHeard::Query { transcript, .. } => {
                transcript
            }
        }
    }

    /// Whether it must be read back and wait for yes/no: resigning,
    /// offering and claiming a draw always (they cannot be taken back),
    /// "done" by the policy, the others never.
    #[must_use]
    pub fn needs_confirmation(&self, policy: ConfirmPolicy) -> bool {
        match self {
            CommandHeard::Command {
                command: CommandKind::Resign | CommandKind::Draw | CommandKind::ClaimDraw,
                ..
            } => true,
            CommandHeard::Command {
                command: CommandKind::Done,
                confidence,
                ..
            } => policy.reads_back(*confidence),
            _ => false,
        }
    }

    /// For the journal: (`kind`, `text`): a command by name (with its
    /// number: `square 23`), a question as typed.
    #[must_use]
    pub fn fields(&self) -> (&'static str, String) {
        match self {
            CommandHeard::Command {
                command,
                square: Some(n),
                ..
            } => ("command", format!("{} {n}", command.name())),
            CommandHeard::Command { command, .. } => ("command", command.name().to_owned()),
            CommandHeard::Query { query, .. } => ("query", query.clone()),
        }
    }
}

/// When a spoken move is read back and must be confirmed with yes/no.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConfirmPolicy {
    /// Every move and every command with consequences.
    Always,
    /// Only when the confidence is below this (0..1).
    BelowConfidence(f64),
    /// Never (resignation and draw are still confirmed).
    Never,
}

impl ConfirmPolicy {
    /// Whether something heard with `confidence` is read back by this policy.
    #[must_use]
    pub fn reads_back(self, confidence: f64) -> bool {
        match self {
            ConfirmPolicy::Always => true,
            ConfirmPolicy::BelowConfidence(t) => confidence < t,
            ConfirmPolicy::Never => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heard(g: &CommandGrammar, lex: &Lexicon, text: &str) -> Option<CommandHeard> {
        g.understand(lex, &[Transcript::text(text)])
    }

    #[test]
    fn the_commands_with_the_plain_numbers() {
        let en = Lexicon::english();
        let g = CommandGrammar::build(&en, &en.numbers());
        let command = |c: CommandKind, n: Option<u8>, text: &str| CommandHeard::Command {
            command: c,
            square: n,
            confidence: 1.0,
            transcript: text.to_owned(),
        };
        assert_eq!(
            heard(&g, &en, "clock"),
            Some(command(CommandKind::Clock, None, "clock"))
        );
        assert_eq!(
            heard(&g, &en, "move twelve"),
            Some(command(CommandKind::MoveNumber, Some(12), "move twelve"))
        );
        // Digits are read as the number's words.
        assert_eq!(
            heard(&g, &en, "record from 7"),
            Some(command(CommandKind::RecordFrom, Some(7), "record from 7"))
        );
        // Fifty is the last number listened for.
        assert_eq!(heard(&g, &en, "move 51"), None);
        assert_eq!(heard(&g, &en, "thirty two twenty eight"), None);
        assert_eq!(heard(&g, &en, ""), None);
        // The first transcript that says a command wins.
        let t = [Transcript::text("mumble"), Transcript::text("help")];
        assert_eq!(
            g.understand(&en, &t),
            Some(command(CommandKind::Help, None, "help"))
        );
        // "move twenty" is whole, but "move twenty-eight" goes on.
        assert_eq!(g.completion(&en, "move twenty"), (true, true));
        assert_eq!(g.completion(&en, "move twenty eight"), (true, false));
        assert_eq!(
            g.recognizer_phrases().last().map(String::as_str),
            Some("[unk]")
        );
    }

    #[test]
    fn what_cannot_be_taken_back_is_always_read_back() {
        let c = |command| CommandHeard::Command {
            command,
            square: None,
            confidence: 0.95,
            transcript: String::new(),
        };
        for k in [
            CommandKind::Resign,
            CommandKind::Draw,
            CommandKind::ClaimDraw,
        ] {
            assert!(c(k).needs_confirmation(ConfirmPolicy::Never), "{k}");
        }
        assert!(!c(CommandKind::Done).needs_confirmation(ConfirmPolicy::BelowConfidence(0.9)));
        assert!(c(CommandKind::Done).needs_confirmation(ConfirmPolicy::BelowConfidence(0.99)));
        assert!(!c(CommandKind::Clock).needs_confirmation(ConfirmPolicy::Always));
        assert_eq!(
            CommandHeard::Command {
                command: CommandKind::Square,
                square: Some(23),
                confidence: 1.0,
                transcript: String::new(),
            }
            .fields(),
            ("command", "square 23".to_owned())
        );
    }
}
