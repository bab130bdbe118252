//! Legal moves for a roll (004 4.2 (i); the standard rules of play).
//!
//! A move is the whole turn: up to four steps, one a die. Both dice must be
//! played if they can be; if only one can, the larger one if it can; doubles
//! give four steps; checkers on the bar enter first; bearing off only with
//! every checker home, a higher die bearing off from the highest point
//! occupied; landing on a lone opposing checker (a blot) hits it to the bar.
//! Moves that reach the same position are one move, kept in the form found
//! first, and the search runs in GNU Backgammon's order (the dice as rolled,
//! then swapped; the highest point first), so the list and each move's
//! written form match gnubg's move list.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::board::{Board, Dice, BAR};
use super::position_id;

/// One checker moving by one die: `from` is 1..24 or 25 for the bar, `to`
/// is 0..23 with 0 for off, both in the mover's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// The point left (25 = the bar).
    pub from: u8,
    /// The point reached (0 = borne off).
    pub to: u8,
}

/// A whole turn: the steps in the order played (none for a pass).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
}

impl Play {
    /// The pass: no checker moves (no legal move for the roll).
    pub const PASS: Play = Play {
        steps: [Step { from: 0, to: 0 }; 4],
        len: 0,
    };

    /// A play from its steps (at most four; more are dropped).
    #[must_use]
    pub fn from_steps(steps: &[Step]) -> Play {
        let mut p = Play::PASS;
        for s in steps.iter().take(4) {
            p.steps[usize::from(p.len)] = *s;
            p.len += 1;
        }
        p
    }

    /// The steps in the order played.
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }

    /// Whether no checker moves.
    #[must_use]
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Debug for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Play(")?;
        for (i, s) in self.steps().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}/{}", s.from, s.to)?;
        }
        f.write_str(")")
    }
}

/// Whether the mover (`me`) may move a checker from index `i` by `die`
/// (indices: 0..23 = points 1..24, 24 = bar; `them` from the opponent's side).
pub(super) fn legal_step(me: &[u8; 25], them: &[u8; 25], i: usize, die: usize) -> bool {
    if i >= die {
        // A point held by two or more opposing checkers is closed.
        return them[23 - (i - die)] < 2;
    }
    // Bearing off: every checker home (none beyond the 6-point, none on the
    // bar), and either the exact die or the highest checker with a larger die.
    let back = (0..25).rev().find(|&k| me[k] > 0).unwrap_or(0);
    back <= 5 && (i == back || i + 1 == die)
}

/// Applies one step (indices as in [`legal_step`]); hits a blot.
pub(super) fn apply_step(me: &mut [u8; 25], them: &mut [u8; 25], i: usize, die: usize) {
    me[i] -= 1;
    if i < die {
        return;
    }
    let dest = i - die;
    let there = &mut them[23 - dest];
    if *there == 1 {
        *there = 0;
        them[BAR] += 1;
    }
    me[dest] += 1;
}

fn to_step(i: usize, die: usize) -> Step {
    let from = u8::try_from(i + 1).unwrap_or(25);
    let to = if i >= die {
        u8::try_from(i - die + 1).unwrap_or(0)
    } else {
        0
    };
    Step { from, to }
}

/// FNV-1a over the ten key bytes: the keys are tiny and not attacker-chosen
/// in a way that matters (a slow list, never a wrong one), so SipHash's cost
/// buys nothing here.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

struct Search {
    max_steps: usize,
    max_pips: usize,
    found: Vec<(Play, [u8; 10])>,
    seen: HashSet<[u8; 10], BuildHasherDefault<Fnv>>,
    turn: crate::Color,
}

impl Search {
    fn save(&mut self, steps: &[Step], pips: usize, me: &[u8; 25], them: &[u8; 25]) {
        let n = steps.len();
        if n < self.max_steps || pips < self.max_pips {
            return;
        }
        if n > self.max_steps || pips > self.max_pips {
            self.found.clear();
            self.seen.clear();
        }
        self.max_steps = n;
        self.max_pips = pips;
        let key = position_id::key(&Board::from_mine_theirs(*me, *them, self.turn));
        if self.seen.insert(key) {
            self.found.push((Play::from_steps(steps), key));
        }
    }

