//! Chess by voice (002 annex E.2): from a position's LEGAL moves to the ways
//! players say them, and from a transcript back to a move (pure, table-tested).
//!
//! Phrasings built for every legal move, with the squares as the chess
//! phrasebook names them (annex names "Ewa cztery", letters "e cztery", or
//! the extra file words of `[listen] file_words`) and the pieces by their
//! names (`[pieces.nominative]`, `[listen] piece_words`):
//!
//! | said | example |
//! | --- | --- |
//! | start and end square | "Ewa dwa Ewa cztery", "e2 e4", "e dwa na e cztery" |
//! | piece, start, end | "skoczek Gustaw jeden Feliks trzy", "knight g one to f three" |
//! | piece and end (SAN) | "skoczek f trzy", "knight f three", "e cztery" (a pawn) |
//! | a capture | "Dawid bije Ewa pięć", "pion Dawid cztery bije Ewa pięć", "goniec bije Cesar sześć" |
//! | castling | "krótka roszada", "długa roszada", "short castling", or the king's squares |
//! | promotion | any of the above, then "zamiana na hetmana" / "hetman" / "promotes to queen" |
//!
//! The transcript is compared with every phrasing by the weighted edit
//! distance of [`crate::listen::matcher`] (square words, piece names and
//! "krótka"/"długa" are costly to change, connectives cheap). A move is
//! reported only when it is clearly the best; several about equally good
//! (two knights that can go to d2, a promotion with no piece named) give
//! [`ChessHeard::Ambiguous`] with the question to ask ("Który skoczek: Bella
//! jeden czy Feliks trzy?"). Squares heard that make no legal move give
//! [`ChessHeard::Illegal`] with the rules engine's reason in the player's words.
//!
//! Typed or recognizer-written notation (`e2e4`, `Nf3`, `O-O`) is read by
//! [`tandem_rules::chess::resolve`] first.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tandem_rules::chess::shakmaty::{Chess, File, Rank, Role, Square};
use tandem_rules::chess::{resolve, san, ChessError, ChessGame, ChessMove, ChessOptions};

use crate::announcer::Announcer;
use crate::chess::{ChessAnnouncer, ChessPhrasebook, FileStyle};
use crate::listen::grammar::{CommandGrammar, CommandHeard, ConfirmPolicy, Fit};
use crate::listen::lexicon::{fold, words_of, CommandKind, Lexicon, Words};
use crate::listen::listener::{command_phrase, Action, Decision, ListenGame, Understood};
use crate::listen::matcher::{Costs, MAX_COST, TIE_WINDOW};
use crate::listen::Transcript;
use crate::phrasebook::{Phrasebook, Value};
use crate::utterance::{Kind, Priority, Utterance};

/// The commands of a chess `--phrasebook` file are read as every game's
/// (kept here too for the callers that name chess's).
pub use crate::listen::command_words;

/// What was understood from a spoken or typed chess move.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ChessHeard {
    /// A legal move.
    Move {
        /// SAN (`Nf3`).
        #[serde(rename = "move")]
        san: String,
        /// UCI (`g1f3`).
        uci: String,
        /// 0..1: the recognizer's confidence times how well the phrase matched.
        confidence: f64,
        /// What the recognizer returned.
        transcript: String,
        /// The move.
        #[serde(skip)]
        mv: ChessMove,
    },
    /// Several legal moves fit about equally well: ask `question`.
    Ambiguous {
        /// The candidates in SAN, best first.
        candidates: Vec<String>,
        /// The question in the phrasebook's words ("Który skoczek: …?").
        question: String,
        /// What the recognizer returned.
        transcript: String,
        /// The candidate moves.
        #[serde(skip)]
        moves: Vec<ChessMove>,
    },
    /// The words name a move that is not legal here. Never played.
    Illegal {
        /// The squares heard as move text (`e2e5`).
        text: String,
        /// Why, in the phrasebook's words.
        message: String,
        /// What the recognizer returned.
        transcript: String,
        /// The rules engine's refusal.
        #[serde(skip)]
        error: ChessError,
    },
    /// Nothing understood clearly: ask the player to repeat.
    Unknown {
        /// What the recognizer returned.
        transcript: String,
    },
}

