//! [`Clock`]: a two-sided game clock running a [`TimeControl`] on times
//! passed in.

use std::fmt;
use std::time::Duration;

use super::control::{BonusKind, TimeControl};
use super::report::{ClockReport, FlagReport, SideReport};
use super::time::{millis, GameTime};
use crate::Color;

/// 001 ch. II 6.13: a player is in time trouble ("niedoczas") with 5 minutes
/// or less to the time control, unless they are in a phase of the game in
/// which they receive a bonus per move.
pub const TIME_TROUBLE: Duration = Duration::from_secs(5 * 60);

/// The warnings a new [`Clock`] gives: 5 minutes (time trouble, 001 ch. II
/// 6.13), 2 minutes (the alarm blind players ask for, lila #20343), 1 minute
/// and 10 seconds.
pub const DEFAULT_WARNINGS: [Duration; 4] = [
    Duration::from_secs(5 * 60),
    Duration::from_secs(2 * 60),
    Duration::from_secs(60),
    Duration::from_secs(10),
];

/// The most warning thresholds a clock keeps.
pub const MAX_WARNINGS: usize = 64;

/// Something the clock reports by itself, at a moment it can predict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockEvent {
    /// When it happens (or happened).
    pub at: GameTime,
    /// Whose time it concerns.
    pub side: Color,
    /// What happens.
    pub kind: ClockEventKind,
}

/// What a [`ClockEvent`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClockEventKind {
    /// The side's remaining time came down to this threshold.
    Warning(Duration),
    /// The side's time ran out: the flag fell (001 ch. II 6.12).
    Flag,
}

/// What a press of the clock did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Press {
    /// Who pressed (the side that completed a move).
    pub side: Color,
    /// The number of the move completed, counting that side's moves from 1.
    pub move_number: u32,
    /// The time the move took, pauses excluded.
    pub move_time: Duration,
    /// The bonus added for this move (Fischer or Bronstein; zero otherwise).
    pub bonus: Duration,
    /// Whether this move completed a period (a time control was reached).
    pub control_reached: bool,
    /// Time added because a new period began (001 ch. II 6.1.4).
    pub period_time: Duration,
    /// Warnings and a flag fall that happened before the press.
    pub events: Vec<ClockEvent>,
}

/// A clock operation that cannot be done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClockError {
    /// The clock has not been started.
    NotStarted,
    /// The clock was already started.
    AlreadyStarted,
    /// The clock is paused: resume it first.
    Paused,
    /// The clock is not paused.
    NotPaused,
    /// A time earlier than one already seen.
    TimeWentBackwards {
        /// The latest time the clock has seen.
        last: GameTime,
        /// The time given.
        at: GameTime,
    },
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::NotStarted => f.write_str("the clock has not been started"),
            ClockError::AlreadyStarted => f.write_str("the clock was already started"),
            ClockError::Paused => f.write_str("the clock is paused"),
            ClockError::NotPaused => f.write_str("the clock is not paused"),
            ClockError::TimeWentBackwards { last, at } => {
                write!(f, "time went backwards: {at} is before {last}")
            }
        }
    }
}

impl std::error::Error for ClockError {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    NotStarted,
    Running { since: GameTime },
    Paused,
}

#[derive(Debug, Clone)]
struct Side {
    /// Remaining time as of the clock's last settle.
    remaining: Duration,
    used: Duration,
    moves: u32,
    period: usize,
    period_moves: u32,
    flag: Option<GameTime>,
    /// Bit i set: warning i has not been given in this period.
    armed: u64,
    move_times: Vec<Duration>,
}

/// How running for `elapsed` from `since` with `delay_left` of delay uses time.
struct Burn {
    /// When the player's own time started counting (after the delay).
    count_from: GameTime,
    delay_left: Duration,
    /// Time taken off the player's own time.
    rest: Duration,
}

fn burn(since: GameTime, delay_left: Duration, elapsed: Duration) -> Burn {
    let d = delay_left.min(elapsed);
    Burn {
        count_from: since + d,
        delay_left: delay_left - d,
        rest: elapsed - d,
    }
}

