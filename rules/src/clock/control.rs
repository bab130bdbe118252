//! [`TimeControl`]: periods, a bonus and the written form (read back in `control/parse.rs`).

use std::fmt;
use std::time::Duration;

use super::time::write_fraction;

/// The longest time a written control may give (a period or a bonus): 1000
/// hours. Longer is a typo, and the limit keeps all sums far from overflow.
pub const MAX_TIME: Duration = Duration::from_secs(1000 * 3600);

/// The largest move count a written control may name.
pub const MAX_MOVES: u32 = 10_000;

/// A period of a time control: `time` for `moves` moves (001 ch. II 6.1.1),
/// or for the rest of the game when `moves` is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// Time added when the period begins (the first period's time is the
    /// starting time; later periods add to the time saved, 001 ch. II 6.1.4).
    pub time: Duration,
    /// Moves to make in the period, or `None`: to the end of the game.
    pub moves: Option<u32>,
}

/// How a per-move bonus works (001 ch. II 6.1.2; EUBGF 3.5(v)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BonusKind {
    /// 001 ch. II 6.1.2.1: the bonus is added to the player's time each time
    /// they complete a move, whether they used it or not. The default when a
    /// bonus is not further described (6.1.3).
    Fischer,
    /// 001 ch. II 6.1.2.2: the bonus is added after the move but returns at
    /// most the time the move took, so moving faster saves nothing.
    Bronstein,
    /// Simple delay, EUBGF 3.5(v): each turn the player's time starts running
    /// only after the delay; unused delay is lost.
    Delay,
}

impl BonusKind {
    /// The word of the written form: `fischer`, `bronstein`, `delay`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            BonusKind::Fischer => "fischer",
            BonusKind::Bronstein => "bronstein",
            BonusKind::Delay => "delay",
        }
    }
}

impl fmt::Display for BonusKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A per-move bonus, from a given move to the end of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bonus {
    /// Fischer, Bronstein or simple delay.
    pub kind: BonusKind,
    /// Seconds per move (or the delay).
    pub amount: Duration,
    /// The first of the player's own moves that gets the bonus (1 = every
    /// move; 46 in the FMJD preferred control, 001 ch. II 6.1.5.2).
    pub from_move: u32,
}

impl Bonus {
    /// Whether the player's `n`-th move (counted from 1) gets this bonus.
    #[must_use]
    pub fn applies_to(&self, n: u32) -> bool {
        n >= self.from_move
    }
}

/// A time control ("tempo gry", 001 ch. II 6.1): one or more periods, the
/// last of which runs to the end of the game or repeats, plus an optional
/// per-move bonus.
///
/// Build it from a preset ([`TimeControl::preset`]), from its written form
/// (`"90m/45, 30m +30s@46".parse()`, grammar in the [module docs](super)), or
/// with [`TimeControl::new`]. `Display` writes the canonical written form,
/// which parses back to an equal control.
///
/// ```
/// use std::time::Duration;
/// use tandem_rules::clock::{BonusKind, TimeControl};
/// let tc: TimeControl = "90m/45, 30m + 30s @46".parse().unwrap();
/// assert_eq!(tc.to_string(), "90m/45,30m+30s@46");
/// assert_eq!(tc.periods()[1].time, Duration::from_secs(30 * 60));
/// assert_eq!(tc.bonus().unwrap().kind, BonusKind::Fischer);
/// assert_eq!(tc, TimeControl::preset("fmjd-preferred").unwrap());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TimeControl {
    periods: Vec<Period>,
    repeat_last: bool,
    bonus: Option<Bonus>,
    /// No clock at all ([`TimeControl::none`]).
    untimed: bool,
}

/// The written name of the control without a clock ([`TimeControl::none`]).
pub const NONE: &str = "none";

/// Why a [`TimeControl`] cannot be built from its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidTimeControl {
    /// No period at all.
    NoPeriods,
    /// The first period gives no time.
    ZeroFirstPeriod,
    /// A period other than the last has no move count (index from 0).
    MissingMoves(usize),
    /// A period has a move count of 0 (index from 0).
    ZeroMoves(usize),
    /// The last period has a move count but does not repeat: the game would
    /// go on after it with no rule for more time.
    LastPeriodEnds,
    /// `repeat_last` is set but the last period runs to the end.
    RepeatWithoutMoves,
    /// The bonus is zero.
    ZeroBonus,
    /// The bonus starts from move 0 (moves count from 1).
    ZeroFromMove,
    /// A time longer than [`MAX_TIME`] or a count above [`MAX_MOVES`].
    TooLarge,
}

