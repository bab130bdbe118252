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

    pub(super) fn pause(&mut self, source: Source) -> Reply {
        if !self.table.clock.is_running() {
            return self.refuse_msg(source, "pause", &Msg::AlreadyPaused);
        }
        if let Err(e) = self.record(Event::Pause {
            reason: format!("{source:?}").to_lowercase(),
        }) {
            return self.refuse(
                source,
                "pause",
                format!("journal: {e}"),
                self.msgs
                    .utter(Priority::Now, Kind::Rejection, &Msg::JournalFailed),
            );
        }
        self.announce_with(|s| s.words.clock_stopped());
        self.ok()
    }

    pub(super) fn resume_clock(&mut self, source: Source) -> Reply {
        if !self.table.clock.is_paused() || self.table.result.is_some() {
            return self.refuse_msg(source, "resume", &Msg::NotPaused);
        }
        if let Err(e) = self.record(Event::Resume) {
            return self.refuse(
                source,
                "resume",
                format!("journal: {e}"),
                self.msgs
                    .utter(Priority::Now, Kind::Rejection, &Msg::JournalFailed),
            );
        }
        self.say_msg(Priority::Next, Kind::Clock, &Msg::ClockRunning);
        self.announce_with(|s| s.words.turn(s.table.game.turn()));
        self.ok()
    }
}
