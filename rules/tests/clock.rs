//! The clock against the rule books' examples and hand-computed values for
//! every preset. Time is made up (a deterministic time source): no sleeping.

use std::time::Duration;

use tandem_rules::clock::{
    Clock, ClockError, ClockEventKind, GameTime, TimeControl, DEFAULT_WARNINGS, PRESETS,
};
use tandem_rules::Color::{self, Black, White};

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn at(s: u64) -> GameTime {
    GameTime::from_secs(s)
}

fn at_ms(ms: u64) -> GameTime {
    GameTime::from_millis(ms)
}

/// A deterministic time source: the current game time, moved on by hand.
struct Table {
    clock: Clock,
    now: GameTime,
}

impl Table {
    fn new(control: &str) -> Table {
        let tc = TimeControl::lookup(control).unwrap_or_else(|e| panic!("{e}"));
        let mut clock = Clock::new(tc);
        clock.start(GameTime::ZERO).unwrap();
        Table {
            clock,
            now: GameTime::ZERO,
        }
    }

    /// The side to move thinks for `d`, then presses.
    fn moves_in(&mut self, d: Duration) -> tandem_rules::clock::Press {
        self.now = self.now + d;
        self.clock.press(self.now).unwrap()
    }

    fn wait(&mut self, d: Duration) {
        self.now = self.now + d;
    }

    fn remaining(&self, c: Color) -> Duration {
        self.clock.remaining(c, self.now)
    }
}

#[test]
fn code_6_1_2_example_fischer_and_bronstein() {
    // 001 ch. II 6.1.2: "tempo gry 15' + 5". Zawodnik wykonuje posunięcie w
    // ciągu 3 sekund. W systemie Fischera na jego zegarze pozostaje 15:02, w
    // systemie Bronsteina 15:00."
    let mut fischer = Table::new("15' + 5\"");
    fischer.moves_in(secs(3));
    assert_eq!(fischer.remaining(White), secs(15 * 60 + 2));

    let mut bronstein = Table::new("15m+5s:bronstein");
    let press = bronstein.moves_in(secs(3));
    assert_eq!(press.bonus, secs(3), "Bronstein returns only the time used");
    assert_eq!(bronstein.remaining(White), secs(15 * 60));

    // A slower move: both get the full 5 s back.
    let mut fischer = Table::new("15m+5s");
    fischer.moves_in(secs(20));
    assert_eq!(fischer.remaining(White), secs(15 * 60 - 15));
    let mut bronstein = Table::new("15m+5s:bronstein");
    bronstein.moves_in(secs(20));
    assert_eq!(bronstein.remaining(White), secs(15 * 60 - 15));
}

#[test]
fn code_6_1_4_example_saved_time_carries_over() {
    // 001 ch. II 6.1.4: "90 minutach na 45 posunięć a następnie 30 minut ...
    // zawodnik który wykonał 45 posunięć w czasie 70 minut będzie miał do
    // dyspozycji 50 minut (20 zaoszczędzone plus 30 dodane)".
    let mut t = Table::new("90m/45,30m");
    // Uneven moves: 44 moves of 90 s (66 min), then one of 4 min = 70 min.
    for _ in 0..44 {
        t.moves_in(secs(90));
        t.moves_in(secs(30)); // black
    }
    assert_eq!(t.clock.moves_to_control(White), Some(1));
    assert_eq!(t.remaining(White), secs(24 * 60));
    let press = t.moves_in(secs(4 * 60));
    assert!(press.control_reached);
    assert_eq!(press.period_time, secs(30 * 60));
    assert_eq!(t.clock.used(White, t.now), secs(70 * 60));
    assert_eq!(t.remaining(White), secs(50 * 60));
    assert_eq!(t.clock.moves_to_control(White), None);
    // Black has made 44 moves of 30 s: 90 - 22 = 68 min, one move to go.
    assert_eq!(t.remaining(Black), secs(68 * 60));
    assert_eq!(t.clock.moves_to_control(Black), Some(1));
}

