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
    // At least one space after white's score, however long the name: a
    // black name starting with a digit must not run into it.
    let _ = writeln!(out, " {left:<30} {} : {}", names.black, g.score[1]);
    let mut row = 0usize;
    let mut open = false; // a line with the left column written, waiting for the right
    let mut cube = 1u32;
    let mut dice: Option<Dice> = None;
    for (k, (who, a, board)) in g.actions.iter().enumerate() {
        // A roll and then a resignation: the roll is written alone, as gnubg
        // and FIBS write it (`51:`), and the `Wins` line follows.
        let (who, a) = match (a, dice, k.checked_sub(1).map(|j| &g.actions[j])) {
            (Action::Resign { .. }, Some(_), Some((roller, Action::Roll(_), _))) => {
                (roller, &Action::Move(super::movegen::Play::PASS))
            }
            _ => (who, a),
        };
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
    // Entries start with `dd:`, `Doubles`, `Takes`, `Drops`, `Wins`, `Accepts`, `Rejects`,
    // `Losses` (Backgammon Galaxy's loser's line, beside the winner's last move).
    let bytes = body.as_bytes();
    let mut starts = Vec::new();
    for (i, _) in body.char_indices() {
        let rest = &body[i..];
        let at_word = i == 0 || bytes[i - 1] == b' ';
        let rb = rest.as_bytes();
        let is_roll =
            rb.len() >= 3 && rb[0].is_ascii_digit() && rb[1].is_ascii_digit() && rb[2] == b':';
        let is_word = [
            "doubles", "takes", "drops", "wins", "accepts", "rejects", "beavers", "losses",
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

/// A turn line's body without a second turn number in the right column
/// (Backgammon Galaxy writes `24) 43: 21/18 18/14      24)  Losses 2 point
/// ... Wins 2 point and the match`), and what was cut off. gnubg's `import
/// mat` reads the right column as one entry that starts with `24)`, an
/// unknown word, and passes over all of it, the `Wins` too.
pub(crate) fn cut_stray_number(body: &str) -> (&str, Option<&str>) {
    let bytes = body.as_bytes();
    let mut words = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        if bytes[i] == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i] != b' ' {
            i += 1;
        }
        let w = &body[start..i];
        let number = w.len() >= 2
            && w.ends_with(')')
            && w[..w.len() - 1].bytes().all(|b| b.is_ascii_digit());
        if number && words > 0 {
            return (&body[..start], Some(body[start..].trim()));
        }
        words += 1;
    }
    (body, None)
}

/// What kind of irregularity a `.mat` file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IrregularKind {
    /// A move, roll or cube action the rules refuse there: dropped, and the
    /// opponent plays on from the same board (as gnubg's `import mat`).
    Illegal,
    /// A game's line gives another score than the games before it: taken.
    Score,
    /// A double in what the file's score makes the Crawford game: the game
    /// is read as post-Crawford.
    PostCrawford,
    /// A game that did not end before the next `Game` line: the rest of the
    /// file is left out.
    Unfinished,
    /// A side's turn is missing, or its roll is written without a move
    /// while the opponent plays on: the opponent plays on from the same
    /// board (as gnubg's `import mat`).
    Missing,
    /// A `Wins N points` line after a game that ended worth another N:
    /// the game's own value is scored (gnubg passes over the line). Capped
    /// when the game won the match and N is less (servers write what the
    /// match still needed, or its length); otherwise another count (Galaxy's
    /// `16 point match` files, apparently its money sessions, give some
    /// gammons in an undoubled game as 1).
    WinsValue,
    /// Entries gnubg's `import mat` passes over (a right column that starts
    /// with a second turn number): left out, the game goes on without them.
    Ignored,
}

