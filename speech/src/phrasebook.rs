//! [`Phrasebook`]: the words and sentence templates of one language, loaded
//! from a TOML data file, so a language can be added without code.
//!
//! Every language with a file in `speech/phrasebooks/` is built in
//! ([`Phrasebook::builtin`], through [`crate::languages`]: docs/languages.md);
//! [`Phrasebook::from_file`] loads any other. The file format is documented
//! at the top of `speech/phrasebooks/pl.toml`.
//!
//! A phrasebook is checked completely when it is loaded: every template key
//! must be there, every placeholder must be one the template may use, every
//! noun must have a form for every plural category of the language (CLDR
//! rules, through `intl_pluralrules`), and the number lists must be complete.
//! Rendering afterwards cannot fail.
//!
//! The same data serves both directions: the announcer renders sentences from
//! it, and speech input reads the numbers ([`Phrasebook::number`]),
//! the genitive forms, the move connectives and the command words
//! ([`Phrasebook::listen`]) to build its grammar.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use intl_pluralrules::{PluralCategory, PluralRules};
use tandem_rules::Color;

mod listen;
mod load;
pub use listen::{CommandKind, ListenWords, Mishearing, SquareStyle, SquareWords};

/// The Polish phrasebook's source (`speech/phrasebooks/pl.toml`).
pub const POLISH_TOML: &str = include_str!("../phrasebooks/pl.toml");
/// The English phrasebook's source (`speech/phrasebooks/en.toml`).
pub const ENGLISH_TOML: &str = include_str!("../phrasebooks/en.toml");

/// Every template key and the arguments it may use. Speech input and the
/// announcer rely on all of them being present.
pub const TEMPLATE_KEYS: &[(&str, &[&str])] = &[
    ("move.quiet", &["from", "to"]),
    ("move.capture", &["from", "to"]),
    ("move.remove_one", &["square"]),
    ("move.remove_many", &["count", "squares"]),
    ("move.landings", &["squares"]),
    ("move.promotion", &["square"]),
    ("move.confirm", &["move"]),
    ("move.confirmed", &["move"]),
    ("move.cancelled", &[]),
    ("move.last", &["move"]),
    ("move.no_last", &[]),
    ("turn.to_move", &["side"]),
    ("clock.side", &["side", "used", "left"]),
    ("clock.moves_made", &["count"]),
    ("clock.to_control", &["count"]),
    ("clock.low_time", &["side", "left"]),
    ("clock.flag_fall", &["side"]),
    ("clock.stopped", &[]),
    ("reject.syntax", &["text"]),
    ("reject.no_moves", &[]),
    ("reject.no_piece", &["square"]),
    ("reject.not_your_piece", &["square", "side"]),
    ("reject.capture_compulsory", &["count"]),
    ("reject.capturers_one", &["square"]),
    ("reject.capturers_many", &["squares"]),
    ("reject.not_largest", &["required", "given"]),
    ("reject.wrong_direction", &["from", "to"]),
    ("reject.occupied", &["square"]),
    ("reject.unreachable", &["from", "to"]),
    ("reject.no_such_route", &["options"]),
    ("reject.ambiguous", &["to", "options"]),
    ("reject.game_over", &[]),
    ("reject.not_understood", &[]),
    ("draw.repetition", &[]),
    ("draw.kings_only", &["left"]),
    ("draw.endgame", &["left"]),
    ("end.white_wins", &[]),
    ("end.black_wins", &[]),
    ("end.draw", &[]),
    ("end.no_moves", &["side"]),
    ("end.flag", &["side"]),
    ("end.resigned", &["side"]),
    ("end.agreed", &[]),
    ("end.repetition", &[]),
    ("end.kings_only", &["limit"]),
    ("end.endgame", &[]),
    ("sync.behind_one", &["move"]),
    ("sync.behind_many", &["count", "move"]),
    ("sync.other_behind", &["move"]),
    ("sync.in_sync", &[]),
    ("sync.differ", &[]),
    ("sync.differ_square", &["square", "expected", "actual"]),
    ("sync.fix_remove", &["square", "piece"]),
    ("sync.fix_put", &["square", "piece"]),
    ("sync.resumed", &["count"]),
    ("describe.square", &["square", "piece"]),
    ("describe.men", &["side", "squares"]),
    ("describe.kings", &["side", "squares"]),
    ("describe.none", &["side"]),
    ("help.text", &[]),
    ("game.clock_running", &[]),
    ("game.clock_stopped_refusal", &[]),
    ("game.not_paused", &[]),
    ("game.already_paused", &[]),
    ("export.heading", &["white", "black"]),
    ("export.move_number", &["count"]),
    ("game.draw_offered", &["side"]),
    ("game.draw_declined", &[]),
    ("game.draw_too_early", &["count"]),
    ("game.draw_not_your_time", &[]),
    ("game.draw_barred", &[]),
    ("game.no_draw_offer", &[]),
    ("game.unknown_command", &["text"]),
    ("game.journal_failed", &[]),
    ("game.speech_fallback", &["text"]),
    ("game.board_not_read", &["text"]),
    ("game.board_matches", &[]),
];

