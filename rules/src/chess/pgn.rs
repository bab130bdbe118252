//! PGN: a lenient reader, [`replay`] with the first illegal move and its
//! reason, and a writer (002 annex C for the moves, SAN).
//!
//! The reader is relaxed, with the same lexer as [`crate::draughts::pdn`] (see
//! [`crate::record`] for the defects of real exports it repairs or skips
//! with a warning: encodings, escapes written out as text, broken tags...):
//! - tags `[Name "value"]` (escaped `\"` and `\\`), any number per line;
//! - comments `{…}` (kept with the move before them) and `;` to the end of
//!   the line; `%` escape lines; variations `( … )`, nested, skipped;
//! - move numbers `12.`, `012.` and `12...`, glued or not (`12.e4`), NAGs
//!   `$1`, marks `!`, `?`, `!?`;
//! - a game ends at its result (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `0.5-0.5`,
//!   `*`, a `-` or `?` at the very end), where the next game's tags begin, or
//!   where move 1 begins again; a game without a result still counts;
//! - a word that cannot be a move (`+-`, `&`, a name: no square and no
//!   castling in it) is skipped with a warning; a null move (`--`) is kept, and refused by replay;
//! - move text is kept as written; [`replay`] reads it with
//!   [`super::resolve`], so `0-0`, `e8Q` and UCI-looking moves are accepted.

use shakmaty::Position;

use super::error::ChessError;
use super::game::{pgn_result, ChessGame, ChessOptions};
pub use crate::record::Warning;
use crate::record::{self, Class, RawGame};

/// One game as read from a PGN file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// The result token at the end, if any.
    pub result: Option<String>,
    /// The line (1-based) where the game starts.
    pub line: usize,
    /// What the reader skipped or guessed in this game, with where.
    pub warnings: Vec<Warning>,
}

/// One move of the main line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnMove {
    /// The move as written (`Nf3`, `exd5+`, `O-O`).
    pub text: String,
    /// NAGs (`$1`).
    pub nags: Vec<u16>,
    /// Comments after it.
    pub comments: Vec<String>,
    /// The line (1-based) of the move.
    pub line: usize,
    /// The column (1-based, in characters) of the move on its line.
    pub column: usize,
}

impl PgnGame {
    /// A tag's value.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the game is Chess960 (Fischer random chess): a `Variant` tag
    /// `Chess960`, `Chess 960`, `Fischerandom` (cutechess), `Fischer Random`
    /// or `FRC`, any case.
    #[must_use]
    pub fn is_chess960(&self) -> bool {
        self.tag("Variant").is_some_and(|v| {
            let v: String = v
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase();
            matches!(
                v.as_str(),
                "chess960"
                    | "fischerandom"
                    | "fischerrandom"
                    | "fischerrandomchess"
                    | "frc"
                    | "960"
            )
        })
    }

    /// The start position: the `FEN` tag, or the standard one. A Chess960
    /// game ([`PgnGame::is_chess960`]) castles by Chess960's rules (the
    /// Laws' guidelines for Chess960, castling: the king and the rook end on
    /// the squares of standard castling).
    ///
    /// # Errors
    /// A bad FEN, or a `Variant` tag that is neither standard chess nor
    /// Chess960.
    pub fn start(&self) -> Result<ChessGame, String> {
        let chess960 = self.is_chess960();
        if let Some(v) = self.tag("Variant") {
            let v = v.trim().to_ascii_lowercase();
            if !chess960 && !matches!(v.as_str(), "" | "standard" | "chess" | "from position") {
                return Err(format!(
                    "variant {v:?} is neither standard chess nor Chess960"
                ));
            }
        }
        match self.tag("FEN") {
            Some(f) if !f.trim().is_empty() => super::from_fen_in(f, chess960)
                .map(|p| ChessGame::from_position(p, ChessOptions::default()))
                .map_err(|e| e.to_string()),
            _ if chess960 => {
                Err("a Chess960 game without a FEN tag: its start position is not known".into())
            }
            _ => Ok(ChessGame::new()),
        }
    }
}

/// What replaying a game gave (`Unreadable`: the game could not be set
/// up, a bad FEN or another variant).
pub type Replay = record::Replay<ChessGame, ChessError>;