/// Both sides take `per_move` seconds for every move; after `white_moves`
/// moves of white (and as many of black, black last), white's time.
struct PresetCase {
    name: &'static str,
    per_move: u64,
    white_moves: u32,
    /// White's remaining seconds after the moves, worked out by hand.
    remaining: u64,
    /// The white move at whose press the flag fell (remaining 0 then).
    flag_at_move: Option<u32>,
}

const fn case(
    name: &'static str,
    per_move: u64,
    white_moves: u32,
    remaining: u64,
    flag_at_move: Option<u32>,
) -> PresetCase {
    PresetCase {
        name,
        per_move,
        white_moves,
        remaining,
        flag_at_move,
    }
}

#[rustfmt::skip]
const PRESET_CASES: &[PresetCase] = &[
    // 80 min + 1 min per move, 90-s moves: -30 s a move, 10 moves: 80:00 - 5:00.
    case("fmjd-basic", 90, 10, 75 * 60, None),
    // 90 min / 45 moves, 100-s moves: 5400 - 4500 = 900, + 1800 = 2700 at move 45;
    // moves 46 and 47 get 30 s each: 2700 - 2 * 70 = 2560.
    case("fmjd-preferred", 100, 47, 2560, None),
    // 2 h / 50, 120-s moves: 7200 - 6000 + 3600 = 4800 at move 50;
    // 25 more: 4800 - 3000 + 3600 = 5400 at move 75; 25 more: 6000 at move 100.
    case("fmjd-classic", 120, 100, 6000, None),
    // Same to move 50 (4800), then no more time: 40 more moves use it all.
    case("fmjd-classic-finish", 120, 90, 0, Some(90)),
    // 90 min, 60 moves of 89 s: 5400 - 5340.
    case("pzwarc-90", 89, 60, 60, None),
    // 60 min + 30 s, 40-s moves: -10 a move, 40 moves: 3600 - 400.
    case("pzwarc-60+30", 40, 40, 3200, None),
    // 60 min, 20 moves of 30 s: 3600 - 600.
    case("64-60", 30, 20, 3000, None),
    // 45 min + 30 s, 20-s moves: +10 a move, 20 moves: 2700 + 200.
    case("64-45+30", 20, 20, 2900, None),
    // 45 min / 25 then 15 min, 100-s moves: 2700 - 2500 + 900 at move 25.
    case("64-45/25+15", 100, 25, 1100, None),
    // 45 min, 90-s moves: the 30th press comes as the time runs out.
    case("64-45", 90, 30, 0, Some(30)),
    // 20 min, 40 moves of 25 s: 1200 - 1000.
    case("rapid-20", 25, 40, 200, None),
    // 10 min + 5 s, 10-s moves: -5 a move, 40 moves: 600 - 200.
    case("rapid-10+5", 10, 40, 400, None),
    // 5 min, 30 moves of 8 s: 300 - 240.
    case("blitz-5", 8, 30, 60, None),
    // 3 min + 3 s, 5-s moves: -2 a move, 50 moves: 180 - 100.
    case("blitz-3+3", 5, 50, 80, None),
    // 10 min, 20 moves of 25 s: 600 - 500.
    case("64-rapid-10", 25, 20, 100, None),
    // 15 min, 20 moves of 40 s: 900 - 800.
    case("64-rapid-15", 40, 20, 100, None),
    // 10 min + 3 s, 6-s moves: -3 a move, 30 moves: 600 - 90.
    case("64-rapid-10+3", 6, 30, 510, None),
    // 3 min, 9-s moves: 20 moves use 180 s, the flag falls at the 20th press.
    case("64-blitz-3", 9, 20, 0, Some(20)),
    // 5 min, 20 moves of 14 s: 300 - 280.
    case("64-blitz-5", 14, 20, 20, None),
    // 3 min + 3 s, 4-s moves: -1 a move, 30 moves: 180 - 30.
    case("64-blitz-3+3", 4, 30, 150, None),
    // 3 min + 2 s Fischer, 1-s moves: +1 a move, 30 moves: 180 + 30.
    case("superblitz", 1, 30, 210, None),
    // 3 min + 2 s Bronstein, 1-s moves: the bonus returns the 1 s used.
    case("superblitz-bronstein", 1, 30, 180, None),
    // 7-point match: 14 min, 12 s delay, 10-s moves never touch the time.
    case("eubgf-7", 10, 30, 840, None),
    // Same, 20-s moves: 8 s a move, 30 moves: 840 - 240.
    case("eubgf-7", 20, 30, 600, None),
    // Resumed at 3-away, 1-away: ((3 + 1) / 2) * 2 min = 4 min; 15-s moves: 240 - 30.
    case("eubgf-away-3-1", 15, 10, 210, None),
];

