//! The written form of a [`TimeControl`] read back: [`FromStr`] (the
//! grammar in the [clock module docs](crate::clock)), its errors, and serde
//! through the written form or a preset name.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::time::Duration;

use super::{Bonus, BonusKind, InvalidTimeControl, Period, TimeControl, MAX_MOVES, MAX_TIME, NONE};

/// What is wrong in a written time control.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseReason {
    /// Nothing but spaces.
    Empty,
    /// A number was expected here.
    ExpectedNumber,
    /// A time without a unit (`90` instead of `90m`), or an unknown unit.
    ExpectedUnit,
    /// Units out of order or repeated (`30s1m`, `1m1m`).
    UnitOrder,
    /// A fraction on hours or minutes (`1.5m`): write `1m30s`.
    FractionNotSeconds,
    /// More than 9 decimal places.
    TooPrecise,
    /// A number too large.
    TooLarge,
    /// Not a whole number of moves ≥ 1.
    BadMoves,
    /// `*` on a period that is not the last.
    RepeatNotLast,
    /// An unknown bonus kind after `:`.
    BadKind,
    /// Text where the control should have ended.
    Trailing,
    /// Well-formed, but not a valid control.
    Invalid(InvalidTimeControl),
}

impl fmt::Display for ParseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseReason::Empty => f.write_str("the time control is empty"),
            ParseReason::ExpectedNumber => f.write_str("expected a number"),
            ParseReason::ExpectedUnit => f.write_str("a time needs a unit: h, m or s"),
            ParseReason::UnitOrder => {
                f.write_str("units must come in the order h, m, s, each at most once")
            }
            ParseReason::FractionNotSeconds => {
                f.write_str("only seconds may have a fraction (write 1m30s, not 1.5m)")
            }
            ParseReason::TooPrecise => f.write_str("more than 9 decimal places"),
            ParseReason::TooLarge => f.write_str("number too large"),
            ParseReason::BadMoves => f.write_str("a number of moves must be a whole number from 1"),
            ParseReason::RepeatNotLast => f.write_str("only the last period may repeat (*)"),
            ParseReason::BadKind => {
                f.write_str("unknown bonus kind: expected fischer, bronstein or delay")
            }
            ParseReason::Trailing => f.write_str("unexpected text"),
            ParseReason::Invalid(e) => fmt::Display::fmt(e, f),
        }
    }
}

/// A written time control that does not parse: the input, the byte range of
/// the part that is wrong, and why.
///
/// ```
/// use tandem_rules::clock::{ParseReason, TimeControl};
/// let err = "90m/4x5".parse::<TimeControl>().unwrap_err();
/// assert_eq!(err.part(), "x5");
/// assert_eq!(err.reason(), &ParseReason::Trailing);
/// assert_eq!(err.to_string(), r#"time control "90m/4x5": unexpected text at "x5""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTimeControlError {
    input: String,
    span: Range<usize>,
    reason: ParseReason,
}

impl ParseTimeControlError {
    /// The text that was parsed.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Byte range of the wrong part within [`input`](Self::input).
    #[must_use]
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// The wrong part itself (the whole input when the control as a whole is
    /// invalid).
    #[must_use]
    pub fn part(&self) -> &str {
        self.input.get(self.span.clone()).unwrap_or(&self.input)
    }

    /// Why it is wrong.
    #[must_use]
    pub fn reason(&self) -> &ParseReason {
        &self.reason
    }
}

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "time control {:?}: {}", self.input, self.reason)?;
        let part = self.part();
        if part.is_empty() {
            f.write_str(" at the end")
        } else if part != self.input {
            write!(f, " at {part:?}")
        } else {
            Ok(())
        }
    }
}

impl std::error::Error for ParseTimeControlError {}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// Parses the written form (grammar in the [module docs](super)). The
    /// parser is relaxed: spaces between parts, any letter case, `min`/`'`
    /// for minutes and `sec`/`"` for seconds; `Display` writes the strict form.
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        if s.trim().eq_ignore_ascii_case(NONE) {
            return Ok(TimeControl::none());
        }
        Parser { s, pos: 0 }
            .control()
            .map_err(|(span, reason)| ParseTimeControlError {
                input: s.to_owned(),
                span,
                reason,
            })
    }
}

impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for TimeControl {
    /// From the written form or a preset name.
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<TimeControl, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(de)?;
        TimeControl::lookup(&s).map_err(serde::de::Error::custom)
    }
}

type PResult<T> = Result<T, (Range<usize>, ParseReason)>;

/// A cursor over the written form. Positions are byte offsets; every token is
/// ASCII, so slicing at them is safe even in non-ASCII input (a non-ASCII
/// character is never consumed, only reported).
struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek_char() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    fn peek_char(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    /// Skips spaces, then consumes `c` if it comes next.
    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek_char() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// The span from `start` to the end of the current word (up to a
    /// separator), for errors that name the wrong part.
    fn word_from(&self, start: usize) -> Range<usize> {
        let rest = &self.s[start..];
        let len = rest
            .find(|c: char| c.is_whitespace() || ",/+@:*".contains(c))
            .unwrap_or(rest.len());
        start..start + len.max(rest.chars().next().map_or(0, char::len_utf8))
    }

    fn control(&mut self) -> PResult<TimeControl> {
        self.skip_ws();
        if self.pos == self.s.len() {
            return Err((0..self.s.len(), ParseReason::Empty));
        }
        let mut periods = Vec::new();
        let mut repeat_last = false;
        loop {
            self.skip_ws();
            let start = self.pos;
            let time = self.duration()?;
            let mut moves = None;
            if self.eat('/') {
                moves = Some(self.count()?);
                let star_at = self.pos;
                if self.eat('*') {
                    repeat_last = true;
                    self.skip_ws();
                    if self.peek_char() == Some(',') {
                        return Err((star_at..self.pos, ParseReason::RepeatNotLast));
                    }
                }
            }
            periods.push((start..self.pos, Period { time, moves }));
            if !self.eat(',') {
                break;
            }
        }
        let mut bonus = None;
        if self.eat('+') {
            self.skip_ws();
            let amount = self.duration()?;
            let mut from_move = 1;
            if self.eat('@') {
                from_move = self.count()?;
            }
            let mut kind = BonusKind::Fischer;
            if self.eat(':') {
                self.skip_ws();
                let start = self.pos;
                let word = self.s[start..]
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .next()
                    .unwrap_or("");
                kind = match word.to_ascii_lowercase().as_str() {
                    "fischer" => BonusKind::Fischer,
                    "bronstein" => BonusKind::Bronstein,
                    "delay" => BonusKind::Delay,
                    _ => return Err((self.word_from(start), ParseReason::BadKind)),
                };
                self.pos += word.len();
            }
            bonus = Some(Bonus {
                kind,
                amount,
                from_move,
            });
        }
        self.skip_ws();
        if self.pos < self.s.len() {
            return Err((self.pos..self.s.len(), ParseReason::Trailing));
        }
        let spans: Vec<Range<usize>> = periods.iter().map(|(r, _)| r.clone()).collect();
        let periods = periods.into_iter().map(|(_, p)| p).collect();
        TimeControl::new(periods, repeat_last, bonus).map_err(|e| {
            // Point at the period at fault where there is one.
            let span = match &e {
                InvalidTimeControl::MissingMoves(i) | InvalidTimeControl::ZeroMoves(i) => {
                    spans[*i].clone()
                }
                InvalidTimeControl::ZeroFirstPeriod => spans[0].clone(),
                InvalidTimeControl::LastPeriodEnds => spans[spans.len() - 1].clone(),
                _ => 0..self.s.len(),
            };
            (span, ParseReason::Invalid(e))
        })
    }

    /// A number of moves ≥ 1.
    /// How many ASCII digits the text has from byte `at` on.
    fn digits_at(&self, at: usize) -> usize {
        self.s[at..].bytes().take_while(u8::is_ascii_digit).count()
    }

    fn count(&mut self) -> PResult<u32> {
        self.skip_ws();
        let start = self.pos;
        let digits = self.digits_at(start);
        if digits == 0 {
            return Err((self.word_from(start), ParseReason::BadMoves));
        }
        self.pos += digits;
        match self.s[start..self.pos].parse::<u32>() {
            Ok(0) => Err((start..self.pos, ParseReason::BadMoves)),
            Ok(n) if n <= MAX_MOVES => Ok(n),
            _ => Err((start..self.pos, ParseReason::TooLarge)),
        }
    }

    /// `1h30m`, `90m`, `15'`, `2.5s`, `5"`: one or more number-unit pairs.
    fn duration(&mut self) -> PResult<Duration> {
        let start = self.pos;
        let mut total = Duration::ZERO;
        // Rank of the last unit read: 3 = none yet, 2 = h, 1 = m, 0 = s.
        let mut last_rank = 3;
        loop {
            if last_rank != 3 {
                // Another number-unit pair may follow, after spaces (`1h 30m`).
                let before = self.pos;
                self.skip_ws();
                if !self.s[self.pos..].starts_with(|c: char| c.is_ascii_digit()) {
                    self.pos = before;
                    break;
                }
            }
            let num_start = self.pos;
            let int_len = self.digits_at(num_start);
            if int_len == 0 {
                if last_rank == 3 {
                    return Err((self.word_from(num_start), ParseReason::ExpectedNumber));
                }
                break;
            }
            self.pos += int_len;
            let int: u64 = self.s[num_start..self.pos]
                .parse()
                .map_err(|_| (num_start..self.pos, ParseReason::TooLarge))?;
            let mut nanos: u32 = 0;
            let mut has_fraction = false;
            if self.s[self.pos..].starts_with('.') {
                let frac_len = self.digits_at(self.pos + 1);
                if frac_len == 0 {
                    return Err((self.word_from(num_start), ParseReason::ExpectedNumber));
                }
                if frac_len > 9 {
                    return Err((num_start..self.pos + 1 + frac_len, ParseReason::TooPrecise));
                }
                let frac = &self.s[self.pos + 1..self.pos + 1 + frac_len];
                // At most 9 ASCII digits: fits a u32.
                nanos = frac.parse::<u32>().unwrap_or(0) * 10u32.pow(9 - frac_len as u32);
                has_fraction = true;
                self.pos += 1 + frac_len;
            }
            let num_end = self.pos;
            let (rank, unit_len) = self.unit();
            if unit_len == 0 {
                return Err((self.word_from(num_start), ParseReason::ExpectedUnit));
            }
            self.pos += unit_len;
            if rank >= last_rank {
                return Err((num_start..self.pos, ParseReason::UnitOrder));
            }
            if has_fraction && rank != 0 {
                return Err((num_start..self.pos, ParseReason::FractionNotSeconds));
            }
            last_rank = rank;
            let scale = [1, 60, 3600][rank];
            let part = int
                .checked_mul(scale)
                .map(|secs| Duration::new(secs, nanos))
                .filter(|d| *d <= MAX_TIME)
                .ok_or((num_start..num_end, ParseReason::TooLarge))?;
            total += part;
            if total > MAX_TIME {
                return Err((start..self.pos, ParseReason::TooLarge));
            }
        }
        Ok(total)
    }

    /// The unit at the cursor: (rank, length in bytes), or length 0 when
    /// there is none. Rank 2 = hours, 1 = minutes, 0 = seconds.
    /// Spaces may come between the number and the unit (`80 min`).
    fn unit(&self) -> (usize, usize) {
        let after = &self.s[self.pos..];
        let rest = after.trim_start();
        let ws = after.len() - rest.len();
        let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let word = rest[..word_len].to_ascii_lowercase();
        let (rank, len) = match word.as_str() {
            "h" => (2, 1),
            "m" | "min" => (1, word_len),
            "s" | "sec" => (0, word_len),
            "" if rest.starts_with('\'') => (1, 1),
            "" if rest.starts_with('"') => (0, 1),
            _ => return (0, 0),
        };
        (rank, ws + len)
    }
}
