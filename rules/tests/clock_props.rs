//! Property tests for the clock, with made-up time (no sleeping): the clock
//! agrees with a plain signed-arithmetic model of the rules, its time never
//! goes below zero except as a flag, `next_event` predicts the flag exactly,
//! and every control's written form parses back to itself.

use std::time::Duration;

use proptest::prelude::*;
use tandem_rules::clock::{Bonus, BonusKind, Clock, ClockEventKind, GameTime, Period, TimeControl};
use tandem_rules::Color::{self, Black, White};

fn arb_time(max_secs: u64) -> impl Strategy<Value = Duration> {
    prop_oneof![
        3 => (1..=max_secs).prop_map(Duration::from_secs),
        1 => (1..=max_secs * 1000).prop_map(Duration::from_millis),
    ]
}

prop_compose! {
    fn arb_bonus()(kind in prop_oneof![Just(BonusKind::Fischer), Just(BonusKind::Bronstein), Just(BonusKind::Delay)],
                   amount in arb_time(60),
                   from_move in prop_oneof![3 => Just(1u32), 1 => 1u32..60]) -> Bonus {
        Bonus { kind, amount, from_move }
    }
}

prop_compose! {
    fn arb_control()(first in arb_time(3 * 3600),
                     middle in prop::collection::vec((prop_oneof![Just(Duration::ZERO), arb_time(3600)], 1u32..40), 0..3),
                     first_moves in 1u32..40,
                     last in prop::option::of((arb_time(3600), 1u32..40, any::<bool>())),
                     bonus in prop::option::of(arb_bonus())) -> TimeControl {
        // periods: first, the middle ones, and a last one that runs to the
        // end or repeats; or a single period for the game.
        let mut periods = Vec::new();
        let repeat;
        match last {
            None if middle.is_empty() => {
                periods.push(Period { time: first, moves: None });
                repeat = false;
            }
            last => {
                periods.push(Period { time: first, moves: Some(first_moves) });
                periods.extend(middle.iter().map(|&(time, m)| Period { time, moves: Some(m) }));
                match last {
                    Some((time, m, true)) => { periods.push(Period { time, moves: Some(m) }); repeat = true; }
                    Some((time, _, false)) => { periods.push(Period { time, moves: None }); repeat = false; }
                    None => { periods.push(Period { time: Duration::from_secs(600), moves: None }); repeat = false; }
                }
            }
        }
        TimeControl::new(periods, repeat, bonus).expect("generated controls are valid")
    }
}

/// What happens at the table: a turn with `think` ms of running time, and
/// optionally a pause of `pause` ms after `pause_after` ms of it.
#[derive(Debug, Clone)]
struct Turn {
    think: u64,
    pause: Option<(u64, u64)>,
}

fn arb_turns() -> impl Strategy<Value = Vec<Turn>> {
    let turn = (
        prop_oneof![4 => 0u64..120_000, 1 => 0u64..900_000],
        prop::option::of((0u64..=100, 0u64..600_000)),
    )
        .prop_map(|(think, pause)| Turn {
            think,
            pause: pause.map(|(pct, len)| (think * pct / 100, len)),
        });
    prop::collection::vec(turn, 0..120)
}

/// The rules in plain signed nanoseconds, turn by turn.
#[derive(Debug, Clone, Default)]
struct ModelSide {
    remaining: i128,
    used: i128,
    moves: u32,
    period: usize,
    period_moves: u32,
    flag: Option<i128>,
}

const NS: i128 = 1_000_000;

fn ns(d: Duration) -> i128 {
    d.as_nanos() as i128
}

fn model_turn(tc: &TimeControl, s: &mut ModelSide, start: i128, turn: &Turn) {
    let think = i128::from(turn.think) * NS;
    let n = s.moves + 1;
    let delay = match tc.bonus() {
        Some(b) if b.kind == BonusKind::Delay && n >= b.from_move => ns(b.amount),
        _ => 0,
    };
    // Wall time at which `r` of running time has passed.
    let wall = |r: i128| match turn.pause {
        Some((after, len)) if r > i128::from(after) * NS => start + r + i128::from(len) * NS,
        _ => start + r,
    };
    if s.flag.is_none() {
        let budget = delay + s.remaining;
        if think >= budget {
            s.flag = Some(wall(budget));
        }
    }
    s.used += think;
    s.moves = n;
    if s.flag.is_some() {
        s.remaining = 0;
    } else {
        s.remaining -= (think - delay).max(0);
        if let Some(b) = tc.bonus().filter(|b| n >= b.from_move) {
            s.remaining += match b.kind {
                BonusKind::Fischer => ns(b.amount),
                BonusKind::Bronstein => ns(b.amount).min(think),
                _ => 0,
            };
        }
    }
    s.period_moves += 1;
    if tc.periods()[s.period].moves == Some(s.period_moves) {
        let next = if s.period + 1 < tc.periods().len() {
            s.period + 1
        } else {
            s.period
        };
        s.period = next;
        s.period_moves = 0;
        if s.flag.is_none() {
            s.remaining += ns(tc.periods()[next].time);
        }
    }
}

