//! Draw offers, answers and claims (001 ch. II 5.1; 002 art. 9.1-9.5).

use super::*;

impl Session {
    pub(super) fn draw(&mut self, what: DrawCmd, side: Option<Color>, source: Source) -> Reply {
        let input = format!("draw {what:?}").to_lowercase();
        if self.table.game.outcome().is_some() {
            return self.refuse_with(source, &input, "the game is over".into(), |s| {
                s.words.game_over_refusal()
            });
        }
        let turn = self.table.game.turn();
        match what {
            DrawCmd::Offer => {
                // 001 ch. II 5.1: on one's own time, right after one's own move.
                let side = side.unwrap_or(turn.other());
                let g = &self.table.game;
                if g.ply() == 0 || side != turn.other() {
                    return self.refuse_msg(source, &input, &Msg::DrawNotYourTime);
                }
                if !g.may_offer_draw(side) {
                    let n = g.draw_offer_min_moves();
                    return self.refuse_msg(source, &input, &Msg::DrawTooEarly(n));
                }
                // Not in every game (002 art. 9.1: only repeated offers
                // that annoy, the arbiter's call).
                if self.table.barred[idx(side)] && g.declined_offer_bars() {
                    return self.refuse_msg(source, &input, &Msg::DrawBarred);
                }
                if self.table.draw_offer.is_some() {
                    return self.refuse_msg(source, &input, &Msg::DrawNotYourTime);
                }
                if let Err(e) = self.record(Event::DrawOffer { side }) {
                    return self.unrecorded(source, &input, &e);
                }
                self.say_msg(Priority::Next, Kind::Draw, &Msg::DrawOffered(side));
                self.ok()
            }
            DrawCmd::Claim => self.claim_draw(side.unwrap_or(turn), source),
            DrawCmd::Accept | DrawCmd::Decline => {
                let answerer = side.unwrap_or(turn);
                if self.table.draw_offer != Some(answerer.other()) {
                    return self.refuse_msg(source, &input, &Msg::NoDrawOffer);
                }
                if what == DrawCmd::Accept {
                    self.finish(Outcome::Draw {
                        reason: DrawReason::Agreement,
                    });
                } else {
                    if let Err(e) = self.record(Event::DrawDeclined { side: answerer }) {
                        tracing::error!("journal: {e}");
                    }
                    self.say_msg(Priority::Next, Kind::Draw, &Msg::DrawDeclined);
                }
                self.ok()
            }
        }
    }

    /// The player on move claims a draw by repetition or fifty moves (002
    /// art. 9.2, 9.3). A correct claim ends the game (9.5(a)); an incorrect
    /// one gives the opponent three minutes and play goes on (9.5(b)). A
    /// game whose draws come by themselves (001 ch. I 6) refuses the claim.
    pub(super) fn claim_draw(&mut self, side: Color, source: Source) -> Reply {
        let input = "draw claim";
        if let Err(r) = self.table.game.draw_claims() {
            return self.refuse_with(source, input, r.reason, |s| {
                s.table
                    .game
                    .draw_claims()
                    .err()
                    .map_or_else(nothing, |r| r.say)
            });
        }
        if side != self.table.game.turn() {
            return self.refuse_msg(source, input, &Msg::DrawNotYourTime);
        }
        let reason = self.table.game.claimable_draw();
        let added_ms = if reason.is_some() {
            0
        } else {
            CLAIM_PENALTY_MS
        };
        if let Err(e) = self.record(Event::DrawClaim {
            side,
            valid: reason.is_some(),
            reason,
            added_ms,
        }) {
            tracing::error!("journal: {e}");
            return self.refuse_msg(source, input, &Msg::JournalFailed);
        }
        match reason {
            Some(reason) => self.finish(Outcome::Draw { reason }),
            None => self.announce_with(|s| s.table.game.claim_wrong(added_ms / 60_000)),
        }
        self.ok()
    }
}
