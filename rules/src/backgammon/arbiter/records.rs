//! Backgammon records as entries: a `.mat` file, a typed sheet, a match.

use std::fmt;

use super::entry::{roll_prefix, split_side};
use super::turns::play_entry;
use crate::backgammon::mat;
use crate::backgammon::match_play::{Action, Match, MatchOptions, Phase};
use crate::backgammon::notation;
use crate::backgammon::Dice;
use crate::Color;

/// One entry of a record: a turn, a cube action, a resignation or a game's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Who made it, where the record says so.
    pub side: Option<Color>,
    /// The entry as written, without the side (`52: 13/8 13/11`, `Doubles => 2`).
    pub text: String,
    /// The game it belongs to (1-based), as the record numbers games.
    pub game: usize,
    /// The line of the file (1-based; 0 when not from a file).
    pub line: usize,
}

impl Entry {
    /// The entry with its side, as [`play_entry`] reads it: `white 52: 13/8 13/11`.
    #[must_use]
    pub fn written(&self) -> String {
        match self.side {
            Some(s) => format!("{} {}", s.name(), self.text.trim()),
            None => self.text.trim().to_owned(),
        }
    }

    fn is_wins(&self) -> bool {
        self.text
            .trim_start()
            .get(..4)
            .is_some_and(|w| w.eq_ignore_ascii_case("wins"))
    }
}

/// A backgammon record read from a file or a match.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BgRecord {
    /// The match length, where the record gives it.
    pub length: Option<u32>,
    /// The players' names (white, black), where the record gives them.
    pub names: Option<(String, String)>,
    /// The entries in order.
    pub entries: Vec<Entry>,
    /// What the director should know about how it was read.
    pub notes: Vec<String>,
    /// The score before the first game, white's then black's, where the
    /// record gives one that is not 0-0 (a `.mat` file that continues a
    /// match: `Game 1` with `Name : 3`).
    pub start_score: Option<[u32; 2]>,
}

impl BgRecord {
    /// The match the record starts from: a new match of `length` points,
    /// at the record's start score.
    #[must_use]
    pub fn start(&self, length: u32) -> Match {
        let mut m = Match::new(MatchOptions { length });
        if let Some([w, b]) = self.start_score {
            let _ = m.set_score(w, b);
        }
        m
    }
}

impl BgRecord {
    /// Every entry with its side, as the comparison reads them.
    #[must_use]
    pub fn texts(&self) -> Vec<String> {
        self.entries.iter().map(Entry::written).collect()
    }
}

/// Why a record cannot be read at all (a wrong move is no such error: it is
/// found when the records are compared).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// A `.mat` file without its `N point match` line.
    NoLength,
    /// A line that is no entry, with its number (1-based) and why.
    Line(usize, String),
    /// No entries at all.
    Empty,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NoLength => f.write_str("no \"N point match\" line: not a .mat file"),
            RecordError::Line(n, why) => write!(f, "line {n}: {why}"),
            RecordError::Empty => f.write_str("no rolls, moves or cube actions found"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Whether a text is a Jellyfish `.mat` file: a line `N point match`
/// before any entry.
#[must_use]
pub fn is_mat(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with('#'))
        .take(3)
        .any(|l| {
            l.strip_suffix("point match")
                .is_some_and(|n| n.trim().parse::<u32>().is_ok())
        })
}

/// Whether a text looks like a backgammon record (a `.mat` file, or
/// entries such as `52: 13/8 13/11` or `white 31: 8/5 6/5`).
#[must_use]
pub fn looks_like_backgammon(text: &str) -> bool {
    if is_mat(text) {
        return true;
    }
    let (mut rolls, mut entries, mut lines) = (0usize, 0usize, 0usize);
    for l in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(40)
    {
        lines += 1;
        let (_, body) = split_side(strip_number(l));
        let lower = body.to_ascii_lowercase();
        let word = lower.split_whitespace().next().unwrap_or("");
        // `52: 13/8 13/11`, or tandem's `roll 52` (`32 28` is draughts).
        if roll_prefix(body).is_some() && (body.contains(':') || word == "roll") {
            rolls += 1;
            entries += 1;
        } else if matches!(
            word,
            "move" | "game" | "doubles" | "takes" | "drops" | "double" | "take" | "wins"
        ) {
            entries += 1;
        }
    }
    rolls > 0 && entries * 2 >= lines
}

