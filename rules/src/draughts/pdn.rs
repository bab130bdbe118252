//! PDN 3.0 game records: reading (lenient), replaying and writing (strict).
//!
//! The reader accepts what real files hold: several games per file, a whole
//! game on one line, games with no blank line between them, any line ends,
//! zero-padded move numbers (`01. 34-29`), moves glued to their numbers
//! (`43.28-23`), `1...` for black's move, comments `{...}` and `;` to the
//! end of the line, nested variations `(...)` (skipped), NAGs `$n` and marks
//! `!?` (kept), `%` escape lines (skipped), unknown tags (kept), results
//! `2-0 1-1 0-2 1-0 0-1 1/2-1/2 *` and other `N-N` results (kept as
//! written), a single-digit score (`4-6`) or a `-` at the very end, or none.
//! A game ends at its result, where the next tag section starts, or where
//! move 1 begins again. [`read_pdn`] takes the file's bytes (UTF-8,
//! Windows-1252 or Latin-1, UTF-16); what the shared lexer
//! ([`crate::record`]) repairs or skips (escapes written out as text, broken
//! tag lines, junk) is a [`Warning`] of the game with its line and column: a
//! game fails only in [`replay`], at a move. `[GameType]` picks the variant
//! (20 international; 26, the Brazilian game, for 64-square draughts with
//! the same rules), `[FEN]` the set-up.

use crate::draughts::game::{Game, PlayError};
use crate::draughts::notation::ResolveError;
use crate::draughts::position::Position;
use crate::draughts::variant::Variant;
pub use crate::record::Warning;
use crate::record::{self, Class, RawGame};
use crate::GameOptions;

/// A game as read from a file, before replay.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// The main line's moves.
    pub moves: Vec<PdnMove>,
    /// The result token ending the movetext, if any.
    pub result: Option<String>,
    /// 1-based line where the game starts.
    pub line: usize,
    /// A reason the game cannot be read (the reader itself never sets it:
    /// what it cannot place becomes a warning).
    pub error: Option<String>,
    /// What the reader skipped or guessed in this game, with where.
    pub warnings: Vec<Warning>,
}

/// One move of the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnMove {
    /// The move as written, without marks.
    pub text: String,
    /// Marks written after it (`!`, `?!`).
    pub marks: String,
    /// NAGs after it.
    pub nags: Vec<u16>,
    /// Comments after it.
    pub comments: Vec<String>,
    /// 1-based line of the move.
    pub line: usize,
}

impl PdnGame {
    /// The value of a tag (names compared without case).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The variant from `[GameType]`, else `default`.
    ///
    /// # Errors
    /// The game type is one tandem does not play.
    pub fn variant(&self, default: Variant) -> Result<Variant, String> {
        let Some(gt) = self.tag("GameType") else {
            return Ok(default);
        };
        let num = gt.split(',').next().unwrap_or("").trim();
        match num {
            "20" => Ok(Variant::International),
            "26" => Ok(Variant::SixtyFour),
            "" => Ok(default),
            other => Err(format!(
                "game type {other} is not played by tandem (20 international, 26 for 64-square)"
            )),
        }
    }

    /// The start position from `[FEN]`, or the variant's initial position.
    ///
    /// # Errors
    /// The game type or the FEN cannot be used.
    pub fn start_position(&self, default: Variant) -> Result<Position, String> {
        let v = self.variant(default)?;
        match self.tag("FEN") {
            Some(f) if !f.trim().is_empty() => Position::from_fen(v, f).map_err(|e| e.to_string()),
            _ if self.tag("SetUp").is_some_and(|s| s.trim() == "1") => {
                Err("the game is set up ([SetUp \"1\"]) but has no [FEN] tag".into())
            }
            _ => Ok(Position::start(v)),
        }
    }
}

/// The outcome of replaying one game.
pub type Replay = record::Replay<Game, PlayError>;

/// Replays a game read from PDN.
///
/// Lenient where the meaning is clear: a capture the record writes
/// ambiguously (`36x16` where two sets of pieces can be taken) is tried both
/// ways and the reading under which the rest of the game is legal is kept;
/// moves recorded after a draw by rule (6.1-6.4: some sites do not apply
/// them) are replayed rather than refused.
#[must_use]
pub fn replay(pdn: &PdnGame, default: Variant) -> Replay {
    if let Some(e) = &pdn.error {
        return Replay::Unreadable(e.clone());
    }
    let start = match pdn.start_position(default) {
        Ok(p) => p,
        Err(e) => return Replay::Unreadable(e),
    };
    let options = GameOptions {
        play_on_after_rule_draw: true,
        ..GameOptions::default()
    };
    let game = Game::from_position(start, options);
    let mut budget = 64;
    replay_from(game, &pdn.moves, &mut budget)
}

