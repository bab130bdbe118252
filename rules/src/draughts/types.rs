//! The vocabulary of draughts: piece roles, pieces and squares.

use std::fmt;

use crate::Color;

/// A man or a king (001 ch. I 3.1, 3.5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A man (pion): moves one square forward, captures both ways.
    Man,
    /// A king (damka): flies along diagonals (001 ch. I 3.9).
    King,
}

/// A coloured piece.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

impl Piece {
    /// Words for logs and JSON: `"white man"`, `"black king"`.
    ///
    /// ```
    /// use tandem_rules::Color;
    /// use tandem_rules::draughts::{Piece, Role};
    /// assert_eq!(Piece { color: Color::Black, role: Role::King }.name(), "black king");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match (self.color, self.role) {
            (Color::White, Role::Man) => "white man",
            (Color::White, Role::King) => "white king",
            (Color::Black, Role::Man) => "black man",
            (Color::Black, Role::King) => "black king",
        }
    }
}

impl Piece {
    /// One letter for diagrams: `w` white man, `W` white king, `b` black man,
    /// `B` black king.
    ///
    /// ```
    /// use tandem_rules::Color;
    /// use tandem_rules::draughts::{Piece, Role};
    /// assert_eq!(Piece { color: Color::White, role: Role::King }.letter(), 'W');
    /// ```
    #[must_use]
    pub fn letter(self) -> char {
        match (self.color, self.role) {
            (Color::White, Role::Man) => 'w',
            (Color::White, Role::King) => 'W',
            (Color::Black, Role::Man) => 'b',
            (Color::Black, Role::King) => 'B',
        }
    }
}

/// A playable (dark) square by its number: 1-50 in international draughts
/// (001 ch. I 2.6), 1-32 in 64-square draughts, where it is also named
/// algebraically (2.6.4); see [`crate::draughts::Variant::square_name`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Square(u8);

impl Square {
    /// A square by number; `None` for 0 or numbers above 50. Whether the
    /// number exists in a variant is [`crate::draughts::Variant::contains`].
    ///
    /// ```
    /// use tandem_rules::draughts::Square;
    /// assert_eq!(Square::new(32).unwrap().number(), 32);
    /// assert!(Square::new(0).is_none());
    /// ```
    #[must_use]
    pub const fn new(n: u8) -> Option<Square> {
        if n >= 1 && n <= 50 {
            Some(Square(n))
        } else {
            None
        }
    }

    /// The square's number, 1-based.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }

    pub(crate) const fn from_number_unchecked(n: u8) -> Square {
        Square(n)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
