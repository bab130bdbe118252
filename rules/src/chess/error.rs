//! Why a chess move text or a move was refused.

use std::fmt;

use shakmaty::{Role, Square};

use super::mv::ChessMove;
use crate::Outcome;

/// Why a move names no legal move (a code for programs; the speech layer
/// words it for players).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// Nothing stands on the start square.
    NoPiece {
        /// The square.
        square: Square,
    },
    /// The piece on the start square is the opponent's.
    NotYourPiece {
        /// The square.
        square: Square,
    },
    /// The target square holds a piece of the side to move.
    OwnPiece {
        /// The square.
        square: Square,
    },
    /// The piece does not move that way (002 art. 3).
    CannotReach {
        /// The piece.
        role: Role,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// The move would leave or put the own king in check (002 art. 3.9, 3.10).
    KingInCheck {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// Castling is not allowed now (002 art. 3.8(b)).
    CastlingNotAllowed,
    /// No piece of that kind can go to that square (SAN such as `Nf5`).
    NoSuchMove {
        /// The piece named (a pawn when none was).
        role: Role,
        /// The target square.
        to: Square,
    },
    /// A pawn reaching the last rank must be exchanged for a piece (002 art.
    /// 3.7(e)), and a piece was named where no promotion happens.
    Promotion,
    /// The side to move has no legal move (the game is over).
    NoMoves,
}

/// Why a move text or a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChessError {
    /// The game has ended.
    GameOver(Outcome),
    /// The text is not a chess move.
    Syntax(String),
    /// The move is not legal here.
    Illegal {
        /// The text as given.
        text: String,
        /// Why.
        reason: IllegalReason,
    },
    /// The text fits several legal moves: ask which (`Nd2` with knights on b1 and f3).
    Ambiguous {
        /// The text as given.
        text: String,
        /// The moves it fits.
        candidates: Vec<ChessMove>,
    },
    /// A FEN that is not a legal chess position.
    Fen(String),
    /// No draw can be claimed now (002 art. 9.2, 9.3).
    NoClaim,
}

impl ChessError {
    /// The same refusal naming the rule only, never the pieces or squares
    /// that could move (a rated game, FIDE Laws 11.3.2.1): an ambiguous
    /// move loses its candidates, unless only the promotion piece is open
    /// (the player's own choice, not a hint).
    #[must_use]
    pub fn without_hints(self) -> ChessError {
        match self {
            ChessError::Ambiguous { text, candidates }
                if !candidates.iter().all(|m| {
                    m.promotion.is_some()
                        && m.from == candidates[0].from
                        && m.to == candidates[0].to
                }) =>
            {
                ChessError::Ambiguous {
                    text,
                    candidates: Vec::new(),
                }
            }
            e => e,
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::NoPiece { square } => write!(f, "no piece on {square}"),
            IllegalReason::NotYourPiece { square } => {
                write!(f, "the piece on {square} is the opponent's")
            }
            IllegalReason::OwnPiece { square } => write!(f, "{square} holds an own piece"),
            IllegalReason::CannotReach { role, from, to } => {
                write!(f, "the {role:?} on {from} cannot go to {to}")
            }
            IllegalReason::KingInCheck { from, to } => {
                write!(f, "{from}-{to} leaves the king in check")
            }
            IllegalReason::CastlingNotAllowed => f.write_str("castling is not allowed now"),
            IllegalReason::NoSuchMove { role, to } => {
                write!(f, "no {role:?} can go to {to}")
            }
            IllegalReason::Promotion => f.write_str("wrong or missing promotion piece"),
            IllegalReason::NoMoves => f.write_str("no legal moves"),
        }
    }
}

impl fmt::Display for ChessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChessError::GameOver(o) => {
                write!(
                    f,
                    "the game is over ({})",
                    super::result::pgn_result(Some(*o))
                )
            }
            ChessError::Syntax(t) => write!(f, "not a chess move: {t:?}"),
            ChessError::Illegal { text, reason } => write!(f, "illegal move {text}: {reason}"),
            ChessError::Ambiguous { text, candidates } if candidates.is_empty() => {
                write!(f, "ambiguous move {text}: give the square it starts from")
            }
            ChessError::Ambiguous { text, candidates } => {
                let c: Vec<String> = candidates.iter().map(ChessMove::uci).collect();
                write!(f, "ambiguous move {text}: {}", c.join(" or "))
            }
            ChessError::Fen(e) => write!(f, "invalid chess FEN: {e}"),
            ChessError::NoClaim => f.write_str("no draw can be claimed"),
        }
    }
}

impl std::error::Error for ChessError {}
