//! [`Phrasebook`]: the words and sentence templates of one language, loaded
//! from a TOML data file, so a language can be added without code.
//!
//! Polish and English are built in ([`Phrasebook::polish`],
//! [`Phrasebook::english`]); [`Phrasebook::from_file`] loads any other. The
//! file format is documented at the top of `speech/phrasebooks/pl.toml`.
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

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::Path;

use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
use tandem_rules::Color;
use unic_langid::LanguageIdentifier;

mod listen;
use listen::parse_mishearings;
pub use listen::{CommandKind, ListenWords, Mishearing, SquareStyle, SquareWords};

/// The Polish phrasebook's source (`speech/phrasebooks/pl.toml`).
pub const POLISH_TOML: &str = include_str!("../phrasebooks/pl.toml");
/// The English phrasebook's source (`speech/phrasebooks/en.toml`).
pub const ENGLISH_TOML: &str = include_str!("../phrasebooks/en.toml");

/// What kind of value a placeholder stands for; decides which `:form`s it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgKind {
    /// A square: `{from}`, `{from:genitive}`.
    Square,
    /// A count: `{count}`, `{count:piece}` (a noun).
    Number,
    /// A side: `{side}`, `{side:genitive}` (a case in `[sides]`).
    Side,
    /// Ready-made words (a list of squares, a move phrase, a duration).
    Text,
}

fn arg_kind(name: &str) -> ArgKind {
    match name {
        "from" | "to" | "square" => ArgKind::Square,
        "count" | "left" | "limit" | "required" | "given" => ArgKind::Number,
        "side" => ArgKind::Side,
        _ => ArgKind::Text,
    }
}

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
    name: String,
    language: String,
    plural: PluralRules,
    espeak_voice: String,
    list_separator: String,
    list_last: String,
    alternative: String,
    cardinal: Vec<String>,
    hundreds: Vec<String>,
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

impl fmt::Debug for Phrasebook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Phrasebook")
            .field("language", &self.language)
            .field("name", &self.name)
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

/// A view of a TOML table that reports missing and mistyped keys by their full path.
struct Tab<'a> {
    path: String,
    t: &'a toml::Table,
}

impl<'a> Tab<'a> {
    fn full(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }
    fn get(&self, key: &str) -> Result<&'a toml::Value, PhrasebookError> {
        self.t
            .get(key)
            .ok_or_else(|| PhrasebookError::Missing(self.full(key)))
    }
    fn table(&self, key: &str) -> Result<Tab<'a>, PhrasebookError> {
        match self.get(key)? {
            toml::Value::Table(t) => Ok(Tab {
                path: self.full(key),
                t,
            }),
            _ => Err(self.invalid(key, "must be a table")),
        }
    }
    fn opt_table(&self, key: &str) -> Result<Option<Tab<'a>>, PhrasebookError> {
        if self.t.contains_key(key) {
            self.table(key).map(Some)
        } else {
            Ok(None)
        }
    }
    fn string(&self, key: &str) -> Result<String, PhrasebookError> {
        match self.get(key)? {
            toml::Value::String(s) => Ok(s.clone()),
            _ => Err(self.invalid(key, "must be a string")),
        }
    }
    fn opt_string(&self, key: &str) -> Result<Option<String>, PhrasebookError> {
        if self.t.contains_key(key) {
            self.string(key).map(Some)
        } else {
            Ok(None)
        }
    }
    fn strings(&self, key: &str, len: Option<usize>) -> Result<Vec<String>, PhrasebookError> {
        let toml::Value::Array(a) = self.get(key)? else {
            return Err(self.invalid(key, "must be a list of strings"));
        };
        let mut v = Vec::with_capacity(a.len());
        for (i, x) in a.iter().enumerate() {
            match x {
                toml::Value::String(s) if !s.trim().is_empty() => v.push(s.clone()),
                _ => {
                    return Err(
                        self.invalid(key, &format!("entry {} must be a non-empty string", i + 1))
                    )
                }
            }
        }
        if let Some(n) = len {
            if v.len() != n {
                return Err(self.invalid(
                    key,
                    &format!("must have exactly {n} entries, has {}", v.len()),
                ));
            }
        }
        if v.is_empty() {
            return Err(self.invalid(key, "must not be empty"));
        }
        Ok(v)
    }
    fn invalid(&self, key: &str, reason: &str) -> PhrasebookError {
        PhrasebookError::Invalid {
            key: self.full(key),
            reason: reason.to_owned(),
        }
    }
}

