//! [`Announcer`]: the sentences every game shares (whose turn, clock
//! reports, low time and flags, boards in sync, resuming, help) to
//! [`Utterance`]s, through a [`Phrasebook`]. Pure: no I/O, no time read.
//! Each game adds its own sentences in its folder (draughts' moves and
//! refusals: `speech/src/draughts/announcer.rs`). Golden-tested in
//! `speech/tests/golden/*.txt`.
//!
//! Priorities (see [`Priority`]): the answer to the player's own input (a
//! rejection, "say again"), a flag fall and boards that differ interrupt
//! (`Now`); a move, a read-back, a clock report and warnings come next
//! (`Next`); the rest queues (`Normal`).

use std::time::Duration;

use tandem_rules::Color;

use crate::phrasebook::{Phrasebook, SquareStyle, Value};
use crate::utterance::{Kind, Priority, Utterance};

/// How the announcer speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AnnounceOptions {
    /// How squares of 64-square draughts are named.
    pub square_style: SquareStyle,
    /// Also say the landing squares of a capture of two or more pieces
    /// (the tactile board does not need them; some players ask).
    pub landings: bool,
}

/// One side's clock, for [`ClockReport`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideClock {
    /// Time used so far.
    pub used: Duration,
    /// Time left.
    pub remaining: Duration,
}

/// What a player may ask of the clock (001 ch. VIII 5.1: the time used by
/// both sides and the number of moves made), plus the moves to the next
/// control. The daemon fills it from the rules engine's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClockReport {
    /// White's clock.
    pub white: SideClock,
    /// Black's clock.
    pub black: SideClock,
    /// Moves completed (by the side that has made more: the move number).
    pub moves_made: u32,
    /// Moves still to make before the next time control, if there is one.
    pub moves_to_control: Option<u32>,
}

impl From<&tandem_rules::ClockReport> for ClockReport {
    /// The rules engine's clock report: moves made is the move number (the
    /// larger count of the two sides), the moves to the control are those of
    /// the side to move (the player who may ask, 001 ch. VIII 5.1).
    fn from(r: &tandem_rules::ClockReport) -> ClockReport {
        let side = |s: &tandem_rules::clock::SideReport| SideClock {
            used: Duration::from_millis(s.used_ms),
            remaining: Duration::from_millis(s.remaining_ms),
        };
        ClockReport {
            white: side(&r.white),
            black: side(&r.black),
            moves_made: r.white.moves_made.max(r.black.moves_made),
            moves_to_control: r.side(r.side_to_move).moves_to_control,
        }
    }
}

/// Moves, clock reports, rejections and events to utterances. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Announcer {
    pub(crate) book: Phrasebook,
    pub(crate) options: AnnounceOptions,
}

pub(crate) fn capitalize_sentences(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut at_start = true;
    let mut prev_end = false;
    for c in s.chars() {
        if at_start && c.is_alphabetic() {
            out.extend(c.to_uppercase());
            at_start = false;
            prev_end = false;
            continue;
        }
        if c.is_alphanumeric() {
            at_start = false;
        }
        if prev_end && c == ' ' {
            at_start = true;
        }
        prev_end = matches!(c, '.' | '?' | '!');
        out.push(c);
    }
    out
}

impl Announcer {
    /// An announcer speaking from `book`.
    #[must_use]
    pub fn new(book: Phrasebook, options: AnnounceOptions) -> Announcer {
        Announcer { book, options }
    }

