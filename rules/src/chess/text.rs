//! Move text: loose in, strict out.
//!
//! [`resolve`] accepts (002 annex C is the standard; the rest is how
//! players and programs also write moves):
//! - SAN: `Nf3`, `e4`, `exd5`, `Nbd2`, `R1e2`, `e8=Q`, `e8Q`, with any `+`,
//!   `#`, `!`, `?` after it; a lower-case piece letter (`nf3`) except `b`,
//!   which is the b file;
//! - castling: `O-O`, `O-O-O`, `0-0`, `0-0-0`, `OO`, `OOO`;
//! - coordinates: UCI `e2e4`, `e7e8q`, castling as the king's move `e1g1`
//!   (or onto its rook, `e1h1`); `e2-e4`, `e2 e4`, `e2:e4`, `e2xe4`, with an
//!   optional piece letter before (`Ng1-f3`) and a promotion piece after
//!   (`e7-e8=Q`, `e7e8 q`).
//!
//! [`san`] writes SAN with check and mate marks; [`uci`] writes UCI.

use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::{attacks, CastlingSide, Chess, Color, File, Position, Rank, Role, Square};

use super::error::{ChessError, IllegalReason};
use super::mv::ChessMove;

/// SAN of a legal move in `pos`, with `+` or `#` (002 annex C).
///
/// ```
/// use tandem_rules::chess::{resolve, san, start};
/// let p = start();
/// assert_eq!(san(&p, &resolve(&p, "g1f3").unwrap()), "Nf3");
/// ```
#[must_use]
pub fn san(pos: &Chess, m: &ChessMove) -> String {
    SanPlus::from_move(pos.clone(), &m.to_shakmaty()).to_string()
}

/// UCI text of a move (`e2e4`, `e7e8q`, castling `e1g1`).
#[must_use]
pub fn uci(m: &ChessMove) -> String {
    m.uci()
}

fn legal(pos: &Chess) -> Vec<ChessMove> {
    pos.legal_moves()
        .iter()
        .map(ChessMove::from_shakmaty)
        .collect()
}

/// Reads a move as a player writes or says it (see the module docs) and
/// finds the legal move it names.
///
/// # Errors
/// [`ChessError::Syntax`] for text that is no move, [`ChessError::Illegal`]
/// with the reason, [`ChessError::Ambiguous`] with the candidates.
///
/// ```
/// use tandem_rules::chess::{resolve, start, ChessError, IllegalReason};
/// let p = start();
/// for t in ["e4", "e2e4", "e2-e4", "e2 e4", "E2-E4", "Pe2-e4"] {
///     assert_eq!(resolve(&p, t).unwrap().uci(), "e2e4", "{t}");
/// }
/// assert!(matches!(resolve(&p, "e2e5"), Err(ChessError::Illegal { reason: IllegalReason::CannotReach { .. }, .. })));
/// assert!(matches!(resolve(&p, "hello"), Err(ChessError::Syntax(_))));
/// ```
pub fn resolve(pos: &Chess, text: &str) -> Result<ChessMove, ChessError> {
    let legal = legal(pos);
    let illegal = |reason| ChessError::Illegal {
        text: text.trim().to_owned(),
        reason,
    };
    if legal.is_empty() {
        return Err(illegal(IllegalReason::NoMoves));
    }
    let t = clean(text);
    if t.is_empty() {
        return Err(ChessError::Syntax(text.to_owned()));
    }
    if let Some(side) = castling(&t) {
        return legal
            .iter()
            .find(|m| m.castling() == Some(side))
            .copied()
            .ok_or_else(|| illegal(IllegalReason::CastlingNotAllowed));
    }
    if let Some((from, to, promotion)) = coordinates(&t) {
        let by_squares = from_to(pos, &legal, from, to, promotion);
        // `B` is both a file (typed in capitals, `B2-B4`) and the bishop:
        // SAN's `B2h4` (the bishop on the second rank, two bishops on one
        // file) reads as the squares b2 and h4 too. When the squares give no
        // legal move, the bishop's reading is tried.
        if by_squares.is_err() && t.starts_with('B') {
            if let Ok(m) = from_san(pos, &legal, &t) {
                return Ok(m);
            }
        }
        return by_squares.map_err(illegal_or(text));
    }
    from_san(pos, &legal, &t).map_err(illegal_or(text))
}