/// Reads a Jellyfish `.mat` file (gnubg's `export match mat`, tandem's
/// `export`) into entries, without judging them: white's column is the
/// left one, black's the right.
///
/// # Errors
/// No `N point match` line, or a line that holds no entry.
pub fn read_mat(text: &str) -> Result<BgRecord, RecordError> {
    let mut rec = BgRecord::default();
    let mut game = 0usize;
    let mut header = false;
    for (ln, raw) in text.lines().enumerate() {
        let ln = ln + 1;
        let line = raw.trim_end();
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        if let Some(n) = t.strip_suffix("point match") {
            let n: u32 = n
                .trim()
                .parse()
                .map_err(|_| RecordError::Line(ln, format!("bad match length {:?}", n.trim())))?;
            if !(1..=64).contains(&n) {
                return Err(RecordError::Line(ln, format!("match length {n}: 1 to 64")));
            }
            rec.length = Some(n);
            continue;
        }
        if rec.length.is_none() {
            return Err(RecordError::NoLength);
        }
        if let Some(k) = t.strip_prefix("Game ") {
            game = k.trim().parse().unwrap_or(game + 1);
            header = true;
            continue;
        }
        if header && t.contains(':') && !t.contains(')') && mat::parse_roll(t).is_none() {
            // `Name : score   Name : score` (or `Name: score`, as newer
            // servers write it); the first game's score starts the match
            // there (a file that continues a match).
            let Some((w, ws, b, bs)) = mat::score_line(t) else {
                return Err(RecordError::Line(
                    ln,
                    format!("cannot read the score line {t:?}"),
                ));
            };
            if rec.entries.is_empty()
                && rec.start_score.is_none()
                && [ws, bs] != [0, 0]
                && rec.length.is_some_and(|n| ws < n && bs < n)
            {
                rec.start_score = Some([ws, bs]);
            }
            rec.names = Some((w, b));
            header = false;
            continue;
        }
        header = false;
        if game == 0 {
            return Err(RecordError::Line(
                ln,
                "an entry before \"Game 1\"".to_owned(),
            ));
        }
        let body_start = match line.find(')') {
            Some(p)
                if !line[..p].trim().is_empty()
                    && line[..p].trim().chars().all(|c| c.is_ascii_digit()) =>
            {
                p + 1
            }
            _ => 0,
        };
        // What gnubg passes over is left out (mat::read notes it).
        let (body, _) = mat::cut_stray_number(&line[body_start..]);
        let found = mat::entries(body);
        if found.is_empty() && !body.trim().is_empty() {
            return Err(RecordError::Line(
                ln,
                format!("cannot read {:?}", body.trim()),
            ));
        }
        for (col, e) in found {
            // gnubg's right column starts at 34; anything past 20 is black's.
            let side = if body_start + col >= 20 {
                Color::Black
            } else {
                Color::White
            };
            if e.get(..3).is_some_and(|p| p.ends_with(':')) && mat::parse_roll(&e).is_none() {
                return Err(RecordError::Line(ln, format!("cannot read {e:?}")));
            }
            if e.get(..6).is_some_and(|w| w.eq_ignore_ascii_case("losses")) {
                // Backgammon Galaxy's `Losses N point` in the loser's
                // column restates the game's end: no entry (as gnubg).
                continue;
            }
            rec.entries.push(Entry {
                side: Some(side),
                text: e,
                game,
                line: ln,
            });
        }
    }
    if rec.length.is_none() {
        return Err(RecordError::NoLength);
    }
    // What gnubg's reading of the file finds irregular, at its game and
    // line: the comparison stops at an illegal entry, the note names them all.
    if let Ok(read) = mat::read(text) {
        rec.notes
            .extend(read.irregular.iter().map(ToString::to_string));
    }
    Ok(rec)
}

