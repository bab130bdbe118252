//! A [`BoardPicture`] as SVG: the hall's pages (each board an inline
//! `<svg data-table="N" role="img" aria-label="…">`) and the arbiter's
//! reports (`tandem arbiter diff A B --svg FILE`). One element a piece
//! (or a stack of checkers) carries `data-square`, `data-piece` and, on
//! points, `data-count`; each square's element carries `data-square`, and
//! `data-differs="true"` where the boards differ. Nothing here knows the
//! game: squares are laid out as the picture says.

use std::fmt::Write as _;

use tandem_rules::Color;

use super::{point_place, BoardPicture, Grid, Layout, Piece, Shape};

/// A grid square's side, in SVG units.
const SQ: u32 = 40;
/// The margin for labels around a grid.
const MARGIN: u32 = 18;
/// A point's width on a board of points.
const PT: u32 = 32;
/// Half a board of points, high.
const HALF: u32 = 170;
/// The bar's width (and the tray's).
const BAR: u32 = 36;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const LAST: &str = "#f6e05e";
const DIFFERS: &str = "#d00000";
const CAPTURED: &str = "#c00000";

/// Text for XML: `&`, `<`, `>`, `"` written as entities.
#[must_use]
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One board as a whole `<svg>` element: `data-table` when it is a
/// table's board, `label` its text alternative.
#[must_use]
pub fn svg(p: &BoardPicture, table: Option<u32>, label: &str) -> String {
    let mut body = String::new();
    let (w, h) = board(p, &mut body);
    let table = table.map_or_else(String::new, |n| format!(" data-table=\"{n}\""));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" class=\"board-svg\"{table} \
         role=\"img\" aria-label=\"{}\">{body}</svg>",
        escape(label)
    )
}

/// One board as a whole `<svg>` element drawn from `side`'s chair: a grid
/// turned half round for black ([`BoardPicture::oriented`]); a board of
/// points turned half round for black too (black's home board at the bottom
/// right), its points keeping their ids (numbered from white's side, as the
/// desk and the game's taps number them) and labelled as black counts them
/// (black's point N is white's 25 - N: [`point_label`]).
#[must_use]
pub fn svg_for(p: &BoardPicture, side: Color, label: &str) -> String {
    let p = p.clone().oriented(side);
    let mut body = String::new();
    let (w, h) = match &p.layout {
        Layout::Grid(g) => grid(&p, g, &mut body),
        Layout::Points => points(&p, &mut body, side == Color::Black),
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" class=\"board-svg\" \
         role=\"img\" aria-label=\"{}\">{body}</svg>",
        escape(label)
    )
}

/// Two boards side by side with their captions (the arbiter's diff: A the
/// record's position, B the board to correct), in one standalone SVG
/// document; `differs` marked on both.
#[must_use]
pub fn side_by_side(boards: &[(&BoardPicture, &str)], title: &str) -> String {
    const GAP: u32 = 30;
    const HEAD: u32 = 52;
    let mut body = String::new();
    let mut x = 0;
    let mut height = 0;
    for (i, (p, caption)) in boards.iter().enumerate() {
        let mut b = String::new();
        let (w, h) = board(p, &mut b);
        let name = ["a", "b", "c", "d"].get(i).copied().unwrap_or("x");
        let _ = write!(
            body,
            "<g data-board=\"{name}\" transform=\"translate({x} {HEAD})\">\
             <text x=\"0\" y=\"-8\" font-size=\"16\" font-family=\"DejaVu Sans, sans-serif\">{}</text>{b}</g>",
            escape(caption)
        );
        x += w + GAP;
        height = height.max(h);
    }
    let width = x.saturating_sub(GAP).max(1);
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         viewBox=\"0 0 {width} {}\" width=\"{width}\" height=\"{}\" role=\"img\" aria-label=\"{t}\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\
         <text x=\"0\" y=\"20\" font-size=\"18\" font-weight=\"bold\" font-family=\"DejaVu Sans, sans-serif\">{t}</text>\
         {body}</svg>\n",
        height + HEAD,
        height + HEAD,
        t = escape(title)
    )
}

