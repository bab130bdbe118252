//! The words and templates of chess in one language ([`ChessPhrasebook`]),
//! read and checked from a TOML file (`speech/phrasebooks/chess/pl.toml`,
//! `en.toml`); [`super::ChessAnnouncer`] says moves with them.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use tandem_rules::chess::shakmaty::{Role, Square};

use std::collections::HashMap;
use std::sync::Mutex;

/// The Polish chess phrasebook's source.
pub const CHESS_POLISH_TOML: &str = include_str!("../../phrasebooks/chess/pl.toml");
/// The English chess phrasebook's source.
pub const CHESS_ENGLISH_TOML: &str = include_str!("../../phrasebooks/chess/en.toml");

/// A rated game's ambiguous move (issue 41), in a book without its own words.
const WHICH_RULE_EN: &str = "More than one move fits: say the square the piece starts from too.";

/// Every template and the names it may use.
pub const CHESS_TEMPLATES: &[(&str, &[&str])] = &[
    ("squares.square", &["file", "rank"]),
    ("move.quiet", &["piece", "from", "to"]),
    ("move.capture", &["piece", "from", "to"]),
    ("move.en_passant", &["piece", "from", "to"]),
    ("move.remove", &["taken", "square"]),
    ("move.short_castle", &["king", "rook_from", "rook_to"]),
    ("move.long_castle", &["king", "rook_from", "rook_to"]),
    ("move.promotion", &["piece"]),
    ("move.check", &[]),
    ("move.checkmate", &[]),
    ("turn.white", &[]),
    ("turn.black", &[]),
    ("reject.syntax", &["text"]),
    ("reject.no_moves", &[]),
    ("reject.no_piece", &["square"]),
    ("reject.not_your_piece", &["square"]),
    ("reject.own_piece", &["square"]),
    ("reject.cannot_reach", &["piece", "from", "to"]),
    ("reject.king_in_check", &["from", "to"]),
    ("reject.castling", &[]),
    ("reject.no_such_move", &["piece", "to"]),
    ("reject.promotion", &[]),
    ("reject.which", &["which", "options"]),
    ("reject.which_promotion", &["options"]),
    ("reject.game_over", &[]),
    ("draw.claim_repetition", &[]),
    ("draw.claim_fifty", &[]),
    ("end.white_wins", &[]),
    ("end.black_wins", &[]),
    ("end.draw", &[]),
    ("end.checkmate", &[]),
    ("end.stalemate", &[]),
    ("end.dead_position", &[]),
    ("end.repetition", &[]),
    ("end.fifty_moves", &[]),
    ("end.resigned_white", &[]),
    ("end.resigned_black", &[]),
    ("end.flag_white", &[]),
    ("end.flag_black", &[]),
    ("end.agreed", &[]),
    ("end.flag_no_mate", &[]),
    ("table.last", &["move"]),
    ("table.no_last", &[]),
    ("table.behind_one", &["move"]),
    ("table.behind_many", &["count", "move"]),
    ("table.in_sync", &[]),
    ("table.empty", &[]),
    ("table.white", &["pieces"]),
    ("table.black", &["pieces"]),
    ("table.piece", &["piece", "square"]),
    ("table.square", &["square", "piece"]),
    ("table.claim_wrong", &["minutes"]),
    ("table.no_claim", &[]),
    ("table.help", &[]),
    ("arbiter.differ", &[]),
    ("arbiter.differ_square", &["square", "expected", "actual"]),
    ("arbiter.fix_remove", &["piece", "square"]),
    ("arbiter.fix_put", &["piece", "square"]),
];

/// The piece-name tables, each with a name for every role.
pub const PIECE_FORMS: &[&str] = &[
    "nominative",
    "accusative",
    "which",
    "white_taken",
    "black_taken",
    "white",
    "black",
];