fn parse_template(key: &str, text: &str) -> Result<Vec<Part>, PhrasebookError> {
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let mut inner = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    inner.push(c);
                }
                if !closed {
                    return Err(PhrasebookError::BadPlaceholder {
                        key: key.to_owned(),
                        placeholder: inner,
                        reason: "is not closed with `}`".to_owned(),
                    });
                }
                if !lit.is_empty() {
                    parts.push(Part::Lit(std::mem::take(&mut lit)));
                }
                let (name, form) = match inner.split_once(':') {
                    Some((n, f)) => (n.trim().to_owned(), Some(f.trim().to_owned())),
                    None => (inner.trim().to_owned(), None),
                };
                parts.push(Part::Arg { name, form });
            }
            '}' => {
                return Err(PhrasebookError::Invalid {
                    key: key.to_owned(),
                    reason: "has a `}` without a `{`".to_owned(),
                })
            }
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        parts.push(Part::Lit(lit));
    }
    Ok(parts)
}

impl Phrasebook {
    /// The built-in Polish phrasebook.
    #[must_use]
    pub fn polish() -> Phrasebook {
        // Parsed once: the hall replays journals (each a new game with its
        // phrasebook) many times a second, and parsing the TOML was most of it.
        static PARSED: std::sync::OnceLock<Phrasebook> = std::sync::OnceLock::new();
        PARSED
            .get_or_init(|| {
                // The embedded file is checked by the unit test `builtin_phrasebooks_load`.
                Phrasebook::from_toml_str(POLISH_TOML)
                    .expect("the built-in Polish phrasebook is valid (tested)")
            })
            .clone()
    }

    /// The built-in English phrasebook.
    #[must_use]
    pub fn english() -> Phrasebook {
        static PARSED: std::sync::OnceLock<Phrasebook> = std::sync::OnceLock::new();
        PARSED
            .get_or_init(|| {
                // The embedded file is checked by the unit test `builtin_phrasebooks_load`.
                Phrasebook::from_toml_str(ENGLISH_TOML)
                    .expect("the built-in English phrasebook is valid (tested)")
            })
            .clone()
    }

