//! What every game's views share: which view ([`View`]), the display's
//! width ([`Width`]), the daemon's status line ([`StatusInfo`],
//! [`format_clock`]) and the greedy wrapping of cells into lines.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use tandem_rules::Color;

use crate::line::BrailleLine;

/// What to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    /// The pieces by square number.
    List,
    /// One board row per line, in words.
    Rows,
    /// One board row per line, one dot pattern per square.
    Graphic,
    /// Last move, side to move, clocks, how far each board is behind.
    Status,
}

impl View {
    /// Every view, in the order the "next view" key cycles through them.
    pub const ALL: [View; 4] = [View::List, View::Rows, View::Graphic, View::Status];

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            View::List => "list",
            View::Rows => "rows",
            View::Graphic => "graphic",
            View::Status => "status",
        }
    }

    /// The view after this one (wrapping around).
    #[must_use]
    pub fn next(self) -> View {
        match self {
            View::List => View::Rows,
            View::Rows => View::Graphic,
            View::Graphic => View::Status,
            View::Status => View::List,
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown view name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseViewError(pub String);

impl fmt::Display for ParseViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown view {:?} (expected list, rows, graphic or status)",
            self.0
        )
    }
}

impl std::error::Error for ParseViewError {}

impl FromStr for View {
    type Err = ParseViewError;

    fn from_str(s: &str) -> Result<View, ParseViewError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "list" => Ok(View::List),
            "rows" | "row" => Ok(View::Rows),
            "graphic" | "graphics" => Ok(View::Graphic),
            "status" => Ok(View::Status),
            _ => Err(ParseViewError(s.to_owned())),
        }
    }
}

/// A display width in cells, 14 to 80 (the widths braille displays come in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Width(u16);

impl Width {
    /// The narrowest width supported.
    pub const MIN: u16 = 14;
    /// The widest width supported.
    pub const MAX: u16 = 80;
    /// The usual 40-cell display.
    pub const DEFAULT: Width = Width(40);

    /// A width, if it is within 14..=80.
    ///
    /// ```
    /// use tandem_braille::Width;
    /// assert_eq!(Width::new(40).unwrap().get(), 40);
    /// assert!(Width::new(12).is_err());
    /// ```
    pub fn new(n: u16) -> Result<Width, WidthError> {
        if (Width::MIN..=Width::MAX).contains(&n) {
            Ok(Width(n))
        } else {
            Err(WidthError(n))
        }
    }

    /// The width nearest to `n` within 14..=80 (for a display that reports
    /// an unusual size: a 12-cell display still gets 14-cell lines, cut).
    #[must_use]
    pub fn clamped(n: usize) -> Width {
        Width(n.clamp(Width::MIN.into(), Width::MAX.into()) as u16)
    }

    /// Cells.
    #[must_use]
    pub fn get(self) -> usize {
        self.0.into()
    }
}

/// A width outside 14..=80.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WidthError(pub u16);

impl fmt::Display for WidthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "display width {} is outside {}..={}",
            self.0,
            Width::MIN,
            Width::MAX
        )
    }
}

impl std::error::Error for WidthError {}

/// What the status line shows. The daemon owns these facts (the game record,
/// the clock, the boards' progress) and passes them in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusInfo {
    /// The last move in strict notation (`32-28`), if any.
    pub last_move: Option<String>,
    /// The side to move.
    pub to_move: Color,
    /// White's remaining time, if a clock runs.
    pub white_clock: Option<Duration>,
    /// Black's remaining time, if a clock runs.
    pub black_clock: Option<Duration>,
    /// Moves (plies) the white player's board still lacks (001 ch. VIII: each
    /// player has a board; the moves are made on both).
    pub white_behind: u32,
    /// Moves (plies) the black player's board still lacks.
    pub black_behind: u32,
}

impl StatusInfo {
    /// No move yet, no clock, both boards up to date, `to_move` to move.
    #[must_use]
    pub fn new(to_move: Color) -> StatusInfo {
        StatusInfo {
            last_move: None,
            to_move,
            white_clock: None,
            black_clock: None,
            white_behind: 0,
            black_behind: 0,
        }
    }
}

/// A clock reading: `m:ss`, or `h:mm:ss` from one hour on; `--:--` when no clock runs.
///
/// ```
/// use std::time::Duration;
/// use tandem_braille::view::format_clock;
/// assert_eq!(format_clock(Some(Duration::from_secs(299))), "4:59");
/// assert_eq!(format_clock(Some(Duration::from_secs(3723))), "1:02:03");
/// assert_eq!(format_clock(None), "--:--");
/// ```
#[must_use]
pub fn format_clock(d: Option<Duration>) -> String {
    let Some(d) = d else {
        return "--:--".to_owned();
    };
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A line as `tandem braille render` prints it: its text, its cells, the
/// number of what each cell shows (a square, a point: the routing target's
/// number), and the line printed without `--json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedLine {
    /// The text (one character a cell, or the game's own words for a
    /// graphic line).
    pub text: String,
    /// The cells as Unicode braille, unpadded.
    pub cells: String,
    /// Per cell, the number of what it shows, or `None`.
    pub squares: Vec<Option<u16>>,
    /// What is printed without `--json` (one or more lines).
    pub plain: String,
}

