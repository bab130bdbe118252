//! GNU Backgammon's Match ID: the cube, the dice, whose turn, the score and
//! the match length in twelve base64 characters (nine bytes, bits filled from
//! each byte's lowest bit up, as the Position ID):
//!
//! | bits  | field |
//! | ----- | ----- |
//! | 0-3   | log2 of the cube value |
//! | 4-5   | cube owner: 0, 1, or 3 in the middle |
//! | 6     | the player on roll (whose dice) |
//! | 7     | the Crawford game |
//! | 8-10  | game state: 0 none, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube |
//! | 11    | the player to act (the taker while a double waits) |
//! | 12    | a double offered |
//! | 13-14 | a resignation offered (1-3) |
//! | 15-17, 18-20 | the dice (0 before the roll) |
//! | 21-35 | match length |
//! | 36-50, 51-65 | the scores of player 0 and player 1 |
//!
//! tandem's white is gnubg's player 0 and black is player 1. Bit 66 is
//! gnubg's Jacoby flag: GNU Backgammon 1.07 writes 1 there in every match's
//! ID, whatever `set jacoby` says (checked against the real gnubg in
//! `assistant/tests/session_backgammon_table.rs`), and the rule is for money
//! play only, so no match is played with it (004 4.4 (viii)). tandem writes
//! the same: 1 for a match, 0 for a money game (length 0), so its Match ID is
//! gnubg's character for character; reading ignores the bit.

use std::fmt;

use super::board::Dice;
use super::match_play::{Match, Phase};
use super::position_id::b64_value;
use crate::Color;

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The fields of a Match ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MatchInfo {
    /// The cube's value (1..64 and beyond as gnubg allows: 2^0..2^15).
    pub cube: u32,
    /// Who owns the cube; `None` in the middle.
    pub cube_owner: Option<Color>,
    /// The side on roll.
    pub on_roll: Color,
    /// The Crawford game.
    pub crawford: bool,
    /// 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped cube.
    pub game_state: u8,
    /// The side to act.
    pub turn: Color,
    /// A double waits.
    pub doubled: bool,
    /// A resignation offered (0 none).
    pub resigned: u8,
    /// The dice, when rolled.
    pub dice: Option<Dice>,
    /// Match length (0: money game).
    pub length: u32,
    /// Score of white (player 0).
    pub score_white: u32,
    /// Score of black (player 1).
    pub score_black: u32,
}

/// Why a text is not a Match ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MatchIdError {
    /// Not twelve characters.
    Length(usize),
    /// A character outside base64.
    Character(char),
    /// A field out of range (cube owner 2, a die of 7).
    Field(&'static str),
}

impl fmt::Display for MatchIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchIdError::Length(n) => write!(f, "a Match ID has 12 characters, not {n}"),
            MatchIdError::Character(c) => write!(f, "{c:?} is not a Match ID character"),
            MatchIdError::Field(name) => write!(f, "the {name} is out of range"),
        }
    }
}

impl std::error::Error for MatchIdError {}

