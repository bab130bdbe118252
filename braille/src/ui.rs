//! The display's state machine: keys in, actions out. Pure (no I/O), so every
//! key sequence can be tested; the driver ([`crate::driver`]) feeds it keys
//! from a display and writes [`BrailleUi::current_line`] back. It shows a
//! [`Board`] of any game with the same keys: the game's views and what a
//! routing key does over them are the game's ([`GameKeys`], in its folder,
//! given by the registry [`Board::keys`]); the state machine keeps what
//! every game shares.
//!
//! - Panning keys move one display line (one window) through the current
//!   view; line keys do the same, top/bottom jump to the ends.
//! - A routing key over a cell that shows a square (a point…) is the
//!   game's: in draughts and chess the first press picks the from-square
//!   (marked with dots 7-8), the second the to-square, and routing the
//!   selected square again unselects it; in backgammon a pick then a
//!   destination is one checker step (each in its game's `keys.rs`). A
//!   game may offer a choice to route (a
//!   chess promotion: any other key drops it), block the routing keys
//!   while it shows typed input, and take typed characters (backgammon's
//!   dice); elsewhere a letter typed asks a question about the board.
//! - Commands: next view (list, rows, graphic, status, then the record
//!   view, [`crate::record`]), clock report, last move, done (my board is
//!   up to date), cancel (drops the selection; in review, back to the live
//!   game). A game may give a command a meaning of its own first
//!   (backgammon: Enter after two dice, backspace, cancel of the steps).
//!
//! ```
//! use tandem_braille::{Action, Board, BrailleUi, Key, StatusInfo, View, Width};
//! use tandem_rules::{chess, Color};
//! let mut ui = BrailleUi::with_board(
//!     Board::from(chess::start()),
//!     StatusInfo::new(Color::White),
//!     View::Graphic,
//!     Width::new(40).unwrap(),
//! );
//! ui.handle(Key::Bottom); // rank 1: "1 RNBQKBNR" as dots
//! assert_eq!(ui.handle(Key::Routing(8)), vec![Action::SelectedSquare("g1".into()), Action::Redraw]);
//! ui.handle(Key::LineUp);
//! ui.handle(Key::LineUp); // rank 3
//! assert_eq!(ui.handle(Key::Routing(7)), vec![Action::MoveText("g1f3".into()), Action::Redraw]);
//! ```

use crate::board::Board;
use crate::line::{BrailleLine, Target};
use crate::record::RecordView;
use crate::routing::GameKeys;
use crate::view::{StatusInfo, View, Width};

pub use crate::keys::{Action, Key, KeyCommand};
pub use crate::routing::SELECTION_MARK;

/// The display's state: the current view and line, the message, the record
/// view, and the game's views and keys for the board the daemon last
/// passed in.
#[derive(Debug, Clone)]
pub struct BrailleUi {
    board: Board,
    /// The game's views and key input for `board`.
    game: Box<dyn GameKeys>,
    status: StatusInfo,
    view: View,
    width: Width,
    /// What each line of the view shows (unmarked).
    lines: Vec<BrailleLine>,
    line: usize,
    message: Option<BrailleLine>,
    /// The record view and the review ([`crate::record`]).
    record: RecordView,
}

impl BrailleUi {
    /// A UI showing `view` of `board` (a [`Board`] or a game's position)
    /// on a display `width` cells wide.
    #[must_use]
    pub fn new(board: impl Into<Board>, status: StatusInfo, view: View, width: Width) -> BrailleUi {
        BrailleUi::with_board(board.into(), status, view, width)
    }

    /// A UI showing `view` of `board` on a display `width` cells wide.
    #[must_use]
    pub fn with_board(board: Board, status: StatusInfo, view: View, width: Width) -> BrailleUi {
        let mut ui = BrailleUi {
            game: board.keys(),
            board,
            status,
            view,
            width,
            lines: Vec::new(),
            line: 0,
            message: None,
            record: RecordView::default(),
        };
        ui.record.rerender(Some(width));
        ui.rerender();
        ui
    }

