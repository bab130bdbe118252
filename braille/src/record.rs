//! The record view (001 ch. VIII 2.4, 002 annex E; issue 15): the moves
//! numbered, one move pair a line (`12. 32-28 19-23`), the current move
//! marked with dots 7-8. A routing key over a move names its ply, for the
//! review (the position after that move). Pure: [`render_record`] is what
//! to show; [`RecordView`] is the view's own state inside [`crate::BrailleUi`]
//! (its line, the review's ply), fed by `DriverInput::Record`.

use crate::cell::Cell;
use crate::keys::{Action, Key};
use crate::line::BrailleLine;
use crate::view::Width;

/// The mark under the current move: dots 7-8, as the selection.
pub const CURRENT_MARK: Cell = Cell::UNDERLINE;

/// One display line of the record, with the ply under each cell.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordLine {
    /// The cells.
    pub line: BrailleLine,
    /// Per cell, the ply (from 1: the position after that move) it shows.
    pub plies: Vec<Option<usize>>,
}

impl RecordLine {
    fn push(&mut self, text: &str, ply: Option<usize>) {
        self.line.push_text(text, None);
        self.plies
            .extend(std::iter::repeat(ply).take(text.chars().count()));
    }

    /// The ply under cell `n`.
    #[must_use]
    pub fn ply_at(&self, n: usize) -> Option<usize> {
        self.plies.get(n).copied().flatten()
    }
}

/// The record's lines for a display `width` cells wide: each move pair
/// starts a line (`1. 32-28 19-23`; a game black starts: `1. ... 19-23`);
/// a pair too long for the display goes on on the next line. `current`
/// (a ply from 1) is marked. No moves: one line `-`.
#[must_use]
pub fn render_record(
    moves: &[String],
    black_first: bool,
    current: Option<usize>,
    width: Width,
) -> Vec<RecordLine> {
    let w = width.get();
    let mut atoms: Vec<(String, Option<usize>)> = Vec::new();
    if black_first && !moves.is_empty() {
        atoms.push(("...".into(), None));
    }
    atoms.extend(
        moves
            .iter()
            .enumerate()
            .map(|(i, m)| (m.clone(), Some(i + 1))),
    );
    let mut out = Vec::new();
    for (n, pair) in atoms.chunks(2).enumerate() {
        let mut line = RecordLine::default();
        line.push(&format!("{}.", n + 1), None);
        for (text, ply) in pair {
            let len = text.chars().count();
            if line.line.len() + 1 + len > w && !line.line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            if !line.line.is_empty() {
                line.push(" ", None);
            }
            // A move longer than the display (a long capture) is cut into windows.
            let chars: Vec<char> = text.chars().collect();
            for (k, piece) in chars.chunks(w.max(1)).enumerate() {
                if k > 0 {
                    out.push(std::mem::take(&mut line));
                }
                let piece: String = piece.iter().collect();
                let start = line.line.len();
                line.push(&piece, *ply);
                if ply.is_some() && *ply == current {
                    for c in start..line.line.len() {
                        line.line.mark_cell(c, CURRENT_MARK);
                    }
                }
            }
        }
        out.push(line);
    }
    if out.is_empty() {
        let mut l = RecordLine::default();
        l.push("-", None);
        out.push(l);
    }
    out
}

/// The record view's state in the display's UI.
#[derive(Debug, Clone, Default)]
pub struct RecordView {
    moves: Vec<String>,
    black_first: bool,
    /// The review's ply, if the review is open.
    review: Option<usize>,
    /// Whether the record view is shown (else the board's views).
    pub shown: bool,
    lines: Vec<RecordLine>,
    line: usize,
    width: Option<Width>,
}

impl RecordView {
    /// The record and the review changed.
    pub fn set(&mut self, moves: Vec<String>, black_first: bool, review: Option<usize>) {
        self.moves = moves;
        self.black_first = black_first;
        self.review = review;
        self.rerender(None);
    }

    /// Whether the lines are needed now: the view is shown. Hidden, it is
    /// rendered when opened ([`RecordView::open`]), not on every move (the
    /// whole record each time was a sixth of a chess move's work).
    fn needed(&self) -> bool {
        self.shown
    }

    /// The review's ply, if open.
    #[must_use]
    pub fn review(&self) -> Option<usize> {
        self.review
    }

    /// The marked ply: the review's, else the last move.
    #[must_use]
    pub fn current(&self) -> Option<usize> {
        self.review
            .or_else(|| (!self.moves.is_empty()).then_some(self.moves.len()))
    }

    /// Renders for `width` (the last one if `None`).
    pub fn rerender(&mut self, width: Option<Width>) {
        if width.is_some() {
            self.width = width;
        }
        if !self.needed() {
            self.lines.clear();
            return;
        }
        let w = self.width.unwrap_or(Width::DEFAULT);
        self.lines = render_record(&self.moves, self.black_first, self.current(), w);
        self.line = self.line.min(self.lines.len().saturating_sub(1));
    }

