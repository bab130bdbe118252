//! The move generator: one capture search and one quiet-move generator for
//! both boards, handing each move it finds to a [`Sink`].
//!
//! Rules encoded here (seed 001 ch. I; 003 art. 3-4):
//! - men move one square diagonally forward (3.4) and capture forwards and
//!   backwards (4.1, 4.2); kings fly (3.9) and capture at a distance (4.3);
//! - multiple captures continue while possible (4.5, 4.6); a piece may cross
//!   the same empty square twice but never jump the same piece twice (4.8),
//!   and captured pieces stay on the board until the move ends (4.11), so they
//!   block; own pieces are never jumped (4.7);
//! - the capture taking the most pieces is compulsory, kings count as one and
//!   have no priority (4.13); among equal ones the choice is free (4.14), and
//!   routes with the same start, end and captured set are one move;
//! - a man promotes only when its move ends on the far row (3.5, 4.15).
//!
//! How it is fast: the code is instantiated per board ([`Board`]: every
//! diagonal step is a constant shift) and per side to move (`WHITE`); men
//! search with bitboard steps (a step off the board lands on a ghost bit or
//! falls off the word, and neither is ever empty or an opponent); a king finds
//! the first piece on each line with its precomputed ray (`Geo::rays`) and one
//! bit scan instead of walking square by square. The sink decides what a move
//! costs: the public [`crate::draughts::Move`] with its route ([`Routes`]), a 16-byte
//! [`Compact`] move for perft's inner nodes, or only a count at perft's last
//! ply ([`Counter`]), which builds no move at all. Routes are tracked only for
//! [`Routes`] (`Sink::ROUTE`). Duplicate routes are looked for only among
//! captures of three or more pieces: fewer cannot reach the same set by two
//! routes (two pieces by two routes lie on one line, which the king search
//! visits once).

use std::marker::PhantomData;

use crate::draughts::mv::{Move, MAX_CAPTURES};
use crate::draughts::variant::{Geo, GEO10, GEO8};

/// A board size, fixed at compile time.
pub(crate) trait Board {
    /// Half a row: one diagonal step shifts by `HALF` or `HALF + 1` bits.
    const HALF: u32;
    /// The geometry tables.
    fn geo() -> &'static Geo;
}

/// The 100-square board.
pub(crate) enum Ten {}

impl Board for Ten {
    const HALF: u32 = 5;
    #[inline(always)]
    fn geo() -> &'static Geo {
        &GEO10
    }
}

/// The 64-square board.
pub(crate) enum Eight {}

impl Board for Eight {
    const HALF: u32 = 4;
    #[inline(always)]
    fn geo() -> &'static Geo {
        &GEO8
    }
}

/// No direction (the capture search has not taken a piece yet).
const NO_DIR: usize = 4;

/// One diagonal step of every bit of `b` in direction `d` (the order of
/// `Geo::rays`: +half, +half+1, -half, -(half+1); `d ^ 2` is the opposite).
#[inline(always)]
fn step<B: Board>(b: u64, d: usize) -> u64 {
    match d {
        0 => b << B::HALF,
        1 => b << (B::HALF + 1),
        2 => b >> B::HALF,
        _ => b >> (B::HALF + 1),
    }
}

/// The bit of `set` nearest to the start of a ray in direction `d`.
#[inline(always)]
fn nearest(d: usize, set: u64) -> u32 {
    if d < 2 {
        set.trailing_zeros()
    } else {
        63 - set.leading_zeros()
    }
}

/// The squares a king slides over from `at` in direction `d` until the first
/// non-empty square (excluded).
#[inline(always)]
fn run(rays: &[[u64; 64]; 4], d: usize, at: u32, empty: u64) -> u64 {
    let ray = rays[d][at as usize];
    let blocked = ray & !empty;
    if blocked == 0 {
        ray
    } else {
        let b = nearest(d, blocked);
        ray ^ rays[d][b as usize] ^ (1u64 << b)
    }
}

/// Where the generator puts what it finds. Bits are in the board's padded
/// layout (`Geo::bit_to_sq`).
pub(crate) trait Sink {
    /// Whether the sink wants the route (`step` calls).
    const ROUTE: bool;
    /// The `i`-th capture of the route being searched takes the piece on
    /// `victim` and lands on `land` (called only when `ROUTE` is set).
    #[inline(always)]
    fn step(&mut self, _i: usize, _victim: u32, _land: u32) {}
    /// A complete capture of `n` pieces; its route is the last `n` steps.
    /// The sink applies the majority rule.
    fn capture(&mut self, from: u32, to: u32, captured: u64, n: u32, promotes: bool);
    /// A move without capture.
    fn quiet(&mut self, from: u32, to: u32, promotes: bool);
    /// Most pieces taken by a capture handed over so far (0: none).
    fn best(&self) -> u32;
}

