//! Move notation (001 ch. I 8.2): strict output, loose input resolved
//! against the position.

use crate::draughts::mv::Move;
use crate::draughts::position::Position;

/// Writes a move strictly: `32-28` for a move, `28x19` for a capture
/// (001 ch. I 8.2.2-8.2.3); algebraic squares in 64-square draughts. Where
/// another legal move has the same start and end, the full landing path is
/// written (`16x7x1`), which tells them apart.
///
/// ```
/// use tandem_rules::draughts::notation::write_move;
/// use tandem_rules::draughts::{Position, Variant};
/// let p = Position::start(Variant::International);
/// let m = p.legal_moves().into_iter().find(|m| m.from().number() == 32 && m.to().number() == 28).unwrap();
/// assert_eq!(write_move(&p, &m), "32-28");
/// ```
#[must_use]
pub fn write_move(pos: &Position, m: &Move) -> String {
    let v = pos.variant();
    let name = |sq| v.square_name(sq);
    if !m.is_capture() {
        return format!("{}-{}", name(m.from()), name(m.to()));
    }
    let ambiguous = pos
        .legal_moves()
        .iter()
        .any(|o| o.from() == m.from() && o.to() == m.to() && o != m);
    let mut s = name(m.from());
    if ambiguous {
        for l in m.landings() {
            s.push('x');
            s.push_str(&name(l));
        }
    } else {
        s.push('x');
        s.push_str(&name(m.to()));
    }
    s
}

use std::fmt;

use crate::draughts::types::{Role, Square};
use crate::draughts::variant::Variant;
use crate::Color;

/// Syntax errors in a move text (before the position is consulted).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing was given.
    Empty,
    /// A part that is not a square of this board.
    BadSquare(String),
    /// Only one square was given.
    TooFewSquares,
    /// More squares than any capture can have.
    TooLong,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "empty move"),
            ParseMoveError::BadSquare(s) => write!(f, "{s:?} is not a square of this board"),
            ParseMoveError::TooFewSquares => write!(f, "a move needs a start and an end square"),
            ParseMoveError::TooLong => write!(f, "too many squares for one move"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// A move as written, not yet checked against a position.
///
/// The reader is relaxed: squares separated by `-`, `x`, `X`, `×`, `:`,
/// `,` or spaces (`32-28`, `32 28`, `32x21`, `32:21`, `26x37x48`); digits
/// run together (`3228`, every split into squares of one or two digits is
/// tried against the position); leading zeros (`05-10`); in 64-square
/// draughts algebraic squares (`c3-d4`, `c3:e5`, `c3d4`) or numbers 1-32;
/// trailing marks `!`, `?`, `+`, `*`, `=` are ignored. The separator is kept
/// as a hint only: a record that writes a capture with `-` still resolves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    /// Readings of the text as a list of squares (more than one only for
    /// digits run together).
    pub readings: Vec<Vec<Square>>,
    /// `Some(true)` if written with a capture sign, `Some(false)` with `-`.
    pub capture_sign: Option<bool>,
}

