//! Backgammon on a braille display: the whole board on one line, a cell a
//! point, with the point under each cell for the routing keys, and a status
//! line (dice, pips, cube, score). Pure: positions in, cells and text out.
//!
//! The board line, in the viewer's numbering (points count from each
//! player's own home), read left to right in the viewer's direction of play:
//!
//! ```text
//! bar _ 24 23 22 21 20 19 _ 18 .. 13 _ 12 .. 7 _ 6 5 4 3 2 1 _ off
//! ```
//!
//! 31 cells: the bar, four quarters of six points each after an empty cell,
//! an empty cell, and the borne-off cell. In a point's cell the viewer's
//! checkers are the left column (dots 1, 2, 3, 7 from the top: one dot a
//! checker, all four for four or more) and the opponent's the right column
//! (dots 4, 5, 6, 8). The bar and off cells show both sides the same way.
//! The exact counts are in the text line ([`text_line`]).
//!
//! A display narrower than the line (under 31 cells) shows it in windows
//! cut at the gaps ([`BgLine::windows`]); each window keeps the point under
//! each of its cells, so the routing keys follow the panning. The keys that
//! enter a turn and a roll are in [`input`] and [`keys`].

pub mod input;
pub mod keys;

pub use keys::BgKeys;

use std::time::Duration;

use tandem_rules::backgammon::{Board, Match};
use tandem_rules::Color;

use crate::cell::Cell;
use crate::line::BrailleLine;
use crate::view::{format_clock, PrintedLine, StatusInfo, Width};

/// What a cell of the board line shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BgSpot {
    /// A point, 1..24 in the viewer's numbering.
    Point(u8),
    /// The bar.
    Bar,
    /// Borne off.
    Off,
}

/// The board line: cells, and what each cell shows (`None` for a gap).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BgLine {
    /// The cells.
    pub cells: Vec<Cell>,
    /// The spot under each cell.
    pub spots: Vec<Option<BgSpot>>,
}

impl BgLine {
    /// The spot under cell `n` (a routing key), if any.
    #[must_use]
    pub fn spot(&self, n: usize) -> Option<BgSpot> {
        self.spots.get(n).copied().flatten()
    }

    /// The cell showing `spot`.
    #[must_use]
    pub fn cell_of(&self, spot: BgSpot) -> Option<usize> {
        self.spots.iter().position(|s| *s == Some(spot))
    }

    /// The line as Unicode braille.
    #[must_use]
    pub fn text(&self) -> String {
        self.cells.iter().map(|c| c.to_char()).collect()
    }

    /// The line cut into windows of at most `width` cells, each cut at a
    /// gap (the bar, each quarter of six points after its gap, off): the
    /// whole line when it fits. A window's spots are its own cells'.
    ///
    /// ```
    /// use tandem_braille::backgammon::{board_line, BgSpot};
    /// use tandem_braille::Width;
    /// use tandem_rules::{backgammon::Board, Color};
    /// let line = board_line(&Board::start(Color::White), Color::White);
    /// assert_eq!(line.windows(Width::new(40).unwrap()).len(), 1);
    /// let w = line.windows(Width::new(20).unwrap());
    /// assert_eq!(w.len(), 2);
    /// assert_eq!(w[1].spot(1), Some(BgSpot::Point(12)));
    /// ```
    #[must_use]
    pub fn windows(&self, width: Width) -> Vec<BgLine> {
        let w = width.get();
        if self.cells.len() <= w {
            return vec![self.clone()];
        }
        // Pieces: each starts at a gap (or the line's start).
        let mut starts: Vec<usize> = (0..self.spots.len())
            .filter(|&i| i == 0 || self.spots[i].is_none())
            .collect();
        starts.push(self.cells.len());
        let mut out: Vec<BgLine> = Vec::new();
        let mut cur = BgLine::default();
        for piece in starts.windows(2) {
            let (a, b) = (piece[0], piece[1]);
            if !cur.cells.is_empty() && cur.cells.len() + (b - a) > w {
                out.push(std::mem::take(&mut cur));
            }
            cur.cells.extend_from_slice(&self.cells[a..b]);
            cur.spots.extend_from_slice(&self.spots[a..b]);
        }
        if !cur.cells.is_empty() {
            out.push(cur);
        }
        out
    }
}

