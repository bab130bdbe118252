//! `tandem braille render --variant backgammon`: what the display shows at
//! the table, whatever the view: the board line (cut into windows at its
//! gaps when it does not fit the width) and, with a Match ID, the status
//! line, for the player on roll (or `--viewer`).

use tandem_braille::view::PrintedLine;
use tandem_braille::Width;
use tandem_rules::backgammon::position_id;
use tandem_rules::Color;

/// The position read without `--fen`: the opening, a 7-point match.
const START: &str = "4HPwATDgc/ABMA:cAkAAAAAAAAA";

/// The lines of the board `fen` gives: `ID:MATCHID` (the match: dice,
/// cube, score: the status line too) or a bare Position ID (the board
/// only, read from the side of the player on roll: `viewer`, or white).
///
/// # Errors
/// The text is not a Position ID (with a Match ID).
pub fn render(
    fen: Option<&str>,
    width: Width,
    viewer: Option<Color>,
) -> anyhow::Result<Vec<PrintedLine>> {
    let text = fen.unwrap_or(START);
    let (board, m) = if text.contains(':') {
        let m = super::match_from_ids(text).map_err(|e| anyhow::anyhow!("--fen {text:?}: {e}"))?;
        (*m.board(), Some(m))
    } else {
        let on_roll = viewer.unwrap_or(Color::White);
        let b = position_id::decode(text.trim(), on_roll)
            .map_err(|e| anyhow::anyhow!("--fen {text:?} is not a Position ID: {e}"))?;
        (b, None)
    };
    let viewer = viewer.unwrap_or_else(|| board.turn());
    Ok(tandem_braille::backgammon::printed(
        &board,
        m.as_ref(),
        viewer,
        width,
    ))
}