impl MoveText {
    /// Parses a move text for a variant.
    ///
    /// ```
    /// use tandem_rules::draughts::notation::MoveText;
    /// use tandem_rules::draughts::Variant;
    /// let t = MoveText::parse(Variant::International, "32x21").unwrap();
    /// assert_eq!(t.readings[0].iter().map(|s| s.number()).collect::<Vec<_>>(), [32, 21]);
    /// // Digits run together: the two-square reading comes first.
    /// let t = MoveText::parse(Variant::International, "3228").unwrap();
    /// assert_eq!(t.readings[0].iter().map(|s| s.number()).collect::<Vec<_>>(), [32, 28]);
    /// assert!(MoveText::parse(Variant::International, "32-51").is_err());
    /// ```
    ///
    /// # Errors
    /// [`ParseMoveError`] when the text names no move at all.
    pub fn parse(variant: Variant, text: &str) -> Result<MoveText, ParseMoveError> {
        let t = text
            .trim()
            .trim_end_matches(['!', '?', '+', '*', '=', '#', '.'])
            .trim();
        if t.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if t.len() > 200 {
            return Err(ParseMoveError::TooLong);
        }
        let is_sep =
            |c: char| matches!(c, '-' | 'x' | 'X' | '×' | ':' | ',' | '–') || c.is_whitespace();
        let capture_sign = if t.contains(['x', 'X', '×', ':']) {
            Some(true)
        } else if t.contains(['-', '–']) {
            Some(false)
        } else {
            None
        };
        let tokens: Vec<&str> = t.split(is_sep).filter(|s| !s.is_empty()).collect();
        let readings = if tokens.len() >= 2 {
            let mut v = Vec::with_capacity(tokens.len());
            for tok in &tokens {
                v.push(
                    variant
                        .parse_square(tok)
                        .ok_or_else(|| ParseMoveError::BadSquare((*tok).to_owned()))?,
                );
            }
            vec![v]
        } else if t.bytes().all(|b| b.is_ascii_digit()) {
            // One or two digits are one square, never "3-2"; digits run
            // together are read for up to four squares (8 digits): longer
            // runs are no one's way of writing a move (and the splits grow
            // exponentially).
            if t.len() <= 2 {
                return Err(ParseMoveError::TooFewSquares);
            }
            if t.len() > 8 {
                return Err(ParseMoveError::BadSquare(t.to_owned()));
            }
            let r = digit_splits(variant, t.as_bytes());
            if r.is_empty() {
                return Err(if t.len() <= 2 {
                    ParseMoveError::TooFewSquares
                } else {
                    ParseMoveError::BadSquare(t.to_owned())
                });
            }
            r
        } else if variant.algebraic_notation() {
            // c3d4, c3e5g7: letter-digit pairs run together.
            let b = t.as_bytes();
            if b.len() % 2 != 0 || b.len() < 4 {
                return Err(ParseMoveError::BadSquare(t.to_owned()));
            }
            let mut v = Vec::new();
            for pair in t.as_bytes().chunks(2) {
                let s = std::str::from_utf8(pair)
                    .map_err(|_| ParseMoveError::BadSquare(t.to_owned()))?;
                v.push(
                    variant
                        .parse_square(s)
                        .ok_or_else(|| ParseMoveError::BadSquare(s.to_owned()))?,
                );
            }
            vec![v]
        } else {
            return Err(ParseMoveError::BadSquare(t.to_owned()));
        };
        if readings.iter().all(|r| r.len() < 2) {
            return Err(ParseMoveError::TooFewSquares);
        }
        if readings
            .iter()
            .any(|r| r.len() > 2 * crate::draughts::MAX_CAPTURES + 2)
        {
            return Err(ParseMoveError::TooLong);
        }
        Ok(MoveText {
            readings,
            capture_sign,
        })
    }
}