fn replay_from(mut game: Game, moves: &[PdnMove], budget: &mut u32) -> Replay {
    while game.ply() < moves.len() {
        let i = game.ply();
        let text = &moves[i].text;
        match game.play_text(text) {
            Ok(_) => {}
            Err(PlayError::Resolve(ResolveError::Ambiguous { candidates })) if *budget > 0 => {
                *budget -= 1;
                let mut first_failure = None;
                for m in &candidates {
                    let mut g = game.clone();
                    if g.play(m).is_err() {
                        continue;
                    }
                    match replay_from(g, moves, budget) {
                        ok @ Replay::Ok(_) => return ok,
                        other => {
                            first_failure.get_or_insert(other);
                        }
                    }
                }
                return first_failure.unwrap_or(Replay::Unreadable(
                    "no reading of an ambiguous capture fits".into(),
                ));
            }
            Err(reason) => {
                return Replay::Illegal {
                    ply: i + 1,
                    text: text.clone(),
                    reason,
                    game,
                }
            }
        }
    }
    Replay::Ok(game)
}

/// Every game of a PDN file, and what the reader skipped outside them.
pub type PdnFile = record::RecordFile<PdnGame>;

/// Reads every game of a PDN file from its bytes, whatever their encoding
/// (UTF-8, Windows-1252 or Latin-1 line by line, UTF-16 with a byte-order
/// mark; see [`crate::record`] for what is repaired or skipped).
///
/// ```
/// use tandem_rules::draughts::pdn::{read_pdn, replay, Replay};
/// use tandem_rules::draughts::Variant;
/// let file = read_pdn(b"[White \"M\xFCller\"]\\r\\n1.32-28 19-23 & 2.33-29\r\n[Black \"B\"]\n1. 31-26 -");
/// assert_eq!(file.games.len(), 2);
/// assert_eq!(file.games[0].tag("White"), Some("M\u{fc}ller"));
/// assert_eq!(file.games[0].moves.len(), 3);
/// let w: Vec<String> = file.games[0].warnings.iter().map(|w| w.to_string()).collect();
/// assert_eq!(w, ["1:1: not UTF-8: read as Windows-1252 (Latin-1)", "1:35: `&` is not a move; skipped"]);
/// assert!(matches!(replay(&file.games[1], Variant::International), Replay::Ok(_)));
/// ```
#[must_use]
pub fn read_pdn(bytes: &[u8]) -> PdnFile {
    record::read_file(bytes, classify, PdnGame::from_raw)
}

/// Reads every game in a PDN text (as [`read_pdn`], for text already decoded).
///
/// ```
/// use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
/// use tandem_rules::draughts::Variant;
/// let games = parse_pdn("[White \"A\"]\r\n[Black \"B\"]\r\n01. 32-28 19-23 {good} 02. 28x19 14x23 (2... 13x24) 1-1");
/// assert_eq!(games.len(), 1);
/// assert_eq!(games[0].moves.len(), 4);
/// assert_eq!(games[0].result.as_deref(), Some("1-1"));
/// assert!(matches!(replay(&games[0], Variant::International), Replay::Ok(_)));
/// ```
#[must_use]
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    record::parse_games(text, classify, PdnGame::from_raw)
}

impl PdnGame {
    fn from_raw(g: RawGame) -> Self {
        PdnGame {
            tags: g.tags,
            moves: g
                .moves
                .into_iter()
                .map(|m| PdnMove {
                    text: m.text,
                    marks: m.marks,
                    nags: m.nags,
                    comments: m.comments,
                    line: m.line,
                })
                .collect(),
            result: g.result,
            line: g.line,
            error: None,
            warnings: g.warnings,
        }
    }
}

/// Result tokens: `*`, `1/2-1/2`, and `a-b` with a and b from 0, 1, 2 (no
/// move has those squares: 0 is not a square and 1-2, 2-1, 1-1 are no moves).
fn is_result(tok: &str) -> bool {
    matches!(tok, "*" | "1/2-1/2" | "½-½")
        || tok.split_once('-').is_some_and(|(a, b)| {
            let r = |x: &str| matches!(x, "0" | "1" | "2");
            r(a) && r(b)
        })
}

/// `4-6`, `1-9`: a non-standard score some files put where the result goes;
/// never two squares on one diagonal of the 10x10 or the 8x8 board, which
/// could be a last move (`2-7`).
fn is_single_digit_score(tok: &str) -> bool {
    let b = tok.as_bytes();
    if !(b.len() == 3 && b[0].is_ascii_digit() && b[1] == b'-' && b[2].is_ascii_digit()) {
        return false;
    }
    let (x, y) = (i32::from(b[0] - b'0'), i32::from(b[2] - b'0'));
    // 001 ch. I 2.6: squares numbered row by row from black's side, the
    // first row's first square in the second column.
    let diagonal = |per_row: i32| {
        let at = |n: i32| {
            let (row, k) = ((n - 1) / per_row, (n - 1) % per_row);
            (row, 2 * k + i32::from(row % 2 == 0))
        };
        let ((r1, c1), (r2, c2)) = (at(x), at(y));
        x > 0 && y > 0 && r1 != r2 && (r1 - r2).abs() == (c1 - c2).abs()
    };
    !diagonal(5) && !diagonal(4)
}