/// The pieces as the side to move sees them.
#[derive(Clone, Copy)]
pub(crate) struct Sides {
    pub own: u64,
    pub opp: u64,
    pub kings: u64,
}

/// Every capture (4.1-4.14), each complete sequence handed to `sink`. Men
/// first, then kings, each in bit order; at every square the directions in
/// `Geo::rays` order, landings nearest first: the first route found of a
/// move is the one kept.
#[inline(always)]
pub(crate) fn captures<B: Board, const WHITE: bool, S: Sink>(s: Sides, sink: &mut S) {
    let geo = B::geo();
    let empty = geo.valid & !(s.own | s.opp);
    let men = s.own & !s.kings;
    // Only men that can start a capture are searched.
    let mut cand = 0u64;
    for d in 0..4 {
        cand |= step::<B>(step::<B>(empty, d ^ 2) & s.opp, d ^ 2);
    }
    cand &= men;
    let kings = s.own & s.kings;
    if cand == 0 && kings == 0 {
        return;
    }
    let mut search = Search::<B, S> {
        opp: s.opp,
        empty,
        promo: geo.promo[usize::from(!WHITE)],
        from: 0,
        man: true,
        depth: 0,
        sink,
        board: PhantomData,
    };
    while cand != 0 {
        let b = cand.trailing_zeros();
        cand &= cand - 1;
        search.from = b;
        // The piece has left its square (4.8: it may cross it again).
        search.empty = empty | 1u64 << b;
        search.man(1u64 << b, 0);
    }
    search.man = false;
    let mut k = kings;
    while k != 0 {
        let b = k.trailing_zeros();
        k &= k - 1;
        search.from = b;
        search.empty = empty | 1u64 << b;
        search.king(b, 0, NO_DIR, true);
    }
}

/// The moves without capture (3.4, 3.9): men forward, then kings.
#[inline(always)]
pub(crate) fn quiet<B: Board, const WHITE: bool, S: Sink>(s: Sides, sink: &mut S) {
    let geo = B::geo();
    let empty = geo.valid & !(s.own | s.opp);
    let promo = geo.promo[usize::from(!WHITE)];
    let men = s.own & !s.kings;
    // Forward is up (towards row 0) for white, down for black (3.4).
    let fwd = if WHITE { [2, 3] } else { [0, 1] };
    for d in fwd {
        let mut t = step::<B>(men, d) & empty;
        while t != 0 {
            let to = t.trailing_zeros();
            t &= t - 1;
            let from = step::<B>(1u64 << to, d ^ 2).trailing_zeros();
            sink.quiet(from, to, promo >> to & 1 != 0);
        }
    }
    let mut k = s.own & s.kings;
    while k != 0 {
        let b = k.trailing_zeros();
        k &= k - 1;
        for d in 0..4 {
            let mut r = run(&geo.rays, d, b, empty);
            while r != 0 {
                let to = nearest(d, r);
                r ^= 1u64 << to;
                sink.quiet(b, to, false);
            }
        }
    }
}

/// The number of legal moves, without building any (perft's last ply).
/// Without a capture by a man, each king's lines are looked at once: the
/// first piece on a line is either a capture (then the capture search
/// counts) or the end of the king's moves along it.
#[inline(always)]
pub(crate) fn count<B: Board, const WHITE: bool>(s: Sides, seen: &mut Vec<(u64, u16)>) -> u64 {
    let geo = B::geo();
    let empty = geo.valid & !(s.own | s.opp);
    let men = s.own & !s.kings;
    let mut jumpers = 0u64;
    for d in 0..4 {
        jumpers |= step::<B>(step::<B>(empty, d ^ 2) & s.opp, d ^ 2);
    }
    let mut quiet = 0u32;
    let mut capture = jumpers & men != 0;
    if !capture {
        let mut k = s.own & s.kings;
        'kings: while k != 0 {
            let b = k.trailing_zeros();
            k &= k - 1;
            for d in 0..4 {
                let ray = geo.rays[d][b as usize];
                let blocked = ray & !empty;
                if blocked == 0 {
                    quiet += ray.count_ones();
                    continue;
                }
                let first = nearest(d, blocked);
                let fb = 1u64 << first;
                if fb & s.opp != 0 && step::<B>(fb, d) & empty != 0 {
                    capture = true;
                    break 'kings;
                }
                // The squares before the first piece.
                quiet += (ray ^ geo.rays[d][first as usize]).count_ones() - 1;
            }
        }
    }
    if capture {
        let mut c = Counter {
            best: 0,
            n: 0,
            seen,
        };
        captures::<B, WHITE, _>(s, &mut c);
        return c.n;
    }
    let fwd = if WHITE { [2, 3] } else { [0, 1] };
    quiet += (step::<B>(men, fwd[0]) & empty).count_ones()
        + (step::<B>(men, fwd[1]) & empty).count_ones();
    u64::from(quiet)
}

