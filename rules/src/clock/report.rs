//! [`ClockReport`]: the clock in plain numbers, for speech and braille.

use crate::Color;

/// What the clock shows at a moment: what a player may ask for (001 ch. VIII
/// 5.1: the time used by both sides and the number of moves made), plus what
/// the warnings and the arbiter need.
///
/// All times are whole milliseconds (`u64`), never strings: the speech layer
/// words them as minutes and seconds ("5 minutes 10 seconds", never "5
/// o'clock") in the player's language, and braille writes them as it likes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClockReport {
    /// The moment of the report, since the game started.
    pub at_ms: u64,
    /// The time control, in its written form.
    pub control: String,
    /// Whose clock runs (or will run when started or resumed).
    pub side_to_move: Color,
    /// Whether the clock was started.
    pub started: bool,
    /// Whether it runs now (started and not paused).
    pub running: bool,
    /// Time the side to move has spent on the current move.
    pub thinking_ms: u64,
    /// Simple delay left before the side to move's time starts running.
    pub delay_left_ms: u64,
    /// White's clock.
    pub white: SideReport,
    /// Black's clock.
    pub black: SideReport,
    /// The first flag to fall, if any (001 ch. II 3.5.5).
    pub first_flag: Option<FlagReport>,
}

impl ClockReport {
    /// One side's part.
    #[must_use]
    pub fn side(&self, c: Color) -> &SideReport {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// One side's clock in a [`ClockReport`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideReport {
    /// Time used so far.
    pub used_ms: u64,
    /// Time left (zero once the flag has fallen).
    pub remaining_ms: u64,
    /// Moves completed.
    pub moves_made: u32,
    /// Moves still to make before the next time control; `None` when the
    /// current period runs to the end of the game.
    pub moves_to_control: Option<u32>,
    /// In time trouble: 5 minutes or less to the control, outside a bonus
    /// phase (001 ch. II 6.13).
    pub time_trouble: bool,
    /// When this side's flag fell, if it has.
    pub flag_ms: Option<u64>,
    /// How long this side's last move took.
    pub last_move_ms: Option<u64>,
    /// Whether this side's next move gets a per-move bonus or delay.
    pub bonus_applies: bool,
}

/// A flag fall in a [`ClockReport`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FlagReport {
    /// Whose flag.
    pub side: Color,
    /// When it fell.
    pub at_ms: u64,
}