impl fmt::Display for InvalidTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidTimeControl::NoPeriods => f.write_str("a time control needs at least one period"),
            InvalidTimeControl::ZeroFirstPeriod => f.write_str("the first period must give some time"),
            InvalidTimeControl::MissingMoves(i) => write!(
                f,
                "period {} needs a number of moves (like 2h/50): only the last period may run to the end",
                i + 1
            ),
            InvalidTimeControl::ZeroMoves(i) => write!(f, "period {} has zero moves", i + 1),
            InvalidTimeControl::LastPeriodEnds => f.write_str(
                "the last period must run to the end of the game (no /moves) or repeat (/moves*)",
            ),
            InvalidTimeControl::RepeatWithoutMoves => f.write_str("only a period with a number of moves can repeat"),
            InvalidTimeControl::ZeroBonus => f.write_str("the bonus must not be zero"),
            InvalidTimeControl::ZeroFromMove => f.write_str("moves count from 1, so the bonus cannot start at move 0"),
            InvalidTimeControl::TooLarge => write!(
                f,
                "too large: times go up to {} hours and move counts up to {MAX_MOVES}",
                MAX_TIME.as_secs() / 3600
            ),
        }
    }
}

impl std::error::Error for InvalidTimeControl {}

impl TimeControl {
    /// A control from its parts, checked: at least one period, the first
    /// giving time; every period but the last with a move count ≥ 1; the last
    /// either to the end (`moves: None`) or repeating (`repeat_last` with a
    /// move count); a bonus, if any, non-zero and from move ≥ 1.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tandem_rules::clock::{Period, TimeControl, InvalidTimeControl};
    /// let h = Duration::from_secs(3600);
    /// let classic = TimeControl::new(
    ///     vec![Period { time: 2 * h, moves: Some(50) }, Period { time: h, moves: Some(25) }],
    ///     true,
    ///     None,
    /// ).unwrap();
    /// assert_eq!(classic.to_string(), "2h/50,60m/25*");
    /// let bad = TimeControl::new(vec![Period { time: 2 * h, moves: Some(50) }], false, None);
    /// assert_eq!(bad, Err(InvalidTimeControl::LastPeriodEnds));
    /// ```
    pub fn new(
        periods: Vec<Period>,
        repeat_last: bool,
        bonus: Option<Bonus>,
    ) -> Result<TimeControl, InvalidTimeControl> {
        let Some(last) = periods.last() else {
            return Err(InvalidTimeControl::NoPeriods);
        };
        if periods[0].time.is_zero() {
            return Err(InvalidTimeControl::ZeroFirstPeriod);
        }
        let last_index = periods.len() - 1;
        for (i, p) in periods.iter().enumerate() {
            if p.time > MAX_TIME || p.moves.is_some_and(|m| m > MAX_MOVES) {
                return Err(InvalidTimeControl::TooLarge);
            }
            match p.moves {
                Some(0) => return Err(InvalidTimeControl::ZeroMoves(i)),
                None if i < last_index => return Err(InvalidTimeControl::MissingMoves(i)),
                _ => {}
            }
        }
        match (last.moves, repeat_last) {
            (Some(_), false) => return Err(InvalidTimeControl::LastPeriodEnds),
            (None, true) => return Err(InvalidTimeControl::RepeatWithoutMoves),
            _ => {}
        }
        if let Some(b) = bonus {
            if b.amount.is_zero() {
                return Err(InvalidTimeControl::ZeroBonus);
            }
            if b.from_move == 0 {
                return Err(InvalidTimeControl::ZeroFromMove);
            }
            if b.amount > MAX_TIME || b.from_move > MAX_MOVES {
                return Err(InvalidTimeControl::TooLarge);
            }
        }
        Ok(TimeControl {
            periods,
            repeat_last,
            bonus,
            untimed: false,
        })
    }

    /// No clock: a game or match played without one, which the rule books
    /// allow where no control is announced (004 3.5 (i) (a): a clock is
    /// optional unless the event makes it preferred, compulsory or ordered;
    /// 004 3.3 (ii), 4.1 (vi) (a), 4.2 (iii) (b) give the rules of matches
    /// "rozgrywanych bez zegara"). Written `none`. A [`Clock`](super::Clock)
    /// of this control still counts the moves and the time each side used,
    /// but it has no time to run down: no warning, no flag, the remaining time
    /// reads zero and no side is ever in time trouble. PGN writes it `-`.
    ///
    /// ```
    /// use tandem_rules::clock::TimeControl;
    /// let none = TimeControl::none();
    /// assert!(none.is_untimed());
    /// assert_eq!(none.to_string(), "none");
    /// assert_eq!("None".parse::<TimeControl>().unwrap(), none);
    /// assert_eq!(TimeControl::lookup("none").unwrap(), none);
    /// assert_eq!(none.pgn().as_deref(), Some("-"));
    /// assert!(!TimeControl::preset("eubgf-7").unwrap().is_untimed());
    /// ```
    #[must_use]
    pub fn none() -> TimeControl {
        TimeControl {
            periods: vec![Period {
                time: MAX_TIME,
                moves: None,
            }],
            repeat_last: false,
            bonus: None,
            untimed: true,
        }
    }

