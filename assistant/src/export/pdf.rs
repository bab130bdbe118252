//! The scoresheet as a PDF (`tandem export --format pdf`), laid out as the
//! federations print theirs: the heading (event, round, table, date, game
//! and time control, players), the moves in numbered rows with each move's
//! clock time (the mover's time left after it), two blocks of rows side by
//! side, the result, and signature lines for both players and the arbiter.
//! A4, rendered by `printpdf` with DejaVu Sans embedded (it has every Polish
//! letter).

use std::io::Cursor;

use anyhow::Context;
use printpdf::{IndirectFontRef, Line, Mm, PdfDocument, PdfLayerReference, Point};

use super::diagram;
use super::record::{clock, GameRecord, Labels, RecordedMove, Row};

const PAGE_W: f32 = 210.0;
const PAGE_H: f32 = 297.0;
const MARGIN: f32 = 15.0;
/// Rows in each of the two blocks of a page.
const ROWS_PER_BLOCK: usize = 30;
const ROW_H: f32 = 6.2;

struct Fonts {
    regular: IndirectFontRef,
    bold: IndirectFontRef,
}

/// A straight line from `(x1, y1)` to `(x2, y2)`, in mm.
fn line(layer: &PdfLayerReference, (x1, y1): (f32, f32), (x2, y2): (f32, f32)) {
    layer.add_line(Line {
        points: vec![
            (Point::new(Mm(x1), Mm(y1)), false),
            (Point::new(Mm(x2), Mm(y2)), false),
        ],
        is_closed: false,
    });
}

fn hline(layer: &PdfLayerReference, x1: f32, x2: f32, y: f32) {
    line(layer, (x1, y), (x2, y));
}

fn vline(layer: &PdfLayerReference, x: f32, y1: f32, y2: f32) {
    line(layer, (x, y1), (x, y2));
}

fn move_cell(m: Option<&RecordedMove>) -> (String, String) {
    match m {
        Some(m) => (m.text.clone(), m.left_ms.map(clock).unwrap_or_default()),
        None => (String::new(), String::new()),
    }
}

/// One block of rows: `No. | White | time | Black | time`, top at `top`.
fn block(layer: &PdfLayerReference, f: &Fonts, l: Labels, x: f32, top: f32, rows: &[Row<'_>]) {
    let w = (PAGE_W - 2.0 * MARGIN - 6.0) / 2.0;
    // Column edges: number, white move, white time, black move, black time.
    let cols = [x, x + 9.0, x + 33.0, x + 48.0, x + 72.0, x + w];
    layer.set_outline_thickness(0.6);
    let bottom = top - ROW_H * (ROWS_PER_BLOCK as f32 + 1.0);
    hline(layer, x, x + w, top);
    for c in cols {
        vline(layer, c, top, bottom);
    }
    let heads = [
        l.s("no"),
        l.s("white"),
        l.s("time"),
        l.s("black"),
        l.s("time"),
    ];
    for (i, h) in heads.iter().enumerate() {
        layer.use_text(*h, 8.5, Mm(cols[i] + 1.2), Mm(top - ROW_H + 1.8), &f.bold);
    }
    layer.set_outline_thickness(0.3);
    for i in 0..=ROWS_PER_BLOCK {
        hline(layer, x, x + w, top - ROW_H * (i as f32 + 1.0));
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top - ROW_H * (i as f32 + 2.0) + 1.8;
        let (wm, wt) = move_cell(r.white);
        let (bm, bt) = move_cell(r.black);
        let texts = [r.number.to_string(), wm, wt, bm, bt];
        for (c, t) in texts.iter().enumerate() {
            let size = if c == 2 || c == 4 { 8.0 } else { 10.0 };
            layer.use_text(t.as_str(), size, Mm(cols[c] + 1.2), Mm(y), &f.regular);
        }
    }
}

/// The heading of a page; the y where the move blocks begin.
fn heading(
    layer: &PdfLayerReference,
    f: &Fonts,
    rec: &GameRecord,
    l: Labels,
    page: usize,
    pages: usize,
) -> f32 {
    let mut y = PAGE_H - MARGIN - 5.0;
    layer.use_text(l.s("scoresheet"), 16.0, Mm(MARGIN), Mm(y), &f.bold);
    if pages > 1 {
        let p = format!("{} {page}/{pages}", l.s("page"));
        layer.use_text(p, 9.0, Mm(PAGE_W - MARGIN - 25.0), Mm(y), &f.regular);
    }
    y -= 9.0;
    let dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "—".to_owned());
    // The event and the game on lines of their own (long names), then pairs.
    let rows: [Vec<(&str, String)>; 5] = [
        vec![(l.s("event"), dash(&rec.event))],
        vec![
            (l.s("round"), dash(&rec.round)),
            (l.s("table"), dash(&rec.table)),
        ],
        vec![
            (l.s("date"), dash(&rec.date)),
            (l.s("time_control_2"), rec.control.clone()),
        ],
        vec![(l.s("game"), rec.game_name(l).to_owned())],
        vec![
            (l.s("white"), dash(&rec.white)),
            (l.s("black"), dash(&rec.black)),
        ],
    ];
    for row in rows {
        for (i, (k, v)) in row.into_iter().enumerate() {
            let x = if i == 0 { MARGIN } else { PAGE_W / 2.0 + 3.0 };
            layer.use_text(format!("{k}:"), 9.0, Mm(x), Mm(y), &f.bold);
            layer.use_text(v, 11.0, Mm(x + 25.0), Mm(y), &f.regular);
        }
        y -= 7.0;
    }
    y - 2.0
}