const ROLES: [(Role, &str); 6] = [
    (Role::King, "king"),
    (Role::Queen, "queen"),
    (Role::Rook, "rook"),
    (Role::Bishop, "bishop"),
    (Role::Knight, "knight"),
    (Role::Pawn, "pawn"),
];

/// The key of a role in `[pieces.*]`.
#[must_use]
pub fn role_key(role: Role) -> &'static str {
    ROLES
        .iter()
        .find(|(r, _)| *r == role)
        .map_or("pawn", |(_, k)| k)
}

/// How files are spoken: annex E.2.1's names ("Ewa cztery") or plain letters ("e cztery").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileStyle {
    /// Anna, Bella, Cesar, … (the annex's recommendation).
    #[default]
    Names,
    /// a, b, c, … as letters.
    Letters,
}

/// Why a chess phrasebook was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChessPhrasebookError(pub String);

impl fmt::Display for ChessPhrasebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "chess phrasebook: {}", self.0)
    }
}

impl std::error::Error for ChessPhrasebookError {}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Arg(String),
}

/// The listening words of a chess phrasebook (`[listen]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChessListenWords {
    /// Words between the squares of a capture ("bije", "takes").
    pub takes: Vec<String>,
    /// Words between start and end square ("na", "to").
    pub to: Vec<String>,
    /// Ways to say short castling.
    pub short_castle: Vec<String>,
    /// Ways to say long castling.
    pub long_castle: Vec<String>,
    /// Words before a promotion piece.
    pub promote: Vec<String>,
    /// More words per file a-h.
    pub file_words: [Vec<String>; 8],
    /// More words per piece (key as in `[pieces.*]`).
    pub piece_words: BTreeMap<String, Vec<String>>,
}

/// The words and templates of chess in one language.
#[derive(Debug, Clone)]
pub struct ChessPhrasebook {
    language: String,
    espeak_voice: String,
    alternative: String,
    list_separator: String,
    names: [String; 8],
    letters: [String; 8],
    ranks: [String; 8],
    pieces: BTreeMap<(String, String), String>,
    templates: BTreeMap<String, Vec<Part>>,
    listen: ChessListenWords,
}

fn parse_template(
    key: &str,
    text: &str,
    allowed: &[&str],
) -> Result<Vec<Part>, ChessPhrasebookError> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(Part::Text(rest[..open].to_owned()));
        }
        let Some(close) = rest[open..].find('}') else {
            return Err(ChessPhrasebookError(format!(
                "{key}: unclosed {{ in {text:?}"
            )));
        };
        let name = &rest[open + 1..open + close];
        if !allowed.contains(&name) {
            return Err(ChessPhrasebookError(format!(
                "{key}: {{{name}}} is not one of {allowed:?}"
            )));
        }
        parts.push(Part::Arg(name.to_owned()));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Text(rest.to_owned()));
    }
    Ok(parts)
}

fn get<'a>(root: &'a toml::Table, path: &str) -> Option<&'a toml::Value> {
    let mut cur: Option<&toml::Value> = None;
    let mut table = root;
    for (i, seg) in path.split('.').enumerate() {
        let v = table.get(seg)?;
        if i + 1 < path.split('.').count() {
            table = v.as_table()?;
        }
        cur = Some(v);
    }
    cur
}

fn string(root: &toml::Table, path: &str) -> Result<String, ChessPhrasebookError> {
    get(root, path)
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ChessPhrasebookError(format!("{path}: missing or not a string")))
}

fn strings(root: &toml::Table, path: &str) -> Result<Vec<String>, ChessPhrasebookError> {
    let bad = || ChessPhrasebookError(format!("{path}: missing or not a list of words"));
    let arr = get(root, path)
        .and_then(toml::Value::as_array)
        .ok_or_else(bad)?;
    arr.iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .filter(|s| !s.trim().is_empty())
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(bad)
}

fn eight(root: &toml::Table, path: &str) -> Result<[String; 8], ChessPhrasebookError> {
    strings(root, path)?
        .try_into()
        .map_err(|_| ChessPhrasebookError(format!("{path}: needs exactly 8 entries")))
}

