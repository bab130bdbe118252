//! A turn entered one checker at a time (the braille display's routing
//! keys, a checker step after another): is what was entered so far part of
//! a legal move for the roll, a whole legal move, or impossible, and why?
//!
//! A step is one checker going from a point to another (or from the bar,
//! or off) in the mover's numbering; it may use one die or several (`24/20`
//! with 3-1 is one step). Each hop is a die and lands on no closed point;
//! the steps may be entered in any order (a checker borne off before
//! another that the turn's own order bears off first). What counts is the
//! turn as a whole, with the standard rules of play (004 4.2 (i): checkers
//! on the bar enter first; bearing off only with every checker home; both
//! dice if they can be played, the larger if only one can, four for a
//! double as far as they go): the steps so far are part of a legal move
//! when the dice left can finish them into the position of one of the
//! roll's legal moves, and a whole move when nothing can follow and they
//! reach one, resolved as the same text typed would be ([`resolve`]). A
//! refusal names the first step the turn's own order refuses, with the
//! rules' reason.
//!
//! ```
//! use tandem_rules::backgammon::{check_steps, Board, Dice, Step, StepCheck};
//! use tandem_rules::Color;
//! let b = Board::start(Color::White);
//! let step = |from, to| Step { from, to };
//! assert!(matches!(check_steps(&b, Dice(3, 1), &[step(8, 5)]), StepCheck::Partial { .. }));
//! assert!(matches!(check_steps(&b, Dice(3, 1), &[step(8, 5), step(6, 5)]), StepCheck::Complete(_)));
//! assert!(matches!(check_steps(&b, Dice(3, 1), &[step(8, 3)]), StepCheck::Refused(_)));
//! ```

use std::collections::HashSet;

use super::board::{Board, Dice, BAR};
use super::movegen::{apply_step, legal_plays_with_results, legal_step, Play, Step};
use super::position_id;
use super::resolve::{resolve, MoveError};

/// What the steps entered so far make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepCheck {
    /// Part of a legal move, with more to play: the position after the
    /// steps (the mover still on roll) and the dice still to play.
    Partial {
        /// The board after the steps.
        board: Board,
        /// The dice left.
        dice: Vec<u8>,
    },
    /// A whole legal move of the roll.
    Complete(Play),
    /// No legal move goes so; nothing of it counts.
    Refused(MoveError),
}

/// One way of playing the steps so far: both sides' checkers, the dice
/// left and how many blots were hit on the way.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct State {
    me: [u8; 25],
    them: [u8; 25],
    dice: Vec<u8>,
    hits: u8,
}

fn pool(dice: Dice) -> Vec<u8> {
    if dice.is_double() {
        vec![dice.0; 4]
    } else {
        vec![dice.0, dice.1]
    }
}

/// The board index of a point (25, the bar, is [`BAR`]).
fn index(point: u8) -> usize {
    if point >= 25 {
        BAR
    } else {
        usize::from(point.max(1)) - 1
    }
}

/// Every way the checker at index `i` reaches `to` (0 = off) with the dice
/// of `s`, each hop a die.
///
/// `strict`: each hop a legal step as the turn is played (004 4.2 (i):
/// nothing moves while a checker is on the bar; bearing off only with
/// every checker home, a larger die only from the highest point). Loose:
/// only the dice and the closed points count, so the steps may be entered
/// in any order (`13/off` before `4/off` with 5-5, a checker entered and
/// moved on before the other enters): the turn as a whole is then held to
/// the legal moves, whose positions the steps must lead to.
fn hop(s: &State, i: usize, to: u8, strict: bool, out: &mut Vec<State>) {
    for (k, die) in distinct_dice(&s.dice) {
        if s.me[i] == 0 || (strict && s.me[BAR] > 0 && i != BAR) {
            return;
        }
        let ok = if strict {
            legal_step(&s.me, &s.them, i, die)
        } else {
            i < die || s.them[23 - (i - die)] < 2
        };
        if !ok {
            continue;
        }
        // The point landed on (0: borne off).
        let land = if i >= die { i - die + 1 } else { 0 };
        if land < usize::from(to) {
            continue;
        }
        let mut n = stepped(s, k, i, die);
        if n.them[BAR] > s.them[BAR] {
            n.hits += 1;
        }
        if land == usize::from(to) {
            out.push(n);
        } else {
            hop(&n, land - 1, to, strict, out);
        }
    }
}