/// `12)` or `12.` at the start of a typed line.
fn strip_number(l: &str) -> &str {
    let t = l.trim_start();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits <= 3 {
        if let Some(rest) = t[digits..].strip_prefix([')', '.']) {
            if !rest.starts_with(['.', ')']) {
                return rest.trim_start();
            }
        }
    }
    t
}

/// Reads a sheet typed from paper or a braille record: one entry a line,
/// each with or without its side (`white 52: 13/8 13/11`, `W 52 13-8 13-11`,
/// `black doubles`, `takes`, `31: pass`), or two a line as on a `.mat`
/// sheet (`52: 13/11 13/8   64: 24/14`: white's, then black's), or tandem's
/// own record lines (`White: roll 52`, `White: move 13/11 13/8`); a move
/// number (`3)`, `3.`), `Game N` and `length N` lines allowed, `;` or `#`
/// starting a comment. A text with a `N point match` line is read as a
/// `.mat` file.
///
/// # Errors
/// A line that holds no entry, or no entry at all.
pub fn read_list(text: &str) -> Result<BgRecord, RecordError> {
    if is_mat(text) {
        return read_mat(text);
    }
    let mut rec = BgRecord::default();
    let mut game = 1usize;
    // tandem's own record lines: `White: roll 52`, then `White: move 13/11 13/8`.
    let mut roll: Option<(Option<Color>, String, usize)> = None;
    for (ln, raw) in text.lines().enumerate() {
        let ln = ln + 1;
        let t = raw.split([';', '#']).next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let lower = t.to_ascii_lowercase();
        if let Some(k) = lower
            .strip_prefix("game ")
            .or_else(|| lower.strip_prefix("partia "))
        {
            let digits: String = k.trim().chars().take_while(char::is_ascii_digit).collect();
            game = digits.parse().unwrap_or(game + 1);
            continue;
        }
        if let Some(n) = lower
            .strip_prefix("length ")
            .or_else(|| lower.strip_prefix("match "))
        {
            rec.length = n.trim().parse().ok();
            continue;
        }
        let (side, body) = split_side(strip_number(t));
        let body = body.trim();
        let lower_body = body.to_ascii_lowercase();
        if side.is_none() && is_action_stream(&lower_body) {
            // tandem's record of actions, several a line: `roll 52 move
            // 13/11 13/8`, `double take` (times in brackets left out).
            for e in action_stream(&lower_body, &mut roll, ln)? {
                rec.entries.push(Entry {
                    side: None,
                    text: e,
                    game,
                    line: ln,
                });
            }
            continue;
        }
        if let Some((a, b, rest)) = roll_prefix(body) {
            if lower_body.starts_with("roll") && rest.is_empty() {
                roll = Some((side, format!("{a}{b}"), ln));
                continue;
            }
        }
        if lower_body.starts_with("move ") {
            let Some((rs, dice, _)) = roll.take() else {
                return Err(RecordError::Line(
                    ln,
                    format!("a move without its roll: {t:?}"),
                ));
            };
            rec.entries.push(Entry {
                side: side.or(rs),
                text: format!("{dice}: {}", body[5..].trim()),
                game,
                line: ln,
            });
            continue;
        }
        if !is_entry(body) {
            return Err(RecordError::Line(ln, format!("cannot read {t:?}")));
        }
        // Two entries on a line, as on a `.mat` sheet: white's, then black's.
        let parts = mat::entries(body);
        if side.is_none() && parts.len() == 2 && parts[0].0 == 0 {
            for ((_, e), s) in parts.into_iter().zip([Color::White, Color::Black]) {
                rec.entries.push(Entry {
                    side: Some(s),
                    text: e,
                    game,
                    line: ln,
                });
            }
            continue;
        }
        rec.entries.push(Entry {
            side,
            text: body.to_owned(),
            game,
            line: ln,
        });
    }
    if let Some((_, dice, ln)) = roll {
        rec.notes.push(format!(
            "line {ln}: the roll {dice} has no move yet; it is left out"
        ));
    }
    if rec.entries.is_empty() {
        return Err(RecordError::Empty);
    }
    Ok(rec)
}

