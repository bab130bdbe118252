//! Seats: each player's own channel at one table (001 ch. VIII 1.3, 2.2,
//! 5.1; `docs/seats.md`). What goes where:
//!
//! - a move, the turn, a sync, a draw, the end of the game: every seat
//!   that has speech (each player hears the opponent's move);
//! - the answer to a seat's own request (`clock`, `ask …`, `position`,
//!   `last`, `record`, `help`, the read-back of its spoken move, an error
//!   about its own input): that seat only;
//! - a time warning: the seat whose clock it is;
//! - mismatches, results, pauses, flags, the arbiter's messages: both.
//!
//! Without seats of their own, the table's one output stands for the
//! `--blind` side's seat (both sides' for `both`) and says everything, as
//! before seats. A seat's request plays only for its side.

use super::*;

/// Who an announcement is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Audience {
    /// Every seat, and the table's own output.
    All,
    /// One seat alone.
    Seat(Color),
    /// The table's own output and one seat (not the other side's): words
    /// typed at the table about that side.
    TableAnd(Color),
    /// One seat's own outputs and never the table's loudspeaker (which the
    /// other player hears too): that side's secret (its pairing code).
    Private(Color),
}

impl Audience {
    pub(super) fn includes(self, side: Color) -> bool {
        match self {
            Audience::All => true,
            Audience::Seat(s) | Audience::TableAnd(s) | Audience::Private(s) => s == side,
        }
    }
}

/// One seat's own outputs.
#[derive(Debug, Clone)]
pub struct SeatOutput {
    /// Whose seat.
    pub side: Color,
    /// Its speech (its own speech task); `None`: no speech.
    pub speech: Option<mpsc::UnboundedSender<Utterance>>,
    /// Its braille display's driver thread; `None`: no display.
    pub braille: Option<std::sync::mpsc::Sender<DriverInput>>,
    /// Its language (`lang=`); `None`: the table's.
    pub lang: Option<String>,
}

impl Session {
    /// Who hears an utterance of `kind` said now: the asking seat alone
    /// for the answers to its own requests (a question's answer, a refusal,
    /// a read-back), else everyone.
    pub(super) fn audience(&self, kind: Kind) -> Audience {
        match (self.asker, self.answering, kind) {
            (Some(seat), true, _) | (Some(seat), _, Kind::Rejection | Kind::Confirm) => {
                Audience::Seat(seat)
            }
            _ => Audience::All,
        }
    }

    /// Whether a command only asks (its words are the asker's answer):
    /// the clock (ch. VIII 5.1), questions about the board, the position,
    /// the last move, the record and its review, help.
    pub(super) fn only_asks(cmd: &Cmd) -> bool {
        matches!(
            cmd,
            Cmd::Clock
                | Cmd::Ask(_)
                | Cmd::Position
                | Cmd::Last
                | Cmd::Record(..)
                | Cmd::ReviewMove(_)
                | Cmd::ReviewPly(_)
                | Cmd::Next
                | Cmd::Back
                | Cmd::Live
                | Cmd::Help
                | Cmd::State
                | Cmd::Say(_)
                | Cmd::Tell(_)
        )
    }

    /// The sides whose seat the table's own output stands for when no
    /// seat has outputs of its own: the blind side's, both for `both`.
    fn table_sides(&self) -> Vec<Color> {
        match self.blind {
            Blind::White => vec![Color::White],
            Blind::Black => vec![Color::Black],
            Blind::Both => vec![Color::White, Color::Black],
            Blind::None => Vec::new(),
        }
    }

    /// Sends `u` to the speech of `to`: the table's own output when
    /// `table` (the table's language), and each seat of `to` for which
    /// `hears` holds (its language's words); the sides that heard it (the
    /// journal's `to`), white first.
    pub(super) fn send_speech(
        &self,
        u: &Utterance,
        to: Audience,
        table: bool,
        hears: impl Fn(Color) -> bool,
    ) -> Vec<Color> {
        let mut heard = Vec::new();
        // Without seats the one output says everything, as before seats.
        let shared = matches!(to, Audience::All | Audience::TableAnd(_));
        if table && !matches!(to, Audience::Private(_)) && (self.out.seats.is_empty() || shared) {
            let _ = self.out.speech.send(u.clone());
            if self.out.seats.is_empty() && self.out.table_speaks {
                heard.extend(self.table_sides());
            }
        }
        for s in self
            .out
            .seats
            .iter()
            .filter(|s| to.includes(s.side) && hears(s.side))
        {
            if let Some(tx) = &s.speech {
                let _ = tx.send(u.clone());
                heard.push(s.side);
            }
        }
        crate::seat::sides_in_order(heard)
    }

