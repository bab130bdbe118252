//! `tandem braille render --variant chess`: a chess position's braille
//! view; the squares numbered 1-64 (`a1` = 1, `h8` = 64).

use anyhow::Context;
use tandem_braille::view::PrintedLine;
use tandem_braille::{View, Width};
use tandem_rules::chess;

/// The lines of `view` of the position `fen` gives (the start without
/// one), with the number of the square under each cell.
///
/// # Errors
/// The FEN does not read.
pub fn render(fen: Option<&str>, view: View, width: Width) -> anyhow::Result<Vec<PrintedLine>> {
    let pos = match fen {
        Some(f) => chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?,
        None => chess::start(),
    };
    Ok(tandem_braille::chess::printed(&pos, view, width))
}
