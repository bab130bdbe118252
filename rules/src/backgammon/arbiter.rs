//! The tournament director's comparisons for backgammon: two records of one
//! match compared turn by turn, and two positions (gnubg's Position ID and
//! Match ID) compared point by point (004 3.8: a match may be recorded in
//! writing; 004 4.2 (iii): an illegal move is put right; 004 4.3 (ii) c):
//! the director sets the clocks).
//!
//! A record is a list of [`Entry`]s: a turn (`52: 13/8 13/11`, the roll and
//! its move; `64:` a roll that cannot be played), a cube action (`doubles`,
//! `takes`, `drops`), a resignation (`resign 2`) or a game's end (`wins 2
//! points`), each with the side that made it where the record says so
//! (`white 52: 13/8 13/11`). Records come from a Jellyfish `.mat` file
//! ([`read_mat`]), a sheet typed one entry a line ([`read_list`]), or the
//! actions of a match ([`from_match`], what a journal replays to). They are
//! compared through [`crate::reconcile`] with a turn as the ply: records
//! agree on a turn when both name the same roll and the same legal move
//! (however written: `13/8 13/11`, `13-8 13-11`, `138 1311`), or the same
//! cube action.
//!
//! Pure: no I/O.

use std::fmt;

use super::board::{idx, Board, BoardError, Dice};
use super::match_id::{self, MatchIdError, MatchInfo};
use super::match_play::{Action, ActionError, Match, MatchOptions, Phase};
use super::movegen::Play;
use super::position_id::{self, PositionIdError};
use super::{mat, notation};
use crate::reconcile::{self as generic, Classify, RecordReplay, RecordedGame};
use crate::types::Color;

// ---------------------------------------------------------------- records

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
    let mut rolls = 0usize;
    let mut lines = 0usize;
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        lines += 1;
        let (_, body) = split_side(strip_number(l));
        if roll_prefix(body).is_some() && body.contains(':') {
            rolls += 1;
        }
    }
    rolls > 0 && rolls * 2 >= lines.min(20)
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
        if header && t.contains(" : ") && !t.contains(')') {
            // `Name : score   Name : score`
            let parts: Vec<&str> = t.split(" : ").collect();
            if let [w, mid, ..] = parts.as_slice() {
                let black = mid
                    .trim()
                    .split_once(char::is_whitespace)
                    .map(|(_, b)| b.trim().to_owned());
                if let Some(b) = black {
                    rec.names = Some((w.trim().to_owned(), b));
                }
            }
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
        let body = &line[body_start..];
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
/// `black doubles`, `takes`, `31: pass`), a move number (`3)`, `3.`) and
/// `Game N` lines allowed, `;` or `#` starting a comment. A text with a
/// `N point match` line is read as a `.mat` file.
///
/// # Errors
/// A line that holds no entry, or no entry at all.
pub fn read_list(text: &str) -> Result<BgRecord, RecordError> {
    if is_mat(text) {
        return read_mat(text);
    }
    let mut rec = BgRecord::default();
    let mut game = 1usize;
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
            game = k.trim().parse().unwrap_or(game + 1);
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
        if !is_entry(body) {
            return Err(RecordError::Line(ln, format!("cannot read {t:?}")));
        }
        rec.entries.push(Entry {
            side,
            text: body.to_owned(),
            game,
            line: ln,
        });
    }
    if rec.entries.is_empty() {
        return Err(RecordError::Empty);
    }
    Ok(rec)
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

/// The sides' names a record may start an entry with.
fn side_word(w: &str) -> Option<Color> {
    match w.to_lowercase().as_str() {
        "white" | "w" | "białe" | "biały" | "biale" | "bialy" => Some(Color::White),
        "black" | "b" | "czarne" | "czarny" => Some(Color::Black),
        _ => None,
    }
}

/// Splits `white 52: 13/8 13/11` into the side and the rest.
fn split_side(t: &str) -> (Option<Color>, &str) {
    let t = t.trim_start();
    let end = t
        .find(|c: char| c.is_whitespace() || c == ':')
        .unwrap_or(t.len());
    match side_word(&t[..end]) {
        Some(s) if end < t.len() => (Some(s), t[end..].trim_start_matches(':').trim_start()),
        _ => (None, t),
    }
}

/// The dice at the start of a turn entry (`52:`, `52 `, `roll 52`, `5-2:`)
/// and the rest (the move).
fn roll_prefix(body: &str) -> Option<(u8, u8, &str)> {
    let b = body.trim_start();
    let b = b
        .strip_prefix("roll ")
        .or_else(|| b.strip_prefix("Roll "))
        .map_or(b, str::trim_start);
    let bytes = b.as_bytes();
    let digit = |i: usize| {
        bytes
            .get(i)
            .filter(|c| (b'1'..=b'6').contains(c))
            .map(|c| c - b'0')
    };
    let (d0, d1, rest) = if let (Some(x), Some(y)) = (digit(0), digit(1)) {
        (x, y, &b[2..])
    } else if let (Some(x), Some(b'-' | b' '), Some(y)) = (digit(0), bytes.get(1), digit(2)) {
        (x, y, &b[3..])
    } else {
        return None;
    };
    // The dice end there: `52:`, `52 13/8`, `52` alone.
    match rest.chars().next() {
        None | Some(':') => {}
        Some(c) if c.is_whitespace() => {}
        _ => return None,
    }
    let rest = rest.trim_start().strip_prefix(':').unwrap_or(rest).trim();
    Some((d0, d1, rest))
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
                Action::Resign { level, .. } => format!("resigns {level}"),
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
/// other record's entry at the same place: who rolled an opening cannot be
/// told from the move alone.
pub fn fill_sides(rec: &mut BgRecord, other: &BgRecord) {
    for (e, o) in rec.entries.iter_mut().zip(&other.entries) {
        if e.side.is_none() {
            e.side = o.side;
        }
    }
}

/// Drops each `wins N points` entry that only states how a game ended (the
/// game is over and gave the winner N points): what is left are the
/// entries that change the match, so records with and without those lines
/// compare turn for turn. A `wins` entry in a game under way is a
/// resignation and stays, as does one whose points disagree with the game;
/// after the first entry that does not play, every `wins` line is dropped.
pub fn settle(rec: &mut BgRecord) {
    let mut m = Match::new(MatchOptions {
        length: rec.length.unwrap_or(64),
    });
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
        (Some(end), Some(n)) => end.points == n && e.side.map_or(true, |s| s == end.winner),
        _ => false,
    }
}

// ------------------------------------------------------------------ turns

/// One entry played: a turn or a cube action, with its side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// A roll and its move ([`Play::PASS`] when it cannot be played). At a
    /// game's start the dice are as [`Match`] takes them: white's die, black's.
    Roll {
        /// Who rolled and moved.
        side: Color,
        /// The dice.
        dice: Dice,
        /// The move.
        play: Play,
    },
    /// The cube offered.
    Double(Color),
    /// The cube taken.
    Take(Color),
    /// The cube passed (dropped).
    Drop(Color),
    /// A game given up for 1, 2 or 3 times the cube.
    Resign {
        /// Who resigns.
        side: Color,
        /// 1, 2 or 3.
        level: u8,
    },
}