/// Templates a phrasebook may leave out: the key, its arguments, and the
/// English words used when the file has none (a phrasebook written before
/// the key was added still loads).
pub const OPTIONAL_TEMPLATE_KEYS: &[(&str, &[&str], &str)] = &[
    // A rated game's refusals (issue 41): the rule, never the pieces or
    // squares that could move.
    (
        "reject.no_such_route_rule",
        &[],
        "No capture goes that way. Say the whole capture, with the pieces taken.",
    ),
    (
        "reject.ambiguous_rule",
        &[],
        "More than one capture fits. Say the whole capture, with the pieces taken.",
    ),
    // The spoken record at the table (issue 15): a move pair's number, one
    // ply of it, and the review's edges.
    ("record.move", &["count"], "Move {count}."),
    ("record.ply", &["side", "move"], "{side}: {move}"),
    ("record.empty", &[], "No moves yet."),
    ("record.no_move", &["count"], "There is no move {count}."),
    ("record.first", &[], "That is the first move."),
    ("record.last", &[], "That is the last move."),
    (
        "record.position",
        &["count", "side"],
        "The position after {side}'s move {count}.",
    ),
    ("record.start_position", &[], "The starting position."),
    ("record.live", &[], "Back to the game."),
    ("record.not_reviewing", &[], "The record is not open."),
    // Draw claims at a draughts table, whose draws come by themselves (001
    // ch. I 6): the same words as chess's `table.no_claim` and
    // `table.claim_wrong` (002 art. 9.5 b).
    ("game.no_draw_claim", &[], "No draw can be claimed now."),
    (
        "game.draw_claim_wrong",
        &["minutes"],
        "The draw claim is not correct. Your opponent gets {minutes} more minutes; play goes on.",
    ),
];

/// The nouns the announcer counts with; each must be in `[nouns]`.
pub const NOUNS: &[&str] = &["piece", "move", "hour", "minute", "second"];

/// Why a phrasebook was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PhrasebookError {
    /// Not TOML at all.
    Toml(String),
    /// The file could not be read.
    Io(String),
    /// A required key is missing.
    Missing(String),
    /// A key has the wrong type or size.
    Invalid {
        /// The key.
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// A template uses a placeholder it may not.
    BadPlaceholder {
        /// The template key.
        key: String,
        /// The placeholder as written.
        placeholder: String,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for PhrasebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhrasebookError::Toml(e) => write!(f, "not a valid TOML phrasebook: {e}"),
            PhrasebookError::Io(e) => write!(f, "cannot read the phrasebook: {e}"),
            PhrasebookError::Missing(k) => write!(f, "missing key `{k}`"),
            PhrasebookError::Invalid { key, reason } => write!(f, "key `{key}`: {reason}"),
            PhrasebookError::BadPlaceholder {
                key,
                placeholder,
                reason,
            } => {
                write!(
                    f,
                    "template `{key}`: placeholder `{{{placeholder}}}` {reason}"
                )
            }
        }
    }
}