/// A two-sided game clock: it runs a [`TimeControl`] on times the caller
/// passes in, and never reads the system clock.
///
/// Each mutating call takes `at`, the current [`GameTime`]; times must not go
/// backwards ([`ClockError::TimeWentBackwards`]). Queries take `at` too and
/// project the running side's time to that moment without changing the clock.
///
/// Rules encoded:
/// - a press completes a move: the move counts towards the period, the period
///   ends when its moves are made and the next period's time is added to the
///   time saved (001 ch. II 6.1.4);
/// - Fischer adds the bonus at each press (6.1.2.1); Bronstein adds at most the
///   time the move took (6.1.2.2); simple delay holds the player's time for the
///   delay at the start of each turn, and unused delay is lost (EUBGF 3.5(v));
/// - the flag falls at the moment the remaining time reaches zero, even if
///   nobody looks until later; a press at or after that moment is too late
///   (6.12). The clock records when each flag fell, so when both fell it knows
///   which was first (ch. II 3.5.5);
/// - after a side's flag falls its time stays at zero, it gets no more bonus or
///   period time, and its flag stays down (3.5.5: "in a clear and lasting
///   way"); its moves and used time still count, and the other side's clock
///   runs on as usual. Only an arbiter's [`set_remaining`](Self::set_remaining)
///   lifts a flag;
/// - pauses (the arbiter is called, ch. III 7) stop the clock; paused time is
///   charged to nobody (ch. II 6.17) and is not part of any move's time.
///
/// ```
/// use std::time::Duration;
/// use tandem_rules::clock::{Clock, GameTime, TimeControl};
/// use tandem_rules::Color;
/// let s = GameTime::from_secs;
/// // 001 ch. II 6.1.2: 15' + 5", a move in 3 seconds leaves 15:02 (Fischer).
/// let mut clock = Clock::new("15m+5s".parse().unwrap());
/// clock.start(s(0)).unwrap();
/// let press = clock.press(s(3)).unwrap();
/// assert_eq!(press.bonus, Duration::from_secs(5));
/// assert_eq!(clock.remaining(Color::White, s(3)), Duration::from_secs(15 * 60 + 2));
/// assert_eq!(clock.side_to_move(), Color::Black);
/// assert_eq!(clock.remaining(Color::Black, s(63)), Duration::from_secs(14 * 60));
/// ```
#[derive(Debug, Clone)]
pub struct Clock {
    control: TimeControl,
    warnings: Vec<Duration>,
    sides: [Side; 2],
    turn: Color,
    thinking: Duration,
    delay_left: Duration,
    run: Run,
    last: GameTime,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clock {
    /// A clock set for `control`, not started, with the
    /// [`DEFAULT_WARNINGS`].
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        let side = Side {
            remaining: control.initial_time(),
            used: Duration::ZERO,
            moves: 0,
            period: 0,
            period_moves: 0,
            flag: None,
            armed: 0,
            move_times: Vec::new(),
        };
        let mut clock = Clock {
            control,
            warnings: Vec::new(),
            sides: [side.clone(), side],
            turn: Color::White,
            thinking: Duration::ZERO,
            delay_left: Duration::ZERO,
            run: Run::NotStarted,
            last: GameTime::ZERO,
        };
        clock.set_warnings(DEFAULT_WARNINGS);
        clock
    }

    /// This clock with other warning thresholds (zero thresholds are
    /// dropped, duplicates merged, at most [`MAX_WARNINGS`] kept: the
    /// largest).
    ///
    /// A warning is given once per period per side: when the side's time
    /// comes down to the threshold. It is armed at the start of each period
    /// (and after an arbiter's adjustment) only if the side then has more
    /// time than the threshold, so a 3-minute blitz never warns "5 minutes",
    /// and a Fischer bonus lifting the time back over a threshold does not
    /// make it repeat.
    #[must_use]
    pub fn with_warnings(mut self, thresholds: impl IntoIterator<Item = Duration>) -> Clock {
        self.set_warnings(thresholds);
        self
    }

    fn set_warnings(&mut self, thresholds: impl IntoIterator<Item = Duration>) {
        let mut w: Vec<Duration> = thresholds.into_iter().filter(|d| !d.is_zero()).collect();
        w.sort_unstable_by(|a, b| b.cmp(a));
        w.dedup();
        w.truncate(MAX_WARNINGS);
        self.warnings = w;
        for c in [Color::White, Color::Black] {
            self.arm(c);
        }
    }

    /// The warning thresholds, largest first.
    #[must_use]
    pub fn warnings(&self) -> &[Duration] {
        &self.warnings
    }

    fn arm(&mut self, c: Color) {
        let remaining = self.sides[idx(c)].remaining;
        let mut armed = 0u64;
        for (i, w) in self.warnings.iter().enumerate() {
            if *w < remaining {
                armed |= 1 << i;
            }
        }
        self.sides[idx(c)].armed = armed;
    }