/// Draws a board into `out`; its width and height.
fn board(p: &BoardPicture, out: &mut String) -> (u32, u32) {
    match &p.layout {
        Layout::Grid(g) => grid(p, g, out),
        Layout::Points => points(p, out, false),
    }
}

/// The outline of a zone `(x, y, w, h)`, `inset` inside it: a rectangle of
/// `class` drawn with `stroke` (its attributes).
fn outline(
    out: &mut String,
    (x, y, w, h): (u32, u32, u32, u32),
    inset: u32,
    class: &str,
    stroke: &str,
) {
    let _ = write!(
        out,
        "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" {stroke}/>",
        x + inset,
        y + inset,
        w - 2 * inset,
        h - 2 * inset
    );
}

/// The outline of a square or a point whose pieces differ from another board.
fn differs_outline(out: &mut String, zone: (u32, u32, u32, u32)) {
    let stroke = format!("stroke=\"{DIFFERS}\" stroke-width=\"4\"");
    outline(out, zone, 2, "differs", &stroke);
}

fn differs_attr(p: &BoardPicture, id: &str) -> &'static str {
    if p.differs.iter().any(|d| d == id) {
        " data-differs=\"true\""
    } else {
        ""
    }
}

fn grid(p: &BoardPicture, g: &Grid, out: &mut String) -> (u32, u32) {
    let left = if g.row_labels.is_empty() { 0 } else { MARGIN };
    let bottom = if g.col_labels.is_empty() { 0 } else { MARGIN };
    let (cols, rows) = (u32::from(g.cols), u32::from(g.rows));
    let font = "font-family=\"DejaVu Sans, sans-serif\"";
    // The light squares first (unnamed ones as well), then each named square.
    let _ = write!(
        out,
        "<rect x=\"{left}\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{LIGHT}\"/>",
        cols * SQ,
        rows * SQ
    );
    for row in 0..g.rows {
        for col in 0..g.cols {
            let named = g.squares.iter().find(|c| c.col == col && c.row == row);
            let dark = (u32::from(col) + u32::from(row)) % 2 == 1;
            if named.is_none() && !dark {
                continue;
            }
            let (x, y) = (left + u32::from(col) * SQ, u32::from(row) * SQ);
            let fill = if dark { DARK } else { LIGHT };
            match named {
                Some(c) => {
                    let _ = write!(
                        out,
                        "<rect class=\"square\" data-square=\"{}\"{} x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>",
                        escape(&c.id),
                        differs_attr(p, &c.id)
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>"
                    );
                }
            }
        }
    }
    let at = |id: &str| {
        g.squares
            .iter()
            .find(|c| c.id == id)
            .map(|c| (left + u32::from(c.col) * SQ, u32::from(c.row) * SQ))
    };
    for id in &p.last {
        if let Some((x, y)) = at(id) {
            let _ = write!(
                out,
                "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{LAST}\" fill-opacity=\"0.55\"/>"
            );
        }
    }
    for c in g.squares.iter().filter(|c| c.numbered) {
        let (x, y) = (left + u32::from(c.col) * SQ, u32::from(c.row) * SQ);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#fff\" fill-opacity=\"0.85\" {font} aria-hidden=\"true\">{}</text>",
            x + 2,
            y + 10,
            escape(&c.id)
        );
    }
    for piece in &p.pieces {
        if let Some((x, y)) = at(&piece.square) {
            grid_piece(piece, x + SQ / 2, y + SQ / 2, out);
        }
    }
    // A piece taken where the capturing piece now stands shows
    // as the last move; an emptied square gets the cross.
    for id in p.captured.iter().filter(|id| p.on(id).next().is_none()) {
        if let Some((x, y)) = at(id) {
            let (a, b) = (10, SQ - 10);
            let _ = write!(
                out,
                "<g class=\"captured\" stroke=\"{CAPTURED}\" stroke-width=\"4\" stroke-linecap=\"round\">\
                 <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/></g>",
                x + a, y + a, x + b, y + b, x + b, y + a, x + a, y + b
            );
        }
    }
    for id in &p.differs {
        if let Some((x, y)) = at(id) {
            differs_outline(out, (x, y, SQ, SQ));
        }
    }
    for (i, l) in g.col_labels.iter().enumerate() {
        let x = left + u32::try_from(i).unwrap_or(0) * SQ + SQ / 2;
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" {font} aria-hidden=\"true\">{}</text>",
            rows * SQ + 14,
            escape(l)
        );
    }
    for (i, l) in g.row_labels.iter().enumerate() {
        let y = u32::try_from(i).unwrap_or(0) * SQ + SQ / 2 + 5;
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{y}\" font-size=\"13\" text-anchor=\"middle\" {font} aria-hidden=\"true\">{}</text>",
            MARGIN / 2,
            escape(l)
        );
    }
    (left + cols * SQ, rows * SQ + bottom)
}

