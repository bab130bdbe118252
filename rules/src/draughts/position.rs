//! Positions. The move generator is `crate::draughts::movegen` (the rules it encodes
//! are listed there, seed 001 ch. I 3-4).

use crate::draughts::movegen::{self, Board, Eight, Routes, Sides, Sink, Ten};
use crate::draughts::mv::{Move, MAX_CAPTURES};
use crate::draughts::types::{Piece, Role, Square};
use crate::draughts::variant::Variant;
use crate::Color;

/// Calls `$f::<Board, WHITE>($args)` for the position's board and side to move.
macro_rules! dispatch {
    ($pos:expr, $f:ident($($arg:expr),*)) => {
        match ($pos.variant, $pos.turn) {
            (Variant::International, Color::White) => $f::<Ten, true>($($arg),*),
            (Variant::International, Color::Black) => $f::<Ten, false>($($arg),*),
            (Variant::SixtyFour, Color::White) => $f::<Eight, true>($($arg),*),
            (Variant::SixtyFour, Color::Black) => $f::<Eight, false>($($arg),*),
        }
    };
}

/// A position: the pieces on the board and the side to move. Any such
/// arrangement is accepted (a composed problem may have men on the far row);
/// the rules are applied to moves made from it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    variant: Variant,
    /// Bitboards in the variant's padded layout.
    white: u64,
    black: u64,
    kings: u64,
    turn: Color,
}

impl Position {
    /// The start position (001 ch. I 2.8): black men on the first 4 rows
    /// (3 in 64), white men on the last 4 (3), white to move (3.3).
    ///
    /// ```
    /// use tandem_rules::draughts::{Position, Variant};
    /// let p = Position::start(Variant::International);
    /// assert_eq!(p.legal_moves().len(), 9);
    /// assert_eq!(p.to_fen(), "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
    /// ```
    #[must_use]
    pub fn start(variant: Variant) -> Position {
        let mut p = Position::empty(variant, Color::White);
        let per_row = variant.size() / 2;
        let n = variant.start_rows() * per_row;
        let squares = variant.squares();
        for k in 1..=n {
            p.set(
                Square::from_number_unchecked(k),
                Some(Piece {
                    color: Color::Black,
                    role: Role::Man,
                }),
            );
            p.set(
                Square::from_number_unchecked(squares + 1 - k),
                Some(Piece {
                    color: Color::White,
                    role: Role::Man,
                }),
            );
        }
        p
    }

    /// An empty board with `turn` to move.
    #[must_use]
    pub fn empty(variant: Variant, turn: Color) -> Position {
        Position {
            variant,
            white: 0,
            black: 0,
            kings: 0,
            turn,
        }
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    fn bit(&self, sq: Square) -> u64 {
        1u64 << self.variant.geo().sq_to_bit[sq.number() as usize]
    }

    /// What stands on a square (`None` also for a square not on this board).
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if !self.variant.contains(sq) {
            return None;
        }
        let b = self.bit(sq);
        let role = if self.kings & b != 0 {
            Role::King
        } else {
            Role::Man
        };
        if self.white & b != 0 {
            Some(Piece {
                color: Color::White,
                role,
            })
        } else if self.black & b != 0 {
            Some(Piece {
                color: Color::Black,
                role,
            })
        } else {
            None
        }
    }

