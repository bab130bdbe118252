//! The clock's requests: its report (001 ch. VIII 5.1), the arbiter's
//! setting of a side's time, pause and resume.

use super::*;

impl Session {
    pub(super) fn clock_report(&self) -> tandem_speech::ClockReport {
        let now = self.now();
        let c = &self.table.clock;
        let side = |s: Color| tandem_speech::SideClock {
            used: c.used(s, now),
            remaining: c.remaining(s, now),
        };
        let g = &self.table.game;
        tandem_speech::ClockReport {
            white: side(Color::White),
            black: side(Color::Black),
            // 001 ch. VIII 5.1: the number of moves made.
            moves_made: g.moves_made(Color::White).max(g.moves_made(Color::Black)),
            moves_to_control: c.moves_to_control(g.turn()),
        }
    }

    /// A table in a hall (`tandem play --relay`): a refused arbiter's
    /// action says that the arbiter acts from the desk.
    pub fn set_in_hall(&mut self, in_hall: bool) {
        self.in_hall = in_hall;
    }

    /// What a refused arbiter's action says.
    pub(super) fn arbiter_only(&self) -> Msg {
        if self.in_hall {
            Msg::ArbiterAtDesk
        } else {
            Msg::ArbiterOnly
        }
    }

    pub(super) fn clock_set(&mut self, side: Color, secs: u64, source: Source) -> Reply {
        let input = format!("clock set {side} {secs}");
        if source != Source::Arbiter {
            let m = self.arbiter_only();
            return self.refuse_msg(source, &input, &m);
        }
        let remaining_ms = secs.saturating_mul(1000);
        if let Err(e) = self.record(Event::ClockSet {
            side,
            remaining_ms,
            source,
        }) {
            tracing::error!("journal: {e}");
        }
        self.say_msg(Priority::Next, Kind::Clock, &Msg::ClockSet(side, secs));
        self.ok()
    }

    /// Stops the clock. Anyone at the table may (FIDE Laws 6.12b: a player
    /// stops the clock to call the arbiter): a seat's or device's pause is
    /// said to both seats as that seat calling the arbiter, and journaled
    /// with its `seat`; every `pause` line names its `source`.
    pub(super) fn pause(&mut self, source: Source) -> Reply {
        if !self.table.clock.is_running() {
            return self.refuse_msg(source, "pause", &Msg::AlreadyPaused);
        }
        let seat = self.asker;
        if let Err(e) = self.record(Event::Pause {
            reason: format!("{source:?}").to_lowercase(),
            source: Some(source),
            seat,
        }) {
            return self.unrecorded(source, "pause", &e);
        }
        if let Some(side) = seat {
            // Both seats hear who stopped it and why (not an answer).
            self.announce_with_to(
                |s| {
                    s.msgs
                        .utter(Priority::Now, Kind::Clock, &Msg::SeatCallsArbiter(side))
                },
                Audience::All,
            );
        }
        self.announce_with(|s| s.words.clock_stopped());
        self.ok()
    }

    /// Who may restart a stopped clock (FIDE Laws 6.12; 001 ch. VIII: the
    /// arbiter decides when a stopped clock runs again): the arbiter (the
    /// desk's signed command, the arbiter's secret) or the table's operator
    /// (its own screen, `tandem ctl` without `--seat`); never a seat, a
    /// device, the braille keys or a microphone.
    pub(super) fn may_restart(&self, source: Source) -> bool {
        self.asker.is_none() && matches!(source, Source::Arbiter | Source::Typed | Source::Control)
    }

    pub(super) fn resume_clock(&mut self, source: Source) -> Reply {
        if !self.may_restart(source) {
            return self.refuse_msg(source, "resume", &Msg::RestartArbiterOnly);
        }
        if !self.table.clock.is_paused() || self.table.result.is_some() {
            return self.refuse_msg(source, "resume", &Msg::NotPaused);
        }
        if let Err(e) = self.record(Event::Resume {
            source: Some(source),
            seat: None,
        }) {
            return self.unrecorded(source, "resume", &e);
        }
        self.say_msg(Priority::Next, Kind::Clock, &Msg::ClockRunning);
        self.announce_with(|s| s.words.turn(s.table.game.turn()));
        self.ok()
    }

    /// The next moment the clock has something to say (a warning, a flag).
    #[must_use]
    pub fn next_deadline(&self) -> Option<Instant> {
        if self.table.result.is_some() {
            return None;
        }
        self.table
            .clock
            .next_event(self.now())
            .map(|e| self.instant_of(e.at))
    }

    /// When the next clock checkpoint is due: [`CHECKPOINT`] after the
    /// journal's last line (any line is a checkpoint), while the clock runs
    /// and the game goes on. `None` while it is paused or the game is over.
    #[must_use]
    pub fn next_checkpoint(&self) -> Option<Instant> {
        if self.table.result.is_some() || !self.table.clock.is_running() {
            return None;
        }
        let at = self.journal.last_t_ms().saturating_add(ms(CHECKPOINT));
        Some(self.instant_of(GameTime::from_millis(at)))
    }

    /// Journals a `tick` checkpoint if one is due (see [`Session::next_checkpoint`]),
    /// so that a resume after a crash charges the side to move up to here.
    /// Nobody is told: it is not an announcement and changes no state.
    pub fn checkpoint(&mut self) {
        if self
            .next_checkpoint()
            .is_some_and(|due| due <= Instant::now())
        {
            if let Err(e) = self.journal.append(self.now().as_millis(), Event::Tick) {
                tracing::error!("journal: {e}");
            }
        }
    }

    /// Gives the clock's warnings and flag falls up to now (001 ch. VIII 4.1.4).
    pub fn poll_clock(&mut self) {
        if self.table.result.is_some() || !self.table.clock.is_running() {
            return;
        }
        let now = self.now();
        let mut probe = self.table.clock.clone();
        let events = match probe.advance(now) {
            Ok(e) => e,
            Err(e) => {
                tracing::error!("clock: {e}");
                return;
            }
        };
        for e in events {
            let event = match e.kind {
                ClockEventKind::Warning(left) => Event::Warning {
                    side: e.side,
                    left_ms: ms(left),
                },
                ClockEventKind::Flag => Event::Flag {
                    side: e.side,
                    at_ms: e.at.as_millis(),
                },
                _ => continue,
            };
            if let Err(err) = self.record(event) {
                tracing::error!("journal: {err}");
                continue;
            }
            match e.kind {
                ClockEventKind::Warning(left) => {
                    // To the seat whose clock it is.
                    let side = e.side;
                    self.announce_with_to(|s| s.words.low_time(side, left), Audience::Seat(side));
                }
                ClockEventKind::Flag => {
                    // 001 ch. VIII 4.1.4: the flag fall is claimed and recorded.
                    let side = e.side;
                    self.announce_with(|s| s.words.flag_fall(side));
                    let o = self.table.game.flag_outcome(e.side);
                    self.finish(o);
                }
                _ => {}
            }
        }
        self.refresh();
    }

    pub(super) fn finish(&mut self, outcome: Outcome) {
        if self.table.result.is_some() {
            return;
        }
        match self.record(Event::Result {
            result: outcome.pdn_result().to_owned(),
            outcome,
        }) {
            Ok(_) => self.announce_with(|s| s.table.game.game_over(&outcome)),
            Err(e) => tracing::error!("journal: {e}"),
        }
    }
}