    /// The time control.
    #[must_use]
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Starts white's clock at `at` (the opponent starts the clock of the
    /// side that moves first).
    pub fn start(&mut self, at: GameTime) -> Result<(), ClockError> {
        self.start_with(Color::White, at)
    }

    /// Starts `first`'s clock at `at` (for a game set up with black to move).
    pub fn start_with(&mut self, first: Color, at: GameTime) -> Result<(), ClockError> {
        if self.run != Run::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        self.check_time(at)?;
        self.turn = first;
        self.thinking = Duration::ZERO;
        self.delay_left = self.delay_for(first);
        self.run = Run::Running { since: at };
        Ok(())
    }

    fn check_time(&mut self, at: GameTime) -> Result<(), ClockError> {
        if at < self.last {
            return Err(ClockError::TimeWentBackwards {
                last: self.last,
                at,
            });
        }
        self.last = at;
        Ok(())
    }

    /// The delay `c` gets at the start of their next turn.
    fn delay_for(&self, c: Color) -> Duration {
        match self.control.bonus() {
            Some(b) if b.kind == BonusKind::Delay && b.applies_to(self.sides[idx(c)].moves + 1) => {
                b.amount
            }
            _ => Duration::ZERO,
        }
    }

    /// Brings the running side's time up to `at`; returns the warnings and
    /// flag fall that happened meanwhile, in time order.
    fn settle(&mut self, at: GameTime) -> Result<Vec<ClockEvent>, ClockError> {
        self.check_time(at)?;
        let Run::Running { since } = self.run else {
            return Ok(Vec::new());
        };
        let elapsed = at.saturating_since(since);
        let b = burn(since, self.delay_left, elapsed);
        let side_color = self.turn;
        let untimed = self.control.is_untimed();
        let s = &mut self.sides[idx(side_color)];
        let before = s.remaining;
        let mut events = Vec::new();
        // Without a clock (TimeControl::none) nothing is due: no warning, no flag.
        for (i, w) in self.warnings.iter().enumerate().filter(|_| !untimed) {
            if s.armed & (1 << i) != 0 && *w < before && b.rest >= before - *w {
                s.armed &= !(1 << i);
                events.push(ClockEvent {
                    at: b.count_from + (before - *w),
                    side: side_color,
                    kind: ClockEventKind::Warning(*w),
                });
            }
        }
        if !untimed && s.flag.is_none() && b.rest >= before {
            let fell = b.count_from + before;
            s.flag = Some(fell);
            events.push(ClockEvent {
                at: fell,
                side: side_color,
                kind: ClockEventKind::Flag,
            });
        }
        s.remaining = before.saturating_sub(b.rest);
        s.used += elapsed;
        self.thinking += elapsed;
        self.delay_left = b.delay_left;
        self.run = Run::Running { since: at };
        Ok(events)
    }

    /// Reports the warnings and flag falls due by `at`, each once, in time
    /// order. The daemon calls it when [`next_event`](Self::next_event) is
    /// due (and may call it any time).
    pub fn advance(&mut self, at: GameTime) -> Result<Vec<ClockEvent>, ClockError> {
        self.settle(at)
    }

    /// The side to move completed a move and pressed the clock at `at`.
    ///
    /// Their move counts (towards the period too), the bonus and any next
    /// period's time are added (not after a flag fall), and the other side's
    /// clock starts.
    pub fn press(&mut self, at: GameTime) -> Result<Press, ClockError> {
        match self.run {
            Run::NotStarted => return Err(ClockError::NotStarted),
            Run::Paused => return Err(ClockError::Paused),
            Run::Running { .. } => {}
        }
        let events = self.settle(at)?;
        let side = self.turn;
        let move_time = self.thinking;
        let bonus_rule = self.control.bonus();
        let s = &mut self.sides[idx(side)];
        s.moves += 1;
        s.move_times.push(move_time);
        let move_number = s.moves;
        let flagged = s.flag.is_some();
        let mut bonus = Duration::ZERO;
        if let Some(b) = bonus_rule.filter(|b| b.applies_to(move_number) && !flagged) {
            bonus = match b.kind {
                BonusKind::Fischer => b.amount,
                BonusKind::Bronstein => b.amount.min(move_time),
                BonusKind::Delay => Duration::ZERO,
            };
        }
        s.remaining = s.remaining.saturating_add(bonus);
        s.period_moves += 1;
        let mut control_reached = false;
        let mut period_time = Duration::ZERO;
        let period_moves = self.control.periods()[s.period].moves;
        if period_moves == Some(s.period_moves) {
            control_reached = true;
            if let Some(next) = self.control.next_period(s.period) {
                s.period = next;
                s.period_moves = 0;
                if !flagged {
                    period_time = self.control.periods()[next].time;
                    s.remaining = s.remaining.saturating_add(period_time);
                }
            }
        }
        if control_reached {
            self.arm(side);
        }
        self.turn = side.other();
        self.thinking = Duration::ZERO;
        self.delay_left = self.delay_for(self.turn);
        self.run = Run::Running { since: at };
        Ok(Press {
            side,
            move_number,
            move_time,
            bonus,
            control_reached,
            period_time,
            events,
        })
    }

