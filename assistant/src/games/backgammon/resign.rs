//! Resignation at the backgammon table (004 4.5, 4.3 (ii) (g)): a player
//! offers to give up the game for 1, 2 or 3 times the cube ("pojedynczo,
//! podwójnie lub potrójnie"); the opponent accepts (the game ends for those
//! points) or declines (the game is played to the end). The whole match
//! may still be resigned (`resign match`), as in the other games.
//!
//! What is typed (or sent with `tandem ctl`), English or Polish:
//!
//! | typed | journaled action |
//! | --- | --- |
//! | `resign`, `resign 1`, `resign single`, `poddaję`, `poddaję się` | `resign offer SIDE 1` |
//! | `resign 2`, `resign gammon`, `poddaję podwójnie` | `resign offer SIDE 2` |
//! | `resign 3`, `resign backgammon`, `poddaję potrójnie` | `resign offer SIDE 3` |
//! | `resign white 2`, `resign black gammon` | the same for the side named |
//! | `accept`, `resign accept`, `przyjmuję` (an offer waiting) | `resign SIDE LEVEL`: the game ends |
//! | `decline`, `resign decline`, `odrzucam` | `resign decline` |
//! | `resign match`, `resign match white`, `poddaję mecz` | `resign match SIDE`: the match ends |
//!
//! SIDE without a side named is the side to act (while a double waits, the
//! side that answers it).

use tandem_rules::backgammon::{Action, ActionError, Phase};
use tandem_rules::{Color, Outcome, WinReason};
use tandem_speech::{Kind, Priority, Utterance};

use super::{BackgammonTable, PreparedAction, Refused};

/// The words that resign (the first word of the input).
pub(super) fn is_resign_word(w: &str) -> bool {
    matches!(w, "resign" | "poddaję" | "poddaje")
}

/// The words that accept a resignation offered.
pub(super) fn is_accept_word(w: &str) -> bool {
    matches!(w, "accept" | "przyjmuję" | "przyjmuje")
}

/// The words that decline it.
pub(super) fn is_decline_word(w: &str) -> bool {
    matches!(w, "decline" | "odrzucam")
}

fn side_word(w: &str) -> Option<Color> {
    match w {
        "white" | "w" | "biały" | "bialy" | "białe" | "biale" => Some(Color::White),
        "black" | "b" | "czarny" | "czarne" => Some(Color::Black),
        _ => None,
    }
}

fn level_word(w: &str) -> Option<u8> {
    match w {
        "1" | "single" | "pojedynczo" | "pojedynczą" | "pojedyncza" => Some(1),
        "2" | "gammon" | "double" | "podwójnie" | "podwojnie" | "gammona" => Some(2),
        "3" | "backgammon" | "triple" | "potrójnie" | "potrojnie" | "backgammona" => Some(3),
        _ => None,
    }
}

/// The strict text of a resignation, read from loose words.
enum Resign {
    Offer(Color, u8),
    Accept,
    Decline,
    Match(Color),
}

impl BackgammonTable {
    /// The action of `resign ARGS` (`rest`: the words after the first),
    /// `accept` or `decline`; `None` if `word` is none of them.
    pub(super) fn resign_input(
        &self,
        word: &str,
        rest: &str,
    ) -> Option<Result<PreparedAction, Refused>> {
        let refuse = |e: ActionError| Some(Err(self.refusal(&e, rest)));
        let acting = self.m.to_act().unwrap_or(self.m.board().turn());
        let r = if is_accept_word(word) && rest.is_empty() {
            if self.m.resign_offer().is_none() && self.m.phase() == Phase::DoubleOffered {
                // "Przyjmuję" answers the double that waits (004 4.4 (iii)).
                return Some(self.prepared(Action::Take, word));
            }
            Resign::Accept
        } else if is_decline_word(word) && rest.is_empty() {
            Resign::Decline
        } else if is_resign_word(word) {
            let mut side = None;
            let mut level = None;
            let mut whole_match = false;
            let mut answer = None;
            for w in rest.split_whitespace() {
                if let Some(c) = side_word(w) {
                    side = Some(c);
                } else if let Some(l) = level_word(w) {
                    level = Some(l);
                } else if matches!(w, "match" | "mecz") {
                    whole_match = true;
                } else if is_accept_word(w) {
                    answer = Some(Resign::Accept);
                } else if is_decline_word(w) {
                    answer = Some(Resign::Decline);
                } else if matches!(w, "się" | "sie" | "offer" | "partię" | "partie") {
                } else {
                    return refuse(ActionError::BadResignation);
                }
            }
            match (answer, whole_match) {
                (Some(a), _) => a,
                (None, true) => Resign::Match(side.unwrap_or(acting)),
                (None, false) => Resign::Offer(side.unwrap_or(acting), level.unwrap_or(1)),
            }
        } else {
            return None;
        };
        Some(match r {
            Resign::Offer(side, level) => self.prepared(Action::ResignOffer { side, level }, rest),
            Resign::Accept => match self.m.resign_offer() {
                Some((side, level)) => self.prepared(Action::Resign { side, level }, rest),
                None => return refuse(ActionError::NoResignation),
            },
            Resign::Decline => self.prepared(Action::ResignDecline, rest),
            Resign::Match(side) => {
                if self.m.phase() == Phase::MatchOver {
                    return refuse(ActionError::MatchOver);
                }
                Ok(PreparedAction {
                    either_seat: false,
                    text: format!("resign match {side}"),
                    side,
                    press: false,
                    // The session says the match's end (Game::game_over).
                    announce: Utterance::new(Priority::Next, Kind::Move, Vec::new()),
                })
            }
        })
    }

    /// Replays `resign match SIDE`; `false` if `text` is not that.
    pub(super) fn play_match_resignation(&mut self, text: &str) -> bool {
        let Some(side) = text.trim().strip_prefix("resign match ") else {
            return false;
        };
        let side = match side.trim() {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return false,
        };
        self.m.declare(Outcome::Win {
            winner: side.other(),
            reason: WinReason::Resignation,
        });
        true
    }

    /// The session's `resign` (typed alone, spoken, `tandem ctl resign
    /// [white|black]`): an offer of a single game by that side.
    pub(super) fn resign_text(&self, side: Option<Color>) -> String {
        match side {
            Some(c) => format!("resign {c}"),
            None => "resign".to_owned(),
        }
    }
}