impl Turn {
    /// Who made it.
    #[must_use]
    pub fn side(&self) -> Color {
        match *self {
            Turn::Roll { side, .. }
            | Turn::Double(side)
            | Turn::Take(side)
            | Turn::Drop(side)
            | Turn::Resign { side, .. } => side,
        }
    }
}

/// Why an entry cannot be played where the record has it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TurnError {
    /// The entry does not read as a roll, a move or a cube action.
    Unreadable(String),
    /// An opening roll without who rolled it (`white 52: ...`).
    NeedSide,
    /// The entry names the side that is not to act.
    WrongSide {
        /// The side written.
        written: Color,
        /// The side to act.
        to_act: Color,
    },
    /// The roll is refused (an equal opening roll, a die out of 1..6, no
    /// game under way, a double waiting).
    Roll(ActionError),
    /// The move is not legal for the roll.
    Move {
        /// The roll.
        dice: Dice,
        /// Why.
        error: ActionError,
    },
    /// The cube action or resignation is refused.
    Action(ActionError),
    /// `wins N points` where the game gave another number (or the other side).
    GameEnd {
        /// The points written.
        written: u32,
        /// The side written.
        side: Option<Color>,
        /// How the game ended by the rules, if it has.
        actual: Option<(Color, u32)>,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Unreadable(t) => write!(f, "cannot read {t:?}"),
            TurnError::NeedSide => {
                f.write_str("the opening roll does not say who rolled it (write white or black)")
            }
            TurnError::WrongSide { written, to_act } => {
                write!(
                    f,
                    "{} is written but {} is to act",
                    written.name(),
                    to_act.name()
                )
            }
            TurnError::Roll(e) => write!(f, "the roll: {e}"),
            TurnError::Move { dice, error } => {
                write!(f, "the move for {}{}: {error}", dice.0, dice.1)
            }
            TurnError::Action(e) => write!(f, "{e}"),
            TurnError::GameEnd {
                written, actual, ..
            } => match actual {
                Some((w, n)) => write!(f, "the game gave {} {n}, not {written}", w.name()),
                None => write!(f, "no game has ended here (wins {written})"),
            },
        }
    }
}

