//! Draughts by voice (001 ch. VIII 2.2): from a position's LEGAL moves to
//! every way a player says them, and from a transcript back to a move or a
//! command (pure, table-tested). The squares are said as the variant names
//! them ([`DraughtsWords`]); the commands are the shared ones
//! ([`crate::listen::grammar`]), "square N" with the board's squares.
//!
//! A move is only ever reported when the transcript is close to a phrasing of
//! a legal move and clearly closer to it than to any other meaning. A phrase
//! that names an illegal move is reported as [`Heard::Illegal`] with the
//! reason; a near-tie as [`Heard::Ambiguous`] with the candidates; anything
//! else as [`Heard::Unknown`]. Nothing is played on a guess.
//!
//! The shared [`Listener`](crate::listen::Listener) over a draughts position: a
//! move heard, read back, confirmed.
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

use std::collections::BTreeSet;

use serde::Serialize;
use tandem_rules::draughts::notation::{resolve, write_move, ResolveError};
use tandem_rules::draughts::{Move, Position, Square, Variant};

use crate::listen::grammar::{
    command_phrases, completion, confidence, rank, recognizer_phrases, round2, CommandHeard,
    ConfirmPolicy, Meaning, Phrase,
};
use crate::listen::lexicon::{words_of, CommandKind, Lexicon, Slot, Template, Words};
use crate::listen::matcher::{Costs, MAX_COST, TIE_WINDOW};
use crate::listen::Transcript;

mod game;
mod words;

pub use game::Draughts;
pub use words::DraughtsWords;

/// Every phrase a player may say in one position.
#[derive(Debug, Clone)]
pub struct Grammar {
    /// The legal moves, in the rules engine's order.
    pub moves: Vec<Move>,
    /// Their strict notation (`32-28`, `27x18`).
    pub notations: Vec<String>,
    /// All phrasings.
    pub phrases: Vec<Phrase>,
    /// The questions about the board as said (`crate::ask`), for the recognizer.
    pub questions: Vec<String>,
}

fn fill(t: &Template, lex: &Lexicon, v: Variant, from: Square, to: Square) -> Vec<Words> {
    let mut out: Vec<Words> = vec![Vec::new()];
    for slot in t {
        let forms: Vec<Words> = match slot {
            Slot::Word(w) => vec![vec![w.clone()]],
            Slot::From => lex.square(v, from),
            Slot::FromGen => lex.square_from(v, from),
            // `N` is the square of a command, given as `to`.
            Slot::To | Slot::N => lex.square(v, to),
        };
        out = followed_by(&out, &forms);
    }
    out
}

/// Each of `prefixes` followed by each of `forms`, in that order.
fn followed_by(prefixes: &[Words], forms: &[Words]) -> Vec<Words> {
    prefixes
        .iter()
        .flat_map(|prefix| {
            forms
                .iter()
                .map(move |f| prefix.iter().chain(f).cloned().collect())
        })
        .collect()
}

impl Grammar {
    /// The phrases for `pos`: every legal move in every phrasing of `lex`
    /// (captures also followed by the captured squares in capture order, to
    /// settle an ambiguous capture), and every command.
    ///
    /// Squares are spoken as the variant names them ([`Lexicon::square`]):
    /// by number in international draughts (001 ch. I 2.6), by file and
    /// rank in 64-square draughts (001 ch. I 2.6.4), the file as a letter or
    /// an annex E name ("ce trzy", "Cezar trzy").
    #[must_use]
    pub fn build(pos: &Position, lex: &Lexicon) -> Grammar {
        let v = pos.variant();
        let moves = pos.legal_moves();
        let notations = moves.iter().map(|m| write_move(pos, m)).collect();
        let mut phrases = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let (from, to) = (m.from(), m.to());
            let templates = if m.is_capture() {
                &lex.captures
            } else {
                &lex.moves
            };
            for t in templates {
                for words in fill(t, lex, v, from, to) {
                    if m.is_capture() {
                        let mut tails: Vec<Words> = vec![Vec::new()];
                        for sq in m.captured() {
                            tails = followed_by(&tails, &lex.square(v, sq));
                        }
                        for tail in &tails {
                            for lead in lex.taken.iter().chain(std::iter::once(&Vec::new())) {
                                let w = words.iter().chain(lead).chain(tail).cloned().collect();
                                phrases.push(Phrase {
                                    tokens: Vec::new(),
                                    words: w,
                                    meaning: Meaning::Move(i),
                                });
                            }
                        }
                    }
                    phrases.push(Phrase {
                        tokens: Vec::new(),
                        words,
                        meaning: Meaning::Move(i),
                    });
                }
            }
        }
        for p in &mut phrases {
            p.tokens = lex.tokens(&p.words);
        }
        // The commands; "square N" with the board's squares.
        phrases.extend(command_phrases(lex, &lex.squares(v)));
        Grammar {
            moves,
            notations,
            phrases,
            questions: lex.ask.iter().map(|q| q.words.join(" ")).collect(),
        }
    }

    /// The phrase list to give the recognizer: each distinct phrase once,
    /// plus `[unk]` so speech outside the grammar comes back as unknown
    /// instead of being forced onto the nearest phrase.
    #[must_use]
    pub fn recognizer_phrases(&self) -> Vec<String> {
        recognizer_phrases(&self.phrases, &self.questions)
    }

    /// Whether `text` (a recognizer's words) is exactly one whole phrase of
    /// the grammar that no longer phrase continues: nothing more can be
    /// meant, so the utterance may end without waiting out the full silence.
    /// Compared unit by unit ([`Lexicon::tokens`]), as the matcher does.
    #[must_use]
    pub fn is_complete(&self, lex: &Lexicon, text: &str) -> bool {
        let (whole, continued) = completion(&self.phrases, lex, text);
        whole && !continued
    }

    /// Every distinct word of the grammar (to check against a model).
    #[must_use]
    pub fn words(&self) -> BTreeSet<String> {
        self.phrases
            .iter()
            .flat_map(|p| p.words.iter().cloned())
            .collect()
    }
}