fn gt(t: i128) -> GameTime {
    GameTime::from_duration(Duration::from_nanos(t as u64))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn clock_agrees_with_the_model(tc in arb_control(), turns in arb_turns()) {
        let mut clock = Clock::new(tc.clone());
        clock.start(GameTime::ZERO).unwrap();
        let mut model = [ModelSide { remaining: ns(tc.initial_time()), ..Default::default() }, ModelSide { remaining: ns(tc.initial_time()), ..Default::default() }];
        let mut now: i128 = 0;
        let mut side = White;
        let mut events = Vec::new();
        for turn in &turns {
            let start = now;
            if let Some((after, len)) = turn.pause {
                events.extend(clock.pause(gt(start + i128::from(after) * NS)).unwrap());
                clock.resume(gt(start + i128::from(after + len) * NS)).unwrap();
                now += i128::from(len) * NS;
            }
            now += i128::from(turn.think) * NS;
            let press = clock.press(gt(now)).unwrap();
            prop_assert_eq!(press.side, side);
            prop_assert_eq!(press.move_time, Duration::from_millis(turn.think));
            events.extend(press.events);
            let i = usize::from(side == Black);
            model_turn(&tc, &mut model[i], start, turn);
            for (c, m) in [(White, &model[0]), (Black, &model[1])] {
                let remaining = clock.remaining(c, gt(now));
                // Never below zero except as a flag, and zero only as a flag.
                prop_assert!(m.remaining > 0 || m.flag.is_some(), "model {:?}", m);
                prop_assert_eq!(remaining.is_zero(), m.flag.is_some());
                prop_assert_eq!(ns(remaining), m.remaining.max(0), "{} after {} moves", c, m.moves);
                prop_assert_eq!(clock.flag(c, gt(now)).map(|t| ns(t.since_start())), m.flag);
                prop_assert_eq!(ns(clock.used(c, gt(now))), m.used);
                prop_assert_eq!(clock.moves_made(c), m.moves);
                let expected_to_control = tc.periods()[m.period].moves.map(|k| k - m.period_moves);
                prop_assert_eq!(clock.moves_to_control(c), expected_to_control);
            }
            side = side.other();
        }
        // Events come in time order, each flag once, at the model's moment.
        prop_assert!(events.windows(2).all(|w| w[0].at <= w[1].at));
        for c in [White, Black] {
            let flags: Vec<_> = events.iter().filter(|e| e.side == c && e.kind == ClockEventKind::Flag).map(|e| ns(e.at.since_start())).collect();
            let i = usize::from(c == Black);
            prop_assert_eq!(flags, model[i].flag.into_iter().collect::<Vec<_>>());
        }
        let first = [White, Black].into_iter().filter_map(|c| model[usize::from(c == Black)].flag.map(|t| (t, c))).min();
        prop_assert_eq!(clock.first_flag(gt(now)).map(|(c, t)| (ns(t.since_start()), c)), first);
    }

    #[test]
    fn next_event_predicts_the_flag_exactly(tc in arb_control(), turns in prop::collection::vec(0u64..60_000, 0..40)) {
        let mut clock = Clock::new(tc);
        clock.start(GameTime::ZERO).unwrap();
        let mut now = GameTime::ZERO;
        for ms in turns {
            now = now + Duration::from_millis(ms);
            clock.press(now).unwrap();
        }
        let side = clock.side_to_move();
        // Walk the predicted events of this turn; each is reported by
        // advance exactly at its moment, not a nanosecond before.
        let mut cursor = now;
        let mut saw_flag = clock.flag(side, now).is_some();
        while let Some(e) = clock.next_event(cursor) {
            prop_assert!(e.at > cursor);
            prop_assert_eq!(e.side, side);
            let just_before = GameTime::from_duration(e.at.since_start() - Duration::from_nanos(1));
            let early = clock.advance(just_before.max(cursor)).unwrap();
            prop_assert!(!early.contains(&e), "{:?} reported early", e);
            let due = clock.advance(e.at).unwrap();
            prop_assert!(due.contains(&e), "{:?} not reported at its time: {:?}", e, due);
            if e.kind == ClockEventKind::Flag {
                prop_assert_eq!(clock.flag(side, e.at), Some(e.at));
                prop_assert_eq!(clock.remaining(side, e.at), Duration::ZERO);
                saw_flag = true;
            } else {
                prop_assert!(clock.remaining(side, e.at) > Duration::ZERO);
            }
            cursor = e.at;
        }
        prop_assert!(saw_flag, "a running clock always ends in a flag");
    }

    #[test]
    fn written_form_round_trips(tc in arb_control()) {
        let written = tc.to_string();
        let back: TimeControl = written.parse().map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(&back, &tc, "{}", written);
        prop_assert_eq!(back.to_string(), written);
    }

    #[test]
    fn parsing_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<TimeControl>();
        let _ = TimeControl::lookup(&s);
    }

    #[test]
    fn parsing_near_miss_never_panics(s in "[0-9hms'\" /,*+@:.a-z-]{0,30}") {
        match s.parse::<TimeControl>() {
            Ok(tc) => prop_assert_eq!(tc.to_string().parse::<TimeControl>().ok(), Some(tc)),
            Err(e) => prop_assert!(s.get(e.span()).is_some(), "span {:?} of {:?}", e.span(), s),
        }
    }
}

#[test]
fn model_sanity() {
    // The model itself on the 6.1.2 example, so a wrong model cannot hide.
    let tc: TimeControl = "15m+5s".parse().unwrap();
    let mut s = ModelSide {
        remaining: ns(tc.initial_time()),
        ..Default::default()
    };
    model_turn(
        &tc,
        &mut s,
        0,
        &Turn {
            think: 3000,
            pause: None,
        },
    );
    assert_eq!(s.remaining, ns(Duration::from_secs(15 * 60 + 2)));
    let _: Color = White;
}