impl ChessHeard {
    /// How it stands among an utterance's n-best: a move or an ambiguity
    /// wins.
    fn fit(&self) -> Fit {
        match self {
            ChessHeard::Move { .. } | ChessHeard::Ambiguous { .. } => Fit::Wins,
            ChessHeard::Illegal { .. } => Fit::Illegal,
            ChessHeard::Unknown { .. } => Fit::Unknown,
        }
    }
}

/// The listening words of a chess phrasebook, canonicalised: every way of
/// saying a file becomes the file's annex name, every way of saying a piece
/// its nominative name, digits become rank words.
#[derive(Debug, Clone)]
pub struct ChessLexicon {
    book: ChessPhrasebook,
    /// The table's words of the same language: its number words and
    /// mis-hearings feed the matcher's costs.
    base: Lexicon,
    files: [String; 8],
    ranks: [String; 8],
    pieces: BTreeMap<Role, String>,
    canonical: BTreeMap<String, String>,
    takes: Vec<Words>,
    to: Vec<Words>,
    promote: Vec<Words>,
    short_castle: Vec<Words>,
    long_castle: Vec<Words>,
}

use tandem_rules::chess::ROLES;

fn one_word(w: &str) -> String {
    words_of(w).join(" ")
}

impl ChessLexicon {
    /// The lexicon of a chess phrasebook.
    #[must_use]
    pub fn new(book: &ChessPhrasebook) -> ChessLexicon {
        let base = Lexicon::from_phrasebook(
            &Phrasebook::builtin(book.language()).unwrap_or_else(Phrasebook::english),
        );
        let mut canonical = BTreeMap::new();
        let files: [String; 8] =
            std::array::from_fn(|i| one_word(book.file_word(i, FileStyle::Names)));
        let ranks: [String; 8] = std::array::from_fn(|i| one_word(book.rank_word(i)));
        for (i, name) in files.iter().enumerate() {
            let letter = one_word(book.file_word(i, FileStyle::Letters));
            canonical.insert(letter, name.clone());
            for w in &book.listen().file_words[i] {
                canonical.insert(one_word(w), name.clone());
            }
            canonical.insert(((b'a' + i as u8) as char).to_string(), name.clone());
        }
        for (i, r) in ranks.iter().enumerate() {
            canonical.insert((i + 1).to_string(), r.clone());
        }
        let mut pieces = BTreeMap::new();
        for role in ROLES {
            let name = one_word(book.piece("nominative", role));
            canonical.insert(one_word(book.piece("accusative", role)), name.clone());
            if let Some(extra) = book.listen().piece_words.get(crate::chess::role_key(role)) {
                for w in extra {
                    canonical.insert(one_word(w), name.clone());
                }
            }
            pieces.insert(role, name);
        }
        // Canonical words map to themselves, whatever the extras said.
        for w in files.iter().chain(&ranks).chain(pieces.values()) {
            canonical.insert(w.clone(), w.clone());
        }
        let list = |v: &[String]| -> Vec<Words> {
            let mut out: Vec<Words> = Vec::new();
            for w in v {
                let ws = words_of(w);
                if !ws.is_empty() && !out.contains(&ws) {
                    out.push(ws);
                }
            }
            out
        };
        let l = book.listen();
        let mut lex = ChessLexicon {
            book: book.clone(),
            base,
            files,
            ranks,
            pieces,
            canonical,
            takes: list(&l.takes),
            to: list(&l.to),
            promote: list(&l.promote),
            short_castle: list(&l.short_castle),
            long_castle: list(&l.long_castle),
        };
        // The link words in the canonical form heard words are put in: the
        // English "promotes to a" is heard as "promotes to anna", the
        // letter a being the file's (the round trip of issue 43 found it).
        let canon = |lex: &ChessLexicon, v: &[Words]| -> Vec<Words> {
            v.iter().map(|w| lex.normalize(&w.join(" "))).collect()
        };
        lex.takes = canon(&lex, &lex.takes);
        lex.to = canon(&lex, &lex.to);
        lex.promote = canon(&lex, &lex.promote);
        lex.short_castle = canon(&lex, &lex.short_castle);
        lex.long_castle = canon(&lex, &lex.long_castle);
        lex
    }

