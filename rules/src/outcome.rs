//! What every game shares about how a game ends and how an event plays it:
//! [`Outcome`] (with [`WinReason`] and [`DrawReason`] for draughts, chess and
//! backgammon alike) and [`GameOptions`], the event's options that the
//! journal's start line carries to whichever game is played.

use crate::Color;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// A draw.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// PDN result text from white's side: `2-0`, `0-2`, `1-1`.
    #[must_use]
    pub fn pdn_result(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "2-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-2",
            Outcome::Draw { .. } => "1-1",
        }
    }

    /// The result from white's side in points of one: `1-0`, `0-1`,
    /// `1/2-1/2` (PGN's, 002 art. 8.7; a backgammon game's record).
    #[must_use]
    pub fn one_point_result(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

/// Why a side won (001 ch. I 7.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum WinReason {
    /// 7.2.3: the loser has no piece left.
    NoPieces,
    /// 7.2.2: the loser, on move, cannot move.
    Blocked,
    /// 7.2.1: the loser resigned.
    Resignation,
    /// The loser's flag fell (ch. II).
    Time,
    /// 7.2.4 or an arbiter's decision.
    Arbiter,
    /// Chess (002 art. 5.1(a)): the loser's king is checkmated.
    Checkmate,
    /// Backgammon (004 4.5): the winner reached the match length.
    MatchPoints,
}

/// Why a game was drawn (001 ch. I 6, 7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum DrawReason {
    /// 6.1: threefold repetition.
    Repetition,
    /// 6.2: 25 (64: 20) moves of kings only.
    KingMoves,
    /// 6.3: the 16-move (25 with advantage draws) endgame rule, or its 64 forms.
    Endgame,
    /// 6.4: the 5-move endgame rule.
    ShortEndgame,
    /// 7.3.1: agreed.
    Agreement,
    /// 7.3.3 or an arbiter's decision.
    Arbiter,
    /// Chess (002 art. 5.2(a)): the side to move has no legal move and is not in check.
    Stalemate,
    /// Chess (002 art. 5.2(b), 9.6): a dead position, no series of legal
    /// moves can checkmate either king (insufficient material).
    DeadPosition,
    /// Chess (002 art. 9.3): the 50-move rule, claimed.
    FiftyMoves,
    /// Chess (002 art. 6.9): a flag fell, but the opponent cannot checkmate
    /// by any series of legal moves.
    FlagNoMate,
}

/// Event options that change the rules of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct GameOptions {
    /// The event plays draws with advantage (6.5; not in 64): 6.3 counts 25 moves.
    #[serde(default)]
    pub draws_with_advantage: bool,
    /// Accept moves after a draw by rule (6.1-6.4): for replaying records
    /// from sites that do not apply the rules. The draw is still reported by
    /// [`Game::rule_draw`].
    #[serde(default)]
    pub play_on_after_rule_draw: bool,
    /// Backgammon: the match length in points (`--match N`); 0 for the default, 7.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub match_length: u32,
    /// Backgammon: tandem rolls the dice (`--dice tandem`) instead of the players.
    #[serde(default, skip_serializing_if = "is_false")]
    pub tandem_dice: bool,
    /// Backgammon: whose numbering the opponent's moves are said in (`--numbering`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub numbering: PointNumbering,
    /// Backgammon: whose point numbers are "yours" (the blind player; `None`: white).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listener: Option<Color>,
    /// Backgammon: the clock's simple delay in seconds (004 3.5 (v)), said
    /// with the clock report; 0 without a delay.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay_secs: u32,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

fn is_default(n: &PointNumbering) -> bool {
    *n == PointNumbering::default()
}

/// Backgammon: whose point numbers the opponent's moves are said in (points
/// count from each player's own home).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize, Hash,
)]
#[serde(rename_all = "kebab-case")]
pub enum PointNumbering {
    /// The listener's own numbers (the default).
    #[default]
    Listener,
    /// The mover's numbers, as the record writes them.
    Mover,
    /// Both: the mover's, then the listener's.
    Both,
}

impl std::str::FromStr for PointNumbering {
    type Err = String;

    fn from_str(s: &str) -> Result<PointNumbering, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "listener" => Ok(PointNumbering::Listener),
            "mover" => Ok(PointNumbering::Mover),
            "both" => Ok(PointNumbering::Both),
            _ => Err(format!("{s:?}: the numbering is listener, mover or both")),
        }
    }
}