#[test]
fn every_preset_against_hand_computed_values() {
    for p in PRESETS {
        assert!(
            PRESET_CASES.iter().any(|c| c.name == p.name),
            "no hand-computed case for {}",
            p.name
        );
    }
    for c in PRESET_CASES {
        let mut t = Table::new(c.name);
        let mut flag_press = None;
        for n in 1..=c.white_moves {
            t.moves_in(secs(c.per_move));
            if flag_press.is_none() && t.clock.flag(White, t.now).is_some() {
                flag_press = Some((n, t.now));
            }
            if n < c.white_moves {
                t.moves_in(secs(c.per_move));
            }
        }
        assert_eq!(
            t.remaining(White),
            secs(c.remaining),
            "{}: white's time",
            c.name
        );
        assert_eq!(t.clock.moves_made(White), c.white_moves, "{}", c.name);
        assert_eq!(
            flag_press.map(|(n, _)| n),
            c.flag_at_move,
            "{}: flag",
            c.name
        );
        if let Some((_, when)) = flag_press {
            // The flag fell at the very moment of that press: pressing as the
            // time runs out is too late (001 ch. II 6.12).
            assert_eq!(t.clock.flag(White, t.now), Some(when), "{}", c.name);
        }
        // White used exactly the sum of its move times.
        assert_eq!(
            t.clock.used(White, t.now),
            secs(c.per_move * u64::from(c.white_moves)),
            "{}",
            c.name
        );
        assert!(
            t.clock
                .move_times(White)
                .iter()
                .all(|d| *d == secs(c.per_move)),
            "{}",
            c.name
        );
    }
}

#[test]
fn moves_to_control_and_time_trouble_6_13() {
    // 64-45/25+15: after 24 moves of 100 s white has 300 s, one move to the
    // control: in time trouble (5 minutes or less).
    let mut t = Table::new("64-45/25+15");
    for _ in 0..24 {
        t.moves_in(secs(100));
        t.moves_in(secs(1));
    }
    assert_eq!(t.remaining(White), secs(300));
    assert_eq!(t.clock.moves_to_control(White), Some(1));
    assert!(t.clock.in_time_trouble(White, t.now));
    assert!(!t.clock.in_time_trouble(Black, t.now));
    t.moves_in(secs(100)); // move 25: +15 min
    assert!(!t.clock.in_time_trouble(White, t.now));

    // fmjd-preferred: time trouble possible before move 46, never after it
    // (6.13 does not apply in a phase with a bonus).
    let mut t = Table::new("fmjd-preferred");
    t.moves_in(secs(86 * 60)); // white's first move takes 86 min: 4 min left
    assert!(t.clock.in_time_trouble(White, t.now));
    let r = t.clock.report(t.now);
    assert!(r.white.time_trouble && !r.black.time_trouble);
    for _ in 0..44 {
        t.moves_in(secs(1)); // black
        t.moves_in(secs(1)); // white, reaching move 45: + 30 min
    }
    assert_eq!(t.clock.moves_made(White), 45);
    assert_eq!(t.remaining(White), secs(4 * 60 - 44 + 30 * 60));
    t.moves_in(secs(1));
    // White's 46th move lies ahead: the bonus applies.
    assert!(t.clock.bonus_applies(White));
    let mut t2 = Table::new("3m+2s");
    t2.moves_in(secs(1));
    assert!(
        !t2.clock.in_time_trouble(White, t2.now),
        "Fischer from move 1: never time trouble"
    );
}

#[test]
fn fischer_from_move_46_only() {
    let mut t = Table::new("fmjd-preferred");
    for n in 1..=46 {
        let p = t.moves_in(secs(10));
        assert_eq!(p.move_number, n);
        assert_eq!(
            p.bonus,
            if n == 46 { secs(30) } else { Duration::ZERO },
            "move {n}"
        );
        assert_eq!(p.control_reached, n == 45);
        t.moves_in(secs(10));
    }
}