/// Whether a line is tandem's record of actions (`roll 52 move 13/11 13/8
/// (5:58)`, `move 8/5 6/5`, `double take`): `roll` or `move` as a word, or
/// two cube actions.
fn is_action_stream(lower: &str) -> bool {
    let words: Vec<&str> = lower.split_whitespace().collect();
    let cube = words
        .iter()
        .filter(|w| matches!(**w, "double" | "take" | "pass" | "drop"))
        .count();
    words.iter().any(|w| matches!(*w, "roll" | "move")) || cube >= 2
}

/// The entries of an action stream; a roll waits in `roll` for its move.
fn action_stream(
    lower: &str,
    roll: &mut Option<(Option<Color>, String, usize)>,
    ln: usize,
) -> Result<Vec<String>, RecordError> {
    // Times in brackets (`(5:58)`) are no actions.
    let mut kept = String::new();
    let mut depth = 0usize;
    for w in lower.split_whitespace() {
        if w.starts_with('(') && w.contains(':') {
            depth += 1;
        }
        if depth == 0 {
            kept.push_str(w);
            kept.push(' ');
        }
        if depth > 0 && w.ends_with(')') {
            depth -= 1;
        }
    }
    let toks: Vec<&str> = kept.split_whitespace().collect();
    let is_word = |w: &str| matches!(w, "roll" | "move" | "double" | "take" | "drop" | "pass");
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match toks[i] {
            "roll" => {
                let d = toks.get(i + 1).copied().unwrap_or("");
                if Dice::parse(d).is_none() {
                    return Err(RecordError::Line(ln, format!("no dice after roll: {d:?}")));
                }
                *roll = Some((None, d.to_owned(), ln));
                i += 2;
            }
            "move" => {
                // `move pass`: the roll cannot be played.
                let first_pass = toks.get(i + 1) == Some(&"pass");
                let steps: Vec<&str> = if first_pass {
                    vec!["pass"]
                } else {
                    toks[i + 1..]
                        .iter()
                        .take_while(|w| !is_word(w))
                        .copied()
                        .collect()
                };
                let Some((_, dice, _)) = roll.take() else {
                    return Err(RecordError::Line(ln, "a move without its roll".to_owned()));
                };
                i += 1 + steps.len();
                out.push(format!("{dice}: {}", steps.join(" ")).trim().to_owned());
            }
            "double" => {
                out.push("doubles".to_owned());
                i += 1;
            }
            "take" => {
                out.push("takes".to_owned());
                i += 1;
            }
            "pass" | "drop" => {
                out.push("drops".to_owned());
                i += 1;
            }
            w if w.ends_with('.') && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()) => {
                i += 1;
            }
            w => return Err(RecordError::Line(ln, format!("cannot read {w:?}"))),
        }
    }
    Ok(out)
}

fn is_entry(body: &str) -> bool {
    let w = body
        .split(|c: char| c.is_whitespace() || c == ':')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    roll_prefix(body).is_some()
        || matches!(
            w.as_str(),
            "double"
                | "doubles"
                | "take"
                | "takes"
                | "accept"
                | "accepts"
                | "drop"
                | "drops"
                | "pass"
                | "reject"
                | "rejects"
                | "resign"
                | "resigns"
                | "wins"
                | "roll"
        )
}