impl std::error::Error for TurnError {}

fn check_side(m: &Match, side: Option<Color>) -> Result<(), TurnError> {
    match (side, m.to_act()) {
        (Some(written), Some(to_act)) if written != to_act => {
            Err(TurnError::WrongSide { written, to_act })
        }
        _ => Ok(()),
    }
}

/// Plays one entry (`white 52: 13/8 13/11`, `doubles`, `black takes`,
/// `resign 2`, `wins 2 points` in a game under way) on `m`. Nothing changes
/// when it is refused.
///
/// # Errors
/// Why the entry cannot be played there.
pub fn play_entry(m: &mut Match, text: &str) -> Result<Turn, TurnError> {
    let mut probe = m.clone();
    let t = play_on(&mut probe, text)?;
    *m = probe;
    Ok(t)
}

fn play_on(m: &mut Match, text: &str) -> Result<Turn, TurnError> {
    let (side, body) = split_side(text);
    let body = body.trim();
    let lower = body.to_ascii_lowercase();
    let word = lower
        .split(|c: char| c.is_whitespace() || c == ':')
        .next()
        .unwrap_or("");
    let number = || {
        lower
            .split(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())
            .and_then(|w| w.parse::<u32>().ok())
    };
    let act = |m: &mut Match, a: Action| m.act(a).map_err(TurnError::Action);
    match word {
        "double" | "doubles" => {
            check_side(m, side)?;
            let who = m.to_act().unwrap_or(m.board().turn());
            act(m, Action::Double)?;
            return Ok(Turn::Double(who));
        }
        "take" | "takes" | "accept" | "accepts" => {
            check_side(m, side)?;
            let who = m.to_act().unwrap_or(m.board().turn());
            act(m, Action::Take)?;
            return Ok(Turn::Take(who));
        }
        "drop" | "drops" | "reject" | "rejects" => {
            check_side(m, side)?;
            let who = m.to_act().unwrap_or(m.board().turn());
            act(m, Action::Pass)?;
            return Ok(Turn::Drop(who));
        }
        "pass" if m.phase() == Phase::DoubleOffered => {
            check_side(m, side)?;
            let who = m.to_act().unwrap_or(m.board().turn());
            act(m, Action::Pass)?;
            return Ok(Turn::Drop(who));
        }
        "resign" | "resigns" => {
            let who = side.or(m.to_act()).unwrap_or(m.board().turn());
            let level = number().and_then(|n| u8::try_from(n).ok()).unwrap_or(1);
            act(m, Action::Resign { side: who, level })?;
            return Ok(Turn::Resign { side: who, level });
        }
        "wins" => {
            let n = number().ok_or_else(|| TurnError::Unreadable(body.to_owned()))?;
            if matches!(m.phase(), Phase::Roll | Phase::Move | Phase::DoubleOffered) {
                // A game under way ends here: the loser resigned (as gnubg reads it).
                let winner = side.ok_or(TurnError::NeedSide)?;
                let cube = m.cube().max(1);
                let level = u8::try_from(n / cube).unwrap_or(0);
                if n % cube != 0 || !(1..=3).contains(&level) {
                    return Err(TurnError::GameEnd {
                        written: n,
                        side,
                        actual: None,
                    });
                }
                act(
                    m,
                    Action::Resign {
                        side: winner.other(),
                        level,
                    },
                )?;
                return Ok(Turn::Resign {
                    side: winner.other(),
                    level,
                });
            }
            return Err(TurnError::GameEnd {
                written: n,
                side,
                actual: m.last_end().map(|e| (e.winner, e.points)),
            });
        }
        _ => {}
    }
    let Some((d0, d1, rest)) = roll_prefix(body) else {
        return Err(TurnError::Unreadable(body.to_owned()));
    };
    let Some(dice) = Dice::new(d0, d1) else {
        return Err(TurnError::Roll(ActionError::BadDice));
    };
    let (who, acted) = roll_part(m, side, d0, d1)?;
    let mv = rest.trim();
    let mv = mv.strip_prefix("move ").unwrap_or(mv).trim();
    let mv = if mv.is_empty() || mv.eq_ignore_ascii_case("pass") {
        "pass"
    } else {
        mv
    };
    let move_err = |error| TurnError::Move {
        dice: dice.high_first(),
        error,
    };
    let a = m.parse_action(&format!("move {mv}")).map_err(move_err)?;
    let Action::Move(play) = a else {
        return Err(TurnError::Unreadable(body.to_owned()));
    };
    m.act(a).map_err(move_err)?;
    Ok(Turn::Roll {
        side: who,
        dice: acted,
        play,
    })
}

