//! [`GameTime`]: a moment of the game, as time since it started.

use std::fmt;
use std::ops::Add;
use std::time::Duration;

/// A moment of the game: the time elapsed since the session's time origin
/// (normally the moment the game started).
///
/// The rules crate never reads the system clock: the caller (the daemon, a
/// replay, a test) says what time it is by passing a `GameTime` to every
/// [`Clock`](super::Clock) call. The daemon derives it from a monotonic clock;
/// tests and `tandem clock replay` make it up.
///
/// ```
/// use std::time::Duration;
/// use tandem_rules::clock::GameTime;
/// let t = GameTime::from_secs(90) + Duration::from_millis(500);
/// assert_eq!(t.as_millis(), 90_500);
/// assert_eq!(t.saturating_since(GameTime::from_secs(30)), Duration::from_millis(60_500));
/// assert_eq!(t.to_string(), "1:30.5");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameTime(Duration);

impl GameTime {
    /// The time origin: the start of the game.
    pub const ZERO: GameTime = GameTime(Duration::ZERO);

    /// The moment `since_start` after the origin.
    #[must_use]
    pub const fn from_duration(since_start: Duration) -> GameTime {
        GameTime(since_start)
    }

    /// The moment `secs` seconds after the origin.
    #[must_use]
    pub const fn from_secs(secs: u64) -> GameTime {
        GameTime(Duration::from_secs(secs))
    }

    /// The moment `ms` milliseconds after the origin.
    #[must_use]
    pub const fn from_millis(ms: u64) -> GameTime {
        GameTime(Duration::from_millis(ms))
    }

    /// Time since the origin.
    #[must_use]
    pub const fn since_start(self) -> Duration {
        self.0
    }

    /// Whole milliseconds since the origin (saturating at `u64::MAX`).
    #[must_use]
    pub fn as_millis(self) -> u64 {
        millis(self.0)
    }

    /// Time from `earlier` to `self`, or zero if `earlier` is later.
    #[must_use]
    pub fn saturating_since(self, earlier: GameTime) -> Duration {
        self.0.saturating_sub(earlier.0)
    }

    /// `self + d`, or `None` on overflow.
    #[must_use]
    pub fn checked_add(self, d: Duration) -> Option<GameTime> {
        self.0.checked_add(d).map(GameTime)
    }
}

impl Add<Duration> for GameTime {
    type Output = GameTime;

    /// Saturates at the largest representable time (some 584 billion years)
    /// instead of panicking.
    fn add(self, d: Duration) -> GameTime {
        GameTime(self.0.saturating_add(d))
    }
}

impl From<Duration> for GameTime {
    fn from(d: Duration) -> GameTime {
        GameTime(d)
    }
}

impl fmt::Display for GameTime {
    /// `h:mm:ss`, `m:ss` below an hour, with a fraction of a second only when
    /// there is one (`1:30.5`). For logs; speech words come from the phrasebook.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_clock_face(f, self.0)
    }
}

/// Whole milliseconds of `d`, saturating.
pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Writes `d` as a clock face shows it: `h:mm:ss` or `m:ss`, plus a fraction
/// of a second when there is one.
pub(crate) fn write_clock_face(f: &mut impl fmt::Write, d: Duration) -> fmt::Result {
    let secs = d.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        write!(f, "{h}:{m:02}:{s:02}")?;
    } else {
        write!(f, "{m}:{s:02}")?;
    }
    write_fraction(f, d.subsec_nanos())
}

/// Writes `.ddd` for a non-zero fraction of a second, without trailing zeros.
pub(crate) fn write_fraction(f: &mut impl fmt::Write, nanos: u32) -> fmt::Result {
    if nanos == 0 {
        return Ok(());
    }
    let digits = format!("{nanos:09}");
    write!(f, ".{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_face() {
        assert_eq!(GameTime::ZERO.to_string(), "0:00");
        assert_eq!(GameTime::from_secs(5 * 60).to_string(), "5:00");
        assert_eq!(GameTime::from_secs(2 * 3600 + 61).to_string(), "2:01:01");
        assert_eq!(GameTime::from_millis(1_250).to_string(), "0:01.25");
        assert_eq!(
            GameTime::from_duration(Duration::from_nanos(1)).to_string(),
            "0:00.000000001"
        );
    }

    #[test]
    fn add_saturates() {
        let t = GameTime::from_duration(Duration::MAX) + Duration::from_secs(1);
        assert_eq!(t.since_start(), Duration::MAX);
        assert_eq!(
            GameTime::from_duration(Duration::MAX).checked_add(Duration::from_secs(1)),
            None
        );
        assert_eq!(GameTime::from_duration(Duration::MAX).as_millis(), u64::MAX);
    }
}
