//! A table's report as one A4 page for the arbiter to sign (`tandem report
//! --pdf FILE`, issue 41): the binary's SHA-256 as text and as a QR code
//! (to compare with the desk's or the published build's at a glance or
//! with a phone), what the table runs, its radios, and signature lines.

use std::io::Cursor;

use anyhow::Context;
use printpdf::{Mm, PdfDocument, PdfLayerReference};
use qrcode::{Color as QrColor, EcLevel, QrCode};

use super::diagram::{rect, rgb};
use crate::report::Report;

const PAGE_W: f32 = 210.0;
const PAGE_H: f32 = 297.0;
const MARGIN: f32 = 18.0;
/// The QR code's side, quiet zone included.
const QR_SIDE: f32 = 50.0;

/// The report's page as PDF bytes.
///
/// # Errors
/// The font cannot be embedded, the QR code made or the PDF written.
pub fn to_pdf(report: &Report) -> anyhow::Result<Vec<u8>> {
    let (doc, page, layer) =
        PdfDocument::new("tandem table report", Mm(PAGE_W), Mm(PAGE_H), "report");
    let regular = doc
        .add_external_font(Cursor::new(dejavu::sans::regular()))
        .context("embedding DejaVu Sans")?;
    let mono = doc
        .add_external_font(Cursor::new(dejavu::sans_mono::regular()))
        .context("embedding DejaVu Sans Mono")?;
    let bold = doc
        .add_external_font(Cursor::new(dejavu::sans::bold()))
        .context("embedding DejaVu Sans Bold")?;
    let layer = doc.get_page(page).get_layer(layer);
    let mut y = PAGE_H - MARGIN - 6.0;
    layer.use_text(
        "tandem: the table's report for the arbiter",
        15.0,
        Mm(MARGIN),
        Mm(y),
        &bold,
    );
    y -= 7.0;
    layer.use_text(
        "FIDE Laws 11.3.2.1: a device in the playing venue the arbiter has approved",
        9.0,
        Mm(MARGIN),
        Mm(y),
        &regular,
    );
    y -= 12.0;
    layer.use_text("Binary SHA-256:", 11.0, Mm(MARGIN), Mm(y), &bold);
    y -= 6.0;
    // 64 hex digits in two lines of 32, in groups of 8, to read aloud.
    for half in [
        &report.binary_sha256[..32.min(report.binary_sha256.len())],
        report.binary_sha256.get(32..).unwrap_or(""),
    ] {
        let grouped: Vec<&str> = (0..half.len())
            .step_by(8)
            .map(|i| &half[i..(i + 8).min(half.len())])
            .collect();
        layer.use_text(grouped.join(" "), 12.0, Mm(MARGIN), Mm(y), &mono);
        y -= 6.0;
    }
    qr(
        &layer,
        &report.binary_sha256,
        PAGE_W - MARGIN - QR_SIDE,
        PAGE_H - MARGIN - QR_SIDE - 14.0,
    )?;
    y -= 4.0;
    for line in report.text().lines().skip(2) {
        let (size, font) = if line.starts_with("  ") {
            (9.5, &regular)
        } else {
            (10.5, &regular)
        };
        layer.use_text(line, size, Mm(MARGIN), Mm(y), font);
        y -= 5.6;
    }
    y -= 4.0;
    layer.use_text(
        format!("tandem {} (commit {})", report.version, report.commit),
        9.0,
        Mm(MARGIN),
        Mm(y),
        &regular,
    );
    // Signature lines.
    let base = MARGIN + 30.0;
    for (i, who) in ["Table / player", "Arbiter"].iter().enumerate() {
        let x = MARGIN + i as f32 * 90.0;
        rect(&layer, x, base, 75.0, 0.3, rgb(0, 0, 0));
        layer.use_text(*who, 9.0, Mm(x), Mm(base - 5.0), &regular);
    }
    layer.use_text(
        "Date and time: ____________________",
        9.0,
        Mm(MARGIN),
        Mm(MARGIN + 8.0),
        &regular,
    );
    doc.save_to_bytes().context("writing the PDF")
}

/// `text`'s QR code (error correction M), a square of side [`QR_SIDE`] mm
/// with its quiet zone, its lower left corner at `x`, `y`.
fn qr(layer: &PdfLayerReference, text: &str, x: f32, y: f32) -> anyhow::Result<()> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|e| anyhow::anyhow!("the hash does not fit a QR code: {e}"))?;
    let n = code.width();
    let quiet = 4;
    let module = QR_SIDE / (n + 2 * quiet) as f32;
    rect(layer, x, y, QR_SIDE, QR_SIDE, rgb(255, 255, 255));
    for (i, c) in code.to_colors().iter().enumerate() {
        if *c == QrColor::Dark {
            let (col, row) = (i % n, i / n);
            let mx = x + (quiet + col) as f32 * module;
            let my = y + QR_SIDE - (quiet + row + 1) as f32 * module;
            rect(layer, mx, my, module, module, rgb(0, 0, 0));
        }
    }
    Ok(())
}