/// Rolls the dice of an entry on `m`: at a game's start the opening roll of
/// the side written (004 4.1: the higher die moves first with both).
fn roll_part(
    m: &mut Match,
    side: Option<Color>,
    d0: u8,
    d1: u8,
) -> Result<(Color, Dice), TurnError> {
    let dice = Dice::new(d0, d1).ok_or(TurnError::Roll(ActionError::BadDice))?;
    let (who, acted) = match m.phase() {
        Phase::Opening => {
            let who = side.ok_or(TurnError::NeedSide)?;
            if d0 == d1 {
                return Err(TurnError::Roll(ActionError::OpeningTie));
            }
            let (hi, lo) = (d0.max(d1), d0.min(d1));
            let d = match who {
                Color::White => Dice(hi, lo),
                Color::Black => Dice(lo, hi),
            };
            (who, d)
        }
        _ => {
            check_side(m, side)?;
            (m.to_act().unwrap_or(m.board().turn()), dice.high_first())
        }
    };
    m.act(Action::Roll(acted)).map_err(TurnError::Roll)?;
    Ok((who, acted))
}

/// The parts of an entry as written: the side, the dice (as written, for a
/// turn) and the rest (the move, or the cube action).
#[must_use]
pub fn entry_parts(text: &str) -> (Option<Color>, Option<(u8, u8)>, String) {
    let (side, body) = split_side(text);
    match roll_prefix(body) {
        Some((a, b, rest)) => (side, Some((a, b)), rest.to_owned()),
        None => (side, None, body.trim().to_owned()),
    }
}

/// The match after an entry's roll, and the move written after the dice
/// (`pass` for none): where a refused move is judged. `None` when the entry
/// is no turn or its roll is refused.
#[must_use]
pub fn after_roll(pos: &Match, text: &str) -> Option<(Match, String)> {
    let (side, body) = split_side(text);
    let (d0, d1, rest) = roll_prefix(body)?;
    let mut m = pos.clone();
    roll_part(&mut m, side, d0, d1).ok()?;
    let mv = rest.trim();
    let mv = mv.strip_prefix("move ").unwrap_or(mv).trim();
    Some((
        m,
        if mv.is_empty() {
            "pass".to_owned()
        } else {
            mv.to_owned()
        },
    ))
}

/// A turn written as tandem writes it in a `.mat` file, in the position
/// `before` it: `52: 13/8 13/11` (the dice larger first), `doubles`,
/// `takes`, `drops`, `resigns 2`.
#[must_use]
pub fn turn_text(before: &Match, t: &Turn) -> String {
    match t {
        Turn::Roll { dice, play, .. } => {
            let mut m = before.clone();
            let board = match m.act(Action::Roll(*dice)) {
                Ok(()) => *m.board(),
                Err(_) => *before.board(),
            };
            let d = dice.high_first();
            if play.is_pass() {
                format!("{}{}:", d.0, d.1)
            } else {
                format!("{}{}: {}", d.0, d.1, notation::write(&board, play))
            }
        }
        Turn::Double(_) => "doubles".to_owned(),
        Turn::Take(_) => "takes".to_owned(),
        Turn::Drop(_) => "drops".to_owned(),
        Turn::Resign { level, .. } => format!("resigns {level}"),
    }
}

/// Where the next entry by `side` stands in the record of `before`: the
/// game (1-based) and the line of that game's `.mat` record (1-based), as
/// gnubg numbers them (white's entry starts a line; black's shares white's
/// line when white's column is written, else starts one).
#[must_use]
pub fn entry_place(before: &Match, side: Color) -> (usize, usize) {
    let games = before.games();
    let new_game = before.phase() == Phase::Opening || games.is_empty();
    if new_game {
        return (games.len() + 1, 1);
    }
    let mut row = 0usize;
    let mut open = false;
    if let Some(g) = games.last() {
        for (who, a, _) in &g.actions {
            if matches!(a, Action::Roll(_) | Action::Resign { .. }) {
                continue;
            }
            match who {
                Color::White => {
                    row += 1;
                    open = true;
                }
                Color::Black => {
                    if !open {
                        row += 1;
                    }
                    open = false;
                }
            }
        }
    }
    let row = match side {
        Color::White => row + 1,
        Color::Black if open => row,
        Color::Black => row + 1,
    };
    (games.len(), row)
}