/// One irregularity of a record that was read on: the game (1-based), the
/// line of the file (1-based), the entry as written and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Irregularity {
    /// What kind.
    pub kind: IrregularKind,
    /// The game, 1-based as the file numbers them.
    pub game: usize,
    /// The line of the file, 1-based.
    pub line: usize,
    /// The entry as written.
    pub entry: String,
    /// Why it does not play.
    pub why: String,
}

impl fmt::Display for Irregularity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}: {:?}: {}",
            self.game, self.line, self.entry, self.why
        )
    }
}

/// A `.mat` file read as GNU Backgammon's `import mat` reads it.
#[derive(Debug, Clone)]
pub struct MatRead {
    /// The match as the file leaves it.
    pub game: Match,
    /// The players' names.
    pub names: Names,
    /// What was read on past: an illegal move (dropped, the opponent plays
    /// on from the same board, as gnubg does), a score on a game's line
    /// that differs from the games before it (the file's score is taken).
    pub irregular: Vec<Irregularity>,
}

/// `Name : 3    Name : 0`: the two names and scores, as gnubg reads a game's
/// line (the first colon ends the first name, the number after it is its
/// score, the next word starts the second name). Newer servers write no
/// space before the colon (`PlayerA: 0    PlayerB: 0`): read the same.
pub(crate) fn score_line(t: &str) -> Option<(String, u32, String, u32)> {
    let (n0, rest) = t.split_once(':')?;
    let rest = rest.trim_start();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let s0 = rest[..digits].parse().unwrap_or(0);
    let rest = rest[digits..].trim_start();
    let rest = rest
        .find(char::is_whitespace)
        .filter(|_| digits == 0)
        .map_or(rest, |k| rest[k..].trim_start());
    let (n1, rest) = rest.split_once(':')?;
    let rest = rest.trim_start();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let s1 = rest[..digits].parse().unwrap_or(0);
    Some((n0.trim().to_owned(), s0, n1.trim().to_owned(), s1))
}

/// Reads a Jellyfish `.mat` file into a match, replaying every action
/// through the rules; an illegal move ends the read with its line (see
/// [`read`] for the reading that goes on past it).
///
/// # Errors
/// No match length, or a line that does not replay.
pub fn import(text: &str) -> Result<(Match, Names), MatError> {
    read(text)?.strict()
}

impl MatRead {
    /// What [`import`] makes of the file this was read from: the match, or
    /// the first line that does not replay (an illegal move, a game left
    /// unfinished, a turn missing). For a caller that wants both readings
    /// without reading the file twice.
    ///
    /// # Errors
    /// A line that does not replay.
    pub fn strict(self) -> Result<(Match, Names), MatError> {
        let refused = self.irregular.into_iter().find(|i| {
            matches!(
                i.kind,
                IrregularKind::Illegal | IrregularKind::Unfinished | IrregularKind::Missing
            )
        });
        match refused {
            Some(i) => Err(MatError::Line(i.line, format!("{:?}: {}", i.entry, i.why))),
            None => Ok((self.game, self.names)),
        }
    }
}

/// Reads a Jellyfish `.mat` file as players and servers write it, the way
/// GNU Backgammon's `import mat` reads it:
/// - a roll written without its move: no legal move is a pass, one legal
///   move is played (a forced move left out), more is the roll alone (the
///   player resigned after rolling: `Wins N points` follows);
/// - `Wins N points` in a game under way: the loser resigned (004 4.5);
/// - each game's line gives the score before it (a file that continues a
///   match starts at `Game 1` with a score);
/// - games after the match was won are left out;
/// - an illegal move is dropped and the opponent plays on from the same
///   board (reported in [`MatRead::irregular`] with its game and line).
///
/// # Errors
/// No match length, or a line that cannot be read at all.
pub fn read(text: &str) -> Result<MatRead, MatError> {
    let mut r = Reader {
        names: Names::default(),
        m: None,
        irregular: Vec::new(),
        new_game: false,
        game: 0,
        skipping: false,
        score_from_file: false,
    };
    for (ln, raw) in text.lines().enumerate() {
        r.line(ln + 1, raw.trim_end())?;
    }
    let game = r.m.ok_or(MatError::NoLength)?;
    Ok(MatRead {
        game,
        names: r.names,
        irregular: r.irregular,
    })
}

