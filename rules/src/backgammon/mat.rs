//! The Jellyfish `.mat` match record, as GNU Backgammon writes and imports
//! it (`export match mat`, `import mat`):
//!
//! ```text
//!  7 point match
//!
//!  Game 1
//!  White : 0                      Black : 0
//!   1)                             52: 13/8 13/11
//!   2) 31: 8/5 6/5                 Doubles => 2
//!   3)  Takes                      ...
//!                                   Wins 1 point
//! ```
//!
//! White (gnubg's player 0) writes in the left column, black in the right;
//! each line is one turn of each. Moves are written step by step, `25` for
//! the bar, `0` for off, `*` on a hit (gnubg's plain form).

use std::fmt;
use std::fmt::Write as _;

use super::board::{Board, Dice};
use super::match_play::{Action, GameRecord, Match, MatchOptions, Phase};
use super::notation;
use crate::Color;

const RIGHT: usize = 34;

fn side_col(c: Color) -> usize {
    match c {
        Color::White => 6,
        Color::Black => RIGHT,
    }
}

fn points(n: u32) -> String {
    format!("Wins {n} point{}", if n == 1 { "" } else { "s" })
}

/// The players' names for the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// White (left column).
    pub white: String,
    /// Black (right column).
    pub black: String,
}

impl Default for Names {
    fn default() -> Names {
        Names {
            white: "White".to_owned(),
            black: "Black".to_owned(),
        }
    }
}

fn entry(board: &Board, a: &Action, cube: &mut u32) -> Option<String> {
    Some(match a {
        // A resignation offered and declined leaves no mark in a .mat file.
        Action::Roll(_)
        | Action::Resign { .. }
        | Action::ResignOffer { .. }
        | Action::ResignDecline => return None,
        Action::Move(p) => {
            // The roll is written with the move: filled in by the caller.
            let plain = notation::write_plain(board, p);
            if plain.is_empty() {
                String::new()
            } else {
                format!("{plain} ")
            }
        }
        Action::Double => {
            *cube *= 2;
            format!(" Doubles => {cube}")
        }
        Action::Take => " Takes".to_owned(),
        Action::Pass => " Drops".to_owned(),
    })
}

fn write_game(out: &mut String, k: usize, g: &GameRecord, names: &Names) {
    let _ = writeln!(out, " Game {}", k + 1);
    let left = format!("{} : {}", names.white, g.score[0]);
    let _ = writeln!(out, " {left:<31}{} : {}", names.black, g.score[1]);
    let mut row = 0usize;
    let mut open = false; // a line with the left column written, waiting for the right
    let mut cube = 1u32;
    let mut dice: Option<Dice> = None;
    for (k, (who, a, board)) in g.actions.iter().enumerate() {
        if let Action::Roll(d) = a {
            // The opening roll: the starter plays both dice, the higher first.
            dice = Some(if k == 0 && board.turn() == *who {
                Dice(d.0.max(d.1), d.0.min(d.1))
            } else {
                *d
            });
            continue;
        }
        let Some(mut text) = entry(board, a, &mut cube) else {
            continue;
        };
        if let Action::Move(_) = a {
            let d = dice.take().unwrap_or(Dice(0, 0));
            text = format!("{}{}: {text}", d.0, d.1);
        }
        match who {
            Color::White => {
                if open {
                    out.push('\n');
                }
                row += 1;
                let _ = write!(out, "{row:>3}) {text:<27} ");
                open = true;
            }
            Color::Black => {
                if !open {
                    row += 1;
                    let _ = write!(out, "{row:>3}){:29}", "");
                }
                let _ = writeln!(out, "{text}");
                open = false;
            }
        }
    }
    if open {
        out.push('\n');
    }
    if let Some(end) = g.end {
        let _ = writeln!(
            out,
            "{:w$}{}",
            "",
            points(end.points),
            w = side_col(end.winner)
        );
    }
    out.push('\n');
}

/// Writes a match as a Jellyfish `.mat` file.
#[must_use]
pub fn export(m: &Match, names: &Names) -> String {
    let mut out = String::new();
    let _ = writeln!(out, " {} point match\n", m.options().length);
    for (k, g) in m.games().iter().enumerate() {
        write_game(&mut out, k, g, names);
    }
    out
}

/// Why a `.mat` file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatError {
    /// No `N point match` line.
    NoLength,
    /// A line that makes no sense here, with its number (1-based) and why.
    Line(usize, String),
}

impl fmt::Display for MatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatError::NoLength => f.write_str("no \"N point match\" line"),
            MatError::Line(n, why) => write!(f, "line {n}: {why}"),
        }
    }
}

impl std::error::Error for MatError {}

/// The parts of one turn entry.
pub(crate) fn entries(body: &str) -> Vec<(usize, String)> {
    // Entries start with `dd:`, `Doubles`, `Takes`, `Drops`, `Wins`, `Accepts`, `Rejects`.
    let bytes = body.as_bytes();
    let mut starts = Vec::new();
    for (i, _) in body.char_indices() {
        let rest = &body[i..];
        let at_word = i == 0 || bytes[i - 1] == b' ';
        let rb = rest.as_bytes();
        let is_roll =
            rb.len() >= 3 && rb[0].is_ascii_digit() && rb[1].is_ascii_digit() && rb[2] == b':';
        let is_word = [
            "doubles", "takes", "drops", "wins", "accepts", "rejects", "beavers",
        ]
        .iter()
        .any(|w| rb.len() >= w.len() && rb[..w.len()].eq_ignore_ascii_case(w.as_bytes()));
        if at_word && (is_roll || is_word) {
            starts.push(i);
        }
    }
    let mut out = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(body.len());
        out.push((s, body[s..e].trim().to_owned()));
    }
    out
}

