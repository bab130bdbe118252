//! Voice input in the session: what was heard is journaled, then decided
//! on exactly as typed input is.

use super::*;

/// Voice input (`crate::voice`): what was heard is journaled, then decided
/// on exactly as typed input is.
impl Session {
    pub(super) fn say_voice(&mut self, m: &crate::voice::VoiceMsg) {
        self.announce_with(|s| m.utter(s.words.phrasebook().language()));
    }

    pub(super) fn listen(&mut self, source: Source) -> Reply {
        use crate::voice::VoiceMsg;
        let seat = self.asker;
        let Some(v) = self.voice_of(seat).filter(|v| v.alive) else {
            let lang = self.words.phrasebook().language().to_owned();
            let u = VoiceMsg::VoiceOff.utter(&lang);
            return self.refuse(source, "listen", "voice input is off".into(), u);
        };
        let m = v.toggle();
        // Push-to-talk says nothing: speaking would mute the microphone just
        // as the player starts to talk.
        if !v.push_to_talk() {
            self.say_voice(&m);
        }
        self.ok()
    }

    /// The link of `seat`'s microphone, else the table's, else any.
    fn voice_of(&mut self, seat: Option<Color>) -> Option<&mut crate::voice::VoiceLink> {
        let i = self
            .voices
            .iter()
            .position(|v| v.seat == seat)
            .or_else(|| self.voices.iter().position(|v| v.seat.is_none()))
            .or((!self.voices.is_empty()).then_some(0))?;
        self.voices.get_mut(i)
    }

    pub(super) fn voice_input(&mut self, v: crate::voice::VoiceInput, seat: Option<Color>) {
        use crate::voice::{VoiceInput, VoiceMsg};
        self.said.clear();
        self.poll_clock();
        self.said.clear();
        // What a seat's microphone heard is that seat's request.
        self.asker = seat;
        self.answering = false;
        match v {
            VoiceInput::Heard(s) => self.spoken(*s),
            VoiceInput::Microphone { ok, error } => {
                if let Err(e) = self.journal.append(
                    self.now().as_millis(),
                    Event::Microphone {
                        ok,
                        error: error.clone(),
                        seat,
                    },
                ) {
                    tracing::error!("journal: {e}");
                }
                // Opened at start: on record only; lost, or back after a loss: said.
                let was_lost = self
                    .voice_of(seat)
                    .is_some_and(|v| std::mem::replace(&mut v.mic_lost, !ok));
                if !ok {
                    self.say_voice(&VoiceMsg::MicLost);
                } else if was_lost {
                    self.say_voice(&VoiceMsg::MicBack);
                }
            }
            VoiceInput::Failed(error) => {
                tracing::error!("voice input: {error}");
                if let Some(v) = self.voice_of(seat) {
                    v.alive = false;
                }
                let error = format!("speech recognition: {error}");
                if let Err(e) = self.journal.append(
                    self.now().as_millis(),
                    Event::Microphone {
                        ok: false,
                        error,
                        seat,
                    },
                ) {
                    tracing::error!("journal: {e}");
                }
                self.say_voice(&VoiceMsg::Failed);
            }
        }
        self.asker = None;
        self.refresh();
        self.said.clear();
        self.check_journal();
    }

    pub(super) fn resync_voice(&mut self) {
        let (ply, pos) = (self.table.game.ply() as u32, self.table.game.position());
        for v in &mut self.voices {
            v.reset(ply, pos.clone());
        }
    }