/// [`read`]'s state between lines.
struct Reader {
    names: Names,
    m: Option<Match>,
    irregular: Vec<Irregularity>,
    /// A `Game N` line was read and the game's opening roll is to come.
    new_game: bool,
    /// The game being read, as the file numbers it.
    game: usize,
    /// The file's games after a side reached the match length are left out.
    skipping: bool,
    /// Whether this game's score was taken from its line (not the replay).
    score_from_file: bool,
}

/// What notes an irregularity of `entry` at game `game`, line `line`.
fn noter<'a>(
    irregular: &'a mut Vec<Irregularity>,
    game: usize,
    line: usize,
    entry: &'a str,
) -> impl FnMut(IrregularKind, String) + 'a {
    move |kind, why| {
        irregular.push(Irregularity {
            kind,
            game,
            line,
            entry: entry.to_owned(),
            why,
        });
    }
}

impl Reader {
    fn note(&mut self, ln: usize, entry: &str, kind: IrregularKind, why: String) {
        noter(&mut self.irregular, self.game, ln, entry)(kind, why);
    }

    /// One line of the file, its end trimmed.
    fn line(&mut self, ln: usize, line: &str) -> Result<(), MatError> {
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') {
            return Ok(());
        }
        let bad = |why: String| MatError::Line(ln, why);
        if self.m.is_none() {
            if let Some(n) = t.strip_suffix("point match") {
                let n: u32 = n
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("bad match length {n:?}")))?;
                if !(1..=64).contains(&n) {
                    return Err(bad(format!("match length {n}: 1 to 64")));
                }
                self.m = Some(Match::new(MatchOptions { length: n }));
                return Ok(());
            }
            return Err(MatError::NoLength);
        }
        if let Some(k) = t.strip_prefix("Game ") {
            self.new_game = true;
            self.game = k.trim().parse().unwrap_or(self.game + 1);
            return Ok(());
        }
        if self.new_game && t.contains(':') && !t.contains(')') && parse_roll(t).is_none() {
            let Some(score) = score_line(t) else {
                return Err(bad(format!("cannot read the score line {t:?}")));
            };
            self.game_line(ln, t, score);
            return Ok(());
        }
        if self.skipping {
            return Ok(());
        }
        self.turn_line(ln, line)
    }

    /// `Name : score   Name : score`: the score before this game.
    fn game_line(&mut self, ln: usize, t: &str, (n0, s0, n1, s1): (String, u32, String, u32)) {
        self.names.white = n0;
        self.names.black = n1;
        let Some(mm) = self.m.as_mut() else { return };
        let len = mm.options().length;
        self.score_from_file = false;
        self.skipping = s0 >= len || s1 >= len || mm.phase() == Phase::MatchOver;
        if !self.skipping && !matches!(mm.phase(), Phase::Opening) {
            // gnubg starts the next game over an unfinished one; a match
            // cannot: the rest of the file is left out.
            self.skipping = true;
            self.new_game = false;
            self.note(
                ln,
                t,
                IrregularKind::Unfinished,
                "the game before it did not end; the rest of the file is left out".to_owned(),
            );
            return;
        }
        let Some(mm) = self.m.as_mut() else { return };
        if !self.skipping && [s0, s1] != [mm.score(Color::White), mm.score(Color::Black)] {
            // A game under way when the next one starts ends unfinished.
            if mm.phase() == Phase::Opening && mm.set_score(s0, s1).is_ok() {
                self.score_from_file = true;
                if !mm.games().is_empty() {
                    self.note(ln, t, IrregularKind::Score, "the score on this game's line is not the one the games before it give; it is taken".to_owned());
                }
            } else {
                self.skipping = true;
            }
        }
        self.new_game = self
            .m
            .as_ref()
            .is_some_and(|mm| mm.phase() == Phase::Opening);
    }

    /// A numbered turn line, or a `Wins` line: each entry on it.
    fn turn_line(&mut self, ln: usize, line: &str) -> Result<(), MatError> {
        let body_start = match line.find(')') {
            Some(p)
                if line[..p].trim().chars().all(|c| c.is_ascii_digit())
                    && !line[..p].trim().is_empty() =>
            {
                p + 1
            }
            _ => 0,
        };
        let (body, cut) = cut_stray_number(&line[body_start..]);
        if let Some(rest) = cut {
            self.note(ln, rest, IrregularKind::Ignored, "a second turn number in the right column: gnubg passes over the column, so it is left out".to_owned());
        }
        for (col, e) in entries(body) {
            let side = if body_start + col >= 20 {
                Color::Black
            } else {
                Color::White
            };
            self.entry(ln, side, &e)?;
        }
        Ok(())
    }

    /// One entry of a turn line, in `side`'s column.
    fn entry(&mut self, ln: usize, side: Color, e: &str) -> Result<(), MatError> {
        // The entry before this one was refused (and reported).
        let illegal_before = self
            .irregular
            .last()
            .is_some_and(|i| i.kind == IrregularKind::Illegal && i.line + 1 >= ln);
        let lower = e.to_ascii_lowercase();
        if lower.starts_with("losses") {
            // Backgammon Galaxy writes the loser's `Losses N point` in the
            // loser's column, beside the winner's last move or before the
            // winner's `Wins` line: it states the result the `Wins` line
            // gives (or the bear-off made), and gnubg's `import mat` passes
            // over it as an unknown word.
            return Ok(());
        }
        if lower.starts_with("wins") {
            return self.wins(ln, side, e, &lower);
        }
        if self.new_game {
            return self.opening(ln, side, e);
        }
        let Reader {
            m: Some(mm),
            irregular,
            game,
            score_from_file,
            ..
        } = self
        else {
            return Ok(());
        };
        let mut note = noter(irregular, *game, ln, e);
        let side_written = |mm: &mut Match, note: &mut dyn FnMut(IrregularKind, String)| {
            if matches!(mm.phase(), Phase::Roll | Phase::Move) && mm.board().turn() != side {
                // The other side's turn before was left out or dropped:
                // gnubg lets this side play on from the same board.
                if !illegal_before {
                    note(IrregularKind::Missing, missing(mm));
                }
                mm.skip_turn();
            }
        };
        if lower.starts_with("doubles") || lower.starts_with("beavers") {
            side_written(mm, &mut note);
            if mm.is_crawford() && mm.phase() == Phase::Roll && *score_from_file {
                // The file's game line made this the Crawford game; a
                // double in it shows the match was post-Crawford.
                note(IrregularKind::PostCrawford, "a double in what the score on the game's line makes the Crawford game: read as a post-Crawford game (004 4.4 (iv))".to_owned());
                mm.post_crawford_after_all();
            }
            if let Err(x) = mm.act(Action::Double) {
                note(IrregularKind::Illegal, x.to_string());
            }
        } else if lower.starts_with("takes") || lower.starts_with("accepts") {
            if let Err(x) = mm.act(Action::Take) {
                note(IrregularKind::Illegal, x.to_string());
            }
        } else if lower.starts_with("drops") || lower.starts_with("rejects") {
            if let Err(x) = mm.act(Action::Pass) {
                note(IrregularKind::Illegal, x.to_string());
            }
        } else if let Some((a, b)) = parse_roll(e) {
            let Some(d) = Dice::new(a, b) else {
                note(IrregularKind::Illegal, "a die out of 1 to 6".to_owned());
                return Ok(());
            };
            side_written(mm, &mut note);
            if let Err(x) = mm.act(Action::Roll(d)) {
                note(IrregularKind::Illegal, x.to_string());
                return Ok(());
            }
            play_written(mm, e[3..].trim(), &mut note);
        } else {
            return Err(MatError::Line(ln, format!("cannot read {e:?}")));
        }
        Ok(())
    }

    /// `Wins N points`: a game still under way ends here by resignation
    /// (004 4.5); otherwise the score follows from the replay and N is
    /// checked against it.
    fn wins(&mut self, ln: usize, side: Color, e: &str, lower: &str) -> Result<(), MatError> {
        let Some(mm) = self.m.as_mut() else {
            return Ok(());
        };
        let value = wins_value(mm, lower, side.other());
        let under_way = matches!(mm.phase(), Phase::Roll | Phase::Move | Phase::DoubleOffered);
        if let Some(why) = value {
            self.note(ln, e, IrregularKind::WinsValue, why);
        }
        if !under_way {
            return Ok(());
        }
        let n: u32 = lower
            .split_whitespace()
            .nth(1)
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| MatError::Line(ln, format!("cannot read {e:?}")))?;
        let Some(mm) = self.m.as_mut() else {
            return Ok(());
        };
        // As gnubg: up to the cube a single game, up to twice a gammon, more
        // a backgammon.
        let cube = mm.cube();
        let level = if n <= cube {
            1
        } else if n <= 2 * cube {
            2
        } else {
            3
        };
        if let Err(x) = mm.act(Action::Resign {
            side: side.other(),
            level,
        }) {
            self.note(ln, e, IrregularKind::Illegal, x.to_string());
        }
        Ok(())
    }

    /// A game's first entry: the side whose column holds the first roll
    /// starts (004 4.1: the higher die moves first with both).
    fn opening(&mut self, ln: usize, side: Color, e: &str) -> Result<(), MatError> {
        let Some((a, b)) = parse_roll(e) else {
            self.note(ln, e, IrregularKind::Illegal, "no opening roll".to_owned());
            return Ok(());
        };
        let (hi, lo) = (a.max(b), a.min(b));
        if hi == lo || Dice::new(a, b).is_none() {
            self.note(
                ln,
                e,
                IrregularKind::Illegal,
                "no opening roll: a double or a die out of 1 to 6".to_owned(),
            );
            return Ok(());
        }
        self.new_game = false;
        let d = match side {
            Color::White => Dice(hi, lo),
            Color::Black => Dice(lo, hi),
        };
        let Reader {
            m: Some(mm),
            irregular,
            game,
            ..
        } = self
        else {
            return Ok(());
        };
        mm.act(Action::Roll(d))
            .map_err(|x| MatError::Line(ln, x.to_string()))?;
        play_written(mm, e[3..].trim(), &mut noter(irregular, *game, ln, e));
        Ok(())
    }
}

