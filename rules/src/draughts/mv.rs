//! Moves.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::draughts::types::Square;

/// Most pieces one capture can take (all of the opponent's 20).
pub const MAX_CAPTURES: usize = 20;

/// A legal move: where the piece starts and ends, the squares it lands on
/// after each capture, and the pieces it captures in capture order.
///
/// Two capture routes with the same start, end and *set* of captured pieces
/// are one move (001 ch. I 4.14 leaves the choice free; perft counts them once),
/// so equality and hashing look only at `from`, `to` and the captured set.
/// The route kept is the first one the generator found.
#[derive(Clone, Copy)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) ncapt: u8,
    pub(crate) promotes: bool,
    /// Captured pieces as a bitboard in the variant's padded layout.
    pub(crate) captured_bits: u64,
    /// Captured squares (numbers) in capture order.
    pub(crate) order: [u8; MAX_CAPTURES],
    /// Landing squares after each capture; the last equals `to`.
    pub(crate) landing: [u8; MAX_CAPTURES],
}

impl Move {
    pub(crate) fn quiet(from: u8, to: u8, promotes: bool) -> Move {
        Move {
            from,
            to,
            ncapt: 0,
            promotes,
            captured_bits: 0,
            order: [0; MAX_CAPTURES],
            landing: [0; MAX_CAPTURES],
        }
    }

    /// The square the piece leaves.
    #[must_use]
    pub fn from(&self) -> Square {
        Square::from_number_unchecked(self.from)
    }

    /// The square the piece ends on.
    #[must_use]
    pub fn to(&self) -> Square {
        Square::from_number_unchecked(self.to)
    }

    /// Whether the move captures.
    #[must_use]
    pub fn is_capture(&self) -> bool {
        self.ncapt > 0
    }

    /// How many pieces it captures.
    #[must_use]
    pub fn capture_count(&self) -> usize {
        self.ncapt as usize
    }

    /// The captured pieces' squares in the order they are taken: the order in
    /// which they come off the board (001 ch. I 4.5, 4.11).
    pub fn captured(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.order[..self.ncapt as usize]
            .iter()
            .map(|&n| Square::from_number_unchecked(n))
    }

    /// The squares the piece lands on after each capture, ending with `to`.
    /// Empty for a move that does not capture.
    pub fn landings(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.landing[..self.ncapt as usize]
            .iter()
            .map(|&n| Square::from_number_unchecked(n))
    }

    /// Whether a man is crowned by this move (001 ch. I 3.5, 4.15).
    #[must_use]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// The captured squares sorted by number (for comparing sets).
    #[must_use]
    pub fn captured_sorted(&self) -> Vec<Square> {
        let mut v: Vec<Square> = self.captured().collect();
        v.sort();
        v
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured_bits == other.captured_bits
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.from.hash(state);
        self.to.hash(state);
        self.captured_bits.hash(state);
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        if self.ncapt == 0 {
            write!(f, "-{}", self.to)?;
        } else {
            for l in &self.landing[..self.ncapt as usize] {
                write!(f, "x{l}")?;
            }
            write!(f, " (")?;
            for (i, c) in self.order[..self.ncapt as usize].iter().enumerate() {
                if i > 0 {
                    write!(f, ",")?;
                }
                write!(f, "{c}")?;
            }
            write!(f, ")")?;
        }
        Ok(())
    }
}