/// Every way to cut a digit string into at least two squares of one or two
/// digits (a leading zero makes a two-digit square: `05`).
fn digit_splits(variant: Variant, d: &[u8]) -> Vec<Vec<Square>> {
    fn rec(variant: Variant, d: &[u8], cur: &mut Vec<Square>, out: &mut Vec<Vec<Square>>) {
        if out.len() > 64 {
            return;
        }
        if d.is_empty() {
            if cur.len() >= 2 {
                out.push(cur.clone());
            }
            return;
        }
        for len in 1..=2.min(d.len()) {
            if len == 1 && d[0] == b'0' {
                continue;
            }
            let s = std::str::from_utf8(&d[..len]).unwrap_or("0");
            if let Some(sq) = variant.parse_square(s) {
                cur.push(sq);
                rec(variant, &d[len..], cur, out);
                cur.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(variant, d, &mut Vec::new(), &mut out);
    // Prefer two-square readings ("3228" is 32-28 before 3-2-28).
    out.sort_by_key(Vec::len);
    out
}

/// Why a move text does not name exactly one legal move. Each variant carries
/// what the speech layer needs to say it in words.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// The text is not a move at all.
    Syntax(ParseMoveError),
    /// The game is over: no moves at all.
    NoMoves,
    /// There is no piece on the start square.
    NoPiece {
        /// The start square.
        square: Square,
    },
    /// The piece on the start square belongs to the opponent.
    NotYourPiece {
        /// The start square.
        square: Square,
        /// The side to move.
        turn: Color,
    },
    /// A capture is compulsory (001 ch. I 4.2, 4.13) and this is not one.
    CaptureCompulsory {
        /// How many pieces the capture must take.
        required: usize,
        /// The squares of the pieces that can make it.
        capturers: Vec<Square>,
    },
    /// This capture takes fewer pieces than the largest one (001 ch. I 4.13).
    NotLargestCapture {
        /// How many pieces must be taken.
        required: usize,
        /// How many this capture takes.
        given: usize,
    },
    /// A man cannot move backwards (001 ch. I 3.4).
    WrongDirection {
        /// Start.
        from: Square,
        /// End.
        to: Square,
    },
    /// The end square is occupied.
    Occupied {
        /// The end square.
        square: Square,
    },
    /// The piece cannot go there.
    Unreachable {
        /// Start.
        from: Square,
        /// End.
        to: Square,
    },
    /// The capture exists, but not by the route given.
    NoSuchRoute {
        /// The captures with that start and end.
        candidates: Vec<Move>,
    },
    /// Several legal moves fit: say which (the captured squares tell them apart).
    Ambiguous {
        /// The moves that fit.
        candidates: Vec<Move>,
    },
}

impl ResolveError {
    /// The same refusal naming the rule only, never the pieces or squares
    /// that could move (a rated game: FIDE Laws 11.3.2.1 forbid help; a
    /// blind player is told the rule, as a sighted one sees nothing more):
    /// no capturers, no candidate routes.
    #[must_use]
    pub fn without_hints(self) -> ResolveError {
        match self {
            ResolveError::CaptureCompulsory { required, .. } => ResolveError::CaptureCompulsory {
                required,
                capturers: Vec::new(),
            },
            ResolveError::NoSuchRoute { .. } => ResolveError::NoSuchRoute {
                candidates: Vec::new(),
            },
            ResolveError::Ambiguous { .. } => ResolveError::Ambiguous {
                candidates: Vec::new(),
            },
            e => e,
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Syntax(e) => write!(f, "{e}"),
            ResolveError::NoMoves => write!(f, "no legal moves: the game is over"),
            ResolveError::NoPiece { square } => write!(f, "no piece on {square}"),
            ResolveError::NotYourPiece { square, turn } => {
                write!(f, "the piece on {square} is not {turn}'s")
            }
            ResolveError::CaptureCompulsory {
                required,
                capturers,
            } => {
                write!(
                    f,
                    "capture is compulsory: {required} piece(s) must be taken"
                )?;
                if capturers.is_empty() {
                    return Ok(());
                }
                write!(f, ", by ")?;
                write_list(f, capturers)
            }
            ResolveError::NotLargestCapture { required, given } => {
                write!(
                    f,
                    "not the largest capture: {required} pieces must be taken, not {given}"
                )
            }
            ResolveError::WrongDirection { from, to } => {
                write!(f, "a man cannot move backwards from {from} to {to}")
            }
            ResolveError::Occupied { square } => write!(f, "square {square} is occupied"),
            ResolveError::Unreachable { from, to } => {
                write!(f, "the piece on {from} cannot go to {to}")
            }
            ResolveError::NoSuchRoute { candidates } if candidates.is_empty() => {
                write!(f, "no capture goes that way")
            }
            ResolveError::Ambiguous { candidates } if candidates.is_empty() => {
                write!(f, "ambiguous: say the whole capture, with the pieces taken")
            }
            ResolveError::NoSuchRoute { candidates } => {
                write!(
                    f,
                    "no capture goes that way; there are {} capture(s) with that start and end",
                    candidates.len()
                )
            }
            ResolveError::Ambiguous { candidates } => {
                write!(
                    f,
                    "ambiguous: {} moves fit, say which pieces are taken",
                    candidates.len()
                )
            }
        }
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, squares: &[Square]) -> fmt::Result {
    for (i, s) in squares.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{s}")?;
    }
    Ok(())
}

impl std::error::Error for ResolveError {}

/// Resolves a move text against a position: the one legal move it names, or
/// why there is none.
///
/// ```
/// use tandem_rules::draughts::notation::{resolve, ResolveError};
/// use tandem_rules::draughts::{Position, Variant};
/// let p = Position::start(Variant::International);
/// assert_eq!(resolve(&p, "32 28").unwrap().to().number(), 28);
/// assert!(matches!(resolve(&p, "32-26"), Err(ResolveError::Unreachable { .. })));
/// assert!(matches!(resolve(&p, "32-37"), Err(ResolveError::Occupied { .. })));
/// assert!(matches!(resolve(&p, "19-23"), Err(ResolveError::NotYourPiece { .. })));
/// // W:WK16:B21,23,33,39: 16x1 takes 21,23,33 or 21,23,39.
/// let p = Position::from_fen(Variant::International, "W:WK16:B21,23,33,39").unwrap();
/// assert!(matches!(resolve(&p, "16x1"), Err(ResolveError::Ambiguous { .. })));
/// let m = resolve(&p, "16x1x33").unwrap(); // naming a captured piece settles it
/// assert!(m.captured().any(|s| s.number() == 33));
/// ```
///
/// # Errors
/// A [`ResolveError`] saying why.
pub fn resolve(pos: &Position, text: &str) -> Result<Move, ResolveError> {
    let parsed = MoveText::parse(pos.variant(), text).map_err(ResolveError::Syntax)?;
    resolve_parsed(pos, &parsed)
}

/// [`resolve`] for an already parsed text.
///
/// # Errors
/// A [`ResolveError`] saying why.
pub fn resolve_parsed(pos: &Position, parsed: &MoveText) -> Result<Move, ResolveError> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(ResolveError::NoMoves);
    }
    let mut found: Vec<Move> = Vec::new();
    for reading in &parsed.readings {
        for m in legal.iter().filter(|m| matches_reading(pos, m, reading)) {
            if !found.contains(m) {
                found.push(*m);
            }
        }
    }
    match found.len() {
        1 => return Ok(found[0]),
        0 => {}
        _ => return Err(ResolveError::Ambiguous { candidates: found }),
    }
    // Explain, preferring a reading whose start square holds a piece of the side to move.
    let reading = parsed
        .readings
        .iter()
        .find(|r| pos.piece_at(r[0]).is_some_and(|p| p.color == pos.turn()))
        .unwrap_or(&parsed.readings[0]);
    Err(diagnose(pos, &legal, reading))
}

