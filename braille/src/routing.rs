//! What the display's state machine ([`crate::ui::BrailleUi`]) asks of the
//! game it shows: the lines of a view, the target under a cell, and what a
//! routing key, a typed character or a command of the game's own does. Each
//! game implements [`GameKeys`] in its folder (its views and key input); the
//! registry ([`crate::board::Board::keys`]) gives the one for a board. The
//! state machine keeps what every game shares: the view and line, panning,
//! the message, the record view and the review, the commands.

use std::any::Any;
use std::fmt;

use crate::cell::Cell;
use crate::keys::{Action, Key, KeyCommand};
use crate::line::{BrailleLine, Target};
use crate::view::{StatusInfo, View, Width};

/// The dots that mark the selected from-square: dots 7-8, BRLTTY's cursor.
pub const SELECTION_MARK: Cell = Cell::UNDERLINE;

/// What a game did with a key: the actions for the owner, in order, and
/// whether its lines must be drawn again (what it shows changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The actions, in order.
    pub actions: Vec<Action>,
    /// Render the view again before showing it.
    pub rerender: bool,
}

impl Reply {
    /// Actions that leave the lines as they are.
    #[must_use]
    pub fn keep(actions: Vec<Action>) -> Reply {
        Reply {
            actions,
            rerender: false,
        }
    }

    /// Actions after which the lines are rendered again.
    #[must_use]
    pub fn redraw(actions: Vec<Action>) -> Reply {
        Reply {
            actions,
            rerender: true,
        }
    }
}

/// One game's views and key input on the display, for one board of it.
///
/// `lines` is always the last [`GameKeys::render`]'s result, as the state
/// machine keeps it; `line` an index into it.
pub trait GameKeys: KeysBox + fmt::Debug + Send {
    /// The keys of a new board of the same game (`next`, made by the
    /// registry) take over what outlives a board change (backgammon: the
    /// dice being typed). By default nothing does: the selection and
    /// anything routed on the old board are stale.
    fn hand_over(&self, next: &mut dyn GameKeys) {
        let _ = next;
    }

    /// The lines of `view` at `width`, unmarked.
    fn render(&mut self, status: &StatusInfo, view: View, width: Width) -> Vec<BrailleLine>;

    /// The target under cell `n` of line `line`, by which a board row is
    /// kept across views and widths; `None` keeps nothing.
    fn target_at(&self, lines: &[BrailleLine], line: usize, n: usize) -> Option<Target>;

    /// Line `line` (`shown`, a copy of `lines[line]`) as shown: with the
    /// selection marked.
    fn mark(&self, line: usize, shown: &mut BrailleLine);

    /// A line the game shows over the view while it waits for the player
    /// (a choice to route, characters being typed).
    fn waiting_line(&self) -> Option<BrailleLine> {
        None
    }

    /// The selected target, on a view that reports its selection by target
    /// ([`Action::Selected`]).
    fn selected(&self) -> Option<Target> {
        None
    }

    /// The selection's name as the game writes it (`32`, `e2`, `bar`).
    fn selected_name(&self) -> Option<String>;

    /// Drops the selection (cancel); whether there was one.
    fn unselect(&mut self) -> bool;

    /// Drops the selection and anything routed (the review opened).
    fn reset(&mut self);

    /// Whether a character typed on the braille keys is the game's input
    /// (otherwise a letter asks a question about the board).
    fn types(&self) -> bool {
        false
    }

    /// A character typed (when [`GameKeys::types`]).
    fn typed(&mut self, c: char) -> Vec<Action> {
        let _ = c;
        vec![Action::Bump]
    }

    /// Whether a choice waits for a routing key (the next key is
    /// [`GameKeys::choice_key`]'s).
    fn choosing(&self) -> bool {
        false
    }

    /// The key after a choice was offered.
    fn choice_key(&mut self, key: Key) -> Vec<Action> {
        let _ = key;
        vec![Action::Bump]
    }

    /// Whether routing keys do nothing now (the display shows typed input,
    /// not the board).
    fn routing_blocked(&self) -> bool {
        false
    }

    /// A routing key over cell `n` of line `line`.
    fn route(&mut self, lines: &[BrailleLine], line: usize, n: usize) -> Reply;

    /// A command with a meaning of the game's own now; `None`: the shared
    /// one.
    fn command(&mut self, c: KeyCommand) -> Option<Reply> {
        let _ = c;
        None
    }
}

/// What every game's keys do alike, whatever the game: copy themselves and
/// be seen as `Any` (implemented for every `Clone` [`GameKeys`]).
pub trait KeysBox {
    /// A copy (the state machine is `Clone`).
    fn clone_box(&self) -> Box<dyn GameKeys>;

    /// For [`GameKeys::hand_over`]: the keys as `Any`.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: GameKeys + Clone + 'static> KeysBox for T {
    fn clone_box(&self) -> Box<dyn GameKeys> {
        Box::new(self.clone())
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Clone for Box<dyn GameKeys> {
    fn clone(&self) -> Box<dyn GameKeys> {
        self.clone_box()
    }
}

/// Two routing presses over targets (a view that shows targets and leaves
/// the move to the game: [`Action::Selected`], [`Action::MoveRequest`]):
/// the first picks the from-target, the same one again drops it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TargetRouting {
    selected: Option<Target>,
}

impl TargetRouting {
    /// The from-target picked.
    #[must_use]
    pub fn selected(&self) -> Option<Target> {
        self.selected
    }

    /// Drops the pick; whether there was one.
    pub fn unselect(&mut self) -> bool {
        self.selected.take().is_some()
    }

    /// A routing key over cell `n` of `lines[line]`.
    pub fn route(&mut self, lines: &[BrailleLine], line: usize, n: usize) -> Vec<Action> {
        let Some(to) = lines.get(line).and_then(|l| l.cell_to_target(n)) else {
            return vec![Action::Bump];
        };
        match self.selected.take() {
            Some(from) if from == to => vec![Action::Unselected, Action::Redraw],
            Some(from) => vec![Action::MoveRequest { from, to }, Action::Redraw],
            None => {
                self.selected = Some(to);
                vec![Action::Selected(to), Action::Redraw]
            }
        }
    }

    /// Marks the picked target on `shown`.
    pub fn mark(&self, shown: &mut BrailleLine) {
        if let Some(t) = self.selected {
            shown.mark(t, SELECTION_MARK);
        }
    }
}
