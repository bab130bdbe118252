//! One entry played on a match, and a record replayed entry by entry for
//! [`crate::reconcile`].

use std::fmt;

use super::entry::{roll_prefix, split_side};

use crate::backgammon::match_play::{Action, ActionError, Match, MatchOptions, Phase};
use crate::backgammon::movegen::Play;
use crate::backgammon::notation;
use crate::backgammon::Dice;
use crate::reconcile::{self as generic, Classify, RecordReplay, RecordedGame};
use crate::Color;

/// One entry played: a turn or a cube action, with its side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// A roll and its move ([`Play::PASS`] when it cannot be played). At a
    /// game's start the dice are as [`Match`] takes them: white's die, black's.
    Roll {
        /// Who rolled and moved.
        side: Color,
        /// The dice.
        dice: Dice,
        /// The move.
        play: Play,
    },
    /// The cube offered.
    Double(Color),
    /// The cube taken.
    Take(Color),
    /// The cube passed (dropped).
    Drop(Color),
    /// A roll written without its move while the roll can be played: the
    /// player resigned after rolling (`51:`, then the opponent's `Wins N
    /// points`), as FIBS and gnubg write it.
    Rolled {
        /// Who rolled.
        side: Color,
        /// The dice.
        dice: Dice,
    },
    /// A game given up for 1, 2 or 3 times the cube.
    Resign {
        /// Who resigns.
        side: Color,
        /// 1, 2 or 3.
        level: u8,
    },
}

impl Turn {
    /// Who made it.
    #[must_use]
    pub fn side(&self) -> Color {
        match *self {
            Turn::Roll { side, .. }
            | Turn::Rolled { side, .. }
            | Turn::Double(side)
            | Turn::Take(side)
            | Turn::Drop(side)
            | Turn::Resign { side, .. } => side,
        }
    }
}

/// Why an entry cannot be played where the record has it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TurnError {
    /// The entry does not read as a roll, a move or a cube action.
    Unreadable(String),
    /// An opening roll without who rolled it (`white 52: ...`).
    NeedSide,
    /// The entry names the side that is not to act.
    WrongSide {
        /// The side written.
        written: Color,
        /// The side to act.
        to_act: Color,
    },
    /// The roll is refused (an equal opening roll, a die out of 1..6, no
    /// game under way, a double waiting).
    Roll(ActionError),
    /// The move is not legal for the roll.
    Move {
        /// The roll.
        dice: Dice,
        /// Why.
        error: ActionError,
    },
    /// The cube action or resignation is refused.
    Action(ActionError),
    /// `wins N points` where the game gave another number (or the other side).
    GameEnd {
        /// The points written.
        written: u32,
        /// The side written.
        side: Option<Color>,
        /// How the game ended by the rules, if it has.
        actual: Option<(Color, u32)>,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Unreadable(t) => write!(f, "cannot read {t:?}"),
            TurnError::NeedSide => {
                f.write_str("the opening roll does not say who rolled it (write white or black)")
            }
            TurnError::WrongSide { written, to_act } => {
                write!(
                    f,
                    "{} is written but {} is to act",
                    written.name(),
                    to_act.name()
                )
            }
            TurnError::Roll(e) => write!(f, "the roll: {e}"),
            TurnError::Move { dice, error } => {
                write!(f, "the move for {}{}: {error}", dice.0, dice.1)
            }
            TurnError::Action(e) => write!(f, "{e}"),
            TurnError::GameEnd {
                written, actual, ..
            } => match actual {
                Some((w, n)) => write!(f, "the game gave {} {n}, not {written}", w.name()),
                None => write!(f, "no game has ended here (wins {written})"),
            },
        }
    }
}

impl std::error::Error for TurnError {}

fn check_side(m: &Match, side: Option<Color>) -> Result<(), TurnError> {
    match (side, m.to_act()) {
        (Some(written), Some(to_act)) if written != to_act => {
            Err(TurnError::WrongSide { written, to_act })
        }
        _ => Ok(()),
    }
}

