//! The backgammon board: 24 points, the bar and the checkers borne off for
//! each side, and the side on roll.
//!
//! Each side counts the points from its own home: its point 1 is the
//! opponent's point 24 (004 4.2 (i): checkers move towards home and are
//! borne off from it). Inside, `on[side][0..24]` are that side's points 1 to
//! 24 and `on[side][24]` is its bar, exactly as GNU Backgammon keeps a side
//! of its board, so the Position ID is a direct read of these arrays.

use std::fmt;

use crate::Color;

/// Checkers a side has (004 4.2 (iv) speaks of the fifteen).
pub const CHECKERS: u8 = 15;

/// The index of the bar in a side's array.
pub const BAR: usize = 24;

/// Why a board cannot be a backgammon position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BoardError {
    /// A side has more than fifteen checkers on the board and the bar.
    TooManyCheckers {
        /// The side.
        side: Color,
        /// How many.
        count: u8,
    },
    /// Both sides have checkers on one point (numbered from white's home).
    SharedPoint {
        /// The point, 1..24 from white's home.
        point: u8,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::TooManyCheckers { side, count } => {
                write!(f, "{side} has {count} checkers (at most 15)")
            }
            BoardError::SharedPoint { point } => {
                write!(
                    f,
                    "both sides have checkers on point {point} (white's numbering)"
                )
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// A backgammon position: where every checker stands and who is on roll.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    on: [[u8; 25]; 2],
    turn: Color,
}

pub(crate) fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Board {
    /// The starting position (2 on the 24-point, 5 on the 13, 3 on the 8,
    /// 5 on the 6 for each side), `turn` on roll.
    #[must_use]
    pub fn start(turn: Color) -> Board {
        let mut side = [0u8; 25];
        side[23] = 2;
        side[12] = 5;
        side[7] = 3;
        side[5] = 5;
        Board {
            on: [side, side],
            turn,
        }
    }

    /// A board from each side's 25 counts (points 1..24 from that side's own
    /// home, then the bar).
    ///
    /// # Errors
    /// More than fifteen checkers on a side, or a point held by both.
    pub fn from_sides(white: [u8; 25], black: [u8; 25], turn: Color) -> Result<Board, BoardError> {
        let b = Board {
            on: [white, black],
            turn,
        };
        b.check()?;
        Ok(b)
    }

    pub(crate) fn check(&self) -> Result<(), BoardError> {
        for side in [Color::White, Color::Black] {
            let count: u32 = self.on[idx(side)].iter().map(|&n| u32::from(n)).sum();
            if count > u32::from(CHECKERS) {
                return Err(BoardError::TooManyCheckers {
                    side,
                    count: u8::try_from(count).unwrap_or(u8::MAX),
                });
            }
        }
        for p in 0..24 {
            if self.on[0][p] > 0 && self.on[1][23 - p] > 0 {
                return Err(BoardError::SharedPoint {
                    point: u8::try_from(p + 1).unwrap_or(0),
                });
            }
        }
        Ok(())
    }

    /// The side on roll.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Gives the roll to `side`.
    pub fn set_turn(&mut self, side: Color) {
        self.turn = side;
    }

    /// The side's 25 counts: points 1..24 from its own home, then its bar.
    #[must_use]
    pub fn side(&self, side: Color) -> &[u8; 25] {
        &self.on[idx(side)]
    }

    /// Checkers of `side` on its own point `point` (1..24), or on the bar (25).
    #[must_use]
    pub fn count(&self, side: Color, point: u8) -> u8 {
        match point {
            1..=24 => self.on[idx(side)][usize::from(point) - 1],
            25 => self.on[idx(side)][BAR],
            _ => 0,
        }
    }

    /// Checkers of `side` on the bar.
    #[must_use]
    pub fn bar(&self, side: Color) -> u8 {
        self.on[idx(side)][BAR]
    }

    /// Checkers `side` has borne off.
    #[must_use]
    pub fn borne_off(&self, side: Color) -> u8 {
        let on: u32 = self.on[idx(side)].iter().map(|&n| u32::from(n)).sum();
        CHECKERS.saturating_sub(u8::try_from(on).unwrap_or(CHECKERS))
    }

    /// The pip count: how far `side`'s checkers have to travel to bear off
    /// (a checker on the bar counts 25).
    #[must_use]
    pub fn pips(&self, side: Color) -> u32 {
        self.on[idx(side)]
            .iter()
            .enumerate()
            .map(|(i, &n)| u32::from(n) * u32::try_from(i + 1).unwrap_or(0))
            .sum()
    }

    /// Whether all of `side`'s checkers still on the board are in its home
    /// board (points 1..6), so that it may bear off.
    #[must_use]
    pub fn all_home(&self, side: Color) -> bool {
        self.on[idx(side)][6..].iter().all(|&n| n == 0)
    }

    /// The board seen with the other side on roll.
    #[must_use]
    pub fn with_turn(mut self, side: Color) -> Board {
        self.turn = side;
        self
    }

    /// The mover's and the opponent's arrays, from the side on roll.
    pub(crate) fn mine_theirs(&self) -> ([u8; 25], [u8; 25]) {
        let me = idx(self.turn);
        (self.on[me], self.on[1 - me])
    }

    pub(crate) fn from_mine_theirs(me: [u8; 25], them: [u8; 25], turn: Color) -> Board {
        match turn {
            Color::White => Board {
                on: [me, them],
                turn,
            },
            Color::Black => Board {
                on: [them, me],
                turn,
            },
        }
    }
}

/// Two dice as rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Dice(pub u8, pub u8);

impl Dice {
    /// Two dice, each 1..6.
    #[must_use]
    pub fn new(a: u8, b: u8) -> Option<Dice> {
        ((1..=6).contains(&a) && (1..=6).contains(&b)).then_some(Dice(a, b))
    }

    /// Whether both dice show the same number (four moves, 004 4.2).
    #[must_use]
    pub fn is_double(self) -> bool {
        self.0 == self.1
    }

    /// The larger die first.
    #[must_use]
    pub fn high_first(self) -> Dice {
        if self.0 >= self.1 {
            self
        } else {
            Dice(self.1, self.0)
        }
    }

    /// Reads `31`, `3 1`, `3-1`, `3,1`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Dice> {
        let digits: Vec<u8> = text
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | ',' | '/' | ':' | 'x'))
            .map(|c| c.to_digit(10).and_then(|d| u8::try_from(d).ok()))
            .collect::<Option<Vec<u8>>>()?;
        match digits.as_slice() {
            [a, b] => Dice::new(*a, *b),
            _ => None,
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}
