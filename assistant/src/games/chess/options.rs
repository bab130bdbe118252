//! Chess's options at a table (`tandem play`, [`crate::table_options`]).

use tandem_rules::GameOptions;

use crate::table_options::Asked;

/// The default time control: FIDE's most common standard control, 90
/// minutes plus 30 seconds a move from move one (002 art. 6.1,
/// docs/chess.md).
#[must_use]
pub fn default_control(_match_length: u32) -> String {
    "90m+30s".into()
}

/// The event's options that concern chess: none of its own.
#[must_use]
pub fn options(asked: &Asked<'_>) -> GameOptions {
    asked.common()
}
