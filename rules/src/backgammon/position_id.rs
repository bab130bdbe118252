//! GNU Backgammon's Position ID: the FEN of backgammon.
//!
//! Ten bytes, written as fourteen base64 characters. For the side *not* on
//! roll and then for the side on roll, each of its points 1..24 (from its own
//! home) and then its bar gives as many 1 bits as checkers stand there,
//! followed by one 0 bit; bits fill each byte from its lowest bit up. The
//! side on roll is not written: the reader says who is on roll.

use std::fmt;

use super::board::{idx, Board};
use crate::Color;

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Why a text is not a Position ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PositionIdError {
    /// Not fourteen characters.
    Length(usize),
    /// A character outside base64.
    Character(char),
    /// The bits run out before both sides are read, or a side has more than fifteen checkers.
    TooManyCheckers,
    /// The board it describes is impossible (a point held by both sides).
    Board(super::board::BoardError),
}

impl fmt::Display for PositionIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionIdError::Length(n) => write!(f, "a Position ID has 14 characters, not {n}"),
            PositionIdError::Character(c) => write!(f, "{c:?} is not a Position ID character"),
            PositionIdError::TooManyCheckers => f.write_str("more than 15 checkers for a side"),
            PositionIdError::Board(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PositionIdError {}

/// The ten-byte key: the side not on roll first, then the side on roll.
#[must_use]
pub fn key(board: &Board) -> [u8; 10] {
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    let on_roll = board.turn();
    for side in [on_roll.other(), on_roll] {
        for &n in board.side(side) {
            for _ in 0..n {
                if bit < 80 {
                    key[bit / 8] |= 1 << (bit % 8);
                }
                bit += 1;
            }
            bit += 1;
        }
    }
    key
}

/// The Position ID of a board, from the side on roll (as `gnubg.positionid()`).
///
/// ```
/// use tandem_rules::backgammon::{position_id, Board};
/// use tandem_rules::Color;
/// assert_eq!(position_id::encode(&Board::start(Color::White)), "4HPwATDgc/ABMA");
/// ```
#[must_use]
pub fn encode(board: &Board) -> String {
    let k = key(board);
    let mut out = String::with_capacity(14);
    let mut acc: u32 = 0;
    let mut nbits = 0;
    for &byte in &k {
        acc = (acc << 8) | u32::from(byte);
        nbits += 8;
        while nbits >= 6 {
            nbits -= 6;
            out.push(char::from(B64[((acc >> nbits) & 0x3f) as usize]));
        }
    }
    if nbits > 0 {
        out.push(char::from(B64[((acc << (6 - nbits)) & 0x3f) as usize]));
    }
    out
}

pub(crate) fn b64_value(c: char) -> Option<u32> {
    let b = u8::try_from(c).ok()?;
    B64.iter()
        .position(|&x| x == b)
        .and_then(|p| u32::try_from(p).ok())
}

/// Reads a Position ID with `turn` on roll (the side whose checkers come second).
///
/// # Errors
/// Not fourteen base64 characters, more than fifteen checkers a side, or a
/// point held by both sides.
pub fn decode(id: &str, turn: Color) -> Result<Board, PositionIdError> {
    let id = id.trim();
    let n = id.chars().count();
    if n != 14 {
        return Err(PositionIdError::Length(n));
    }
    let mut key = [0u8; 10];
    let mut acc: u32 = 0;
    let mut nbits = 0;
    let mut k = 0;
    for c in id.chars() {
        let v = b64_value(c).ok_or(PositionIdError::Character(c))?;
        acc = (acc << 6) | v;
        nbits += 6;
        if nbits >= 8 && k < 10 {
            nbits -= 8;
            key[k] = u8::try_from((acc >> nbits) & 0xff).unwrap_or(0);
            k += 1;
        }
    }
    let mut sides = [[0u8; 25]; 2];
    let mut bit = 0usize;
    for side in &mut sides {
        let mut total = 0u32;
        for slot in side.iter_mut() {
            loop {
                if bit >= 80 {
                    return Err(PositionIdError::TooManyCheckers);
                }
                let set = key[bit / 8] & (1 << (bit % 8)) != 0;
                bit += 1;
                if !set {
                    break;
                }
                *slot += 1;
                total += 1;
                if total > 15 {
                    return Err(PositionIdError::TooManyCheckers);
                }
            }
        }
    }
    let [not_on_roll, on_roll] = sides;
    let board = Board::from_mine_theirs(on_roll, not_on_roll, turn);
    board.check().map_err(PositionIdError::Board)?;
    let _ = idx;
    Ok(board)
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} on roll, {})", self.turn(), encode(self))
    }
}