    /// The chess phrasebook.
    #[must_use]
    pub fn phrasebook(&self) -> &ChessPhrasebook {
        &self.book
    }

    fn square(&self, sq: Square) -> Words {
        let mut w = words_of(&self.files[usize::from(sq.file())]);
        w.extend(words_of(&self.ranks[usize::from(sq.rank())]));
        w
    }

    fn piece(&self, role: Role) -> Words {
        words_of(self.pieces.get(&role).map_or("", String::as_str))
    }

    /// The words of the files, the ranks and the pieces.
    fn board_words(&self) -> impl Iterator<Item = String> + '_ {
        self.files
            .iter()
            .chain(&self.ranks)
            .chain(self.pieces.values())
            .flat_map(|w| words_of(w))
    }

    /// The words that carry meaning: files, ranks, pieces, the castling words
    /// that tell the sides apart.
    fn key_words(&self) -> Vec<String> {
        let mut v: Vec<String> = self.board_words().collect();
        // "krótka" and "długa": the words in which the castling phrases differ.
        let short: BTreeSet<String> = self.short_castle.iter().flatten().cloned().collect();
        let long: BTreeSet<String> = self.long_castle.iter().flatten().cloned().collect();
        v.extend(short.symmetric_difference(&long).cloned());
        v
    }

    /// Heard words in canonical form: "e2" is "ewa dwa", "bé" is "bella",
    /// "hetmana" is "hetman".
    #[must_use]
    pub fn normalize(&self, text: &str) -> Words {
        let mut out = Words::new();
        for w in words_of(text) {
            let c: Vec<char> = w.chars().collect();
            if c.len() == 2 && File::from_char(c[0]).is_some() && Rank::from_char(c[1]).is_some() {
                for part in [c[0].to_string(), c[1].to_string()] {
                    out.push(self.canonical.get(&part).cloned().unwrap_or(part));
                }
                continue;
            }
            match self.canonical.get(&w) {
                Some(canon) => out.extend(words_of(canon)),
                None => out.push(w),
            }
        }
        out
    }
}

/// One phrasing and the legal move it means.
#[derive(Debug, Clone)]
struct Phrase {
    words: Words,
    mv: usize,
}

/// Every phrasing of every legal move in one position.
#[derive(Debug, Clone)]
pub struct ChessGrammar {
    /// The position.
    pub position: Chess,
    /// The legal moves.
    pub moves: Vec<ChessMove>,
    phrases: Vec<Phrase>,
}

fn cross(prefixes: &[Words], forms: &[Words]) -> Vec<Words> {
    let mut out = Vec::new();
    for p in prefixes {
        for f in forms {
            out.push(p.iter().chain(f).cloned().collect());
        }
    }
    out
}

