//! A board diagram in the PDF scoresheet, drawn from the game's
//! [`BoardPicture`] with `printpdf`'s shapes: light and dark squares,
//! discs for men and checkers (a gold ring in a crowned one), the other
//! pieces as DejaVu Sans's glyphs, square numbers small on the squares
//! that have them, files and ranks, the last move's squares tinted; points
//! with their stacks, the bar, the borne-off checkers, the dice and the cube
//! written beside. Nothing here knows the game.

use printpdf::path::{PaintMode, WindingOrder};
use printpdf::{
    calculate_points_for_circle, Color as PdfColor, IndirectFontRef, Line, Mm, PdfLayerReference,
    Point, Polygon, Rgb,
};
use tandem_rules::Color;

use crate::picture::{glyph, point_place, BoardPicture, Grid, Layout, Piece, Shape};

pub(super) fn rgb(r: u8, g: u8, b: u8) -> PdfColor {
    PdfColor::Rgb(Rgb::new(
        f32::from(r) / 255.0,
        f32::from(g) / 255.0,
        f32::from(b) / 255.0,
        None,
    ))
}

pub(super) fn rect(layer: &PdfLayerReference, x: f32, y: f32, w: f32, h: f32, fill: PdfColor) {
    layer.set_fill_color(fill);
    let p = |x: f32, y: f32| (Point::new(Mm(x), Mm(y)), false);
    layer.add_polygon(Polygon {
        rings: vec![vec![p(x, y), p(x + w, y), p(x + w, y + h), p(x, y + h)]],
        mode: PaintMode::Fill,
        winding_order: WindingOrder::NonZero,
    });
}

fn disc(layer: &PdfLayerReference, cx: f32, cy: f32, r: f32, fill: PdfColor, stroke: PdfColor) {
    layer.set_fill_color(fill);
    layer.set_outline_color(stroke);
    layer.set_outline_thickness(0.6);
    layer.add_polygon(Polygon {
        rings: vec![calculate_points_for_circle(Mm(r), Mm(cx), Mm(cy))],
        mode: PaintMode::FillStroke,
        winding_order: WindingOrder::NonZero,
    });
}

fn black() -> PdfColor {
    rgb(0, 0, 0)
}

fn side_colours(side: Color) -> (PdfColor, PdfColor) {
    match side {
        Color::White => (rgb(250, 250, 244), rgb(30, 30, 30)),
        Color::Black => (rgb(30, 30, 30), rgb(0, 0, 0)),
    }
}

/// Draws `p` with its top left corner at (`x`, `top`) (mm from the page's
/// bottom left), `width` mm wide; returns the height used.
pub fn draw(
    layer: &PdfLayerReference,
    font: &IndirectFontRef,
    p: &BoardPicture,
    x: f32,
    top: f32,
    width: f32,
) -> f32 {
    let h = match &p.layout {
        Layout::Grid(g) => grid(Pen { layer, font }, p, g, (x, top, width)),
        Layout::Points => points(Pen { layer, font }, p, (x, top, width)),
    };
    layer.set_fill_color(black());
    layer.set_outline_color(black());
    h
}

/// What a diagram is drawn with: the page's layer, the font of its glyphs
/// and labels.
#[derive(Clone, Copy)]
struct Pen<'a> {
    layer: &'a PdfLayerReference,
    font: &'a IndirectFontRef,
}

/// A board of squares in the frame `(x, top, width)` (mm); its height.
fn grid(pen: Pen<'_>, p: &BoardPicture, g: &Grid, (x, top, width): (f32, f32, f32)) -> f32 {
    let Pen { layer, font } = pen;
    let margin = if g.row_labels.is_empty() { 0.0 } else { 5.0 };
    let sq = (width - margin) / f32::from(g.cols);
    let left = x + margin;
    let bottom = top - sq * f32::from(g.rows);
    for row in 0..g.rows {
        for col in 0..g.cols {
            let dark = (u16::from(row) + u16::from(col)) % 2 == 1;
            let id = g
                .squares
                .iter()
                .find(|c| c.row == row && c.col == col)
                .map(|c| c.id.as_str());
            let last = id.is_some_and(|id| p.last.iter().any(|l| l == id));
            let fill = match (dark, last) {
                (false, false) => rgb(240, 217, 181),
                (true, false) => rgb(181, 136, 99),
                (false, true) => rgb(238, 226, 130),
                (true, true) => rgb(205, 185, 80),
            };
            let sx = left + sq * f32::from(col);
            let sy = top - sq * f32::from(row + 1);
            rect(layer, sx, sy, sq, sq, fill);
        }
    }
    // The frame.
    layer.set_outline_color(black());
    layer.set_outline_thickness(0.5);
    let corner = |x: f32, y: f32| (Point::new(Mm(x), Mm(y)), false);
    let right = left + sq * f32::from(g.cols);
    layer.add_line(Line {
        points: vec![
            corner(left, bottom),
            corner(right, bottom),
            corner(right, top),
            corner(left, top),
        ],
        is_closed: true,
    });
    let at = |id: &str| {
        g.squares.iter().find(|c| c.id == id).map(|c| {
            (
                left + sq * f32::from(c.col),
                top - sq * f32::from(c.row + 1),
            )
        })
    };
    layer.set_fill_color(rgb(255, 255, 255));
    for c in g.squares.iter().filter(|c| c.numbered) {
        let (sx, sy) = (
            left + sq * f32::from(c.col),
            top - sq * f32::from(c.row + 1),
        );
        layer.use_text(
            c.id.as_str(),
            (sq * 0.45).min(7.0),
            Mm(sx + 0.5),
            Mm(sy + sq - 2.4),
            font,
        );
    }
    for piece in &p.pieces {
        if let Some((sx, sy)) = at(&piece.square) {
            grid_piece(pen, piece, (sx + sq / 2.0, sy + sq / 2.0), sq);
        }
    }
    layer.set_fill_color(black());
    for (i, l) in g.col_labels.iter().enumerate() {
        let cx = left + sq * (i as f32 + 0.4);
        layer.use_text(l.as_str(), 8.0, Mm(cx), Mm(bottom - 3.5), font);
    }
    for (i, l) in g.row_labels.iter().enumerate() {
        let cy = top - sq * (i as f32 + 0.6);
        layer.use_text(l.as_str(), 8.0, Mm(x), Mm(cy), font);
    }
    top - bottom + if g.col_labels.is_empty() { 0.0 } else { 5.0 }
}