const LEFT: [u8; 4] = [1, 2, 3, 7];
const RIGHT: [u8; 4] = [4, 5, 6, 8];

fn column(dots: &[u8; 4], n: u8) -> Vec<u8> {
    dots[..usize::from(n.min(4))].to_vec()
}

fn cell(mine: u8, theirs: u8) -> Cell {
    let mut dots = column(&LEFT, mine);
    dots.extend(column(&RIGHT, theirs));
    Cell::from_dots(&dots)
}

/// The viewer's point `p` as the opponent numbers it.
fn theirs(p: u8) -> u8 {
    25 - p
}

/// The board on one line for `viewer`.
#[must_use]
pub fn board_line(board: &Board, viewer: Color) -> BgLine {
    let other = viewer.other();
    let mut line = BgLine::default();
    let mut push = |c: Cell, s: Option<BgSpot>| {
        line.cells.push(c);
        line.spots.push(s);
    };
    push(cell(board.bar(viewer), board.bar(other)), Some(BgSpot::Bar));
    for quarter in 0..4u8 {
        push(Cell::from_dots(&[]), None);
        for k in 0..6u8 {
            let p = 24 - quarter * 6 - k;
            push(
                cell(board.count(viewer, p), board.count(other, theirs(p))),
                Some(BgSpot::Point(p)),
            );
        }
    }
    push(Cell::from_dots(&[]), None);
    push(
        cell(board.borne_off(viewer), board.borne_off(other)),
        Some(BgSpot::Off),
    );
    line
}

/// The board as text with exact counts, in the viewer's numbering: the
/// viewer's checkers as `x`, the opponent's as `o`: `bar 0 0 | 24x2 13x5 12o5 … | off 0 0`.
#[must_use]
pub fn text_line(board: &Board, viewer: Color) -> String {
    let other = viewer.other();
    let mut parts = vec![format!("bar {} {}", board.bar(viewer), board.bar(other))];
    for p in (1..=24u8).rev() {
        let (m, t) = (board.count(viewer, p), board.count(other, theirs(p)));
        if m > 0 {
            parts.push(format!("{p}x{m}"));
        } else if t > 0 {
            parts.push(format!("{p}o{t}"));
        }
    }
    parts.push(format!(
        "off {} {}",
        board.borne_off(viewer),
        board.borne_off(other)
    ));
    parts.join(" ")
}

/// The status line with both clocks after the score, the viewer's first
/// (`| time 4:59 5:00`; `--:--` without a clock); while a turn is being
/// entered on the display, the dice still to play after the dice
/// (`31 left 1 | …`).
#[must_use]
pub fn status_with_clocks(
    m: &Match,
    viewer: Color,
    status: &StatusInfo,
    left: Option<&[u8]>,
) -> String {
    let clock = |c: Color| -> Option<Duration> {
        match c {
            Color::White => status.white_clock,
            Color::Black => status.black_clock,
        }
    };
    let mut line = status_line(m, viewer);
    if let Some(left) = left {
        let dice: String = left.iter().map(u8::to_string).collect();
        let at = line.find(" | ").unwrap_or(line.len());
        line.insert_str(at, &format!(" left {dice}"));
    }
    format!(
        "{} | time {} {}",
        line,
        format_clock(clock(viewer)),
        format_clock(clock(viewer.other()))
    )
}