/// The position in Snowie's `Illegal play (25;0;1;0;0;A;B;...)`, played by
/// `player`: fields separated by `;`, the points 1..24 in fields 13..36 from
/// the view of the side on roll next (the opponent: positive counts its
/// checkers, negative the player's), the player's bar in field 12, the
/// opponent's in field 37 (as gnubg's `ParseSnowieTxt` places them).
fn snowie_position(text: &str, player: Color) -> Option<Board> {
    let inner = text.split_once('(')?.1.split(')').next()?;
    let f: Vec<i32> = inner
        .split(';')
        .map(|t| t.trim().parse::<i32>().unwrap_or(0))
        .collect();
    if f.len() < 38 {
        return None;
    }
    let count = |n: i32| u8::try_from(n.unsigned_abs()).ok();
    let (mut next, mut mine) = ([0u8; 25], [0u8; 25]);
    for p in 1..=24usize {
        let n = f[12 + p];
        if n > 0 {
            next[p - 1] = count(n)?;
        } else if n < 0 {
            mine[24 - p] = count(n)?;
        }
    }
    next[24] = count(f[37])?;
    mine[24] = count(f[12])?;
    let (white, black) = match player {
        Color::White => (mine, next),
        Color::Black => (next, mine),
    };
    Board::from_sides(white, black, player).ok()
}

