//! Words at the table that are not the game's: `say` (the operator's, the
//! arbiter's from the desk, or a seat's own), `repeat`, and the news that
//! a device became a seat or is one no more (docs/devices.md).
//!
//! A seat's or device's `say` is that seat's words, never the arbiter's:
//! journaled with its `seat`, said as "White says: …", at most
//! [`MAX_SAY_CHARS`] long and [`SAY_BURST`] in any [`SAY_WINDOW`]; past
//! that it is refused, and only the first refusal of a run is journaled
//! and said, so a device sending `say` in a loop grows the journal by a
//! few lines, not by what it sends.

use std::collections::VecDeque;

use super::*;

/// The longest `say` a seat or device may send, in characters.
pub const MAX_SAY_CHARS: usize = 200;

/// How many `say`s a seat may send in any [`SAY_WINDOW`].
pub const SAY_BURST: usize = 5;

/// The window [`SAY_BURST`] counts in.
pub const SAY_WINDOW: Duration = Duration::from_secs(60);

/// Each seat's recent `say`s (white's, black's).
#[derive(Debug, Default)]
pub(crate) struct SeatWords {
    /// When each recent `say` was taken.
    taken: [VecDeque<Instant>; 2],
    /// Whether the seat's latest `say` was refused (the next refusals of
    /// the run are answered, not journaled nor said).
    refused: [bool; 2],
    /// What each seat last heard, in its language (for `repeat`).
    pub(super) last_heard: [Option<Utterance>; 2],
}

impl Session {
    /// `say TEXT`: the operator's or the arbiter's words to every seat, or a
    /// seat's own (bounded; said to it as its words, shown on the screen).
    pub(super) fn say(&mut self, text: &str, source: Source) -> Reply {
        let text = text.trim();
        if text.is_empty() {
            return self.refuse_msg(source, "say", &Msg::UnknownCommand("say".into()));
        }
        let seat = self.asker;
        if let Some(side) = seat {
            if let Some(reply) = self.say_bound(side, text, source) {
                return reply;
            }
        }
        let ev = Event::Say {
            text: text.to_owned(),
            seat,
            source: Some(source),
        };
        if let Err(e) = self.journal.append(self.now().as_millis(), ev) {
            tracing::error!("journal: {e}");
        }
        self.changed = true;
        match seat {
            Some(side) => {
                let m = Msg::SeatSays(side, text.to_owned());
                self.say_msg(Priority::Next, Kind::Help, &m);
            }
            None => self.announce(Utterance::new(
                Priority::Next,
                Kind::Help,
                vec![text.to_owned()],
            )),
        }
        self.ok()
    }

    /// A seat's `say` refused for its length or its rate, if it is; the
    /// first refusal of a run journaled and said, the next ones only answered.
    fn say_bound(&mut self, side: Color, text: &str, source: Source) -> Option<Reply> {
        let now = Instant::now();
        let i = idx(side);
        let chars = text.chars().count();
        let q = &mut self.seat_words.taken[i];
        while q
            .front()
            .is_some_and(|t| now.duration_since(*t) >= SAY_WINDOW)
        {
            q.pop_front();
        }
        let why = if chars > MAX_SAY_CHARS {
            Msg::SayTooLong(MAX_SAY_CHARS)
        } else if q.len() >= SAY_BURST {
            Msg::SayTooOften
        } else {
            q.push_back(now);
            self.seat_words.refused[i] = false;
            return None;
        };
        // Never the words themselves in the journal: their length.
        let input = format!("say ({chars} characters)");
        if std::mem::replace(&mut self.seat_words.refused[i], true) {
            return Some(Reply {
                ok: false,
                error: Some(self.msgs.text(&why)),
                ..Reply::default()
            });
        }
        Some(self.refuse_msg(source, &input, &why))
    }

    /// `repeat`: what the asking seat last heard, to it alone; from the
    /// table's own channel, what the table's output last said.
    pub(super) fn repeat(&mut self) -> Reply {
        let (last, to) = match self.asker {
            Some(side) => (
                self.seat_words.last_heard[idx(side)].clone(),
                Audience::Seat(side),
            ),
            None => (self.last_said.clone(), Audience::All),
        };
        match last {
            Some(u) => self.announce_to(u, to),
            None => self.announce_with_to(|s| s.words.not_understood(), to),
        }
        self.ok()
    }

    /// Keeps what each seat `to` reaches heard (`versions` in each
    /// language), for its `repeat`; and the table output's, for the table's.
    pub(super) fn keep_heard(&mut self, versions: &[Utterance], to: Audience) {
        for side in [Color::White, Color::Black] {
            if to.includes(side) {
                let v = self.version_of(side);
                if let Some(u) = versions.get(v).or(versions.first()) {
                    self.seat_words.last_heard[idx(side)] = Some(u.clone());
                }
            }
        }
        if self.out.seats.is_empty() || matches!(to, Audience::All | Audience::TableAnd(_)) {
            self.last_said = versions.first().cloned();
        }
    }

    /// A device became a seat or is one no more (from tandem itself: the
    /// pairing's hook): journaled (`paired`, `unpaired`, with the seat and
    /// the device's address, never a code), said to that seat, shown on the
    /// screen and that seat's braille display.
    pub(super) fn device_change(&mut self, c: &DeviceChange, source: Source) -> Reply {
        if source != Source::Tandem {
            let m = Msg::UnknownCommand("paired".into());
            return self.refuse_msg(source, "paired", &m);
        }
        let (seat, address) = (c.side, c.address.clone());
        let (event, m) = if c.paired {
            (
                Event::Paired { seat, address },
                Msg::DevicePaired(seat, c.address.clone()),
            )
        } else {
            (
                Event::Unpaired { seat, address },
                Msg::DeviceUnpaired(seat, c.address.clone()),
            )
        };
        if let Err(e) = self.record(event) {
            tracing::error!("journal: {e}");
        }
        self.show_to(seat, &self.msgs.text(&m));
        self.announce_with_to(
            |s| s.msgs.utter(Priority::Now, Kind::Help, &m),
            Audience::Seat(seat),
        );
        self.ok()
    }

    /// Shows `text` as a message line on `side`'s own braille displays:
    /// its seat's, and the table's when the table stands for that side alone.
    pub(super) fn show_to(&self, side: Color, text: &str) {
        let table_is_sides = self.blind.side() == Some(side);
        for (of, b) in self.displays() {
            if of == Some(side) || (of.is_none() && table_is_sides) {
                let _ = b.send(DriverInput::Message(text.to_owned()));
            }
        }
    }
}
