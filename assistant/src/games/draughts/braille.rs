//! `tandem braille render --variant international|sixty-four`: a draughts
//! position's braille view.

use anyhow::Context;
use tandem_braille::view::PrintedLine;
use tandem_braille::{View, Width};
use tandem_rules::draughts::{Position, Variant};

/// The lines of `view` of the position `fen` gives (the start without
/// one), with the number of the square under each cell.
///
/// # Errors
/// The FEN does not read.
pub fn render(
    variant: Variant,
    fen: Option<&str>,
    view: View,
    width: Width,
) -> anyhow::Result<Vec<PrintedLine>> {
    let pos = match fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    Ok(tandem_braille::draughts::printed(&pos, view, width))
}
