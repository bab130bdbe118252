//! The words tandem listens for, per language, taken from the speech
//! [`Phrasebook`]: the same TOML file gives what tandem says and what it
//! hears, so a language is added in one file (`--phrasebook FILE` for both
//! `tandem say` and `tandem hear`).
//!
//! [`Lexicon::from_phrasebook`] reads:
//!
//! | phrasebook | listener |
//! | --- | --- |
//! | `[numbers] cardinal` ([`Phrasebook::square_words`]) | square numbers 1-50, ranks 1-8 |
//! | `[numbers] genitive` ([`Phrasebook::genitive_numbers`]) | the start square after "z" |
//! | `[squares] letters`, `letter_names` ([`Phrasebook::file_words`]), `[listen.files]` | files a-h of 64-square draughts |
//! | `[listen] to`, `takes`, `from`, `taking` | how moves and captures are phrased |
//! | `[listen.commands]` | the commands |
//! | `[listen] mishearings` | typical mis-hearings with their costs |
//! | `[listen] match` | word or syllable matching |
//!
//! Phrasings built from the connectives: a move is "{from} {to}",
//! "{from} <to> {to}" and "<from> {from-genitive} <to> {to}"; a capture also
//! "{from} <takes> {to}", optionally followed by "<taking>" (or nothing) and
//! the captured squares in capture order.

pub use super::words::{fold, words_of, Words};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use tandem_rules::draughts::{Square, Variant};

use crate::announcer::{AnnounceOptions, Announcer};
use crate::phrasebook::{CommandWord, Phrasebook, PhrasebookError, SquareStyle};

/// One way of saying something: a sequence of slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// A fixed word ("na", "takes").
    Word(String),
    /// The start square, nominative.
    From,
    /// The start square in the form used after "from" (Polish genitive).
    FromGen,
    /// The end square.
    To,
    /// A square named in a command ("pole {n}").
    N,
}

/// A phrase template such as `z {from-gen} na {to}`.
pub type Template = Vec<Slot>;

/// The commands a player can speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum CommandKind {
    /// Read the clock (001 ch. VIII 5.1).
    Clock,
    /// Read the position.
    Position,
    /// Repeat the last move.
    LastMove,
    /// Repeat the last message.
    Repeat,
    /// Say what stands on square N.
    Square,
    /// The other board has been brought up to date.
    Done,
    /// Confirm.
    Yes,
    /// Deny.
    No,
    /// Offer or accept a draw.
    Draw,
    /// Resign the game.
    Resign,
    /// List what can be said.
    Help,
    /// Cancel what is being entered.
    Cancel,
    /// Chess: claim a draw (002 art. 9.2, 9.3).
    ClaimDraw,
    /// Read the last moves of the record.
    Record,
    /// Read the record from move N.
    RecordFrom,
    /// Read move N and open the review there.
    MoveNumber,
    /// The review one move on.
    Next,
    /// The review one move back.
    Back,
    /// Close the review.
    Live,
}

impl CommandKind {
    /// Every command.
    pub const ALL: [CommandKind; 19] = [
        CommandKind::Clock,
        CommandKind::Position,
        CommandKind::LastMove,
        CommandKind::Repeat,
        CommandKind::Square,
        CommandKind::Done,
        CommandKind::Yes,
        CommandKind::No,
        CommandKind::Draw,
        CommandKind::Resign,
        CommandKind::Help,
        CommandKind::Cancel,
        CommandKind::ClaimDraw,
        CommandKind::Record,
        CommandKind::RecordFrom,
        CommandKind::MoveNumber,
        CommandKind::Next,
        CommandKind::Back,
        CommandKind::Live,
    ];

    /// Whether the command is followed by a number (a square, a move number).
    #[must_use]
    pub fn takes_number(self) -> bool {
        matches!(
            self,
            CommandKind::Square | CommandKind::RecordFrom | CommandKind::MoveNumber
        )
    }

