//! Reading a move loosely and resolving it against the position and roll.
//!
//! Accepted: gnubg's form (`8/5 6/5`, `24/21*/20`, `bar/22`, `6/off`,
//! `8/4(2)`), dashes (`8-5 6-5`), commas (`8/5, 6/5`), digits run together
//! (`85 65`, `2420`, `138`), one checker's steps written out (`24/21/20` or
//! `24/21 21/20`), `25` for the bar and `0` for off, and `pass` (or nothing)
//! for a roll that cannot be played. A text names the legal move that leaves
//! the same checkers where it says, passing through (and so hitting on)
//! every point it names; when it names none, a refusal says why in a
//! [`MoveError`] (the speech layer words it).

use std::fmt;

use super::board::{Board, Dice, BAR};
use super::movegen::{apply, legal_plays, Play};
use super::notation;

/// One checker path of a text: the points from start to end (25 = bar,
/// 0 = off) and how many checkers take it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextPath {
    /// Start, any points named on the way, end.
    pub points: Vec<u8>,
    /// Checkers moving so (`(2)`).
    pub count: u8,
}

/// Why a text is not a move at all.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseError {
    /// A character that has no place in a move.
    Unexpected(char),
    /// A point outside 0..25.
    BadPoint(u32),
    /// A path needs a start and an end.
    OnePoint(u8),
    /// A count outside 1..4.
    BadCount,
    /// A checker path goes backwards (`5/8`).
    Backwards {
        /// From.
        from: u8,
        /// To.
        to: u8,
    },
    /// Digits run together that split into no path (`7`, `12345`).
    Unreadable(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unexpected(c) => write!(f, "{c:?} has no place in a move"),
            ParseError::BadPoint(n) => write!(f, "there is no point {n}"),
            ParseError::OnePoint(p) => write!(f, "{p} names a point but no move"),
            ParseError::BadCount => f.write_str("a count is 2, 3 or 4"),
            ParseError::Backwards { from, to } => write!(f, "{from}/{to} moves backwards"),
            ParseError::Unreadable(s) => write!(f, "cannot read {s:?} as a move"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Why a text names no legal move (a code for programs; the phrasebook
/// words it for players).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveError {
    /// The text cannot be read.
    Parse(ParseError),
    /// The roll cannot be played at all: the turn is a pass.
    NoLegalMove,
    /// The roll can be played: `pass` is refused.
    MustMove,
    /// Checkers on the bar enter first (004 4.2 (i)).
    MustEnterFirst {
        /// How many are on the bar.
        on_bar: u8,
    },
    /// No own checker on that point (or too few for the count).
    NoChecker {
        /// The point (25 = bar).
        point: u8,
    },
    /// Two or more opposing checkers hold that point.
    Blocked {
        /// The point.
        point: u8,
    },
    /// Bearing off needs every checker in the home board.
    CannotBearOffYet,
    /// The distance is no die or sum of dice of this roll.
    NotRolled {
        /// From.
        from: u8,
        /// To.
        to: u8,
    },
    /// Both dice can be played: this die is left unused.
    MustUseBothDice {
        /// The unused die.
        unused: u8,
    },
    /// A double: more of its four moves can be played.
    MustUseMoreDice {
        /// Moves the text plays.
        used: u8,
        /// Moves that can be played.
        possible: u8,
    },
    /// Only one die can be played, and the larger one can.
    MustPlayLarger {
        /// The larger die.
        larger: u8,
    },
    /// The text fits several legal moves (written as gnubg writes them).
    Ambiguous(Vec<String>),
    /// The checkers cannot go so with this roll.
    NotLegal,
}

impl MoveError {
    /// The same refusal naming the rule only, never the moves that could
    /// be played (a rated game, FIDE Laws 11.3.2.1 as a tournament applies
    /// them to every game): an ambiguous move loses its candidates.
    #[must_use]
    pub fn without_hints(self) -> MoveError {
        match self {
            MoveError::Ambiguous(_) => MoveError::Ambiguous(Vec::new()),
            e => e,
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => write!(f, "{e}"),
            MoveError::NoLegalMove => f.write_str("no legal move: the roll is a pass"),
            MoveError::MustMove => f.write_str("the roll can be played"),
            MoveError::MustEnterFirst { on_bar } => {
                write!(f, "{on_bar} on the bar must enter first")
            }
            MoveError::NoChecker { point } => write!(f, "no checker to move on {point}"),
            MoveError::Blocked { point } => write!(f, "point {point} is blocked"),
            MoveError::CannotBearOffYet => f.write_str("cannot bear off before all are home"),
            MoveError::NotRolled { from, to } => write!(f, "{from}/{to} is not on the dice"),
            MoveError::MustUseBothDice { unused } => write!(f, "the {unused} must be played too"),
            MoveError::MustUseMoreDice { used, possible } => {
                write!(f, "{used} moves played, {possible} can be")
            }
            MoveError::MustPlayLarger { larger } => {
                write!(f, "the larger die, {larger}, must be played")
            }
            MoveError::Ambiguous(c) if c.is_empty() => {
                f.write_str("ambiguous: say the points of each checker moved")
            }
            MoveError::Ambiguous(c) => write!(f, "ambiguous: {}", c.join(" or ")),
            MoveError::NotLegal => f.write_str("not a legal move for this roll"),
        }
    }
}

impl std::error::Error for MoveError {}

fn number_of(word: &str) -> Result<u8, ParseError> {
    match word {
        "bar" | "b" | "ba" => Ok(25),
        "off" | "o" | "of" => Ok(0),
        _ if word.chars().all(|c| c.is_ascii_digit()) => {
            let n: u32 = word
                .parse()
                .map_err(|_| ParseError::Unreadable(word.to_owned()))?;
            u8::try_from(n)
                .ok()
                .filter(|&n| n <= 25)
                .ok_or(ParseError::BadPoint(n))
        }
        _ => Err(ParseError::Unreadable(word.to_owned())),
    }
}

/// Splits digits run together into a path (`85`, `2420`, `138`, `250`).
fn split_run(run: &str) -> Result<Vec<u8>, ParseError> {
    let d: Vec<u8> = run.bytes().map(|b| b - b'0').collect();
    let bad = || ParseError::Unreadable(run.to_owned());
    let ok = |a: u8, b: u8| (1..=25).contains(&a) && b <= 24 && a > b;
    match d.len() {
        2 if ok(d[0], d[1]) => Ok(vec![d[0], d[1]]),
        3 => {
            let (a, b) = (d[0] * 10 + d[1], d[2]);
            let (c, e) = (d[0], d[1] * 10 + d[2]);
            match (ok(a, b), ok(c, e)) {
                (true, false) => Ok(vec![a, b]),
                (false, true) => Ok(vec![c, e]),
                _ => Err(bad()),
            }
        }
        4 => {
            let (a, b) = (d[0] * 10 + d[1], d[2] * 10 + d[3]);
            if ok(a, b) {
                Ok(vec![a, b])
            } else {
                Err(bad())
            }
        }
        _ => Err(bad()),
    }
}

fn parse_segment(seg: &str) -> Result<TextPath, ParseError> {
    let mut body = seg;
    let mut count = 1u8;
    if let Some(open) = seg.find('(') {
        let inner = seg[open + 1..].trim_end_matches(')');
        count = inner
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=4).contains(n))
            .ok_or(ParseError::BadCount)?;
        body = &seg[..open];
    }
    // Tokens: words and digit runs, with `/` or `-` between or nothing.
    let mut items: Vec<(String, bool)> = Vec::new(); // (token, separator before it)
    let mut cur = String::new();
    let mut sep = false;
    let flush = |cur: &mut String, sep: &mut bool, items: &mut Vec<(String, bool)>| {
        if !cur.is_empty() {
            items.push((std::mem::take(cur), *sep));
            *sep = false;
        }
    };
    for c in body.chars() {
        match c {
            '/' | '-' => {
                flush(&mut cur, &mut sep, &mut items);
                sep = true;
            }
            '*' => flush(&mut cur, &mut sep, &mut items),
            c if c.is_ascii_digit() => {
                if cur.chars().next().is_some_and(|x| x.is_ascii_alphabetic()) {
                    flush(&mut cur, &mut sep, &mut items);
                }
                cur.push(c);
            }
            c if c.is_ascii_alphabetic() => {
                if cur.chars().next().is_some_and(|x| x.is_ascii_digit()) {
                    flush(&mut cur, &mut sep, &mut items);
                }
                cur.push(c);
            }
            c => return Err(ParseError::Unexpected(c)),
        }
    }
    flush(&mut cur, &mut sep, &mut items);
    let mut points = Vec::new();
    if items.len() == 1 && items[0].0.chars().all(|c| c.is_ascii_digit()) && !items[0].1 {
        points = split_run(&items[0].0)?;
    } else {
        for (tok, _) in &items {
            points.push(number_of(tok)?);
        }
    }
    match points.len() {
        0 => return Err(ParseError::Unreadable(seg.to_owned())),
        1 => return Err(ParseError::OnePoint(points[0])),
        _ => {}
    }
    for w in points.windows(2) {
        if w[1] >= w[0] || w[0] == 0 {
            return Err(ParseError::Backwards {
                from: w[0],
                to: w[1],
            });
        }
    }
    Ok(TextPath { points, count })
}

