//! Backgammon's options at a table (`tandem play`, [`crate::table_options`]).

use tandem_rules::clock::BonusKind;
use tandem_rules::GameOptions;

use crate::table_options::Asked;

/// The default time control: the EUBGF control for the match length
/// (004 3.5).
#[must_use]
pub fn default_control(match_length: u32) -> String {
    format!("eubgf-{match_length}")
}

/// The event's options that concern backgammon: the match length, dice
/// rolled by tandem, whose point numbers are said (the blind player's,
/// the listener's), and the simple delay said with the clock report
/// (004 3.5 (v)).
#[must_use]
pub fn options(asked: &Asked<'_>) -> GameOptions {
    let delay_secs = match asked.control.bonus() {
        Some(b) if b.kind == BonusKind::Delay => {
            u32::try_from(b.amount.as_secs()).unwrap_or(u32::MAX)
        }
        _ => 0,
    };
    GameOptions {
        match_length: asked.match_length,
        tandem_dice: asked.tandem_dice,
        delay_secs,
        listener: Some(asked.listener),
        ..asked.common()
    }
}
