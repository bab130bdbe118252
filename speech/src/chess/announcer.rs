//! Chess speech (002: FIDE Laws of Chess, annex E): [`ChessPhrasebook`], the
//! words and templates of one language from a TOML file
//! (`speech/phrasebooks/chess/pl.toml`, `en.toml`), and
//! [`ChessAnnouncer`], which turns moves, refusals and endings into
//! [`Utterance`]s. Pure and golden-tested (`tests/golden/chess-*.txt`).
//!
//! What an announcement says follows annex E.2: the piece, the start and end
//! squares with the files named Anna … Hektor (or as plain letters,
//! [`FileStyle`]) and the ranks as numbers; castling as "krótka roszada" /
//! "długa roszada" with where king and rook go; and what a player on a
//! tactile board must do: for a capture, which piece comes off and from
//! which square (for en passant, the captured pawn's own square, E.2.3(a));
//! the promotion piece; check and mate.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use tandem_rules::chess::arbiter::{ChessFix, ChessSquareChange};
use tandem_rules::chess::shakmaty::{
    CastlingSide, Chess, Color as ShColor, Piece, Position, Role, Square,
};
use tandem_rules::chess::{ChessError, ChessMove, IllegalReason};
use tandem_rules::{Color, DrawReason, Outcome, WinReason};