fn player(c: Color) -> u64 {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn color(bit: u64) -> Color {
    if bit == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Writes a Match ID.
///
/// ```
/// use tandem_rules::backgammon::{match_id, Dice};
/// use tandem_rules::Color;
/// let info = match_id::MatchInfo { cube: 1, cube_owner: None, on_roll: Color::Black,
///     crawford: false, game_state: 1, turn: Color::Black, doubled: false, resigned: 0,
///     dice: Some(Dice(6, 5)), length: 3, score_white: 0, score_black: 0 };
/// assert_eq!(match_id::encode(&info), "cAl3AAAAAAAE");
/// ```
#[must_use]
pub fn encode(m: &MatchInfo) -> String {
    let mut bits: u128 = 0;
    let mut put = |at: u32, width: u32, v: u64| {
        let v = u128::from(v) & ((1u128 << width) - 1);
        bits |= v << at;
    };
    put(0, 4, u64::from(m.cube.max(1).trailing_zeros()));
    put(4, 2, m.cube_owner.map_or(3, player));
    put(6, 1, player(m.on_roll));
    put(7, 1, u64::from(m.crawford));
    put(8, 3, u64::from(m.game_state));
    put(11, 1, player(m.turn));
    put(12, 1, u64::from(m.doubled));
    put(13, 2, u64::from(m.resigned));
    let (d0, d1) = m.dice.map_or((0, 0), |d| (d.0, d.1));
    put(15, 3, u64::from(d0));
    put(18, 3, u64::from(d1));
    put(21, 15, u64::from(m.length));
    put(36, 15, u64::from(m.score_white));
    put(51, 15, u64::from(m.score_black));
    // gnubg's Jacoby flag, set in every match (see the module docs).
    put(66, 1, u64::from(m.length > 0));
    let bytes: Vec<u8> = (0..9).map(|i| ((bits >> (8 * i)) & 0xff) as u8).collect();
    let mut out = String::with_capacity(12);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16) | (u32::from(chunk[1]) << 8) | u32::from(chunk[2]);
        for s in [18, 12, 6, 0] {
            out.push(char::from(B64[((n >> s) & 0x3f) as usize]));
        }
    }
    out
}

/// Reads a Match ID.
///
/// # Errors
/// Not twelve base64 characters, or a field out of range.
pub fn decode(id: &str) -> Result<MatchInfo, MatchIdError> {
    let id = id.trim();
    let n = id.chars().count();
    if n != 12 {
        return Err(MatchIdError::Length(n));
    }
    let mut bytes = [0u8; 9];
    let vals: Vec<u32> = id
        .chars()
        .map(|c| b64_value(c).ok_or(MatchIdError::Character(c)))
        .collect::<Result<_, _>>()?;
    for (k, q) in vals.chunks(4).enumerate() {
        let n = (q[0] << 18) | (q[1] << 12) | (q[2] << 6) | q[3];
        bytes[3 * k] = ((n >> 16) & 0xff) as u8;
        bytes[3 * k + 1] = ((n >> 8) & 0xff) as u8;
        bytes[3 * k + 2] = (n & 0xff) as u8;
    }
    let bits: u128 = bytes
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &b)| acc | (u128::from(b) << (8 * i)));
    let get = |at: u32, width: u32| -> u64 { ((bits >> at) & ((1u128 << width) - 1)) as u64 };
    let owner = match get(4, 2) {
        0 => Some(Color::White),
        1 => Some(Color::Black),
        3 => None,
        _ => return Err(MatchIdError::Field("cube owner")),
    };
    let (d0, d1) = (get(15, 3) as u8, get(18, 3) as u8);
    let dice = match (d0, d1) {
        (0, 0) => None,
        _ => Some(Dice::new(d0, d1).ok_or(MatchIdError::Field("dice"))?),
    };
    Ok(MatchInfo {
        cube: 1 << get(0, 4),
        cube_owner: owner,
        on_roll: color(get(6, 1)),
        crawford: get(7, 1) == 1,
        game_state: get(8, 3) as u8,
        turn: color(get(11, 1)),
        doubled: get(12, 1) == 1,
        resigned: get(13, 2) as u8,
        dice,
        length: get(21, 15) as u32,
        score_white: get(36, 15) as u32,
        score_black: get(51, 15) as u32,
    })
}

/// The roll of a game that ended by a resignation right after it.
fn rolled_then_resigned(m: &Match) -> Option<Dice> {
    use super::match_play::Action;
    if !matches!(m.phase(), Phase::Opening | Phase::MatchOver) {
        return None;
    }
    let actions = &m.games().last()?.actions;
    match actions.as_slice() {
        [.., (_, Action::Roll(d), _), (_, Action::Resign { .. }, _)] => Some(*d),
        _ => None,
    }
}

