//! The board on the full screen, drawn from the game's
//! [`BoardPicture`]: coloured light and dark squares, pieces as Unicode
//! glyphs (never letters, unless `--ascii`), the last move's squares
//! highlighted, the squares of pieces just taken marked `×`, square
//! numbers small on the squares that have them, files and ranks beside
//! the board; points with their stacks, the bar, the borne-off checkers,
//! the dice and the cube. The squares grow with the space given; without
//! colour (`NO_COLOR`) the dark squares are dotted and the last move is
//! shown in reverse video.

use ratatui::style::{Color as Hue, Modifier, Style};
use ratatui::text::{Line, Span};
use tandem_rules::Color;

use crate::picture::{ascii_code, die_face, glyph, point_place, BoardPicture, Grid, Layout, Piece};

/// How the screen may draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    /// Colours (off with `NO_COLOR`).
    pub color: bool,
    /// Only ASCII (`--ascii`: pieces by their codes).
    pub ascii: bool,
}

impl Look {
    /// Colours unless `NO_COLOR` is set to something (no-color.org).
    #[must_use]
    pub fn from_env(ascii: bool) -> Look {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Look {
            color: !no_color,
            ascii,
        }
    }
}

const LIGHT: Hue = Hue::Rgb(222, 196, 150);
const DARK: Hue = Hue::Rgb(150, 105, 65);
const LAST_LIGHT: Hue = Hue::Rgb(232, 220, 110);
const LAST_DARK: Hue = Hue::Rgb(190, 170, 50);
const CAPTURED: Hue = Hue::Rgb(200, 60, 50);
const WHITE_PIECE: Hue = Hue::Rgb(255, 255, 255);
const BLACK_PIECE: Hue = Hue::Rgb(0, 0, 0);
const POINT_A: Hue = Hue::Rgb(225, 205, 160);
const POINT_B: Hue = Hue::Rgb(165, 70, 50);
const FELT: Hue = Hue::Rgb(40, 90, 60);

/// A board's cell size on screen: columns and rows of a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellSize {
    /// Columns.
    pub w: u16,
    /// Rows.
    pub h: u16,
}

/// The sizes a grid square may take, largest first (about square on a
/// terminal whose cells are twice as high as wide); the last is compact.
const SIZES: [CellSize; 5] = [
    CellSize { w: 9, h: 4 },
    CellSize { w: 7, h: 3 },
    CellSize { w: 5, h: 2 },
    CellSize { w: 3, h: 1 },
    CellSize { w: 2, h: 1 },
];

/// The columns and rows a picture takes drawn with squares of `size`.
#[must_use]
pub fn grid_extent(g: &Grid, size: CellSize) -> (u16, u16) {
    let labels_left = if g.row_labels.is_empty() { 0 } else { 2 };
    let labels_below = u16::from(!g.col_labels.is_empty());
    (
        u16::from(g.cols) * size.w + labels_left,
        u16::from(g.rows) * size.h + labels_below,
    )
}

/// The largest square size whose board fits in `width` x `height`.
#[must_use]
pub fn fit(g: &Grid, width: u16, height: u16) -> CellSize {
    SIZES
        .into_iter()
        .find(|s| {
            let (w, h) = grid_extent(g, *s);
            w <= width && h <= height
        })
        .unwrap_or(SIZES[SIZES.len() - 1])
}

/// The columns and rows the board wants at most in `width` x `height`
/// (the screen gives the rest to the clocks and the moves).
#[must_use]
pub fn wanted(p: &BoardPicture, width: u16, height: u16) -> (u16, u16) {
    match &p.layout {
        Layout::Grid(g) => grid_extent(g, fit(g, width, height)),
        Layout::Points => {
            let pt = points_point_width(width);
            (12 * pt + 2 * 4, height.min(17))
        }
    }
}

/// The board as lines for `width` x `height` cells.
#[must_use]
pub fn lines(p: &BoardPicture, width: u16, height: u16, look: Look) -> Vec<Line<'static>> {
    match &p.layout {
        Layout::Grid(g) => grid_lines(p, g, fit(g, width, height), look),
        Layout::Points => points_lines(p, width, height, look),
    }
}

fn piece_text(p: &Piece, look: Look) -> String {
    if look.ascii {
        return ascii_code(p);
    }
    // With colour, the filled glyph for both sides, told apart by colour;
    // without, white's outlined and black's filled.
    let side = if look.color { Color::Black } else { p.side };
    glyph(p.shape, side).to_string()
}