/// Reads a move text into checker paths (empty for `pass`).
///
/// # Errors
/// The text is not a move.
///
/// ```
/// use tandem_rules::backgammon::parse;
/// let p = parse("8-5, 6/5").unwrap();
/// assert_eq!(p[0].points, vec![8, 5]);
/// assert_eq!(parse("bar/22 6/off(2)").unwrap()[1].count, 2);
/// ```
pub fn parse(text: &str) -> Result<Vec<TextPath>, ParseError> {
    let lower = text.trim().to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "" | "pass" | "no move" | "none" | "cannot move" | "-"
    ) {
        return Ok(Vec::new());
    }
    // Spaces around separators belong to the path: `8 / 5` is `8/5`.
    let mut norm = String::with_capacity(lower.len());
    for c in lower.chars() {
        match c {
            ',' | ';' | '.' => norm.push(' '),
            '/' | '-' | '(' | ')' | '*' => {
                while norm.ends_with(' ') {
                    norm.pop();
                }
                norm.push(c);
            }
            ' ' | '\t' if norm.ends_with(['/', '-', '(']) => {}
            c => norm.push(c),
        }
    }
    norm.split_whitespace().map(parse_segment).collect()
}

/// Per-point change of the mover's checkers (indices as the board's side
/// array: 0..23 = points 1..24, 24 = bar) and the points it hits on.
fn effect_of_paths(paths: &[TextPath], them: &[u8; 25]) -> ([i16; 25], Vec<u8>) {
    let mut delta = [0i16; 25];
    let mut hits = Vec::new();
    for p in paths {
        let n = i16::from(p.count);
        let (from, to) = (p.points[0], *p.points.last().unwrap_or(&0));
        delta[usize::from(from) - 1] -= n;
        if to > 0 {
            delta[usize::from(to) - 1] += n;
        }
        for &q in &p.points[1..] {
            if (1..=24).contains(&q) && them[24 - usize::from(q)] == 1 && !hits.contains(&q) {
                hits.push(q);
            }
        }
    }
    hits.sort_unstable();
    (delta, hits)
}

