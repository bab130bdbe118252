//! The display's state machine: keys in, actions out. Pure (no I/O), so every
//! key sequence can be tested; the driver ([`crate::driver`]) feeds it keys
//! from a display and writes [`BrailleUi::current_line`] back.
//!
//! - Panning keys move one display line (one window) through the current
//!   view; line keys do the same, top/bottom jump to the ends.
//! - A routing key over a cell that shows a square selects it: the first
//!   press picks the from-square (marked with dots 7-8), the second the
//!   to-square, and the UI emits [`Action::MoveRequest`] for the daemon to
//!   resolve like a typed move (the daemon asks back an ambiguous capture).
//!   Routing the selected square again unselects it.
//! - Commands: next view, clock report, last move, done (my board is up to
//!   date), cancel (drops the selection).

use tandem_rules::{Position, Square};

use crate::cell::Cell;
use crate::line::BrailleLine;
use crate::render::{BrailleRenderer, StandardRenderer, StatusInfo, View, Width};

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
    /// Drop the selection or the pending question.
    Cancel,
}

/// What the UI asks of its owner after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// The line to show changed: write [`BrailleUi::current_line`].
    Redraw,
    /// A from-square was selected.
    Selected(Square),
    /// The selection was dropped (routing the selected square again).
    Unselected,
    /// Two routing presses chose a move: resolve it like a typed one.
    MoveRequest {
        /// The first square routed.
        from: Square,
        /// The second square routed.
        to: Square,
    },
    /// The clock report was asked for.
    ClockReport,
    /// The last move was asked for.
    LastMove,
    /// The player's board is up to date.
    Done,
    /// Cancel: the selection (if any) is dropped; a pending question is the daemon's.
    Cancel,
    /// A key that does nothing here: routing over a cell with no square, or
    /// panning past either end. A driver may signal it (a short beep).
    Bump,
}

/// The dots that mark the selected from-square: dots 7-8, BRLTTY's cursor.
pub const SELECTION_MARK: Cell = Cell::UNDERLINE;

/// The display's state: the current view and line, the selection, and the
/// rendered lines of the position the daemon last passed in.
#[derive(Debug, Clone)]
pub struct BrailleUi {
    renderer: StandardRenderer,
    position: Position,
    status: StatusInfo,
    view: View,
    width: Width,
    lines: Vec<BrailleLine>,
    line: usize,
    selected: Option<Square>,
    message: Option<BrailleLine>,
}

impl BrailleUi {
    /// A UI showing `view` of `position` on a display `width` cells wide.
    #[must_use]
    pub fn new(position: Position, status: StatusInfo, view: View, width: Width) -> BrailleUi {
        let mut ui = BrailleUi {
            renderer: StandardRenderer::default(),
            position,
            status,
            view,
            width,
            lines: Vec::new(),
            line: 0,
            selected: None,
            message: None,
        };
        ui.rerender();
        ui
    }

    /// Shows a new position and status (after a move, a clock tick, a board
    /// confirmed). The view and line stay; a selection stays only if the
    /// position is the same (a clock tick), since a move makes it stale.
    pub fn update(&mut self, position: &Position, status: &StatusInfo) {
        if *position != self.position {
            self.selected = None;
        }
        self.position = *position;
        self.status = status.clone();
        self.rerender();
    }

    /// The display's width changed (a different display came back).
    pub fn set_width(&mut self, width: Width) {
        if width != self.width {
            let anchor = self.anchor_square();
            self.width = width;
            self.rerender();
            self.seek_square(anchor);
        }
    }

    /// Shows a message (an answer, an error) until the next key.
    pub fn show_message(&mut self, text: &str) {
        let mut l = BrailleLine::from_text(text);
        if l.len() > self.width.get() {
            l = BrailleLine::from_text(&text.chars().take(self.width.get()).collect::<String>());
        }
        self.message = Some(l);
    }

    /// The current view.
    #[must_use]
    pub fn view(&self) -> View {
        self.view
    }

    /// The current line's index within the view.
    #[must_use]
    pub fn line_index(&self) -> usize {
        self.line
    }

    /// All lines of the current view (without the selection mark).
    #[must_use]
    pub fn lines(&self) -> &[BrailleLine] {
        &self.lines
    }

    /// The selected from-square, if any.
    #[must_use]
    pub fn selected(&self) -> Option<Square> {
        self.selected
    }

    /// The display width.
    #[must_use]
    pub fn width(&self) -> Width {
        self.width
    }

