//! PDN 3.0 game records: reading (lenient), replaying and writing (strict).
//!
//! The reader accepts what real files hold: several games per file, a whole
//! game on one line, CRLF, zero-padded move numbers (`01. 34-29`), `1...`
//! for black's move, comments `{...}` and `;` to the end of the line, nested
//! variations `(...)` (skipped), NAGs `$n` and marks `!?` (kept), `%` escape
//! lines (skipped), unknown tags (kept), results `2-0 1-1 0-2 1-0 0-1
//! 1/2-1/2 *` and other `N-N` results (kept as written). A game ends at its
//! result or where the next tag section starts. `[GameType]` picks the
//! variant (20 international; 26, the Brazilian game, for 64-square draughts
//! with the same rules), `[FEN]` the set-up.

use std::fmt;

use crate::game::{Game, GameOptions, PlayError};
use crate::notation::ResolveError;
use crate::position::Position;
use crate::variant::Variant;

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
    /// A reason the game cannot be read (an unterminated comment or tag).
    pub error: Option<String>,
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
#[derive(Debug, Clone)]
pub enum Replay {
    /// Every move was legal.
    Ok(Game),
    /// The first illegal move: 1-based ply, its text, why.
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it is illegal.
        reason: PlayError,
        /// The game up to the move before it.
        game: Game,
    },
    /// The record cannot be used at all.
    Unreadable(String),
}

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

/// Reads every game in a PDN text.
///
/// ```
/// use tandem_rules::pdn::{parse_pdn, replay, Replay};
/// use tandem_rules::Variant;
/// let games = parse_pdn("[White \"A\"]\r\n[Black \"B\"]\r\n01. 32-28 19-23 {good} 02. 28x19 14x23 (2... 13x24) 1-1");
/// assert_eq!(games.len(), 1);
/// assert_eq!(games[0].moves.len(), 4);
/// assert_eq!(games[0].result.as_deref(), Some("1-1"));
/// assert!(matches!(replay(&games[0], Variant::International), Replay::Ok(_)));
/// ```
#[must_use]
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    Parser {
        s: text.as_bytes(),
        i: 0,
        line: 1,
    }
    .games()
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
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

/// `4-6`, `1-9`: a non-standard score some files put where the result goes.
fn is_single_digit_score(tok: &str) -> bool {
    let b = tok.as_bytes();
    b.len() == 3 && b[0].is_ascii_digit() && b[1] == b'-' && b[2].is_ascii_digit()
}