/// The capture search's state for one moving piece.
struct Search<'s, B, S> {
    /// The opponent's pieces, captured ones included (they stay, 4.11).
    opp: u64,
    /// Empty squares; the moving piece's start square is one.
    empty: u64,
    /// The row where a man of the side to move is crowned.
    promo: u64,
    from: u32,
    man: bool,
    /// Pieces taken so far on this route.
    depth: usize,
    sink: &'s mut S,
    board: PhantomData<B>,
}

impl<B: Board, S: Sink> Search<'_, B, S> {
    /// A man on bit `at` that has taken `captured` (4.1, 4.2, 4.5).
    fn man(&mut self, at: u64, captured: u64) {
        let targets = self.opp & !captured;
        let mut extended = false;
        for d in 0..4 {
            let mid = step::<B>(at, d) & targets;
            let land = step::<B>(mid, d) & self.empty;
            if land != 0 {
                extended = true;
                if S::ROUTE {
                    self.sink
                        .step(self.depth, mid.trailing_zeros(), land.trailing_zeros());
                }
                self.depth += 1;
                self.man(land, captured | mid);
                self.depth -= 1;
            }
        }
        if !extended && self.depth > 0 {
            self.record(at.trailing_zeros(), captured);
        }
    }

    /// A king on bit `at` that has taken `captured`, arriving in direction
    /// `came` (`NO_DIR` at the start); `straight` when it landed on the first
    /// square behind the piece it took (4.3, 4.5).
    fn king(&mut self, at: u32, captured: u64, came: usize, straight: bool) {
        let rays = &B::geo().rays;
        let targets = self.opp & !captured;
        let mut extended = false;
        for d in 0..4 {
            // Going back would jump the piece just taken again (4.8).
            if d == came ^ 2 {
                continue;
            }
            let blocked = rays[d][at as usize] & !self.empty;
            if blocked == 0 {
                continue;
            }
            let victim = nearest(d, blocked);
            let vb = 1u64 << victim;
            if vb & targets == 0 || step::<B>(vb, d) & self.empty == 0 {
                continue;
            }
            extended = true;
            if d == came && !straight {
                // Going on straight finds the same next piece from every
                // landing square before it: the first one searched it.
                continue;
            }
            let mut lands = run(rays, d, victim, self.empty);
            let mut first = true;
            while lands != 0 {
                let land = nearest(d, lands);
                lands ^= 1u64 << land;
                if S::ROUTE {
                    self.sink.step(self.depth, victim, land);
                }
                self.depth += 1;
                self.king(land, captured | vb, d, first);
                self.depth -= 1;
                first = false;
            }
        }
        if !extended && self.depth > 0 {
            self.record(at, captured);
        }
    }

    #[inline(always)]
    fn record(&mut self, to: u32, captured: u64) {
        let promotes = self.man && self.promo >> to & 1 != 0;
        self.sink
            .capture(self.from, to, captured, self.depth as u32, promotes);
    }
}

/// The public moves, with their routes in square numbers.
pub(crate) struct Routes<'a> {
    pub geo: &'static Geo,
    /// Apply the majority rule (4.13); off to list every capture.
    pub majority: bool,
    pub best: u32,
    pub out: &'a mut Vec<Move>,
    /// The route being searched, in bits.
    pub order: [u8; MAX_CAPTURES],
    pub landing: [u8; MAX_CAPTURES],
}

impl Sink for Routes<'_> {
    const ROUTE: bool = true;

    fn step(&mut self, i: usize, victim: u32, land: u32) {
        self.order[i] = victim as u8;
        self.landing[i] = land as u8;
    }

    fn capture(&mut self, from: u32, to: u32, captured: u64, n: u32, promotes: bool) {
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
        let sq = |bit: u8| self.geo.bit_to_sq[bit as usize];
        let from = sq(from as u8);
        let to = sq(to as u8);
        if n >= 3
            && self
                .out
                .iter()
                .any(|m| m.from == from && m.to == to && m.captured_bits == captured)
        {
            return;
        }
        let mut m = Move {
            from,
            to,
            ncapt: n as u8,
            promotes,
            captured_bits: captured,
            order: [0; MAX_CAPTURES],
            landing: [0; MAX_CAPTURES],
        };
        for i in 0..n as usize {
            m.order[i] = sq(self.order[i]);
            m.landing[i] = sq(self.landing[i]);
        }
        self.out.push(m);
    }

    fn quiet(&mut self, from: u32, to: u32, promotes: bool) {
        let sq = |bit: u32| self.geo.bit_to_sq[bit as usize];
        self.out.push(Move::quiet(sq(from), sq(to), promotes));
    }

    fn best(&self) -> u32 {
        self.best
    }
}