/// The ways of playing `steps` from `start`; or the index of the first step
/// no way plays, with the ways of playing the steps before it.
fn realize(start: State, steps: &[Step], strict: bool) -> Result<Vec<State>, (usize, Vec<State>)> {
    let mut states = vec![start];
    for (k, &s) in steps.iter().enumerate() {
        let mut next = Vec::new();
        for st in &states {
            hop(st, index(s.from), s.to, strict, &mut next);
        }
        let mut seen = HashSet::new();
        next.retain(|st| {
            let mut d = st.dice.clone();
            d.sort_unstable();
            seen.insert((st.me, st.them, d))
        });
        if next.is_empty() {
            return Err((k, states));
        }
        states = next;
    }
    Ok(states)
}

/// The most dice still playable from `s`, and whether one way of playing
/// them reaches a legal move's position (`keys`).
fn more(s: &State, keys: &HashSet<[u8; 10]>, board: &Board) -> (usize, bool) {
    let key = position_id::key(&Board::from_mine_theirs(s.me, s.them, board.turn()));
    let mut best = (0, keys.contains(&key));
    if best.1 {
        return best;
    }
    for n in next_states(s) {
        let (m, ok) = more(&n, keys, board);
        if ok {
            return (m + 1, true);
        }
        best.0 = best.0.max(m + 1);
    }
    best
}

/// Whether one more die step from `s` (any checker) leads on to a legal
/// move's position.
fn continues(s: &State, keys: &HashSet<[u8; 10]>, board: &Board) -> bool {
    next_states(s).any(|n| more(&n, keys, board).1)
}

/// Each die of `dice` once, by value (a double's four dice are one): its
/// index and its pips.
fn distinct_dice(dice: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    dice.iter()
        .enumerate()
        .filter(|&(k, d)| !dice[..k].contains(d))
        .map(|(k, &d)| (k, usize::from(d)))
}

/// `s` after die `k` (`die` pips) moves the checker on point index `i`.
fn stepped(s: &State, k: usize, i: usize, die: usize) -> State {
    let mut n = s.clone();
    n.dice.remove(k);
    apply_step(&mut n.me, &mut n.them, i, die);
    n
}

/// Every state one legal die step from `s` (each distinct die, each checker
/// from the bar or the farthest point first), made as they are asked for.
fn next_states(s: &State) -> impl Iterator<Item = State> + '_ {
    distinct_dice(&s.dice).flat_map(move |(k, die)| {
        (0..25)
            .rev()
            .filter(move |&i| {
                !(s.me[i] == 0
                    || (s.me[BAR] > 0 && i != BAR)
                    || !legal_step(&s.me, &s.them, i, die))
            })
            .map(move |i| stepped(s, k, i, die))
    })
}