/// Wraps a reason into [`ChessError::Illegal`], passing other errors through.
fn illegal_or(text: &str) -> impl Fn(Refusal) -> ChessError + '_ {
    move |r| match r {
        Refusal::Reason(reason) => ChessError::Illegal {
            text: text.trim().to_owned(),
            reason,
        },
        Refusal::Ambiguous(candidates) => ChessError::Ambiguous {
            text: text.trim().to_owned(),
            candidates,
        },
        Refusal::Syntax => ChessError::Syntax(text.to_owned()),
    }
}

enum Refusal {
    Reason(IllegalReason),
    Ambiguous(Vec<ChessMove>),
    Syntax,
}

/// Trims, drops annotation marks and `e.p.`, unifies dashes.
fn clean(text: &str) -> String {
    let mut t: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '–' | '—' | '−' | '‐' => '-',
            '×' => 'x',
            c => c,
        })
        .collect();
    for suffix in [" e.p.", "e.p.", " ep", " e.p"] {
        if let Some(s) = t.strip_suffix(suffix) {
            t = s.to_owned();
        }
    }
    t.trim_end_matches(['+', '#', '!', '?', ' '])
        .trim()
        .to_owned()
}

fn castling(t: &str) -> Option<CastlingSide> {
    let u: String = t
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '0' | 'o' => 'O',
            c => c,
        })
        .collect();
    match u.as_str() {
        "O-O" | "OO" => Some(CastlingSide::KingSide),
        "O-O-O" | "OOO" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

fn square_at(c: &[char]) -> Option<Square> {
    let file = File::from_char(c.first()?.to_ascii_lowercase())?;
    let rank = Rank::from_char(*c.get(1)?)?;
    Some(Square::from_coords(file, rank))
}

fn promotion_role(c: char) -> Option<Role> {
    match c.to_ascii_lowercase() {
        'q' => Some(Role::Queen),
        'r' => Some(Role::Rook),
        'b' => Some(Role::Bishop),
        'n' => Some(Role::Knight),
        _ => None,
    }
}

/// `e2e4`, `e2-e4`, `e2 e4`, `Ng1-f3`, `e7e8q`, `e7-e8=Q`: from, to, promotion.
fn coordinates(t: &str) -> Option<(Square, Square, Option<Role>)> {
    let c: Vec<char> = t.chars().collect();
    let mut i = 0;
    // An optional piece letter (upper case: `b2` is a square, `B` a bishop).
    if c.len() > 2 && "KQRBNP".contains(c[0]) && square_at(&c[1..]).is_some() {
        i = 1;
    }
    let from = square_at(c.get(i..)?)?;
    i += 2;
    while c
        .get(i)
        .is_some_and(|ch| matches!(ch, '-' | ':' | 'x' | 'X' | ' '))
    {
        i += 1;
    }
    let to = square_at(c.get(i..)?)?;
    i += 2;
    let rest: String = c[i..]
        .iter()
        .filter(|ch| !matches!(ch, '=' | ' ' | '/' | '(' | ')'))
        .collect();
    let promotion = match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => None,
        [p] => Some(promotion_role(*p)?),
        _ => return None,
    };
    Some((from, to, promotion))
}