/// What a `Wins N points` line of the game's winner (its loser is
/// `loser`) says after the game ended when N is not what the game was worth:
/// capped, when the game won the match and N is less but at least what the
/// match still needed (the match ends when a side reaches the length, 004
/// 4.5: Backgammon Galaxy writes `Wins 1 point and the match` for a gammon at
/// 1-away, some of its exports the match length); otherwise another count.
fn wins_value(m: &Match, lower: &str, loser: Color) -> Option<String> {
    if !matches!(m.phase(), Phase::Opening | Phase::MatchOver) {
        return None;
    }
    let n: u32 = lower.split_whitespace().nth(1)?.parse().ok()?;
    let end = m.last_end()?;
    if end.points == n || end.winner == loser {
        return None;
    }
    let before = m.games().last()?.score[usize::from(end.winner == Color::Black)];
    let needed = m.options().length.saturating_sub(before);
    let worth = end.points;
    Some(
        if m.phase() == Phase::MatchOver && (needed..worth).contains(&n) {
            format!("the game was worth {worth}; the file gives {n}, capped (the match needed {needed})")
        } else {
            format!("the game was worth {worth}; the file gives {n}: the game's value is scored")
        },
    )
}

/// What is missing when the side written is not the side to play.
fn missing(m: &Match) -> String {
    let side = m.board().turn();
    match (m.phase(), m.dice()) {
        (Phase::Move, Some(d)) => format!(
            "{}'s roll {}{} has no move and the opponent plays on: the roll is not played",
            side.name(),
            d.0.max(d.1),
            d.0.min(d.1)
        ),
        _ => format!("{}'s turn is missing: the opponent plays on", side.name()),
    }
}