impl ChessGrammar {
    /// The phrasings of the legal moves of `pos` (see the module docs).
    #[must_use]
    pub fn build(pos: &Chess, lex: &ChessLexicon) -> ChessGrammar {
        let moves = ChessGame::from_position(pos.clone(), ChessOptions::default()).legal_moves();
        let mut phrases = Vec::new();
        let empty: Vec<Words> = vec![Vec::new()];
        for (i, m) in moves.iter().enumerate() {
            let from = lex.square(m.from);
            let to = lex.square(m.to);
            let piece = lex.piece(m.role);
            let link: Vec<Words> = if m.is_capture() {
                lex.takes
                    .iter()
                    .chain(&lex.to)
                    .cloned()
                    .chain([Vec::new()])
                    .collect()
            } else {
                lex.to.iter().cloned().chain([Vec::new()]).collect()
            };
            let mut bodies: Vec<Words> = Vec::new();
            // Start and end square, with or without the piece.
            for lead in [Vec::new(), piece.clone()] {
                let head: Vec<Words> = vec![lead.iter().chain(&from).cloned().collect()];
                bodies.extend(cross(&cross(&head, &link), std::slice::from_ref(&to)));
            }
            // Piece and end square (SAN); a pawn by its end square alone, or
            // by its file when it captures ("Dawid bije Ewa pięć").
            if m.role == Role::Pawn {
                if m.is_capture() {
                    let file = words_of(&lex.files[usize::from(m.from.file())]);
                    bodies.extend(cross(&cross(&[file], &link), std::slice::from_ref(&to)));
                } else {
                    bodies.push(to.clone());
                }
            }
            let short_link: Vec<Words> = if m.is_capture() {
                lex.takes.iter().cloned().chain([Vec::new()]).collect()
            } else {
                empty.clone()
            };
            bodies.extend(cross(
                &cross(std::slice::from_ref(&piece), &short_link),
                std::slice::from_ref(&to),
            ));
            // Castling by name.
            if let Some(side) = m.castling() {
                let names = match side {
                    tandem_rules::chess::shakmaty::CastlingSide::KingSide => &lex.short_castle,
                    tandem_rules::chess::shakmaty::CastlingSide::QueenSide => &lex.long_castle,
                };
                bodies.extend(names.iter().cloned());
            }
            // The promotion piece after any of them, or nothing (then the
            // four promotions tie and the player is asked).
            let tails: Vec<Words> = match m.promotion {
                Some(p) => {
                    let pw = lex.piece(p);
                    let mut t = vec![Vec::new(), pw.clone()];
                    t.extend(cross(&lex.promote, &[pw]));
                    t
                }
                None => empty.clone(),
            };
            for words in cross(&bodies, &tails) {
                phrases.push(Phrase { words, mv: i });
            }
        }
        ChessGrammar {
            position: pos.clone(),
            moves,
            phrases,
        }
    }

    /// The phrases as text, for a recognizer's grammar.
    #[must_use]
    pub fn recognizer_phrases(&self) -> Vec<String> {
        let set: BTreeSet<String> = self.phrases.iter().map(|p| p.words.join(" ")).collect();
        set.into_iter().collect()
    }

    /// Whether `text` (a recognizer's words) is one whole phrasing of a
    /// legal move that no longer phrasing continues ("e7 e8" may go on with
    /// the promotion piece): the utterance may end without waiting out the
    /// full silence. Illegal moves are not phrases here: they wait.
    #[must_use]
    pub fn is_complete(&self, lex: &ChessLexicon, text: &str) -> bool {
        let (whole, continued) = self.completion(lex, text);
        whole && !continued
    }

    /// (`text` is a whole phrasing, a longer phrasing starts with it).
    fn completion(&self, lex: &ChessLexicon, text: &str) -> (bool, bool) {
        let words = lex.normalize(text);
        if words.is_empty() {
            return (false, false);
        }
        let mut whole = false;
        for p in &self.phrases {
            if p.words.len() > words.len() && p.words.starts_with(&words) {
                return (whole, true);
            }
            whole |= p.words == words;
        }
        (whole, false)
    }