    /// Shows a new position (a [`Board`] or a game's position) and status,
    /// as [`BrailleUi::update_board`].
    pub fn update(&mut self, board: impl Into<Board>, status: &StatusInfo) {
        self.update_board(&board.into(), status);
    }

    /// Shows a new board and status (after a move, a clock tick, a board
    /// confirmed). The view and line stay; a selection stays only if the
    /// board is the same (a clock tick; a chess position compares by FIDE
    /// equality, see [`Board`]), since a move makes it stale. A board of
    /// another game drops it too.
    pub fn update_board(&mut self, board: &Board, status: &StatusInfo) {
        if *board != self.board {
            let mut next = board.keys();
            self.game.hand_over(&mut *next);
            self.game = next;
            self.board = board.clone();
        }
        self.status = status.clone();
        self.rerender();
    }

    /// The record and the review changed (`DriverInput::Record`): the
    /// moves in strict notation, whether black moved first, the review's
    /// ply (from 1), if open. A review drops the selection.
    pub fn set_record(&mut self, moves: Vec<String>, black_first: bool, review: Option<usize>) {
        if review.is_some() {
            self.game.reset();
        }
        self.record.set(moves, black_first, review);
    }

    /// The record view's state.
    #[must_use]
    pub fn record(&self) -> &RecordView {
        &self.record
    }

