//! The two sides, in every game.

use std::fmt;

/// A side. White moves first (001 ch. I 3.3).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The side that starts on squares 31-50 (a1..h3 in 64) and moves first.
    White,
    /// The side that starts on squares 1-20 (b6..h8 in 64).
    Black,
}

impl Color {
    /// The other side.
    ///
    /// ```
    /// use tandem_rules::Color;
    /// assert_eq!(Color::White.other(), Color::Black);
    /// ```
    #[must_use]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `'W'` or `'B'`, as in PDN FEN.
    #[must_use]
    pub fn fen_char(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// `"white"` or `"black"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