    /// How many phrasings.
    #[must_use]
    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    /// Whether there are none (no legal move).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Understands a transcript (n-best, best first) in `pos`: see the module docs.
///
/// ```
/// use tandem_speech::chess::ChessPhrasebook;
/// use tandem_speech::chess::listen::{understand_chess, ChessHeard, ChessLexicon};
/// use tandem_speech::listen::Transcript;
/// let lex = ChessLexicon::new(&ChessPhrasebook::polish());
/// let pos = tandem_rules::chess::start();
/// match understand_chess(&lex, &pos, &[Transcript::text("skoczek Feliks trzy")]) {
///     ChessHeard::Move { san, .. } => assert_eq!(san, "Nf3"),
///     other => panic!("{other:?}"),
/// }
/// ```
#[must_use]
pub fn understand_chess(lex: &ChessLexicon, pos: &Chess, transcripts: &[Transcript]) -> ChessHeard {
    let grammar = ChessGrammar::build(pos, lex);
    understand_in(&grammar, lex, transcripts)
}

/// As [`understand_chess`] with a grammar built beforehand (the daemon keeps
/// one per position).
#[must_use]
pub fn understand_in(
    grammar: &ChessGrammar,
    lex: &ChessLexicon,
    transcripts: &[Transcript],
) -> ChessHeard {
    let heards = transcripts.iter().map(|t| understand_one(grammar, lex, t));
    let unknown = ChessHeard::Unknown {
        transcript: String::new(),
    };
    crate::listen::grammar::first_fit(heards, ChessHeard::fit, unknown)
}

fn announcer(lex: &ChessLexicon) -> ChessAnnouncer {
    ChessAnnouncer::new(lex.book.clone(), FileStyle::Names)
}

fn ambiguous(
    grammar: &ChessGrammar,
    lex: &ChessLexicon,
    moves: Vec<ChessMove>,
    transcript: String,
) -> ChessHeard {
    ChessHeard::Ambiguous {
        candidates: moves.iter().map(|m| san(&grammar.position, m)).collect(),
        question: announcer(lex).ask_which(&moves).text(),
        transcript,
        moves,
    }
}

fn looks_like_notation(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.split_whitespace().count() <= 2
        && t.chars().any(|c| c.is_ascii_digit() || c == '-')
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-=+#x: ".contains(c))
}

fn understand_one(grammar: &ChessGrammar, lex: &ChessLexicon, t: &Transcript) -> ChessHeard {
    let transcript = t.text.clone();
    let conf = f64::from(t.confidence.clamp(0.0, 1.0));
    // Notation as typed or written by a recognizer: the rules engine reads it.
    if looks_like_notation(&t.text) {
        match resolve(&grammar.position, &t.text) {
            Ok(mv) => {
                return ChessHeard::Move {
                    san: san(&grammar.position, &mv),
                    uci: mv.uci(),
                    confidence: round2(conf),
                    transcript,
                    mv,
                }
            }
            Err(ChessError::Ambiguous { candidates, .. }) => {
                return ambiguous(grammar, lex, candidates, transcript)
            }
            Err(e @ ChessError::Illegal { .. }) => {
                return ChessHeard::Illegal {
                    text: t.text.trim().to_owned(),
                    message: announcer(lex).on_rejected(&t.text, &e).text(),
                    transcript,
                    error: e,
                }
            }
            Err(_) => {}
        }
    }
    let heard: Words = lex
        .normalize(&t.text)
        .into_iter()
        .filter(|w| w != "[unk]")
        .collect();
    if heard.is_empty() {
        return ChessHeard::Unknown { transcript };
    }
    let costs = Costs::new(&lex.base).with_square_words(lex.key_words());
    let phrasings = grammar.phrases.iter().map(|p| (p.words.as_slice(), p.mv));
    let best = crate::listen::grammar::rank_by(phrasings, &costs, &heard);
    let Some(&(i, cost)) = best.first().filter(|(_, c)| *c <= MAX_COST) else {
        return illegal_or_unknown(grammar, lex, &heard, transcript);
    };
    let rivals: Vec<ChessMove> = best
        .iter()
        .filter(|(_, c)| *c - cost < TIE_WINDOW)
        .map(|(m, _)| grammar.moves[*m])
        .collect();
    if rivals.len() > 1 {
        return ambiguous(grammar, lex, rivals, transcript);
    }
    let mv = grammar.moves[i];
    ChessHeard::Move {
        san: san(&grammar.position, &mv),
        uci: mv.uci(),
        confidence: round2(conf * f64::from(1.0 - cost).max(0.0)),
        transcript,
        mv,
    }
}

/// Squares heard (file word then rank word) that make no legal move: the
/// rules engine says why. Anything else: not understood.
fn illegal_or_unknown(
    grammar: &ChessGrammar,
    lex: &ChessLexicon,
    heard: &[String],
    transcript: String,
) -> ChessHeard {
    let file_of = |w: &str| lex.files.iter().position(|f| fold(f) == fold(w));
    let rank_of = |w: &str| lex.ranks.iter().position(|r| fold(r) == fold(w));
    // Squares are pairs that do not overlap: where file and rank words are
    // the same words (numbers for both, "오 이 오 오"), "e2 e5" is not
    // also read as a "b5" in the middle.
    let mut squares = Vec::new();
    let mut i = 0;
    while i + 1 < heard.len() {
        if let (Some(f), Some(r)) = (file_of(&heard[i]), rank_of(&heard[i + 1])) {
            squares.push(Square::from_coords(
                File::new(f as u32),
                Rank::new(r as u32),
            ));
            i += 2;
        } else {
            i += 1;
        }
    }
    if let [from, to] = squares[..] {
        let text = format!("{from}{to}");
        if let Err(e) = resolve(&grammar.position, &text) {
            return ChessHeard::Illegal {
                message: announcer(lex).on_rejected(&text, &e).text(),
                text,
                transcript,
                error: e,
            };
        }
    }
    ChessHeard::Unknown { transcript }
}

/// The words of chess by voice: the moves of a [`ChessLexicon`] and the
/// shared commands (clock, repeat, yes, no, resign, ...) of a [`Lexicon`]
/// (the phrasebook the table speaks with, or the chess phrasebook's own
/// `[listen.commands]`, [`command_words`]).
/// "Square N" is not listened for in chess (its squares are not numbered).
#[derive(Debug, Clone)]
pub struct ChessWords {
    /// The move words.
    pub moves: ChessLexicon,
    /// The command words.
    pub commands: Lexicon,
}

impl ChessWords {
    /// The words of `book`, with the commands of `commands`.
    #[must_use]
    pub fn new(book: &ChessPhrasebook, mut commands: Lexicon) -> ChessWords {
        commands.commands.remove(&CommandKind::Square);
        // The questions about the board are chess's (`crate::chess::ask`).
        commands.ask = crate::chess::ask::phrases(book);
        ChessWords {
            moves: ChessLexicon::new(book),
            commands,
        }
    }

