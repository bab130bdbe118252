//! The words for a turn entered on the braille display, checker by checker
//! (`tandem_braille::backgammon::input`): the display sends a query text
//! (`steps 13/8 from 8`) for each pick and step, and the game answers it
//! here with the same check the display made (`check_steps`,
//! `check_from`): the point picked, the step, or why the rules refuse it.
//! Nothing changes and nothing is journaled but the words, like `pips`.
//!
//! The query is in the mover's numbering; the words are in the numbering
//! the player routed in when the mover is the opponent and the listener's
//! numbering is the setting (the display shows the listener's points).

use tandem_braille::backgammon::input::parse_query;
use tandem_rules::backgammon::{check_from, check_steps, ActionError, MoveError, Phase, StepCheck};
use tandem_speech::backgammon::Numbering;
use tandem_speech::{Kind, Priority, Utterance};

use super::{numbering, BackgammonTable};

impl BackgammonTable {
    /// Whether points are said turned round for the listener (the mover is
    /// the opponent, and the setting is not the mover's numbering).
    fn flips(&self) -> bool {
        let mover = self.m.board().turn();
        mover != self.viewer() && numbering(self.options.numbering) != Numbering::Mover
    }

    fn said_point(&self, p: u8) -> u8 {
        if self.flips() && (1..=24).contains(&p) {
            25 - p
        } else {
            p
        }
    }

    fn step_words(&self, from: u8, to: u8, hit: bool) -> String {
        let w = &self.words;
        let n = |p: u8| w.number(u32::from(self.said_point(p)));
        let mut s = if from == 25 {
            w.phrase("enter", &[("to", &n(to))])
        } else if to == 0 {
            w.phrase("bear_off", &[("from", &n(from))])
        } else {
            w.phrase("step", &[("from", &n(from)), ("to", &n(to))])
        };
        if hit {
            s = w.phrase("hit", &[("step", &s)]);
        }
        w.phrase("table.step", &[("step", &s)])
    }

    fn said_error(&self, e: MoveError) -> MoveError {
        let f = |p: u8| self.said_point(p);
        match e {
            MoveError::NoChecker { point } => MoveError::NoChecker { point: f(point) },
            MoveError::Blocked { point } => MoveError::Blocked { point: f(point) },
            MoveError::NotRolled { from, to } => MoveError::NotRolled {
                from: f(from),
                to: f(to),
            },
            e => e,
        }
    }