/// A piece centred on `(cx, cy)` of a square `sq` mm wide.
fn grid_piece(pen: Pen<'_>, p: &Piece, (cx, cy): (f32, f32), sq: f32) {
    let Pen { layer, font } = pen;
    let (fill, stroke) = side_colours(p.side);
    match p.shape {
        Shape::Man | Shape::Checker | Shape::Crowned => {
            disc(layer, cx, cy, sq * 0.38, fill, stroke);
            if p.shape == Shape::Crowned {
                disc(layer, cx, cy, sq * 0.18, rgb(224, 168, 0), rgb(122, 90, 0));
            }
        }
        shape => {
            // White's outlined glyph, black's filled (as printed diagrams).
            layer.set_fill_color(black());
            let g = glyph(shape, p.side).to_string();
            let size_pt = sq * 2.4;
            layer.use_text(g, size_pt, Mm(cx - sq * 0.42), Mm(cy - sq * 0.3), font);
        }
    }
}

/// A backgammon board in the frame `(x, top, width)` (mm); its height.
fn points(pen: Pen<'_>, p: &BoardPicture, (x, top, width): (f32, f32, f32)) -> f32 {
    let Pen { layer, font } = pen;
    let pt = width / 14.0;
    let half = pt * 5.5;
    let height = 2.0 * half + pt;
    let bottom = top - height;
    rect(layer, x, bottom, width, height, rgb(46, 94, 62));
    let bar_x = x + 6.0 * pt;
    rect(layer, bar_x, bottom, pt, height, rgb(90, 61, 34));
    rect(layer, x + 13.0 * pt, bottom, pt, height, rgb(90, 61, 34));
    let col_x = |col: u8| x + f32::from(col) * pt + if col >= 6 { pt } else { 0.0 };
    for point in 1..=24u8 {
        let (col, up) = point_place(point);
        let px = col_x(col);
        let id = point.to_string();
        let last = p.last.contains(&id);
        layer.set_fill_color(match (last, col % 2 == 0) {
            (true, _) => rgb(238, 210, 90),
            (false, true) => rgb(232, 211, 169),
            (false, false) => rgb(160, 65, 45),
        });
        let (base, tip) = if up {
            (top, top - half + 1.0)
        } else {
            (bottom, bottom + half - 1.0)
        };
        let v = |x: f32, y: f32| (Point::new(Mm(x), Mm(y)), false);
        layer.add_polygon(Polygon {
            rings: vec![vec![v(px, base), v(px + pt, base), v(px + pt / 2.0, tip)]],
            mode: PaintMode::Fill,
            winding_order: WindingOrder::NonZero,
        });
        layer.set_fill_color(rgb(255, 255, 255));
        let ly = if up {
            top - half - 3.0
        } else {
            bottom + half + 1.0
        };
        layer.use_text(id.as_str(), 6.5, Mm(px + pt * 0.2), Mm(ly), font);
    }
    for piece in &p.pieces {
        let (fill, stroke) = side_colours(piece.side);
        let r = pt * 0.45;
        let (cx, start, down) = match piece.square.as_str() {
            "bar" => (
                bar_x + pt / 2.0,
                if piece.side == Color::White {
                    top - half
                } else {
                    bottom + half
                },
                piece.side == Color::White,
            ),
            "off" => (
                x + 13.5 * pt,
                if piece.side == Color::White {
                    bottom
                } else {
                    top
                },
                piece.side == Color::Black,
            ),
            sq => {
                let Some(n) = sq.parse::<u8>().ok().filter(|n| (1..=24).contains(n)) else {
                    continue;
                };
                let (col, up) = point_place(n);
                (col_x(col) + pt / 2.0, if up { top } else { bottom }, up)
            }
        };
        let shown = piece.count.min(5);
        let mut last_cy = start;
        for i in 0..shown {
            let off = r + 2.0 * r * i as f32;
            let cy = if down { start - off } else { start + off };
            disc(layer, cx, cy, r * 0.95, fill.clone(), stroke.clone());
            last_cy = cy;
        }
        if piece.count > 1 {
            layer.set_fill_color(match piece.side {
                Color::White => black(),
                Color::Black => rgb(255, 255, 255),
            });
            layer.use_text(
                piece.count.to_string(),
                7.0,
                Mm(cx - 1.3),
                Mm(last_cy - 1.2),
                font,
            );
        }
    }
    // The dice and the cube, written under the board.
    let mut words = Vec::new();
    if !p.dice.is_empty() {
        let dice: Vec<String> = p.dice.iter().map(u8::to_string).collect();
        words.push(format!("dice {}", dice.join("-")));
    }
    if let Some(c) = &p.cube {
        let owner = match c.owner {
            Some(Color::White) => "white's",
            Some(Color::Black) => "black's",
            None => "centred",
        };
        words.push(format!("cube {} ({owner})", c.value.max(1)));
    }
    layer.set_fill_color(black());
    if !words.is_empty() {
        layer.use_text(words.join(", "), 9.0, Mm(x), Mm(bottom - 5.0), font);
    }
    height + 6.0
}