/// Replays a game's main line from its start position.
///
/// ```
/// use tandem_rules::chess::pgn::{parse_pgn, replay, Replay};
/// let games = parse_pgn("[White \"A\"]\n\n1. e4 e5 2. Ke3 *\n");
/// match replay(&games[0]) {
///     Replay::Illegal { ply, text, .. } => assert_eq!((ply, text.as_str()), (3, "Ke3")),
///     other => panic!("{other}"),
/// }
/// ```
///
/// A record that goes on past a dead position (FIDE Laws 5.2.2: the game
/// was drawn there, but players sometimes play on and the record goes on)
/// is replayed to its end; [`replay_warnings`] says where it was drawn.
#[must_use]
pub fn replay(g: &PgnGame) -> Replay {
    let mut game = match g.start() {
        Ok(game) => game,
        Err(e) => return Replay::Unreadable(e),
    };
    game.play_on_past_dead_position();
    for (i, m) in g.moves.iter().enumerate() {
        if let Err(reason) = game.play_text(&m.text) {
            return Replay::Illegal {
                ply: i + 1,
                text: m.text.clone(),
                reason,
                game,
            };
        }
    }
    Replay::Ok(game)
}

/// What the replay of `g` found that breaks the Laws, as warnings at the
/// move in the file: a move recorded after a dead position (FIDE Laws
/// 5.2.2: the game was drawn when the position arose; the moves after it
/// are replayed and the recorded result is reported as written).
///
/// ```
/// use tandem_rules::chess::pgn::{parse_pgn, replay, replay_warnings, Replay};
/// let g = &parse_pgn("[FEN \"4k3/8/8/8/8/8/r7/4K2N w - - 0 1\"]\n1. Kd1 Kd7 2. Kc1 *")[0];
/// let r = replay(g);
/// assert!(matches!(r, Replay::Ok(ref game) if game.ply() == 3));
/// assert!(replay_warnings(g, &r).is_empty());
/// // The knight takes the last rook: king and knight against king.
/// let g = &parse_pgn("[FEN \"4k3/8/8/8/1N6/8/r7/4K3 w - - 0 1\"]\n1. Nxa2 Kd7 2. Kd2 1-0")[0];
/// let r = replay(g);
/// assert!(matches!(r, Replay::Ok(ref game) if game.ply() == 3));
/// let w = replay_warnings(g, &r);
/// assert_eq!((w.len(), w[0].line, w[0].column), (1, 2, 9), "{w:?}");
/// ```
#[must_use]
pub fn replay_warnings(g: &PgnGame, r: &Replay) -> Vec<Warning> {
    let game = match r {
        Replay::Ok(game) | Replay::Illegal { game, .. } => game,
        Replay::Unreadable(_) => return Vec::new(),
    };
    let Some(dead) = game.dead_position_ply() else {
        return Vec::new();
    };
    let Some(next) = g.moves.get(dead).filter(|_| dead < game.ply()) else {
        return Vec::new();
    };
    let result = g.result.as_deref().unwrap_or("*");
    vec![Warning {
        line: next.line,
        column: next.column,
        message: format!(
            "the game was drawn before this move: a dead position arose (FIDE Laws 5.2.2); \
             the {} half-moves recorded after it are replayed and the recorded result {result} is reported",
            game.ply() - dead
        ),
    }]
}

/// Every game of a PGN file, and what the reader skipped outside them.
pub type PgnFile = record::RecordFile<PgnGame>;

/// Reads every game of a PGN file from its bytes, whatever their encoding
/// (as [`crate::draughts::pdn::read_pdn`]: see [`crate::record`] for what is repaired
/// or skipped).
///
/// ```
/// use tandem_rules::chess::pgn::{read_pgn, replay, Replay};
/// let file = read_pgn(b"[White \"Ma\xEEtre\"]\\n1.e4 e5 +- 2.Nf3\r\n[White \"B\"]\n1. d4 *");
/// assert_eq!(file.games.len(), 2);
/// assert_eq!(file.games[0].tag("White"), Some("Ma\u{ee}tre"));
/// assert_eq!(file.games[0].moves.len(), 3);
/// assert_eq!(file.games[0].warnings.len(), 2);
/// assert!(matches!(replay(&file.games[1]), Replay::Ok(_)));
/// ```
#[must_use]
pub fn read_pgn(bytes: &[u8]) -> PgnFile {
    record::read_file(bytes, classify, PgnGame::from_raw)
}