fn effect_of_play(board: &Board, play: &Play) -> ([i16; 25], Vec<u8>) {
    let after = apply(board, play);
    let me = board.turn();
    let (b, a) = (board.side(me), after.side(me));
    let mut delta = [0i16; 25];
    for i in 0..25 {
        delta[i] = i16::from(a[i]) - i16::from(b[i]);
    }
    let (tb, ta) = (board.side(me.other()), after.side(me.other()));
    let hits = (1..=24u8)
        .filter(|&p| {
            let k = 24 - usize::from(p);
            tb[k] == 1 && ta[k] == 0
        })
        .collect();
    (delta, hits)
}

/// Resolves a move text against the position and the roll.
///
/// # Errors
/// The text is unreadable, or names no single legal move (with the reason).
///
/// ```
/// use tandem_rules::backgammon::{notation, resolve, Board, Dice};
/// use tandem_rules::Color;
/// let b = Board::start(Color::White);
/// let p = resolve(&b, Dice(3, 1), "85 65").unwrap();
/// assert_eq!(notation::write(&b, &p), "8/5 6/5");
/// ```
pub fn resolve(board: &Board, dice: Dice, text: &str) -> Result<Play, MoveError> {
    let paths = parse(text).map_err(MoveError::Parse)?;
    let legal = legal_plays(board, dice);
    if legal.is_empty() {
        return if paths.is_empty() {
            Ok(Play::PASS)
        } else {
            Err(MoveError::NoLegalMove)
        };
    }
    if paths.is_empty() {
        return Err(MoveError::MustMove);
    }
    let them = board.side(board.turn().other());
    let (delta, hits) = effect_of_paths(&paths, them);
    let fits: Vec<(Play, Vec<u8>)> = legal
        .iter()
        .filter_map(|p| {
            let (d, h) = effect_of_play(board, p);
            (d == delta && hits.iter().all(|x| h.contains(x))).then_some((*p, h))
        })
        .collect();
    match fits.len() {
        1 => return Ok(fits[0].0),
        0 => {}
        _ => {
            let exact: Vec<&(Play, Vec<u8>)> = fits.iter().filter(|(_, h)| *h == hits).collect();
            if exact.len() == 1 {
                return Ok(exact[0].0);
            }
            return Err(MoveError::Ambiguous(
                fits.iter()
                    .map(|(p, _)| notation::write(board, p))
                    .collect(),
            ));
        }
    }
    Err(diagnose(board, dice, &paths, &legal))
}

