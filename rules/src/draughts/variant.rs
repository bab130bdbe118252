//! Variants and board geometry.
//!
//! Squares are numbered row by row from the top (black's side), left to right,
//! as 001 ch. I 2.6 prescribes for the 100-square board; the 64-square board is
//! numbered the same way (1 = b8, 4 = h8, 29 = a1, 32 = g1) so that PDN's
//! numbers 1-32 can be read, and its squares are also named algebraically as
//! 001 ch. I 2.6.4 prescribes (a1 is a dark corner on white's side).
//!
//! Internally a position is a set of bitboards in a padded layout: square `s`
//! (0-based) lives at bit `s + s / size` so that one ghost bit follows every
//! two rows. Then every diagonal step is one constant shift and steps off the
//! board land on a ghost bit or fall off the word.

use std::fmt;
use std::str::FromStr;

use crate::draughts::types::Square;
use crate::Color;

/// A game the rules engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// International draughts on 100 squares (001 ch. I, 003).
    International,
    /// 64-square draughts as the Polish code defines it: the international
    /// rules of moving and capturing on an 8x8 board (001 ch. I, italic parts).
    SixtyFour,
}

impl Variant {
    /// Every variant, for listings.
    pub const ALL: [Variant; 2] = [Variant::International, Variant::SixtyFour];