/// Reads every game of a PGN text (as [`read_pgn`], for text already decoded).
///
/// ```
/// use tandem_rules::chess::pgn::parse_pgn;
/// let g = parse_pgn("[Event \"x\"]\n1. e4 {best} e5 (1... c5) 2. Nf3 $1 1-0\n");
/// assert_eq!(g.len(), 1);
/// let m: Vec<&str> = g[0].moves.iter().map(|m| m.text.as_str()).collect();
/// assert_eq!(m, ["e4", "e5", "Nf3"]);
/// assert_eq!(g[0].moves[0].comments, ["best"]);
/// assert_eq!(g[0].result.as_deref(), Some("1-0"));
/// ```
#[must_use]
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    record::parse_games(text, classify, PgnGame::from_raw)
}

impl PgnGame {
    fn from_raw(g: RawGame) -> Self {
        PgnGame {
            tags: g.tags,
            moves: g
                .moves
                .into_iter()
                .map(|m| PgnMove {
                    text: m.text,
                    nags: m.nags,
                    comments: m
                        .comments
                        .iter()
                        .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
                        .collect(),
                    line: m.line,
                    column: m.column,
                })
                .collect(),
            result: g.result,
            line: g.line,
            warnings: g.warnings,
        }
    }
}

/// Castling, or a square (`a1`..`h8`) somewhere in the word: SAN, UCI and
/// the loose forms [`super::resolve`] reads all have one; a name or a word
/// of prose has none.
fn looks_like_move(t: &str) -> bool {
    let t = t.trim_end_matches(['+', '#']);
    matches!(
        t.to_ascii_uppercase().as_str(),
        "O-O" | "O-O-O" | "0-0" | "0-0-0"
    ) || t
        .as_bytes()
        .windows(2)
        .any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))
}

/// What a word of PGN move text is. `at_end`: nothing but the next game or
/// the end of the file follows.
fn classify(w: &str, at_end: bool) -> Class {
    glued_result(w).unwrap_or_else(|| classify_word(w, at_end))
}

/// [`classify`] without looking for a result against the move.
fn classify_word(w: &str, at_end: bool) -> Class {
    if w.chars().all(|c| c == '.' || c == '…') {
        return Class::Skip;
    }
    match w {
        "1-0" | "0-1" | "*" => return Class::Result(Some(w.to_owned())),
        "1/2-1/2" | "½-½" | "0.5-0.5" => return Class::Result(Some("1/2-1/2".into())),
        "-" | "?" | "?-?" if at_end => return Class::Result(None),
        // A null move: a move, which replay refuses by name.
        "--" | "Z0" => {
            return Class::Move {
                number: None,
                text: w.to_owned(),
                marks: String::new(),
            }
        }
        _ => {}
    }
    // `12.`, `12...`, `12.e4`.
    let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &w[digits..];
    let (number, body) = if digits > 0 && rest.starts_with(['.', '…']) {
        let body = rest.trim_start_matches(['.', '…']);
        let white = &rest[..rest.len() - body.len()] == ".";
        (w[..digits].parse::<u32>().ok().map(|n| (n, white)), body)
    } else if digits == w.len() {
        // A move number without its dot: no move is digits alone.
        return Class::Skip;
    } else {
        (None, w)
    };
    let text = body.trim_end_matches(['!', '?']);
    if text.is_empty() {
        return number.map_or(Class::Skip, |(n, white)| Class::Number(n, white));
    }
    if !looks_like_move(text) {
        return Class::Junk;
    }
    Class::Move {
        number,
        text: text.to_owned(),
        marks: body[text.len()..].to_owned(),
    }
}

