//! The words tandem listens for, per language: square numbers, how moves are
//! phrased, command words, typical mis-hearings. Loaded from a small data
//! file (see `lexicons/pl.txt`) so a language can be added without code.
//!
//! The parser is relaxed: blank lines and `#` comments are skipped, keys may
//! repeat (their alternatives add up), words are lower-cased. Numbers 21-50
//! that are not listed are composed from the tens and the units, which is
//! how Polish, English and Sino-Korean say them ("trzydzieści dwa",
//! "thirty two", "삼십 이").

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

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
}

impl CommandKind {
    /// Every command.
    pub const ALL: [CommandKind; 12] = [
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
    ];

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
        }
    }

    fn from_name(s: &str) -> Option<CommandKind> {
        CommandKind::ALL.into_iter().find(|c| c.name() == s)
    }
}

impl fmt::Display for CommandKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a lexicon file could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum LexiconError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A line is malformed.
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Something required is missing (e.g. a square's number word).
    Missing(String),
}

impl fmt::Display for LexiconError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LexiconError::Io { path, source } => {
                write!(f, "cannot read lexicon {}: {source}", path.display())
            }
            LexiconError::Line { line, message } => write!(f, "lexicon line {line}: {message}"),
            LexiconError::Missing(what) => write!(f, "lexicon is missing {what}"),
        }
    }
}

impl std::error::Error for LexiconError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LexiconError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A word sequence (one alternative).
pub type Words = Vec<String>;

/// The listening vocabulary of one language.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    /// Language tag (`pl`, `en`, `ko`).
    pub lang: String,
    numbers: BTreeMap<u8, Vec<Words>>,
    numbers_from: BTreeMap<u8, Vec<Words>>,
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
    /// Compare syllable by syllable (`match = syllables`), for languages
    /// whose recognizers split words unpredictably: the Korean model hears
    /// "삼십사" (34) as "삼십 사" or "삼 십사".
    pub match_syllables: bool,
}

const POLISH: &str = include_str!("lexicons/pl.txt");
const ENGLISH: &str = include_str!("lexicons/en.txt");