/// Plays one entry (`white 52: 13/8 13/11`, `doubles`, `black takes`,
/// `resign 2`, `wins 2 points` in a game under way) on `m`. Nothing changes
/// when it is refused.
///
/// # Errors
/// Why the entry cannot be played there.
pub fn play_entry(m: &mut Match, text: &str) -> Result<Turn, TurnError> {
    let mut probe = m.clone();
    let t = play_on(&mut probe, text)?;
    *m = probe;
    Ok(t)
}

fn play_on(m: &mut Match, text: &str) -> Result<Turn, TurnError> {
    let (side, body) = split_side(text);
    let body = body.trim();
    let lower = body.to_ascii_lowercase();
    let word = lower
        .split(|c: char| c.is_whitespace() || c == ':')
        .next()
        .unwrap_or("");
    if let Some(t) = cube_entry(m, side, word)? {
        return Ok(t);
    }
    if let Some(t) = end_entry(m, side, word, &lower, body)? {
        return Ok(t);
    }
    roll_entry(m, side, body)
}

/// A cube action (`doubles`, `takes`, `drops`, `pass` to a double), or
/// `None` for another entry.
fn cube_entry(m: &mut Match, side: Option<Color>, word: &str) -> Result<Option<Turn>, TurnError> {
    let action = match word {
        "double" | "doubles" => Action::Double,
        "take" | "takes" | "accept" | "accepts" => Action::Take,
        "drop" | "drops" | "reject" | "rejects" => Action::Pass,
        "pass" if m.phase() == Phase::DoubleOffered => Action::Pass,
        _ => return Ok(None),
    };
    check_side(m, side)?;
    // A record that starts at a score one point away (a `.mat` file
    // continuing a match) and doubles in that first game shows its Crawford
    // game was played before (004 4.4 (iv)).
    if action == Action::Double
        && m.is_crawford()
        && m.games().len() == 1
        && m.games()[0].score != [0, 0]
        && m.phase() == Phase::Roll
    {
        m.post_crawford_after_all();
    }
    let who = m.to_act().unwrap_or(m.board().turn());
    m.act(action).map_err(TurnError::Action)?;
    Ok(Some(match action {
        Action::Double => Turn::Double(who),
        Action::Take => Turn::Take(who),
        _ => Turn::Drop(who),
    }))
}

/// A game's end: `resign N`, or `wins N points` (in a game under way the
/// loser resigned, 004 4.5; after the game, the points it gave are
/// checked), or `None` for another entry.
fn end_entry(
    m: &mut Match,
    side: Option<Color>,
    word: &str,
    lower: &str,
    body: &str,
) -> Result<Option<Turn>, TurnError> {
    let number = || {
        lower
            .split(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())
            .and_then(|w| w.parse::<u32>().ok())
    };
    let (loser, level) = match word {
        "resign" | "resigns" => {
            let who = side.or(m.to_act()).unwrap_or(m.board().turn());
            (
                who,
                number().and_then(|n| u8::try_from(n).ok()).unwrap_or(1),
            )
        }
        "wins" => {
            let n = number().ok_or_else(|| TurnError::Unreadable(body.to_owned()))?;
            let under_way = matches!(m.phase(), Phase::Roll | Phase::Move | Phase::DoubleOffered);
            if !under_way || n == 0 {
                return Err(TurnError::GameEnd {
                    written: n,
                    side,
                    actual: if under_way {
                        None
                    } else {
                        m.last_end().map(|e| (e.winner, e.points))
                    },
                });
            }
            // A game under way ends here: the loser resigned, as gnubg reads
            // it: up to the cube a single game, up to twice the cube a
            // gammon, more a backgammon.
            let winner = side.ok_or(TurnError::NeedSide)?;
            let cube = m.cube().max(1);
            let level = if n <= cube {
                1
            } else if n <= 2 * cube {
                2
            } else {
                3
            };
            (winner.other(), level)
        }
        _ => return Ok(None),
    };
    m.act(Action::Resign { side: loser, level })
        .map_err(TurnError::Action)?;
    Ok(Some(Turn::Resign { side: loser, level }))
}