/// What a word of PDN move text is. `at_end`: nothing but the next game or
/// the end of the file follows.
fn classify(w: &str, at_end: bool) -> Class {
    if w.chars().all(|c| c == '.' || c == '…') {
        return Class::Skip;
    }
    if is_result(w) || (at_end && is_single_digit_score(w)) {
        return Class::Result(Some(w.to_owned()));
    }
    if at_end && matches!(w, "-" | "--" | "?" | "?-?") {
        return Class::Result(None);
    }
    // Move numbers: "1.", "01.", "1...", "1…", possibly glued to the move ("43.28-23").
    let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &w[digits..];
    let (number, body) = if digits > 0 && rest.starts_with(['.', '…']) {
        let body = rest.trim_start_matches(['.', '…']);
        let dots = &rest[..rest.len() - body.len()];
        let white = dots == ".";
        (w[..digits].parse::<u32>().ok().map(|n| (n, white)), body)
    } else if digits == w.len() && digits <= 2 {
        // A move number without its dot: one or two digits are never a move.
        return Class::Skip;
    } else {
        (None, w.strip_prefix("...").unwrap_or(w))
    };
    let text = body.trim_end_matches(['!', '?']);
    let marks = &body[text.len()..];
    if text.is_empty() {
        return number.map_or(Class::Skip, |(n, white)| Class::Number(n, white));
    }
    if !text.bytes().any(|c| c.is_ascii_digit()) {
        return Class::Junk;
    }
    Class::Move {
        number,
        text: text.to_owned(),
        marks: marks.to_owned(),
    }
}

/// Tags and per-ply comments for [`write_pdn`].
#[derive(Debug, Clone, Default)]
pub struct PdnHeader {
    /// Tags in order; the seven-tag roster is filled in where missing.
    pub tags: Vec<(String, String)>,
    /// A comment after each ply (index = ply - 1), e.g. clock times.
    pub comments: Vec<Option<String>>,
}

/// Writes a game as PDN 3.0: the seven-tag roster (`Event`, `Site`, `Date`,
/// `Round`, `White`, `Black`, `Result`) first, `GameType` and `FEN` where
/// needed, then numbered moves in strict notation, wrapped at 80 columns.
///
/// ```
/// use tandem_rules::draughts::pdn::{write_pdn, parse_pdn, PdnHeader};
/// use tandem_rules::draughts::{Game, Variant};
/// let mut g = Game::new(Variant::International);
/// g.play_text("32-28").unwrap();
/// let text = write_pdn(&g, &PdnHeader::default(), "*");
/// assert!(text.contains("1. 32-28 *"));
/// assert_eq!(parse_pdn(&text)[0].moves.len(), 1);
/// ```
#[must_use]
pub fn write_pdn(game: &Game, header: &PdnHeader, result: &str) -> String {
    let mut out = String::new();
    let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    let get = |k: &str| {
        header
            .tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(k))
            .map(|(_, v)| v.clone())
    };
    for k in roster {
        let v = if k == "Result" {
            Some(result.to_owned())
        } else {
            get(k)
        };
        let v = v.unwrap_or_else(|| {
            if k == "Date" {
                "????.??.??".into()
            } else {
                "?".into()
            }
        });
        tag_line(&mut out, k, &v);
    }
    let v = game.variant();
    if get("GameType").is_none() {
        tag_line(&mut out, "GameType", &v.pdn_game_type().to_string());
    }
    let start = game.start();
    if *start != Position::start(v) {
        tag_line(&mut out, "FEN", &start.to_fen());
    }
    for (k, val) in &header.tags {
        if !roster.iter().any(|r| r.eq_ignore_ascii_case(k))
            && !k.eq_ignore_ascii_case("GameType")
            && !k.eq_ignore_ascii_case("FEN")
        {
            tag_line(&mut out, k, val);
        }
    }
    out.push('\n');
    let mut line = String::new();
    let push = |out: &mut String, line: &mut String, tok: &str| {
        if !line.is_empty() && line.len() + 1 + tok.len() > 80 {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(tok);
    };
    let black_first = start.turn() == crate::Color::Black;
    for (i, text) in game.move_texts().iter().enumerate() {
        let k = i + usize::from(black_first);
        if k % 2 == 0 {
            push(&mut out, &mut line, &format!("{}.", k / 2 + 1));
        } else if i == 0 {
            push(&mut out, &mut line, &format!("{}...", k / 2 + 1));
        }
        push(&mut out, &mut line, text);
        if let Some(Some(c)) = header.comments.get(i) {
            push(&mut out, &mut line, &format!("{{{}}}", c.replace('}', ")")));
        }
    }
    push(&mut out, &mut line, result);
    out.push_str(&line);
    out.push('\n');
    out
}

fn tag_line(out: &mut String, k: &str, v: &str) {
    out.push_str(&format!(
        "[{k} \"{}\"]\n",
        v.replace('\\', "\\\\").replace('"', "\\\"")
    ));
}
