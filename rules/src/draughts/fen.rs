//! PDN FEN: `W:W31,32,K45:B1-20`.
//!
//! The reader is relaxed: the side to move and each colour's list may come in
//! either order and either case, squares may be numbers (with leading zeros),
//! ranges (`1-20`, `K1-K3` is read as kings 1 to 3) or, in 64-square draughts,
//! algebraic names (`Wa1,c1`); spaces, a trailing `.` and surrounding quotes
//! are ignored, and fields other than `W`/`B` lists (some programs append
//! move counters such as `H0` or `F1`) are skipped. The writer is strict:
//! `W:W` then white's squares, `:B` then black's, ascending, kings prefixed
//! with `K`, no ranges.

use std::fmt;

use crate::draughts::position::Position;
use crate::draughts::types::{Piece, Role};
use crate::draughts::variant::Variant;
use crate::Color;

/// What is wrong with a FEN, naming the part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The side to move is not `W` or `B`.
    BadTurn(String),
    /// A piece list does not start with `W` or `B`.
    BadColor(String),
    /// A square in a list is not a square of this board.
    BadSquare(String),
    /// A range `a-b` is malformed or backwards.
    BadRange(String),
    /// The same square is given twice.
    Duplicate(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty fen"),
            FenError::BadTurn(s) => write!(f, "bad side to move {s:?} in fen (expected W or B)"),
            FenError::BadColor(s) => {
                write!(f, "bad piece list {s:?} in fen (expected W... or B...)")
            }
            FenError::BadSquare(s) => write!(f, "bad square {s:?} in fen"),
            FenError::BadRange(s) => write!(f, "bad range {s:?} in fen"),
            FenError::Duplicate(s) => write!(f, "square {s:?} given twice in fen"),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads a FEN for `variant`.
///
/// # Errors
/// A [`FenError`] naming the part that is wrong.
pub fn parse_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
    let fen = fen
        .trim()
        .trim_matches('"')
        .trim()
        .trim_end_matches('.')
        .trim();
    if fen.is_empty() {
        return Err(FenError::Empty);
    }
    let mut parts = fen.split(':');
    let turn_part = parts.next().unwrap_or_default().trim();
    let turn = match turn_part.to_ascii_uppercase().as_str() {
        "W" => Color::White,
        "B" => Color::Black,
        _ => return Err(FenError::BadTurn(turn_part.to_owned())),
    };
    let mut pos = Position::empty(variant, turn);
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let mut chars = part.chars();
        let head = chars.next().map(|c| c.to_ascii_uppercase());
        let rest = chars.as_str();
        let color = match head {
            Some('W') => Color::White,
            Some('B') => Color::Black,
            // Move counters and other annotations some programs append.
            Some('H' | 'F') if rest.trim().chars().all(|c| c.is_ascii_digit()) => continue,
            _ => return Err(FenError::BadColor(part.to_owned())),
        };
        for item in rest.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (role, body) = match item.strip_prefix(['K', 'k']) {
                Some(b) => (Role::King, b.trim()),
                None => (Role::Man, item),
            };
            let squares = if let Some((a, b)) = body.split_once('-') {
                let b = b.trim().trim_start_matches(['K', 'k']);
                let (a, b) = (
                    variant
                        .parse_square(a.trim())
                        .ok_or_else(|| FenError::BadRange(item.to_owned()))?,
                    variant
                        .parse_square(b)
                        .ok_or_else(|| FenError::BadRange(item.to_owned()))?,
                );
                if a > b {
                    return Err(FenError::BadRange(item.to_owned()));
                }
                (a.number()..=b.number())
                    .filter_map(crate::draughts::Square::new)
                    .collect::<Vec<_>>()
            } else {
                vec![variant
                    .parse_square(body)
                    .ok_or_else(|| FenError::BadSquare(item.to_owned()))?]
            };
            for sq in squares {
                if pos.piece_at(sq).is_some() {
                    return Err(FenError::Duplicate(variant.square_name(sq)));
                }
                pos.set(sq, Some(Piece { color, role }));
            }
        }
    }
    Ok(pos)
}

/// Writes the strict form.
#[must_use]
pub fn to_fen(pos: &Position) -> String {
    let mut s = String::new();
    s.push(pos.turn().fen_char());
    for color in [Color::White, Color::Black] {
        s.push(':');
        s.push(color.fen_char());
        let mut first = true;
        for (sq, p) in pos.pieces().filter(|(_, p)| p.color == color) {
            if !first {
                s.push(',');
            }
            first = false;
            if p.role == Role::King {
                s.push('K');
            }
            s.push_str(&pos.variant().square_name(sq));
        }
    }
    s
}

impl Position {
    /// The position as PDN FEN (`W:W31,32:B1,2`); see [`to_fen`].
    #[must_use]
    pub fn to_fen(&self) -> String {
        to_fen(self)
    }

    /// Reads a PDN FEN; see [`parse_fen`].
    ///
    /// # Errors
    /// [`FenError`] naming the part that is wrong.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        parse_fen(variant, fen)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", to_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_regression_multibyte_list_start() {
        // Found by the `fen` fuzz target: a list starting with a multi-byte character.
        let s = String::from_utf8_lossy(&[0x77, 0x0a, 0x3a, 0xff, 0xff, 0xff]);
        assert!(matches!(
            parse_fen(Variant::International, &s),
            Err(FenError::BadColor(_))
        ));
        assert!(parse_fen(Variant::International, "W:é1").is_err());
    }
}