    /// Every braille display that shows the table: the table's own and
    /// each seat's (with its side: it shows the board as that player sees it).
    pub(super) fn displays(&self) -> Vec<(Option<Color>, std::sync::mpsc::Sender<DriverInput>)> {
        self.out
            .braille
            .iter()
            .map(|b| (None, b.clone()))
            .chain(
                self.out
                    .seats
                    .iter()
                    .filter_map(|s| s.braille.clone().map(|b| (Some(s.side), b))),
            )
            .collect()
    }

    /// Sends `input` to every display, a board seen from each seat's side.
    pub(super) fn show(&self, input: &DriverInput) {
        for (side, b) in self.displays() {
            let input = match (side, input) {
                (Some(side), DriverInput::Board { board, status }) => DriverInput::Board {
                    board: board.clone().seen_by(side),
                    status: status.clone(),
                },
                _ => input.clone(),
            };
            let _ = b.send(input);
        }
    }

    /// The displays of `to`: the asking seat's own, else every one (each
    /// with its seat's side).
    pub(super) fn displays_of(
        &self,
        to: Audience,
    ) -> Vec<(Option<Color>, std::sync::mpsc::Sender<DriverInput>)> {
        match to {
            Audience::Seat(side) if self.out.seats.iter().any(|s| s.side == side) => self
                .out
                .seats
                .iter()
                .filter(|s| s.side == side)
                .filter_map(|s| s.braille.clone().map(|b| (Some(side), b)))
                .collect(),
            _ => self.displays(),
        }
    }

    /// A seat's command with its side filled in where the command names
    /// one (`resign`, `draw offer`, `done`, `missing` from white's seat are
    /// white's).
    pub(super) fn for_seat(&self, cmd: Cmd) -> Cmd {
        let Some(seat) = self.asker else {
            return cmd;
        };
        match cmd {
            Cmd::Resign(None) => Cmd::Resign(Some(seat)),
            Cmd::Draw(what, None) => Cmd::Draw(what, Some(seat)),
            Cmd::Done(None) => Cmd::Done(Some(seat)),
            Cmd::Missing(None) => Cmd::Missing(Some(seat)),
            other => other,
        }
    }

    /// Whether a seat asks to act for the other side (`resign black`,
    /// `done black`, `missing black` from white's seat): refused to that
    /// seat alone.
    pub(super) fn other_sides(&mut self, cmd: &Cmd, source: Source) -> Option<Reply> {
        let seat = self.asker?;
        let named = match cmd {
            // A seat resigns, offers and answers draws, and says its board
            // is up to date (or asks what it lacks) for its own side only
            // (001 ch. VIII 1.3: each player keeps their own board).
            Cmd::Resign(Some(s))
            | Cmd::Draw(_, Some(s))
            | Cmd::Done(Some(s))
            | Cmd::Missing(Some(s)) => *s,
            _ => return None,
        };
        (named != seat).then(|| self.refuse_msg(source, &format!("{cmd:?}"), &Msg::YouPlay(seat)))
    }

    /// Whether the asking seat may play for `side` now: a seat plays only
    /// for its own side (001 ch. VIII 2.2: each player announces their own
    /// moves).
    pub(super) fn not_seats_move(&self, side: Color) -> bool {
        self.asker.is_some_and(|seat| seat != side)
    }

    /// Words made outside the session ([`Cmd::Tell`]): to the asking seat
    /// alone, else the table's own output and the side's seat (everyone's
    /// when they name no side); each seat in its language, the journal
    /// recording what the words say may be written.
    pub(super) fn tell(&mut self, tell: &crate::request::Tell, source: Source) -> Reply {
        let kind = if tell.refusal {
            Kind::Rejection
        } else {
            Kind::Help
        };
        let to = match (self.asker, tell.side) {
            (Some(seat), _) if tell.private => Audience::Private(seat),
            (Some(seat), _) => Audience::Seat(seat),
            (None, Some(side)) if tell.private => Audience::Private(side),
            (None, Some(side)) => Audience::TableAnd(side),
            (None, None) => Audience::All,
        };
        let words = |s: &Session| tell.words_in(&s.table.info.lang).cloned();
        if let (Audience::Private(side), Some(w)) = (to, words(self)) {
            // Its braille display too (read by that player alone).
            self.show_to(side, &w.text);
        }
        let made = self.in_every_tongue(&|s| {
            let text = words(s).map(|w| w.text).unwrap_or_default();
            Utterance::new(Priority::Next, kind, vec![text])
        });
        let journaled = self.in_every_tongue(&|s| {
            let text = words(s).map(|w| w.journaled).unwrap_or_default();
            Utterance::new(Priority::Next, kind, vec![text])
        });
        let journaled = journaled.iter().map(Utterance::text).collect();
        self.announce_versions_as(made, to, Some(journaled));
        if !tell.refusal {
            return self.ok();
        }
        let reason = words(self).map(|w| w.journaled).unwrap_or_default();
        self.rejected(source, &tell.input, reason)
    }
}
