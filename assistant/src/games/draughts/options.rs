//! Draughts' options at a table (`tandem play`, [`crate::table_options`]).

use tandem_rules::GameOptions;

use crate::table_options::Asked;

/// The default time control: the Polish federation's 90 minutes a player
/// (`pzwarc-90`, docs/time-controls.md).
#[must_use]
pub fn default_control(_match_length: u32) -> String {
    "pzwarc-90".into()
}

/// The event's options that concern draughts: the draw offered with an
/// advantage (001 ch. VIII; docs/draughts.md).
#[must_use]
pub fn options(asked: &Asked<'_>) -> GameOptions {
    asked.common()
}