    /// Whether this is the control without a clock ([`TimeControl::none`]).
    #[must_use]
    pub fn is_untimed(&self) -> bool {
        self.untimed
    }

    /// `time` for the whole game, no bonus ("90 minut na całą partię").
    ///
    /// ```
    /// use std::time::Duration;
    /// use tandem_rules::clock::TimeControl;
    /// assert_eq!(TimeControl::game(Duration::from_secs(5400)).unwrap().to_string(), "90m");
    /// ```
    pub fn game(time: Duration) -> Result<TimeControl, InvalidTimeControl> {
        TimeControl::new(vec![Period { time, moves: None }], false, None)
    }

    /// This control with `bonus` per move (replacing any bonus it had).
    ///
    /// ```
    /// use std::time::Duration;
    /// use tandem_rules::clock::{Bonus, BonusKind, TimeControl};
    /// let tc = TimeControl::game(Duration::from_secs(180)).unwrap()
    ///     .with_bonus(Bonus { kind: BonusKind::Bronstein, amount: Duration::from_secs(2), from_move: 1 })
    ///     .unwrap();
    /// assert_eq!(tc.to_string(), "3m+2s:bronstein");
    /// ```
    pub fn with_bonus(self, bonus: Bonus) -> Result<TimeControl, InvalidTimeControl> {
        TimeControl::new(self.periods, self.repeat_last, Some(bonus))
    }

    /// The periods, in order. Never empty.
    #[must_use]
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// Whether the last period repeats (`*`): "1 hour for every further 25
    /// moves" (001 ch. II 6.1.1).
    #[must_use]
    pub fn repeats_last(&self) -> bool {
        self.repeat_last
    }

    /// The per-move bonus, if any.
    #[must_use]
    pub fn bonus(&self) -> Option<Bonus> {
        self.bonus
    }

    /// The control in PGN's `TimeControl` tag form (PGN standard 9.6.1):
    /// fields `moves/seconds` and a last `seconds`, each with `+increment`
    /// when a Fischer bonus runs from the first move (FIDE's usual controls:
    /// `90m+30s` is `5400+30`, `90m/40,30m+30s` is `40/5400+30:1800+30`).
    /// `None` when PGN cannot say it: a repeating period, a Bronstein bonus or
    /// a delay, a bonus from a later move, fractions of a second.
    ///
    /// ```
    /// use tandem_rules::clock::TimeControl;
    /// let pgn = |s: &str| s.parse::<TimeControl>().unwrap().pgn();
    /// assert_eq!(pgn("90m+30s").as_deref(), Some("5400+30"));
    /// assert_eq!(pgn("90m/40,30m+30s").as_deref(), Some("40/5400+30:1800+30"));
    /// assert_eq!(pgn("5m").as_deref(), Some("300"));
    /// assert_eq!(pgn("90m/45,30m+30s@46"), None);
    /// ```
    #[must_use]
    pub fn pgn(&self) -> Option<String> {
        if self.untimed {
            // PGN standard 9.6.1: "-" is no time control.
            return Some("-".to_owned());
        }
        if self.repeat_last {
            return None;
        }
        let whole = |d: Duration| (d.subsec_nanos() == 0).then_some(d.as_secs());
        let inc = match self.bonus {
            None => String::new(),
            Some(Bonus {
                kind: BonusKind::Fischer,
                amount,
                from_move: 1,
            }) => format!("+{}", whole(amount)?),
            Some(_) => return None,
        };
        let mut fields = Vec::with_capacity(self.periods.len());
        for p in &self.periods {
            let secs = whole(p.time)?;
            fields.push(match p.moves {
                Some(m) => format!("{m}/{secs}{inc}"),
                None => format!("{secs}{inc}"),
            });
        }
        Some(fields.join(":"))
    }

    /// Each player's time at the start: the first period's time.
    #[must_use]
    pub fn initial_time(&self) -> Duration {
        self.periods[0].time
    }

    /// The period that follows period `i` once its moves are made: the next
    /// one, or `i` again when the last period repeats. `None` when period `i`
    /// runs to the end.
    #[must_use]
    pub fn next_period(&self, i: usize) -> Option<usize> {
        self.periods.get(i)?.moves?;
        if i + 1 < self.periods.len() {
            Some(i + 1)
        } else if self.repeat_last {
            Some(i)
        } else {
            None
        }
    }