/// A roll and the move written after it (`52: 13/8 13/11`, `31:` alone,
/// `63: ???`, `21: pass`).
fn roll_entry(m: &mut Match, side: Option<Color>, body: &str) -> Result<Turn, TurnError> {
    let Some((d0, d1, rest)) = roll_prefix(body) else {
        return Err(TurnError::Unreadable(body.to_owned()));
    };
    let Some(dice) = Dice::new(d0, d1) else {
        return Err(TurnError::Roll(ActionError::BadDice));
    };
    // A roll written without its move, and the opponent's turn after it:
    // the roll is not played and the opponent plays on (gnubg's reading).
    let unplayed = m.phase() == Phase::Move
        && side.is_some_and(|s| s != m.board().turn())
        && m.games()
            .last()
            .and_then(|g| g.actions.last())
            .is_some_and(|a| matches!(a.1, Action::Roll(_)));
    if unplayed {
        m.skip_turn();
    }
    let (who, acted) = roll_part(m, side, d0, d1)?;
    let mv = rest.trim();
    let mv = mv.strip_prefix("move ").unwrap_or(mv).trim();
    // `63: ???` (eXtreme Gammon, Backgammon Studio): the roll was not
    // played before a resignation; gnubg reads it as nothing written.
    let mv = if mv.starts_with("???") { "" } else { mv };
    if mv.is_empty() {
        // Nothing written after the roll, as gnubg reads it: no legal move
        // is a pass, one legal move is played (a forced move left out), and
        // with more the player rolled and resigned.
        let legal = m.legal();
        match legal.as_slice() {
            [] => {}
            [only] => {
                let play = *only;
                m.act(Action::Move(play)).map_err(TurnError::Action)?;
                return Ok(Turn::Roll {
                    side: who,
                    dice: acted,
                    play,
                });
            }
            _ => {
                return Ok(Turn::Rolled {
                    side: who,
                    dice: acted,
                })
            }
        }
    }
    let mv = if mv.is_empty() || mv.eq_ignore_ascii_case("pass") {
        "pass"
    } else {
        mv
    };
    let move_err = |error| TurnError::Move {
        dice: dice.high_first(),
        error,
    };
    let a = m.parse_action(&format!("move {mv}")).map_err(move_err)?;
    let Action::Move(play) = a else {
        return Err(TurnError::Unreadable(body.to_owned()));
    };
    m.act(a).map_err(move_err)?;
    Ok(Turn::Roll {
        side: who,
        dice: acted,
        play,
    })
}

/// Rolls the dice of an entry on `m`: at a game's start the opening roll of
/// the side written (004 4.1: the higher die moves first with both).
fn roll_part(
    m: &mut Match,
    side: Option<Color>,
    d0: u8,
    d1: u8,
) -> Result<(Color, Dice), TurnError> {
    let dice = Dice::new(d0, d1).ok_or(TurnError::Roll(ActionError::BadDice))?;
    let (who, acted) = match m.phase() {
        Phase::Opening => {
            let who = side.ok_or(TurnError::NeedSide)?;
            if d0 == d1 {
                return Err(TurnError::Roll(ActionError::OpeningTie));
            }
            let (hi, lo) = (d0.max(d1), d0.min(d1));
            let d = match who {
                Color::White => Dice(hi, lo),
                Color::Black => Dice(lo, hi),
            };
            (who, d)
        }
        _ => {
            check_side(m, side)?;
            (m.to_act().unwrap_or(m.board().turn()), dice.high_first())
        }
    };
    m.act(Action::Roll(acted)).map_err(TurnError::Roll)?;
    Ok((who, acted))
}

