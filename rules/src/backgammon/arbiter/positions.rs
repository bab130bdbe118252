//! Two positions compared: gnubg's Position ID (the checkers) and Match ID
//! (dice, cube, score), and what to do on the second board.

use std::fmt;

use crate::backgammon::board::{idx, Board, BoardError};
use crate::backgammon::match_id::{self, MatchIdError, MatchInfo};
use crate::backgammon::position_id::{self, PositionIdError};
use crate::backgammon::Dice;
use crate::Color;

/// A place on the board, in white's numbering (white's 1-point is black's
/// 24-point).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "point")]
pub enum Spot {
    /// A point 1..24, white's numbering.
    Point(u8),
    /// The bar.
    Bar,
    /// Borne off.
    Off,
}

impl Spot {
    /// The point as `side` numbers it (bar and off are the same for both).
    #[must_use]
    pub fn point_for(self, side: Color) -> Option<u8> {
        match (self, side) {
            (Spot::Point(p), Color::White) => Some(p),
            (Spot::Point(p), Color::Black) => Some(25 - p),
            _ => None,
        }
    }
}

/// A place where one side's checkers differ between two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SpotChange {
    /// Whose checkers.
    pub side: Color,
    /// Where.
    pub spot: Spot,
    /// How many on the first board (the right one).
    pub a: u8,
    /// How many on the second board (the one to correct).
    pub b: u8,
}

/// What to do on the second board at one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BgFix {
    /// Take `n` of `side`'s checkers off `spot` (to the tray).
    Remove {
        /// Whose.
        side: Color,
        /// Where.
        spot: Spot,
        /// How many.
        n: u8,
    },
    /// Put `n` of `side`'s checkers on `spot` (from the tray).
    Put {
        /// Whose.
        side: Color,
        /// Where.
        spot: Spot,
        /// How many.
        n: u8,
    },
}

impl SpotChange {
    /// The fix on the second board; `None` for the checkers borne off,
    /// which follow from the rest (the tray holds what is not on the board).
    #[must_use]
    pub fn fix(&self) -> Option<BgFix> {
        if self.spot == Spot::Off {
            return None;
        }
        let (side, spot) = (self.side, self.spot);
        if self.b > self.a {
            Some(BgFix::Remove {
                side,
                spot,
                n: self.b - self.a,
            })
        } else {
            Some(BgFix::Put {
                side,
                spot,
                n: self.a - self.b,
            })
        }
    }
}

fn count_at(b: &Board, side: Color, spot: Spot) -> u8 {
    match spot {
        Spot::Point(_) => spot.point_for(side).map_or(0, |p| b.count(side, p)),
        Spot::Bar => b.bar(side),
        Spot::Off => b.borne_off(side),
    }
}

/// Every place where the boards differ: points 24 down to 1 in white's
/// numbering (each point's checkers of both sides), then the bar and the
/// checkers borne off, white's before black's.
#[must_use]
pub fn diff_boards(a: &Board, b: &Board) -> Vec<SpotChange> {
    let spots = (1..=24u8)
        .rev()
        .map(Spot::Point)
        .chain([Spot::Bar, Spot::Off]);
    let mut out = Vec::new();
    for spot in spots {
        for side in [Color::White, Color::Black] {
            let (x, y) = (count_at(a, side, spot), count_at(b, side, spot));
            if x != y {
                out.push(SpotChange {
                    side,
                    spot,
                    a: x,
                    b: y,
                });
            }
        }
    }
    out
}

/// Does the fixes on a board: what the second board holds after the
/// director's instructions are followed.
///
/// # Errors
/// The result is no board (a fix from another pair of boards).
pub fn apply_fixes(board: &Board, fixes: &[BgFix]) -> Result<Board, BoardError> {
    let mut sides = [*board.side(Color::White), *board.side(Color::Black)];
    for f in fixes {
        let (side, spot, delta): (Color, Spot, i16) = match *f {
            BgFix::Remove { side, spot, n } => (side, spot, -i16::from(n)),
            BgFix::Put { side, spot, n } => (side, spot, i16::from(n)),
        };
        let slot = match spot {
            Spot::Point(_) => spot.point_for(side).map(|p| usize::from(p) - 1),
            Spot::Bar => Some(24),
            Spot::Off => None,
        };
        if let Some(i) = slot {
            let v = &mut sides[idx(side)][i];
            *v = u8::try_from(i16::from(*v) + delta).unwrap_or(0);
        }
    }
    Board::from_sides(sides[0], sides[1], board.turn())
}

