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