    /// The name used in data files and JSON (`last-move`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CommandKind::Clock => "clock",
            CommandKind::Position => "position",
            CommandKind::LastMove => "last-move",
            CommandKind::Repeat => "repeat",
            CommandKind::Square => "square",
            CommandKind::Done => "done",
            CommandKind::Yes => "yes",
            CommandKind::No => "no",
            CommandKind::Draw => "draw",
            CommandKind::Resign => "resign",
            CommandKind::Help => "help",
            CommandKind::Cancel => "cancel",
            CommandKind::ClaimDraw => "claim-draw",
            CommandKind::Record => "record",
            CommandKind::RecordFrom => "record-from",
            CommandKind::MoveNumber => "move-number",
            CommandKind::Next => "next",
            CommandKind::Back => "back",
            CommandKind::Live => "live",
        }
    }

    /// The command a phrasebook's `[listen.commands]` key stands for.
    #[must_use]
    pub fn from_word(w: CommandWord) -> CommandKind {
        match w {
            CommandWord::Clock => CommandKind::Clock,
            CommandWord::Position => CommandKind::Position,
            CommandWord::LastMove => CommandKind::LastMove,
            CommandWord::Repeat => CommandKind::Repeat,
            CommandWord::Square => CommandKind::Square,
            CommandWord::Done => CommandKind::Done,
            CommandWord::Yes => CommandKind::Yes,
            CommandWord::No => CommandKind::No,
            CommandWord::Draw => CommandKind::Draw,
            CommandWord::Resign => CommandKind::Resign,
            CommandWord::Help => CommandKind::Help,
            CommandWord::Cancel => CommandKind::Cancel,
            CommandWord::ClaimDraw => CommandKind::ClaimDraw,
            CommandWord::Record => CommandKind::Record,
            CommandWord::RecordFrom => CommandKind::RecordFrom,
            CommandWord::MoveNumber => CommandKind::MoveNumber,
            CommandWord::Next => CommandKind::Next,
            CommandWord::Back => CommandKind::Back,
            CommandWord::Live => CommandKind::Live,
        }
    }
}

impl fmt::Display for CommandKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The listening vocabulary of one language, built from a [`Phrasebook`].
#[derive(Debug, Clone)]
pub struct Lexicon {
    /// Language tag (`pl`, `en`, `ko`).
    pub lang: String,
    numbers: BTreeMap<u8, Vec<Words>>,
    numbers_from: BTreeMap<u8, Vec<Words>>,
    files: [Vec<Words>; 8],
    /// Templates for a move that does not capture.
    pub moves: Vec<Template>,
    /// Templates for a capture.
    pub captures: Vec<Template>,
    /// Words said before the list of captured squares (may be empty).
    pub taken: Vec<Words>,
    /// Command phrasings.
    pub commands: BTreeMap<CommandKind, Vec<Template>>,
    /// Typical mis-hearings: (heard, meant) -> cost in 0..=1.
    pub confusions: BTreeMap<(String, String), f32>,
    /// Compare syllable by syllable (`match = "syllables"`), for languages
    /// whose recognizers split words unpredictably: the Korean model hears
    /// "삼십사" (34) as "삼십 사" or "삼 십사".
    pub match_syllables: bool,
    announcer: Announcer,
    /// The questions about the board listened for (`[listen.ask]`,
    /// `crate::ask`): heard exactly, before any move.
    pub ask: Vec<crate::ask::AskPhrase>,
}

fn push_unique(v: &mut Vec<Words>, w: Words) {
    if !w.is_empty() && !v.contains(&w) {
        v.push(w);
    }
}

fn word_slots(text: &str) -> Template {
    words_of(text).into_iter().map(Slot::Word).collect()
}

impl Lexicon {
    /// The listening words of a phrasebook (see the [module docs](self)).
    #[must_use]
    pub fn from_phrasebook(book: &Phrasebook) -> Lexicon {
        let mut numbers = BTreeMap::new();
        let mut numbers_from = BTreeMap::new();
        for sq in Variant::International.all_squares() {
            let w = book.square_words(Variant::International, sq, SquareStyle::Numbers);
            numbers.insert(sq.number(), vec![words_of(&w.nominative)]);
            if book.genitive_numbers().is_some() {
                numbers_from.insert(sq.number(), vec![words_of(&w.genitive)]);
            }
        }
        let mut files: [Vec<Words>; 8] = Default::default();
        let (letters, names) = book.file_words();
        let listen = book.listen();
        for (i, forms) in files.iter_mut().enumerate() {
            let spoken = letters
                .get(i)
                .into_iter()
                .chain(names.and_then(|n| n.get(i)))
                .chain(&listen.files[i]);
            for f in spoken {
                push_unique(forms, words_of(f));
            }
        }

        let to: Vec<Template> = listen.to.iter().map(|w| word_slots(w)).collect();
        let mut moves: Vec<Template> = vec![vec![Slot::From, Slot::To]];
        for t in &to {
            moves.push([vec![Slot::From], t.clone(), vec![Slot::To]].concat());
        }
        for f in &listen.from {
            for t in &to {
                moves.push(
                    [
                        word_slots(f),
                        vec![Slot::FromGen],
                        t.clone(),
                        vec![Slot::To],
                    ]
                    .concat(),
                );
            }
        }
        let mut captures = moves.clone();
        for k in &listen.takes {
            let t = [vec![Slot::From], word_slots(k), vec![Slot::To]].concat();
            if !captures.contains(&t) {
                captures.push(t);
            }
        }
        let taken = listen.taking.iter().map(|w| words_of(w)).collect();

        let mut commands: BTreeMap<CommandKind, Vec<Template>> = BTreeMap::new();
        for (&word, phrases) in &listen.commands {
            let kind = CommandKind::from_word(word);
            for p in phrases {
                let mut t = word_slots(p);
                if t.is_empty() {
                    continue;
                }
                if kind.takes_number() {
                    t.push(Slot::N);
                }
                commands.entry(kind).or_default().push(t);
            }
        }
        let confusions = listen
            .mishearings
            .iter()
            .map(|m| ((m.heard.clone(), m.meant.clone()), m.cost))
            .collect();
        Lexicon {
            lang: book.language().to_owned(),
            numbers,
            numbers_from,
            files,
            moves,
            captures,
            taken,
            commands,
            confusions,
            match_syllables: listen.match_syllables,
            announcer: Announcer::new(book.clone(), AnnounceOptions::default()),
            ask: crate::draughts::ask::phrases(book),
        }
    }