/// A legal move the player may have meant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// Strict notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The captured squares in capture order (empty for a quiet move).
    pub captured: Vec<u8>,
    /// Match cost (0 = exact).
    pub cost: f64,
}

/// Why a spoken move is not legal: a code for programs, one per
/// [`ResolveError`] of the rules engine (what the player hears is the
/// phrasebook's wording of that error, [`Announcer::on_rejected`]).
///
/// [`Announcer::on_rejected`]: crate::Announcer::on_rejected
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum IllegalReason {
    /// No piece stands on the start square.
    NoPiece,
    /// The piece there belongs to the opponent.
    NotYourPiece,
    /// A capture is compulsory (001 ch. I 4.2) and this move does not capture.
    CaptureCompulsory,
    /// The largest capture must be taken (001 ch. I 4.13).
    NotLargestCapture,
    /// A man does not move backwards without capturing (001 ch. I 3.4).
    WrongDirection,
    /// The end square is occupied.
    Occupied,
    /// The piece cannot get there.
    Unreachable,
    /// The captured squares named fit no capture with that start and end.
    NoSuchRoute,
    /// The squares do not make a move on this board.
    BadSquare,
    /// The game is over: there are no moves.
    NoMoves,
}

impl IllegalReason {
    /// The code of a rules-engine refusal.
    #[must_use]
    pub fn of(e: &ResolveError) -> IllegalReason {
        match e {
            ResolveError::NoMoves => IllegalReason::NoMoves,
            ResolveError::NoPiece { .. } => IllegalReason::NoPiece,
            ResolveError::NotYourPiece { .. } => IllegalReason::NotYourPiece,
            ResolveError::CaptureCompulsory { .. } => IllegalReason::CaptureCompulsory,
            ResolveError::NotLargestCapture { .. } => IllegalReason::NotLargestCapture,
            ResolveError::WrongDirection { .. } => IllegalReason::WrongDirection,
            ResolveError::Occupied { .. } => IllegalReason::Occupied,
            ResolveError::Unreachable { .. } => IllegalReason::Unreachable,
            ResolveError::NoSuchRoute { .. } | ResolveError::Ambiguous { .. } => {
                IllegalReason::NoSuchRoute
            }
            // Syntax, and any reason the rules engine adds later.
            _ => IllegalReason::BadSquare,
        }
    }
}