    /// A built-in phrasebook by language code (`pl`, `en`).
    #[must_use]
    pub fn builtin(language: &str) -> Option<Phrasebook> {
        match language {
            "pl" => Some(Phrasebook::polish()),
            "en" => Some(Phrasebook::english()),
            _ => None,
        }
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

    /// Parses and checks a phrasebook.
    ///
    /// ```
    /// let err = tandem_speech::Phrasebook::from_toml_str("[meta]\nlanguage = \"pl\"").unwrap_err();
    /// assert_eq!(err.to_string(), "missing key `meta.name`");
    /// ```
    ///
    /// # Errors
    /// [`PhrasebookError`] for the first problem found.
    pub fn from_toml_str(text: &str) -> Result<Phrasebook, PhrasebookError> {
        let root: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| PhrasebookError::Toml(e.message().to_owned()))?;
        let root = Tab {
            path: String::new(),
            t: &root,
        };

        let meta = root.table("meta")?;
        let language = meta.string("language")?;
        let name = meta.string("name")?;
        let langid: LanguageIdentifier = language
            .parse()
            .map_err(|_| meta.invalid("language", "is not a BCP 47 language tag"))?;
        let plural = PluralRules::create(langid.clone(), PluralRuleType::CARDINAL)
            .or_else(|_| {
                let bare: LanguageIdentifier = langid
                    .language
                    .as_str()
                    .parse()
                    .map_err(|_| "bad language")?;
                PluralRules::create(bare, PluralRuleType::CARDINAL)
            })
            .map_err(|_| meta.invalid("language", "has no CLDR plural rules"))?;
        let espeak_voice = meta
            .opt_string("espeak_voice")?
            .unwrap_or_else(|| language.clone());
        let list_separator = meta
            .opt_string("list_separator")?
            .unwrap_or_else(|| ", ".to_owned());
        let list_last = meta
            .opt_string("list_last")?
            .unwrap_or_else(|| list_separator.clone());
        let alternative = meta
            .opt_string("alternative")?
            .unwrap_or_else(|| list_separator.clone());

        let numbers = root.table("numbers")?;
        let cardinal = numbers.strings("cardinal", Some(100))?;
        let hundreds = numbers.strings("hundreds", Some(9))?;
        let genitive = if numbers.t.contains_key("genitive") {
            Some(numbers.strings("genitive", Some(50))?)
        } else {
            None
        };
        let mut gender_numbers = HashMap::new();
        if let Some(g) = numbers.opt_table("gender")? {
            for gender in g.t.keys() {
                let gt = g.table(gender)?;
                let mut m = HashMap::new();
                for (k, v) in gt.t {
                    let n: u64 = k
                        .parse()
                        .ok()
                        .filter(|n| *n < 100)
                        .ok_or_else(|| gt.invalid(k, "must be a number 0-99"))?;
                    let toml::Value::String(s) = v else {
                        return Err(gt.invalid(k, "must be a string"));
                    };
                    m.insert(n, s.clone());
                }
                gender_numbers.insert(gender.clone(), m);
            }
        }

        // Plural categories the language uses for whole numbers.
        let mut categories = BTreeSet::new();
        for n in 0u64..=1000 {
            if let Ok(c) = plural.select(n) {
                categories.insert(category_key(&c));
            }
        }
        let nouns_t = root.table("nouns")?;
        let mut nouns = HashMap::new();
        for noun in NOUNS {
            let nt = nouns_t.table(noun)?;
            let gender = nt
                .opt_string("gender")?
                .unwrap_or_else(|| "masculine".to_owned());
            if gender != "masculine" && !gender_numbers.contains_key(&gender) {
                return Err(nt.invalid("gender", &format!("`{gender}` is not in [numbers.gender]")));
            }
            let mut forms = HashMap::new();
            for c in &categories {
                forms.insert(*c, nt.string(c)?);
            }
            nouns.insert((*noun).to_owned(), Noun { gender, forms });
        }

        let squares = root.table("squares")?;
        let letters = squares.strings("letters", Some(8))?;
        let letter_names = if squares.t.contains_key("letter_names") {
            Some(squares.strings("letter_names", Some(8))?)
        } else {
            None
        };

        let sides_t = root.table("sides")?;
        let mut sides: [HashMap<String, String>; 2] = Default::default();
        for (i, side) in ["white", "black"].iter().enumerate() {
            let st = sides_t.table(side)?;
            st.string("nominative")?;
            for (k, v) in st.t {
                let toml::Value::String(s) = v else {
                    return Err(st.invalid(k, "must be a string"));
                };
                sides[i].insert(k.clone(), s.clone());
            }
        }

        let pieces_t = root.table("pieces")?;
        let pieces = [
            pieces_t.string("white_man")?,
            pieces_t.string("white_king")?,
            pieces_t.string("black_man")?,
            pieces_t.string("black_king")?,
            pieces_t.string("empty")?,
        ];

        let mut templates = HashMap::new();
        let required = TEMPLATE_KEYS.iter().map(|(k, a)| (*k, *a, None));
        let optional = OPTIONAL_TEMPLATE_KEYS
            .iter()
            .map(|(k, a, d)| (*k, *a, Some(*d)));
        for (key, allowed, default) in required.chain(optional) {
            let (section, name) = key.split_once('.').unwrap_or(("", key));
            let text = match default {
                None => root.table(section)?.string(name)?,
                Some(d) => match root.opt_table(section)? {
                    Some(t) => t.opt_string(name)?.unwrap_or_else(|| d.to_owned()),
                    None => d.to_owned(),
                },
            };
            let parts = parse_template(key, &text)?;
            for p in &parts {
                let Part::Arg { name, form } = p else {
                    continue;
                };
                let bad = |reason: String| PhrasebookError::BadPlaceholder {
                    key: (*key).to_owned(),
                    placeholder: match form {
                        Some(f) => format!("{name}:{f}"),
                        None => name.clone(),
                    },
                    reason,
                };
                if !allowed.contains(&name.as_str()) {
                    let list = if allowed.is_empty() {
                        "none".to_owned()
                    } else {
                        allowed.join(", ")
                    };
                    return Err(bad(format!(
                        "is not an argument of this template (it has: {list})"
                    )));
                }
                if let Some(form) = form {
                    match arg_kind(name) {
                        ArgKind::Square if form == "genitive" => {
                            if genitive.is_none() {
                                return Err(bad("needs the list `numbers.genitive`".to_owned()));
                            }
                        }
                        ArgKind::Square => {
                            return Err(bad(
                                "has an unknown form (squares have only `genitive`)".to_owned()
                            ))
                        }
                        ArgKind::Number if nouns.contains_key(form) => {}
                        ArgKind::Number => {
                            return Err(bad(format!(
                                "names an unknown noun (nouns: {})",
                                NOUNS.join(", ")
                            )));
                        }
                        ArgKind::Side => {
                            if !sides.iter().all(|s| s.contains_key(form)) {
                                return Err(bad(
                                    "names a case missing from [sides.white] or [sides.black]"
                                        .to_owned(),
                                ));
                            }
                        }
                        ArgKind::Text => return Err(bad("takes no form".to_owned())),
                    }
                }
            }
            templates.insert(key, parts);
        }

        let listen_t = root.table("listen")?;
        let commands_t = listen_t.table("commands")?;
        let mut commands = BTreeMap::new();
        for c in CommandKind::ALL {
            // A draw claim is chess's (002 art. 9.2): a phrasebook written
            // before it, or for draughts only, may leave it out.
            if c.optional() && !commands_t.t.contains_key(c.key()) {
                commands.insert(c, Vec::new());
                continue;
            }
            commands.insert(c, commands_t.strings(c.key(), None)?);
        }
        let mut files: [Vec<String>; 8] = Default::default();
        if let Some(ft) = listen_t.opt_table("files")? {
            for key in ft.t.keys() {
                let i = match key.as_bytes() {
                    [c @ b'a'..=b'h'] => usize::from(c - b'a'),
                    _ => return Err(ft.invalid(key, "is not a file letter a-h")),
                };
                files[i] = ft.strings(key, None)?;
            }
        }
        let mishearings = parse_mishearings(&listen_t)?;
        let match_syllables = match listen_t.opt_string("match")?.as_deref() {
            None | Some("words") => false,
            Some("syllables") => true,
            Some(_) => return Err(listen_t.invalid("match", "must be \"words\" or \"syllables\"")),
        };
        // The connective lists must be present but may be empty: a language
        // may say a move as the two squares alone.
        let connectives = |key: &str| match listen_t.get(key)? {
            toml::Value::Array(a) if a.is_empty() => Ok(Vec::new()),
            _ => listen_t.strings(key, None),
        };
        let listen = ListenWords {
            to: connectives("to")?,
            takes: connectives("takes")?,
            from: connectives("from")?,
            taking: connectives("taking")?,
            commands,
            files,
            mishearings,
            match_syllables,
        };

        Ok(Phrasebook {
            book: std::sync::Arc::new(Book {
                name,
                language,
                plural,
                espeak_voice,
                list_separator,
                list_last,
                alternative,
                cardinal,
                hundreds,
                genitive,
                gender_numbers,
                nouns,
                letters,
                letter_names,
                sides,
                pieces,
                templates,
                listen,
            }),
        })
    }

    /// The language tag (`pl`, `en`).
    #[must_use]
    pub fn language(&self) -> &str {
        &self.language
    }

    /// The language's own name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The espeak-ng voice for this language.
    #[must_use]
    pub fn espeak_voice(&self) -> &str {
        &self.espeak_voice
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
                let mut s = self.hundreds[(n / 100 - 1) as usize].clone();
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
        let cat = self
            .plural
            .select(n)
            .map(|c| category_key(&c))
            .unwrap_or("other");
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
                    &self.list_last
                } else {
                    &self.list_separator
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
            .join(&self.alternative)
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