use crate::utterance::{Kind, Priority, Utterance};

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
        // Parsed once (the hall replays journals many times a second).
        static PARSED: std::sync::OnceLock<ChessPhrasebook> = std::sync::OnceLock::new();
        // The built-in file is tested to load (tests below and the golden tests).
        PARSED
            .get_or_init(|| {
                ChessPhrasebook::from_toml_str(CHESS_POLISH_TOML)
                    .expect("built-in chess/pl.toml is valid")
            })
            .clone()
    }

    /// The built-in English book.
    #[must_use]
    pub fn english() -> ChessPhrasebook {
        static PARSED: std::sync::OnceLock<ChessPhrasebook> = std::sync::OnceLock::new();
        PARSED
            .get_or_init(|| {
                ChessPhrasebook::from_toml_str(CHESS_ENGLISH_TOML)
                    .expect("built-in chess/en.toml is valid")
            })
            .clone()
    }

    /// A built-in book by language tag (`pl`, `en`).
    #[must_use]
    pub fn builtin(lang: &str) -> Option<ChessPhrasebook> {
        match lang {
            "pl" => Some(ChessPhrasebook::polish()),
            "en" => Some(ChessPhrasebook::english()),
            _ => None,
        }
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

/// Turns chess events into utterances (pure).
#[derive(Debug, Clone)]
pub struct ChessAnnouncer {
    book: ChessPhrasebook,
    style: FileStyle,
}

impl ChessAnnouncer {
    /// An announcer speaking files in `style`.
    #[must_use]
    pub fn new(book: ChessPhrasebook, style: FileStyle) -> ChessAnnouncer {
        ChessAnnouncer { book, style }
    }

    /// The phrasebook.
    #[must_use]
    pub fn phrasebook(&self) -> &ChessPhrasebook {
        &self.book
    }

    /// The file style.
    #[must_use]
    pub fn style(&self) -> FileStyle {
        self.style
    }

    /// A square's words.
    #[must_use]
    pub fn square(&self, sq: Square) -> String {
        self.book.square(sq, self.style)
    }

    /// The sentences of a move (without check or mate): what to do on a tactile board.
    #[must_use]
    pub fn move_sentences(&self, before: &Chess, m: &ChessMove) -> Vec<String> {
        let b = &self.book;
        let mut s = Vec::new();
        if let (Some(side), Some((rook_from, rook_to))) = (m.castling(), m.rook_move()) {
            let key = match side {
                CastlingSide::KingSide => "move.short_castle",
                CastlingSide::QueenSide => "move.long_castle",
            };
            s.push(b.sentence(
                key,
                &[
                    ("king", &self.square(m.to)),
                    ("rook_from", &self.square(rook_from)),
                    ("rook_to", &self.square(rook_to)),
                ],
            ));
            return s;
        }
        let piece = b.piece("nominative", m.role);
        let (from, to) = (self.square(m.from), self.square(m.to));
        let key = match (m.kind, m.is_capture()) {
            (tandem_rules::chess::MoveKind::EnPassant, _) => "move.en_passant",
            (_, true) => "move.capture",
            _ => "move.quiet",
        };
        s.push(b.sentence(key, &[("piece", piece), ("from", &from), ("to", &to)]));
        if let Some((role, sq)) = m.captured() {
            let form = match Color::from(!before.turn()) {
                Color::White => "white_taken",
                Color::Black => "black_taken",
            };
            s.push(b.sentence(
                "move.remove",
                &[("taken", b.piece(form, role)), ("square", &self.square(sq))],
            ));
        }
        if let Some(p) = m.promotion {
            s.push(b.sentence("move.promotion", &[("piece", b.piece("accusative", p))]));
        }
        s
    }

    /// The announcement of a move played in `before` (002 annex E.2.1), with
    /// check or mate after it.
    #[must_use]
    pub fn on_move(&self, before: &Chess, m: &ChessMove) -> Utterance {
        let mut s = self.move_sentences(before, m);
        let mut after = before.clone();
        after.play_unchecked(&m.to_shakmaty());
        if after.is_checkmate() {
            s.push(self.book.sentence("move.checkmate", &[]));
        } else if after.is_check() {
            s.push(self.book.sentence("move.check", &[]));
        }
        Utterance::new(Priority::Next, Kind::Move, s)
    }

    /// Whose move it is.
    #[must_use]
    pub fn turn(&self, pos: &Chess) -> Utterance {
        let key = match pos.turn() {
            ShColor::White => "turn.white",
            ShColor::Black => "turn.black",
        };
        Utterance::new(
            Priority::Normal,
            Kind::Turn,
            vec![self.book.sentence(key, &[])],
        )
    }

    /// The question for several candidate moves: "Który skoczek: Bella jeden
    /// czy Feliks trzy?", or for a promotion "Na jaką figurę …: hetman, …?".
    #[must_use]
    pub fn ask_which(&self, candidates: &[ChessMove]) -> Utterance {
        let b = &self.book;
        if candidates.is_empty() {
            // A rated game (issue 41): the rule, not the pieces that could move.
            let s = b.sentence("reject.which_rule", &[]);
            return Utterance::new(Priority::Now, Kind::Rejection, vec![s]);
        }
        let promotion = candidates.len() > 1
            && candidates.iter().all(|m| {
                m.promotion.is_some() && m.from == candidates[0].from && m.to == candidates[0].to
            });
        let s = if promotion {
            let opts: Vec<String> = candidates
                .iter()
                .filter_map(|m| m.promotion)
                .map(|r| b.piece("nominative", r).to_owned())
                .collect();
            b.sentence(
                "reject.which_promotion",
                &[("options", &b.alternatives(&opts))],
            )
        } else {
            let role = candidates.first().map_or(Role::Pawn, |m| m.role);
            let same_role = candidates.iter().all(|m| m.role == role);
            let mut opts: Vec<String> = Vec::new();
            for m in candidates {
                let o = if same_role {
                    self.square(m.from)
                } else {
                    format!("{} {}", b.piece("nominative", m.role), self.square(m.from))
                };
                if !opts.contains(&o) {
                    opts.push(o);
                }
            }
            let which = if same_role {
                b.piece("which", role)
            } else {
                b.piece("which", Role::Pawn)
            };
            b.sentence(
                "reject.which",
                &[("which", which), ("options", &b.alternatives(&opts))],
            )
        };
        Utterance::new(Priority::Now, Kind::Rejection, vec![s])
    }

    /// Why a move was refused, in the player's words.
    #[must_use]
    pub fn on_rejected(&self, text: &str, e: &ChessError) -> Utterance {
        let b = &self.book;
        let sq = |s: Square| self.square(s);
        let s = match e {
            ChessError::Ambiguous { candidates, .. } => return self.ask_which(candidates),
            ChessError::GameOver(_) => b.sentence("reject.game_over", &[]),
            ChessError::Illegal { reason, .. } => match *reason {
                IllegalReason::NoPiece { square } => {
                    b.sentence("reject.no_piece", &[("square", &sq(square))])
                }
                IllegalReason::NotYourPiece { square } => {
                    b.sentence("reject.not_your_piece", &[("square", &sq(square))])
                }
                IllegalReason::OwnPiece { square } => {
                    b.sentence("reject.own_piece", &[("square", &sq(square))])
                }
                IllegalReason::CannotReach { role, from, to } => b.sentence(
                    "reject.cannot_reach",
                    &[
                        ("piece", b.piece("nominative", role)),
                        ("from", &sq(from)),
                        ("to", &sq(to)),
                    ],
                ),
                IllegalReason::KingInCheck { from, to } => b.sentence(
                    "reject.king_in_check",
                    &[("from", &sq(from)), ("to", &sq(to))],
                ),
                IllegalReason::CastlingNotAllowed => b.sentence("reject.castling", &[]),
                IllegalReason::NoSuchMove { role, to } => b.sentence(
                    "reject.no_such_move",
                    &[("piece", b.piece("nominative", role)), ("to", &sq(to))],
                ),
                IllegalReason::Promotion => b.sentence("reject.promotion", &[]),
                IllegalReason::NoMoves => b.sentence("reject.no_moves", &[]),
                _ => b.sentence("reject.syntax", &[("text", text)]),
            },
            _ => b.sentence("reject.syntax", &[("text", text)]),
        };
        Utterance::new(Priority::Now, Kind::Rejection, vec![s])
    }

    /// A draw the player on move may claim (002 art. 9.2, 9.3).
    #[must_use]
    pub fn claimable(&self, reason: DrawReason) -> Option<Utterance> {
        let key = match reason {
            DrawReason::Repetition => "draw.claim_repetition",
            DrawReason::FiftyMoves => "draw.claim_fifty",
            _ => return None,
        };
        Some(Utterance::new(
            Priority::Normal,
            Kind::Draw,
            vec![self.book.sentence(key, &[])],
        ))
    }

    /// The game ended: result, then reason.
    #[must_use]
    pub fn game_over(&self, outcome: &Outcome) -> Utterance {
        let b = &self.book;
        let mut s = Vec::new();
        match outcome {
            Outcome::Win { winner, reason } => {
                s.push(b.sentence(
                    if *winner == Color::White {
                        "end.white_wins"
                    } else {
                        "end.black_wins"
                    },
                    &[],
                ));
                let loser_white = *winner == Color::Black;
                let key = match reason {
                    WinReason::Checkmate => Some("end.checkmate"),
                    WinReason::Resignation if loser_white => Some("end.resigned_white"),
                    WinReason::Resignation => Some("end.resigned_black"),
                    WinReason::Time if loser_white => Some("end.flag_white"),
                    WinReason::Time => Some("end.flag_black"),
                    _ => None,
                };
                if let Some(k) = key {
                    s.push(b.sentence(k, &[]));
                }
            }
            Outcome::Draw { reason } => {
                s.push(b.sentence("end.draw", &[]));
                let key = match reason {
                    DrawReason::Stalemate => Some("end.stalemate"),
                    DrawReason::DeadPosition => Some("end.dead_position"),
                    DrawReason::Repetition => Some("end.repetition"),
                    DrawReason::FiftyMoves => Some("end.fifty_moves"),
                    DrawReason::FlagNoMate => Some("end.flag_no_mate"),
                    DrawReason::Agreement => Some("end.agreed"),
                    _ => None,
                };
                if let Some(k) = key {
                    s.push(b.sentence(k, &[]));
                }
            }
        }
        Utterance::new(Priority::Next, Kind::GameEnd, s)
    }
}

/// What the daemon says at the table besides moves: the position, the last
/// move, a board behind, draw claims (002 annex E.3, E.4 and art. 9).
impl ChessAnnouncer {
    /// A piece in its colour, as a name standing alone ("biały skoczek").
    #[must_use]
    pub fn piece_name(&self, piece: Option<Piece>) -> String {
        match piece {
            Some(p) => {
                let form = match p.color {
                    ShColor::White => "white",
                    ShColor::Black => "black",
                };
                self.book.piece(form, p.role).to_owned()
            }
            None => self.book.render("table.empty", &[]),
        }
    }

    /// The whole position: each side's pieces by kind (king, queen, rooks,
    /// bishops, knights, pawns) with their squares, then whose move it is.
    #[must_use]
    pub fn describe_position(&self, pos: &Chess) -> Utterance {
        let b = &self.book;
        let order = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ];
        let mut s = Vec::new();
        for (color, key) in [
            (ShColor::White, "table.white"),
            (ShColor::Black, "table.black"),
        ] {
            let mut pieces = Vec::new();
            for role in order {
                let squares = pos.board().by_color(color) & pos.board().by_role(role);
                for sq in squares {
                    pieces.push(b.render(
                        "table.piece",
                        &[
                            ("piece", b.piece("nominative", role)),
                            ("square", &self.square(sq)),
                        ],
                    ));
                }
            }
            s.push(b.sentence(key, &[("pieces", &pieces.join(&b.list_separator))]));
        }
        s.extend(self.turn(pos).sentences);
        Utterance::new(Priority::Next, Kind::Describe, s)
    }

    /// What stands on one square.
    #[must_use]
    pub fn describe_square(&self, pos: &Chess, sq: Square) -> Utterance {
        let piece = self.piece_name(pos.board().piece_at(sq));
        let s = self.book.sentence(
            "table.square",
            &[("square", &self.square(sq)), ("piece", &piece)],
        );
        Utterance::new(Priority::Next, Kind::Describe, vec![s])
    }

    /// The last move again (`None` before the first), as it was announced.
    #[must_use]
    pub fn last_move(&self, last: Option<(&Chess, &ChessMove)>) -> Utterance {
        let s = match last {
            Some((before, m)) => {
                let words = self.on_move(before, m).sentences.join(" ");
                vec![self.book.sentence("table.last", &[("move", &words)])]
            }
            None => vec![self.book.sentence("table.no_last", &[])],
        };
        Utterance::new(Priority::Next, Kind::Move, s)
    }

    /// A board `behind` plies behind the record; `next` (played in `before`)
    /// is the first move to make on it (002 annex E.4).
    #[must_use]
    pub fn board_behind(&self, behind: u32, before: &Chess, next: &ChessMove) -> Utterance {
        let words = self.on_move(before, next).sentences.join(" ");
        let s = if behind <= 1 {
            self.book.sentence("table.behind_one", &[("move", &words)])
        } else {
            self.book.sentence(
                "table.behind_many",
                &[("count", &behind.to_string()), ("move", &words)],
            )
        };
        Utterance::new(Priority::Normal, Kind::Sync, vec![s])
    }

    /// Both boards show the record's position.
    #[must_use]
    pub fn boards_in_sync(&self) -> Utterance {
        Utterance::new(
            Priority::Normal,
            Kind::Sync,
            vec![self.book.sentence("table.in_sync", &[])],
        )
    }

    /// A draw claim that is not correct: the opponent gets `minutes` more and
    /// play goes on (002 art. 9.5(b)).
    #[must_use]
    pub fn claim_wrong(&self, minutes: u64) -> Utterance {
        let s = self
            .book
            .sentence("table.claim_wrong", &[("minutes", &minutes.to_string())]);
        Utterance::new(Priority::Now, Kind::Draw, vec![s])
    }

    /// No draw can be claimed now (a claim with nothing to claim).
    #[must_use]
    pub fn no_claim(&self) -> Utterance {
        Utterance::new(
            Priority::Now,
            Kind::Rejection,
            vec![self.book.sentence("table.no_claim", &[])],
        )
    }

    /// How to play by voice and keys.
    #[must_use]
    pub fn help(&self) -> Utterance {
        Utterance::new(
            Priority::Next,
            Kind::Help,
            vec![self.book.sentence("table.help", &[])],
        )
    }
}