    /// What the session makes of an utterance before acting: `stale` (heard
    /// in a position that has passed), `not-your-move`, `game-over`, or
    /// the listener's action.
    pub(super) fn voice_verdict(
        &self,
        stale: bool,
        is_move: bool,
        action: &'static str,
    ) -> &'static str {
        let turn = self.table.game.turn();
        if stale {
            "stale"
        } else if is_move && self.asker.or(self.blind.side()).is_some_and(|b| b != turn) {
            // The grammar holds the side to move's moves: the blind player
            // does not enter the sighted opponent's moves by voice, nor a
            // seat the other seat's.
            "not-your-move"
        } else if is_move && self.table.game.outcome().is_some() {
            "game-over"
        } else {
            action
        }
    }

    /// 001 ch. VIII 3.2: what was heard is on record before anything is done.
    pub(super) fn journal_heard(
        &mut self,
        ply: u32,
        transcript: &str,
        conf: f64,
        fields: (&str, String),
        decision: &str,
    ) {
        let conf = conf.clamp(0.0, 1.0);
        let ev = Event::Heard {
            ply,
            transcript: transcript.to_owned(),
            // Rounded into 0..=100 by the clamp above.
            confidence_pct: (conf * 100.0).round() as u8,
            kind: fields.0.to_owned(),
            text: fields.1,
            decision: decision.to_owned(),
            seat: self.asker,
        };
        if let Err(e) = self.journal.append(self.now().as_millis(), ev) {
            tracing::error!("journal: {e}");
        }
    }

    /// A spoken command, run as the typed one.
    pub(super) fn spoken_command(
        &mut self,
        c: tandem_speech::listen::CommandKind,
        number: Option<u8>,
    ) {
        use crate::voice::{command_for, SpokenCmd, VoiceMsg};
        let speaker = self
            .asker
            .or(self.blind.side())
            .unwrap_or(self.table.game.turn());
        match command_for(c, number, speaker, self.table.draw_offer) {
            SpokenCmd::Run(cmd) => {
                let _ = self.handle_as(cmd, Source::Spoken, self.asker);
            }
            // What this seat last heard, to it alone (never the other's words).
            SpokenCmd::Repeat => {
                let _ = self.repeat();
            }
            // Only games with numbered squares listen for "square N".
            SpokenCmd::Square(sq) => match self.table.game.describe_square(sq) {
                Some(_) => {
                    self.announce_with(|s| s.table.game.describe_square(sq).unwrap_or_else(nothing))
                }
                None => self.announce_with(|s| s.words.not_understood()),
            },
            SpokenCmd::NothingToConfirm => self.say_voice(&VoiceMsg::NothingToConfirm),
            SpokenCmd::Cancelled => self.announce_with(|s| s.words.cancelled()),
            SpokenCmd::NotUnderstood => self.announce_with(|s| s.words.not_understood()),
        }
    }

    /// An utterance, decided on as typed input once what was heard is on
    /// record.
    pub(super) fn spoken(&mut self, s: crate::voice::HeardInput) {
        use crate::voice::HeardAct;
        let (ply, pos) = (self.table.game.ply() as u32, self.table.game.position());
        // An utterance of another game than the one at the table: never acted on.
        if !s.pos.same_game(&pos) {
            return self.resync_voice();
        }
        // Heard in another position (a move came in meanwhile): never acted on.
        let stale = s.ply != ply || s.pos != pos;
        let decision = self.voice_verdict(stale, s.is_move, s.action);
        self.journal_heard(s.ply, &s.transcript, s.confidence, s.fields, decision);
        match decision {
            "stale" => {
                self.announce_with(|s| s.words.not_understood());
                return self.resync_voice();
            }
            "not-your-move" => {
                match self.asker {
                    // A seat's own microphone: that seat alone is told.
                    Some(seat) => {
                        self.announce_with_to(
                            |s| {
                                s.msgs
                                    .utter(Priority::Now, Kind::Rejection, &Msg::NotYourMove)
                            },
                            Audience::Seat(seat),
                        );
                    }
                    None => self.announce_with(|s| s.table.game.to_move()),
                }
                return self.resync_voice();
            }
            "game-over" => {
                self.announce_with(|s| s.words.game_over_refusal());
                return self.resync_voice();
            }
            _ => {}
        }
        match s.act {
            // Played exactly as a typed move: resolved, checked, journaled, announced.
            HeardAct::Play(text) => {
                let _ = self.handle_as(Cmd::Move(text), Source::Spoken, self.asker);
            }
            HeardAct::Command(c, square) => self.spoken_command(c, square),
            // An illegal move is refused with the rules engine's reason, as typed.
            HeardAct::Refuse { text, reason } => {
                let u = s
                    .reply
                    .unwrap_or_else(|| match self.table.game.prepare(&text) {
                        Err(r) => r.say,
                        Ok(_) => self.words.not_understood(),
                    });
                let _ = self.refuse(Source::Spoken, &text, reason, u);
            }
            // A game's own question (the pips): answered as typed.
            HeardAct::Query(text) => {
                let _ = self.handle_as(Cmd::Unknown(text), Source::Spoken, self.asker);
            }
            // Read-backs, "which capture?" ("which knight?"), "cancelled", "say again".
            HeardAct::Reply => match s.reply {
                Some(u) => self.announce(u),
                None => self.announce_with(|s| s.words.not_understood()),
            },
        }
    }
}