/// Whether a reading names `m`: start and end (`32-28`); or start, landing
/// squares and end (`26x37x48`, any route); or start, end and captured
/// squares (`16x1x33`, the form engines such as Scan's Hub and DXP use).
fn matches_reading(pos: &Position, m: &Move, r: &[Square]) -> bool {
    if r.len() > 2
        && m.from() == r[0]
        && m.to() == r[1]
        && r[2..].iter().all(|s| m.captured().any(|c| c == *s))
    {
        return true;
    }
    let (first, last) = (r[0], r[r.len() - 1]);
    if m.from() != first || m.to() != last {
        return false;
    }
    if r.len() == 2 {
        return true;
    }
    let mid = &r[1..r.len() - 1];
    if !m.is_capture() {
        return false;
    }
    // Landing squares and/or captured squares named between start and end...
    if mid
        .iter()
        .all(|s| m.landings().any(|l| l == *s) || m.captured().any(|c| c == *s))
    {
        return true;
    }
    // ...or a full route other than the one the generator kept.
    route_captures(pos, r).is_some_and(|mut c| {
        c.sort();
        c == m.captured_sorted()
    })
}

/// If `r` is a route of single captures (each leg on a diagonal with exactly
/// one opponent piece, not taken before, and otherwise empty squares), the
/// pieces it takes.
fn route_captures(pos: &Position, r: &[Square]) -> Option<Vec<Square>> {
    let v = pos.variant();
    let mover = pos.piece_at(r[0])?;
    let mut taken: Vec<Square> = Vec::new();
    for leg in r.windows(2) {
        let (a, b) = (v.coords(leg[0]), v.coords(leg[1]));
        let (dr, dc) = (b.0 as i32 - a.0 as i32, b.1 as i32 - a.1 as i32);
        if dr.abs() != dc.abs() || dr == 0 {
            return None;
        }
        let (sr, sc) = (dr.signum(), dc.signum());
        let mut victim = None;
        for k in 1..dr.abs() {
            let sq = v.square_at((a.0 as i32 + k * sr) as u8, (a.1 as i32 + k * sc) as u8)?;
            match pos.piece_at(sq) {
                None => {}
                Some(_) if sq == r[0] => {}
                Some(p) if p.color != mover.color && victim.is_none() && !taken.contains(&sq) => {
                    victim = Some(sq)
                }
                Some(_) => return None,
            }
        }
        taken.push(victim?);
        if mover.role == Role::Man && dr.abs() != 2 {
            return None;
        }
    }
    Some(taken)
}

fn diagnose(pos: &Position, legal: &[Move], r: &[Square]) -> ResolveError {
    let (from, to) = (r[0], r[r.len() - 1]);
    let Some(piece) = pos.piece_at(from) else {
        return ResolveError::NoPiece { square: from };
    };
    if piece.color != pos.turn() {
        return ResolveError::NotYourPiece {
            square: from,
            turn: pos.turn(),
        };
    }
    let same_ends: Vec<Move> = legal
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .copied()
        .collect();
    if !same_ends.is_empty() {
        return ResolveError::NoSuchRoute {
            candidates: same_ends,
        };
    }
    let required = legal[0].capture_count();
    if required > 0 {
        let all = pos.all_captures();
        if let Some(c) = all.iter().find(|m| m.from() == from && m.to() == to) {
            return ResolveError::NotLargestCapture {
                required,
                given: c.capture_count(),
            };
        }
        // Stopping part-way through a capture (001 ch. I 5.4.9) takes fewer too.
        if let Some(given) = all
            .iter()
            .filter(|m| m.from() == from)
            .filter_map(|m| m.landings().position(|l| l == to).map(|i| i + 1))
            .min()
        {
            return ResolveError::NotLargestCapture { required, given };
        }
        let mut capturers: Vec<Square> = legal.iter().map(Move::from).collect();
        capturers.sort();
        capturers.dedup();
        return ResolveError::CaptureCompulsory {
            required,
            capturers,
        };
    }
    if pos.piece_at(to).is_some() {
        return ResolveError::Occupied { square: to };
    }
    let v = pos.variant();
    if piece.role == Role::Man {
        let (fr, _) = v.coords(from);
        let (tr, _) = v.coords(to);
        let backwards = match piece.color {
            Color::White => tr > fr,
            Color::Black => tr < fr,
        };
        if backwards {
            return ResolveError::WrongDirection { from, to };
        }
    }
    ResolveError::Unreachable { from, to }
}