/// What tandem understood from what was heard.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Heard {
    /// A legal move.
    Move {
        /// Strict notation (`32-28`).
        #[serde(rename = "move")]
        notation: String,
        /// Captured squares in capture order.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        captured: Vec<u8>,
        /// 0..1: the recognizer's confidence times how well the phrase matched.
        confidence: f64,
        /// What the recognizer returned.
        transcript: String,
        /// The move itself.
        #[serde(skip)]
        mv: Move,
    },
    /// A command.
    Command {
        /// Which.
        command: CommandKind,
        /// The square of `square N`.
        #[serde(skip_serializing_if = "Option::is_none")]
        square: Option<u8>,
        /// 0..1, as for moves.
        confidence: f64,
        /// What the recognizer returned.
        transcript: String,
    },
    /// Several legal moves (or meanings) fit about equally well: ask which.
    Ambiguous {
        /// The moves, best first.
        candidates: Vec<Candidate>,
        /// What the recognizer returned.
        transcript: String,
        /// The candidate moves themselves, best first (for
        /// [`ResolveError::Ambiguous`] and the announcer's question).
        #[serde(skip)]
        moves: Vec<Move>,
    },
    /// The words name a move that is not legal here. Never played.
    Illegal {
        /// Start square as spoken (its number).
        from: u8,
        /// End square as spoken (its number).
        to: u8,
        /// The squares heard, as a move text for the rules engine
        /// (`32-26`, `c3-e5`).
        text: String,
        /// Why it is not legal.
        reason: IllegalReason,
        /// The reason in the phrasebook's words, as the announcer says it
        /// ([`Announcer::on_rejected`](crate::Announcer::on_rejected)).
        message: String,
        /// What the recognizer returned.
        transcript: String,
        /// The rules engine's refusal, for the announcer.
        #[serde(skip)]
        error: ResolveError,
    },
    /// Nothing understood clearly: ask the player to repeat.
    Unknown {
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

impl Heard {
    /// How it stands among an utterance's n-best: a move, a command or an
    /// ambiguity wins; a question is passed over.
    fn fit(&self) -> crate::listen::grammar::Fit {
        use crate::listen::grammar::Fit;
        match self {
            Heard::Move { .. } | Heard::Command { .. } | Heard::Ambiguous { .. } => Fit::Wins,
            Heard::Illegal { .. } => Fit::Illegal,
            Heard::Unknown { .. } => Fit::Unknown,
            Heard::Query { .. } => Fit::Other,
        }
    }

    /// The confidence of a move or command (0 for the others).
    #[must_use]
    pub fn confidence(&self) -> f64 {
        match self {
            Heard::Move { confidence, .. }
            | Heard::Command { confidence, .. }
            | Heard::Query { confidence, .. } => *confidence,
            _ => 0.0,
        }
    }

    /// Whether the daemon must read this back and wait for yes/no before
    /// acting. Resigning and offering a draw cannot be taken back, so they
    /// are always confirmed; yes/no/cancel/repeat and read-outs never are.
    /// Ambiguous, illegal and unknown results are never acted on at all.
    #[must_use]
    pub fn needs_confirmation(&self, policy: ConfirmPolicy) -> bool {
        match self {
            Heard::Move { confidence, .. } => policy.reads_back(*confidence),
            Heard::Command {
                command: CommandKind::Resign | CommandKind::Draw | CommandKind::ClaimDraw,
                ..
            } => true,
            Heard::Command {
                command: CommandKind::Done,
                confidence,
                ..
            } => policy.reads_back(*confidence),
            _ => false,
        }
    }

    /// The transcript this came from.
    #[must_use]
    pub fn transcript(&self) -> &str {
        match self {
            Heard::Move { transcript, .. }
            | Heard::Command { transcript, .. }
            | Heard::Ambiguous { transcript, .. }
            | Heard::Illegal { transcript, .. }
            | Heard::Query { transcript, .. }
            | Heard::Unknown { transcript } => transcript,
        }
    }
}

impl From<CommandHeard> for Heard {
    fn from(h: CommandHeard) -> Heard {
        match h {
            CommandHeard::Command {
                command,
                square,
                confidence,
                transcript,
            } => Heard::Command {
                command,
                square,
                confidence,
                transcript,
            },
            CommandHeard::Query {
                query,
                confidence,
                transcript,
            } => Heard::Query {
                query,
                confidence,
                transcript,
            },
        }
    }
}

/// Turns squares written in a transcript into the lexicon's words ("32 28"
/// is understood like "trzydzieści dwa dwadzieścia osiem", "c3 d4" like
/// "ce trzy de cztery"), so typed text and recognizers that write digits
/// work too. In 64-square draughts a digit after a file word is a rank.
fn normalize(text: &str, lex: &Lexicon, v: Variant) -> Words {
    let mut out: Words = Vec::new();
    let is_file = |w: &str| (0..8).any(|i| lex.file(i).iter().any(|f| f.len() == 1 && f[0] == w));
    for w in words_of(text) {
        let after_file = v.algebraic_notation() && out.last().is_some_and(|p| is_file(p));
        let rank = w
            .parse::<u8>()
            .ok()
            .filter(|r| after_file && (1..=v.size()).contains(r));
        let form = match rank {
            Some(r) => lex.number(r).first().cloned(),
            None => v
                .parse_square(&w)
                .and_then(|sq| lex.square(v, sq).into_iter().next()),
        };
        match form {
            Some(f) if w.chars().any(|c| c.is_ascii_digit()) => out.extend(f),
            _ => out.push(w),
        }
    }
    out
}

/// Understands the recognizer's n-best transcripts in `grammar`'s position.
/// Alternatives are tried best first; the first that yields a move, a
/// command or an ambiguity wins. An illegal move is reported only when no
/// alternative fits a legal one.
#[must_use]
pub fn understand(
    pos: &Position,
    grammar: &Grammar,
    lex: &Lexicon,
    transcripts: &[Transcript],
) -> Heard {
    let heards = transcripts
        .iter()
        .map(|t| understand_one(pos, grammar, lex, t));
    let unknown = Heard::Unknown {
        transcript: String::new(),
    };
    crate::listen::grammar::first_fit(heards, Heard::fit, unknown)
}

fn understand_one(pos: &Position, grammar: &Grammar, lex: &Lexicon, t: &Transcript) -> Heard {
    let transcript = t.text.clone();
    let heard: Words = normalize(&t.text, lex, pos.variant())
        .into_iter()
        .filter(|w| w != "[unk]")
        .collect();
    let heard = lex.tokens(&heard);
    if heard.is_empty() {
        return Heard::Unknown { transcript };
    }
    let costs = Costs::new(lex);
    // Best cost per meaning.
    let best = rank(&grammar.phrases, &costs, &heard);
    let Some(&(meaning, cost)) = best.first().filter(|(_, c)| *c <= MAX_COST) else {
        return illegal_or_unknown(pos, lex, &heard, transcript);
    };
    let rivals: Vec<(Meaning, f32)> = best
        .iter()
        .copied()
        .filter(|(_, c)| *c - cost < TIE_WINDOW)
        .collect();
    let confidence = confidence(t.confidence, cost);
    if rivals.len() > 1 {
        let candidates = rivals
            .iter()
            .filter_map(|(m, c)| match m {
                Meaning::Move(i) => Some(Candidate {
                    notation: grammar.notations[*i].clone(),
                    captured: grammar.moves[*i].captured().map(|s| s.number()).collect(),
                    cost: round2(f64::from(*c)),
                }),
                Meaning::Command(..) => None,
            })
            .collect::<Vec<_>>();
        if candidates.is_empty() {
            // Two commands tie: nothing sensible to offer; ask to repeat.
            return Heard::Unknown { transcript };
        }
        let moves = rivals
            .iter()
            .filter_map(|(m, _)| match m {
                Meaning::Move(i) => Some(grammar.moves[*i]),
                Meaning::Command(..) => None,
            })
            .collect();
        return Heard::Ambiguous {
            candidates,
            transcript,
            moves,
        };
    }
    match meaning {
        Meaning::Move(i) => {
            let mv = grammar.moves[i];
            Heard::Move {
                notation: grammar.notations[i].clone(),
                captured: mv.captured().map(|s| s.number()).collect(),
                confidence,
                transcript,
                mv,
            }
        }
        Meaning::Command(command, square) => Heard::Command {
            command,
            square,
            confidence,
            transcript,
        },
    }
}

/// Reads the squares in the words (exact square words, other words
/// skipped) and asks the rules engine about them as a move text: if they name
/// a move that is not legal, the reason is the engine's ([`resolve`]), in the
/// phrasebook's words, exactly as `tandem say` and the daemon give it.
fn illegal_or_unknown(
    pos: &Position,
    lex: &Lexicon,
    heard: &[String],
    transcript: String,
) -> Heard {
    let variant = pos.variant();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < heard.len() {
        if let Some((sq, len)) = lex.read_square(variant, &heard[i..]) {
            squares.push(sq);
            i += len;
        } else {
            i += 1;
        }
    }
    // At least a start and an end square; otherwise the words are too
    // garbled to say which move was meant.
    let [first, _, ..] = squares[..] else {
        return Heard::Unknown { transcript };
    };
    // Spoken: start, end, then the captured squares ("piętnaście bije
    // cztery zbijając ..."); as a move text: start, captured squares, end.
    let mut ordered = vec![first];
    ordered.extend_from_slice(&squares[2..]);
    ordered.push(squares[1]);
    let last = squares[1];
    let text = ordered
        .iter()
        .map(|&s| variant.square_name(s))
        .collect::<Vec<_>>()
        .join("-");
    match resolve(pos, &text) {
        // The squares name a legal move (or several), but the words around
        // them matched no phrasing closely enough: nothing is played on a
        // guess, the player is asked to repeat.
        Ok(_) | Err(ResolveError::Ambiguous { .. }) => Heard::Unknown { transcript },
        Err(error) => Heard::Illegal {
            from: first.number(),
            to: last.number(),
            reason: IllegalReason::of(&error),
            message: lex.announcer().on_rejected(pos, &text, &error).text(),
            text,
            transcript,
            error,
        },
    }
}

#[cfg(test)]
mod tests;
