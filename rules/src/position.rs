//! Positions and the move generator.
//!
//! Rules encoded here (seed 001 ch. I; 003 art. 3-4):
//! - men move one square diagonally forward (3.4) and capture forwards and
//!   backwards (4.1, 4.2); kings fly (3.9) and capture at a distance (4.3);
//! - multiple captures continue while possible (4.5, 4.6); a piece may cross
//!   the same empty square twice but never jump the same piece twice (4.8),
//!   and captured pieces stay on the board until the move ends (4.11), so they
//!   block; own pieces are never jumped (4.7);
//! - the capture taking the most pieces is compulsory, kings count as one and
//!   have no priority (4.13); among equal ones the choice is free (4.14);
//! - a man promotes only when its move ends on the far row (3.5, 4.15).

use crate::mv::{Move, MAX_CAPTURES};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::{Geo, Variant};

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

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", crate::fen::to_fen(self))
    }
}

impl Position {
    /// The start position (001 ch. I 2.8): black men on the first 4 rows
    /// (3 in 64), white men on the last 4 (3), white to move (3.3).
    ///
    /// ```
    /// use tandem_rules::{Position, Variant};
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
    /// use tandem_rules::{Position, Variant};
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
        let mut g = Gen::new(self, out, true);
        g.captures_all();
        if g.best == 0 {
            g.quiet();
        }
    }

    /// Every complete capture sequence, ignoring the majority rule (4.13).
    /// Used to explain why a capture was refused ("not the largest capture").
    #[must_use]
    pub fn all_captures(&self) -> Vec<Move> {
        let mut v = Vec::new();
        let mut g = Gen::new(self, &mut v, false);
        g.captures_all();
        v
    }

    /// Whether `m` is legal here.
    #[must_use]
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// The number of legal moves, without building the list where it can
    /// (bulk counting for perft).
    #[must_use]
    pub fn count_legal(&self, scratch: &mut Vec<Move>) -> usize {
        let geo = self.variant.geo();
        let (own, opp) = self.own_opp();
        let empty = geo.valid & !(own | opp);
        let men = own & !self.kings;
        let kings = own & self.kings;
        if men_can_capture(geo, men, opp, empty) || kings_can_capture(geo, kings, opp, empty) {
            self.legal_moves_into(scratch);
            return scratch.len();
        }
        let fwd = forward_dirs(geo, self.turn);
        let mut n =
            (shift(men, fwd[0]) & empty).count_ones() + (shift(men, fwd[1]) & empty).count_ones();
        let mut k = kings;
        while k != 0 {
            let b = k.trailing_zeros() as i32;
            k &= k - 1;
            for &d in &geo.dirs {
                let mut s = b + d as i32;
                while in_board(geo, s) && empty >> s & 1 != 0 {
                    n += 1;
                    s += d as i32;
                }
            }
        }
        n as usize
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

    /// The position as PDN FEN (`W:W31,32:B1,2`); see [`crate::fen`].
    #[must_use]
    pub fn to_fen(&self) -> String {
        crate::fen::to_fen(self)
    }

    /// Reads a PDN FEN; see [`crate::fen`].
    ///
    /// # Errors
    /// [`crate::FenError`] naming the part that is wrong.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, crate::FenError> {
        crate::fen::parse_fen(variant, fen)
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

#[inline(always)]
fn shift(b: u64, d: i8) -> u64 {
    if d > 0 {
        b << d
    } else {
        b >> -d
    }
}

#[inline(always)]
fn in_board(geo: &Geo, s: i32) -> bool {
    (0..64).contains(&s) && geo.valid >> s & 1 != 0
}

/// Forward directions of a man: up (towards row 0) for white, down for black (3.4).
#[inline(always)]
fn forward_dirs(geo: &Geo, turn: Color) -> [i8; 2] {
    match turn {
        Color::White => [geo.dirs[2], geo.dirs[3]],
        Color::Black => [geo.dirs[0], geo.dirs[1]],
    }
}

#[inline(always)]
fn men_can_capture(geo: &Geo, men: u64, opp: u64, empty: u64) -> bool {
    geo.dirs
        .iter()
        .any(|&d| shift(shift(men, d) & opp, d) & empty != 0)
}

fn kings_can_capture(geo: &Geo, kings: u64, opp: u64, empty: u64) -> bool {
    let mut k = kings;
    while k != 0 {
        let b = k.trailing_zeros() as i32;
        k &= k - 1;
        for &d in &geo.dirs {
            let d = d as i32;
            let mut s = b + d;
            while in_board(geo, s) && empty >> s & 1 != 0 {
                s += d;
            }
            if in_board(geo, s)
                && opp >> s & 1 != 0
                && in_board(geo, s + d)
                && empty >> (s + d) & 1 != 0
            {
                return true;
            }
        }
    }
    false
}

/// The generator's working state.
struct Gen<'a> {
    geo: &'static Geo,
    turn: Color,
    own: u64,
    opp: u64,
    kings: u64,
    /// Empty squares during the capture being searched (the moving piece's
    /// start square counts as empty: it has left it).
    empty: u64,
    out: &'a mut Vec<Move>,
    /// Most pieces taken by a capture found so far (0: none).
    best: u8,
    majority: bool,
    from_bit: u8,
    man: bool,
    depth: usize,
    order: [u8; MAX_CAPTURES],
    landing: [u8; MAX_CAPTURES],
}