impl Parser<'_> {
    /// Whether only white space stands between here and the next tag section or the end.
    fn at_game_end(&self) -> bool {
        let rest = &self.s[self.i..];
        match rest.iter().position(|c| !c.is_ascii_whitespace()) {
            None => true,
            Some(k) => rest[k] == b'[',
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() || c == 0xEF || c == 0xBB || c == 0xBF {
                // (the UTF-8 byte order mark's bytes are skipped too)
                self.bump();
            } else {
                break;
            }
        }
    }

    fn games(mut self) -> Vec<PdnGame> {
        let mut games = Vec::new();
        let mut cur = PdnGame {
            line: self.line,
            ..PdnGame::default()
        };
        let mut in_moves = false;
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else { break };
            let at_line_start = self.i == 0 || self.s[self.i - 1] == b'\n';
            match c {
                b'[' => {
                    if in_moves {
                        games.push(std::mem::take(&mut cur));
                        in_moves = false;
                    }
                    if cur.tags.is_empty() && cur.moves.is_empty() {
                        cur.line = self.line;
                    }
                    match self.tag() {
                        Ok(t) => cur.tags.push(t),
                        Err(e) => {
                            cur.error.get_or_insert(e);
                        }
                    }
                }
                b'{' => {
                    let start = self.line;
                    if cur.tags.is_empty() && cur.moves.is_empty() {
                        cur.line = start;
                    }
                    self.bump();
                    let from = self.i;
                    while self.peek().is_some_and(|c| c != b'}') {
                        self.bump();
                    }
                    if self.peek().is_none() {
                        cur.error.get_or_insert(format!(
                            "comment opened on line {start} is never closed"
                        ));
                        break;
                    }
                    let text = String::from_utf8_lossy(&self.s[from..self.i])
                        .trim()
                        .to_owned();
                    self.bump();
                    if let Some(m) = cur.moves.last_mut() {
                        m.comments.push(text);
                    }
                }
                b'(' => {
                    let start = self.line;
                    if !self.skip_variation() {
                        cur.error.get_or_insert(format!(
                            "variation opened on line {start} is never closed"
                        ));
                        break;
                    }
                }
                b';' => self.skip_line(),
                b'%' if at_line_start => self.skip_line(),
                b'$' => {
                    self.bump();
                    let n = self.word();
                    if let (Some(m), Ok(v)) = (cur.moves.last_mut(), n.parse::<u16>()) {
                        m.nags.push(v);
                    }
                }
                b')' | b'}' | b']' => {
                    self.bump();
                }
                _ => {
                    let line = self.line;
                    let mut w = self.word();
                    // Right-aligned squares: "1- 6", "28x 9" are one move.
                    while w.ends_with(['-', 'x', 'X', ':']) && w.len() > 1 {
                        let save = (self.i, self.line);
                        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
                            self.bump();
                        }
                        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                            w.push_str(&self.word());
                        } else {
                            (self.i, self.line) = save;
                            break;
                        }
                    }
                    if w.is_empty() {
                        self.bump();
                        continue;
                    }
                    if cur.moves.is_empty() && !in_moves {
                        in_moves = true;
                    }
                    if w.chars().all(|c| c == '.' || c == '…') {
                        continue;
                    }
                    if is_result(&w) || (is_single_digit_score(&w) && self.at_game_end()) {
                        cur.result = Some(w);
                        games.push(std::mem::take(&mut cur));
                        in_moves = false;
                        cur.line = self.line;
                        continue;
                    }
                    // Move numbers: "1.", "01.", "1...", possibly glued to the move ("1.32-28").
                    let rest = w.trim_start_matches(|c: char| c.is_ascii_digit());
                    let body = if rest.starts_with('.') && rest.len() < w.len() {
                        rest.trim_start_matches(['.', '…'])
                    } else if let Some(r) = w.strip_prefix("...") {
                        r
                    } else {
                        &w
                    };
                    if body.is_empty() {
                        continue;
                    }
                    let text = body.trim_end_matches(['!', '?']);
                    let marks = &body[text.len()..];
                    if text.is_empty() {
                        continue;
                    }
                    cur.moves.push(PdnMove {
                        text: text.to_owned(),
                        marks: marks.to_owned(),
                        nags: Vec::new(),
                        comments: Vec::new(),
                        line,
                    });
                }
            }
        }
        if !cur.tags.is_empty() || !cur.moves.is_empty() || cur.error.is_some() {
            games.push(cur);
        }
        games
    }

    fn word(&mut self) -> String {
        let from = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace()
                || matches!(c, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$')
            {
                break;
            }
            self.bump();
        }
        String::from_utf8_lossy(&self.s[from..self.i]).into_owned()
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != b'\n') {
            self.bump();
        }
    }

    /// Skips a variation with nesting and comments; false if it never closes.
    fn skip_variation(&mut self) -> bool {
        let mut depth = 0usize;
        while let Some(c) = self.bump() {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return true;
                    }
                }
                b'{' => {
                    while self.peek().is_some_and(|c| c != b'}') {
                        self.bump();
                    }
                    self.bump();
                }
                _ => {}
            }
        }
        false
    }

    fn tag(&mut self) -> Result<(String, String), String> {
        let line = self.line;
        self.bump(); // '['
        self.skip_ws();
        let from = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.bump();
        }
        let name = String::from_utf8_lossy(&self.s[from..self.i]).into_owned();
        self.skip_ws();
        let mut value = Vec::new();
        if self.peek() == Some(b'"') {
            self.bump();
            loop {
                match self.bump() {
                    None | Some(b'\n') => {
                        return Err(format!("tag {name:?} on line {line} is never closed"))
                    }
                    Some(b'\\') => {
                        if let Some(c) = self.bump() {
                            value.push(c);
                        }
                    }
                    Some(b'"') => break,
                    Some(c) => value.push(c),
                }
            }
        }
        while self.peek().is_some_and(|c| c != b']' && c != b'\n') {
            self.bump();
        }
        if self.peek() != Some(b']') {
            return Err(format!("tag {name:?} on line {line} has no closing ]"));
        }
        self.bump();
        if name.is_empty() {
            return Err(format!("tag without a name on line {line}"));
        }
        Ok((name, String::from_utf8_lossy(&value).into_owned()))
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
/// use tandem_rules::{pdn::{write_pdn, parse_pdn, PdnHeader}, Game, Variant};
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

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Replay::Ok(g) => write!(f, "ok ({} plies)", g.ply()),
            Replay::Illegal {
                ply, text, reason, ..
            } => write!(f, "illegal move {text} at ply {ply}: {reason}"),
            Replay::Unreadable(why) => write!(f, "unreadable: {why}"),
        }
    }
}