    /// The period a player is in after making `moves` moves, and how many of
    /// that period's moves they have made.
    ///
    /// ```
    /// use tandem_rules::clock::TimeControl;
    /// let classic = TimeControl::preset("fmjd-classic").unwrap(); // 2h/50,60m/25*
    /// assert_eq!(classic.period_at(0), (0, 0));
    /// assert_eq!(classic.period_at(49), (0, 49));
    /// assert_eq!(classic.period_at(50), (1, 0));
    /// assert_eq!(classic.period_at(80), (1, 5));
    /// ```
    #[must_use]
    pub fn period_at(&self, moves: u32) -> (usize, u32) {
        let mut left = moves;
        let mut i = 0;
        loop {
            let Some(k) = self.periods[i].moves else {
                return (i, left);
            };
            if left < k {
                return (i, left);
            }
            match self.next_period(i) {
                Some(next) if next == i => return (i, left % k),
                Some(next) => {
                    left -= k;
                    i = next;
                }
                // Unreachable for a validated control (a period with moves is
                // followed by another or repeats); stay in the period.
                None => return (i, left),
            }
        }
    }

    /// The EUBGF clock for a backgammon match (EUBGF 3.5(v)-(vi)): each player
    /// gets `((pa + pb) / 2) · per_point`, where `pa` and `pb` are the points
    /// each player still needs, with a simple delay of `delay` per move. For a
    /// new N-point match, `pa = pb = N`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tandem_rules::clock::TimeControl;
    /// let (min, s) = (Duration::from_secs(60), Duration::from_secs(1));
    /// // A 7-point match resumed at 4-6: the players need 3 and 1 points.
    /// let tc = TimeControl::eubgf(3, 1, 2 * min, 12 * s).unwrap();
    /// assert_eq!(tc.to_string(), "4m+12s:delay");
    /// assert_eq!(TimeControl::eubgf(3, 4, 2 * min, 12 * s).unwrap().to_string(), "7m+12s:delay");
    /// ```
    pub fn eubgf(
        pa: u32,
        pb: u32,
        per_point: Duration,
        delay: Duration,
    ) -> Result<TimeControl, InvalidTimeControl> {
        // (pa + pb) / 2 · Tm, computed as (pa + pb) · Tm / 2 to stay exact.
        let sum = pa.checked_add(pb).ok_or(InvalidTimeControl::TooLarge)?;
        let time = per_point
            .checked_mul(sum)
            .ok_or(InvalidTimeControl::TooLarge)?
            / 2;
        TimeControl::game(time)?.with_bonus(Bonus {
            kind: BonusKind::Delay,
            amount: delay,
            from_move: 1,
        })
    }
}

impl fmt::Display for TimeControl {
    /// The canonical written form (see the [module docs](super)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.untimed {
            return f.write_str(NONE);
        }
        let last = self.periods.len() - 1;
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write_duration(f, p.time)?;
            if let Some(m) = p.moves {
                write!(f, "/{m}")?;
                if i == last && self.repeat_last {
                    f.write_str("*")?;
                }
            }
        }
        if let Some(b) = self.bonus {
            f.write_str("+")?;
            write_duration(f, b.amount)?;
            if b.from_move != 1 {
                write!(f, "@{}", b.from_move)?;
            }
            if b.kind != BonusKind::Fischer {
                write!(f, ":{}", b.kind)?;
            }
        }
        Ok(())
    }
}

/// Writes a duration in the written form: `2h`, `90m`, `60m`, `1m30s`,
/// `2.5s`, `0s`. Whole hours from 2 h up are written in hours, other whole
/// minutes in minutes, as the code words them ("2 godziny", "60 minut", "90
/// minut").
pub(crate) fn write_duration(f: &mut impl fmt::Write, d: Duration) -> fmt::Result {
    let secs = d.as_secs();
    let nanos = d.subsec_nanos();
    if nanos == 0 && secs >= 2 * 3600 && secs % 3600 == 0 {
        return write!(f, "{}h", secs / 3600);
    }
    if nanos == 0 && secs > 0 && secs % 60 == 0 {
        return write!(f, "{}m", secs / 60);
    }
    let (m, s) = (secs / 60, secs % 60);
    if m > 0 {
        write!(f, "{m}m")?;
        if s == 0 && nanos == 0 {
            return Ok(());
        }
    }
    write!(f, "{s}")?;
    write_fraction(f, nanos)?;
    f.write_str("s")
}

mod parse;
pub use parse::{ParseReason, ParseTimeControlError};

#[cfg(test)]
mod tests;