fn side_fill(side: Color) -> (&'static str, &'static str) {
    match side {
        Color::White => ("#fbfbf5", "#222"),
        Color::Black => ("#1e1e1e", "#000"),
    }
}

/// One piece on a grid square centred at (`cx`, `cy`).
fn grid_piece(p: &Piece, cx: u32, cy: u32, out: &mut String) {
    let (fill, stroke) = side_fill(p.side);
    let _ = write!(
        out,
        "<g class=\"piece\" data-square=\"{}\" data-piece=\"{}\">",
        escape(&p.square),
        escape(&p.code)
    );
    match p.shape {
        Shape::Man | Shape::Crowned | Shape::Checker => {
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"15\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>\
                 <circle cx=\"{cx}\" cy=\"{cy}\" r=\"10\" fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>"
            );
            if p.shape == Shape::Crowned {
                // A gold crown: kings stand out at a glance.
                let _ = write!(
                    out,
                    "<path d=\"M{} {} l3 -9 l4 6 l4 -6 l3 9 z\" fill=\"#e0a800\" stroke=\"#7a5a00\" stroke-width=\"1\"/>",
                    cx - 7,
                    cy + 5
                );
            }
        }
        shape => {
            // The filled glyph for both sides: white's filled white with a
            // dark outline, black's filled black.
            let g = super::glyph(shape, Color::Black);
            let (fill, stroke, sw) = match p.side {
                Color::White => ("#fff", "#000", "1.2"),
                Color::Black => ("#000", "#000", "0.5"),
            };
            let _ = write!(
                out,
                "<text x=\"{cx}\" y=\"{}\" font-size=\"33\" text-anchor=\"middle\" fill=\"{fill}\" stroke=\"{stroke}\" \
                 stroke-width=\"{sw}\" font-family=\"DejaVu Sans, sans-serif\">{g}</text>",
                cy + 12
            );
        }
    }
    out.push_str("</g>");
}

/// The x of a point column's left edge.
fn point_x(col: u8) -> u32 {
    let col = u32::from(col);
    col * PT + if col >= 6 { BAR } else { 0 }
}

/// What a point of a board of points is called from `side`'s chair: each
/// player counts the points from their own home board (white's point 1 is
/// black's 24), the bar and the tray as they are.
#[must_use]
pub fn point_label(id: &str, side: Color) -> String {
    match (side, id.parse::<u8>()) {
        (Color::Black, Ok(n)) if (1..=24).contains(&n) => (25 - n).to_string(),
        _ => id.to_owned(),
    }
}