/// Reads a Jellyfish `.mat` file into a match, replaying every action
/// through the rules (an illegal move is refused with its line).
///
/// # Errors
/// No match length, or a line that does not replay.
pub fn import(text: &str) -> Result<(Match, Names), MatError> {
    let mut length = None;
    let mut names = Names::default();
    let mut m: Option<Match> = None;
    let mut new_game = false;
    for (ln, raw) in text.lines().enumerate() {
        let ln = ln + 1;
        let line = raw.trim_end();
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        let bad = |why: String| MatError::Line(ln, why);
        if let Some(n) = t.strip_suffix("point match") {
            let n: u32 = n
                .trim()
                .parse()
                .map_err(|_| bad(format!("bad match length {n:?}")))?;
            length = Some(n);
            m = Some(Match::new(MatchOptions { length: n }));
            continue;
        }
        let Some(mm) = m.as_mut() else {
            return Err(MatError::NoLength);
        };
        if t.starts_with("Game ") {
            new_game = true;
            continue;
        }
        if new_game && t.contains(" : ") && !t.contains(')') {
            // `Name : score   Name : score`
            let parts: Vec<&str> = t.split(" : ").collect();
            if parts.len() >= 2 {
                names.white = parts[0].trim().to_owned();
                if let Some(b) = parts[1].split_whitespace().nth(1) {
                    names.black =
                        parts[1].trim()[parts[1].trim().find(b).unwrap_or(0)..].to_owned();
                }
            }
            continue;
        }
        // A numbered turn line, or a `Wins` line.
        let body_start = match line.find(')') {
            Some(p)
                if line[..p].trim().chars().all(|c| c.is_ascii_digit())
                    && !line[..p].trim().is_empty() =>
            {
                p + 1
            }
            _ => 0,
        };
        let body = &line[body_start..];
        for (col, e) in entries(body) {
            let lower = e.to_ascii_lowercase();
            if lower.starts_with("wins") {
                // A game still under way ends here by resignation; otherwise
                // the score follows from the replay.
                if matches!(mm.phase(), Phase::Roll | Phase::Move | Phase::DoubleOffered) {
                    let winner = if body_start + col >= 20 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let n: u32 = lower
                        .split_whitespace()
                        .nth(1)
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| bad(format!("cannot read {e:?}")))?;
                    let level = u8::try_from(n / mm.cube()).unwrap_or(0);
                    if n % mm.cube() != 0 {
                        return Err(bad(format!(
                            "{n} points is no resignation at cube {}",
                            mm.cube()
                        )));
                    }
                    mm.act(Action::Resign {
                        side: winner.other(),
                        level,
                    })
                    .map_err(|x| bad(x.to_string()))?;
                }
                continue;
            }
            if new_game {
                // The opening: the side whose column holds the first roll starts.
                new_game = false;
                let starter = if body_start + col >= 20 {
                    Color::Black
                } else {
                    Color::White
                };
                let (a, b) =
                    parse_roll(&e).ok_or_else(|| bad(format!("no opening roll in {e:?}")))?;
                let (hi, lo) = (a.max(b), a.min(b));
                let d = match starter {
                    Color::White => Dice(hi, lo),
                    Color::Black => Dice(lo, hi),
                };
                if hi == lo {
                    return Err(bad("a double as the opening roll".to_owned()));
                }
                mm.act(Action::Roll(d)).map_err(|e| bad(e.to_string()))?;
                let mv = e[3..].trim();
                mm.act_text(&format!("move {}", if mv.is_empty() { "pass" } else { mv }))
                    .map_err(|x| bad(format!("{e:?}: {x}")))?;
                continue;
            }
            if lower.starts_with("doubles") {
                mm.act(Action::Double).map_err(|x| bad(x.to_string()))?;
            } else if lower.starts_with("takes") || lower.starts_with("accepts") {
                mm.act(Action::Take).map_err(|x| bad(x.to_string()))?;
            } else if lower.starts_with("drops") || lower.starts_with("rejects") {
                mm.act(Action::Pass).map_err(|x| bad(x.to_string()))?;
            } else if let Some((a, b)) = parse_roll(&e) {
                let d = Dice::new(a, b).ok_or_else(|| bad(format!("bad dice in {e:?}")))?;
                mm.act(Action::Roll(d)).map_err(|x| bad(x.to_string()))?;
                let mv = e[3..].trim();
                mm.act_text(&format!("move {}", if mv.is_empty() { "pass" } else { mv }))
                    .map_err(|x| bad(format!("{e:?}: {x}")))?;
            } else {
                return Err(bad(format!("cannot read {e:?}")));
            }
        }
    }
    let _ = length.ok_or(MatError::NoLength)?;
    m.map(|m| (m, names)).ok_or(MatError::NoLength)
}

pub(crate) fn parse_roll(e: &str) -> Option<(u8, u8)> {
    let b = e.as_bytes();
    (b.len() >= 3 && b[2] == b':' && b[0].is_ascii_digit() && b[1].is_ascii_digit())
        .then(|| (b[0] - b'0', b[1] - b'0'))
}
