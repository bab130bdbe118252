//! Property tests of a turn entered a checker step at a time (the braille
//! display's routing keys, `check_steps`): on boards reached by random
//! legal play, every legal move entered die by die is part of a move at each
//! step and that very move at its end; entered a checker path at a time
//! (`24/20` as one step) too; every step's start can be picked; and any
//! list of steps, however wrong, gets an answer without a panic.

use proptest::prelude::*;
use tandem_rules::backgammon::{check_from, check_steps, legal_plays, notation, Step, StepCheck};

mod support;
use support::board_after;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn every_legal_move_entered_step_by_step_is_that_move(seed in any::<u64>(), plies in 0usize..120) {
        let (b, d) = board_after(seed, plies);
        let plays = legal_plays(&b, d);
        if plays.is_empty() {
            let step = [Step { from: 24, to: 23 }];
            let refused = matches!(check_steps(&b, d, &step), StepCheck::Refused(_));
            prop_assert!(refused);
        }
        for p in plays {
            let want = notation::write(&b, &p);
            let steps = p.steps();
            for n in 0..steps.len() {
                prop_assert!(
                    check_from(&b, d, &steps[..n], steps[n].from).is_ok(),
                    "{want}: pick {}", steps[n].from
                );
                if n > 0 {
                        let part = check_steps(&b, d, &steps[..n]);
                    let partial = matches!(part, StepCheck::Partial { .. });
                    prop_assert!(partial, "{}: {} steps {:?} on {:?} {:?}", want, n, part, b, d);
                }
            }
            match check_steps(&b, d, steps) {
                StepCheck::Complete(q) => prop_assert_eq!(notation::write(&b, &q), want.clone()),
                other => prop_assert!(false, "{}: {:?}", want, other),
            }
            // A checker path at a time: gnubg's own paths (`24/21*/20` keeps
            // the point hit), each as one routed step per checker. A path
            // borne off with more dice than it needs (3/2/off with 3-1) is
            // read with fewer first (3/off with the 3): part of a move.
            let mut routed = Vec::new();
            for (chain, count) in notation::paths(&b, &p) {
                for _ in 0..count {
                    for w in chain.windows(2) {
                        routed.push(Step { from: w[0], to: w[1] });
                    }
                }
            }
            match check_steps(&b, d, &routed) {
                StepCheck::Complete(q) => prop_assert_eq!(notation::write(&b, &q), want.clone()),
                StepCheck::Partial { .. } if routed.iter().any(|s| s.to == 0) => {}
                other => prop_assert!(false, "{} as {:?}: {:?}", want, routed, other),
            }
        }
    }

    #[test]
    fn any_steps_get_an_answer(
        seed in any::<u64>(),
        plies in 0usize..80,
        raw in proptest::collection::vec((0u8..40, 0u8..40), 0..6),
    ) {
        let (b, d) = board_after(seed, plies);
        let steps: Vec<Step> = raw.iter().map(|&(from, to)| Step { from, to }).collect();
        let answer = check_steps(&b, d, &steps);
        if let StepCheck::Complete(p) = answer {
            let text = notation::write(&b, &p);
            let legal = legal_plays(&b, d).iter().any(|q| notation::write(&b, q) == text);
            prop_assert!(legal, "{}", text);
        }
        if let Some(s) = steps.first() {
            let _ = check_from(&b, d, &steps[1..], s.from);
        }
    }
}