/// Splits text into lower-case words: hyphens and punctuation separate words
/// ("thirty-two" is "thirty two").
#[must_use]
pub fn words_of(text: &str) -> Words {
    text.split(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '[' && c != ']'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

impl Lexicon {
    /// The built-in Polish lexicon.
    #[must_use]
    pub fn polish() -> Lexicon {
        // The built-in file is checked by the unit test `builtin_lexicons_parse`.
        Lexicon::parse(POLISH).expect("built-in Polish lexicon parses (unit-tested)")
    }

    /// The built-in English lexicon.
    #[must_use]
    pub fn english() -> Lexicon {
        // The built-in file is checked by the unit test `builtin_lexicons_parse`.
        Lexicon::parse(ENGLISH).expect("built-in English lexicon parses (unit-tested)")
    }

    /// A built-in lexicon by language tag.
    #[must_use]
    pub fn builtin(lang: &str) -> Option<Lexicon> {
        match lang {
            "pl" => Some(Lexicon::polish()),
            "en" => Some(Lexicon::english()),
            _ => None,
        }
    }

    /// Reads a lexicon file.
    ///
    /// # Errors
    /// The file cannot be read or is malformed.
    pub fn from_file(path: &Path) -> Result<Lexicon, LexiconError> {
        let text = std::fs::read_to_string(path).map_err(|source| LexiconError::Io {
            path: path.to_owned(),
            source,
        })?;
        Lexicon::parse(&text)
    }

    /// Parses lexicon text.
    ///
    /// # Errors
    /// A malformed line, or a square 1-50 without words.
    pub fn parse(text: &str) -> Result<Lexicon, LexiconError> {
        let mut lex = Lexicon::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| LexiconError::Line {
                line: i + 1,
                message,
            };
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| err(format!("expected `key = value`, got {line:?}")))?;
            let key = key.trim();
            let value = value.trim();
            let alternatives = || value.split('|').map(str::trim);
            if key == "lang" {
                lex.lang = value.to_owned();
            } else if key == "match" {
                lex.match_syllables = match value {
                    "words" => false,
                    "syllables" => true,
                    _ => {
                        return Err(err(format!(
                            "match is `words` or `syllables`, got {value:?}"
                        )))
                    }
                };
            } else if let Some(n) = key.strip_prefix("number.") {
                let n = parse_square_number(n)
                    .ok_or_else(|| err(format!("bad square number in {key:?}")))?;
                lex.numbers
                    .entry(n)
                    .or_default()
                    .extend(alternatives().map(words_of).filter(|w| !w.is_empty()));
            } else if let Some(n) = key.strip_prefix("number-from.") {
                let n = parse_square_number(n)
                    .ok_or_else(|| err(format!("bad square number in {key:?}")))?;
                lex.numbers_from
                    .entry(n)
                    .or_default()
                    .extend(alternatives().map(words_of).filter(|w| !w.is_empty()));
            } else if key == "move" || key == "capture" {
                let mut ts = Vec::new();
                for a in alternatives() {
                    let t = parse_template(a).map_err(err)?;
                    if !t.contains(&Slot::To)
                        || !(t.contains(&Slot::From) || t.contains(&Slot::FromGen))
                    {
                        return Err(err(format!(
                            "{key} template {a:?} needs {{from}} (or {{from-gen}}) and {{to}}"
                        )));
                    }
                    ts.push(t);
                }
                if key == "move" {
                    &mut lex.moves
                } else {
                    &mut lex.captures
                }
                .extend(ts);
            } else if key == "taken" {
                lex.taken.extend(alternatives().map(words_of));
            } else if let Some(name) = key.strip_prefix("command.") {
                let kind = CommandKind::from_name(name)
                    .ok_or_else(|| err(format!("unknown command {name:?}")))?;
                for a in alternatives() {
                    let t = parse_template(a).map_err(err)?;
                    if t.is_empty() {
                        return Err(err(format!("empty phrasing for command {name}")));
                    }
                    lex.commands.entry(kind).or_default().push(t);
                }
            } else if key == "confusion" {
                let parts: Vec<&str> = value.split_whitespace().collect();
                let [heard, meant, cost] = parts[..] else {
                    return Err(err(format!(
                        "confusion needs `heard meant cost`, got {value:?}"
                    )));
                };
                let cost: f32 = cost
                    .parse()
                    .map_err(|_| err(format!("bad cost {cost:?}")))?;
                if !(0.0..=1.0).contains(&cost) {
                    return Err(err(format!("cost {cost} is outside 0..1")));
                }
                lex.confusions
                    .insert((heard.to_lowercase(), meant.to_lowercase()), cost);
            } else {
                return Err(err(format!("unknown key {key:?}")));
            }
        }
        lex.compose_numbers()?;
        if lex.moves.is_empty() {
            lex.moves.push(vec![Slot::From, Slot::To]);
        }
        if lex.captures.is_empty() {
            lex.captures.clone_from(&lex.moves);
        }
        Ok(lex)
    }

    fn compose_numbers(&mut self) -> Result<(), LexiconError> {
        for n in 1..=50u8 {
            for table in [&mut self.numbers, &mut self.numbers_from] {
                if table.contains_key(&n) || n <= 20 || n % 10 == 0 {
                    continue;
                }
                let (Some(tens), Some(units)) = (table.get(&(n / 10 * 10)), table.get(&(n % 10)))
                else {
                    continue;
                };
                let mut forms = Vec::new();
                for t in tens {
                    for u in units {
                        forms.push(t.iter().chain(u).cloned().collect());
                    }
                }
                table.insert(n, forms);
            }
            if !self.numbers.contains_key(&n) {
                return Err(LexiconError::Missing(format!(
                    "words for square {n} (number.{n})"
                )));
            }
        }
        Ok(())
    }

    /// How square `n` is said (nominative); empty if unknown.
    #[must_use]
    pub fn number(&self, n: u8) -> &[Words] {
        self.numbers.get(&n).map_or(&[], Vec::as_slice)
    }

    /// How square `n` is said after "from"; falls back to the nominative.
    #[must_use]
    pub fn number_from(&self, n: u8) -> &[Words] {
        self.numbers_from
            .get(&n)
            .map_or_else(|| self.number(n), Vec::as_slice)
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

    /// Reads a number spoken at the start of `tokens` (see [`Lexicon::tokens`]),
    /// longest match first (nominative or "from" forms): `(number, tokens used)`.
    #[must_use]
    pub fn read_number(&self, words: &[String]) -> Option<(u8, usize)> {
        let mut best: Option<(u8, usize)> = None;
        for (&n, forms) in self.numbers.iter().chain(self.numbers_from.iter()) {
            for f in forms {
                let f = &self.tokens(f);
                let len = f.len();
                if words.len() >= len
                    && words[..len].iter().zip(f).all(|(a, b)| fold(a) == fold(b))
                    && best.map_or(true, |(_, l)| len > l)
                {
                    best = Some((n, len));
                }
            }
        }
        best
    }
}

fn parse_square_number(s: &str) -> Option<u8> {
    s.trim().parse::<u8>().ok().filter(|n| (1..=50).contains(n))
}

fn parse_template(s: &str) -> Result<Template, String> {
    let mut out = Vec::new();
    for tok in s.split_whitespace() {
        out.push(match tok {
            "{from}" => Slot::From,
            "{from-gen}" => Slot::FromGen,
            "{to}" => Slot::To,
            "{n}" => Slot::N,
            t if t.starts_with('{') => return Err(format!("unknown slot {t}")),
            t => {
                let ws = words_of(t);
                if ws.len() != 1 {
                    return Err(format!("bad word {t:?}"));
                }
                // words_of yields exactly one word here (checked above).
                Slot::Word(ws.into_iter().next().expect("one word"))
            }
        });
    }
    Ok(out)
}

/// A word with Polish (and other Latin) diacritics removed, for matching
/// transcripts that lost them ("piec" for "pięć").
#[must_use]
pub fn fold(w: &str) -> String {
    w.chars()
        .map(|c| match c {
            'ą' => 'a',
            'ć' => 'c',
            'ę' => 'e',
            'ł' => 'l',
            'ń' => 'n',
            'ó' => 'o',
            'ś' => 's',
            'ź' | 'ż' => 'z',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_lexicons_parse() {
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
    }

    #[test]
    fn read_number_prefers_the_longest() {
        let pl = Lexicon::polish();
        assert_eq!(
            pl.read_number(&words_of("trzydzieści dwa na")),
            Some((32, 2))
        );
        assert_eq!(pl.read_number(&words_of("trzydzieści na")), Some((30, 1)));
        assert_eq!(pl.read_number(&words_of("z trzydziestu")), None);
        assert_eq!(pl.read_number(&words_of("piec")), Some((5, 1)));
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let e = Lexicon::parse("lang = xx\nnumber.51 = foo\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "lexicon line 2: bad square number in \"number.51\""
        );
        let e = Lexicon::parse("lang = xx\nnumber.1 = a\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "lexicon is missing words for square 2 (number.2)"
        );
        let e = Lexicon::parse("move = {from} na").unwrap_err();
        assert!(e.to_string().contains("needs {from}"), "{e}");
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
