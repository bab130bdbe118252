//! A QR code as text for the terminal: two modules a character cell, one
//! above the other, drawn with the half blocks `▀`, `▄`, `█` (a dark module
//! is a drawn half; the quiet zone of four light modules included). Shown
//! dark on light (the screen gives it its colours), so that a phone's
//! camera reads it on any terminal.

use qrcode::render::unicode::Dense1x2;
use qrcode::{EcLevel, QrCode};

/// The lines of `text`'s QR code (error correction M), or `None` when the
/// text is too long for one.
#[must_use]
pub fn half_blocks(text: &str) -> Option<Vec<String>> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
    let drawn = code
        .render::<Dense1x2>()
        .dark_color(Dense1x2::Dark)
        .light_color(Dense1x2::Light)
        .quiet_zone(true)
        .build();
    Some(drawn.lines().map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_fits_a_small_square_of_half_blocks() {
        let lines = half_blocks("http://192.168.8.10:8443/").unwrap();
        // Version 2 (25 modules) and the quiet zone: 33 wide, 17 lines.
        assert_eq!(lines.len(), 17);
        assert!(lines.iter().all(|l| l.chars().count() == 33), "{lines:?}");
        assert!(lines
            .iter()
            .flat_map(|l| l.chars())
            .all(|c| matches!(c, ' ' | '▀' | '▄' | '█')));
        // The quiet zone: the first and last lines hold no dark module.
        assert!(lines[0].trim().is_empty() && lines[16].trim().is_empty());
    }
}