fn diagnose(board: &Board, dice: Dice, paths: &[TextPath], legal: &[Play]) -> MoveError {
    let me = board.side(board.turn());
    let them = board.side(board.turn().other());
    let from_bar: u32 = paths
        .iter()
        .filter(|p| p.points[0] == 25)
        .map(|p| u32::from(p.count))
        .sum();
    // 004 4.2 (i): checkers on the bar enter before any other checker moves.
    if me[BAR] > 0 && from_bar < u32::from(me[BAR]) && paths.iter().any(|p| p.points[0] != 25) {
        return MoveError::MustEnterFirst { on_bar: me[BAR] };
    }
    for p in paths {
        let start = p.points[0];
        let need: u32 = paths
            .iter()
            .filter(|q| q.points[0] == start)
            .map(|q| u32::from(q.count))
            .sum();
        let arriving: u32 = paths
            .iter()
            .filter(|q| q.points.last() == Some(&start))
            .map(|q| u32::from(q.count))
            .sum();
        if need > u32::from(me[usize::from(start) - 1]) + arriving {
            return MoveError::NoChecker { point: start };
        }
        for &q in &p.points[1..] {
            if (1..=24).contains(&q) && them[24 - usize::from(q)] >= 2 {
                return MoveError::Blocked { point: q };
            }
        }
    }
    if paths.iter().any(|p| p.points.last() == Some(&0)) {
        let mut after: [i32; 25] = me.map(i32::from);
        for p in paths.iter().filter(|p| p.points.last() != Some(&0)) {
            let n = i32::from(p.count);
            after[usize::from(p.points[0]) - 1] -= n;
            after[usize::from(*p.points.last().unwrap_or(&1)) - 1] += n;
        }
        if after[6..].iter().any(|&n| n > 0) {
            return MoveError::CannotBearOffYet;
        }
    }
    // Which dice the text uses: every hop must be a die or a sum of dice.
    let pool: Vec<u8> = if dice.is_double() {
        vec![dice.0; 4]
    } else {
        vec![dice.0, dice.1]
    };
    let mut hops: Vec<(u8, u8)> = Vec::new();
    for p in paths {
        for _ in 0..p.count {
            for w in p.points.windows(2) {
                hops.push((w[0], w[1]));
            }
        }
    }
    let Some(used) = assign(&hops, &pool) else {
        let bad = hops
            .iter()
            .find(|h| assign(&[**h], &pool).is_none())
            .copied()
            .unwrap_or((paths[0].points[0], paths[0].points[1]));
        return MoveError::NotRolled {
            from: bad.0,
            to: bad.1,
        };
    };
    let possible = legal.first().map_or(0, |p| p.steps().len());
    if used.len() < possible {
        if dice.is_double() {
            return MoveError::MustUseMoreDice {
                used: u8::try_from(used.len()).unwrap_or(0),
                possible: u8::try_from(possible).unwrap_or(0),
            };
        }
        let unused = if used.contains(&dice.0) {
            dice.1
        } else {
            dice.0
        };
        return MoveError::MustUseBothDice { unused };
    }
    if possible == 1 && !dice.is_double() {
        let larger = dice.0.max(dice.1);
        if !used.contains(&larger) {
            return MoveError::MustPlayLarger { larger };
        }
    }
    MoveError::NotLegal
}

/// Dice of `pool` that make every hop (a hop to off may overshoot with its
/// last die), or `None`; the dice used.
fn assign(hops: &[(u8, u8)], pool: &[u8]) -> Option<Vec<u8>> {
    fn go(hops: &[(u8, u8)], free: &[u8], used: &mut Vec<u8>) -> bool {
        let Some(&(from, to)) = hops.first() else {
            return true;
        };
        let need = from - to;
        // Subsets of the free dice, by bitmask.
        let n = free.len();
        for mask in 1u32..(1 << n) {
            let pick: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
            let sum: u8 = pick.iter().map(|&i| free[i]).sum();
            let fits = sum == need
                || (to == 0 && sum > need && {
                    let max = pick.iter().map(|&i| free[i]).max().unwrap_or(0);
                    sum - max < need
                });
            if !fits {
                continue;
            }
            let taken: Vec<u8> = pick.iter().map(|&i| free[i]).collect();
            let rest: Vec<u8> = (0..n)
                .filter(|i| mask & (1 << i) == 0)
                .map(|i| free[i])
                .collect();
            let before = used.len();
            used.extend(&taken);
            if go(&hops[1..], &rest, used) {
                return true;
            }
            used.truncate(before);
        }
        false
    }
    let free = pool.to_vec();
    let mut used = Vec::new();
    go(hops, &free, &mut used).then_some(used)
}