    /// The built-in Polish words.
    #[must_use]
    pub fn polish() -> Lexicon {
        Lexicon::from_phrasebook(&Phrasebook::polish())
    }

    /// The built-in English words.
    #[must_use]
    pub fn english() -> Lexicon {
        Lexicon::from_phrasebook(&Phrasebook::english())
    }

    /// The words of a built-in phrasebook by language tag (`pl`, `en`).
    #[must_use]
    pub fn builtin(lang: &str) -> Option<Lexicon> {
        Phrasebook::builtin(lang).map(|b| Lexicon::from_phrasebook(&b))
    }

    /// The words of a phrasebook file (the same file `tandem say --phrasebook` takes).
    ///
    /// # Errors
    /// The file cannot be read or is not a valid phrasebook.
    pub fn from_file(path: &Path) -> Result<Lexicon, PhrasebookError> {
        Phrasebook::from_file(path).map(|b| Lexicon::from_phrasebook(&b))
    }

    /// The phrasebook the words came from.
    #[must_use]
    pub fn phrasebook(&self) -> &Phrasebook {
        self.announcer.phrasebook()
    }

    /// An announcer speaking this language (for the reasons of refusals,
    /// in the same words `tandem say` and the daemon use).
    #[must_use]
    pub fn announcer(&self) -> &Announcer {
        &self.announcer
    }

    /// How number `n` (1-50) is said, nominative; empty if unknown.
    #[must_use]
    pub fn number(&self, n: u8) -> &[Words] {
        self.numbers.get(&n).map_or(&[], Vec::as_slice)
    }

    /// How square number `n` is said after "from"; falls back to the nominative.
    #[must_use]
    pub fn number_from(&self, n: u8) -> &[Words] {
        self.numbers_from
            .get(&n)
            .map_or_else(|| self.number(n), Vec::as_slice)
    }

    /// The ways a file a-h (0-7) is said: letter, annex E name, and the
    /// phrasebook's `[listen.files]`.
    #[must_use]
    pub fn file(&self, i: usize) -> &[Words] {
        self.files.get(i).map_or(&[], Vec::as_slice)
    }

    /// Every way a square is said in a variant: its number in international
    /// draughts (001 ch. I 2.6), its file and rank in 64-square draughts
    /// (001 ch. I 2.6.4) with every word for the file ("ce trzy", "c trzy",
    /// "Cesar trzy"; 002 annex E.2.1).
    #[must_use]
    pub fn square(&self, variant: Variant, sq: Square) -> Vec<Words> {
        if !variant.algebraic_notation() {
            return self.number(sq.number()).to_vec();
        }
        let (file, rank) = variant.algebraic(sq);
        let mut out = Vec::new();
        for f in self.file(usize::from((file as u8).saturating_sub(b'a'))) {
            for r in self.number(rank) {
                out.push(f.iter().chain(r).cloned().collect());
            }
        }
        out
    }

    /// [`Lexicon::square`] in the form used after "from" (the genitive of
    /// square numbers; algebraic squares do not change).
    #[must_use]
    pub fn square_from(&self, variant: Variant, sq: Square) -> Vec<Words> {
        if variant.algebraic_notation() {
            self.square(variant, sq)
        } else {
            self.number_from(sq.number()).to_vec()
        }
    }