/// The status line: dice, pips, cube, score: `31 | pips 167 167 | cube 2 x | 1-0/7 C`
/// (pips and scores viewer first; the cube's owner `x` the viewer, `o` the
/// opponent, nothing in the middle; `C` in the Crawford game).
#[must_use]
pub fn status_line(m: &Match, viewer: Color) -> String {
    let other = viewer.other();
    let dice = m
        .dice()
        .map_or_else(|| "-".to_owned(), |d| format!("{}{}", d.0, d.1));
    let owner = match m.cube_owner() {
        Some(c) if c == viewer => " x",
        Some(_) => " o",
        None => "",
    };
    let b = m.board();
    format!(
        "{dice} | pips {} {} | cube {}{owner} | {}-{}/{}{}",
        b.pips(viewer),
        b.pips(other),
        m.cube(),
        m.score(viewer),
        m.score(other),
        m.options().length,
        if m.is_crawford() { " C" } else { "" }
    )
}

/// The display's lines of a match seen by `viewer` on a display `width`
/// cells wide, and the spot under each cell of each line: the board line
/// (after the steps entered so far on the display) in windows, the counts
/// wrapped by words, the status line with the clocks wrapped by fields.
pub(crate) fn lines(
    game: &Match,
    viewer: Color,
    input: &input::BgInput,
    status: &StatusInfo,
    width: Width,
) -> (Vec<BrailleLine>, Vec<Vec<Option<BgSpot>>>) {
    let shown = input.shown_board(game);
    let mut lines = Vec::new();
    let mut spots = Vec::new();
    for w in board_line(&shown, viewer).windows(width) {
        let mut l = BrailleLine::new();
        for cell in &w.cells {
            l.push_graphic(*cell, ' ', None);
        }
        lines.push(l);
        spots.push(w.spots);
    }
    let left = input.dice_left(game);
    let status = status_with_clocks(game, viewer, status, left.as_deref());
    for (t, sep) in [(text_line(&shown, viewer), " "), (status, " | ")] {
        let atoms: Vec<BrailleLine> = t.split(sep).map(BrailleLine::from_text).collect();
        for l in crate::view::wrap(&atoms, sep, width) {
            lines.push(l);
            spots.push(Vec::new());
        }
    }
    (lines, spots)
}

/// `tandem braille render`'s lines of a backgammon board seen by
/// `viewer`: the board line cut into windows at its gaps when it does not
/// fit `width` (its text the spots' words, `bar _ 24 …`; the number of what
/// each cell shows as GNU Backgammon numbers it in the viewer's numbering:
/// points 1-24, the bar 25, borne off 0), and with the match the status
/// line. Printed without `--json` as the cells, then the text.
#[must_use]
pub fn printed(board: &Board, m: Option<&Match>, viewer: Color, width: Width) -> Vec<PrintedLine> {
    let word = |s: Option<BgSpot>| match s {
        Some(BgSpot::Point(p)) => p.to_string(),
        Some(BgSpot::Bar) => "bar".to_owned(),
        Some(BgSpot::Off) => "off".to_owned(),
        None => "_".to_owned(),
    };
    let mut lines: Vec<(BrailleLine, String, Vec<Option<u16>>)> = board_line(board, viewer)
        .windows(width)
        .into_iter()
        .map(|w| {
            let mut line = BrailleLine::new();
            for c in &w.cells {
                line.push_graphic(*c, ' ', None);
            }
            let text = w
                .spots
                .iter()
                .map(|s| word(*s))
                .collect::<Vec<_>>()
                .join(" ");
            let squares = w
                .spots
                .iter()
                .map(|s| s.map(|s| keys::target(s).number()))
                .collect();
            (line, text, squares)
        })
        .collect();
    if let Some(m) = m {
        let status = status_line(m, viewer);
        let line = BrailleLine::from_text(&status);
        let n = line.len();
        lines.push((line, status, vec![None; n]));
    }
    lines
        .into_iter()
        .map(|(line, text, squares)| {
            let cells: String = line
                .cells_padded(width.get())
                .iter()
                .map(|c| c.to_char())
                .collect();
            PrintedLine {
                plain: format!("{cells}\n{text}"),
                text,
                cells: line.cells_string(),
                squares,
            }
        })
        .collect()
}