impl<'a> Gen<'a> {
    fn new(pos: &Position, out: &'a mut Vec<Move>, majority: bool) -> Gen<'a> {
        let geo = pos.variant.geo();
        let (own, opp) = pos.own_opp();
        Gen {
            geo,
            turn: pos.turn,
            own,
            opp,
            kings: pos.kings,
            empty: geo.valid & !(own | opp),
            out,
            best: 0,
            majority,
            from_bit: 0,
            man: false,
            depth: 0,
            order: [0; MAX_CAPTURES],
            landing: [0; MAX_CAPTURES],
        }
    }

    fn sq(&self, bit: i32) -> u8 {
        self.geo.bit_to_sq[bit as usize]
    }

    fn captures_all(&mut self) {
        let base_empty = self.empty;
        let men = self.own & !self.kings;
        let kings = self.own & self.kings;
        // Only pieces that can start a capture are searched.
        let mut cand = 0u64;
        for &d in &self.geo.dirs {
            cand |= shift(shift(base_empty, -d) & self.opp, -d) & men;
        }
        let mut m = cand;
        while m != 0 {
            let b = m.trailing_zeros();
            m &= m - 1;
            self.from_bit = b as u8;
            self.man = true;
            self.empty = base_empty | 1u64 << b;
            self.man_caps(b as i32, 0);
        }
        let mut k = kings;
        while k != 0 {
            let b = k.trailing_zeros();
            k &= k - 1;
            self.from_bit = b as u8;
            self.man = false;
            self.empty = base_empty | 1u64 << b;
            self.king_caps(b as i32, 0, usize::MAX, true);
        }
        self.empty = base_empty;
    }

    fn man_caps(&mut self, at: i32, captured: u64) {
        let mut extended = false;
        for &d in &self.geo.dirs {
            let d = d as i32;
            let mid = at + d;
            let land = mid + d;
            if in_board(self.geo, mid)
                && self.opp >> mid & 1 != 0
                && captured >> mid & 1 == 0
                && in_board(self.geo, land)
                && self.empty >> land & 1 != 0
            {
                extended = true;
                self.order[self.depth] = self.sq(mid);
                self.landing[self.depth] = self.sq(land);
                self.depth += 1;
                self.man_caps(land, captured | 1u64 << mid);
                self.depth -= 1;
            }
        }
        if !extended && self.depth > 0 {
            self.record(at, captured);
        }
    }

    fn king_caps(&mut self, at: i32, captured: u64, came: usize, straight: bool) {
        let mut extended = false;
        for (i, &d) in self.geo.dirs.iter().enumerate() {
            // The opposite direction (i ^ 2: +h <-> -h, +h+1 <-> -(h+1)) would
            // have to jump the piece just taken again (4.8): skip it.
            if came != usize::MAX && i == came ^ 2 {
                continue;
            }
            let d = d as i32;
            let mut s = at + d;
            while in_board(self.geo, s) && self.empty >> s & 1 != 0 {
                s += d;
            }
            if !(in_board(self.geo, s) && self.opp >> s & 1 != 0 && captured >> s & 1 == 0) {
                continue;
            }
            let victim = s;
            let mut land = victim + d;
            if came == i && !straight {
                // Going on straight finds the same next piece from every
                // landing square before it: the first one searched it.
                extended |= in_board(self.geo, land) && self.empty >> land & 1 != 0;
                continue;
            }
            let mut first = true;
            while in_board(self.geo, land) && self.empty >> land & 1 != 0 {
                extended = true;
                self.order[self.depth] = self.sq(victim);
                self.landing[self.depth] = self.sq(land);
                self.depth += 1;
                self.king_caps(land, captured | 1u64 << victim, i, first);
                self.depth -= 1;
                first = false;
                land += d;
            }
        }
        if !extended && self.depth > 0 {
            self.record(at, captured);
        }
    }

    fn record(&mut self, at: i32, captured: u64) {
        let n = self.depth as u8;
        if self.majority {
            if n < self.best {
                return;
            }
            if n > self.best {
                self.best = n;
                self.out.clear();
            }
        } else {
            self.best = self.best.max(n);
        }
        let from = self.geo.bit_to_sq[self.from_bit as usize];
        let to = self.sq(at);
        if n >= 3 {
            // Different routes to the same capture are one move. Two pieces
            // can be taken by two routes only along one diagonal, which
            // `king_caps` searches once, so duplicates start at three.
            if self
                .out
                .iter()
                .any(|m| m.from == from && m.to == to && m.captured_bits == captured)
            {
                return;
            }
        }
        let promotes = self.man && self.geo.promo[promo_index(self.turn)] >> at & 1 != 0;
        self.out.push(Move {
            from,
            to,
            ncapt: n,
            promotes,
            captured_bits: captured,
            order: self.order,
            landing: self.landing,
        });
    }

    fn quiet(&mut self) {
        let geo = self.geo;
        let men = self.own & !self.kings;
        let promo = geo.promo[promo_index(self.turn)];
        for d in forward_dirs(geo, self.turn) {
            let mut t = shift(men, d) & self.empty;
            while t != 0 {
                let to = t.trailing_zeros() as i32;
                t &= t - 1;
                let from = to - d as i32;
                self.out.push(Move::quiet(
                    self.sq(from),
                    self.sq(to),
                    promo >> to & 1 != 0,
                ));
            }
        }
        let mut k = self.own & self.kings;
        while k != 0 {
            let b = k.trailing_zeros() as i32;
            k &= k - 1;
            for &d in &geo.dirs {
                let d = d as i32;
                let mut s = b + d;
                while in_board(geo, s) && self.empty >> s & 1 != 0 {
                    self.out.push(Move::quiet(self.sq(b), self.sq(s), false));
                    s += d;
                }
            }
        }
    }
}

fn promo_index(turn: Color) -> usize {
    match turn {
        Color::White => 0,
        Color::Black => 1,
    }
}