    /// The phrasebook.
    #[must_use]
    pub fn phrasebook(&self) -> &Phrasebook {
        &self.book
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> AnnounceOptions {
        self.options
    }

    pub(crate) fn sentence(&self, key: &str, args: &[(&str, Value)]) -> String {
        capitalize_sentences(&self.book.render(key, args))
    }

    pub(crate) fn utter(
        &self,
        priority: Priority,
        kind: Kind,
        sentences: Vec<String>,
    ) -> Utterance {
        Utterance::new(priority, kind, sentences)
    }

    /// The entry was cancelled.
    #[must_use]
    pub fn cancelled(&self) -> Utterance {
        self.utter(
            Priority::Now,
            Kind::Confirm,
            vec![self.sentence("move.cancelled", &[])],
        )
    }

    /// Whose move it is.
    #[must_use]
    pub fn turn(&self, side: Color) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Turn,
            vec![self.sentence("turn.to_move", &[("side", Value::Side(side))])],
        )
    }

    /// A clock report (001 ch. VIII 5.1): time used and left for both sides,
    /// moves made, moves to the next control. Durations in words, never as a
    /// clock reading.
    #[must_use]
    pub fn on_clock(&self, r: &ClockReport) -> Utterance {
        let mut s = Vec::new();
        for (side, c) in [(Color::White, r.white), (Color::Black, r.black)] {
            s.push(self.sentence(
                "clock.side",
                &[
                    ("side", Value::Side(side)),
                    ("used", Value::Text(self.book.duration(c.used))),
                    ("left", Value::Text(self.book.duration(c.remaining))),
                ],
            ));
        }
        s.push(self.sentence(
            "clock.moves_made",
            &[("count", Value::Number(u64::from(r.moves_made)))],
        ));
        if let Some(n) = r.moves_to_control {
            s.push(self.sentence(
                "clock.to_control",
                &[("count", Value::Number(u64::from(n)))],
            ));
        }
        self.utter(Priority::Next, Kind::Clock, s)
    }

    /// A low-time warning: "Warning, white: two minutes left".
    #[must_use]
    pub fn low_time(&self, side: Color, left: Duration) -> Utterance {
        let s = self.sentence(
            "clock.low_time",
            &[
                ("side", Value::Side(side)),
                ("left", Value::Text(self.book.duration(left))),
            ],
        );
        self.utter(Priority::Next, Kind::Warning, vec![s])
    }

    /// A flag fell (interrupts).
    #[must_use]
    pub fn flag_fall(&self, side: Color) -> Utterance {
        let s = self.sentence("clock.flag_fall", &[("side", Value::Side(side))]);
        self.utter(Priority::Now, Kind::Warning, vec![s])
    }

    /// The clock was stopped.
    #[must_use]
    pub fn clock_stopped(&self) -> Utterance {
        self.utter(
            Priority::Next,
            Kind::Clock,
            vec![self.sentence("clock.stopped", &[])],
        )
    }

    /// A move after the game ended.
    #[must_use]
    pub fn game_over_refusal(&self) -> Utterance {
        self.utter(
            Priority::Now,
            Kind::Rejection,
            vec![self.sentence("reject.game_over", &[])],
        )
    }

    /// Nothing was understood clearly: ask to repeat (nothing is played on a guess).
    #[must_use]
    pub fn not_understood(&self) -> Utterance {
        self.utter(
            Priority::Now,
            Kind::Rejection,
            vec![self.sentence("reject.not_understood", &[])],
        )
    }

    /// The position occurred for the second time: a third is a draw (001 ch. I 6.1).
    #[must_use]
    pub fn repetition_warning(&self) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Draw,
            vec![self.sentence("draw.repetition", &[])],
        )
    }

    /// Both boards agree.
    #[must_use]
    pub fn boards_in_sync(&self) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Sync,
            vec![self.sentence("sync.in_sync", &[])],
        )
    }

    /// The daemon resumed a game after a restart.
    #[must_use]
    pub fn resumed(&self, moves_made: u32, turn: Color) -> Utterance {
        let s = vec![
            self.sentence(
                "sync.resumed",
                &[("count", Value::Number(u64::from(moves_made)))],
            ),
            self.sentence("turn.to_move", &[("side", Value::Side(turn))]),
        ];
        self.utter(Priority::Next, Kind::Sync, s)
    }

    /// Any phrasebook template as an utterance (the daemon's own messages,
    /// `game.*` keys): sentences capitalised like every other announcement.
    #[must_use]
    pub fn message(
        &self,
        key: &str,
        args: &[(&str, Value)],
        priority: Priority,
        kind: Kind,
    ) -> Utterance {
        self.utter(priority, kind, vec![self.sentence(key, args)])
    }

    /// What can be said.
    #[must_use]
    pub fn help(&self) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Help,
            vec![self.sentence("help.text", &[])],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::capitalize_sentences;

    #[test]
    fn capitalizes_each_sentence() {
        assert_eq!(
            capitalize_sentences("białe: x. czarne? y"),
            "Białe: x. Czarne? Y"
        );
        assert_eq!(
            capitalize_sentences("game resumed. twenty moves made."),
            "Game resumed. Twenty moves made."
        );
        assert_eq!(capitalize_sentences("32.5 a"), "32.5 a");
    }
}

#[cfg(test)]
mod clock_tests {
    use std::time::Duration;

    use tandem_rules::clock::{ClockReport as RulesReport, SideReport};
    use tandem_rules::Color;

    use super::ClockReport;

    fn side(
        used_ms: u64,
        remaining_ms: u64,
        moves_made: u32,
        moves_to_control: Option<u32>,
    ) -> SideReport {
        SideReport {
            used_ms,
            remaining_ms,
            moves_made,
            moves_to_control,
            time_trouble: false,
            flag_ms: None,
            last_move_ms: None,
            bonus_applies: false,
        }
    }

    #[test]
    fn from_the_rules_engines_clock_report() {
        let r = RulesReport {
            at_ms: 0,
            control: "80+1".into(),
            side_to_move: Color::Black,
            started: true,
            running: true,
            thinking_ms: 0,
            delay_left_ms: 0,
            white: side(725_000, 2_875_000, 21, Some(19)),
            black: side(61_500, 3_538_500, 20, Some(20)),
            first_flag: None,
        };
        let c = ClockReport::from(&r);
        assert_eq!(c.white.used, Duration::from_secs(725));
        assert_eq!(c.black.remaining, Duration::from_millis(3_538_500));
        assert_eq!(c.moves_made, 21);
        assert_eq!(c.moves_to_control, Some(20));
    }
}
