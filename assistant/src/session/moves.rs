//! A move or a game's own action, typed, spoken, routed or sent: refused
//! with its reason, or journaled, applied, the clock pressed and announced
//! (001 ch. VIII 2.2; the game decides through [`crate::games::Game`]).

use super::*;

impl Session {
    pub(super) fn play(&mut self, text: &str, source: Source) -> Reply {
        if let Some(o) = self.table.game.outcome() {
            return self.refuse_with(
                source,
                text,
                format!("the game is over ({})", o.pdn_result()),
                |s| s.words.game_over_refusal(),
            );
        }
        if self.table.clock.is_paused() {
            return self.refuse_msg(source, text, &Msg::ClockStoppedRefusal);
        }
        if let Some(action) = self.table.game.action(text) {
            return match action {
                Ok(a) if !a.either_seat && self.not_seats_move(a.side) => {
                    self.refuse_msg(source, text, &Msg::NotYourMove)
                }
                Ok(a) => self.act(a, text, source),
                // The refusal in each seat's words (nothing changed).
                Err(r) => self.refuse_with(source, text, r.reason, |s| {
                    match s.table.game.action(text) {
                        Some(Err(r)) => r.say,
                        _ => nothing(),
                    }
                }),
            };
        }
        // A seat plays for its own side only, on its turn.
        if self.not_seats_move(self.table.game.turn()) {
            return self.refuse_msg(source, text, &Msg::NotYourMove);
        }
        let prepared = match self.table.game.prepare(text) {
            Ok(p) => p,
            Err(r) => {
                return self.refuse_with(source, text, r.reason, |s| {
                    s.table
                        .game
                        .prepare(text)
                        .err()
                        .map_or_else(nothing, |r| r.say)
                })
            }
        };
        // The move in each seat's language, made before it is played.
        let in_tongues = self.in_other_tongues(&|s| {
            s.table
                .game
                .prepare(text)
                .map_or_else(|_| nothing(), |p| p.announce)
        });
        let side = self.table.game.turn();
        // A move answers a pending offer from the opponent: no (001 ch. II 5.1).
        if self.table.draw_offer == Some(side.other()) {
            if let Err(e) = self.record(Event::DrawDeclined { side }) {
                tracing::error!("journal: {e}");
            }
        }
        let t = self.now();
        let mut probe = self.table.clock.clone();
        let press = match probe.press(t) {
            Ok(p) => p,
            Err(e) => return self.clock_refused(source, text, &e),
        };
        let event = Event::Move {
            ply: self.table.game.ply() as u32 + 1,
            side,
            text: prepared.text,
            input: text.to_owned(),
            source,
            move_ms: ms(press.move_time),
            white_ms: ms(probe.remaining(Color::White, t)),
            black_ms: ms(probe.remaining(Color::Black, t)),
            seat: self.asker,
        };
        if let Some(r) = self.journal_then_say(event, (source, text), prepared.announce, in_tongues)
        {
            return r;
        }
        self.flags_fell(&press.events);
        self.refresh();
        if let Some(o) = self.table.game.outcome() {
            self.finish(o);
        } else if self.table.game.after_move().is_some() {
            self.announce_with(|s| s.table.game.after_move().unwrap_or_else(nothing));
        }
        self.ok()
    }

    /// The clock would not take the press (`e`): `input` is refused.
    fn clock_refused(&mut self, source: Source, input: &str, e: &dyn std::fmt::Display) -> Reply {
        self.refuse_with(source, input, format!("clock: {e}"), |s| {
            s.words.not_understood()
        })
    }

    /// A move's or an action's `event` journaled first (fsync), then its
    /// words said (design: "The flow of one move", 3); or, when the
    /// journal cannot take it, the refusal of `input` from `source`.
    fn journal_then_say(
        &mut self,
        event: Event,
        (source, input): (Source, &str),
        first: Utterance,
        others: Vec<Utterance>,
    ) -> Option<Reply> {
        if let Err(e) = self.record(event) {
            tracing::error!("journal: {e}");
            return Some(self.refuse_msg(source, input, &Msg::JournalFailed));
        }
        self.announce_made(first, others);
        None
    }

    /// A game action (decided by the game): journaled, applied, the clock
    /// pressed if it ends the turn, announced, exactly as a move is.
    pub(super) fn act(&mut self, a: PreparedAction, input: &str, source: Source) -> Reply {
        let t = self.now();
        let mut probe = self.table.clock.clone();
        let press = if a.press {
            match probe.press(t) {
                Ok(p) => Some(p),
                Err(e) => return self.clock_refused(source, input, &e),
            }
        } else {
            None
        };
        // The action in each seat's language, by its strict words (a roll
        // tandem made is the same roll in every language).
        let strict = a.text.clone();
        let in_tongues = self.in_other_tongues(&|s| match s.table.game.action(&strict) {
            Some(Ok(a)) => a.announce,
            _ => nothing(),
        });
        let event = Event::Action {
            ply: self.table.game.ply() as u32,
            side: a.side,
            text: a.text,
            input: input.to_owned(),
            source,
            press: a.press,
            white_ms: ms(probe.remaining(Color::White, t)),
            black_ms: ms(probe.remaining(Color::Black, t)),
            seat: self.asker,
        };
        if let Some(r) = self.journal_then_say(event, (source, input), a.announce, in_tongues) {
            return r;
        }
        if let Some(p) = &press {
            self.flags_fell(&p.events);
        }
        if let Some(o) = self.table.game.outcome() {
            self.finish(o);
        }
        self.ok()
    }

    /// The flags that fell when the clock was pressed: each journaled,
    /// announced, and the game ended by it (001 ch. VIII 4.1.4).
    fn flags_fell(&mut self, events: &[tandem_rules::clock::ClockEvent]) {
        for e in events
            .iter()
            .filter(|e| matches!(e.kind, ClockEventKind::Flag))
        {
            let _ = self.record(Event::Flag {
                side: e.side,
                at_ms: e.at.as_millis(),
            });
            let side = e.side;
            self.announce_with(|s| s.words.flag_fall(side));
            self.finish(self.table.game.flag_outcome(e.side));
        }
    }
}