/// A board of points; `flip`: turned half round (seen from black's chair).
fn points(p: &BoardPicture, out: &mut String, flip: bool) -> (u32, u32) {
    let place = |n: u8| point_place(if flip { 25 - n } else { n });
    let board_w = 12 * PT + BAR;
    let width = board_w + BAR;
    let height = 2 * HALF + 20;
    let font = "font-family=\"DejaVu Sans, sans-serif\"";
    let _ = write!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#2e5e3e\"/>\
         <rect x=\"{}\" y=\"0\" width=\"{BAR}\" height=\"{height}\" fill=\"#5a3d22\" class=\"square\" data-square=\"bar\"{}/>\
         <rect x=\"{board_w}\" y=\"0\" width=\"{BAR}\" height=\"{height}\" fill=\"#5a3d22\" class=\"square\" data-square=\"off\"{}/>",
        6 * PT,
        differs_attr(p, "bar"),
        differs_attr(p, "off")
    );
    for point in 1..=24u8 {
        let (col, top) = place(point);
        let x = point_x(col);
        let id = point.to_string();
        let fill = if col % 2 == 0 { "#e8d3a9" } else { "#a0412d" };
        let tip = if top { HALF - 20 } else { height - HALF + 20 };
        let base = if top { 0 } else { height };
        let _ = write!(
            out,
            "<polygon class=\"square\" data-square=\"{id}\"{} points=\"{x},{base} {},{base} {},{tip}\" fill=\"{fill}\"/>",
            differs_attr(p, &id),
            x + PT,
            x + PT / 2
        );
        let label_y = if top { HALF - 4 } else { height - HALF + 12 };
        let side = if flip { Color::Black } else { Color::White };
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{label_y}\" font-size=\"10\" fill=\"#fff\" text-anchor=\"middle\" {font} aria-hidden=\"true\">{}</text>",
            x + PT / 2,
            point_label(&id, side)
        );
    }
    // Marks under the checkers: the last play's points.
    let zone = |id: &str| -> Option<(u32, u32, u32, u32)> {
        match id {
            "bar" => Some((6 * PT, 0, BAR, height)),
            "off" => Some((board_w, 0, BAR, height)),
            _ => {
                let n: u8 = id.parse().ok().filter(|n| (1..=24).contains(n))?;
                let (col, top) = place(n);
                Some((point_x(col), if top { 0 } else { height - HALF }, PT, HALF))
            }
        }
    };
    for id in &p.last {
        if let Some((x, y, w, h)) = zone(id) {
            let _ = write!(
                out,
                "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{LAST}\" fill-opacity=\"0.45\"/>"
            );
        }
    }
    for piece in &p.pieces {
        stack(piece, height, board_w, out, flip);
    }
    for id in &p.captured {
        if let Some(z) = zone(id) {
            let stroke =
                format!("stroke=\"{CAPTURED}\" stroke-width=\"3\" stroke-dasharray=\"6 4\"");
            outline(out, z, 1, "captured", &stroke);
        }
    }
    for id in &p.differs {
        if let Some(z) = zone(id) {
            differs_outline(out, z);
        }
    }
    // The dice in the right half, the cube at its owner's side.
    let mid = height / 2;
    for (i, d) in p.dice.iter().enumerate() {
        let x = point_x(8) + u32::try_from(i).unwrap_or(0) * 34;
        let _ = write!(
            out,
            "<g class=\"die\" data-die=\"{d}\"><rect x=\"{x}\" y=\"{}\" width=\"28\" height=\"28\" rx=\"5\" fill=\"#fff\" stroke=\"#000\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"18\" text-anchor=\"middle\" {font}>{d}</text></g>",
            mid - 14,
            x + 14,
            mid + 6
        );
    }
    if let Some(c) = &p.cube {
        let y = match c.owner.map(|o| if flip { o.other() } else { o }) {
            Some(Color::Black) => 4,
            Some(Color::White) => height - 34,
            None => mid - 15,
        };
        let x = 6 * PT + 3;
        let _ = write!(
            out,
            "<g class=\"cube\" data-cube=\"{}\"><rect x=\"{x}\" y=\"{y}\" width=\"30\" height=\"30\" rx=\"3\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"2\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\" {font}>{}</text></g>",
            c.value,
            x + 15,
            y + 20,
            if c.value <= 1 { 64 } else { c.value }
        );
    }
    (width, height)
}