/// A move with a result written against it, `a5*` or `Qxf7#1-0`: PGN's
/// result tokens end the movetext wherever they stand (PGN standard 8.2.6),
/// and python-chess reads them so.
fn glued_result(w: &str) -> Option<Class> {
    [
        ("1/2-1/2", "1/2-1/2"),
        ("½-½", "1/2-1/2"),
        ("1-0", "1-0"),
        ("0-1", "0-1"),
        ("*", "*"),
    ]
    .into_iter()
    .find_map(|(token, result)| {
        // `a5**` as `a5*`: the repeated marker is one result.
        let before = w
            .strip_suffix(token)
            .map(|b| {
                if token == "*" {
                    b.trim_end_matches('*')
                } else {
                    b
                }
            })
            .filter(|b| !b.is_empty())?;
        let class = classify_word(before, false);
        matches!(class, Class::Move { .. }).then(|| Class::Glued {
            before: Box::new(class),
            result: result.to_owned(),
            at: before.chars().count(),
        })
    })
}

/// The clock comment broadcast sites write after a move (Lichess, and
/// python-chess reads it): the mover's remaining time, `[%clk H:MM:SS]`
/// (whole seconds, rounded down).
///
/// ```
/// assert_eq!(tandem_rules::chess::pgn::clk_comment(5_388_900), "[%clk 1:29:48]");
/// assert_eq!(tandem_rules::chess::pgn::clk_comment(59_999), "[%clk 0:00:59]");
/// ```
#[must_use]
pub fn clk_comment(remaining_ms: u64) -> String {
    let s = remaining_ms / 1000;
    format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60)
}