    /// Stops the clock at `at` (the arbiter is called, 001 ch. III 7).
    /// Returns what happened before the pause.
    pub fn pause(&mut self, at: GameTime) -> Result<Vec<ClockEvent>, ClockError> {
        match self.run {
            Run::NotStarted => return Err(ClockError::NotStarted),
            Run::Paused => return Err(ClockError::Paused),
            Run::Running { .. } => {}
        }
        let events = self.settle(at)?;
        self.run = Run::Paused;
        Ok(events)
    }

    /// Restarts a paused clock at `at`; the side to move continues their
    /// move (and any delay left).
    pub fn resume(&mut self, at: GameTime) -> Result<(), ClockError> {
        match self.run {
            Run::NotStarted => return Err(ClockError::NotStarted),
            Run::Running { .. } => return Err(ClockError::NotPaused),
            Run::Paused => {}
        }
        self.check_time(at)?;
        self.run = Run::Running { since: at };
        Ok(())
    }

    /// The arbiter sets `side`'s remaining time (001 ch. VIII 3.1.2: "the
    /// arbiter should also correct the time"; ch. II 6.19). A non-zero time
    /// lifts that side's flag; zero makes it fall at `at` if it had not.
    /// Warnings are re-armed for the new time. Returns what happened before.
    pub fn set_remaining(
        &mut self,
        side: Color,
        remaining: Duration,
        at: GameTime,
    ) -> Result<Vec<ClockEvent>, ClockError> {
        let mut events = self.settle(at)?;
        if self.control.is_untimed() {
            // No clock: no time to set, no flag to make fall.
            return Ok(events);
        }
        let s = &mut self.sides[idx(side)];
        s.remaining = remaining;
        if !remaining.is_zero() {
            s.flag = None;
        } else if s.flag.is_none() {
            s.flag = Some(at);
            events.push(ClockEvent {
                at,
                side,
                kind: ClockEventKind::Flag,
            });
        }
        self.arm(side);
        Ok(events)
    }

    /// The arbiter sets how many moves `side` has made (play goes back to the
    /// last position where the records agreed, 001 ch. VIII 3.1.2). The
    /// period follows from the count; the list of move times is cut to it
    /// (and is shorter than the count if the count was raised). Time is not
    /// changed: set it with [`set_remaining`](Self::set_remaining).
    pub fn set_moves(
        &mut self,
        side: Color,
        moves: u32,
        at: GameTime,
    ) -> Result<Vec<ClockEvent>, ClockError> {
        let events = self.settle(at)?;
        let (period, period_moves) = self.control.period_at(moves);
        let s = &mut self.sides[idx(side)];
        s.moves = moves;
        s.period = period;
        s.period_moves = period_moves;
        s.move_times.truncate(moves as usize);
        Ok(events)
    }

    /// The arbiter makes `side` the side to move, without counting a move.
    /// If that changes the side, a new turn starts at `at`.
    pub fn set_turn(&mut self, side: Color, at: GameTime) -> Result<Vec<ClockEvent>, ClockError> {
        let events = self.settle(at)?;
        if side != self.turn {
            self.turn = side;
            self.thinking = Duration::ZERO;
            self.delay_left = self.delay_for(side);
        }
        Ok(events)
    }