    /// Every word the lexicon can produce (for checking a model's vocabulary).
    #[must_use]
    pub fn all_words(&self) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        let mut add = |ws: &Words| out.extend(ws.iter().cloned());
        self.numbers
            .values()
            .chain(self.numbers_from.values())
            .flatten()
            .chain(self.files.iter().flatten())
            .for_each(&mut add);
        self.taken.iter().for_each(&mut add);
        for t in self
            .moves
            .iter()
            .chain(&self.captures)
            .chain(self.commands.values().flatten())
        {
            for s in t {
                if let Slot::Word(w) = s {
                    out.insert(w.clone());
                }
            }
        }
        out
    }

    /// The units the matcher compares: the words, or their syllables.
    #[must_use]
    pub fn tokens(&self, words: &[String]) -> Words {
        if self.match_syllables {
            words
                .iter()
                .flat_map(|w| w.chars().map(String::from))
                .collect()
        } else {
            words.to_vec()
        }
    }

    /// Reads a square named at the start of `tokens` (see
    /// [`Lexicon::tokens`]), longest match first (nominative or "from"
    /// forms): `(square, tokens used)`.
    #[must_use]
    pub fn read_square(&self, variant: Variant, tokens: &[String]) -> Option<(Square, usize)> {
        let mut best: Option<(Square, usize)> = None;
        for sq in variant.all_squares() {
            for f in self
                .square(variant, sq)
                .iter()
                .chain(&self.square_from(variant, sq))
            {
                let f = &self.tokens(f);
                let len = f.len();
                if len > 0
                    && tokens.len() >= len
                    && tokens[..len].iter().zip(f).all(|(a, b)| fold(a) == fold(b))
                    && best.map_or(true, |(_, l)| len > l)
                {
                    best = Some((sq, len));
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_lexicons_come_from_the_phrasebooks() {
        for lex in [Lexicon::polish(), Lexicon::english()] {
            for n in 1..=50 {
                assert!(
                    !lex.number(n).is_empty(),
                    "{} has no words for {n}",
                    lex.lang
                );
            }
            assert_eq!(
                lex.commands.len(),
                CommandKind::ALL.len(),
                "{} lacks commands",
                lex.lang
            );
            assert!(!lex.confusions.is_empty());
        }
        let pl = Lexicon::polish();
        assert_eq!(
            pl.number(32),
            &[vec!["trzydzieści".to_owned(), "dwa".to_owned()]]
        );
        assert_eq!(
            pl.number_from(32),
            &[vec!["trzydziestu".to_owned(), "dwóch".to_owned()]]
        );
        assert_eq!(
            pl.number_from(21),
            &[vec!["dwudziestu".to_owned(), "jeden".to_owned()]]
        );
        assert_eq!(
            Lexicon::english().number(45),
            &[vec!["forty".to_owned(), "five".to_owned()]]
        );
        // English has no genitive: the nominative is used after "from".
        assert_eq!(
            Lexicon::english().number_from(7),
            &[vec!["seven".to_owned()]]
        );
        assert_eq!(
            pl.confusions.get(&("dwie".to_owned(), "dwa".to_owned())),
            Some(&0.1)
        );
    }

    #[test]
    fn algebraic_squares_have_every_file_word() {
        let pl = Lexicon::polish();
        let c3 = Square::new(22).unwrap();
        let forms: Vec<String> = pl
            .square(Variant::SixtyFour, c3)
            .iter()
            .map(|w| w.join(" "))
            .collect();
        for f in ["ce trzy", "cesar trzy", "c trzy", "cé trzy", "cezar trzy"] {
            assert!(forms.contains(&f.to_owned()), "{f} not in {forms:?}");
        }
        assert_eq!(
            pl.square(Variant::International, c3),
            [vec!["dwadzieścia".to_owned(), "dwa".to_owned()]]
        );
        let en = Lexicon::english();
        let h8 = Square::new(4).unwrap();
        let forms: Vec<String> = en
            .square(Variant::SixtyFour, h8)
            .iter()
            .map(|w| w.join(" "))
            .collect();
        assert!(forms.contains(&"hector eight".to_owned()), "{forms:?}");
        assert!(forms.contains(&"aitch eight".to_owned()), "{forms:?}");
    }

    #[test]
    fn read_square_prefers_the_longest() {
        let pl = Lexicon::polish();
        let v = Variant::International;
        let n = |w: &str| {
            pl.read_square(v, &words_of(w))
                .map(|(s, l)| (s.number(), l))
        };
        assert_eq!(n("trzydzieści dwa na"), Some((32, 2)));
        assert_eq!(n("trzydzieści na"), Some((30, 1)));
        assert_eq!(n("z trzydziestu"), None);
        assert_eq!(n("piec"), Some((5, 1)));
        let a = pl.read_square(Variant::SixtyFour, &words_of("cezar trzy de cztery"));
        assert_eq!(a.map(|(s, l)| (s.number(), l)), Some((22, 2)));
    }

    #[test]
    fn words_split_hyphens_and_punctuation() {
        assert_eq!(
            words_of("Thirty-two, TO twenty-eight."),
            ["thirty", "two", "to", "twenty", "eight"]
        );
        assert_eq!(words_of("[unk] dwa"), ["[unk]", "dwa"]);
    }
}
