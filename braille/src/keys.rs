//! What the display's keys are ([`Key`], [`KeyCommand`]) and what the
//! views ask of their owner after one ([`Action`]): the vocabulary the key
//! handling of every view (the board's, [`crate::record`]'s) shares.

use crate::line::Target;

/// A key pressed on the display, already mapped from the driver's codes
/// (see [`crate::keymap`] for BRLTTY's commands).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// The cursor-routing key over cell `n` (0-based).
    Routing(u16),
    /// Pan the window left (back).
    PanLeft,
    /// Pan the window right (on).
    PanRight,
    /// Previous line.
    LineUp,
    /// Next line.
    LineDown,
    /// First line of the view.
    Top,
    /// Last line of the view.
    Bottom,
    /// A command key.
    Command(KeyCommand),
    /// A character typed on the display's braille keys (BRLTTY translates
    /// the dots through the user's text table).
    Char(char),
}

/// The commands display keys give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyCommand {
    /// Show the next view (list, rows, graphic, status).
    NextView,
    /// Ask for the clock report (001 ch. VIII 5.1).
    ClockReport,
    /// Ask for the last move again.
    LastMove,
    /// My board is up to date (the move was made on it).
    Done,
    /// Drop the selection or the pending question; in review, back to the
    /// live game.
    Cancel,
    /// Backspace: take back the last character typed.
    Erase,
}

/// What the UI asks of its owner after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// The line to show changed: write [`BrailleUi::current_line`].
    Redraw,
    /// A from-target was selected, on a view that routes targets (draughts'
    /// squares; [`crate::line::Target`]).
    Selected(Target),
    /// The selection was dropped (routing the selected square again).
    Unselected,
    /// Two routing presses chose a move by its two targets (draughts): the
    /// game's adapter turns them into move text (`32 28`), resolved like a
    /// typed one.
    MoveRequest {
        /// The first target routed.
        from: Target,
        /// The second target routed.
        to: Target,
    },
    /// A from-square was selected, by name (chess: `e2`), on a view that
    /// routes move text. (A target is [`Action::Selected`].)
    SelectedSquare(String),
    /// Text for the game, handled as if typed: two routing presses chose a
    /// chess move (`e2e4`, `g1f3`) for the rules engine to check, which asks
    /// for the promotion piece of a pawn reaching the last rank and refuses
    /// an illegal one (a move by targets is [`Action::MoveRequest`]); a
    /// backgammon move routed step by step (`13/8 8/5`), a roll typed
    /// (`roll 3 1`), or a question about the steps entered so far
    /// (`steps 13/8 from 8`: the game says the step or why it is refused,
    /// and nothing changes).
    MoveText(String),
    /// The clock report was asked for.
    ClockReport,
    /// The last move was asked for.
    LastMove,
    /// The player's board is up to date.
    Done,
    /// Cancel: the selection (if any) is dropped; a pending question is the daemon's.
    Cancel,
    /// A move routed on the record view: open the review at the position
    /// after this ply (from 1).
    Review(usize),
    /// Leave the review: the live game again.
    Live,
    /// A key that does nothing here: routing over a cell with no square, or
    /// panning past either end. A driver may signal it (a short beep).
    Bump,
}
