//! When the desk witnesses a table's journal (docs/hall.md, "Witnessed
//! journals"): the desk signs the head of the copy it holds and sends it
//! back (`desk/witness/N`); the table's relay writes it into the journal as
//! a `witness` line, which comes back to the desk as a line like any other.
//!
//! The cadence, per table: a head is witnessed only when the copy advanced
//! past lines that are not witness lines (a witness line alone never makes
//! another: no loop), at once for the first, then at most once per period
//! (`TANDEM_HALL_WITNESS_MS`, 10 s by default); a head that comes within the
//! period waits for its end (the once-a-second check sends it), and the
//! latest head is the one signed. A head whose lines end the game (its
//! `result`) is witnessed at once, whatever the period.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The head of a table's copy: its game, its last line and that line's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The game (the hash of line 1).
    pub game: String,
    /// The last line held.
    pub line: u64,
    /// Its hash.
    pub hash: String,
}

#[derive(Debug, Default)]
struct PerTable {
    /// When the last witness was sent.
    sent: Option<Instant>,
    /// The last line witnessed, and of which game.
    witnessed: Option<(String, u64)>,
    /// A head to witness once the period is over.
    pending: Option<Head>,
}

/// The desk's witnessing of every table.
#[derive(Debug)]
pub struct Cadence {
    period: Duration,
    tables: HashMap<u32, PerTable>,
}

/// The period by default.
pub const PERIOD: Duration = Duration::from_secs(10);

impl Cadence {
    /// With the period from `TANDEM_HALL_WITNESS_MS`, else [`PERIOD`].
    #[must_use]
    pub fn from_env() -> Cadence {
        let period = std::env::var("TANDEM_HALL_WITNESS_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(PERIOD, Duration::from_millis);
        Cadence {
            period,
            tables: HashMap::new(),
        }
    }

    /// Table `n`'s copy now ends at `head`, whose line is a witness line or
    /// not: the head to witness now, if any. `ends`: the lines just taken
    /// end the game (its result): witnessed at once, whatever the period, so
    /// that the end of every game is witnessed (a quick resignation, a
    /// table stopped after its result).
    pub fn offer(
        &mut self,
        n: u32,
        head: Head,
        is_witness: bool,
        ends: bool,
        now: Instant,
    ) -> Option<Head> {
        let t = self.tables.entry(n).or_default();
        let seen = t
            .witnessed
            .as_ref()
            .is_some_and(|(g, l)| *g == head.game && *l >= head.line);
        if seen {
            return None;
        }
        if is_witness && t.pending.is_none() {
            // Nothing new but the witness line itself: only a head that was
            // waiting moves on to it (it holds the lines that waited).
            return None;
        }
        t.pending = Some(head);
        let period = if ends { Duration::ZERO } else { self.period };
        Self::release(t, period, now)
    }

    /// The heads whose period is over (called once a second).
    pub fn due(&mut self, now: Instant) -> Vec<(u32, Head)> {
        let period = self.period;
        self.tables
            .iter_mut()
            .filter_map(|(n, t)| Some((*n, Self::release(t, period, now)?)))
            .collect()
    }

    fn release(t: &mut PerTable, period: Duration, now: Instant) -> Option<Head> {
        if t.sent.is_some_and(|s| now.duration_since(s) < period) {
            return None;
        }
        let head = t.pending.take()?;
        t.sent = Some(now);
        t.witnessed = Some((head.game.clone(), head.line));
        Some(head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(line: u64) -> Head {
        Head {
            game: "g".into(),
            line,
            hash: format!("h{line}"),
        }
    }

    #[test]
    fn witnesses_at_most_once_per_period_and_never_only_for_a_witness_line() {
        let mut c = Cadence {
            period: Duration::from_secs(10),
            tables: HashMap::new(),
        };
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        // The first head at once.
        assert_eq!(c.offer(1, head(3), false, false, t0), Some(head(3)));
        // Its witness line comes back: nothing new.
        assert_eq!(c.offer(1, head(4), true, false, t0), None);
        // Moves within the period wait; the latest is sent at its end.
        assert_eq!(c.offer(1, head(5), false, false, at(1)), None);
        assert_eq!(c.offer(1, head(6), false, false, at(2)), None);
        assert!(c.due(at(5)).is_empty());
        assert_eq!(c.due(at(10)), vec![(1, head(6))]);
        assert!(c.due(at(30)).is_empty());
        // Its witness line alone makes no other, however long after.
        assert_eq!(c.offer(1, head(7), true, false, at(60)), None);
        assert!(c.due(at(90)).is_empty());
        // A witness line after lines that waited carries them on.
        assert_eq!(c.offer(1, head(8), false, false, at(95)), Some(head(8)));
        assert_eq!(c.offer(1, head(9), false, false, at(96)), None);
        assert_eq!(c.offer(1, head(10), true, false, at(97)), None);
        assert_eq!(c.due(at(105)), vec![(1, head(10))]);
        // A head whose lines end the game is witnessed at once, within the period.
        assert_eq!(c.offer(1, head(11), false, false, at(106)), None);
        assert_eq!(c.offer(1, head(12), false, true, at(107)), Some(head(12)));
        // Tables are apart.
        assert_eq!(c.offer(2, head(2), false, false, at(105)), Some(head(2)));
    }
}