impl std::error::Error for PhrasebookError {}

/// One piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Lit(String),
    Arg { name: String, form: Option<String> },
}

/// A value for a placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A square's spoken forms.
    Square(SquareWords),
    /// A count, spoken in words (with a noun where the template asks).
    Number(u64),
    /// A side.
    Side(Color),
    /// Ready-made words.
    Text(String),
}

#[derive(Debug, Clone)]
struct Noun {
    gender: String,
    forms: HashMap<&'static str, String>,
}

/// The words and templates of one language. See the [module docs](self).
///
/// A clone shares the words (an `Arc`): every game of a table and every
/// table of the hall's desk holds the same parsed book, not a copy of it.
#[derive(Clone)]
pub struct Phrasebook {
    book: std::sync::Arc<Book>,
}

impl std::ops::Deref for Phrasebook {
    type Target = Book;
    fn deref(&self) -> &Book {
        &self.book
    }
}

impl std::ops::DerefMut for Phrasebook {
    /// A change is made to this phrasebook's own copy of the words.
    fn deref_mut(&mut self) -> &mut Book {
        std::sync::Arc::make_mut(&mut self.book)
    }
}

/// A [`Phrasebook`]'s words (read through it).
#[doc(hidden)]
#[derive(Clone)]
pub struct Book {
    meta: Meta,
    cardinal: Vec<String>,
    hundreds: Vec<String>,
    hundreds_round: Option<Vec<String>>,
    genitive: Option<Vec<String>>,
    gender_numbers: HashMap<String, HashMap<u64, String>>,
    nouns: HashMap<String, Noun>,
    letters: Vec<String>,
    letter_names: Option<Vec<String>>,
    sides: [HashMap<String, String>; 2],
    pieces: [String; 5],
    templates: HashMap<&'static str, Vec<Part>>,
    listen: ListenWords,
}

/// `[meta]`: the language, its plural rules, its voice and how lists join.
#[derive(Clone)]
struct Meta {
    name: String,
    language: String,
    plural: PluralRules,
    espeak_voice: String,
    list_separator: String,
    list_last: String,
    alternative: String,
}

impl fmt::Debug for Phrasebook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Phrasebook")
            .field("language", &self.meta.language)
            .field("name", &self.meta.name)
            .finish_non_exhaustive()
    }
}

fn category_key(c: &PluralCategory) -> &'static str {
    match c {
        PluralCategory::ZERO => "zero",
        PluralCategory::ONE => "one",
        PluralCategory::TWO => "two",
        PluralCategory::FEW => "few",
        PluralCategory::MANY => "many",
        PluralCategory::OTHER => "other",
    }
}

impl Phrasebook {
    /// The built-in Polish phrasebook.
    #[must_use]
    pub fn polish() -> Phrasebook {
        // The embedded file is checked by the unit test `builtin_phrasebooks_load`.
        Phrasebook::builtin("pl").expect("the Polish phrasebook is valid (tested)")
    }

    /// The built-in English phrasebook.
    #[must_use]
    pub fn english() -> Phrasebook {
        Phrasebook::builtin("en").expect("the English phrasebook is valid (tested)")
    }

    /// The built-in phrasebook of a language with data
    /// (`speech/phrasebooks/LANG.toml`, docs/languages.md); `None` for a
    /// language without it, or whose file lacks a key of the English one
    /// ([`crate::languages::text`] says which).
    #[must_use]
    pub fn builtin(language: &str) -> Option<Phrasebook> {
        static PARSED: OnceLock<Mutex<HashMap<String, Phrasebook>>> = OnceLock::new();
        crate::languages::once_per_language(&PARSED, language, || {
            let text = crate::languages::text(crate::languages::Book::Draughts, language).ok()?;
            Phrasebook::from_toml_str(text).ok()
        })
    }