impl PrintedLine {
    /// A line whose targets number its cells: printed as a terminal
    /// display writes it (the cells padded to `width`, two spaces, the text).
    ///
    /// ```
    /// use tandem_braille::view::{PrintedLine, Width};
    /// use tandem_braille::BrailleLine;
    /// let p = PrintedLine::of(&BrailleLine::from_text("ok"), Width::new(14).unwrap());
    /// assert_eq!(p.plain, format!("⠕⠅{}  ok", "⠀".repeat(12)));
    /// assert_eq!(p.squares, vec![None, None]);
    /// ```
    #[must_use]
    pub fn of(line: &BrailleLine, width: Width) -> PrintedLine {
        PrintedLine::with_squares(
            line,
            line.targets()
                .iter()
                .map(|t| t.map(crate::line::Target::number))
                .collect(),
            width,
        )
    }

    /// As [`PrintedLine::of`], with the numbers of what each cell shows given.
    #[must_use]
    pub fn with_squares(
        line: &BrailleLine,
        squares: Vec<Option<u16>>,
        width: Width,
    ) -> PrintedLine {
        let cells: String = line
            .cells_padded(width.get())
            .iter()
            .map(|c| c.to_char())
            .collect();
        let text: String = line.chars().iter().take(width.get()).collect();
        PrintedLine {
            text: line.text(),
            cells: line.cells_string(),
            squares,
            plain: format!("{cells}  {}", text.trim_end()),
        }
    }
}

pub(crate) fn status_lines(s: &StatusInfo, width: Width) -> Vec<BrailleLine> {
    let fields = [
        format!("last {}", s.last_move.as_deref().unwrap_or("none")),
        format!("{} to move", s.to_move.name()),
        format!(
            "W {} B {}",
            format_clock(s.white_clock),
            format_clock(s.black_clock)
        ),
        format!("behind W {} B {}", s.white_behind, s.black_behind),
    ];
    let mut atoms = Vec::new();
    for f in &fields {
        if f.chars().count() <= width.get() {
            atoms.push(BrailleLine::from_text(f));
        } else {
            // A field wider than the display: its words wrap on their own.
            let words: Vec<BrailleLine> = f.split(' ').map(BrailleLine::from_text).collect();
            for l in wrap(&words, " ", width) {
                atoms.push(l);
            }
        }
    }
    wrap(&atoms, " | ", width)
}

/// A line that [`wrap`] can fill: the draughts [`BrailleLine`] and the chess
/// line (which adds square numbers up to 64) share one wrapping.
pub(crate) trait Wrappable: Clone + Default {
    /// Cells in the line.
    fn cells(&self) -> usize;
    /// Appends a separator (text that shows no square).
    fn push_separator(&mut self, sep: &str);
    /// Appends another line.
    fn append(&mut self, other: &Self);
    /// The first `n` cells and the rest.
    fn split(&self, n: usize) -> (Self, Self);
}

impl Wrappable for BrailleLine {
    fn cells(&self) -> usize {
        self.len()
    }
    fn push_separator(&mut self, sep: &str) {
        self.push_text(sep, None);
    }
    fn append(&mut self, other: &Self) {
        self.extend(other);
    }
    fn split(&self, n: usize) -> (Self, Self) {
        split_at(self, n)
    }
}

/// Greedy wrapping: atoms joined by `sep`, a new line when the next atom
/// does not fit; an atom wider than the display is cut into pieces.
pub(crate) fn wrap<L: Wrappable>(atoms: &[L], sep: &str, width: Width) -> Vec<L> {
    let w = width.get();
    let sep_len = sep.chars().count();
    let mut lines = Vec::new();
    let mut cur = L::default();
    for atom in atoms {
        let mut atom = atom.clone();
        if cur.cells() > 0 && cur.cells() + sep_len + atom.cells() <= w {
            cur.push_separator(sep);
            cur.append(&atom);
            continue;
        }
        if cur.cells() > 0 {
            lines.push(std::mem::take(&mut cur));
        }
        while atom.cells() > w {
            let (head, tail) = atom.split(w);
            lines.push(head);
            atom = tail;
        }
        cur = atom;
    }
    if cur.cells() > 0 || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

fn split_at(line: &BrailleLine, n: usize) -> (BrailleLine, BrailleLine) {
    let mut head = BrailleLine::new();
    let mut tail = BrailleLine::new();
    for (i, ((c, sq), kind)) in line
        .chars()
        .iter()
        .zip(line.targets())
        .zip(line.kinds())
        .enumerate()
    {
        let target = if i < n { &mut head } else { &mut tail };
        match kind {
            crate::line::CellKind::Text => target.push_text(&c.to_string(), *sq),
            crate::line::CellKind::Graphic => target.push_graphic(line.cells()[i], *c, *sq),
        }
    }
    (head, tail)
}

pub(crate) fn cut(line: BrailleLine, width: Width) -> BrailleLine {
    if line.len() <= width.get() {
        line
    } else {
        split_at(&line, width.get()).0
    }
}