    /// The chess announcer of these words (the annex's file names).
    #[must_use]
    pub fn announcer(&self) -> ChessAnnouncer {
        announcer(&self.moves)
    }
}

/// Every phrase of one chess position: the legal moves and the commands.
#[derive(Debug, Clone)]
pub struct ChessVoiceGrammar {
    /// The moves.
    pub moves: ChessGrammar,
    /// The commands (the shared ones; "move N" with the plain numbers).
    pub commands: CommandGrammar,
}

/// What was heard in chess: a move (or an ambiguity, an illegal move,
/// nothing) or a command. JSON as [`ChessHeard`] and [`CommandHeard`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ChessSaid {
    /// A move, an ambiguity, an illegal move or nothing clear.
    Chess(ChessHeard),
    /// A command or a question about the board.
    Command(CommandHeard),
}

impl ChessSaid {
    /// What the recognizer returned.
    #[must_use]
    pub fn transcript(&self) -> &str {
        match self {
            ChessSaid::Chess(
                ChessHeard::Move { transcript, .. }
                | ChessHeard::Ambiguous { transcript, .. }
                | ChessHeard::Illegal { transcript, .. }
                | ChessHeard::Unknown { transcript },
            ) => transcript,
            ChessSaid::Command(h) => h.transcript(),
        }
    }

    /// The confidence of a move or a command (0 for the others).
    #[must_use]
    pub fn confidence(&self) -> f64 {
        match self {
            ChessSaid::Chess(ChessHeard::Move { confidence, .. }) => *confidence,
            ChessSaid::Chess(_) => 0.0,
            ChessSaid::Command(h) => h.confidence(),
        }
    }