/// The Match ID fields of a match as it stands.
#[must_use]
pub fn of_match(m: &Match) -> MatchInfo {
    let on_roll = m.board().turn();
    let game_state = match m.phase() {
        Phase::Roll | Phase::Move | Phase::DoubleOffered => 1,
        Phase::Opening if m.games().is_empty() => 0,
        Phase::Opening | Phase::MatchOver => match m.last_end().map(|e| e.kind) {
            Some(super::match_play::EndKind::Pass) => 4,
            Some(super::match_play::EndKind::Resign(_)) => 3,
            _ => 2,
        },
    };
    MatchInfo {
        cube: m.cube(),
        cube_owner: m.cube_owner(),
        on_roll,
        // After the match, the Crawford flag of the game that ended it, as
        // gnubg's `import mat` leaves it (a match won in the Crawford game
        // keeps the flag); tandem's own `is_crawford` looks at the next game.
        crawford: if m.phase() == Phase::MatchOver {
            m.games().last().is_some_and(|g| g.crawford)
        } else {
            m.is_crawford()
        },
        game_state,
        // Between games gnubg leaves the turn with the side that acted last
        // (with the opponent after a move).
        turn: m.to_act().unwrap_or_else(|| {
            let actions = m.games().last().map_or(&[][..], |g| &g.actions[..]);
            let offered = actions.len() >= 2
                && matches!(
                    actions[actions.len() - 2].1,
                    super::match_play::Action::ResignOffer { .. }
                );
            let n = actions.len();
            actions.last().map_or(on_roll, |a| match a.1 {
                // After the last checker is borne off the turn has passed on.
                super::match_play::Action::Move(_) => a.0.other(),
                // A resignation offered and accepted: the one who accepted.
                super::match_play::Action::Resign { side, .. } if offered => side.other(),
                // A resignation leaves the turn where it was (gnubg's
                // MOVE_RESIGN): the side to act before it, the one to
                // answer a double offered, else the side on roll.
                super::match_play::Action::Resign { .. } => {
                    let doubled =
                        n >= 2 && matches!(actions[n - 2].1, super::match_play::Action::Double);
                    if doubled {
                        a.2.turn().other()
                    } else {
                        a.2.turn()
                    }
                }
                _ => a.0,
            })
        }),
        doubled: m.phase() == Phase::DoubleOffered,
        // A resigned game keeps its resignation until the next game starts.
        resigned: match (game_state, m.last_end().map(|e| e.kind), m.resign_offer()) {
            // A resignation offered, waiting for its answer (gnubg's fResigned).
            (1, _, Some((_, level))) => level,
            (3, Some(super::match_play::EndKind::Resign(level)), _) => level,
            _ => 0,
        },
        // gnubg keeps the dice larger first (`set dice 1 3` and its own
        // opening rolls alike); tandem's opening roll is white's die first.
        // A game resigned after a roll keeps that roll, as gnubg keeps the
        // dice of a `.mat` file's roll written without its move.
        dice: m
            .dice()
            .or_else(|| rolled_then_resigned(m))
            .map(|d| Dice(d.0.max(d.1), d.0.min(d.1))),
        length: m.options().length,
        score_white: m.score(Color::White),
        score_black: m.score(Color::Black),
    }
}

/// The Match ID fields gnubg's `import mat` leaves for a match read from a
/// file ([`super::mat::read`]): [`of_match`]'s, except that a file which
/// stops between games keeps the Crawford flag of its last game (gnubg sets
/// the next game's flag only when that game starts; at the table, where gnubg
/// sets it as the game ends, [`of_match`] gives the next game's).
///
/// ```
/// use tandem_rules::backgammon::{mat, match_id};
/// // A 3-point match whose one game, a gammon, leaves white a point away:
/// // the next game would be the Crawford game, the file's last was not.
/// let text = " 3 point match\n\n Game 1\n White : 0   Black : 0\n  1) 31: 8/5 6/5\n      Wins 2 points\n";
/// let r = mat::read(text).unwrap();
/// assert!(match_id::of_match(&r.game).crawford);
/// assert!(!match_id::after_import(&r.game).crawford);
/// ```
#[must_use]
pub fn after_import(m: &Match) -> MatchInfo {
    let mut info = of_match(m);
    if let (Phase::Opening, Some(last)) = (m.phase(), m.games().last()) {
        info.crawford = last.crawford;
    }
    info
}
