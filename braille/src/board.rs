//! The game a display shows (the registry of the braille crate): a draughts
//! [`Position`], a chess position ([`Chess`], 002 annex E) or a backgammon
//! match. The UI ([`crate::ui::BrailleUi`]) and the driver
//! ([`crate::driver`]) take a [`Board`] so one daemon serves every game;
//! [`Board::keys`] gives the game's views and key input ([`GameKeys`]).
//!
//! ```
//! use tandem_braille::Board;
//! use tandem_rules::{chess, Color};
//! use tandem_rules::draughts::{Position, Variant};
//! let draughts = Board::from(Position::start(Variant::International));
//! let chess = Board::from(chess::start());
//! assert!(!draughts.is_chess() && chess.is_chess());
//! assert_eq!(chess.turn(), Color::White);
//! ```

use tandem_rules::chess::shakmaty::{Chess, Position as _};
use tandem_rules::draughts::Position;
use tandem_rules::Color;

use crate::routing::GameKeys;

/// A position of either game.
///
/// Equality is the rules' own: for draughts the whole position, for chess
/// shakmaty's FIDE equality (pieces, side to move, castling rights and a
/// legal en-passant square; the move counters do not count), so a clock
/// tick resending the same position compares equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Board {
    /// A draughts position (any variant).
    Draughts(Position),
    /// A chess position.
    Chess(Chess),
    /// A backgammon match as it stands, seen from `viewer`'s side (points
    /// numbered from the viewer's home: [`crate::backgammon`]).
    Backgammon {
        /// The match.
        game: Box<tandem_rules::backgammon::Match>,
        /// Whose numbering the board line is in (the blind player's).
        viewer: Color,
    },
}

impl Board {
    /// The same position seen from `viewer`'s side: a seat's own display
    /// (`tandem play --seat`) shows the board its player sees. Only a game
    /// that numbers the board from one side (backgammon) changes.
    #[must_use]
    pub fn seen_by(self, viewer: Color) -> Board {
        match self {
            Board::Backgammon { game, .. } => Board::Backgammon { game, viewer },
            other => other,
        }
    }

    /// Whether this is a chess position.
    #[must_use]
    pub fn is_chess(&self) -> bool {
        matches!(self, Board::Chess(_))
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        match self {
            Board::Draughts(p) => p.turn(),
            Board::Chess(c) => c.turn().into(),
            Board::Backgammon { game, .. } => tandem_rules::TableGame::side_to_move(&**game),
        }
    }
}

impl Board {
    /// The views and key input of this board's game, nothing picked.
    #[must_use]
    pub fn keys(&self) -> Box<dyn GameKeys> {
        match self {
            Board::Draughts(p) => Box::new(crate::draughts::DraughtsKeys::new(*p)),
            Board::Chess(c) => Box::new(crate::chess::ChessKeys::new(c.clone())),
            Board::Backgammon { game, viewer } => {
                Box::new(crate::backgammon::BgKeys::new((**game).clone(), *viewer))
            }
        }
    }
}

impl From<&Position> for Board {
    fn from(p: &Position) -> Board {
        Board::Draughts(*p)
    }
}

impl From<Position> for Board {
    fn from(p: Position) -> Board {
        Board::Draughts(p)
    }
}

impl From<Chess> for Board {
    fn from(c: Chess) -> Board {
        Board::Chess(c)
    }
}