    /// For the journal: (`kind`, `text`): a move as SAN, an ambiguity as
    /// its candidates' SANs, an illegal move as its squares (`e2e5`), a
    /// command by name.
    #[must_use]
    pub fn fields(&self) -> (&'static str, String) {
        match self {
            ChessSaid::Chess(ChessHeard::Move { san, .. }) => ("move", san.clone()),
            ChessSaid::Chess(ChessHeard::Ambiguous { candidates, .. }) => {
                ("ambiguous", candidates.join(" "))
            }
            ChessSaid::Chess(ChessHeard::Illegal { text, .. }) => ("illegal", text.clone()),
            ChessSaid::Chess(ChessHeard::Unknown { .. }) => ("unknown", String::new()),
            ChessSaid::Command(h) => h.fields(),
        }
    }
}

/// Chess (002 annex E.2) for the [`Listener`](crate::listen::Listener):
/// `Listener::<ChessVoice>::for_game(rec, ChessWords::new(..), policy, mode, position)`.
/// The confirmation flow, the endpointing and the trial end are the shared
/// listener's; only the words, the grammar and the understanding are
/// chess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChessVoice;

impl ListenGame for ChessVoice {
    type Position = Chess;
    type Words = ChessWords;
    type Grammar = ChessVoiceGrammar;
    type Move = ChessMove;
    type Heard = ChessSaid;
    type Refusal = ChessError;

    fn grammar(pos: &Chess, words: &ChessWords) -> ChessVoiceGrammar {
        ChessVoiceGrammar {
            moves: ChessGrammar::build(pos, &words.moves),
            commands: CommandGrammar::build(&words.commands, &words.commands.numbers()),
        }
    }

    fn recognizer_phrases(g: &ChessVoiceGrammar) -> Vec<String> {
        // The commands' list ends with "[unk]".
        let mut v = g.moves.recognizer_phrases();
        v.extend(g.commands.recognizer_phrases());
        v
    }

    fn all_words(words: &ChessWords) -> Vec<String> {
        let l = &words.moves;
        let mut set: BTreeSet<String> = l.board_words().collect();
        for list in [&l.takes, &l.to, &l.promote, &l.short_castle, &l.long_castle] {
            set.extend(list.iter().flatten().cloned());
        }
        set.extend(words.commands.command_words().cloned());
        set.into_iter().collect()
    }

    fn is_complete(g: &ChessVoiceGrammar, words: &ChessWords, text: &str) -> bool {
        let (whole, continued) = g.moves.completion(&words.moves, text);
        if continued {
            return false;
        }
        let (cmd_whole, cmd_continued) = g.commands.completion(&words.commands, text);
        !cmd_continued && (whole || cmd_whole)
    }

    fn understand(
        _pos: &Chess,
        g: &ChessVoiceGrammar,
        words: &ChessWords,
        transcripts: &[Transcript],
    ) -> ChessSaid {
        // A question about the board, said exactly, before any move.
        if let Some(q) = crate::ask::heard(&words.commands.ask, transcripts) {
            return ChessSaid::Command(q);
        }
        let h = understand_in(&g.moves, &words.moves, transcripts);
        if matches!(h, ChessHeard::Move { .. } | ChessHeard::Ambiguous { .. }) {
            return ChessSaid::Chess(h);
        }
        // Not a legal move: a command said clearly wins over squares that
        // make an illegal one.
        match g.commands.understand(&words.commands, transcripts) {
            Some(c) => ChessSaid::Command(c),
            None => ChessSaid::Chess(h),
        }
    }