    /// Loads and checks a phrasebook file.
    ///
    /// # Errors
    /// [`PhrasebookError`] naming the file's problem (missing key, bad placeholder, ...).
    pub fn from_file(path: &Path) -> Result<Phrasebook, PhrasebookError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| PhrasebookError::Io(format!("{}: {e}", path.display())))?;
        Phrasebook::from_toml_str(&text)
    }

    /// The language tag (`pl`, `en`).
    #[must_use]
    pub fn language(&self) -> &str {
        &self.meta.language
    }

    /// The language's own name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.meta.name
    }

    /// The espeak-ng voice for this language.
    #[must_use]
    pub fn espeak_voice(&self) -> &str {
        &self.meta.espeak_voice
    }

    /// The words speech input listens for.
    #[must_use]
    pub fn listen(&self) -> &ListenWords {
        &self.listen
    }

    /// A whole number in words (masculine / default gender); digits above 999.
    ///
    /// ```
    /// let pl = tandem_speech::Phrasebook::polish();
    /// assert_eq!(pl.number(32), "trzydzieści dwa");
    /// assert_eq!(pl.number(125), "sto dwadzieścia pięć");
    /// ```
    #[must_use]
    pub fn number(&self, n: u64) -> String {
        self.number_gender(n, "masculine")
    }

    fn number_gender(&self, n: u64, gender: &str) -> String {
        let below_100 = |n: u64| -> String {
            if let Some(s) = self.gender_numbers.get(gender).and_then(|m| m.get(&n)) {
                return s.clone();
            }
            // n < 100 and `cardinal` has exactly 100 entries (checked on load).
            self.cardinal[n as usize].clone()
        };
        match n {
            0..=99 => below_100(n),
            100..=999 => {
                // 1 <= n / 100 <= 9 and `hundreds` has exactly 9 entries (checked on load).
                let h = (n / 100 - 1) as usize;
                // A round hundred has its own word where the language has one
                // ("deux cents", "cien"; `hundreds_round`, 9 entries, checked on load).
                if n % 100 == 0 {
                    if let Some(round) = &self.hundreds_round {
                        return round[h].clone();
                    }
                }
                let mut s = self.hundreds[h].clone();
                if n % 100 != 0 {
                    s.push(' ');
                    s.push_str(&below_100(n % 100));
                }
                s
            }
            _ => n.to_string(),
        }
    }

    /// A number followed by a noun in the right plural form and gender:
    /// `count(5, "minute")` is "pięć minut", `count(2, "minute")` "dwie minuty".
    ///
    /// ```
    /// let pl = tandem_speech::Phrasebook::polish();
    /// assert_eq!(pl.count(1, "minute"), "jedna minuta");
    /// assert_eq!(pl.count(2, "minute"), "dwie minuty");
    /// assert_eq!(pl.count(5, "minute"), "pięć minut");
    /// assert_eq!(pl.count(22, "second"), "dwadzieścia dwie sekundy");
    /// ```
    #[must_use]
    pub fn count(&self, n: u64, noun: &str) -> String {
        let Some(nn) = self.nouns.get(noun) else {
            return self.number(n);
        };
        let cat = self.plural_category(n);
        let form = nn
            .forms
            .get(cat)
            .or_else(|| nn.forms.get("other"))
            .or_else(|| nn.forms.values().next());
        let num = self.number_gender(n, &nn.gender);
        match form {
            Some(f) => format!("{num} {f}"),
            None => num,
        }
    }

    /// The CLDR plural category of the count `n` in the phrasebook's
    /// language (`one`, `few`, `many`, `other`, ...).
    #[must_use]
    pub fn plural_category(&self, n: u64) -> &'static str {
        self.meta
            .plural
            .select(n)
            .map(|c| category_key(&c))
            .unwrap_or("other")
    }

    /// The genitive ("z trzydziestu dwóch") of square numbers 1-50, if the
    /// language has such a list.
    #[must_use]
    pub fn genitive_numbers(&self) -> Option<&[String]> {
        self.genitive.as_deref()
    }

    /// The words for the files a-h (plain letters and annex E names).
    #[must_use]
    pub fn file_words(&self) -> (&[String], Option<&[String]>) {
        (&self.letters, self.letter_names.as_deref())
    }

    /// A side in a case (`nominative` when the case is not listed).
    #[must_use]
    pub fn side(&self, color: Color, case: &str) -> &str {
        let m = &self.sides[usize::from(color == Color::Black)];
        m.get(case)
            .or_else(|| m.get("nominative"))
            .map_or("", String::as_str)
    }

    /// A word of `[pieces]` by its key (`white_man`, `white_king`,
    /// `black_man`, `black_king`, `empty`); empty for another key.
    #[must_use]
    pub fn piece_word(&self, key: &str) -> &str {
        let i = match key {
            "white_man" => 0,
            "white_king" => 1,
            "black_man" => 2,
            "black_king" => 3,
            "empty" => 4,
            _ => return "",
        };
        &self.pieces[i]
    }

    /// Joins items as a spoken list: "a, b i c".
    #[must_use]
    pub fn list<S: AsRef<str>>(&self, items: &[S]) -> String {
        let mut s = String::new();
        for (i, it) in items.iter().enumerate() {
            if i > 0 {
                s.push_str(if i + 1 == items.len() {
                    &self.meta.list_last
                } else {
                    &self.meta.list_separator
                });
            }
            s.push_str(it.as_ref());
        }
        s
    }

    /// Joins alternatives: "a czy b".
    #[must_use]
    pub fn alternatives<S: AsRef<str>>(&self, items: &[S]) -> String {
        items
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(&self.meta.alternative)
    }

    /// Renders a template with its arguments. Unknown keys render as nothing
    /// (every key of [`TEMPLATE_KEYS`] exists in a loaded phrasebook).
    #[must_use]
    pub fn render(&self, key: &str, args: &[(&str, Value)]) -> String {
        let Some(parts) = self.templates.get(key) else {
            debug_assert!(false, "unknown template key {key}");
            return String::new();
        };
        let mut out = String::new();
        for p in parts {
            match p {
                Part::Lit(s) => out.push_str(s),
                Part::Arg { name, form } => {
                    let Some((_, v)) = args.iter().find(|(n, _)| n == name) else {
                        debug_assert!(false, "template {key} rendered without argument {name}");
                        continue;
                    };
                    match (v, form.as_deref()) {
                        (Value::Square(w), Some("genitive")) => out.push_str(&w.genitive),
                        (Value::Square(w), _) => out.push_str(&w.nominative),
                        (Value::Number(n), Some(noun)) => out.push_str(&self.count(*n, noun)),
                        (Value::Number(n), None) => out.push_str(&self.number(*n)),
                        (Value::Side(c), case) => {
                            out.push_str(self.side(*c, case.unwrap_or("nominative")))
                        }
                        (Value::Text(t), _) => out.push_str(t),
                    }
                }
            }
        }
        out
    }

    /// A duration in words: "dwanaście minut pięć sekund", "one hour twenty
    /// minutes"; zero parts are left out, and nothing at all is "zero sekund".
    /// Never a clock reading ("5:00").
    ///
    /// ```
    /// use std::time::Duration;
    /// let pl = tandem_speech::Phrasebook::polish();
    /// assert_eq!(pl.duration(Duration::from_secs(305)), "pięć minut pięć sekund");
    /// let en = tandem_speech::Phrasebook::english();
    /// assert_eq!(en.duration(Duration::from_secs(3601)), "one hour one second");
    /// ```
    #[must_use]
    pub fn duration(&self, d: std::time::Duration) -> String {
        let secs = d.as_secs();
        let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
        let mut parts = Vec::new();
        if h > 0 {
            parts.push(self.count(h, "hour"));
        }
        if m > 0 {
            parts.push(self.count(m, "minute"));
        }
        if s > 0 || parts.is_empty() {
            parts.push(self.count(s, "second"));
        }
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests;