#[test]
fn bronstein_flag_falls_during_the_move() {
    // With 2 s left and a 5 s Bronstein bonus, a 3-s move is too slow: the
    // flag falls at 2 s, the bonus comes only at the press.
    let mut t = Table::new("1m+5s:bronstein");
    t.moves_in(secs(58)); // 2 s left (+5 back: 7 s)
    assert_eq!(t.remaining(White), secs(7));
    t.moves_in(secs(1));
    let start = t.now;
    let p = t.moves_in(secs(8));
    assert_eq!(
        p.events.last().map(|e| (e.at, e.kind)),
        Some((start + secs(7), ClockEventKind::Flag))
    );
    assert_eq!(p.bonus, Duration::ZERO, "no bonus after the flag fell");
    assert_eq!(t.remaining(White), Duration::ZERO);
}

#[test]
fn simple_delay_eubgf_3_5_v() {
    let mut t = Table::new("eubgf-1"); // 2 min, 12 s delay
    assert_eq!(t.clock.delay_left(t.now), secs(12));
    t.wait(secs(5));
    assert_eq!(t.clock.delay_left(t.now), secs(7));
    assert_eq!(t.remaining(White), secs(120));
    t.wait(secs(10)); // 15 s into the turn: 3 s of own time
    assert_eq!(t.remaining(White), secs(117));
    assert_eq!(t.clock.used(White, t.now), secs(15));
    t.moves_in(Duration::ZERO);
    // Unused delay is lost: a quick move gives nothing back.
    t.moves_in(secs(1));
    assert_eq!(t.remaining(Black), secs(120));
    // The flag falls after delay + remaining.
    let turn = t.now;
    let e = t.clock.next_event(turn).unwrap();
    assert_eq!(e.side, White);
    // Warnings come first: 2 min is not armed (120 s is not more than 2 min),
    // 1 min is, at 12 + (117 - 60) s.
    assert_eq!(
        (e.at, e.kind),
        (turn + secs(12 + 57), ClockEventKind::Warning(secs(60)))
    );
    let mut last = e;
    while let Some(e) = t.clock.next_event(last.at) {
        last = e;
    }
    assert_eq!(
        (last.at, last.kind),
        (turn + secs(12 + 117), ClockEventKind::Flag)
    );
    // Pausing during the delay keeps what is left of it.
    let mut t = Table::new("eubgf-1");
    t.wait(secs(4));
    t.clock.pause(t.now).unwrap();
    t.wait(secs(100));
    t.clock.resume(t.now).unwrap();
    assert_eq!(t.clock.delay_left(t.now), secs(8));
    t.wait(secs(10));
    assert_eq!(t.remaining(White), secs(118));
}

#[test]
fn flag_reported_at_the_moment_it_fell_and_both_flags_ordered() {
    let mut t = Table::new("1m");
    t.moves_in(secs(50)); // white: 10 s left
    t.moves_in(secs(5)); // black: 55 s left
                         // White presses 30 s later: the flag fell 10 s into the move.
    let turn = t.now;
    let p = t.moves_in(secs(30));
    let flags: Vec<_> = p
        .events
        .iter()
        .filter(|e| e.kind == ClockEventKind::Flag)
        .collect();
    assert_eq!(flags.len(), 1);
    assert_eq!((flags[0].side, flags[0].at), (White, turn + secs(10)));
    assert_eq!(t.remaining(White), Duration::ZERO);
    assert_eq!(
        t.clock.used(White, t.now),
        secs(80),
        "used time keeps counting"
    );
    assert_eq!(t.clock.moves_made(White), 2, "the move still counts");
    // Black's flag falls later; the clock knows white's fell first (3.5.5).
    let black_turn = t.now;
    t.moves_in(secs(60));
    assert_eq!(t.clock.flag(Black, t.now), Some(black_turn + secs(55)));
    assert_eq!(t.clock.first_flag(t.now), Some((White, turn + secs(10))));
    // White's flag stays down and its time stays at zero.
    t.moves_in(secs(5));
    assert_eq!(t.remaining(White), Duration::ZERO);
    assert_eq!(t.clock.flag(White, t.now), Some(turn + secs(10)));
    let r = t.clock.report(t.now);
    assert_eq!(
        r.first_flag.map(|f| (f.side, f.at_ms)),
        Some((White, (turn + secs(10)).as_millis()))
    );
}