/// Tags and comments for [`write_pgn`].
#[derive(Debug, Clone, Default)]
pub struct PgnHeader {
    /// Tags after the seven-tag roster's defaults (`Event`, `Site`, `Date`,
    /// `Round`, `White`, `Black`; `Result` is written from the result).
    pub tags: Vec<(String, String)>,
    /// A comment after each ply (clock times), `None` for none.
    pub comments: Vec<Option<String>>,
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game as PGN: the seven tag roster (filled with `?` where the
/// header has none), `SetUp`/`FEN` for a game not from the start (and
/// `Variant "Chess960"` with them for a Chess960 game, whose castling SAN
/// writes `O-O`, `O-O-O`), SAN
/// moves with numbers, comments, the result. Lines stay under 80 characters.
///
/// ```
/// use tandem_rules::chess::{ChessGame, pgn::{write_pgn, parse_pgn, replay, PgnHeader, Replay}};
/// let mut g = ChessGame::new();
/// for m in ["e4", "e5", "Nf3"] { g.play_text(m).unwrap(); }
/// let text = write_pgn(&g, &PgnHeader::default());
/// assert!(text.contains("1. e4 e5 2. Nf3 *"));
/// assert!(matches!(replay(&parse_pgn(&text)[0]), Replay::Ok(r) if r.sans() == g.sans()));
/// ```
#[must_use]
pub fn write_pgn(game: &ChessGame, header: &PgnHeader) -> String {
    let result = pgn_result(game.outcome());
    let mut out = String::new();
    let roster = ["Event", "Site", "Date", "Round", "White", "Black"];
    for name in roster {
        let v = header
            .tags
            .iter()
            .find(|(n, _)| n == name)
            .map_or("?", |(_, v)| v.as_str());
        out.push_str(&format!("[{name} \"{}\"]\n", escape(v)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    let start_fen = super::to_fen(game.start());
    let chess960 = game.is_chess960();
    if chess960 {
        // The tag lichess, chess.com and python-chess write and read.
        out.push_str("[Variant \"Chess960\"]\n");
    }
    if chess960 || start_fen != super::to_fen(&super::start()) {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{start_fen}\"]\n"));
    }
    for (n, v) in &header.tags {
        let written = matches!(n.as_str(), "Result" | "SetUp" | "FEN")
            || (chess960 && n.eq_ignore_ascii_case("Variant"));
        if !roster.contains(&n.as_str()) && !written {
            out.push_str(&format!("[{n} \"{}\"]\n", escape(v)));
        }
    }
    out.push('\n');
    let mut tokens = Vec::new();
    let first_number = game.start().fullmoves().get();
    let black_first = game.start().turn() == shakmaty::Color::Black;
    for (i, s) in game.sans().iter().enumerate() {
        let white_ply = (i % 2 == 0) != black_first;
        let number = first_number + (i as u32 + u32::from(black_first)) / 2;
        if white_ply {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(s.clone());
        if let Some(Some(c)) = header.comments.get(i) {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
    }
    tokens.push(result.to_owned());
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += t.len();
        out.push_str(&t);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_without_results_and_with_variations_split_correctly() {
        let text = "[Event \"a\"]\n1. d4 d5 (1... Nf6 2. c4 (2. Nf3)) 2. c4\n\n[Event \"b\"]\n\n1.e4 c5 2.Nf3 1/2-1/2\n";
        let g = parse_pgn(text);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].moves.len(), 3);
        assert_eq!(g[0].result, None);
        assert_eq!(g[1].tag("event"), Some("b"));
        assert_eq!(g[1].line, 4);
        assert_eq!(g[1].moves[2].text, "Nf3");
        assert_eq!(g[1].moves[2].line, 6);
        assert!(matches!(replay(&g[1]), Replay::Ok(_)));
    }

    #[test]
    fn black_to_move_start_is_numbered_with_dots() {
        let mut g = ChessGame::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7").unwrap();
        g.play_text("Kd7").unwrap();
        g.play_text("e4").unwrap();
        let text = write_pgn(&g, &PgnHeader::default());
        assert!(
            text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]"),
            "{text}"
        );
        assert!(text.contains("7... Kd7 8. e4 *"), "{text}");
        let back = parse_pgn(&text);
        assert!(matches!(replay(&back[0]), Replay::Ok(r) if r.ply() == 2));
    }

    #[test]
    fn stray_brackets_do_not_stop_the_reader() {
        // Found by the property test: a `}` alone, a `[` inside a variation.
        for text in ["}", "1. e4 } e5", "( [ )", "1. e4 ( [Event \"x\"] ) e5 *"] {
            let _ = parse_pgn(text);
        }
        let g = parse_pgn("1. e4 } e5 *");
        assert_eq!(g[0].moves.len(), 2);
    }

    #[test]
    fn bad_fen_and_other_variants_are_unreadable() {
        let g = parse_pgn("[FEN \"nonsense\"]\n1. e4 *");
        assert!(matches!(replay(&g[0]), Replay::Unreadable(_)));
        let g = parse_pgn("[Variant \"Atomic\"]\n1. e4 *");
        assert!(matches!(replay(&g[0]), Replay::Unreadable(ref w) if w.contains("atomic")));
        // Chess960 needs its start.
        let g = parse_pgn("[Variant \"Chess960\"]\n1. e4 *");
        assert!(matches!(replay(&g[0]), Replay::Unreadable(ref w) if w.contains("FEN")));
    }

    #[test]
    fn results_against_a_move_and_words_that_only_look_so() {
        let g = parse_pgn(
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6*\n\n1. d4 d5 2. Kd21/2-1/2\n1. c4 e5 2. Qa4½-½",
        );
        assert_eq!(g.len(), 3);
        let ends: Vec<_> = g
            .iter()
            .map(|g| (g.moves.len(), g.result.clone()))
            .collect();
        assert_eq!(
            ends,
            [
                (6, Some("*".into())),
                (3, Some("1/2-1/2".into())),
                (3, Some("1/2-1/2".into()))
            ]
        );
        assert_eq!(g[0].moves[5].text, "a6");
        assert_eq!((g[0].warnings[0].line, g[0].warnings[0].column), (1, 30));
        assert!(g.iter().all(|g| g.warnings.len() == 1));
        // Castling with zeros is no result against a move, a word with no
        // move before the result stays junk, and so does a move with many
        // results after it (read in one pass, however long).
        let long = format!("1. e4 e5{} *", "*".repeat(100_000));
        let g = parse_pgn(&long);
        let texts: Vec<&str> = g[0].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["e4", "e5"]);
        assert_eq!(g[0].result.as_deref(), Some("*"));
        let g = parse_pgn("[FEN \"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n1. 0-0-0 Kf7 2. x1-0");
        assert_eq!(g[0].moves[0].text, "0-0-0");
        assert!(matches!(replay(&g[0]), Replay::Ok(ref r) if r.sans()[0] == "O-O-O"));
        assert_eq!(g[0].result, None);
        assert!(
            g[0].warnings[0].message.contains("not a move"),
            "{:?}",
            g[0].warnings
        );
    }
}