    /// The next warning or flag fall due strictly after `at`, if the clock
    /// runs on without a press or pause. Events at or before `at` are the
    /// ones [`advance`](Self::advance)`(at)` reports. `None` when the clock is
    /// stopped or nothing more can happen this turn.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tandem_rules::clock::{Clock, ClockEventKind, GameTime, TimeControl};
    /// let mut clock = Clock::new("6m".parse().unwrap());
    /// clock.start(GameTime::ZERO).unwrap();
    /// let e = clock.next_event(GameTime::ZERO).unwrap();
    /// assert_eq!((e.at, e.kind), (GameTime::from_secs(60), ClockEventKind::Warning(Duration::from_secs(300))));
    /// let e = clock.next_event(e.at).unwrap();
    /// assert_eq!(e.at, GameTime::from_secs(240)); // 2 minutes left
    /// assert_eq!(clock.advance(GameTime::from_secs(250)).unwrap().len(), 2);
    /// ```
    #[must_use]
    pub fn next_event(&self, at: GameTime) -> Option<ClockEvent> {
        let Run::Running { since } = self.run else {
            return None;
        };
        if self.control.is_untimed() {
            return None;
        }
        let s = &self.sides[idx(self.turn)];
        let count_from = since + self.delay_left;
        let mut best: Option<ClockEvent> = None;
        let mut consider = |e: ClockEvent| {
            if e.at > at && best.map_or(true, |b| e.at < b.at) {
                best = Some(e);
            }
        };
        for (i, w) in self.warnings.iter().enumerate() {
            if s.armed & (1 << i) != 0 && *w < s.remaining {
                consider(ClockEvent {
                    at: count_from + (s.remaining - *w),
                    side: self.turn,
                    kind: ClockEventKind::Warning(*w),
                });
            }
        }
        if s.flag.is_none() {
            consider(ClockEvent {
                at: count_from + s.remaining,
                side: self.turn,
                kind: ClockEventKind::Flag,
            });
        }
        best
    }

    /// The running side's state projected to `at`: (remaining, used,
    /// thinking, delay left, flag). `None` for a stopped clock.
    fn live(
        &self,
        at: GameTime,
    ) -> Option<(Duration, Duration, Duration, Duration, Option<GameTime>)> {
        let Run::Running { since } = self.run else {
            return None;
        };
        let s = &self.sides[idx(self.turn)];
        let elapsed = at.saturating_since(since);
        let b = burn(since, self.delay_left, elapsed);
        let untimed = self.control.is_untimed();
        let flag = s
            .flag
            .or_else(|| (!untimed && b.rest >= s.remaining).then(|| b.count_from + s.remaining));
        Some((
            s.remaining.saturating_sub(b.rest),
            s.used + elapsed,
            self.thinking + elapsed,
            b.delay_left,
            flag,
        ))
    }

    fn live_for(
        &self,
        side: Color,
        at: GameTime,
    ) -> Option<(Duration, Duration, Duration, Duration, Option<GameTime>)> {
        if side == self.turn {
            self.live(at)
        } else {
            None
        }
    }

    /// `side`'s remaining time at `at` (zero once their flag has fallen;
    /// always zero without a clock, [`TimeControl::none`]).
    #[must_use]
    pub fn remaining(&self, side: Color, at: GameTime) -> Duration {
        if self.control.is_untimed() {
            return Duration::ZERO;
        }
        self.live_for(side, at)
            .map_or(self.sides[idx(side)].remaining, |l| l.0)
    }

    /// The time `side` has used at `at` (pauses excluded; delays included,
    /// as the player did spend them).
    #[must_use]
    pub fn used(&self, side: Color, at: GameTime) -> Duration {
        self.live_for(side, at)
            .map_or(self.sides[idx(side)].used, |l| l.1)
    }

    /// The time the side to move has spent on the current move at `at`.
    #[must_use]
    pub fn thinking(&self, at: GameTime) -> Duration {
        self.live(at).map_or(self.thinking, |l| l.2)
    }

    /// The simple delay left to the side to move at `at` before their own
    /// time starts running (zero without a delay control).
    #[must_use]
    pub fn delay_left(&self, at: GameTime) -> Duration {
        self.live(at).map_or(self.delay_left, |l| l.3)
    }

    /// When `side`'s flag fell, if it has by `at`.
    #[must_use]
    pub fn flag(&self, side: Color, at: GameTime) -> Option<GameTime> {
        self.live_for(side, at)
            .map_or(self.sides[idx(side)].flag, |l| l.4)
    }

    /// The first flag to fall by `at`, and when (001 ch. II 3.5.5: with both
    /// flags down, the clock must show which fell first). White wins a tie,
    /// which cannot happen: only one side's time runs at a time.
    #[must_use]
    pub fn first_flag(&self, at: GameTime) -> Option<(Color, GameTime)> {
        let w = self.flag(Color::White, at).map(|t| (Color::White, t));
        let b = self.flag(Color::Black, at).map(|t| (Color::Black, t));
        match (w, b) {
            (Some(w), Some(b)) => Some(if b.1 < w.1 { b } else { w }),
            (w, b) => w.or(b),
        }
    }