/// The parts of an entry as written: the side, the dice (as written, for a
/// turn) and the rest (the move, or the cube action).
#[must_use]
pub fn entry_parts(text: &str) -> (Option<Color>, Option<(u8, u8)>, String) {
    let (side, body) = split_side(text);
    match roll_prefix(body) {
        Some((a, b, rest)) => (side, Some((a, b)), rest.to_owned()),
        None => (side, None, body.trim().to_owned()),
    }
}

/// The match after an entry's roll, and the move written after the dice
/// (`pass` for none): where a refused move is judged. `None` when the entry
/// is no turn or its roll is refused.
#[must_use]
pub fn after_roll(pos: &Match, text: &str) -> Option<(Match, String)> {
    let (side, body) = split_side(text);
    let (d0, d1, rest) = roll_prefix(body)?;
    let mut m = pos.clone();
    roll_part(&mut m, side, d0, d1).ok()?;
    let mv = rest.trim();
    let mv = mv.strip_prefix("move ").unwrap_or(mv).trim();
    // `63: ???` (eXtreme Gammon, Backgammon Studio): the roll was not
    // played before a resignation; gnubg reads it as nothing written.
    let mv = if mv.starts_with("???") { "" } else { mv };
    Some((
        m,
        if mv.is_empty() {
            "pass".to_owned()
        } else {
            mv.to_owned()
        },
    ))
}

/// A turn written as tandem writes it in a `.mat` file, in the position
/// `before` it: `52: 13/8 13/11` (the dice larger first), `doubles`,
/// `takes`, `drops`, `resigns 2`.
#[must_use]
pub fn turn_text(before: &Match, t: &Turn) -> String {
    match t {
        Turn::Roll { dice, play, .. } => {
            let mut m = before.clone();
            let board = match m.act(Action::Roll(*dice)) {
                Ok(()) => *m.board(),
                Err(_) => *before.board(),
            };
            let d = dice.high_first();
            if play.is_pass() {
                format!("{}{}:", d.0, d.1)
            } else {
                format!("{}{}: {}", d.0, d.1, notation::write(&board, play))
            }
        }
        Turn::Rolled { dice, .. } => {
            let d = dice.high_first();
            format!("{}{}:", d.0, d.1)
        }
        Turn::Double(_) => "doubles".to_owned(),
        Turn::Take(_) => "takes".to_owned(),
        Turn::Drop(_) => "drops".to_owned(),
        Turn::Resign { level, .. } => format!("resigns {level}"),
    }
}

/// Where the next entry by `side` stands in the record of `before`: the
/// game (1-based) and the line of that game's `.mat` record (1-based), as
/// gnubg numbers them (white's entry starts a line; black's shares white's
/// line when white's column is written, else starts one).
#[must_use]
pub fn entry_place(before: &Match, side: Color) -> (usize, usize) {
    let games = before.games();
    let new_game = before.phase() == Phase::Opening || games.is_empty();
    if new_game {
        return (games.len() + 1, 1);
    }
    let mut row = 0usize;
    let mut open = false;
    if let Some(g) = games.last() {
        for (who, a, _) in &g.actions {
            if matches!(a, Action::Roll(_) | Action::Resign { .. }) {
                continue;
            }
            match who {
                Color::White => {
                    row += 1;
                    open = true;
                }
                Color::Black => {
                    if !open {
                        row += 1;
                    }
                    open = false;
                }
            }
        }
    }
    let row = match side {
        Color::White => row + 1,
        Color::Black if open => row,
        Color::Black => row + 1,
    };
    (games.len(), row)
}

// ------------------------------------------------------ the comparison

/// A record replayed entry by entry: the match after each.
#[derive(Debug, Clone)]
pub struct BgRecordGame {
    positions: Vec<Match>,
    turns: Vec<Turn>,
    strict: Vec<String>,
}

impl BgRecordGame {
    /// A replay from `start`.
    #[must_use]
    pub fn new(start: Match) -> BgRecordGame {
        BgRecordGame {
            positions: vec![start.without_past_games()],
            turns: Vec::new(),
            strict: Vec::new(),
        }
    }