// ------------------------------------------------------ the comparison

/// A record replayed entry by entry: the match after each.
#[derive(Debug, Clone)]
pub struct BgRecordGame {
    positions: Vec<Match>,
    turns: Vec<Turn>,
    strict: Vec<String>,
}

impl BgRecordGame {
    /// A replay from `start`.
    #[must_use]
    pub fn new(start: Match) -> BgRecordGame {
        BgRecordGame {
            positions: vec![start],
            turns: Vec::new(),
            strict: Vec::new(),
        }
    }

    fn play(&mut self, text: &str) -> Result<Turn, TurnError> {
        let before = self.current_position().clone();
        let mut m = before.clone();
        let t = play_entry(&mut m, text)?;
        self.strict
            .push(format!("{} {}", t.side().name(), turn_text(&before, &t)));
        self.turns.push(t);
        self.positions.push(m);
        Ok(t)
    }
}

/// A backgammon record replayed.
pub type BgReplay = RecordReplay<BgRecordGame>;

impl RecordedGame for BgRecordGame {
    /// The match as it stands (its history included: two records are at
    /// "the same position" only when they played the same turns).
    type Position = Match;
    type Move = Turn;
    type Error = TurnError;
    type Key = String;
    // As in chess: two legal turns that differ are never "the same"; as in
    // draughts, a wrong entry whose followers agree is found first (a sheet
    // may add a game's `wins` line the journal does not have).
    const CLASSIFY: Classify = Classify {
        same_needs_both_illegal: true,
        wrong_move_first: true,
    };

    fn replay(start: &Match, texts: Vec<String>) -> BgReplay {
        generic::replay_with(BgRecordGame::new(start.clone()), texts, BgRecordGame::play)
    }

    fn play_in(pos: &Match, text: &str) -> Result<Turn, TurnError> {
        play_entry(&mut pos.clone(), text)
    }

    fn start_position(&self) -> &Match {
        &self.positions[0]
    }

    fn current_position(&self) -> &Match {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    fn position_after(&self, ply: usize) -> Option<&Match> {
        self.positions.get(ply)
    }

    fn played(&self) -> &[Turn] {
        &self.turns
    }

    fn strict_texts(&self, plies: usize) -> Vec<String> {
        self.strict[..plies.min(self.strict.len())].to_vec()
    }

    /// An entry's key is its text evened out ([`entry_key`]): a legal
    /// entry's strict text, an illegal one's (or one after it) as written.
    fn keys(_start: &Match, record: &BgReplay) -> Vec<String> {
        record
            .texts
            .iter()
            .enumerate()
            .map(|(i, t)| entry_key(record.game.strict.get(i).unwrap_or(t)))
            .collect()
    }
}

/// An entry's text evened out, so that two records written alike match
/// where they cannot be replayed (after a difference): the side's full
/// name, the dice larger first, lower case, `-` as `/`, `25` as `bar`, `0`
/// as `off`, no `*` (a hit depends on the position), single spaces.
#[must_use]
pub fn entry_key(text: &str) -> String {
    let (side, dice, rest) = entry_parts(text);
    let mut out = String::new();
    if let Some(s) = side {
        out.push_str(s.name());
        out.push(' ');
    }
    if let Some((a, b)) = dice {
        out.push_str(&format!("{}{}: ", a.max(b), a.min(b)));
    }
    // A hit depends on the position, which differs after a difference.
    let rest = rest.to_lowercase().replace('-', "/").replace('*', "");
    let steps: Vec<String> = rest
        .split_whitespace()
        .map(|w| {
            let w = w
                .strip_prefix("25/")
                .map_or_else(|| w.to_owned(), |r| format!("bar/{r}"));
            w.strip_suffix("/0")
                .map_or(w.clone(), |r| format!("{r}/off"))
        })
        .collect();
    out.push_str(&steps.join(" "));
    out.trim().to_owned()
}

/// The comparison of two backgammon records.
pub type BgReconciliation = generic::Reconciliation<BgRecordGame>;

/// Compares two records of one match (the entries of [`BgRecord::texts`])
/// from a new match of `length` points.
#[must_use]
pub fn reconcile_match<S: AsRef<str>, T: AsRef<str>>(
    length: u32,
    a: &[S],
    b: &[T],
) -> BgReconciliation {
    generic::reconcile::<BgRecordGame, _, _>(&Match::new(MatchOptions { length }), a, b)
}

// ------------------------------------------------------------ positions

/// A place on the board, in white's numbering (white's 1-point is black's
/// 24-point).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "point")]
pub enum Spot {
    /// A point 1..24, white's numbering.
    Point(u8),
    /// The bar.
    Bar,
    /// Borne off.
    Off,
}

impl Spot {
    /// The point as `side` numbers it (bar and off are the same for both).
    #[must_use]
    pub fn point_for(self, side: Color) -> Option<u8> {
        match (self, side) {
            (Spot::Point(p), Color::White) => Some(p),
            (Spot::Point(p), Color::Black) => Some(25 - p),
            _ => None,
        }
    }
}

/// A place where one side's checkers differ between two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SpotChange {
    /// Whose checkers.
    pub side: Color,
    /// Where.
    pub spot: Spot,
    /// How many on the first board (the right one).
    pub a: u8,
    /// How many on the second board (the one to correct).
    pub b: u8,
}