    /// Puts a piece on a square or clears it. Squares outside the board are ignored.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        if !self.variant.contains(sq) {
            return;
        }
        let b = self.bit(sq);
        self.white &= !b;
        self.black &= !b;
        self.kings &= !b;
        if let Some(p) = piece {
            match p.color {
                Color::White => self.white |= b,
                Color::Black => self.black |= b,
            }
            if p.role == Role::King {
                self.kings |= b;
            }
        }
    }

    /// Every piece with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.variant
            .all_squares()
            .filter_map(move |sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// How many men and kings a side has.
    #[must_use]
    pub fn count(&self, color: Color) -> (u32, u32) {
        let own = self.side(color);
        (
            (own & !self.kings).count_ones(),
            (own & self.kings).count_ones(),
        )
    }

    pub(crate) fn side(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The legal moves (001 ch. I 3-4), captures first by the majority rule.
    ///
    /// ```
    /// use tandem_rules::draughts::{Position, Variant};
    /// // A king on 16 can take 21, 23 and then 33 or 39: two moves 16x1.
    /// let p = Position::from_fen(Variant::International, "W:WK16:B21,23,33,39").unwrap();
    /// let moves = p.legal_moves();
    /// assert!(moves.iter().all(|m| m.capture_count() == 3));
    /// assert_eq!(moves.iter().filter(|m| m.to().number() == 1).count(), 2);
    /// ```
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(32);
        self.legal_moves_into(&mut v);
        v
    }

    /// [`Position::legal_moves`] into a buffer the caller reuses (it is cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let mut sink = Routes {
            geo: self.variant.geo(),
            majority: true,
            best: 0,
            out,
            order: [0; MAX_CAPTURES],
            landing: [0; MAX_CAPTURES],
        };
        dispatch!(self, generate(self.sides(), &mut sink, true));
    }

    /// Every complete capture sequence, ignoring the majority rule (4.13).
    /// Used to explain why a capture was refused ("not the largest capture").
    #[must_use]
    pub fn all_captures(&self) -> Vec<Move> {
        let mut v = Vec::new();
        let mut sink = Routes {
            geo: self.variant.geo(),
            majority: false,
            best: 0,
            out: &mut v,
            order: [0; MAX_CAPTURES],
            landing: [0; MAX_CAPTURES],
        };
        dispatch!(self, generate(self.sides(), &mut sink, false));
        v
    }

    /// Whether `m` is legal here.
    #[must_use]
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// The number of legal moves, counted without building them (bulk
    /// counting for perft).
    #[must_use]
    pub fn count_legal(&self) -> usize {
        let mut seen = Vec::new();
        dispatch!(self, count(self.sides(), &mut seen)) as usize
    }

    /// The pieces as the side to move sees them.
    pub(crate) fn sides(&self) -> Sides {
        let (own, opp) = self.own_opp();
        Sides {
            own,
            opp,
            kings: self.kings,
        }
    }

    fn own_opp(&self) -> (u64, u64) {
        match self.turn {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        }
    }

    /// Plays a move that is known to be legal here (from [`Position::legal_moves`]).
    ///
    /// # Panics
    /// Does not panic; a move that is not legal here leaves a meaningless position.
    pub fn play_unchecked(&mut self, m: &Move) {
        let geo = self.variant.geo();
        let from = 1u64 << geo.sq_to_bit[m.from as usize];
        let to = 1u64 << geo.sq_to_bit[m.to as usize];
        let was_king = self.kings & from != 0;
        match self.turn {
            Color::White => {
                self.white = (self.white & !from) | to;
                self.black &= !m.captured_bits;
            }
            Color::Black => {
                self.black = (self.black & !from) | to;
                self.white &= !m.captured_bits;
            }
        }
        self.kings &= !(from | m.captured_bits);
        if was_king || m.promotes {
            self.kings |= to;
        }
        self.turn = self.turn.other();
    }

    /// Plays `m` if it is legal here.
    ///
    /// # Errors
    /// [`IllegalMove`] when `m` is not among the legal moves.
    pub fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        match self.legal_moves().into_iter().find(|l| l == m) {
            Some(l) => {
                self.play_unchecked(&l);
                Ok(())
            }
            None => Err(IllegalMove),
        }
    }
}

/// The move is not legal in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMove;

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("illegal move")
    }
}

impl std::error::Error for IllegalMove {}

/// Captures, then (when `quiet` and there is none) the moves without capture.
#[inline(always)]
fn generate<B: Board, const WHITE: bool>(s: Sides, sink: &mut Routes<'_>, quiet: bool) {
    movegen::captures::<B, WHITE, _>(s, sink);
    if quiet && sink.best() == 0 {
        movegen::quiet::<B, WHITE, _>(s, sink);
    }
}

#[inline(always)]
fn count<B: Board, const WHITE: bool>(s: Sides, seen: &mut Vec<(u64, u16)>) -> u64 {
    movegen::count::<B, WHITE>(s, seen)
}