    fn play(&mut self, text: &str) -> Result<Turn, TurnError> {
        let before = self.current_position().clone();
        let mut m = before.clone();
        let t = play_entry(&mut m, text)?;
        self.strict
            .push(format!("{} {}", t.side().name(), turn_text(&before, &t)));
        self.turns.push(t);
        // Each position keeps its current game only: a long match would
        // otherwise hold its whole history at every turn.
        self.positions.push(m.without_past_games());
        Ok(t)
    }
}

/// A backgammon record replayed.
pub type BgReplay = RecordReplay<BgRecordGame>;

impl RecordedGame for BgRecordGame {
    /// The match as it stands (with its current game's actions: two
    /// records are at "the same position" only when they played the same
    /// turns in that game).
    type Position = Match;
    type Move = Turn;
    type Error = TurnError;
    type Key = String;
    // As in chess: two legal turns that differ are never "the same"; as in
    // draughts, a wrong entry whose followers agree is found first (a sheet
    // may add a game's `wins` line the journal does not have).
    const CLASSIFY: Classify = Classify {
        same_needs_both_illegal: true,
        wrong_move_first: true,
    };

    fn replay(start: &Match, texts: Vec<String>) -> BgReplay {
        generic::replay_with(BgRecordGame::new(start.clone()), texts, BgRecordGame::play)
    }

    fn play_in(pos: &Match, text: &str) -> Result<Turn, TurnError> {
        play_entry(&mut pos.clone(), text)
    }

    fn start_position(&self) -> &Match {
        &self.positions[0]
    }

    fn current_position(&self) -> &Match {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    fn position_after(&self, ply: usize) -> Option<&Match> {
        self.positions.get(ply)
    }

    fn played(&self) -> &[Turn] {
        &self.turns
    }

    fn strict_texts(&self, plies: usize) -> Vec<String> {
        self.strict[..plies.min(self.strict.len())].to_vec()
    }

    /// An entry's key is its text evened out ([`entry_key`]): a legal
    /// entry's strict text, an illegal one's (or one after it) as written.
    fn keys(_start: &Match, record: &BgReplay) -> Vec<String> {
        record
            .texts
            .iter()
            .enumerate()
            .map(|(i, t)| entry_key(record.game.strict.get(i).unwrap_or(t)))
            .collect()
    }
}

/// An entry's text evened out, so that two records written alike match
/// where they cannot be replayed (after a difference): the side's full
/// name, the dice larger first, lower case, `-` as `/`, `25` as `bar`, `0`
/// as `off`, no `*` (a hit depends on the position), single spaces.
#[must_use]
pub fn entry_key(text: &str) -> String {
    let (side, dice, rest) = entry_parts(text);
    let mut out = String::new();
    if let Some(s) = side {
        out.push_str(s.name());
        out.push(' ');
    }
    if let Some((a, b)) = dice {
        out.push_str(&format!("{}{}: ", a.max(b), a.min(b)));
    }
    // A hit depends on the position, which differs after a difference.
    let rest = rest.to_lowercase().replace('-', "/").replace('*', "");
    let steps: Vec<String> = rest
        .split_whitespace()
        .map(|w| {
            let w = w
                .strip_prefix("25/")
                .map_or_else(|| w.to_owned(), |r| format!("bar/{r}"));
            w.strip_suffix("/0")
                .map_or(w.clone(), |r| format!("{r}/off"))
        })
        .collect();
    out.push_str(&steps.join(" "));
    out.trim().to_owned()
}

/// The comparison of two backgammon records.
pub type BgReconciliation = generic::Reconciliation<BgRecordGame>;

/// Compares two records of one match (the entries of [`BgRecord::texts`](super::BgRecord::texts))
/// from a new match of `length` points.
#[must_use]
pub fn reconcile_match<S: AsRef<str>, T: AsRef<str>>(
    length: u32,
    a: &[S],
    b: &[T],
) -> BgReconciliation {
    generic::reconcile::<BgRecordGame, _, _>(&Match::new(MatchOptions { length }), a, b)
}