    /// Shows the view at the line of the current move.
    pub fn open(&mut self) {
        self.shown = true;
        if self.lines.is_empty() {
            self.rerender(None);
        }
        let cur = self.current();
        self.line = self
            .lines
            .iter()
            .position(|l| cur.is_some() && l.plies.contains(&cur))
            .unwrap_or(0);
    }

    /// The lines.
    #[must_use]
    pub fn lines(&self) -> &[RecordLine] {
        &self.lines
    }

    /// The current line's index.
    #[must_use]
    pub fn line_index(&self) -> usize {
        self.line
    }

    /// The line shown.
    #[must_use]
    pub fn current_line(&self) -> BrailleLine {
        self.lines
            .get(self.line)
            .map(|l| l.line.clone())
            .unwrap_or_default()
    }

    /// Goes to line `target`; `false` if there is none (or it is the same).
    pub fn go(&mut self, target: Option<usize>) -> bool {
        match target {
            Some(t) if t < self.lines.len() && t != self.line => {
                self.line = t;
                true
            }
            _ => false,
        }
    }

    /// A key while the view is shown (not a command key): the pan and line
    /// keys move through the record, top and bottom jump to its ends; a
    /// routing key over a move closes the view and asks for the review
    /// after that move ([`Action::Review`]).
    pub fn key(&mut self, key: Key) -> Vec<Action> {
        let moved = match key {
            Key::Routing(n) => {
                return match self.ply_at(n.into()) {
                    Some(ply) => {
                        self.shown = false;
                        vec![Action::Review(ply), Action::Redraw]
                    }
                    None => vec![Action::Bump],
                };
            }
            Key::PanLeft | Key::LineUp => self.go(self.line.checked_sub(1)),
            Key::PanRight | Key::LineDown => self.go(Some(self.line + 1)),
            Key::Top => self.go(Some(0)),
            Key::Bottom => self.go(self.lines.len().checked_sub(1)),
            Key::Command(_) | Key::Char(_) => false,
        };
        if moved {
            vec![Action::Redraw]
        } else {
            vec![Action::Bump]
        }
    }

    /// The ply under cell `n` of the line shown.
    #[must_use]
    pub fn ply_at(&self, n: usize) -> Option<usize> {
        self.lines.get(self.line).and_then(|l| l.ply_at(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(m: &[&str]) -> Vec<String> {
        m.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn one_move_pair_a_line_with_the_current_move_marked() {
        let m = moves(&["32-28", "19-23", "28x19"]);
        let l = render_record(&m, false, Some(2), Width::new(40).unwrap());
        let texts: Vec<String> = l.iter().map(|l| l.line.text()).collect();
        assert_eq!(texts, ["1. 32-28 19-23", "2. 28x19"]);
        assert_eq!(l[0].ply_at(3), Some(1));
        assert_eq!(l[0].ply_at(9), Some(2));
        assert_eq!(l[0].ply_at(0), None, "the number routes nowhere");
        assert_eq!(l[1].ply_at(3), Some(3));
        let marked: Vec<usize> = (0..l[0].line.len())
            .filter(|&c| l[0].line.cells()[c].0 & CURRENT_MARK.0 != 0)
            .collect();
        assert_eq!(marked, (9..14).collect::<Vec<_>>(), "19-23 is marked");
    }

    #[test]
    fn a_long_pair_goes_on_on_the_next_line_and_black_first_starts_with_dots() {
        let m = moves(&["27x38x49x40x29x18", "1-7"]);
        let l = render_record(&m, true, None, Width::new(14).unwrap());
        let texts: Vec<String> = l.iter().map(|l| l.line.text()).collect();
        assert_eq!(texts, ["1. ...", "27x38x49x40x29", "x18", "2. 1-7"]);
        assert_eq!(l[1].ply_at(0), Some(1));
        assert_eq!(l[2].ply_at(0), Some(1));
        assert!(l.iter().all(|x| x.line.len() <= 14));
        assert_eq!(
            render_record(&[], false, None, Width::DEFAULT)[0]
                .line
                .text(),
            "-"
        );
    }

    #[test]
    fn the_view_opens_at_the_current_move() {
        let mut v = RecordView::default();
        let m: Vec<String> = (0..10).map(|i| format!("{}-{}", 30 + i, 25 + i)).collect();
        v.set(m, false, Some(5));
        v.open();
        assert_eq!(v.line_index(), 2, "ply 5 is move 3");
        assert_eq!(v.ply_at(3), Some(5));
        v.set(v.moves.clone(), false, None);
        assert_eq!(v.current(), Some(10));
        assert!(v.go(Some(4)));
        assert!(!v.go(Some(5)));
    }
}