/// A stack of checkers on a point, the bar or the tray.
fn stack(p: &Piece, height: u32, board_w: u32, out: &mut String, flip: bool) {
    const R: u32 = 13;
    let (fill, stroke) = side_fill(p.side);
    // Turned half round, each side's bar and tray are where the other's were.
    let at = if flip { p.side.other() } else { p.side };
    // Where the stack starts and which way it grows (down from the top edge, or up).
    let (cx, start, down) = match p.square.as_str() {
        // White's checkers on the bar wait to enter black's home (top right).
        "bar" => (
            6 * PT + BAR / 2,
            height / 2 + if at == Color::White { 20 } else { 30 },
            at == Color::Black,
        ),
        "off" => (
            board_w + BAR / 2,
            if at == Color::White { height } else { 0 },
            at == Color::Black,
        ),
        sq => {
            let Some(n) = sq.parse::<u8>().ok().filter(|n| (1..=24).contains(n)) else {
                return;
            };
            let (col, top) = point_place(if flip { 25 - n } else { n });
            (point_x(col) + PT / 2, if top { 0 } else { height }, top)
        }
    };
    let (start, down) = if p.square == "bar" && at == Color::White {
        (height / 2 - 20, false)
    } else {
        (start, down)
    };
    let _ = write!(
        out,
        "<g class=\"piece\" data-square=\"{}\" data-piece=\"{}\" data-count=\"{}\">",
        escape(&p.square),
        escape(&p.code),
        p.count
    );
    let shown = p.count.min(5);
    // Borne-off checkers are thin slices.
    let step = if p.square == "off" { 8 } else { 2 * R };
    for i in 0..shown {
        let off = i * step + if p.square == "off" { 4 } else { R };
        let cy = if down {
            start + off
        } else {
            start.saturating_sub(off)
        };
        if p.square == "off" {
            let y = if down { cy } else { cy.saturating_sub(6) };
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{y}\" width=\"{}\" height=\"6\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
                cx - R,
                2 * R
            );
        } else {
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>",
                R - 1
            );
        }
    }
    if p.count > 1 {
        // The count on the last checker drawn (or beside the tray's slices).
        let off = (shown - 1) * step + if p.square == "off" { 4 } else { R };
        let cy = if down {
            start + off
        } else {
            start.saturating_sub(off)
        };
        let text_fill = if p.side == Color::White {
            "#000"
        } else {
            "#fff"
        };
        let (x, y, fill) = if p.square == "off" {
            (
                cx,
                if down { cy + 22 } else { cy.saturating_sub(12) },
                "#fff",
            )
        } else {
            (cx, cy + 5, text_fill)
        };
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{fill}\" \
             font-family=\"DejaVu Sans, sans-serif\">{}</text>",
            p.count
        );
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::{Cell, Cube};

    fn small() -> BoardPicture {
        BoardPicture {
            layout: Layout::Grid(Grid {
                cols: 2,
                rows: 2,
                col_labels: vec!["a".into(), "b".into()],
                row_labels: vec!["2".into(), "1".into()],
                squares: vec![
                    Cell {
                        id: "1".into(),
                        col: 1,
                        row: 0,
                        numbered: true,
                    },
                    Cell {
                        id: "2".into(),
                        col: 0,
                        row: 1,
                        numbered: true,
                    },
                ],
            }),
            pieces: vec![Piece {
                square: "1".into(),
                code: "W".into(),
                side: Color::White,
                shape: Shape::Crowned,
                count: 1,
            }],
            turn: Some(Color::Black),
            last: vec!["2".into(), "1".into()],
            captured: vec![],
            differs: vec!["2".into()],
            dice: vec![],
            cube: None,
        }
    }

    #[test]
    fn a_grid_has_one_element_a_piece_and_marks_the_differing_square() {
        let s = svg(&small(), Some(7), "Table 7 <&>");
        assert!(s.starts_with("<svg "), "{s}");
        assert!(s.contains("data-table=\"7\""));
        assert!(s.contains("aria-label=\"Table 7 &lt;&amp;&gt;\""), "{s}");
        assert_eq!(s.matches("data-piece=").count(), 1);
        assert!(s.contains("<g class=\"piece\" data-square=\"1\" data-piece=\"W\">"));
        assert!(s.contains("data-square=\"2\" data-differs=\"true\""), "{s}");
        assert_eq!(s.matches("class=\"last\"").count(), 2);
    }

    #[test]
    fn black_sees_the_points_turned_half_round() {
        let p = BoardPicture::new(Layout::Points, vec![], Some(Color::Black));
        // Where a point's triangle stands: its "points" attribute.
        let at = |s: &str, id: &str| {
            let key = format!("data-square=\"{id}\" points=\"");
            let from = s.find(&key).expect("the point") + key.len();
            s[from..].split('"').next().unwrap().to_owned()
        };
        let white = svg_for(&p, Color::White, "w");
        let black = svg_for(&p, Color::Black, "b");
        assert_eq!(white, svg(&p, None, "w"));
        // Black's 1-point (white's 24) at the bottom right, where white's 1 is for white.
        assert_eq!(at(&black, "24"), at(&white, "1"));
        assert_eq!(at(&black, "13"), at(&white, "12"));
        assert_eq!(at(&black, "1"), at(&white, "24"));
        // The label drawn on a point: black counts from its own home board.
        let label = |s: &str, id: &str| {
            let from = s
                .find(&format!("data-square=\"{id}\" points="))
                .expect("the point");
            let text = &s[from..][s[from..].find("<text").unwrap()..];
            text[text.find('>').unwrap() + 1..text.find("</text>").unwrap()].to_owned()
        };
        assert_eq!(
            (label(&white, "1"), label(&white, "24")),
            ("1".into(), "24".into())
        );
        assert_eq!(
            (label(&black, "24"), label(&black, "1")),
            ("1".into(), "24".into())
        );
        assert_eq!(point_label("bar", Color::Black), "bar");
    }

    #[test]
    fn points_carry_counts_dice_and_the_cube() {
        let p = BoardPicture {
            layout: Layout::Points,
            pieces: vec![
                Piece {
                    square: "6".into(),
                    code: "w".into(),
                    side: Color::White,
                    shape: Shape::Checker,
                    count: 7,
                },
                Piece {
                    square: "bar".into(),
                    code: "b".into(),
                    side: Color::Black,
                    shape: Shape::Checker,
                    count: 1,
                },
            ],
            turn: Some(Color::White),
            last: vec![],
            captured: vec!["bar".into()],
            differs: vec![],
            dice: vec![6, 4],
            cube: Some(Cube {
                value: 2,
                owner: Some(Color::Black),
            }),
        };
        let s = side_by_side(&[(&p, "A"), (&p, "B")], "diff");
        assert!(s.starts_with("<?xml"));
        assert_eq!(s.matches("data-piece=\"w\" data-count=\"7\"").count(), 2);
        assert_eq!(
            s.matches("data-square=\"bar\" data-piece=\"b\" data-count=\"1\"")
                .count(),
            2
        );
        assert_eq!(s.matches("data-die=").count(), 4);
        assert!(s.contains("data-cube=\"2\""));
        // Five checkers drawn of seven, and the count written.
        let one = svg(&p, None, "x");
        assert_eq!(one.matches("<circle").count(), 5 + 1);
    }
}