fn piece_style(p: &Piece, bg: Style) -> Style {
    let fg = match p.side {
        Color::White => WHITE_PIECE,
        Color::Black => BLACK_PIECE,
    };
    bg.fg(fg).add_modifier(Modifier::BOLD)
}

/// `text` centred in `w` columns.
fn centred(text: &str, w: u16) -> String {
    let n = u16::try_from(text.chars().count()).unwrap_or(w);
    if n >= w {
        return text.chars().take(usize::from(w)).collect();
    }
    let left = (w - n) / 2;
    format!(
        "{}{text}{}",
        " ".repeat(usize::from(left)),
        " ".repeat(usize::from(w - n - left))
    )
}

fn grid_lines(p: &BoardPicture, g: &Grid, size: CellSize, look: Look) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for row in 0..g.rows {
        for k in 0..size.h {
            let mut spans = Vec::new();
            if !g.row_labels.is_empty() {
                let label = if k == size.h / 2 {
                    g.row_labels
                        .get(usize::from(row))
                        .cloned()
                        .unwrap_or_default()
                } else {
                    String::new()
                };
                spans.push(Span::raw(format!("{label:>1} ")));
            }
            for col in 0..g.cols {
                spans.push(grid_cell(p, g, row, col, k, size, look));
            }
            out.push(Line::from(spans));
        }
    }
    if !g.col_labels.is_empty() {
        let mut s = String::from(if g.row_labels.is_empty() { "" } else { "  " });
        for l in &g.col_labels {
            s.push_str(&centred(l, size.w));
        }
        out.push(Line::from(s));
    }
    out
}

/// Line `k` of the square at `row`, `col`.
fn grid_cell(
    p: &BoardPicture,
    g: &Grid,
    row: u8,
    col: u8,
    k: u16,
    size: CellSize,
    look: Look,
) -> Span<'static> {
    let dark = (u16::from(row) + u16::from(col)) % 2 == 1;
    let cell = g.squares.iter().find(|c| c.row == row && c.col == col);
    let id = cell.map(|c| c.id.as_str());
    let last = id.is_some_and(|id| p.last.iter().any(|l| l == id));
    let captured = id.is_some_and(|id| p.captured.iter().any(|l| l == id));
    let piece = id.and_then(|id| p.on(id).next());
    let mut bg = match (dark, last) {
        (false, false) => Style::new().bg(LIGHT).fg(Hue::Black),
        (true, false) => Style::new().bg(DARK).fg(Hue::Rgb(245, 235, 215)),
        (false, true) => Style::new().bg(LAST_LIGHT).fg(Hue::Black),
        (true, true) => Style::new().bg(LAST_DARK).fg(Hue::Black),
    };
    if last && !look.color {
        bg = bg.add_modifier(Modifier::REVERSED);
    }
    let middle = k == size.h / 2;
    let numbered = cell.filter(|c| c.numbered).map(|c| c.id.clone());
    // The square's number small in its top left corner (alone on the top
    // line of a tall square; beside nothing on a one-line square).
    if let Some(n) = &numbered {
        let on_top = size.h >= 2 && k == 0;
        let alone = size.h == 1 && piece.is_none() && !captured && size.w >= 2;
        if on_top || alone {
            let text = format!("{n:<w$}", w = usize::from(size.w));
            let text: String = text.chars().take(usize::from(size.w)).collect();
            return Span::styled(text, bg.add_modifier(Modifier::DIM));
        }
    }
    if middle {
        if let Some(pc) = piece {
            return Span::styled(centred(&piece_text(pc, look), size.w), piece_style(pc, bg));
        }
        if captured {
            let mark = if look.ascii { "x" } else { "×" };
            let style = if look.color {
                bg.fg(CAPTURED).add_modifier(Modifier::BOLD)
            } else {
                bg.add_modifier(Modifier::BOLD)
            };
            return Span::styled(centred(mark, size.w), style);
        }
        if dark && !look.color {
            return Span::styled(centred(if look.ascii { "." } else { "·" }, size.w), bg);
        }
    }
    Span::styled(" ".repeat(usize::from(size.w)), bg)
}

/// A point's width on screen for a board of `width` columns.
fn points_point_width(width: u16) -> u16 {
    // 12 points, the bar and the tray (4 each).
    if width >= 12 * 4 + 8 {
        4
    } else {
        3
    }
}