/// What to do on the second board at one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BgFix {
    /// Take `n` of `side`'s checkers off `spot` (to the tray).
    Remove {
        /// Whose.
        side: Color,
        /// Where.
        spot: Spot,
        /// How many.
        n: u8,
    },
    /// Put `n` of `side`'s checkers on `spot` (from the tray).
    Put {
        /// Whose.
        side: Color,
        /// Where.
        spot: Spot,
        /// How many.
        n: u8,
    },
}

impl SpotChange {
    /// The fix on the second board; `None` for the checkers borne off,
    /// which follow from the rest (the tray holds what is not on the board).
    #[must_use]
    pub fn fix(&self) -> Option<BgFix> {
        if self.spot == Spot::Off {
            return None;
        }
        let (side, spot) = (self.side, self.spot);
        if self.b > self.a {
            Some(BgFix::Remove {
                side,
                spot,
                n: self.b - self.a,
            })
        } else {
            Some(BgFix::Put {
                side,
                spot,
                n: self.a - self.b,
            })
        }
    }
}

fn count_at(b: &Board, side: Color, spot: Spot) -> u8 {
    match spot {
        Spot::Point(_) => spot.point_for(side).map_or(0, |p| b.count(side, p)),
        Spot::Bar => b.bar(side),
        Spot::Off => b.borne_off(side),
    }
}

/// Every place where the boards differ: points 24 down to 1 in white's
/// numbering (each point's checkers of both sides), then the bar and the
/// checkers borne off, white's before black's.
#[must_use]
pub fn diff_boards(a: &Board, b: &Board) -> Vec<SpotChange> {
    let spots = (1..=24u8)
        .rev()
        .map(Spot::Point)
        .chain([Spot::Bar, Spot::Off]);
    let mut out = Vec::new();
    for spot in spots {
        for side in [Color::White, Color::Black] {
            let (x, y) = (count_at(a, side, spot), count_at(b, side, spot));
            if x != y {
                out.push(SpotChange {
                    side,
                    spot,
                    a: x,
                    b: y,
                });
            }
        }
    }
    out
}

/// Does the fixes on a board: what the second board holds after the
/// director's instructions are followed.
///
/// # Errors
/// The result is no board (a fix from another pair of boards).
pub fn apply_fixes(board: &Board, fixes: &[BgFix]) -> Result<Board, BoardError> {
    let mut sides = [*board.side(Color::White), *board.side(Color::Black)];
    for f in fixes {
        let (side, spot, delta): (Color, Spot, i16) = match *f {
            BgFix::Remove { side, spot, n } => (side, spot, -i16::from(n)),
            BgFix::Put { side, spot, n } => (side, spot, i16::from(n)),
        };
        let slot = match spot {
            Spot::Point(_) => spot.point_for(side).map(|p| usize::from(p) - 1),
            Spot::Bar => Some(24),
            Spot::Off => None,
        };
        if let Some(i) = slot {
            let v = &mut sides[idx(side)][i];
            *v = u8::try_from(i16::from(*v) + delta).unwrap_or(0);
        }
    }
    Board::from_sides(sides[0], sides[1], board.turn())
}