impl ChessPhrasebook {
    /// The built-in Polish book.
    #[must_use]
    pub fn polish() -> ChessPhrasebook {
        // The built-in file is tested to load (tests below and the golden tests).
        ChessPhrasebook::builtin("pl").expect("chess/pl.toml is valid (tested)")
    }

    /// The built-in English book.
    #[must_use]
    pub fn english() -> ChessPhrasebook {
        ChessPhrasebook::builtin("en").expect("chess/en.toml is valid (tested)")
    }

    /// The built-in book of a language with data
    /// (`speech/phrasebooks/chess/LANG.toml`); `None` for a language
    /// without it or whose file lacks a key of the English one.
    #[must_use]
    pub fn builtin(lang: &str) -> Option<ChessPhrasebook> {
        static PARSED: OnceLock<Mutex<HashMap<String, ChessPhrasebook>>> = OnceLock::new();
        crate::languages::once_per_language(&PARSED, lang, || {
            let text = crate::languages::text(crate::languages::Book::Chess, lang).ok()?;
            ChessPhrasebook::from_toml_str(text).ok()
        })
    }

    /// Loads a book from a file.
    ///
    /// # Errors
    /// The file cannot be read or is not a complete chess phrasebook.
    pub fn from_file(path: &Path) -> Result<ChessPhrasebook, ChessPhrasebookError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ChessPhrasebookError(format!("{}: {e}", path.display())))?;
        ChessPhrasebook::from_toml_str(&text)
    }

    /// Reads and checks a book: every template present with only its own
    /// names, every piece form for every piece, 8 files and ranks.
    ///
    /// # Errors
    /// What is missing or wrong, by key.
    pub fn from_toml_str(text: &str) -> Result<ChessPhrasebook, ChessPhrasebookError> {
        let root: toml::Table =
            toml::from_str(text).map_err(|e| ChessPhrasebookError(e.to_string()))?;
        let mut templates = BTreeMap::new();
        for (key, allowed) in CHESS_TEMPLATES {
            let t = string(&root, key)?;
            templates.insert((*key).to_owned(), parse_template(key, &t, allowed)?);
        }
        // A rated game's refusal (issue 41): a book written before it loads,
        // with the English words.
        let key = "reject.which_rule";
        let t = string(&root, key).unwrap_or_else(|_| WHICH_RULE_EN.to_owned());
        templates.insert(key.to_owned(), parse_template(key, &t, &[])?);
        let mut pieces = BTreeMap::new();
        for form in PIECE_FORMS {
            for (_, role) in ROLES {
                let key = format!("pieces.{form}.{role}");
                pieces.insert(((*form).to_owned(), role.to_owned()), string(&root, &key)?);
            }
        }
        let opt_strings = |p: &str| -> Result<Vec<String>, ChessPhrasebookError> {
            if get(&root, p).is_some() {
                strings(&root, p)
            } else {
                Ok(Vec::new())
            }
        };
        let mut listen = ChessListenWords {
            takes: opt_strings("listen.takes")?,
            to: opt_strings("listen.to")?,
            short_castle: opt_strings("listen.short_castle")?,
            long_castle: opt_strings("listen.long_castle")?,
            promote: opt_strings("listen.promote")?,
            ..ChessListenWords::default()
        };
        if let Some(fw) = get(&root, "listen.file_words") {
            let arr = fw
                .as_array()
                .filter(|a| a.len() == 8)
                .ok_or_else(|| ChessPhrasebookError("listen.file_words: needs 8 lists".into()))?;
            for (i, words) in arr.iter().enumerate() {
                listen.file_words[i] = words
                    .as_array()
                    .and_then(|a| a.iter().map(|w| w.as_str().map(str::to_owned)).collect())
                    .ok_or_else(|| {
                        ChessPhrasebookError(format!("listen.file_words[{i}]: not a list of words"))
                    })?;
            }
        }
        if let Some(pw) = get(&root, "listen.piece_words") {
            let t = pw
                .as_table()
                .ok_or_else(|| ChessPhrasebookError("listen.piece_words: not a table".into()))?;
            for (k, _) in t {
                if !ROLES.iter().any(|(_, r)| r == k) {
                    return Err(ChessPhrasebookError(format!(
                        "listen.piece_words: unknown piece {k:?}"
                    )));
                }
                listen.piece_words.insert(
                    k.clone(),
                    strings(&root, &format!("listen.piece_words.{k}"))?,
                );
            }
        }
        Ok(ChessPhrasebook {
            language: string(&root, "meta.language")?,
            espeak_voice: string(&root, "meta.espeak_voice")?,
            alternative: string(&root, "meta.alternative")?,
            list_separator: string(&root, "meta.list_separator")?,
            names: eight(&root, "squares.names")?,
            letters: eight(&root, "squares.letters")?,
            ranks: eight(&root, "squares.ranks")?,
            pieces,
            templates,
            listen,
        })
    }

    /// The language tag.
    #[must_use]
    pub fn language(&self) -> &str {
        &self.language
    }

    /// The espeak-ng voice.
    #[must_use]
    pub fn espeak_voice(&self) -> &str {
        &self.espeak_voice
    }

    /// The word between the items of a list (", ").
    pub(super) fn list_separator(&self) -> &str {
        &self.list_separator
    }

    /// The word between the options of a question (" czy ", " or ").
    #[must_use]
    pub fn alternative(&self) -> &str {
        &self.alternative
    }

    /// The words of a file (0 = a) in a style.
    #[must_use]
    pub fn file_word(&self, file: usize, style: FileStyle) -> &str {
        match style {
            FileStyle::Names => &self.names[file.min(7)],
            FileStyle::Letters => &self.letters[file.min(7)],
        }
    }

    /// The word of a rank (0 = rank 1).
    #[must_use]
    pub fn rank_word(&self, rank: usize) -> &str {
        &self.ranks[rank.min(7)]
    }

    /// A piece's name in a form of [`PIECE_FORMS`].
    #[must_use]
    pub fn piece(&self, form: &str, role: Role) -> &str {
        self.pieces
            .get(&(form.to_owned(), role_key(role).to_owned()))
            .map_or("", String::as_str)
    }

    /// The listening words.
    #[must_use]
    pub fn listen(&self) -> &ChessListenWords {
        &self.listen
    }

    /// A square's words: "Ewa cztery" (names) or "e cztery" (letters).
    #[must_use]
    pub fn square(&self, sq: Square, style: FileStyle) -> String {
        self.render(
            "squares.square",
            &[
                ("file", self.file_word(usize::from(sq.file()), style)),
                ("rank", self.rank_word(usize::from(sq.rank()))),
            ],
        )
    }

    /// Renders a template (names not given render empty: the loader has
    /// checked that a template uses only its own names).
    #[must_use]
    pub fn render(&self, key: &str, args: &[(&str, &str)]) -> String {
        let Some(parts) = self.templates.get(key) else {
            return String::new();
        };
        let mut s = String::new();
        for p in parts {
            match p {
                Part::Text(t) => s.push_str(t),
                Part::Arg(a) => {
                    if let Some((_, v)) = args.iter().find(|(n, _)| n == a) {
                        s.push_str(v);
                    }
                }
            }
        }
        s
    }

    /// A rendered sentence with its first letter capitalised.
    #[must_use]
    pub fn sentence(&self, key: &str, args: &[(&str, &str)]) -> String {
        capitalise(&self.render(key, args))
    }

    /// Words joined for a question: "a, b czy c".
    #[must_use]
    pub fn alternatives(&self, items: &[String]) -> String {
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!(
                "{}{}{last}",
                init.join(&self.list_separator),
                self.alternative
            ),
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