    /// Plays die `roll[depth]` in every way from index `top` down; returns
    /// whether any step was possible.
    #[allow(clippy::too_many_arguments)]
    fn sub(
        &mut self,
        roll: &[usize; 4],
        depth: usize,
        top: usize,
        pips: usize,
        me: &[u8; 25],
        them: &[u8; 25],
        steps: &mut Vec<Step>,
    ) -> bool {
        if depth > 3 || roll[depth] == 0 {
            return false;
        }
        let die = roll[depth];
        let doubles = roll[0] == roll[1];
        if me[BAR] > 0 {
            // 004 4.2 (i): checkers on the bar enter before any other moves.
            if them[die - 1] >= 2 {
                return false;
            }
            self.descend(roll, depth, BAR, die, 23, pips, me, them, steps);
            return true;
        }
        let mut used = false;
        for i in (0..=top).rev() {
            if me[i] > 0 && legal_step(me, them, i, die) {
                let next_top = if doubles { i } else { 23 };
                self.descend(roll, depth, i, die, next_top, pips, me, them, steps);
                used = true;
            }
        }
        used
    }

    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        roll: &[usize; 4],
        depth: usize,
        i: usize,
        die: usize,
        next_top: usize,
        pips: usize,
        me: &[u8; 25],
        them: &[u8; 25],
        steps: &mut Vec<Step>,
    ) {
        let (mut me2, mut them2) = (*me, *them);
        apply_step(&mut me2, &mut them2, i, die);
        steps.push(to_step(i, die));
        if !self.sub(roll, depth + 1, next_top, pips + die, &me2, &them2, steps) {
            self.save(steps, pips + die, &me2, &them2);
        }
        steps.pop();
    }
}

/// Every legal move of the side on roll for `dice`, each position once (the
/// first way found), in GNU Backgammon's order. Empty when the roll cannot
/// be played at all (a pass).
///
/// ```
/// use tandem_rules::backgammon::{legal_plays, Board, Dice};
/// use tandem_rules::Color;
/// assert_eq!(legal_plays(&Board::start(Color::White), Dice(3, 1)).len(), 16);
/// ```
#[must_use]
pub fn legal_plays(board: &Board, dice: Dice) -> Vec<Play> {
    legal_plays_with_results(board, dice)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// [`legal_plays`] with each move's resulting position key (side that moved
/// not yet swapped: the key is read with the mover still on roll).
#[must_use]
pub(crate) fn legal_plays_with_results(board: &Board, dice: Dice) -> Vec<(Play, [u8; 10])> {
    let (me, them) = board.mine_theirs();
    let mut s = Search {
        max_steps: 0,
        max_pips: 0,
        found: Vec::new(),
        seen: HashSet::default(),
        turn: board.turn(),
    };
    let (a, b) = (usize::from(dice.0), usize::from(dice.1));
    let mut steps = Vec::with_capacity(4);
    if a == b {
        s.sub(&[a, a, a, a], 0, 23, 0, &me, &them, &mut steps);
    } else {
        s.sub(&[a, b, 0, 0], 0, 23, 0, &me, &them, &mut steps);
        s.sub(&[b, a, 0, 0], 0, 23, 0, &me, &them, &mut steps);
    }
    s.found
}

/// Plays `play` on `board` without checking it, and gives the roll to the
/// other side. Steps that make no sense on this board are skipped.
#[must_use]
pub fn apply(board: &Board, play: &Play) -> Board {
    let (mut me, mut them) = board.mine_theirs();
    for s in play.steps() {
        let i = usize::from(s.from) - 1;
        if s.from == 0 || s.from > 25 || me[i.min(24)] == 0 {
            continue;
        }
        let i = i.min(24);
        let die = if s.to == 0 {
            i + 1
        } else {
            i.saturating_sub(usize::from(s.to) - 1)
        };
        if s.to != 0 && usize::from(s.to) > i {
            continue;
        }
        apply_step(&mut me, &mut them, i, die);
    }
    Board::from_mine_theirs(me, them, board.turn()).with_turn(board.turn().other())
}
