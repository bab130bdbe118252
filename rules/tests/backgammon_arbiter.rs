//! Property tests of the backgammon arbiter (`tandem_rules::backgammon::arbiter`):
//! the fixes of a diff make the second board the first; a match's record
//! (as a journal replays it) and its `.mat` export read back agree turn for
//! turn; one changed roll is found where it is.

use proptest::prelude::*;
use tandem_rules::backgammon::arbiter::{
    apply_fixes, diff_boards, from_match, read_ids, read_mat, reconcile_match, settle, BgFix,
    SpotChange,
};
use tandem_rules::backgammon::{mat, position_id, Action, Board, Dice, Match, MatchOptions, Phase};
use tandem_rules::Color;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }
    fn die(&mut self) -> u8 {
        u8::try_from(self.next() % 6).unwrap() + 1
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
}

/// A match of `length` played at random for at most `actions` actions
/// (cube actions now and then), seeded.
fn random_match(seed: u64, length: u32, actions: usize) -> Match {
    let mut r = Rng(seed | 1);
    let mut m = Match::new(MatchOptions { length });
    for _ in 0..actions {
        let a = match m.phase() {
            Phase::MatchOver => break,
            Phase::Opening => {
                let (a, b) = (r.die(), r.die());
                if a == b {
                    continue;
                }
                Action::Roll(Dice(a, b))
            }
            Phase::Roll => {
                if r.below(8) == 0 && m.clone().act(Action::Double).is_ok() {
                    Action::Double
                } else {
                    Action::Roll(Dice(r.die(), r.die()))
                }
            }
            Phase::DoubleOffered => {
                if r.below(3) == 0 {
                    Action::Pass
                } else {
                    Action::Take
                }
            }
            Phase::Move => {
                let plays = m.legal();
                Action::Move(if plays.is_empty() {
                    tandem_rules::backgammon::Play::PASS
                } else {
                    plays[r.below(plays.len())]
                })
            }
        };
        m.act(a).unwrap();
    }
    m
}

fn board_of(seed: u64, actions: usize) -> Board {
    *random_match(seed, 7, actions).board()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// diff(A, B)'s fixes done on B give A: every point, the bar and the
    /// checkers borne off.
    #[test]
    fn fixes_applied_to_b_give_a(sa in any::<u64>(), sb in any::<u64>(), na in 0usize..120, nb in 0usize..120) {
        let a = board_of(sa, na);
        let b = board_of(sb, nb);
        let changes = diff_boards(&a, &b);
        let fixes: Vec<BgFix> = changes.iter().filter_map(SpotChange::fix).collect();
        let fixed = apply_fixes(&b, &fixes).unwrap();
        prop_assert!(diff_boards(&a, &fixed).is_empty(), "{a:?} {b:?} {changes:?}");
        for side in [Color::White, Color::Black] {
            prop_assert_eq!(fixed.borne_off(side), a.borne_off(side));
        }
        prop_assert_eq!(changes.is_empty(), a.side(Color::White) == b.side(Color::White) && a.side(Color::Black) == b.side(Color::Black));
        // The Position ID read back is the same board.
        let id = position_id::encode(&a);
        prop_assert_eq!(read_ids(&id, a.turn()).unwrap().board, a);
    }

    /// A match's record and its `.mat` export read back agree turn for
    /// turn; a roll changed in one entry is the first difference there.
    #[test]
    fn a_match_and_its_mat_agree_and_a_changed_roll_is_found(seed in any::<u64>(), n in 1usize..160) {
        let m = random_match(seed, 5, n);
        let a = from_match(&m);
        let mut b = read_mat(&mat::export(&m, &mat::Names::default())).unwrap();
        settle(&mut b);
        let r = reconcile_match(5, &a.texts(), &b.texts());
        prop_assert!(r.agree(), "{:?}\n{:?}\n{:?}", a.texts(), b.texts(), r.first_difference);
        prop_assert_eq!(r.agreed_plies, a.entries.len());
        // Change the first roll that is not a double into a double of its larger die.
        let texts = a.texts();
        if let Some(k) = texts.iter().position(|t| {
            let d: Vec<char> = t.split_whitespace().nth(1).unwrap_or("").chars().collect();
            d.len() == 3 && d[2] == ':' && d[0] != d[1] && t.contains('/')
        }) {
            let (side, rest) = texts[k].split_once(' ').unwrap();
            let hi = rest.chars().next().unwrap();
            let mut changed = texts.clone();
            changed[k] = format!("{side} {hi}{hi}{}", &rest[2..]);
            let r = reconcile_match(5, &texts, &changed);
            prop_assert!(!r.agree());
            prop_assert_eq!(r.first_difference.unwrap().ply, k + 1);
        }
    }
}