fn from_to(
    pos: &Chess,
    legal: &[ChessMove],
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Result<ChessMove, Refusal> {
    let found: Vec<ChessMove> = legal
        .iter()
        .filter(|m| {
            m.from == from && (m.to == to || m.rook_move().is_some_and(|(rook, _)| rook == to))
        })
        .copied()
        .collect();
    if !found.is_empty() {
        let with: Vec<ChessMove> = found
            .iter()
            .filter(|m| promotion.is_none() || m.promotion == promotion)
            .copied()
            .collect();
        return match with.as_slice() {
            [m] => Ok(*m),
            [] => Err(Refusal::Reason(IllegalReason::Promotion)),
            many => Err(Refusal::Ambiguous(many.to_vec())),
        };
    }
    Err(Refusal::Reason(why_not(pos, from, to)))
}

/// Why no legal move goes from `from` to `to`.
fn why_not(pos: &Chess, from: Square, to: Square) -> IllegalReason {
    let board = pos.board();
    let us = pos.turn();
    let Some(piece) = board.piece_at(from) else {
        return IllegalReason::NoPiece { square: from };
    };
    if piece.color != us {
        return IllegalReason::NotYourPiece { square: from };
    }
    if board.color_at(to) == Some(us) {
        return IllegalReason::OwnPiece { square: to };
    }
    if piece.role == Role::King && from.rank() == to.rank() && from.file().distance(to.file()) == 2
    {
        return IllegalReason::CastlingNotAllowed;
    }
    if reachable(pos, from, to, piece.role, us) {
        IllegalReason::KingInCheck { from, to }
    } else {
        IllegalReason::CannotReach {
            role: piece.role,
            from,
            to,
        }
    }
}

/// Whether the piece moves that way on this board, check aside.
fn reachable(pos: &Chess, from: Square, to: Square, role: Role, us: Color) -> bool {
    let board = pos.board();
    let occupied = board.occupied();
    if role != Role::Pawn {
        return attacks::attacks(from, role.of(us), occupied).contains(to);
    }
    let dir: i32 = if us == Color::White { 1 } else { -1 };
    let (fr, tr) = (
        i32::from(u8::from(from.rank())),
        i32::from(u8::from(to.rank())),
    );
    let same_file = from.file() == to.file();
    if same_file && tr - fr == dir {
        return !occupied.contains(to);
    }
    let start_rank = if us == Color::White { 1 } else { 6 };
    if same_file && fr == start_rank && tr - fr == 2 * dir {
        let mid = Square::from_coords(from.file(), Rank::new((fr + dir) as u32));
        return !occupied.contains(mid) && !occupied.contains(to);
    }
    attacks::pawn_attacks(us, from).contains(to)
        && (board.color_at(to) == Some(!us) || pos.maybe_ep_square() == Some(to))
}

fn from_san(pos: &Chess, legal: &[ChessMove], t: &str) -> Result<ChessMove, Refusal> {
    let mut s: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    // `nf3`: a piece letter written small (never `b`: that is a file).
    if let Some(first) = s.chars().next() {
        if matches!(first, 'n' | 'r' | 'q' | 'k') && s.len() > 2 {
            s.replace_range(0..1, &first.to_ascii_uppercase().to_string());
        }
    }
    // `e8Q` without the `=`.
    let b = s.as_bytes();
    if b.len() >= 3
        && b[b.len() - 2].is_ascii_digit()
        && promotion_role(char::from(b[b.len() - 1])).is_some()
        && b[b.len() - 1].is_ascii_uppercase()
    {
        s.insert(s.len() - 1, '=');
    }
    let parsed = San::from_ascii(s.as_bytes()).map_err(|_| Refusal::Syntax)?;
    match parsed.to_move(pos) {
        Ok(m) => Ok(ChessMove::from_shakmaty(&m)),
        Err(SanError::AmbiguousSan) => Err(Refusal::Ambiguous(
            pos.legal_moves()
                .iter()
                .filter(|m| parsed.matches(m))
                .map(ChessMove::from_shakmaty)
                .collect(),
        )),
        Err(SanError::IllegalSan) => {
            if let Some(m) = king_onto_rook(legal, &parsed) {
                return Ok(m);
            }
            Err(Refusal::Reason(refusal_reason(legal, parsed)))
        }
    }
}

/// Castling written as the king taking its own rook (`Kxh1`, `Kg1` onto
/// the rook): Chess960 programs write it so, and the Laws' guidelines for
/// Chess960 describe castling as the king's move with the rook's.
fn king_onto_rook(legal: &[ChessMove], parsed: &San) -> Option<ChessMove> {
    let San::Normal {
        role: Role::King,
        to,
        promotion: None,
        ..
    } = *parsed
    else {
        return None;
    };
    legal
        .iter()
        .find(|m| m.rook_move().is_some_and(|(rook, _)| rook == to))
        .copied()
}

/// Why a SAN move that parsed is not legal.
fn refusal_reason(legal: &[ChessMove], parsed: San) -> IllegalReason {
    match parsed {
        San::Castle(_) => IllegalReason::CastlingNotAllowed,
        San::Normal {
            role,
            to,
            promotion,
            ..
        } => {
            let reaching = |r: Role| legal.iter().any(|m| m.role == r && m.to == to);
            if reaching(role) && (promotion.is_some() || role == Role::Pawn) {
                IllegalReason::Promotion
            } else {
                IllegalReason::NoSuchMove { role, to }
            }
        }
        San::Put { role, to } => IllegalReason::NoSuchMove { role, to },
        San::Null => IllegalReason::NoMoves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::from_fen;

    #[test]
    fn a_bishop_disambiguated_by_rank_is_not_read_as_the_b_file() {
        // Bishops on f2 and f6 both reach h4: SAN writes `B2h4` and `B6h4`
        // (found by the random-games property test).
        let pos = crate::chess::from_fen("4k3/8/5B2/8/8/8/5B2/4K3 w - - 0 1").unwrap();
        let legal = legal(&pos);
        let f2h4 = legal.iter().find(|m| m.uci() == "f2h4").unwrap();
        assert_eq!(crate::chess::san(&pos, f2h4), "B2h4");
        assert_eq!(resolve(&pos, "B2h4").unwrap().uci(), "f2h4");
        assert_eq!(resolve(&pos, "B6h4").unwrap().uci(), "f6h4");
        // The b-file typed in capitals still reads as squares.
        assert_eq!(
            resolve(&crate::chess::start(), "B2-B4").unwrap().uci(),
            "b2b4"
        );
    }

    #[test]
    fn castling_in_every_spelling() {
        let p = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for t in ["O-O", "0-0", "o-o", "OO", "e1g1", "e1h1", "Ke1-g1", "O-O+"] {
            let m = resolve(&p, t).unwrap();
            assert_eq!(m.castling(), Some(CastlingSide::KingSide), "{t}");
            assert_eq!(m.to, Square::G1);
        }
        for t in ["O-O-O", "0-0-0", "e1c1", "e1a1"] {
            assert_eq!(
                resolve(&p, t).unwrap().castling(),
                Some(CastlingSide::QueenSide),
                "{t}"
            );
        }
        let p = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
        for t in ["O-O", "e1g1"] {
            assert_eq!(
                resolve(&p, t),
                Err(ChessError::Illegal {
                    text: t.into(),
                    reason: IllegalReason::CastlingNotAllowed
                })
            );
        }
    }

    #[test]
    fn promotion_forms_and_refusals() {
        let p = from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
        for (t, r) in [
            ("e8=Q", Role::Queen),
            ("e8Q", Role::Queen),
            ("e7e8q", Role::Queen),
            ("e7-e8=N", Role::Knight),
            ("e7 e8 r", Role::Rook),
            ("e8=B+", Role::Bishop),
        ] {
            assert_eq!(resolve(&p, t).unwrap().promotion, Some(r), "{t}");
        }
        // No piece named: ask which.
        match resolve(&p, "e7e8") {
            Err(ChessError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 4),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            resolve(&p, "e8"),
            Err(ChessError::Illegal {
                reason: IllegalReason::Promotion,
                ..
            })
        ));
    }

    #[test]
    fn reasons_for_refusals() {
        let p = crate::chess::start();
        let reason = |t: &str| match resolve(&p, t) {
            Err(ChessError::Illegal { reason, .. }) => reason,
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(
            reason("e3e4"),
            IllegalReason::NoPiece { square: Square::E3 }
        );
        assert_eq!(
            reason("e7e5"),
            IllegalReason::NotYourPiece { square: Square::E7 }
        );
        assert_eq!(
            reason("d1d2"),
            IllegalReason::OwnPiece { square: Square::D2 }
        );
        assert_eq!(
            reason("Nf4"),
            IllegalReason::NoSuchMove {
                role: Role::Knight,
                to: Square::F4
            }
        );
        assert!(matches!(reason("g1g3"), IllegalReason::CannotReach { .. }));
        // A pinned knight.
        let p = from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        assert_eq!(
            resolve(&p, "e2c3"),
            Err(ChessError::Illegal {
                text: "e2c3".into(),
                reason: IllegalReason::KingInCheck {
                    from: Square::E2,
                    to: Square::C3
                }
            })
        );
        assert!(matches!(
            resolve(&p, "--"),
            Err(ChessError::Illegal { .. }) | Err(ChessError::Syntax(_))
        ));
    }

    #[test]
    fn ambiguous_san_lists_the_candidates() {
        let p = from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap();
        match resolve(&p, "Nd2") {
            Err(ChessError::Ambiguous { candidates, .. }) => {
                let mut from: Vec<Square> = candidates.iter().map(|m| m.from).collect();
                from.sort();
                assert_eq!(from, [Square::B1, Square::F3]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(resolve(&p, "Nbd2").unwrap().from, Square::B1);
        assert_eq!(resolve(&p, "nfd2").unwrap().from, Square::F3);
    }

    #[test]
    fn en_passant_captures_the_pawn_beside() {
        let p = from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
        for t in ["exd6", "e5d6", "exd6 e.p.", "e5xd6"] {
            let m = resolve(&p, t).unwrap();
            assert_eq!(m.captured(), Some((Role::Pawn, Square::D5)), "{t}");
            assert_eq!(san(&p, &m), "exd6");
        }
    }
}