/// The arbiter's words (002 annex E.7-E.8): boards that differ and what to
/// do on a board to correct it, square by square.
impl ChessAnnouncer {
    /// The boards differ (002 annex E.7): say so at once, then each square:
    /// what the record has there and what the board has. For the daemon's
    /// mismatch handling (`a` of each change: the record's position; `b`:
    /// the board read back).
    #[must_use]
    pub fn boards_differ(&self, changes: &[ChessSquareChange]) -> Utterance {
        let b = &self.book;
        let mut s = vec![b.sentence("arbiter.differ", &[])];
        for c in changes {
            s.push(b.sentence(
                "arbiter.differ_square",
                &[
                    ("square", &self.square(c.square)),
                    ("expected", &self.piece_name(c.a)),
                    ("actual", &self.piece_name(c.b)),
                ],
            ));
        }
        Utterance::new(Priority::Now, Kind::Sync, s)
    }

    /// What to do on the second board to make it equal the first, one
    /// sentence a step (a piece that should be another: take it off, put the
    /// other on). `spoken`: squares in words ("Feliks sześć") for speech,
    /// else as written (`f6`) for a screen.
    #[must_use]
    pub fn fix_sentences(&self, changes: &[ChessSquareChange], spoken: bool) -> Vec<String> {
        let b = &self.book;
        let square = |sq: Square| {
            if spoken {
                self.square(sq)
            } else {
                sq.to_string()
            }
        };
        let say = |key: &str, sq: Square, piece: Piece| {
            b.sentence(
                key,
                &[
                    ("square", &square(sq)),
                    ("piece", &self.piece_name(Some(piece))),
                ],
            )
        };
        let mut out = Vec::new();
        for c in changes {
            match c.fix() {
                Some(ChessFix::Remove { square, piece }) => {
                    out.push(say("arbiter.fix_remove", square, piece));
                }
                Some(ChessFix::Put { square, piece }) => {
                    out.push(say("arbiter.fix_put", square, piece));
                }
                Some(ChessFix::Replace {
                    square,
                    remove,
                    put,
                }) => {
                    out.push(say("arbiter.fix_remove", square, remove));
                    out.push(say("arbiter.fix_put", square, put));
                }
                None => {}
            }
        }
        out
    }

    /// [`ChessAnnouncer::fix_sentences`] spoken, for the player whose board
    /// is corrected.
    #[must_use]
    pub fn fix_board(&self, changes: &[ChessSquareChange]) -> Utterance {
        Utterance::new(
            Priority::Next,
            Kind::Sync,
            self.fix_sentences(changes, true),
        )
    }
}

#[cfg(test)]
mod tests;