/// The result and the three signature lines at the foot of the last page.
fn footer(layer: &PdfLayerReference, f: &Fonts, rec: &GameRecord, l: Labels, y: f32) {
    let mut y = y;
    layer.use_text(
        format!("{}:", l.s("result")),
        11.0,
        Mm(MARGIN),
        Mm(y),
        &f.bold,
    );
    layer.use_text(
        rec.result_words(l),
        12.0,
        Mm(MARGIN + 22.0),
        Mm(y),
        &f.regular,
    );
    layer.use_text(
        l.s("times_each_player_s_time_left_after_the"),
        8.0,
        Mm(PAGE_W / 2.0 + 3.0),
        Mm(y),
        &f.regular,
    );
    y -= 16.0;
    let w = (PAGE_W - 2.0 * MARGIN - 10.0) / 3.0;
    let who = [
        l.s("white_s_signature"),
        l.s("black_s_signature"),
        l.s("arbiter_s_signature"),
    ];
    layer.set_outline_thickness(0.5);
    for (i, label) in who.iter().enumerate() {
        let x = MARGIN + i as f32 * (w + 5.0);
        hline(layer, x, x + w, y);
        layer.use_text(*label, 8.5, Mm(x), Mm(y - 4.5), &f.regular);
    }
}

/// `have`, then empty rows numbered on, as on a printed form.
fn numbered<'a>(from: usize, have: &[Row<'a>]) -> Vec<Row<'a>> {
    let mut v: Vec<Row<'a>> = have.to_vec();
    let first = have.first().map_or(from, |r| r.number);
    while v.len() < ROWS_PER_BLOCK {
        v.push(Row {
            number: first + v.len(),
            white: None,
            black: None,
        });
    }
    v
}

/// The scoresheet as PDF bytes.
///
/// # Errors
/// The font cannot be embedded or the PDF written.
pub fn to_pdf(rec: &GameRecord, lang: &str) -> anyhow::Result<Vec<u8>> {
    let l = Labels::new(lang);
    let title = format!(
        "{} - {}",
        rec.white.as_deref().unwrap_or("?"),
        rec.black.as_deref().unwrap_or("?")
    );
    let (doc, page1, layer1) = PdfDocument::new(title, Mm(PAGE_W), Mm(PAGE_H), "scoresheet");
    let fonts = Fonts {
        regular: doc
            .add_external_font(Cursor::new(dejavu::sans::regular()))
            .context("embedding DejaVu Sans")?,
        bold: doc
            .add_external_font(Cursor::new(dejavu::sans::bold()))
            .context("embedding DejaVu Sans Bold")?,
    };
    let rows = rec.rows();
    let per_page = 2 * ROWS_PER_BLOCK;
    let pages = rows.len().div_ceil(per_page).max(1);
    let block_w = (PAGE_W - 2.0 * MARGIN - 6.0) / 2.0;
    for p in 0..pages {
        let layer = if p == 0 {
            doc.get_page(page1).get_layer(layer1)
        } else {
            let (pi, li) = doc.add_page(Mm(PAGE_W), Mm(PAGE_H), "scoresheet");
            doc.get_page(pi).get_layer(li)
        };
        let top = heading(&layer, &fonts, rec, l, p + 1, pages);
        let chunk = &rows[(p * per_page).min(rows.len())..((p + 1) * per_page).min(rows.len())];
        let (left, right) = chunk.split_at(chunk.len().min(ROWS_PER_BLOCK));
        let base = p * per_page + 1;
        block(&layer, &fonts, l, MARGIN, top, &numbered(base, left));
        block(
            &layer,
            &fonts,
            l,
            MARGIN + block_w + 6.0,
            top,
            &numbered(base + ROWS_PER_BLOCK, right),
        );
        if p + 1 == pages {
            let y = top - ROW_H * (ROWS_PER_BLOCK as f32 + 1.0) - 10.0;
            footer(&layer, &fonts, rec, l, y);
        }
    }
    // The diagrams: the final position, and where the arbiter took the
    // game back (if that happened), on a page of their own.
    let (pi, li) = doc.add_page(Mm(PAGE_W), Mm(PAGE_H), "diagrams");
    let layer = doc.get_page(pi).get_layer(li);
    let mut y = PAGE_H - MARGIN - 5.0;
    let mut boards = vec![(
        format!(
            "{} ({} {})",
            l.s("final_position"),
            l.s("after_ply"),
            rec.game.ply()
        ),
        rec.game.picture(),
    )];
    if let Some(ply) = rec.taken_back_to {
        if let Some(pos) = rec.game.position_at(ply) {
            boards.push((
                format!("{} {ply}", l.s("position_where_the_arbiter_took_the_game")),
                crate::game::picture_of(&pos),
            ));
        }
    }
    for (caption, pic) in &boards {
        layer.use_text(caption.as_str(), 12.0, Mm(MARGIN), Mm(y), &fonts.bold);
        y -= 4.0;
        let width = if boards.len() > 1 { 105.0 } else { 150.0 };
        y -= diagram::draw(&layer, &fonts.regular, pic, MARGIN, y, width) + 10.0;
    }
    doc.save_to_bytes().context("writing the PDF")
}
