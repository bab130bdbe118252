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
//!   selected square again unselects it (draughts:
//!   [`crate::draughts::keys`], chess: [`crate::chess::keys`]); in
//!   backgammon a pick then a destination is one checker step
//!   ([`crate::backgammon::keys`]). A game may offer a choice to route (a
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tandem_rules::draughts::{Position, Square, Variant};
    use tandem_rules::Color;

    fn ui(view: View) -> BrailleUi {
        let pos = Position::start(Variant::International);
        BrailleUi::new(
            pos,
            StatusInfo::new(Color::White),
            view,
            Width::new(40).unwrap(),
        )
    }

    /// Draughts square `n` as its view routes it.
    fn sq(n: u8) -> Target {
        crate::draughts::keys::target(Square::new(n).unwrap())
    }

    /// The first cell of the current line that shows `n`.
    fn cell_of(ui: &BrailleUi, n: u8) -> u16 {
        ui.current_line()
            .targets()
            .iter()
            .position(|s| *s == Some(sq(n)))
            .unwrap() as u16
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
        // After the status view, the record view (no moves yet: `-`).
        u.handle(Key::Command(KeyCommand::NextView));
        assert!(u.record().shown);
        assert_eq!(u.current_line().text(), "-");
        u.handle(Key::Command(KeyCommand::NextView));
        assert!(!u.record().shown);
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
        assert_eq!(u.selected_name().as_deref(), Some("31"));
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
            .find(|m| Some(m.from()) == Square::new(32) && Some(m.to()) == Square::new(28))
            .unwrap();
        pos.play_unchecked(&m);
        u.update(pos, &StatusInfo::new(Color::Black));
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

    // Chess (002 annex E): the same keys over a chess board.

    use tandem_rules::chess::shakmaty::{Chess, Position as _};

    fn chess_ui(pos: Chess, view: View, width: u16) -> BrailleUi {
        BrailleUi::with_board(
            Board::Chess(pos),
            StatusInfo::new(Color::White),
            view,
            Width::new(width).unwrap(),
        )
    }

    fn after(pos: &Chess, uci: &str) -> Chess {
        let m = tandem_rules::chess::resolve(pos, uci).unwrap();
        let mut next = pos.clone();
        next.play_unchecked(&m.to_shakmaty());
        next
    }

    /// The cells of the current line carrying dots 7-8.
    fn marked_cells(u: &BrailleUi) -> Vec<usize> {
        u.current_line()
            .cells()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.0 & 0xC0 == 0xC0)
            .map(|(i, _)| i)
            .collect()
    }

    #[test]
    fn chess_next_view_cycles_and_keeps_the_rank() {
        let mut u = chess_ui(tandem_rules::chess::start(), View::Rows, 40);
        u.handle(Key::LineDown);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::NextView)),
            vec![Action::Redraw]
        );
        assert_eq!(u.view(), View::Graphic);
        assert_eq!(u.current_line().text(), "7 pppppppp");
        // And back from the graphic to the rows, through status and list.
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::Status);
        assert!(
            u.current_line().text().contains("white to move"),
            "{}",
            u.current_line().text()
        );
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::Bump],
            "no square on the status line"
        );
        u.handle(Key::Command(KeyCommand::NextView));
        assert!(u.record().shown, "the record view");
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::List);
        assert!(u.current_line().text().starts_with("W Ke1 Qd1 Ra1 Rh1"));
        // The list's cells route too: "Ke1" from cell 2.
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::SelectedSquare("e1".into()), Action::Redraw]
        );
        assert_eq!(marked_cells(&u), vec![2, 3, 4]);
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::Rows);
        assert_eq!(
            u.current_line().text(),
            "a1:R b1:N c1:B d1:Q e1:K f1:B g1:N h1:R"
        );
        assert_eq!(
            marked_cells(&u),
            (20..24).collect::<Vec<_>>(),
            "the selection stays"
        );
    }

    #[test]
    fn chess_a_new_position_drops_the_selection_a_clock_tick_keeps_it() {
        let start = tandem_rules::chess::start();
        let mut u = chess_ui(start.clone(), View::Rows, 40);
        for _ in 0..6 {
            u.handle(Key::LineDown);
        }
        u.handle(Key::Routing(21));
        let mut tick = StatusInfo::new(Color::White);
        tick.white_clock = Some(Duration::from_secs(299));
        u.update_board(&Board::Chess(start.clone()), &tick);
        assert_eq!(u.selected_name().as_deref(), Some("e2"), "same position");
        assert_eq!(u.line_index(), 6);

        let moved = after(&start, "e2e4");
        u.update_board(&Board::Chess(moved.clone()), &StatusInfo::new(Color::Black));
        assert_eq!(u.selected_name(), None);
        assert!(marked_cells(&u).is_empty());
        assert_eq!(u.line_index(), 6, "the line stays");
        assert_eq!(
            u.current_line().text(),
            "a2:P b2:P c2:P d2:P e2:- f2:P g2:P h2:P"
        );
        assert_eq!(u.board(), &Board::Chess(moved));

        // A board of the other game drops it too, and shows that game.
        u.handle(Key::Routing(1));
        assert_eq!(u.selected_name().as_deref(), Some("a2"));
        u.update(
            Position::start(Variant::International),
            &StatusInfo::new(Color::White),
        );
        assert_eq!(u.selected_name(), None);
        assert_eq!(u.current_line().text(), "31:w 32:w 33:w 34:w 35:w");
    }

    #[test]
    fn chess_panning_on_a_narrow_display() {
        let mut u = chess_ui(tandem_rules::chess::start(), View::Rows, 14);
        // Each rank takes three lines of 14 cells.
        assert_eq!(u.lines().len(), 24);
        assert_eq!(u.current_line().text(), "a8:r b8:n c8:b");
        assert_eq!(u.handle(Key::PanLeft), vec![Action::Bump]);
        assert_eq!(u.handle(Key::PanRight), vec![Action::Redraw]);
        assert_eq!(u.current_line().text(), "d8:q e8:k f8:b");
        for _ in 0..18 {
            u.handle(Key::PanRight);
        }
        assert_eq!(u.current_line().text(), "d2:P e2:P f2:P");
        assert_eq!(
            u.handle(Key::Routing(6)),
            vec![Action::SelectedSquare("e2".into()), Action::Redraw]
        );
        for _ in 0..6 {
            u.handle(Key::PanLeft);
        }
        assert_eq!(u.current_line().text(), "d4:- e4:- f4:-");
        assert_eq!(
            u.handle(Key::Routing(5)),
            vec![Action::MoveText("e2e4".into()), Action::Redraw]
        );
        u.handle(Key::Bottom);
        assert_eq!(u.current_line().text(), "g1:N h1:R");
        assert_eq!(u.handle(Key::PanRight), vec![Action::Bump]);
        // A wider display keeps the rank.
        u.handle(Key::LineUp);
        u.set_width(Width::new(40).unwrap());
        assert_eq!(
            u.current_line().text(),
            "a1:R b1:N c1:B d1:Q e1:K f1:B g1:N h1:R"
        );
        // A message over a chess line lasts one key.
        u.show_message("illegal move e2e5");
        assert_eq!(u.current_line().text(), "illegal move e2e5");
        assert_eq!(u.handle(Key::Routing(1)), vec![Action::Redraw]);
        assert_eq!(
            u.selected_name(),
            None,
            "routing over a message only dismisses it"
        );
    }
}
