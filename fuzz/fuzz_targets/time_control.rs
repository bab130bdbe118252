#![no_main]
//! Time-control specs (`--control`, config files, journal start lines): never
//! panic; what parses prints in the strict form, which parses back to the
//! same control and prints the same again; preset lookup never panics.
use libfuzzer_sys::fuzz_target;
use tandem_rules::clock::{Clock, GameTime, TimeControl};
use tandem_rules::Color;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    if let Ok(tc) = s.parse::<TimeControl>() {
        let written = tc.to_string();
        let again: TimeControl = written
            .parse()
            .unwrap_or_else(|e| panic!("{written:?} (from {s:?}) does not parse back: {e}"));
        assert_eq!(again, tc, "{s:?} -> {written:?}");
        assert_eq!(again.to_string(), written);
        // A clock on it starts, runs and reports without panicking.
        let mut c = Clock::new(tc);
        if c.start_with(Color::White, GameTime::ZERO).is_ok() {
            let t = GameTime::from_millis(1_000);
            let _ = c.press(t);
            let _ = c.remaining(Color::White, t);
            let _ = c.next_event(t);
            let _ = c.advance(GameTime::from_millis(100_000_000));
        }
    }
    let _ = TimeControl::lookup(&s);
});