    /// The name used on the command line and in files.
    ///
    /// ```
    /// use tandem_rules::draughts::Variant;
    /// assert_eq!(Variant::SixtyFour.name(), "sixty-four");
    /// assert_eq!("international".parse::<Variant>().unwrap(), Variant::International);
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Variant::International => "international",
            Variant::SixtyFour => "sixty-four",
        }
    }

    pub(crate) fn geo(self) -> &'static Geo {
        match self {
            Variant::International => &GEO10,
            Variant::SixtyFour => &GEO8,
        }
    }

    /// Rows (and columns) of the board: 10 or 8.
    #[must_use]
    pub fn size(self) -> u8 {
        self.geo().size
    }

    /// Number of playable squares: 50 or 32.
    #[must_use]
    pub fn squares(self) -> u8 {
        self.geo().squares
    }

    /// Whether `sq` exists on this board.
    #[must_use]
    pub fn contains(self, sq: Square) -> bool {
        sq.number() <= self.squares()
    }

    /// All squares, in numeric order.
    pub fn all_squares(self) -> impl Iterator<Item = Square> {
        (1..=self.squares()).map(Square::from_number_unchecked)
    }

    /// Row (0 = the top row, black's side) and column (0 = a-file) of a square.
    ///
    /// ```
    /// use tandem_rules::draughts::{Square, Variant};
    /// let v = Variant::International;
    /// assert_eq!(v.coords(Square::new(1).unwrap()), (0, 1)); // 001 ch. I 2.6.1
    /// assert_eq!(v.coords(Square::new(46).unwrap()), (9, 0)); // 2.6.2: left side
    /// ```
    #[must_use]
    pub fn coords(self, sq: Square) -> (u8, u8) {
        let half = self.size() / 2;
        let s = sq.number() - 1;
        let row = s / half;
        let i = s % half;
        let col = if row % 2 == 0 { 2 * i + 1 } else { 2 * i };
        (row, col)
    }

    /// The square at a row and column, if it is a playable (dark) one.
    #[must_use]
    pub fn square_at(self, row: u8, col: u8) -> Option<Square> {
        let n = self.size();
        if row >= n || col >= n || (row + col) % 2 == 0 {
            return None;
        }
        Some(Square::from_number_unchecked(row * (n / 2) + col / 2 + 1))
    }

    /// The square's name as written in this variant's notation: the number in
    /// international draughts, algebraic (`c3`) in 64-square (001 ch. I 2.6.4).
    ///
    /// ```
    /// use tandem_rules::draughts::{Square, Variant};
    /// assert_eq!(Variant::SixtyFour.square_name(Square::new(29).unwrap()), "a1");
    /// assert_eq!(Variant::SixtyFour.square_name(Square::new(4).unwrap()), "h8");
    /// assert_eq!(Variant::International.square_name(Square::new(32).unwrap()), "32");
    /// ```
    #[must_use]
    pub fn square_name(self, sq: Square) -> String {
        match self {
            Variant::International => sq.number().to_string(),
            Variant::SixtyFour => {
                let (file, rank) = self.algebraic(sq);
                format!("{file}{rank}")
            }
        }
    }

    /// File letter and rank number of a square (row 0 is rank `size`).
    #[must_use]
    pub fn algebraic(self, sq: Square) -> (char, u8) {
        let (row, col) = self.coords(sq);
        ((b'a' + col) as char, self.size() - row)
    }

    /// Reads a square: its number, or (in 64-square) its algebraic name.
    /// Leading zeros are accepted (`05`).
    ///
    /// ```
    /// use tandem_rules::draughts::{Square, Variant};
    /// assert_eq!(Variant::SixtyFour.parse_square("c3"), Some(Square::new(22).unwrap()));
    /// assert_eq!(Variant::SixtyFour.parse_square("22"), Some(Square::new(22).unwrap()));
    /// assert_eq!(Variant::International.parse_square("007"), Some(Square::new(7).unwrap()));
    /// assert_eq!(Variant::International.parse_square("51"), None);
    /// assert_eq!(Variant::SixtyFour.parse_square("a2"), None); // a light square
    /// ```
    #[must_use]
    pub fn parse_square(self, s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if !b.is_empty() && b.len() <= 3 && b.iter().all(u8::is_ascii_digit) {
            let n: u8 = s.parse().ok()?;
            return Square::new(n).filter(|&sq| self.contains(sq));
        }
        if let [f, r @ ..] = b {
            let f = f.to_ascii_lowercase();
            if f.is_ascii_lowercase()
                && !r.is_empty()
                && r.len() <= 2
                && r.iter().all(u8::is_ascii_digit)
            {
                let rank: u8 = std::str::from_utf8(r).ok()?.parse().ok()?;
                let col = f - b'a';
                if rank == 0 || rank > self.size() {
                    return None;
                }
                return self.square_at(self.size() - rank, col);
            }
        }
        None
    }

    /// Whether square names are algebraic in this variant's notation.
    #[must_use]
    pub fn algebraic_notation(self) -> bool {
        matches!(self, Variant::SixtyFour)
    }

    /// The row a man of `color` is promoted on (001 ch. I 3.5).
    #[must_use]
    pub fn promotion_row(self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.size() - 1,
        }
    }

    /// Rows of men each side starts with: 4 (international) or 3 (64).
    #[must_use]
    pub fn start_rows(self) -> u8 {
        match self {
            Variant::International => 4,
            Variant::SixtyFour => 3,
        }
    }

    /// Moves each side must have made before a draw may be offered
    /// (001 ch. II 5.1: 40 in international, 15 in 64).
    #[must_use]
    pub fn draw_offer_min_moves(self) -> u32 {
        match self {
            Variant::International => 40,
            Variant::SixtyFour => 15,
        }
    }

    /// The PDN `GameType` number: 20 (international), 26 is Brazilian, which
    /// has the same rules as the Polish 64-square game.
    #[must_use]
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Variant::International => 20,
            Variant::SixtyFour => 26,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVariantError(pub String);

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant {:?} (expected international or sixty-four)",
            self.0
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "international" | "intl" | "100" | "10x10" | "20" => Ok(Variant::International),
            "sixty-four" | "sixtyfour" | "64" | "8x8" | "polish-64" | "brazilian" | "26" => {
                Ok(Variant::SixtyFour)
            }
            _ => Err(ParseVariantError(s.to_owned())),
        }
    }
}

/// Geometry tables of one board size, in the padded bit layout.
#[derive(Debug)]
pub(crate) struct Geo {
    pub size: u8,
    pub squares: u8,
    /// Bits of real squares.
    pub valid: u64,
    /// Bit index of square number n (index 0 unused).
    pub sq_to_bit: [u8; 51],
    /// Square number at a bit index (0 for ghosts and bits past the board).
    pub bit_to_sq: [u8; 64],
    /// Row 0 (white promotes there) and the last row (black promotes there).
    pub promo: [u64; 2],
    /// `rays[d][b]`: the board squares seen from bit `b` in direction `d`,
    /// `b` itself excluded (a king's line, 001 ch. I 3.9). The directions,
    /// as bit shifts: +half (down-left), +half+1 (down-right), -half
    /// (up-right), -(half+1) (up-left); "down" is towards white, `d ^ 2` is
    /// the opposite direction.
    pub rays: [[u64; 64]; 4],
}

