//! What `tandem play` asks of a table's game on its command line
//! (`--match`, `--dice`, `--blind`, `--draws-with-advantage`, `--numbering`,
//! `--control`), game-neutral: each game takes what concerns it in its
//! folder (`games/<game>/options.rs`), through the registry
//! ([`crate::game::GameKind::default_control`],
//! [`crate::game::GameKind::options`]), and names its default time control.

use tandem_rules::clock::TimeControl;
use tandem_rules::{Color, GameOptions, PointNumbering};

/// The options asked for on the command line, before a game takes them.
#[derive(Debug, Clone)]
pub struct Asked<'a> {
    /// `--match` (default 7): the match length of a game played in matches.
    pub match_length: u32,
    /// `--dice tandem`: the dice rolled by tandem.
    pub tandem_dice: bool,
    /// The blind player's side (`--blind black`: black; otherwise white):
    /// whose numbers a game that numbers from one side says.
    pub listener: Color,
    /// `--draws-with-advantage`.
    pub draws_with_advantage: bool,
    /// `--numbering`.
    pub numbering: PointNumbering,
    /// The time control, `--control` or the game's default.
    pub control: &'a TimeControl,
}

impl Asked<'_> {
    /// The options every game takes as asked (`--draws-with-advantage`,
    /// `--numbering`), the rest at their defaults: a game's own options
    /// start from these.
    #[must_use]
    pub fn common(&self) -> GameOptions {
        GameOptions {
            draws_with_advantage: self.draws_with_advantage,
            numbering: self.numbering,
            ..GameOptions::default()
        }
    }
}