/// A position as gnubg writes it: `POSITION_ID` or `POSITION_ID:MATCH_ID`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdPosition {
    /// The checkers.
    pub board: Board,
    /// The Match ID's fields, when given.
    pub info: Option<MatchInfo>,
}

/// Why a position text is no Position ID (with a Match ID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdError {
    /// The Position ID.
    Position(PositionIdError),
    /// The Match ID.
    Match(MatchIdError),
}

impl fmt::Display for IdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdError::Position(e) => write!(f, "Position ID: {e}"),
            IdError::Match(e) => write!(f, "Match ID: {e}"),
        }
    }
}

impl std::error::Error for IdError {}

/// Reads `POSITION_ID[:MATCH_ID]` (also as gnubg prints them:
/// `Position ID: ...`, `Match ID: ...`). The Position ID is from the side on
/// roll: the Match ID's, else `on_roll`.
///
/// # Errors
/// Either ID does not read.
pub fn read_ids(text: &str, on_roll: Color) -> Result<IdPosition, IdError> {
    let t = text
        .replace("Position ID:", " ")
        .replace("Match ID:", ":")
        .replace("GNUbg ID:", " ");
    let t = t.trim();
    let (pid, mid) = match t.split_once(':') {
        Some((p, m)) => (p.trim(), Some(m.trim())),
        None => (t, None),
    };
    let info = match mid {
        Some(m) if !m.is_empty() => Some(match_id::decode(m).map_err(IdError::Match)?),
        _ => None,
    };
    let turn = info.map_or(on_roll, |i| i.on_roll);
    let board = position_id::decode(pid, turn).map_err(IdError::Position)?;
    Ok(IdPosition { board, info })
}

/// A field of the Match ID that differs between two positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "field", rename_all = "snake_case")]
pub enum InfoChange {
    /// The dice (`None`: not rolled).
    Dice {
        /// The first position's.
        a: Option<Dice>,
        /// The second's.
        b: Option<Dice>,
    },
    /// The cube's value and owner (`None`: in the middle).
    Cube {
        /// The first position's value.
        a: u32,
        /// Its owner.
        a_owner: Option<Color>,
        /// The second position's value.
        b: u32,
        /// Its owner.
        b_owner: Option<Color>,
    },
    /// The score and match length.
    Score {
        /// White's, black's score and the length in the first position.
        a: (u32, u32, u32),
        /// The same in the second.
        b: (u32, u32, u32),
    },
    /// The Crawford game.
    Crawford {
        /// The first position's.
        a: bool,
        /// The second's.
        b: bool,
    },
    /// The side on roll.
    OnRoll {
        /// The first position's.
        a: Color,
        /// The second's.
        b: Color,
    },
    /// A double waiting for an answer.
    Doubled {
        /// The first position's.
        a: bool,
        /// The second's.
        b: bool,
    },
}