/// A position as gnubg writes it: `POSITION_ID` or `POSITION_ID:MATCH_ID`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdPosition {
    /// The checkers.
    pub board: Board,
    /// The Match ID's fields, when given.
    pub info: Option<MatchInfo>,
}

/// Why a position text is no Position ID (with a Match ID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdError {
    /// The Position ID.
    Position(PositionIdError),
    /// The Match ID.
    Match(MatchIdError),
}

impl fmt::Display for IdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdError::Position(e) => write!(f, "Position ID: {e}"),
            IdError::Match(e) => write!(f, "Match ID: {e}"),
        }
    }
}

impl std::error::Error for IdError {}

/// Reads `POSITION_ID[:MATCH_ID]` (also as gnubg prints them:
/// `Position ID: ...`, `Match ID: ...`). The Position ID is from the side on
/// roll: the Match ID's, else `on_roll`.
///
/// # Errors
/// Either ID does not read.
pub fn read_ids(text: &str, on_roll: Color) -> Result<IdPosition, IdError> {
    let t = text
        .replace("Position ID:", " ")
        .replace("Match ID:", ":")
        .replace("GNUbg ID:", " ");
    let t = t.trim();
    let (pid, mid) = match t.split_once(':') {
        Some((p, m)) => (p.trim(), Some(m.trim())),
        None => (t, None),
    };
    let info = match mid {
        Some(m) if !m.is_empty() => Some(match_id::decode(m).map_err(IdError::Match)?),
        _ => None,
    };
    let turn = info.map_or(on_roll, |i| i.on_roll);
    let board = position_id::decode(pid, turn).map_err(IdError::Position)?;
    Ok(IdPosition { board, info })
}

/// A field of the Match ID that differs between two positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "field", rename_all = "snake_case")]
pub enum InfoChange {
    /// The dice (`None`: not rolled).
    Dice {
        /// The first position's.
        a: Option<Dice>,
        /// The second's.
        b: Option<Dice>,
    },
    /// The cube's value and owner (`None`: in the middle).
    Cube {
        /// The first position's value.
        a: u32,
        /// Its owner.
        a_owner: Option<Color>,
        /// The second position's value.
        b: u32,
        /// Its owner.
        b_owner: Option<Color>,
    },
    /// The score and match length.
    Score {
        /// White's, black's score and the length in the first position.
        a: (u32, u32, u32),
        /// The same in the second.
        b: (u32, u32, u32),
    },
    /// The Crawford game.
    Crawford {
        /// The first position's.
        a: bool,
        /// The second's.
        b: bool,
    },
    /// The side on roll.
    OnRoll {
        /// The first position's.
        a: Color,
        /// The second's.
        b: Color,
    },
    /// A double waiting for an answer.
    Doubled {
        /// The first position's.
        a: bool,
        /// The second's.
        b: bool,
    },
}

/// The Match ID's fields that differ: the dice, the cube, the score, the
/// Crawford game, the side on roll, a double waiting.
#[must_use]
pub fn diff_infos(a: &MatchInfo, b: &MatchInfo) -> Vec<InfoChange> {
    let mut out = Vec::new();
    let dice = |i: &MatchInfo| i.dice.map(Dice::high_first);
    if dice(a) != dice(b) {
        out.push(InfoChange::Dice {
            a: dice(a),
            b: dice(b),
        });
    }
    if (a.cube, a.cube_owner) != (b.cube, b.cube_owner) {
        out.push(InfoChange::Cube {
            a: a.cube,
            a_owner: a.cube_owner,
            b: b.cube,
            b_owner: b.cube_owner,
        });
    }
    let score = |i: &MatchInfo| (i.score_white, i.score_black, i.length);
    if score(a) != score(b) {
        out.push(InfoChange::Score {
            a: score(a),
            b: score(b),
        });
    }
    if a.crawford != b.crawford {
        out.push(InfoChange::Crawford {
            a: a.crawford,
            b: b.crawford,
        });
    }
    if a.on_roll != b.on_roll {
        out.push(InfoChange::OnRoll {
            a: a.on_roll,
            b: b.on_roll,
        });
    }
    if a.doubled != b.doubled {
        out.push(InfoChange::Doubled {
            a: a.doubled,
            b: b.doubled,
        });
    }
    out
}