const fn make_geo(size: u8) -> Geo {
    let half = size / 2;
    let squares = size * half;
    let mut sq_to_bit = [0u8; 51];
    let mut bit_to_sq = [0u8; 64];
    let mut valid = 0u64;
    let mut promo = [0u64; 2];
    let mut s = 0u8;
    while s < squares {
        let bit = s + s / size;
        sq_to_bit[(s + 1) as usize] = bit;
        bit_to_sq[bit as usize] = s + 1;
        valid |= 1u64 << bit;
        let row = s / half;
        if row == 0 {
            promo[0] |= 1u64 << bit;
        }
        if row == size - 1 {
            promo[1] |= 1u64 << bit;
        }
        s += 1;
    }
    let dirs = [half as i8, half as i8 + 1, -(half as i8), -(half as i8 + 1)];
    let mut rays = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0i32;
        while b < 64 {
            if valid >> b & 1 != 0 {
                let mut t = b + dirs[d] as i32;
                while t >= 0 && t < 64 && valid >> t & 1 != 0 {
                    rays[d][b as usize] |= 1u64 << t;
                    t += dirs[d] as i32;
                }
            }
            b += 1;
        }
        d += 1;
    }
    Geo {
        size,
        squares,
        valid,
        sq_to_bit,
        bit_to_sq,
        promo,
        rays,
    }
}

pub(crate) static GEO10: Geo = make_geo(10);
pub(crate) static GEO8: Geo = make_geo(8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_001_2_6() {
        let v = Variant::International;
        // 2.6.2: left side 6-16-26-36-46, right side 5-15-25-35-45.
        for n in [6, 16, 26, 36, 46] {
            assert_eq!(v.coords(Square::new(n).unwrap()).1, 0, "{n}");
        }
        for n in [5, 15, 25, 35, 45] {
            assert_eq!(v.coords(Square::new(n).unwrap()).1, 9, "{n}");
        }
        for sq in v.all_squares() {
            let (r, c) = v.coords(sq);
            assert_eq!(v.square_at(r, c), Some(sq));
        }
    }

    #[test]
    fn algebraic_matches_001_2_6_4() {
        let v = Variant::SixtyFour;
        let names: Vec<String> = [29, 30, 31, 32]
            .iter()
            .map(|&n| v.square_name(Square::new(n).unwrap()))
            .collect();
        assert_eq!(names, ["a1", "c1", "e1", "g1"]); // 2.6.4.1
        let names: Vec<String> = [1, 2, 3, 4]
            .iter()
            .map(|&n| v.square_name(Square::new(n).unwrap()))
            .collect();
        assert_eq!(names, ["b8", "d8", "f8", "h8"]);
        for sq in v.all_squares() {
            assert_eq!(v.parse_square(&v.square_name(sq)), Some(sq));
        }
    }

    #[test]
    fn geometry_steps() {
        let g = &GEO10;
        assert_eq!(g.valid.count_ones(), 50);
        // 1 + half = 6, the down-left neighbour of 1 (b10 -> a9).
        let down_left = g.rays[0][g.sq_to_bit[1] as usize].trailing_zeros();
        assert_eq!(g.bit_to_sq[down_left as usize], 6);
        assert_eq!(GEO8.valid.count_ones(), 32);
    }

    #[test]
    fn rays_follow_the_diagonals() {
        let g = &GEO10;
        let bits = |squares: &[u8]| {
            squares
                .iter()
                .fold(0u64, |b, &n| b | 1u64 << g.sq_to_bit[n as usize])
        };
        let at = g.sq_to_bit[28] as usize;
        // 001 ch. I 2.6: the long diagonal 46-5 and the line 6-50 cross on 28.
        assert_eq!(g.rays[2][at], bits(&[23, 19, 14, 10, 5]));
        assert_eq!(g.rays[0][at], bits(&[32, 37, 41, 46]));
        assert_eq!(g.rays[3][at], bits(&[22, 17, 11, 6]));
        assert_eq!(g.rays[1][at], bits(&[33, 39, 44, 50]));
        assert_eq!(g.rays[0][g.sq_to_bit[46] as usize], 0);
    }
}