#[test]
fn flag_is_projected_without_a_press() {
    let mut t = Table::new("blitz-5");
    t.wait(secs(301));
    assert_eq!(t.clock.flag(White, t.now), Some(at(300)));
    assert_eq!(t.remaining(White), Duration::ZERO);
    let events = t.clock.advance(t.now).unwrap();
    assert_eq!(
        events.last().map(|e| (e.at, e.kind)),
        Some((at(300), ClockEventKind::Flag))
    );
    assert!(
        t.clock.advance(t.now).unwrap().is_empty(),
        "each event once"
    );
}

#[test]
fn warnings_once_per_period_in_time_order() {
    let mut t = Table::new("10m/2,10m");
    assert_eq!(t.clock.warnings(), DEFAULT_WARNINGS);
    let events = t.clock.advance(at(9 * 60 + 55)).unwrap();
    let got: Vec<_> = events.iter().map(|e| (e.at, e.kind)).collect();
    assert_eq!(
        got,
        vec![
            (at(5 * 60), ClockEventKind::Warning(secs(300))),
            (at(8 * 60), ClockEventKind::Warning(secs(120))),
            (at(9 * 60), ClockEventKind::Warning(secs(60))),
            (at(9 * 60 + 50), ClockEventKind::Warning(secs(10))),
        ]
    );
    t.now = at(9 * 60 + 55);
    t.moves_in(Duration::ZERO); // white: 5 s left, 1 move to the control
    t.moves_in(secs(1)); // black
    t.moves_in(secs(1)); // white's 2nd move: 4 s + 10 min, warnings re-armed
    t.moves_in(secs(1));
    let turn = t.now;
    assert_eq!(t.remaining(White), secs(604));
    let e = t.clock.next_event(turn).unwrap();
    assert_eq!(
        (e.side, e.at, e.kind),
        (White, turn + secs(304), ClockEventKind::Warning(secs(300)))
    );
    // A custom set; a 3-minute game never warns at 5 minutes.
    let mut clock = Clock::new(TimeControl::lookup("64-blitz-3").unwrap()).with_warnings([
        secs(10),
        secs(300),
        Duration::ZERO,
        secs(10),
    ]);
    assert_eq!(clock.warnings(), [secs(300), secs(10)]);
    clock.start(GameTime::ZERO).unwrap();
    let e = clock.next_event(GameTime::ZERO).unwrap();
    assert_eq!((e.at, e.kind), (at(170), ClockEventKind::Warning(secs(10))));
    let e = clock.next_event(e.at).unwrap();
    assert_eq!((e.at, e.kind), (at(180), ClockEventKind::Flag));
    assert_eq!(clock.next_event(e.at), None);
}

#[test]
fn fischer_does_not_repeat_warnings() {
    let mut t = Table::new("5m10s+3s");
    let p = t.moves_in(secs(2)); // 5:10 - 2 + 3 = 5:11
    assert!(p.events.is_empty());
    t.moves_in(secs(1));
    let p = t.moves_in(secs(15)); // 5:00 reached during the move: warned
    let kinds: Vec<_> = p.events.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [ClockEventKind::Warning(secs(300))]);
    assert_eq!(p.events[0].at, at(2 + 1 + 11));
    assert!(
        t.clock.advance(t.now).unwrap().is_empty(),
        "the press already reported it"
    );
    t.moves_in(secs(1));
    assert_eq!(t.remaining(White), secs(299));
    t.moves_in(secs(1)); // back above 5:00 with the bonus: 5:01
    t.moves_in(secs(1));
    assert_eq!(t.remaining(White), secs(301));
    let e = t.clock.next_event(t.now).unwrap();
    assert_eq!(
        e.kind,
        ClockEventKind::Warning(secs(120)),
        "5 minutes is not said twice"
    );
}