/// The steps as a move text (`13/8 8/5`, `bar/22`, `6/off`).
#[must_use]
pub fn steps_text(steps: &[Step]) -> String {
    let name = |p: u8| match p {
        25 => "bar".to_owned(),
        0 => "off".to_owned(),
        p => p.to_string(),
    };
    steps
        .iter()
        .map(|s| format!("{}/{}", name(s.from), name(s.to)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why the step `s` cannot be played in any of `states` (the ways of
/// playing the steps before it).
fn why(states: &[State], s: Step) -> MoveError {
    let st = &states[0];
    let i = index(s.from);
    if states.iter().all(|st| st.me[i] == 0) {
        return MoveError::NoChecker { point: s.from };
    }
    if st.me[BAR] > 0 && s.from != 25 {
        return MoveError::MustEnterFirst { on_bar: st.me[BAR] };
    }
    if s.to == 0 {
        // Every other checker must be home (004: the standard rules).
        let away = |st: &State| st.me[6..].iter().sum::<u8>() - u8::from(i >= 6);
        if states.iter().all(|st| away(st) > 0) {
            return MoveError::CannotBearOffYet;
        }
    }
    let need = s.from - s.to;
    let fits = |dice: &[u8]| {
        (1u32..(1 << dice.len())).any(|mask| {
            let pick: Vec<u8> = (0..dice.len())
                .filter(|b| mask & (1 << b) != 0)
                .map(|b| dice[b])
                .collect();
            let sum: u8 = pick.iter().sum();
            let max = pick.iter().copied().max().unwrap_or(0);
            sum == need || (s.to == 0 && sum > need && sum - max < need)
        })
    };
    if !states.iter().any(|st| fits(&st.dice)) {
        return MoveError::NotRolled {
            from: s.from,
            to: s.to,
        };
    }
    let closed = |st: &State, p: u8| (1..=24).contains(&p) && st.them[24 - usize::from(p)] >= 2;
    if closed(st, s.to) {
        return MoveError::Blocked { point: s.to };
    }
    for &d in &st.dice {
        if let Some(mid) = s.from.checked_sub(d).filter(|&m| m > s.to) {
            if closed(st, mid) {
                return MoveError::Blocked { point: mid };
            }
        }
    }
    MoveError::NotLegal
}

/// Whether the steps so far (in the mover's numbering: 25 the bar, 0 off)
/// are part of a legal move for `dice`, a whole one, or impossible (why).
#[must_use]
pub fn check_steps(board: &Board, dice: Dice, steps: &[Step]) -> StepCheck {
    let legal = legal_plays_with_results(board, dice);
    if legal.is_empty() {
        return StepCheck::Refused(MoveError::NoLegalMove);
    }
    if steps.is_empty() {
        return StepCheck::Partial {
            board: *board,
            dice: pool(dice),
        };
    }
    if steps
        .iter()
        .any(|s| s.from == 0 || s.from > 25 || s.to >= s.from || s.to > 24)
    {
        return StepCheck::Refused(MoveError::NotLegal);
    }
    let (me, them) = board.mine_theirs();
    let start = State {
        me,
        them,
        dice: pool(dice),
        hits: 0,
    };
    let states = match realize(start.clone(), steps, false) {
        Ok(states) => states,
        Err((k, before)) => return StepCheck::Refused(why(&before, steps[k])),
    };
    let keys: HashSet<[u8; 10]> = legal.iter().map(|(_, k)| *k).collect();
    let reach: Vec<(usize, bool)> = states.iter().map(|st| more(st, &keys, board)).collect();
    let whole = states.iter().any(|st| {
        keys.contains(&position_id::key(&Board::from_mine_theirs(
            st.me,
            st.them,
            board.turn(),
        )))
    });
    let open = states
        .iter()
        .filter(|st| continues(st, &keys, board))
        .min_by_key(|st| st.hits);
    // Part of a move first: when dice are left that still lead on to a
    // legal move, the steps are part of one, even if their position is
    // also a legal move's (bearing off: 3/off with the 3 of 3-1 reaches the
    // position of 3/2/off, and 1/off may follow); so a move is played only
    // when nothing can follow.
    if let Some(st) = open {
        return StepCheck::Partial {
            board: Board::from_mine_theirs(st.me, st.them, board.turn()),
            dice: st.dice.clone(),
        };
    }
    if whole {
        // A whole move: the same text typed names it (or says which).
        match resolve(board, dice, &steps_text(steps)) {
            Ok(p) => return StepCheck::Complete(p),
            Err(e) => return StepCheck::Refused(e),
        }
    }
    // Played so, the roll cannot be finished into a legal move: the dice
    // that could have been played are not (both dice, the larger one, all
    // four of a double as far as they go).
    // The first step the turn's own order refuses says why (the bar first,
    // bearing off before all are home, a larger die from a lower point).
    if let Err((k, before)) = realize(start, steps, true) {
        return StepCheck::Refused(why(&before, steps[k]));
    }
    let possible = legal.first().map_or(0, |(p, _)| p.steps().len());
    let (best, played) = states
        .iter()
        .zip(&reach)
        .map(|(st, (m, _))| (st, pool(dice).len() - st.dice.len() + m))
        .max_by_key(|(_, n)| *n)
        .map_or((None, 0), |(st, n)| (Some(st), n));
    let e = if dice.is_double() {
        MoveError::MustUseMoreDice {
            used: u8::try_from(played).unwrap_or(0),
            possible: u8::try_from(possible).unwrap_or(0),
        }
    } else if possible == 2 {
        MoveError::MustUseBothDice {
            unused: best
                .and_then(|st| st.dice.first().copied())
                .unwrap_or(dice.0),
        }
    } else if possible == 1 {
        MoveError::MustPlayLarger {
            larger: dice.0.max(dice.1),
        }
    } else {
        MoveError::NotLegal
    };
    StepCheck::Refused(e)
}

/// Whether a checker may be picked up from `from` after `steps` (all part
/// of a legal move): `Ok` if some destination makes a legal step, else the
/// reason (no checker there, the bar first, a closed point).
///
/// # Errors
/// No legal step starts at `from`.
pub fn check_from(board: &Board, dice: Dice, steps: &[Step], from: u8) -> Result<(), MoveError> {
    let mut first = None;
    for to in (0..from.min(25)).rev() {
        let mut all = steps.to_vec();
        all.push(Step { from, to });
        match check_steps(board, dice, &all) {
            StepCheck::Refused(e) => {
                // The reason of the first die's destination (`from` less the die).
                let by_die = dice.0.max(dice.1);
                if first.is_none()
                    || matches!(
                        e,
                        MoveError::MustEnterFirst { .. } | MoveError::NoChecker { .. }
                    )
                    || from.saturating_sub(by_die) == to
                {
                    first = Some(e);
                }
            }
            _ => return Ok(()),
        }
    }
    Err(first.unwrap_or(MoveError::NotLegal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::notation;
    use crate::Color;

    fn step(from: u8, to: u8) -> Step {
        Step { from, to }
    }

    fn start() -> Board {
        Board::start(Color::White)
    }

    #[test]
    fn an_opening_31_step_by_step() {
        let b = start();
        let d = Dice(3, 1);
        let StepCheck::Partial { board, dice } = check_steps(&b, d, &[step(8, 5)]) else {
            panic!()
        };
        assert_eq!(board.count(Color::White, 5), 1);
        assert_eq!(board.count(Color::White, 8), 2);
        assert_eq!(dice, vec![1]);
        let StepCheck::Complete(p) = check_steps(&b, d, &[step(8, 5), step(6, 5)]) else {
            panic!()
        };
        assert_eq!(notation::write(&b, &p), "8/5 6/5");
        // One checker with both dice, through either point.
        let StepCheck::Complete(p) = check_steps(&b, d, &[step(24, 20)]) else {
            panic!()
        };
        assert_eq!(notation::write(&b, &p), "24/20");
        // Through 21 then on: two steps of the same checker.
        assert!(matches!(
            check_steps(&b, d, &[step(24, 21), step(21, 20)]),
            StepCheck::Complete(_)
        ));
    }

    #[test]
    fn refusals_say_why() {
        let b = start();
        let d = Dice(3, 1);
        let refused = |steps: &[Step]| match check_steps(&b, d, steps) {
            StepCheck::Refused(e) => e,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(&[step(7, 4)]), MoveError::NoChecker { point: 7 });
        assert_eq!(
            refused(&[step(8, 3)]),
            MoveError::NotRolled { from: 8, to: 3 }
        );
        // White's 24 to 18 is 6 away; 24 to 21: black holds nothing there, fine;
        // 13 to 12 lands on black's 13-point (five checkers).
        assert_eq!(refused(&[step(13, 12)]), MoveError::Blocked { point: 12 });
        assert_eq!(refused(&[step(6, 0)]), MoveError::CannotBearOffYet);
        assert_eq!(
            refused(&[step(8, 5), step(8, 5)]),
            MoveError::NotRolled { from: 8, to: 5 }
        );
        assert_eq!(refused(&[step(5, 8)]), MoveError::NotLegal);
        // 6-1: 13/12 with the 1 first is blocked; 8/7 then the 6 must still go.
        let d61 = Dice(6, 1);
        assert!(matches!(
            check_steps(&b, d61, &[step(8, 7)]),
            StepCheck::Partial { .. }
        ));
    }

    #[test]
    fn the_bar_enters_first_and_a_dance_is_refused() {
        // White: one on the bar, the rest home; black holds white's 19-24 but 20.
        let mut white = [0u8; 25];
        white[BAR] = 1;
        white[5] = 14;
        let mut black = [0u8; 25];
        for p in [1u8, 3, 4, 5, 6] {
            black[usize::from(p) - 1] = 2;
        }
        black[22] = 5;
        let b = Board::from_sides(white, black, Color::White).unwrap();
        // Black's 2-point (white's 23) is open: white enters with a 2.
        let e = |steps: &[Step]| check_steps(&b, Dice(2, 1), steps);
        assert!(matches!(e(&[step(25, 23)]), StepCheck::Partial { .. }));
        // The turn as a whole enters first: 6/5 may be entered before bar/23…
        assert!(matches!(e(&[step(6, 5)]), StepCheck::Partial { .. }));
        assert!(matches!(
            e(&[step(6, 5), step(25, 23)]),
            StepCheck::Complete(_)
        ));
        // …but 6/4 takes the 2 the entry needs.
        assert_eq!(
            e(&[step(6, 4)]),
            StepCheck::Refused(MoveError::MustEnterFirst { on_bar: 1 })
        );
        assert_eq!(
            e(&[step(25, 24)]),
            StepCheck::Refused(MoveError::Blocked { point: 24 })
        );
        assert_eq!(check_from(&b, Dice(2, 1), &[], 6), Ok(()));
        assert_eq!(
            check_from(&b, Dice(2, 1), &[], 1),
            Err(MoveError::NoChecker { point: 1 })
        );
        assert_eq!(check_from(&b, Dice(2, 1), &[], 25), Ok(()));
        // 6-6 cannot enter at all (black holds white's 19).
        let mut black2 = [0u8; 25];
        black2[..6].fill(2);
        black2[22] = 3;
        let closed = Board::from_sides(white, black2, Color::White).unwrap();
        assert_eq!(
            check_steps(&closed, Dice(6, 6), &[step(25, 19)]),
            StepCheck::Refused(MoveError::NoLegalMove)
        );
    }

    #[test]
    fn only_one_die_playable_must_be_the_larger() {
        // White: one checker on 13, black holds white's 7 and 10 (black's
        // 18 and 15) but not 12 or 9... 13/7 (6) blocked, 13/10 (3) blocked:
        // with 6-1: 13/12 then 12/6 is open, so both dice play.
        let mut white = [0u8; 25];
        white[12] = 1;
        white[0] = 14;
        let mut black = [0u8; 25];
        black[24 - 7] = 2; // white's 7
        black[24 - 6] = 2; // white's 6
        black[0] = 11;
        let b = Board::from_sides(white, black, Color::White).unwrap();
        // 6-1: 13/7 is closed, 13/12/6 too: only the 1 can be played by the 13,
        // and 1/off is not allowed (13 is away): a one-die roll, the 1.
        let legal = legal_plays_with_results(&b, Dice(6, 1));
        assert!(!legal.is_empty());
        let d = Dice(6, 1);
        assert!(matches!(
            check_steps(&b, d, &[step(13, 12)]),
            StepCheck::Complete(_)
        ));
    }

    #[test]
    fn doubles_take_four_steps() {
        let b = start();
        let d = Dice(6, 6);
        let s = [step(24, 18), step(24, 18), step(13, 7), step(13, 7)];
        for n in 1..4 {
            assert!(
                matches!(check_steps(&b, d, &s[..n]), StepCheck::Partial { .. }),
                "{n}"
            );
        }
        let StepCheck::Complete(p) = check_steps(&b, d, &s) else {
            panic!()
        };
        assert_eq!(notation::write(&b, &p), "24/18(2) 13/7(2)");
        assert!(matches!(
            check_steps(&b, d, &[step(24, 18)]),
            StepCheck::Partial { ref dice, .. } if dice.len() == 3
        ));
        // One checker 13 to 1 in two sixes is one step, onto black's 24-point.
        assert_eq!(
            check_steps(&b, d, &[step(13, 1)]),
            StepCheck::Refused(MoveError::Blocked { point: 1 })
        );
    }

    #[test]
    fn every_legal_move_entered_step_by_step_is_complete_at_its_end() {
        // Each legal move of a few rolls, entered one die-step at a time:
        // every prefix is part of a move and the whole is that move.
        let b = start();
        for d in [Dice(3, 1), Dice(6, 5), Dice(4, 4), Dice(2, 1)] {
            for (p, _) in legal_plays_with_results(&b, d) {
                let steps = p.steps();
                for n in 1..steps.len() {
                    assert!(
                        matches!(check_steps(&b, d, &steps[..n]), StepCheck::Partial { .. }),
                        "{d:?} {p:?} {n}"
                    );
                }
                match check_steps(&b, d, steps) {
                    StepCheck::Complete(q) => {
                        assert_eq!(notation::write(&b, &q), notation::write(&b, &p));
                    }
                    other => panic!("{d:?} {p:?}: {other:?}"),
                }
            }
        }
    }
}
