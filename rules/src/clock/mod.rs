//! The game clock: time controls of the rule books and a clock that runs them
//! on times passed in.
//!
//! Nothing here reads the system clock. Every call takes a [`GameTime`], the
//! time since the game started, which the caller measures (the daemon, from a
//! monotonic clock) or makes up (tests, `tandem clock replay`).
//!
//! # Time controls
//!
//! A [`TimeControl`] (001 ch. II 6.1, ch. III; EUBGF 3.5) is one or more
//! periods, "N moves in T" (6.1.1), the last running to the end of the game or
//! repeating, plus an optional per-move bonus from a given move on:
//! Fischer (6.1.2.1), Bronstein (6.1.2.2) or simple delay (EUBGF 3.5(v)). Time
//! saved in one period carries to the next (6.1.4). A move counts towards a
//! period when the player presses the clock after completing it.
//!
//! The rule books' controls have names ([`PRESETS`], [`PRESET_FAMILIES`]);
//! any other control has a written form:
//!
//! ```text
//! control  = period *( "," period ) [ bonus ]
//! period   = time [ "/" moves [ "*" ] ]     ; "*": the last period repeats
//! bonus    = "+" time [ "@" move ] [ ":" kind ]
//! kind     = "fischer" | "bronstein" | "delay"   ; default fischer (6.1.3)
//! time     = 1*( number unit )              ; units in the order h, m, s
//! unit     = "h" | "m" | "min" | "'" | "s" | "sec" | DQUOTE
//! number   = 1*DIGIT [ "." 1*9DIGIT ]       ; a fraction on seconds only
//! moves, move = 1*DIGIT                     ; from 1
//! ```
//!
//! - Every period but the last needs `/moves`; the last has none (it runs to
//!   the end of the game) or has `/moves*` (it repeats).
//! - `@move` is the first of the player's own moves that gets the bonus
//!   (default 1). The bonus holds to the end of the game.
//! - Spaces between parts and letter case are free; the canonical form
//!   (`Display`) has no spaces, lower case, whole hours as `h`, other whole
//!   minutes as `m` (`90m`), else minutes and seconds (`1m30.5s`). It parses
//!   back to an equal control.
//!
//! | written | meaning |
//! | --- | --- |
//! | `90m` | 90 minutes for the game |
//! | `80m+1m` | 80 minutes, plus 1 minute per move (Fischer) |
//! | `90m/45,30m+30s@46` | 90 min for 45 moves, then 30 min to the end, 30 s per move from move 46 |
//! | `2h/50,60m/25*` | 2 h for 50 moves, then 1 h for each further 25 moves |
//! | `2h/50,60m` | 2 h for 50 moves, then 1 h to the end |
//! | `3m+2s:bronstein` | 3 minutes, 2 s Bronstein bonus |
//! | `14m+12s:delay` | 14 minutes, 12 s simple delay each move |
//!
//! A wrong spec gets a [`ParseTimeControlError`] that names the wrong part:
//!
//! ```
//! use tandem_rules::clock::TimeControl;
//! let err = "2h/50, 1h/2x".parse::<TimeControl>().unwrap_err();
//! assert_eq!(err.part(), "x");
//! assert_eq!(err.to_string(), r#"time control "2h/50, 1h/2x": unexpected text at "x""#);
//! ```
//!
//! # The clock
//!
//! [`Clock`] runs a control: start, press, pause and resume, the arbiter's
//! adjustments, flag falls with the moment each fell, time trouble (6.13),
//! moves made and to the next control, time used and remaining, per-move
//! times, and [`Clock::next_event`] so a daemon can sleep until the next
//! warning or flag. [`Clock::report`] gives a [`ClockReport`] in plain numbers
//! for the speech layer.
//!
//! ```
//! use std::time::Duration;
//! use tandem_rules::clock::{Clock, GameTime, TimeControl};
//! use tandem_rules::Color::{Black, White};
//! let min = |m: u64| GameTime::from_secs(m * 60);
//! // 001 ch. II 6.1.4: 90 min for 45 moves, then 30 min. White makes 45 moves
//! // in 70 minutes and has 20 + 30 = 50 minutes.
//! let mut clock = Clock::new("90m/45,30m".parse().unwrap());
//! clock.start(GameTime::ZERO).unwrap();
//! let mut t = GameTime::ZERO;
//! for n in 1..=45 {
//!     // White's moves take 70 min in all, black answers at once.
//!     t = if n == 45 { min(70) } else { t + Duration::from_secs(90) };
//!     let press = clock.press(t).unwrap();
//!     assert_eq!(press.control_reached, n == 45);
//!     clock.press(t).unwrap();
//! }
//! assert_eq!(clock.remaining(White, t), Duration::from_secs(50 * 60));
//! assert_eq!(clock.moves_to_control(White), None);
//! assert_eq!(clock.used(Black, t), Duration::ZERO);
//! ```

mod control;
mod preset;
mod report;
mod state;
mod time;

pub use control::{
    Bonus, BonusKind, InvalidTimeControl, ParseReason, ParseTimeControlError, Period, TimeControl,
    MAX_MOVES, MAX_TIME, NONE,
};
pub use preset::{LookupError, Preset, PresetFamily, PRESETS, PRESET_FAMILIES};
pub use report::{ClockReport, FlagReport, SideReport};
pub use state::{
    Clock, ClockError, ClockEvent, ClockEventKind, Press, DEFAULT_WARNINGS, MAX_WARNINGS,
    TIME_TROUBLE,
};
pub use time::GameTime;
