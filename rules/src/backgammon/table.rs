//! Backgammon behind [`TableGame`]: the match is the game, and every action
//! at the table (roll, move, double, take, pass, resign) is a "move" of the
//! trait, written and read as text (`roll 31`, `move 8/5 6/5`, `double`).
//!
//! The fit is partial in two places, both because of the dice: [`legal`]
//! cannot list the rolls (they come from the physical dice, 004 3.3, 4.1),
//! so before a roll it lists only the cube actions allowed; and a ply is an
//! action, so `plies` counts rolls and cube actions too (`moves_by` counts
//! only checker moves, for the clock).
//!
//! [`legal`]: TableGame::legal

use super::match_play::{Action, ActionError, Match, Phase};
use super::movegen::Play;
use super::{match_id, position_id};
use crate::Color;
use crate::TableGame;
use crate::{Outcome, WinReason};

impl TableGame for Match {
    type Move = Action;
    type Error = ActionError;

    fn game_name(&self) -> &'static str {
        "backgammon"
    }

    fn side_to_move(&self) -> Color {
        self.to_act().unwrap_or(self.board().turn())
    }

    fn plies(&self) -> usize {
        self.actions().len()
    }

    fn moves_by(&self, side: Color) -> u32 {
        let n = self
            .games()
            .iter()
            .flat_map(|g| &g.actions)
            .filter(|(who, a, _)| *who == side && matches!(a, Action::Move(_)))
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// gnubg's full ID: `POSITION_ID:MATCH_ID`.
    fn position_text(&self) -> String {
        format!(
            "{}:{}",
            position_id::encode(self.board()),
            match_id::encode(&match_id::of_match(self))
        )
    }

    fn legal(&self) -> Vec<Action> {
        if let Some((side, level)) = self.resign_offer() {
            return vec![Action::Resign { side, level }, Action::ResignDecline];
        }
        match self.phase() {
            Phase::Move => {
                let plays = Match::legal(self);
                if plays.is_empty() {
                    vec![Action::Move(Play::PASS)]
                } else {
                    plays.into_iter().map(Action::Move).collect()
                }
            }
            Phase::Roll => {
                let mut probe = self.clone();
                if probe.act(Action::Double).is_ok() {
                    vec![Action::Double]
                } else {
                    Vec::new()
                }
            }
            Phase::DoubleOffered => vec![Action::Take, Action::Pass],
            Phase::Opening | Phase::MatchOver => Vec::new(),
        }
    }

    fn resolve_text(&self, text: &str) -> Result<Action, ActionError> {
        self.parse_action(text)
    }

    fn move_text(&self, m: &Action) -> String {
        Match::action_text(self.board(), m)
    }

    fn play_move(&mut self, m: &Action) -> Result<(), ActionError> {
        self.act(*m)
    }

    fn take_back(&mut self) -> Option<Action> {
        let (last, rest) = self.actions().split_last()?;
        let last = *last;
        let again = Match::replay(self.options(), rest).ok()?;
        *self = again;
        Some(last)
    }

    fn result(&self) -> Option<Outcome> {
        self.declared().or_else(|| {
            self.winner().map(|winner| Outcome::Win {
                winner,
                reason: WinReason::MatchPoints,
            })
        })
    }

    fn end(&mut self, outcome: Outcome) {
        self.declare(outcome);
    }

    fn draw_offer_allowed(&self, _side: Color) -> bool {
        // Backgammon has no draws (004 4.5).
        false
    }

    fn record(&self) -> Vec<String> {
        self.games()
            .iter()
            .flat_map(|g| &g.actions)
            .map(|(_, a, board)| Match::action_text(board, a))
            .collect()
    }
}