    /// What the display shows now: the message if one is up, else the
    /// current line with the selected square marked.
    #[must_use]
    pub fn current_line(&self) -> BrailleLine {
        if let Some(m) = &self.message {
            return m.clone();
        }
        let mut l = self.lines.get(self.line).cloned().unwrap_or_default();
        if let Some(sq) = self.selected {
            l.mark(sq, SELECTION_MARK);
        }
        l
    }

    /// Handles one key; returns what the owner must do, in order.
    pub fn handle(&mut self, key: Key) -> Vec<Action> {
        // Any key dismisses a message; the key itself still acts.
        let had_message = self.message.take().is_some();
        let mut out = match key {
            // Routing over a message only dismisses it.
            Key::Routing(_) if had_message => Vec::new(),
            Key::Routing(n) => self.route(n),
            Key::PanLeft | Key::LineUp => self.go(self.line.checked_sub(1)),
            Key::PanRight | Key::LineDown => self.go(Some(self.line + 1)),
            Key::Top => self.go(Some(0)),
            Key::Bottom => self.go(Some(self.lines.len().saturating_sub(1))),
            Key::Command(c) => self.command(c),
        };
        if had_message && !out.contains(&Action::Redraw) {
            out.insert(0, Action::Redraw);
        }
        out
    }

    fn route(&mut self, n: u16) -> Vec<Action> {
        let Some(sq) = self
            .lines
            .get(self.line)
            .and_then(|l| l.cell_to_square(n.into()))
        else {
            return vec![Action::Bump];
        };
        match self.selected {
            None => {
                self.selected = Some(sq);
                vec![Action::Selected(sq), Action::Redraw]
            }
            Some(from) if from == sq => {
                self.selected = None;
                vec![Action::Unselected, Action::Redraw]
            }
            Some(from) => {
                self.selected = None;
                vec![Action::MoveRequest { from, to: sq }, Action::Redraw]
            }
        }
    }

    fn go(&mut self, target: Option<usize>) -> Vec<Action> {
        match target {
            Some(t) if t < self.lines.len() => {
                if t == self.line {
                    return vec![Action::Bump];
                }
                self.line = t;
                vec![Action::Redraw]
            }
            _ => vec![Action::Bump],
        }
    }

    fn command(&mut self, c: KeyCommand) -> Vec<Action> {
        match c {
            KeyCommand::NextView => {
                let anchor = self.anchor_square();
                self.view = self.view.next();
                self.rerender();
                self.line = 0;
                // Between rows and graphic keep the same board row.
                if matches!(self.view, View::Rows | View::Graphic) {
                    self.seek_square(anchor);
                }
                vec![Action::Redraw]
            }
            KeyCommand::ClockReport => vec![Action::ClockReport],
            KeyCommand::LastMove => vec![Action::LastMove],
            KeyCommand::Done => vec![Action::Done],
            KeyCommand::Cancel => {
                if self.selected.take().is_some() {
                    vec![Action::Cancel, Action::Redraw]
                } else {
                    vec![Action::Cancel]
                }
            }
        }
    }

    fn rerender(&mut self) {
        self.lines = self
            .renderer
            .render(&self.position, &self.status, self.view, self.width);
        self.line = self.line.min(self.lines.len().saturating_sub(1));
    }

    /// The first square shown on the current line.
    fn anchor_square(&self) -> Option<Square> {
        self.lines
            .get(self.line)
            .and_then(|l| l.squares().iter().flatten().next().copied())
    }

