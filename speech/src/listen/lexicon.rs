//! The words tandem listens for, per language, taken from the speech
//! [`Phrasebook`]: the same TOML file gives what tandem says and what it
//! hears, so a language is added in one file (`--phrasebook FILE` for both
//! `tandem say` and `tandem hear`).
//!
//! [`Lexicon::from_phrasebook`] reads:
//!
//! | phrasebook | listener |
//! | --- | --- |
//! | `[numbers] cardinal` ([`Phrasebook::number`]) | the numbers 1-50 (squares, ranks, move numbers) |
//! | `[numbers] genitive` ([`Phrasebook::genitive_numbers`]) | a number after "z" ("from") |
//! | `[squares] letters`, `letter_names` ([`Phrasebook::file_words`]), `[listen.files]` | the files a-h of a board |
//! | `[listen] to`, `takes`, `from`, `taking` | how moves and captures are phrased |
//! | `[listen.commands]` | the commands |
//! | `[listen] mishearings` | typical mis-hearings with their costs |
//! | `[listen] match` | word or syllable matching |
//!
//! Phrasings built from the connectives: a move is "{from} {to}",
//! "{from} <to> {to}" and "<from> {from-genitive} <to> {to}"; a capture also
//! "{from} <takes> {to}", optionally followed by "<taking>" (or nothing) and
//! the captured squares in capture order.
//!
//! The lexicon names no game: how a game's squares are said from these
//! words is the game's (draughts: its `DraughtsWords`),
//! and so are its questions ([`Lexicon::ask`], empty here).

pub use super::words::{fold, words_of, Words};
use std::collections::BTreeMap;
use std::path::Path;

use crate::announcer::{AnnounceOptions, Announcer};
pub use crate::phrasebook::CommandKind;
use crate::phrasebook::{Phrasebook, PhrasebookError};

/// The numbers listened for: 1 to 50 (the squares of the largest board;
/// ranks, move numbers and the like are among them).
pub const NUMBERS: u8 = 50;

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
    /// `crate::ask`): heard exactly, before any move. The game's: empty
    /// from [`Lexicon::from_phrasebook`], filled by the game that listens.
    pub ask: Vec<super::words::AskPhrase>,
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
        for n in 1..=NUMBERS {
            let nominative = book.number(u64::from(n));
            numbers.insert(n, vec![words_of(&nominative)]);
            if let Some(genitive) = book.genitive_numbers() {
                let g = genitive.get(usize::from(n) - 1).unwrap_or(&nominative);
                numbers_from.insert(n, vec![words_of(g)]);
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
            add_command(&mut commands, word, phrases);
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
            ask: Vec::new(),
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

    /// Every number listened for ([`NUMBERS`]) with its ways of being said:
    /// the numbers after a command in a game with no numbered squares.
    #[must_use]
    pub fn numbers(&self) -> Vec<(u8, Vec<Words>)> {
        (1..=NUMBERS)
            .map(|n| (n, self.number(n).to_vec()))
            .collect()
    }

    /// The words of `text`, a number written in digits (`12`) as its
    /// words ("dwanaście"), so typed text and recognizers that write digits
    /// work too.
    #[must_use]
    pub fn numbers_said(&self, text: &str) -> Words {
        let mut out = Words::new();
        for w in words_of(text) {
            let n = (w.len() <= 3 && w.bytes().all(|b| b.is_ascii_digit()))
                .then(|| w.parse::<u8>().ok())
                .flatten();
            match n.and_then(|n| self.number(n).first()) {
                Some(f) => out.extend(f.iter().cloned()),
                None => out.push(w),
            }
        }
        out
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

    /// The words of the commands' phrases (a game's listener adds its own
    /// moves' words to them).
    pub fn command_words(&self) -> impl Iterator<Item = &String> {
        self.commands
            .values()
            .flatten()
            .flatten()
            .filter_map(|s| match s {
                Slot::Word(w) => Some(w),
                _ => None,
            })
    }

    /// The units the matcher compares: the words, or their syllables.
    #[must_use]
    pub fn tokens(&self, words: &[String]) -> Words {
        tokens_of(words, self.match_syllables)
    }
}

/// The units a matcher compares: the words, or their syllables (a
/// language matched syllable by syllable, `match = "syllables"`).
#[must_use]
pub fn tokens_of(words: &[String], syllables: bool) -> Words {
    if syllables {
        words
            .iter()
            .flat_map(|w| w.chars().map(String::from))
            .collect()
    } else {
        words.to_vec()
    }
}

fn add_command(
    commands: &mut BTreeMap<CommandKind, Vec<Template>>,
    kind: CommandKind,
    phrases: &[String],
) {
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

/// The `[listen.commands]` of a game's phrasebook file (a chess or
/// backgammon `--phrasebook`), in the keys and form of the table
/// phrasebook's (`yes = ["tak"]`), put in place of `base`'s commands;
/// `base` as it is when the file has none. A game's phrasebook in a
/// language tandem has no table phrasebook for (the Korean test books)
/// carries its own commands this way.
///
/// # Errors
/// The file cannot be read, or the section is not a table of word lists
/// with known keys.
pub fn command_words(path: &Path, mut base: Lexicon) -> Result<Lexicon, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let root: toml::Table =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let Some(section) = root
        .get("listen")
        .and_then(toml::Value::as_table)
        .and_then(|l| l.get("commands"))
    else {
        return Ok(base);
    };
    let bad = |what: String| format!("{}: listen.commands: {what}", path.display());
    let table = section
        .as_table()
        .ok_or_else(|| bad("not a table".into()))?;
    let mut commands: BTreeMap<CommandKind, Vec<Template>> = BTreeMap::new();
    for (key, list) in table {
        let word = CommandKind::ALL
            .into_iter()
            .find(|w| w.key() == key)
            .ok_or_else(|| bad(format!("unknown command {key:?}")))?;
        let phrases = list
            .as_array()
            .ok_or_else(|| bad(format!("{key}: not a list of phrases")))?
            .iter()
            .map(|p| {
                p.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(format!("{key}: not a list of phrases")))
            })
            .collect::<Result<Vec<String>, String>>()?;
        add_command(&mut commands, word, &phrases);
    }
    base.commands = commands;
    Ok(base)
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
    fn words_split_hyphens_and_punctuation() {
        assert_eq!(
            words_of("Thirty-two, TO twenty-eight."),
            ["thirty", "two", "to", "twenty", "eight"]
        );
        assert_eq!(words_of("[unk] dwa"), ["[unk]", "dwa"]);
    }
}