/// A move as perft plays it: 16 bytes, no route.
#[derive(Clone, Copy)]
pub(crate) struct Compact {
    pub captured: u64,
    pub from: u8,
    pub to: u8,
}

/// Perft's move lists.
pub(crate) struct Compacts<'a> {
    pub best: u32,
    pub out: &'a mut Vec<Compact>,
}

impl Sink for Compacts<'_> {
    const ROUTE: bool = false;

    #[inline(always)]
    fn capture(&mut self, from: u32, to: u32, captured: u64, n: u32, _promotes: bool) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.out.clear();
        }
        let (from, to) = (from as u8, to as u8);
        // Every move in the list takes `best` pieces.
        if n >= 3
            && self
                .out
                .iter()
                .any(|m| m.from == from && m.to == to && m.captured == captured)
        {
            return;
        }
        self.out.push(Compact { captured, from, to });
    }

    #[inline(always)]
    fn quiet(&mut self, from: u32, to: u32, _promotes: bool) {
        self.out.push(Compact {
            captured: 0,
            from: from as u8,
            to: to as u8,
        });
    }

    fn best(&self) -> u32 {
        self.best
    }
}

/// Counts captures under the majority rule, remembering only those of three
/// or more pieces (the only ones two routes can repeat).
struct Counter<'a> {
    best: u32,
    n: u64,
    /// (captured, from | to << 8) of the counted captures of `best >= 3` pieces.
    seen: &'a mut Vec<(u64, u16)>,
}

impl Sink for Counter<'_> {
    const ROUTE: bool = false;

    #[inline(always)]
    fn capture(&mut self, from: u32, to: u32, captured: u64, n: u32, _promotes: bool) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.n = 0;
            self.seen.clear();
        }
        if n >= 3 {
            let key = (captured, (from | to << 8) as u16);
            if self.seen.contains(&key) {
                return;
            }
            self.seen.push(key);
        }
        self.n += 1;
    }

    fn quiet(&mut self, _from: u32, _to: u32, _promotes: bool) {
        self.n += 1;
    }

    fn best(&self) -> u32 {
        self.best
    }
}

/// Plays a compact move for the side to move; returns the sides as the
/// opponent sees them.
#[inline(always)]
fn play<B: Board, const WHITE: bool>(s: Sides, m: Compact) -> Sides {
    let from = 1u64 << m.from;
    let to = 1u64 << m.to;
    let promo = B::geo().promo[usize::from(!WHITE)];
    let mut kings = s.kings & !m.captured;
    if kings & from != 0 {
        kings = (kings & !from) | to;
    } else if to & promo != 0 {
        // 3.5, 4.15: a man ending its move on the far row.
        kings |= to;
    }
    Sides {
        own: s.opp & !m.captured,
        opp: (s.own & !from) | to,
        kings,
    }
}

/// Perft's buffers: one move list per ply and the duplicate list of the count.
pub(crate) struct PerftBuffers {
    lists: Vec<Vec<Compact>>,
    seen: Vec<(u64, u16)>,
}

impl PerftBuffers {
    pub(crate) fn new(depth: u32) -> PerftBuffers {
        PerftBuffers {
            lists: (0..depth).map(|_| Vec::with_capacity(64)).collect(),
            seen: Vec::with_capacity(16),
        }
    }
}

/// Bulk-counted perft below `s` (`depth` >= 1).
pub(crate) fn perft<B: Board, const WHITE: bool>(
    s: Sides,
    depth: u32,
    bufs: &mut PerftBuffers,
) -> u64 {
    perft_rec::<B, WHITE>(s, depth, &mut bufs.lists, &mut bufs.seen)
}

fn perft_rec<B: Board, const WHITE: bool>(
    s: Sides,
    depth: u32,
    lists: &mut [Vec<Compact>],
    seen: &mut Vec<(u64, u16)>,
) -> u64 {
    if depth <= 1 {
        return count::<B, WHITE>(s, seen);
    }
    let Some((here, rest)) = lists.split_last_mut() else {
        return 0;
    };
    here.clear();
    let mut sink = Compacts { best: 0, out: here };
    captures::<B, WHITE, _>(s, &mut sink);
    if sink.best == 0 {
        quiet::<B, WHITE, _>(s, &mut sink);
    }
    let mut n = 0;
    for &m in here.iter() {
        let child = play::<B, WHITE>(s, m);
        n += if WHITE {
            perft_rec::<B, false>(child, depth - 1, rest, seen)
        } else {
            perft_rec::<B, true>(child, depth - 1, rest, seen)
        };
    }
    n
}