    fn seek_square(&mut self, sq: Option<Square>) {
        if let Some(sq) = sq {
            if let Some(i) = self
                .lines
                .iter()
                .position(|l| l.squares().contains(&Some(sq)))
            {
                self.line = i;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_rules::{Color, Variant};

    fn ui(view: View) -> BrailleUi {
        let pos = Position::start(Variant::International);
        BrailleUi::new(
            pos,
            StatusInfo::new(Color::White),
            view,
            Width::new(40).unwrap(),
        )
    }

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    /// The first cell of the current line that shows `n`.
    fn cell_of(ui: &BrailleUi, n: u8) -> u16 {
        ui.current_line()
            .squares()
            .iter()
            .position(|s| *s == Some(sq(n)))
            .unwrap() as u16
    }

    #[test]
    fn two_routing_presses_make_a_move_request() {
        let mut u = ui(View::Rows);
        for _ in 0..6 {
            u.handle(Key::LineDown);
        }
        assert_eq!(u.current_line().text(), "31:w 32:w 33:w 34:w 35:w");
        let c32 = cell_of(&u, 32);
        assert_eq!(
            u.handle(Key::Routing(c32)),
            vec![Action::Selected(sq(32)), Action::Redraw]
        );
        // The selection is marked with dots 7-8 on every cell of "32:w".
        let marked: Vec<_> = u
            .current_line()
            .cells()
            .iter()
            .map(|c| c.0 & 0xC0 == 0xC0)
            .collect();
        assert_eq!(marked.iter().filter(|m| **m).count(), 4);
        u.handle(Key::LineUp);
        assert_eq!(u.current_line().text(), "26:- 27:- 28:- 29:- 30:-");
        let c28 = cell_of(&u, 28);
        assert_eq!(
            u.handle(Key::Routing(c28)),
            vec![
                Action::MoveRequest {
                    from: sq(32),
                    to: sq(28)
                },
                Action::Redraw
            ]
        );
        assert_eq!(u.selected(), None);
    }

    #[test]
    fn routing_the_selected_square_unselects_and_labels_bump() {
        let mut u = ui(View::Graphic);
        u.handle(Key::Bottom);
        assert_eq!(u.current_line().text(), "46 wwwww");
        assert_eq!(u.handle(Key::Routing(0)), vec![Action::Bump]); // over "46", a label
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::Selected(sq(46)), Action::Redraw]
        );
        assert_eq!(u.current_line().cells()[3].0 & 0xC0, 0xC0);
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::Unselected, Action::Redraw]
        );
        assert_eq!(u.handle(Key::Routing(39)), vec![Action::Bump]); // past the end
    }

    #[test]
    fn panning_stops_at_the_ends() {
        let mut u = ui(View::Graphic);
        assert_eq!(u.handle(Key::PanLeft), vec![Action::Bump]);
        assert_eq!(u.handle(Key::PanRight), vec![Action::Redraw]);
        assert_eq!(u.line_index(), 1);
        assert_eq!(u.handle(Key::Bottom), vec![Action::Redraw]);
        assert_eq!(u.handle(Key::PanRight), vec![Action::Bump]);
        assert_eq!(u.handle(Key::Top), vec![Action::Redraw]);
        assert_eq!(u.line_index(), 0);
    }

    #[test]
    fn next_view_cycles_and_keeps_the_row() {
        let mut u = ui(View::Rows);
        u.handle(Key::LineDown);
        u.handle(Key::LineDown);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::NextView)),
            vec![Action::Redraw]
        );
        assert_eq!(u.view(), View::Graphic);
        assert_eq!(u.current_line().text(), "11 bbbbb");
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::Status);
        assert_eq!(u.line_index(), 0);
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::List);
    }

    #[test]
    fn commands_and_cancel() {
        let mut u = ui(View::List);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::ClockReport)),
            vec![Action::ClockReport]
        );
        assert_eq!(
            u.handle(Key::Command(KeyCommand::LastMove)),
            vec![Action::LastMove]
        );
        assert_eq!(u.handle(Key::Command(KeyCommand::Done)), vec![Action::Done]);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::Cancel)),
            vec![Action::Cancel]
        );
        let c = cell_of(&u, 31);
        u.handle(Key::Routing(c));
        assert_eq!(u.selected(), Some(sq(31)));
        assert_eq!(
            u.handle(Key::Command(KeyCommand::Cancel)),
            vec![Action::Cancel, Action::Redraw]
        );
        assert_eq!(u.selected(), None);
    }

    #[test]
    fn a_move_clears_the_selection_and_a_message_lasts_one_key() {
        let mut u = ui(View::List);
        let c = cell_of(&u, 32);
        u.handle(Key::Routing(c));
        let mut pos = Position::start(Variant::International);
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == sq(32) && m.to() == sq(28))
            .unwrap();
        pos.play_unchecked(&m);
        u.update(&pos, &StatusInfo::new(Color::Black));
        assert_eq!(u.selected(), None);
        u.show_message("ambiguous: route the captured piece");
        assert_eq!(
            u.current_line().text(),
            "ambiguous: route the captured piece"
        );
        assert_eq!(u.handle(Key::Routing(0)), vec![Action::Redraw]);
        assert!(u.current_line().text().starts_with("W 28"));
    }

    #[test]
    fn width_change_keeps_the_row() {
        let mut u = ui(View::Rows);
        for _ in 0..4 {
            u.handle(Key::LineDown);
        }
        u.set_width(Width::new(14).unwrap());
        assert!(
            u.current_line().text().starts_with("21:-"),
            "{}",
            u.current_line().text()
        );
    }
}