    /// The answer to a query of the braille display (`steps …`), or `None`
    /// if `text` is not one.
    pub(super) fn steps_query(&self, text: &str) -> Option<Utterance> {
        let (steps, from) = parse_query(text)?;
        let refuse = |e: ActionError| Some(self.refusal(&e, text.trim()).say);
        let dice = match (self.m.phase(), self.m.dice()) {
            (Phase::Move, Some(d)) => d,
            (Phase::MatchOver, _) => return refuse(ActionError::MatchOver),
            (Phase::DoubleOffered, _) => return refuse(ActionError::DoublePending),
            (Phase::Opening, _) => return refuse(ActionError::NoGame),
            _ => return refuse(ActionError::NotRolled),
        };
        let board = self.m.board();
        let said = |s: String| Some(Utterance::new(Priority::Now, Kind::Move, vec![s]));
        if let Some(p) = from {
            // The steps before the pick were checked when they were entered.
            return match check_from(board, dice, &steps, p) {
                Ok(()) if p == 25 => said(self.words.phrase("table.from_bar", &[])),
                Ok(()) => {
                    let point = self.words.number(u32::from(self.said_point(p)));
                    said(self.words.phrase("table.from", &[("point", &point)]))
                }
                Err(MoveError::NoChecker { point: 25 }) => Some(Utterance::new(
                    Priority::Now,
                    Kind::Rejection,
                    vec![self.words.phrase("table.bar_empty", &[])],
                )),
                Err(e) => refuse(ActionError::Move(self.said_error(e))),
            };
        }
        let Some(last) = steps.last() else {
            return said(self.words.phrase("table.steps_cleared", &[]));
        };
        match check_steps(board, dice, &steps) {
            StepCheck::Refused(e) => refuse(ActionError::Move(self.said_error(e))),
            StepCheck::Partial { board: after, .. } => {
                // A hit: the opponent has one more on the bar than before the step.
                let before = match check_steps(board, dice, &steps[..steps.len() - 1]) {
                    StepCheck::Partial { board: b, .. } => b,
                    _ => *board,
                };
                let them = board.turn().other();
                let hit = after.bar(them) > before.bar(them);
                said(self.step_words(last.from, last.to, hit))
            }
            StepCheck::Complete(_) => said(self.step_words(last.from, last.to, false)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use tandem_rules::backgammon::{Match, MatchOptions};
    use tandem_rules::{Color, GameOptions, PointNumbering};

    fn table(listener: Color, numbering: PointNumbering, roll: Option<&str>) -> BackgammonTable {
        let mut m = Match::new(MatchOptions { length: 5 });
        if let Some(r) = roll {
            m.act_text(r).unwrap();
        }
        let options = GameOptions {
            match_length: 5,
            listener: Some(listener),
            numbering,
            ..GameOptions::default()
        };
        BackgammonTable::new(m, options, "en")
    }

    fn said(t: &BackgammonTable, q: &str) -> String {
        t.query(q).map(|u| u.text()).unwrap_or_default()
    }

    #[test]
    fn picks_steps_and_refusals_in_the_players_words() {
        // White (the listener) plays 3-1.
        let t = table(Color::White, PointNumbering::Listener, Some("roll 31"));
        assert_eq!(said(&t, "steps from 8"), "From eight.");
        assert_eq!(said(&t, "steps 8/5"), "eight to five.");
        assert_eq!(said(&t, "steps 8/5 from 6"), "From six.");
        assert_eq!(said(&t, "steps 8/3"), "eight to three is not on the dice.");
        assert_eq!(said(&t, "steps from 7"), "No checker of yours on seven.");
        assert_eq!(said(&t, "steps 13/12"), "Point twelve is blocked.");
        assert_eq!(said(&t, "steps"), "Steps cleared.");
        assert_eq!(said(&t, "steps from bar"), "None of yours on the bar.");
        // Not a query of the display: the game's other texts are left alone.
        assert!(t.query("8/5 6/5").is_none());
        assert!(t.query("steps 8/5 from").is_none());
        // Nothing changed.
        assert_eq!(t.rules().board().pips(Color::White), 167);
    }

    #[test]
    fn the_opponents_steps_are_said_in_the_listeners_numbers() {
        // Black listens; white moves 3-1: white's 8/5 is black's 17 to 20.
        let t = table(Color::Black, PointNumbering::Listener, Some("roll 31"));
        assert_eq!(said(&t, "steps from 8"), "From seventeen.");
        assert_eq!(said(&t, "steps 8/5"), "seventeen to twenty.");
        assert_eq!(said(&t, "steps from 7"), "No checker of yours on eighteen.");
        // In the mover's numbering when that is the setting.
        let t = table(Color::Black, PointNumbering::Mover, Some("roll 31"));
        assert_eq!(said(&t, "steps 8/5"), "eight to five.");
    }

    #[test]
    fn before_the_roll_and_with_a_double_waiting_it_says_what_comes_first() {
        let t = table(Color::White, PointNumbering::Listener, None);
        assert_eq!(
            said(&t, "steps from 8"),
            "No game is under way: roll the opening dice."
        );
        let mut t = table(Color::White, PointNumbering::Listener, Some("roll 31"));
        t.play_text("8/5 6/5").unwrap();
        assert_eq!(said(&t, "steps from 17"), "Roll first.");
        t.play_action("double").unwrap();
        assert_eq!(said(&t, "steps from 8"), "A double waits: take or pass.");
    }
}
