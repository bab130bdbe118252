//! Backgammon's key input on the display ([`super::input`]): the board
//! line a cell a point; a pick then a destination is one checker step, said
//! back at once through the game ([`Action::MoveText`] with a `steps …`
//! query); the steps that make a whole legal move go as the move's text
//! (`13/8 8/5`). Typed characters ([`crate::Key::Char`]) enter the roll: two
//! dice, then Enter.
//!
//! A spot's target is the number GNU Backgammon gives it in the viewer's
//! numbering ([`target`]: points 1-24, the bar 25, borne off 0).

use tandem_rules::backgammon::Match;
use tandem_rules::Color;

use crate::keys::{Action, KeyCommand};
use crate::line::{BrailleLine, Target};
use crate::routing::{GameKeys, Reply, SELECTION_MARK};
use crate::view::{StatusInfo, View, Width};

use super::input::{query_text, BgInput, BgRequest};
use super::BgSpot;

/// The routing target of a spot of the board line: points 1-24, the bar
/// 25, borne off 0 (the viewer's numbering).
#[must_use]
pub fn target(spot: BgSpot) -> Target {
    Target::new(match spot {
        BgSpot::Point(p) => u16::from(p),
        BgSpot::Bar => 25,
        BgSpot::Off => 0,
    })
}

/// A match on the display, seen by `viewer`, and the turn and roll being
/// entered on it.
#[derive(Debug, Clone)]
pub struct BgKeys {
    game: Match,
    viewer: Color,
    input: BgInput,
    /// The spot under each cell of each line last rendered (the board
    /// line's windows; none on the text and status lines).
    spots: Vec<Vec<Option<BgSpot>>>,
}

impl BgKeys {
    /// The keys of `game` seen by `viewer`, nothing entered.
    #[must_use]
    pub fn new(game: Match, viewer: Color) -> BgKeys {
        BgKeys {
            game,
            viewer,
            input: BgInput::default(),
            spots: Vec::new(),
        }
    }
}

impl GameKeys for BgKeys {
    /// The dice being typed stay; the steps routed on the old board go.
    fn hand_over(&self, next: &mut dyn GameKeys) {
        if let Some(next) = next.as_any_mut().downcast_mut::<BgKeys>() {
            next.input = self.input.clone();
            next.input.clear_steps();
        }
    }

    /// The same lines in every view: the board line, the counts, the status.
    fn render(&mut self, status: &StatusInfo, _view: View, width: Width) -> Vec<BrailleLine> {
        let (lines, spots) = super::lines(&self.game, self.viewer, &self.input, status, width);
        self.spots = spots;
        lines
    }

    /// None: the lines are the same in every view, so no row is sought.
    fn target_at(&self, _lines: &[BrailleLine], _line: usize, _n: usize) -> Option<Target> {
        None
    }

    fn mark(&self, line: usize, shown: &mut BrailleLine) {
        if let Some(pick) = self.input.picked() {
            if let Some(n) = self
                .spots
                .get(line)
                .and_then(|s| s.iter().position(|x| *x == Some(pick)))
            {
                shown.mark_cell(n, SELECTION_MARK);
            }
        }
    }

    fn waiting_line(&self) -> Option<BrailleLine> {
        self.input
            .dice_line()
            .map(|dice| BrailleLine::from_text(&dice))
    }

    fn selected_name(&self) -> Option<String> {
        self.input.picked().map(|spot| match spot {
            BgSpot::Point(p) => p.to_string(),
            BgSpot::Bar => "bar".into(),
            BgSpot::Off => "off".into(),
        })
    }

    /// The pick is dropped by the cancel key's own meaning ([`Self::command`]).
    fn unselect(&mut self) -> bool {
        false
    }

    fn reset(&mut self) {
        self.input.clear_steps();
    }

    fn types(&self) -> bool {
        true
    }

    /// A die of the roll being entered.
    fn typed(&mut self, c: char) -> Vec<Action> {
        if self.input.type_char(c) {
            vec![Action::Redraw]
        } else {
            vec![Action::Bump]
        }
    }

    /// No move is entered while dice are typed (the display shows them).
    fn routing_blocked(&self) -> bool {
        self.input.typing()
    }

    /// A pick, a step, or the whole move ([`super::input`]).
    fn route(&mut self, _lines: &[BrailleLine], line: usize, n: usize) -> Reply {
        let Some(spot) = self
            .spots
            .get(line)
            .and_then(|s| s.get(n).copied().flatten())
        else {
            return Reply::keep(vec![Action::Bump]);
        };
        // A refused pick or step changes nothing here; the game says why
        // (the same check on the same match).
        let (request, _refused) = self.input.route(&self.game, self.viewer, spot);
        let text = match request {
            BgRequest::Query(t) | BgRequest::Move(t) => t,
        };
        Reply::redraw(vec![Action::MoveText(text), Action::Redraw])
    }

    /// Enter after two dice typed: the roll; backspace: a die back; cancel:
    /// the dice typed, else the steps entered.
    fn command(&mut self, c: KeyCommand) -> Option<Reply> {
        match c {
            KeyCommand::Done if self.input.typing() => {
                Some(Reply::keep(match self.input.enter() {
                    Some(roll) => vec![Action::MoveText(roll), Action::Redraw],
                    None => vec![Action::Bump],
                }))
            }
            KeyCommand::Erase if self.input.erase() => Some(Reply::keep(vec![Action::Redraw])),
            KeyCommand::Cancel if self.input.clear_dice() => {
                Some(Reply::keep(vec![Action::Cancel, Action::Redraw]))
            }
            KeyCommand::Cancel if self.input.clear_steps() => Some(Reply::redraw(vec![
                Action::Cancel,
                Action::MoveText(query_text(&[], None)),
                Action::Redraw,
            ])),
            _ => None,
        }
    }
}