    fn meaning(heard: &ChessSaid) -> Understood<ChessMove, ChessError> {
        match heard {
            ChessSaid::Chess(ChessHeard::Move { mv, .. }) => Understood::Move(*mv),
            ChessSaid::Chess(ChessHeard::Ambiguous { moves, .. }) => {
                Understood::Ambiguous(moves.clone())
            }
            ChessSaid::Chess(ChessHeard::Illegal { text, error, .. }) => Understood::Illegal {
                text: text.clone(),
                error: error.clone(),
            },
            ChessSaid::Chess(ChessHeard::Unknown { .. }) => Understood::Unknown,
            // No "square N" in chess (ChessWords::new drops it); a move
            // number ("ruch N") comes as the number.
            ChessSaid::Command(CommandHeard::Command {
                command, square, ..
            }) => Understood::Command(*command, *square),
            ChessSaid::Command(CommandHeard::Query { query, .. }) => {
                Understood::Query(query.clone())
            }
        }
    }

    fn needs_confirmation(heard: &ChessSaid, policy: ConfirmPolicy) -> bool {
        match heard {
            ChessSaid::Chess(ChessHeard::Move { confidence, .. }) => match policy {
                ConfirmPolicy::Always => true,
                ConfirmPolicy::BelowConfidence(t) => *confidence < t,
                ConfirmPolicy::Never => false,
            },
            ChessSaid::Chess(_) => false,
            ChessSaid::Command(h) => h.needs_confirmation(policy),
        }
    }

    fn transcript(heard: &ChessSaid) -> &str {
        heard.transcript()
    }

    fn lang(words: &ChessWords) -> &str {
        words.moves.book.language()
    }
}

impl Decision<ChessVoice> {
    /// What tandem says for the actions the listener answers itself, in
    /// `pos` (the position the listener had): the read-back "pion Ewa dwa,
    /// Ewa cztery, tak?" (the chess phrasebook's move words in the table's
    /// `move.confirm`), "cancelled", the which-piece question ("Który
    /// skoczek: Bella jeden czy Feliks trzy?"), the refusal with the reason,
    /// "say again". `None` for [`Action::Play`] and [`Action::Command`].
    #[must_use]
    pub fn reply(
        &self,
        pos: &Chess,
        announcer: &Announcer,
        words: &ChessWords,
    ) -> Option<Utterance> {
        let chess = words.announcer();
        match &self.action {
            Action::Play(_) | Action::Command(..) => None,
            Action::ConfirmMove(m) => Some(announcer.message(
                "move.confirm",
                &[("move", Value::Text(readback_words(&chess, pos, m)))],
                Priority::Next,
                Kind::Confirm,
            )),
            Action::ConfirmCommand(c) => Some(announcer.message(
                "move.confirm",
                &[("move", Value::Text(command_phrase(&words.commands, *c)))],
                Priority::Next,
                Kind::Confirm,
            )),
            Action::Cancelled => Some(announcer.cancelled()),
            Action::AskWhich(moves) => Some(chess.ask_which(moves)),
            Action::Refuse { text, error } => Some(chess.on_rejected(text, error)),
            // Action is non-exhaustive: anything else asks to repeat.
            _ => Some(announcer.not_understood()),
        }
    }
}

/// A move as read back: its first sentence and the promotion, without the
/// full stops ("pion Ewa siedem, Ewa osiem, zamiana na hetmana").
#[must_use]
pub fn readback_words(chess: &ChessAnnouncer, pos: &Chess, m: &ChessMove) -> String {
    let s = chess.move_sentences(pos, m);
    let mut parts: Vec<&str> = s.first().map(String::as_str).into_iter().collect();
    if m.promotion.is_some() {
        parts.extend(s.last().map(String::as_str));
    }
    parts
        .iter()
        .map(|p| p.trim().trim_end_matches(['.', '!', '?']).trim())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_maps_every_spelling_to_the_annex_names() {
        let lex = ChessLexicon::new(&ChessPhrasebook::polish());
        assert_eq!(lex.normalize("e2 e4"), ["ewa", "dwa", "ewa", "cztery"]);
        assert_eq!(lex.normalize("Cezar 3"), ["cesar", "trzy"]);
        assert_eq!(
            lex.normalize("zamiana na hetmana"),
            ["zamiana", "na", "hetman"]
        );
    }
}