/// Plays the move written after a roll. Nothing written: no legal move is a
/// pass, one legal move is played (gnubg plays a forced move left out), and
/// with more the roll stays unplayed (the player resigned after rolling).
/// An illegal move is noted and dropped: the roll stays unplayed.
fn play_written(m: &mut Match, mv: &str, note: &mut impl FnMut(IrregularKind, String)) {
    // eXtreme Gammon and Backgammon Studio write a roll the player did not
    // play before resigning as `63: ???` or `63: ????`: gnubg reads the
    // question marks as nothing written.
    let mv = if mv.starts_with("???") { "" } else { mv };
    if mv.is_empty() {
        let legal = m.legal();
        match legal.len() {
            0 => {
                let _ = m.act(Action::Move(super::movegen::Play::PASS));
            }
            1 => {
                let _ = m.act(Action::Move(legal[0]));
            }
            _ => {}
        }
        return;
    }
    if mv
        .get(..12)
        .is_some_and(|w| w.eq_ignore_ascii_case("illegal play"))
    {
        // Snowie's form: the roll, then the position the illegal play left.
        match snowie_position(mv, m.board().turn()) {
            Some(board) => {
                m.set_checkers(board);
                note(
                    IrregularKind::Illegal,
                    "an illegal play, written as Snowie writes it: the position it left is taken, the opponent plays on"
                        .to_owned(),
                );
            }
            None => note(
                IrregularKind::Illegal,
                "an illegal play, written as Snowie writes it (its position does not read): dropped, the opponent plays on"
                    .to_owned(),
            ),
        }
        return;
    }
    if let Err(x) = m.act_text(&format!("move {mv}")) {
        note(IrregularKind::Illegal, x.to_string());
    }
}

pub(crate) fn parse_roll(e: &str) -> Option<(u8, u8)> {
    let b = e.as_bytes();
    (b.len() >= 3 && b[2] == b':' && b[0].is_ascii_digit() && b[1].is_ascii_digit())
        .then(|| (b[0] - b'0', b[1] - b'0'))
}