/// The Match ID's fields that differ: the dice, the cube, the score, the
/// Crawford game, the side on roll, a double waiting.
#[must_use]
pub fn diff_infos(a: &MatchInfo, b: &MatchInfo) -> Vec<InfoChange> {
    let mut out = Vec::new();
    let dice = |i: &MatchInfo| i.dice.map(Dice::high_first);
    if dice(a) != dice(b) {
        out.push(InfoChange::Dice {
            a: dice(a),
            b: dice(b),
        });
    }
    if (a.cube, a.cube_owner) != (b.cube, b.cube_owner) {
        out.push(InfoChange::Cube {
            a: a.cube,
            a_owner: a.cube_owner,
            b: b.cube,
            b_owner: b.cube_owner,
        });
    }
    let score = |i: &MatchInfo| (i.score_white, i.score_black, i.length);
    if score(a) != score(b) {
        out.push(InfoChange::Score {
            a: score(a),
            b: score(b),
        });
    }
    if a.crawford != b.crawford {
        out.push(InfoChange::Crawford {
            a: a.crawford,
            b: b.crawford,
        });
    }
    if a.on_roll != b.on_roll {
        out.push(InfoChange::OnRoll {
            a: a.on_roll,
            b: b.on_roll,
        });
    }
    if a.doubled != b.doubled {
        out.push(InfoChange::Doubled {
            a: a.doubled,
            b: b.doubled,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(r: &BgRecord) -> Vec<String> {
        r.texts()
    }

    #[test]
    fn a_mat_file_reads_into_entries_with_sides() {
        let m = " 3 point match\n\n Game 1\n A : 0                          B : 0\n  1)                             52: 13/8 13/11\n  2) 31: 8/5 6/5                 Doubles => 2\n  3)  Takes                      64: 24/18 13/9\n";
        let r = read_mat(m).unwrap();
        assert_eq!(r.length, Some(3));
        assert_eq!(r.names, Some(("A".to_owned(), "B".to_owned())));
        assert_eq!(
            texts(&r),
            [
                "black 52: 13/8 13/11",
                "white 31: 8/5 6/5",
                "black Doubles => 2",
                "white Takes",
                "black 64: 24/18 13/9"
            ]
        );
    }

    #[test]
    fn typed_sheets_agree_with_the_mat_and_name_a_wrong_roll() {
        let mat = " 3 point match\n\n Game 1\n A : 0                          B : 0\n  1) 52: 13/8 13/11              31: 8/5 6/5\n  2) 64: 24/18 13/9\n";
        let a = read_mat(mat).unwrap();
        let mut b = read_list("1) 52 13-8 13-11\nblack 31: 85 65\n64: 24/18 13/9\n").unwrap();
        fill_sides(&mut b, &a);
        let r = reconcile_match(3, &a.texts(), &b.texts());
        assert!(r.agree(), "{:?}", r.first_difference);
        let mut c =
            read_list("white 52: 13/8 13/11\nblack 31: 8/5 6/5\nwhite 63: 24/18 13/10\n").unwrap();
        fill_sides(&mut c, &a);
        let r = reconcile_match(3, &a.texts(), &c.texts());
        assert_eq!(r.agreed_plies, 2);
        let d = r.first_difference.unwrap();
        assert_eq!(d.ply, 3);
        assert_eq!(d.b_legal(), Some(true));
    }

    #[test]
    fn an_illegal_move_is_a_difference_not_an_unreadable_record() {
        let a = read_list("white 52: 13/8 13/11\nblack 31: 8/5 6/5\n").unwrap();
        let b = read_list("white 52: 13/8 13/10\nblack 31: 8/5 6/5\n").unwrap();
        let r = reconcile_match(3, &a.texts(), &b.texts());
        assert!(!r.agree());
        let d = r.first_difference.unwrap();
        assert_eq!(d.ply, 1);
        assert_eq!(d.b_legal(), Some(false));
        assert!(matches!(d.b_result, Some(Err(TurnError::Move { .. }))));
    }

    #[test]
    fn wins_lines_that_state_a_game_end_are_dropped() {
        // A game to a passed double: the `Wins 1 point` line only states it.
        let mut a = read_list(
            "white 52: 13/8 13/11\nblack doubles\nwhite drops\nblack wins 1 point\nGame 2\nblack 31: 8/5 6/5\n",
        )
        .unwrap();
        a.length = Some(3);
        settle(&mut a);
        assert_eq!(a.entries.len(), 4);
        let r = reconcile_match(3, &a.texts(), &a.texts());
        assert!(r.agree(), "{:?}", r.a.illegal);
    }

    #[test]
    fn entry_places_follow_the_mat_lines() {
        let mut m = Match::new(MatchOptions { length: 3 });
        assert_eq!(entry_place(&m, Color::Black), (1, 1));
        play_entry(&mut m, "black 52: 13/8 13/11").unwrap();
        assert_eq!(entry_place(&m, Color::White), (1, 2));
        play_entry(&mut m, "white 31: 8/5 6/5").unwrap();
        assert_eq!(entry_place(&m, Color::Black), (1, 2));
    }

    #[test]
    fn fixes_make_the_second_board_the_first() {
        let a = Board::start(Color::White);
        let mut m = Match::new(MatchOptions { length: 3 });
        play_entry(&mut m, "white 52: 13/8 13/11").unwrap();
        let b = *m.board();
        let changes = diff_boards(&a, &b);
        let fixes: Vec<BgFix> = changes.iter().filter_map(SpotChange::fix).collect();
        let fixed = apply_fixes(&b, &fixes).unwrap();
        assert!(diff_boards(&a, &fixed).is_empty());
    }

    #[test]
    fn ids_read_with_and_without_a_match_id() {
        let p = read_ids("4HPwATDgc/ABMA", Color::White).unwrap();
        assert_eq!(p.board, Board::start(Color::White));
        assert!(read_ids("4HPwATDgc/ABMA:cAkAAAAAAAAA", Color::White)
            .unwrap()
            .info
            .is_some());
        assert!(read_ids("not an id", Color::White).is_err());
    }
}
