//! Which game is played and where it stands: [`GameKind`] (the game's
//! name on the command line, in the journal and in `tandem ctl state`) and
//! [`AnyPosition`] (a position of any game). They name only the rules
//! crate's types; with [`crate::game`] (the dispatch to each game's folder)
//! this file is the registry, the one place that lists the games.

use tandem_rules::backgammon::Match;
use tandem_rules::chess;
use tandem_rules::chess::shakmaty::{Chess, Position as _};
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;

/// Which game: draughts of a variant, or chess (`--variant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    /// International or 64-square draughts.
    Draughts(Variant),
    /// Chess.
    Chess,
    /// Backgammon, a match (004).
    Backgammon,
}

impl GameKind {
    /// The name on the command line, in JSON and in the journal.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Draughts(v) => v.name(),
            GameKind::Chess => "chess",
            GameKind::Backgammon => "backgammon",
        }
    }
}

impl GameKind {
    /// The games `tandem arbiter` recognises from their files without
    /// `--variant`, in the order asked.
    pub const DETECTED: [GameKind; 2] = [GameKind::Backgammon, GameKind::Chess];
    /// The game of records and positions that no game of [`Self::DETECTED`]
    /// claims: international draughts.
    pub const FALLBACK: GameKind = GameKind::Draughts(Variant::International);
}

/// An unknown `--variant` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseGameKindError(pub String);

impl std::fmt::Display for ParseGameKindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown variant {:?} (expected international, sixty-four, chess or backgammon)",
            self.0
        )
    }
}

impl std::error::Error for ParseGameKindError {}

impl std::str::FromStr for GameKind {
    type Err = ParseGameKindError;

    fn from_str(s: &str) -> Result<GameKind, ParseGameKindError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chess" | "szachy" | "fide" => Ok(GameKind::Chess),
            "backgammon" | "tryktrak" | "bg" => Ok(GameKind::Backgammon),
            _ => s
                .parse::<Variant>()
                .map(GameKind::Draughts)
                .map_err(|_| ParseGameKindError(s.to_owned())),
        }
    }
}

/// A position of either game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyPosition {
    /// Draughts.
    Draughts(Position),
    /// Chess (boxed: it is several times the size of a draughts position).
    Chess(Box<Chess>),
    /// Backgammon: the match as it stands (position text `PositionID:MatchID`).
    Backgammon(Box<Match>),
}

impl AnyPosition {
    /// Whose move it is.
    #[must_use]
    pub fn turn(&self) -> Color {
        match self {
            AnyPosition::Draughts(p) => p.turn(),
            AnyPosition::Chess(p) => p.turn().into(),
            AnyPosition::Backgammon(m) => tandem_rules::TableGame::side_to_move(&**m),
        }
    }

    /// The game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Draughts(p) => GameKind::Draughts(p.variant()),
            AnyPosition::Chess(_) => GameKind::Chess,
            AnyPosition::Backgammon(_) => GameKind::Backgammon,
        }
    }

    /// Whether `other` is a position of the same game (any variant of it).
    #[must_use]
    pub fn same_game(&self, other: &AnyPosition) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }

    /// FEN (PDN FEN for draughts).
    #[must_use]
    pub fn to_fen(&self) -> String {
        match self {
            AnyPosition::Draughts(p) => p.to_fen(),
            AnyPosition::Chess(p) => chess::to_fen(p),
            AnyPosition::Backgammon(m) => tandem_rules::TableGame::position_text(&**m),
        }
    }
}

impl AnyPosition {
    /// A backgammon match not begun yet, remade for `length` points (its
    /// Match ID says the length); any other position as it is.
    #[must_use]
    pub fn for_match(self, length: u32) -> AnyPosition {
        match self {
            AnyPosition::Backgammon(m) if m.games().is_empty() => {
                AnyPosition::Backgammon(Box::new(Match::new(
                    tandem_rules::backgammon::MatchOptions { length },
                )))
            }
            other => other,
        }
    }
}