/// The entries of a match as tandem plays it (what a journal replays to),
/// each turn with its side; a roll whose move is not made yet is left out
/// (and noted).
#[must_use]
pub fn from_match(m: &Match) -> BgRecord {
    let mut rec = BgRecord {
        length: Some(m.options().length),
        ..BgRecord::default()
    };
    for (k, g) in m.games().iter().enumerate() {
        let mut roll: Option<(Color, Dice)> = None;
        for (i, (who, a, board)) in g.actions.iter().enumerate() {
            let text = match a {
                Action::Roll(d) => {
                    let d = if i == 0 { d.high_first() } else { *d };
                    roll = Some((*who, d));
                    continue;
                }
                Action::Move(p) => {
                    let d = roll.take().map_or(Dice(0, 0), |(_, d)| d);
                    let mv = if p.is_pass() {
                        String::new()
                    } else {
                        notation::write(board, p)
                    };
                    format!("{}{}: {mv}", d.0, d.1).trim_end().to_owned()
                }
                Action::Double => "doubles".to_owned(),
                Action::Take => "takes".to_owned(),
                Action::Pass => "drops".to_owned(),
                Action::Resign { level, .. } => {
                    // A roll and then the resignation: the roll alone, as a
                    // `.mat` file writes it.
                    if let Some((roller, d)) = roll.take() {
                        rec.entries.push(Entry {
                            side: Some(roller),
                            text: format!("{}{}:", d.0, d.1),
                            game: k + 1,
                            line: 0,
                        });
                    }
                    format!("resigns {level}")
                }
                // An offer and its refusal leave the game as it was: a
                // `.mat` writes neither (nor does a scoresheet), so the
                // records are compared without them.
                Action::ResignOffer { .. } | Action::ResignDecline => continue,
            };
            let side = match a {
                Action::Resign { side, .. } => *side,
                _ => *who,
            };
            rec.entries.push(Entry {
                side: Some(side),
                text,
                game: k + 1,
                line: 0,
            });
        }
        if let Some((who, d)) = roll {
            rec.notes.push(format!(
                "game {}: {} rolled {}{} and has not moved yet; that roll is left out",
                k + 1,
                who.name(),
                d.0,
                d.1
            ));
        }
    }
    rec
}

/// Fills the sides a typed sheet leaves out (`52: 13/8 13/11`) from the
/// other record's entry at the same place (`wins` lines not counted): who
/// rolled an opening cannot be told from the move alone.
pub fn fill_sides(rec: &mut BgRecord, other: &BgRecord) {
    // `wins` lines are left out of the pairing: one record may state each
    // game's end where the other does not.
    let theirs = other.entries.iter().filter(|e| !e.is_wins());
    for (e, o) in rec.entries.iter_mut().filter(|e| !e.is_wins()).zip(theirs) {
        if e.side.is_none() {
            e.side = o.side;
        }
    }
}

/// Drops each `wins N points` entry that only states how a game ended (the
/// game is over and the entry names its winner): what is left are the
/// entries that change the match, so records with and without those lines
/// compare turn for turn (the moves decide a finished game's value; a
/// line with another value is noted by `mat::read`). A `wins` entry in a
/// game under way is a resignation and stays;
/// after the first entry that does not play, every `wins` line is dropped.
pub fn settle(rec: &mut BgRecord) {
    let mut m = rec.start(rec.length.unwrap_or(64));
    let mut out = Vec::with_capacity(rec.entries.len());
    let mut playing = true;
    for e in std::mem::take(&mut rec.entries) {
        if playing {
            if e.is_wins() && wins_states_end(&m, &e) {
                continue;
            }
            if play_entry(&mut m, &e.written()).is_err() {
                playing = false;
            }
        } else if e.is_wins() {
            // Past an entry that does not play, a game's end cannot be told
            // from a resignation: the line is dropped, so that the entries
            // after it still line up with the other record's.
            continue;
        }
        out.push(e);
    }
    rec.entries = out;
}

/// Whether a `wins N points` entry only states how the game before it
/// ended: the game is over and the entry names its winner. The moves decide
/// the game's value (gnubg passes over such a line too); where N is another
/// value, `mat::read` notes it (`IrregularKind::WinsValue`: capped when the
/// match needed less, Backgammon Galaxy's `Wins 1 point and the match` for a
/// gammon at 1-away).
fn wins_states_end(m: &Match, e: &Entry) -> bool {
    if !matches!(m.phase(), Phase::Opening | Phase::MatchOver) {
        return false;
    }
    let n = e
        .text
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse::<u32>().ok());
    match (m.last_end(), n) {
        (Some(end), Some(_)) => e.side.map_or(true, |s| s == end.winner),
        _ => false,
    }
}