#[test]
fn pause_charges_nobody() {
    let mut t = Table::new("10m");
    t.wait(secs(20));
    t.clock.pause(t.now).unwrap();
    assert!(t.clock.is_paused() && !t.clock.is_running());
    assert_eq!(t.clock.press(t.now + secs(1)), Err(ClockError::Paused));
    assert_eq!(t.clock.pause(t.now), Err(ClockError::Paused));
    assert_eq!(t.clock.next_event(t.now), None);
    t.wait(secs(600)); // the arbiter takes 10 minutes (ch. II 6.17)
    assert_eq!(t.remaining(White), secs(580));
    t.clock.resume(t.now).unwrap();
    assert_eq!(t.clock.resume(t.now), Err(ClockError::NotPaused));
    let p = t.moves_in(secs(10));
    assert_eq!(p.move_time, secs(30));
    assert_eq!(t.remaining(White), secs(570));
    assert_eq!(t.clock.used(White, t.now), secs(30));
    assert_eq!(t.clock.last_move_time(White), Some(secs(30)));
}

#[test]
fn errors_for_misuse() {
    let mut clock = Clock::new(TimeControl::lookup("blitz-5").unwrap());
    assert_eq!(clock.press(at(1)).unwrap_err(), ClockError::NotStarted);
    assert_eq!(clock.pause(at(1)).unwrap_err(), ClockError::NotStarted);
    assert_eq!(clock.resume(at(1)).unwrap_err(), ClockError::NotStarted);
    assert_eq!(
        clock.report(at(5)).white.remaining_ms,
        300_000,
        "a stopped clock does not run"
    );
    clock.start(at(10)).unwrap();
    assert_eq!(clock.start(at(11)), Err(ClockError::AlreadyStarted));
    let err = clock.press(at(9)).unwrap_err();
    assert_eq!(
        err,
        ClockError::TimeWentBackwards {
            last: at(10),
            at: at(9)
        }
    );
    assert_eq!(err.to_string(), "time went backwards: 0:09 is before 0:10");
    // Nothing changed.
    assert_eq!(clock.moves_made(White), 0);
    assert_eq!(clock.side_to_move(), White);
    clock.press(at(12)).unwrap();
    assert_eq!(clock.remaining(White, at(12)), secs(298));
}

#[test]
fn arbiter_adjustments() {
    let mut t = Table::new("fmjd-classic");
    for _ in 0..10 {
        t.moves_in(secs(60));
        t.moves_in(secs(60));
    }
    // Play goes back to the last agreed position: 8 moves each, white to
    // move, times corrected (001 ch. VIII 3.1.2).
    t.clock.set_moves(White, 8, t.now).unwrap();
    t.clock.set_moves(Black, 8, t.now).unwrap();
    t.clock
        .set_remaining(White, secs(7200 - 480), t.now)
        .unwrap();
    t.clock
        .set_remaining(Black, secs(7200 - 480), t.now)
        .unwrap();
    assert_eq!(t.clock.side_to_move(), White);
    assert_eq!(t.clock.moves_to_control(White), Some(42));
    assert_eq!(t.clock.move_times(White).len(), 8);
    // Jump into the repeating period: 80 moves = 50 + 25 + 5.
    t.clock.set_moves(Black, 80, t.now).unwrap();
    assert_eq!(t.clock.moves_to_control(Black), Some(20));
    assert_eq!(t.clock.period(Black), 1);
    // Lifting a flag.
    let mut t = Table::new("blitz-5");
    t.wait(secs(400));
    t.clock.advance(t.now).unwrap();
    assert!(t.clock.flag(White, t.now).is_some());
    t.clock.set_remaining(White, secs(60), t.now).unwrap();
    assert_eq!(t.clock.flag(White, t.now), None);
    assert_eq!(t.remaining(White), secs(60));
    // Setting zero drops the flag now.
    let ev = t.clock.set_remaining(Black, Duration::ZERO, t.now).unwrap();
    assert_eq!(
        ev.last().map(|e| (e.side, e.kind)),
        Some((Black, ClockEventKind::Flag))
    );
    // Turn over to black without a move.
    t.clock.set_turn(Black, t.now).unwrap();
    assert_eq!(t.clock.side_to_move(), Black);
    assert_eq!(t.clock.moves_made(White), 0);
}