fn points_lines(p: &BoardPicture, width: u16, height: u16, look: Look) -> Vec<Line<'static>> {
    // Rows: numbers, stack, the middle line, stack, numbers.
    let stack_h = height.saturating_sub(3) / 2;
    let b = Points {
        p,
        pt: points_point_width(width),
        stack_h: stack_h.clamp(2, 6),
        look,
    };
    let mut out = vec![b.number_row(true)];
    for i in 0..b.stack_h {
        // White's checkers on the bar wait to enter at the top right.
        out.push(b.stack_row(13..=24, ("bar", Color::White), ("off", Color::Black), i));
    }
    out.push(b.middle_line());
    for i in (0..b.stack_h).rev() {
        out.push(b.stack_row(
            (1..=12).rev(),
            ("bar", Color::Black),
            ("off", Color::White),
            i,
        ));
    }
    out.push(b.number_row(false));
    out
}

/// A backgammon board drawn in lines: its picture, a point's width, a
/// stack's height and the look.
struct Points<'a> {
    p: &'a BoardPicture,
    pt: u16,
    stack_h: u16,
    look: Look,
}

impl Points<'_> {
    /// The points' numbers: 13-24 on top (with BAR and OFF), 12-1 below.
    fn number_row(&self, top: bool) -> Line<'static> {
        let (p, look) = (self.p, self.look);
        let mut spans = Vec::new();
        for col in 0..12u8 {
            if col == 6 {
                spans.push(Span::raw(if top { " BAR" } else { "    " }));
            }
            let point = if top { 13 + col } else { 12 - col };
            let id = point.to_string();
            let mut style = Style::new();
            if p.captured.contains(&id) {
                style = if look.color {
                    style.fg(CAPTURED).add_modifier(Modifier::BOLD)
                } else {
                    style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
                };
            }
            spans.push(Span::styled(
                format!("{id:>w$}", w = usize::from(self.pt)),
                style,
            ));
        }
        spans.push(Span::raw(if top { " OFF" } else { "" }));
        Line::from(spans)
    }

    /// Line `i` of a half's stacks, from the edge: its 12 points left to
    /// right with the bar after the sixth, and the tray.
    fn stack_row(
        &self,
        points: impl Iterator<Item = u8>,
        bar: (&str, Color),
        off: (&str, Color),
        i: u16,
    ) -> Line<'static> {
        let mut spans = Vec::new();
        for (col, point) in points.enumerate() {
            if col == 6 {
                spans.push(self.side_box(bar.0, bar.1, i));
            }
            spans.push(self.cell(point, i));
        }
        spans.push(self.side_box(off.0, off.1, i));
        Line::from(spans)
    }

    /// Line `i` of a point's stack: a checker, a tall stack's count on top,
    /// or the point's colour.
    fn cell(&self, point: u8, i: u16) -> Span<'static> {
        let (p, look, pt, stack_h) = (self.p, self.look, self.pt, self.stack_h);
        let id = point.to_string();
        let (col, _) = point_place(point);
        let last = p.last.contains(&id);
        let mut style = if last {
            Style::new().bg(LAST_LIGHT).fg(Hue::Black)
        } else if col % 2 == 0 {
            Style::new().bg(POINT_A).fg(Hue::Black)
        } else {
            Style::new().bg(POINT_B).fg(Hue::White)
        };
        if last && !look.color {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let text = match p.on(&id).next() {
            Some(pc) if u32::from(i) < pc.count => {
                if pc.count > u32::from(stack_h) && i + 1 == stack_h {
                    // The top of a tall stack: its count.
                    return Span::styled(
                        centred(&pc.count.to_string(), pt),
                        piece_style(pc, style),
                    );
                }
                return Span::styled(
                    centred(
                        &piece_text(
                            &Piece {
                                count: 1,
                                ..pc.clone()
                            },
                            look,
                        ),
                        pt,
                    ),
                    piece_style(pc, style),
                );
            }
            _ if i == 0 && !look.color => centred(if look.ascii { "." } else { "·" }, pt),
            _ => " ".repeat(usize::from(pt)),
        };
        Span::styled(text, style)
    }

    /// The bar and the tray: a side's count on its half.
    fn side_box(&self, sq: &str, side: Color, i: u16) -> Span<'static> {
        let (p, look) = (self.p, self.look);
        let pc = p.pieces.iter().find(|x| x.square == sq && x.side == side);
        let marked = p.last.iter().any(|l| l == sq) || p.captured.iter().any(|l| l == sq);
        let mut style = Style::new().bg(FELT).fg(Hue::White);
        if marked && i == 0 {
            style = style.add_modifier(Modifier::REVERSED);
        }
        match pc {
            Some(pc) if i == 0 => {
                let text = if look.ascii {
                    ascii_code(pc)
                } else {
                    format!("{}{}", piece_text(pc, look), pc.count)
                };
                Span::styled(centred(&text, 4), piece_style(pc, style))
            }
            _ => Span::styled("    ".to_owned(), style),
        }
    }

    /// The middle: whose turn, the dice, the cube.
    fn middle_line(&self) -> Line<'static> {
        let (p, look) = (self.p, self.look);
        let mut middle = String::new();
        if !p.dice.is_empty() {
            let dice: Vec<String> = p
                .dice
                .iter()
                .map(|d| {
                    if look.ascii {
                        format!("[{d}]")
                    } else {
                        format!("{} {d}", die_face(*d))
                    }
                })
                .collect();
            middle.push_str(&dice.join("  "));
            middle.push_str("   ");
        }
        if let Some(c) = &p.cube {
            let owner = match c.owner {
                Some(Color::White) => "white's",
                Some(Color::Black) => "black's",
                None => "centred",
            };
            middle.push_str(&format!("cube {} ({owner})", c.value.max(1)));
        }
        Line::from(Span::styled(
            centred(&middle, 12 * self.pt + 8),
            Style::new().add_modifier(Modifier::BOLD),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{picture_of, GameKind};

    fn text(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    const COLOUR: Look = Look {
        color: true,
        ascii: false,
    };

    #[test]
    fn a_board_grows_with_the_space_and_falls_back_to_compact() {
        let international: GameKind = "international".parse().unwrap();
        let p = picture_of(&international.position(None).unwrap());
        let Layout::Grid(g) = &p.layout else {
            panic!("a grid")
        };
        assert_eq!(fit(g, 200, 60), CellSize { w: 9, h: 4 });
        assert_eq!(fit(g, 80, 35), CellSize { w: 7, h: 3 });
        assert_eq!(fit(g, 60, 22), CellSize { w: 5, h: 2 });
        assert_eq!(fit(g, 32, 12), CellSize { w: 3, h: 1 });
        assert_eq!(fit(g, 20, 10), CellSize { w: 2, h: 1 });
        let l = lines(&p, 60, 22, COLOUR);
        assert_eq!(l.len(), 20);
        let t = text(&l);
        assert!(t.contains("31"), "square numbers on the squares: {t}");
        assert!(!t.chars().any(|c| "wbWB".contains(c)), "no letters: {t}");
        assert_eq!(t.matches('●').count(), 40, "{t}");
    }

    #[test]
    fn without_colour_the_sides_differ_by_glyph_and_ascii_writes_codes() {
        let p = picture_of(&GameKind::Chess.position(None).unwrap());
        let plain = Look {
            color: false,
            ascii: false,
        };
        let t = text(&lines(&p, 40, 12, plain));
        assert!(t.contains('♔') && t.contains('♚'), "{t}");
        assert!(t.contains("a  b  c"), "files under the board: {t}");
        let t = text(&lines(
            &p,
            40,
            12,
            Look {
                color: false,
                ascii: true,
            },
        ));
        assert!(t.contains('K') && t.contains('k'), "{t}");
        assert!(t.is_ascii(), "{t}");
    }

    #[test]
    fn points_show_stacks_the_bar_the_tray_dice_and_cube() {
        // A 7-point match (the default length), 3 1 rolled.
        let mut m = crate::game::new_game(
            GameKind::Backgammon.position(None).unwrap(),
            tandem_rules::GameOptions::default(),
            "en",
        );
        m.play_action("roll 3 1").unwrap();
        let p = m.picture();
        let t = text(&lines(&p, 80, 17, COLOUR));
        assert!(t.contains("⚂ 3") && t.contains("⚀ 1"), "{t}");
        assert!(t.contains("cube 1 (centred)"), "{t}");
        assert!(t.contains("BAR") && t.contains("OFF"), "{t}");
        // 5 + 3 + 5 + 2 checkers a side.
        assert_eq!(t.matches('●').count(), 30, "{t}");
    }
}