    /// The board shown.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The display's width changed (a different display came back).
    pub fn set_width(&mut self, width: Width) {
        if width != self.width {
            let anchor = self.anchor_target();
            self.width = width;
            self.record.rerender(Some(width));
            self.rerender();
            self.seek_target(anchor);
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

    /// The selected from-target, on a view that reports its selection by
    /// target (draughts' squares); `None` for one that names it (chess:
    /// see [`BrailleUi::selected_name`]).
    #[must_use]
    pub fn selected(&self) -> Option<Target> {
        self.game.selected()
    }

    /// The selection's name as its game writes it: a draughts square in
    /// the variant's own name (`32`, or `c3` in 64-square draughts), a chess
    /// square (`e2`), a backgammon point (`8`, `bar`).
    #[must_use]
    pub fn selected_name(&self) -> Option<String> {
        self.game.selected_name()
    }

    /// The display width.
    #[must_use]
    pub fn width(&self) -> Width {
        self.width
    }

    /// What the display shows now: the message if one is up, else what the
    /// game shows while it waits (a choice, typed input), else the record
    /// view if open, else the current line with the selection marked.
    #[must_use]
    pub fn current_line(&self) -> BrailleLine {
        if let Some(m) = &self.message {
            return m.clone();
        }
        if let Some(l) = self.game.waiting_line() {
            return l;
        }
        if self.record.shown {
            return self.record.current_line();
        }
        let mut l = self.lines.get(self.line).cloned().unwrap_or_default();
        self.game.mark(self.line, &mut l);
        l
    }

    /// Handles one key; returns what the owner must do, in order.
    pub fn handle(&mut self, key: Key) -> Vec<Action> {
        // A typed character is the game's input where it takes one
        // (backgammon's dice). Elsewhere a letter asks one of the common
        // questions about the board (`ask key k`: the game maps the letter,
        // docs/ask.md) and the answer comes back as a message; other
        // characters touch nothing (no message dismissed, no choice dropped).
        if let Key::Char(c) = key {
            if !self.game.types() {
                if !c.is_ascii_alphabetic() {
                    return vec![Action::Bump];
                }
                let had_message = self.message.take().is_some();
                let mut out = vec![Action::MoveText(format!(
                    "ask key {}",
                    c.to_ascii_lowercase()
                ))];
                if had_message {
                    out.insert(0, Action::Redraw);
                }
                return out;
            }
        }
        // Any key dismisses a message; the key itself still acts.
        let had_message = self.message.take().is_some();
        let mut out = match key {
            // Routing over a message only dismisses it.
            Key::Routing(_) if had_message => Vec::new(),
            // A choice waits (a promotion's piece): the key is the game's.
            _ if self.game.choosing() => self.game.choice_key(key),
            Key::Command(KeyCommand::Cancel) if self.record.review().is_some() => {
                self.game.unselect();
                self.record.shown = false;
                vec![Action::Live, Action::Redraw]
            }
            Key::Command(KeyCommand::NextView) if self.record.shown => {
                self.record.shown = false;
                self.view = View::List;
                self.rerender();
                self.line = 0;
                vec![Action::Redraw]
            }
            Key::Command(c) => self.command(c),
            Key::Char(c) => self.game.typed(c),
            // The record view's own keys (`crate::record`).
            _ if self.record.shown => {
                let out = self.record.key(key);
                if self.view == View::Status && out.iter().any(|a| matches!(a, Action::Review(_))) {
                    // The position after that move: the list rather than the status line.
                    self.view = View::List;
                    self.rerender();
                    self.line = 0;
                }
                out
            }
            // No move is entered on a past position, nor while the game
            // shows typed input rather than the board.
            Key::Routing(_) if self.record.review().is_some() || self.game.routing_blocked() => {
                vec![Action::Bump]
            }
            Key::Routing(n) => {
                let reply = self.game.route(&self.lines, self.line, n.into());
                if reply.rerender {
                    self.rerender();
                }
                reply.actions
            }
            Key::PanLeft | Key::LineUp => self.go(self.line.checked_sub(1)),
            Key::PanRight | Key::LineDown => self.go(Some(self.line + 1)),
            Key::Top => self.go(Some(0)),
            Key::Bottom => self.go(Some(self.lines.len().saturating_sub(1))),
        };
        if had_message && !out.contains(&Action::Redraw) {
            out.insert(0, Action::Redraw);
        }
        out
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
            // After the status view comes the record view, then the list again.
            KeyCommand::NextView if self.view == View::Status => {
                self.record.open();
                vec![Action::Redraw]
            }
            KeyCommand::NextView => {
                let anchor = self.anchor_target();
                self.view = self.view.next();
                self.rerender();
                self.line = 0;
                // Between rows and graphic keep the same board row.
                if matches!(self.view, View::Rows | View::Graphic) {
                    self.seek_target(anchor);
                }
                vec![Action::Redraw]
            }
            KeyCommand::ClockReport => vec![Action::ClockReport],
            KeyCommand::LastMove => vec![Action::LastMove],
            c => match self.game.command(c) {
                Some(reply) => {
                    if reply.rerender {
                        self.rerender();
                    }
                    reply.actions
                }
                None => match c {
                    KeyCommand::Done => vec![Action::Done],
                    KeyCommand::Cancel if self.game.unselect() => {
                        vec![Action::Cancel, Action::Redraw]
                    }
                    KeyCommand::Cancel => vec![Action::Cancel],
                    _ => vec![Action::Bump],
                },
            },
        }
    }

    fn rerender(&mut self) {
        self.lines = self.game.render(&self.status, self.view, self.width);
        self.line = self.line.min(self.lines.len().saturating_sub(1));
    }

    /// The first target shown on the current line.
    fn anchor_target(&self) -> Option<Target> {
        let len = self.lines.get(self.line).map_or(0, BrailleLine::len);
        (0..len).find_map(|n| self.game.target_at(&self.lines, self.line, n))
    }

    /// Moves to the first line that shows `target`.
    fn seek_target(&mut self, target: Option<Target>) {
        let Some(target) = target else { return };
        let shows = |i: usize| {
            let len = self.lines.get(i).map_or(0, BrailleLine::len);
            (0..len).any(|n| self.game.target_at(&self.lines, i, n) == Some(target))
        };
        if let Some(i) = (0..self.lines.len()).find(|&i| shows(i)) {
            self.line = i;
        }
    }
}