#[test]
fn start_with_black() {
    let mut clock = Clock::new(TimeControl::lookup("blitz-5").unwrap());
    clock.start_with(Black, at(0)).unwrap();
    clock.press(at(7)).unwrap();
    assert_eq!(clock.remaining(Black, at(7)), secs(293));
    assert_eq!(clock.side_to_move(), White);
}

#[test]
fn report_is_plain_numbers() {
    let mut t = Table::new("fmjd-preferred");
    t.moves_in(Duration::from_millis(12_345));
    t.wait(secs(3));
    let r = t.clock.report(t.now);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "at_ms": 15_345,
            "control": "90m/45,30m+30s@46",
            "side_to_move": "black",
            "started": true,
            "running": true,
            "thinking_ms": 3000,
            "delay_left_ms": 0,
            "white": {
                "used_ms": 12_345, "remaining_ms": 5_387_655, "moves_made": 1, "moves_to_control": 44,
                "time_trouble": false, "flag_ms": null, "last_move_ms": 12_345, "bonus_applies": false
            },
            "black": {
                "used_ms": 3000, "remaining_ms": 5_397_000, "moves_made": 0, "moves_to_control": 45,
                "time_trouble": false, "flag_ms": null, "last_move_ms": null, "bonus_applies": false
            },
            "first_flag": null
        })
    );
    let back: tandem_rules::ClockReport = serde_json::from_value(json).unwrap();
    assert_eq!(back, r);
    assert_eq!(r.side(Black).used_ms, 3000);
}

#[test]
fn eubgf_3_5_vi_resumed_match() {
    let min = secs(60);
    // ((Pa + Pb) / 2) * Tm with Tm = 2 min.
    for (pa, pb, minutes_x2) in [(7, 7, 28), (3, 1, 8), (3, 4, 14), (1, 1, 4), (11, 2, 26)] {
        let tc = TimeControl::eubgf(pa, pb, 2 * min, secs(12)).unwrap();
        assert_eq!(tc.initial_time() * 2, min * minutes_x2, "{pa}-{pb}");
        assert_eq!(
            TimeControl::preset(&format!("eubgf-away-{pa}-{pb}")),
            Some(tc)
        );
    }
    assert!(TimeControl::eubgf(0, 0, 2 * min, secs(12)).is_err());
}

#[test]
fn millisecond_precision() {
    let mut t = Table::new("3m+2s");
    t.now = at_ms(1_500);
    t.clock.press(t.now).unwrap();
    assert_eq!(t.remaining(White), Duration::from_millis(180_500));
}

/// `none`: a match without a clock (004 3.5 (i) (a)). The clock counts
/// moves and time used, but never warns, never flags, and reads no time left.
#[test]
fn the_control_none_never_warns_or_flags_and_counts_moves() {
    let none = TimeControl::lookup("none").unwrap();
    assert!(none.is_untimed());
    assert_eq!(none.to_string(), "none");
    assert_eq!(none.to_string().parse::<TimeControl>().unwrap(), none);
    let mut clock = Clock::new(none);
    clock.start(GameTime::ZERO).unwrap();
    assert_eq!(clock.next_event(GameTime::ZERO), None);
    // Ten hours on one move: nothing due, no flag, no time trouble.
    let late = GameTime::from_secs(36_000);
    assert!(clock.advance(late).unwrap().is_empty());
    assert_eq!(clock.flag(White, late), None);
    assert!(!clock.in_time_trouble(White, late));
    assert_eq!(clock.remaining(White, late), Duration::ZERO);
    let p = clock.press(late).unwrap();
    assert!(p.events.is_empty());
    assert_eq!(clock.used(White, late), Duration::from_secs(36_000));
    assert_eq!(clock.moves_made(White), 1);
    assert_eq!(clock.side_to_move(), Black);
    // The arbiter's `clock set` has nothing to set.
    assert!(clock
        .set_remaining(Black, Duration::ZERO, late)
        .unwrap()
        .is_empty());
    assert_eq!(clock.first_flag(late), None);
    let r = clock.report(late);
    assert_eq!(r.control, "none");
    assert_eq!(r.first_flag, None);
}