    /// The side whose clock runs (or would run once started or resumed).
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// Whether the clock is running (started and not paused).
    #[must_use]
    pub fn is_running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    /// Whether the clock has been started.
    #[must_use]
    pub fn is_started(&self) -> bool {
        self.run != Run::NotStarted
    }

    /// Whether the clock is paused.
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.run == Run::Paused
    }

    /// Moves `side` has completed (pressed the clock after).
    #[must_use]
    pub fn moves_made(&self, side: Color) -> u32 {
        self.sides[idx(side)].moves
    }

    /// Moves `side` still has to make to reach the next time control, or
    /// `None` in a period that runs to the end of the game.
    #[must_use]
    pub fn moves_to_control(&self, side: Color) -> Option<u32> {
        let s = &self.sides[idx(side)];
        self.control.periods()[s.period]
            .moves
            .map(|k| k.saturating_sub(s.period_moves))
    }

    /// The period `side` is in (0 = the first).
    #[must_use]
    pub fn period(&self, side: Color) -> usize {
        self.sides[idx(side)].period
    }

    /// Whether `side`'s next move gets a per-move bonus (or delay).
    #[must_use]
    pub fn bonus_applies(&self, side: Color) -> bool {
        self.control
            .bonus()
            .is_some_and(|b| b.applies_to(self.sides[idx(side)].moves + 1))
    }

    /// 001 ch. II 6.13: whether `side` is in time trouble at `at`: 5 minutes
    /// or less to the time control, outside a phase with a per-move bonus,
    /// flag not fallen.
    #[must_use]
    pub fn in_time_trouble(&self, side: Color, at: GameTime) -> bool {
        !self.control.is_untimed()
            && !self.bonus_applies(side)
            && self.flag(side, at).is_none()
            && self.remaining(side, at) <= TIME_TROUBLE
    }

    /// The time each of `side`'s moves took, in order (pauses excluded).
    #[must_use]
    pub fn move_times(&self, side: Color) -> &[Duration] {
        &self.sides[idx(side)].move_times
    }

    /// The time `side`'s last completed move took.
    #[must_use]
    pub fn last_move_time(&self, side: Color) -> Option<Duration> {
        self.sides[idx(side)].move_times.last().copied()
    }

    /// Everything a player may ask about the clock (001 ch. VIII 5.1), at
    /// `at`, as plain numbers for the speech and braille layers.
    ///
    /// ```
    /// use tandem_rules::clock::{Clock, GameTime, TimeControl};
    /// let mut clock = Clock::new(TimeControl::preset("fmjd-preferred").unwrap());
    /// clock.start(GameTime::ZERO).unwrap();
    /// clock.press(GameTime::from_secs(40)).unwrap();
    /// let r = clock.report(GameTime::from_secs(100));
    /// assert_eq!(r.white.used_ms, 40_000);
    /// assert_eq!(r.white.remaining_ms, 90 * 60_000 - 40_000);
    /// assert_eq!(r.black.used_ms, 60_000);
    /// assert_eq!(r.white.moves_to_control, Some(44));
    /// assert_eq!(r.side_to_move, tandem_rules::Color::Black);
    /// ```
    #[must_use]
    pub fn report(&self, at: GameTime) -> ClockReport {
        let side = |c: Color| SideReport {
            used_ms: millis(self.used(c, at)),
            remaining_ms: millis(self.remaining(c, at)),
            moves_made: self.moves_made(c),
            moves_to_control: self.moves_to_control(c),
            time_trouble: self.in_time_trouble(c, at),
            flag_ms: self.flag(c, at).map(GameTime::as_millis),
            last_move_ms: self.last_move_time(c).map(millis),
            bonus_applies: self.bonus_applies(c),
        };
        ClockReport {
            at_ms: at.as_millis(),
            control: self.control.to_string(),
            side_to_move: self.turn,
            started: self.is_started(),
            running: self.is_running(),
            thinking_ms: millis(self.thinking(at)),
            delay_left_ms: millis(self.delay_left(at)),
            white: side(Color::White),
            black: side(Color::Black),
            first_flag: self.first_flag(at).map(|(side, t)| FlagReport {
                side,
                at_ms: t.as_millis(),
            }),
        }
    }
}
