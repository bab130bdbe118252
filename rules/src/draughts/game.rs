//! A game: the record of moves from a start position, with the results and
//! draw rules of 001 ch. I 6-7.
//!
//! Draw rules as encoded (each counts plies; "N moves" means N by each side):
//! - 6.1: the same position with the same side to move for the third time;
//! - 6.2: 25 moves (20 in 64) of kings only, no man moved and no capture;
//! - 6.3: three kings, two kings and a man, or a king and two men against a
//!   lone king: 16 moves each from the moment it arises (25 where the event
//!   plays draws with advantage, 6.5.3). In 64-square draughts instead: 5
//!   moves while the weaker side's king holds the whole main diagonal (a1-h8)
//!   with no piece of the stronger side on it; 15 moves for three kings
//!   against one when the stronger side occupies the main diagonal; otherwise
//!   6.2 applies (italic text of 6.3);
//! - 6.4: two kings, a king and a man, or a king, against a lone king: 5
//!   moves each.
//!
//! A counter starts at 0 on the ply that creates its situation and the game
//! is drawn when it reaches twice the limit. A loss (7.2.2, 7.2.3): the side to
//! move has no piece or no legal move.

use std::fmt;

use crate::draughts::mv::Move;
use crate::draughts::notation::{self, ResolveError};
use crate::draughts::position::Position;
use crate::draughts::types::Role;
use crate::draughts::variant::Variant;
use crate::{Color, DrawReason, GameOptions, Outcome, TableGame, WinReason};

/// A draw rule that is counting, with what players ask: how many moves are left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawCount {
    /// Which rule.
    pub rule: DrawRule,
    /// Its limit in moves of each side.
    pub limit: u32,
    /// Plies counted so far.
    pub plies: u32,
}

impl DrawCount {
    /// Moves left (of the side to move) before the draw.
    #[must_use]
    pub fn moves_left(&self) -> u32 {
        (2 * self.limit).saturating_sub(self.plies).div_ceil(2)
    }
}

/// The counting draw rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawRule {
    /// 6.2: kings only, no captures.
    KingMoves,
    /// 6.3 (international).
    Endgame16,
    /// 6.3 (64): the weaker side holds the main diagonal.
    MainDiagonal5,
    /// 6.3 (64): three kings against one, stronger side on the main diagonal.
    ThreeKings15,
    /// 6.4.
    Endgame5,
}

impl DrawRule {
    /// The article it encodes.
    #[must_use]
    pub fn article(self) -> &'static str {
        match self {
            DrawRule::KingMoves => "6.2",
            DrawRule::Endgame16 | DrawRule::MainDiagonal5 | DrawRule::ThreeKings15 => "6.3",
            DrawRule::Endgame5 => "6.4",
        }
    }

    fn reason(self) -> DrawReason {
        match self {
            DrawRule::KingMoves => DrawReason::KingMoves,
            DrawRule::Endgame16 | DrawRule::MainDiagonal5 | DrawRule::ThreeKings15 => {
                DrawReason::Endgame
            }
            DrawRule::Endgame5 => DrawReason::ShortEndgame,
        }
    }
}

/// Error from [`Game::play_text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The game has ended.
    GameOver(Outcome),
    /// The text did not name one legal move.
    Resolve(ResolveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(o) => write!(f, "the game is over ({})", o.pdn_result()),
            PlayError::Resolve(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game in progress or finished.
///
/// ```
/// use tandem_rules::draughts::{Game, Variant};
/// let mut g = Game::new(Variant::International);
/// g.play_text("32-28").unwrap();
/// g.play_text("19-23").unwrap();
/// g.play_text("28x19").unwrap();
/// assert_eq!(g.ply(), 3);
/// assert!(g.play_text("14-20").is_err()); // capture is compulsory
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    options: GameOptions,
    /// Positions: `[0]` the start, `[i]` after ply `i`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Draw counts after each ply (`[0]` at the start).
    counts: Vec<Counts>,
    /// An ending not from the board (resignation, agreement, time, arbiter).
    declared: Option<Outcome>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    king_plies: u32,
    endgame: Option<DrawCount>,
    /// Index of the first position since the last man move or capture.
    reversible_from: usize,
}

impl Game {
    /// A game from the start position.
    #[must_use]
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant), GameOptions::default())
    }

    /// A game from any position.
    #[must_use]
    pub fn from_position(start: Position, options: GameOptions) -> Game {
        let mut g = Game {
            options,
            positions: vec![start],
            moves: Vec::new(),
            counts: Vec::new(),
            declared: None,
        };
        let c = Counts {
            king_plies: 0,
            endgame: g.endgame_rule(&start).map(|(rule, limit)| DrawCount {
                rule,
                limit,
                plies: 0,
            }),
            reversible_from: 0,
        };
        g.counts.push(c);
        g
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.positions[0].variant()
    }

    /// Options.
    #[must_use]
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always holds its start position")
    }

    /// The position after `ply` plies (0 = the start).
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Strict notation of each move played.
    #[must_use]
    pub fn move_texts(&self) -> Vec<String> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| notation::write_move(&self.positions[i], m))
            .collect()
    }

    /// Moves made by `color` so far.
    #[must_use]
    pub fn moves_made(&self, color: Color) -> u32 {
        let first = self.positions[0].turn();
        let n = self.moves.len() as u32;
        if color == first {
            n.div_ceil(2)
        } else {
            n / 2
        }
    }

    /// Whether `color` may offer a draw yet (001 ch. II 5.1: after 40 moves
    /// each, 15 in 64).
    #[must_use]
    pub fn may_offer_draw(&self, color: Color) -> bool {
        self.moves_made(color) >= self.variant().draw_offer_min_moves()
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] after the end, [`PlayError::Resolve`] for an illegal move.
    pub fn play(&mut self, m: &Move) -> Result<(), PlayError> {
        self.check_not_over()?;
        let pos = *self.position();
        let Some(m) = pos.legal_moves().into_iter().find(|l| l == m) else {
            return Err(PlayError::Resolve(ResolveError::Unreachable {
                from: m.from(),
                to: m.to(),
            }));
        };
        self.push(pos, m);
        Ok(())
    }

    /// Resolves a move text (see [`notation::resolve`]) and plays it.
    ///
    /// # Errors
    /// As [`Game::play`], with the resolution error saying why.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        self.check_not_over()?;
        let pos = *self.position();
        let m = notation::resolve(&pos, text).map_err(PlayError::Resolve)?;
        self.push(pos, m);
        Ok(m)
    }

    fn check_not_over(&self) -> Result<(), PlayError> {
        match self.outcome() {
            Some(Outcome::Draw { reason })
                if self.options.play_on_after_rule_draw && self.declared.is_none() =>
            {
                let _ = reason;
                Ok(())
            }
            Some(o) => Err(PlayError::GameOver(o)),
            None => Ok(()),
        }
    }

    /// The draw by rule (6.1-6.4) the position has reached, if any.
    #[must_use]
    pub fn rule_draw(&self) -> Option<DrawReason> {
        match self.outcome() {
            Some(Outcome::Draw { reason }) if self.declared.is_none() => Some(reason),
            _ => None,
        }
    }

    fn push(&mut self, pos: Position, m: Move) {
        let mut next = pos;
        next.play_unchecked(&m);
        let prev = *self
            .counts
            .last()
            .expect("counts has one entry per position");
        let was_king = pos.piece_at(m.from()).is_some_and(|p| p.role == Role::King);
        let irreversible = m.is_capture() || !was_king;
        let king_plies = if irreversible { 0 } else { prev.king_plies + 1 };
        let endgame = self
            .endgame_rule(&next)
            .map(|(rule, limit)| match prev.endgame {
                Some(c) if c.rule == rule && !m.is_capture() => DrawCount {
                    plies: c.plies + 1,
                    ..c
                },
                _ => DrawCount {
                    rule,
                    limit,
                    plies: 0,
                },
            });
        let reversible_from = if irreversible {
            self.positions.len()
        } else {
            prev.reversible_from
        };
        self.positions.push(next);
        self.moves.push(m);
        self.counts.push(Counts {
            king_plies,
            endgame,
            reversible_from,
        });
    }

    /// Takes back the last ply (an arbiter's correction); `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.counts.pop();
        self.declared = None;
        Some(m)
    }

    /// Records an ending not from the board: resignation, agreement, a flag, the arbiter.
    pub fn declare(&mut self, outcome: Outcome) {
        if self.outcome().is_none() {
            self.declared = Some(outcome);
        }
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        let pos = self.position();
        let turn = pos.turn();
        let (men, kings) = pos.count(turn);
        if men + kings == 0 {
            return Some(Outcome::Win {
                winner: turn.other(),
                reason: WinReason::NoPieces,
            });
        }
        if pos.legal_moves().is_empty() {
            return Some(Outcome::Win {
                winner: turn.other(),
                reason: WinReason::Blocked,
            });
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw {
                reason: DrawReason::Repetition,
            });
        }
        self.draw_counts()
            .into_iter()
            .find(|c| c.plies >= 2 * c.limit)
            .map(|c| Outcome::Draw {
                reason: c.rule.reason(),
            })
    }

    /// How many times the current position (with the same side to move) has
    /// stood on the board, this time included (6.1).
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let c = self
            .counts
            .last()
            .expect("counts has one entry per position");
        let cur = self.position();
        self.positions[c.reversible_from..]
            .iter()
            .filter(|p| *p == cur)
            .count()
    }

    /// The draw rules counting now, with moves left.
    #[must_use]
    pub fn draw_counts(&self) -> Vec<DrawCount> {
        let c = self
            .counts
            .last()
            .expect("counts has one entry per position");
        let mut v = Vec::new();
        let limit = match self.variant() {
            Variant::International => 25,
            Variant::SixtyFour => 20,
        };
        if c.king_plies > 0 {
            v.push(DrawCount {
                rule: DrawRule::KingMoves,
                limit,
                plies: c.king_plies,
            });
        }
        if let Some(e) = c.endgame {
            v.push(e);
        }
        v
    }

    /// Draw with advantage (6.5.2): the side at least three men ahead, a king
    /// counting as two men. Not in 64.
    #[must_use]
    pub fn advantage(&self) -> Option<Color> {
        advantage(self.position())
    }

    /// Which endgame rule (6.3/6.4) applies to a position, with its limit.
    fn endgame_rule(&self, pos: &Position) -> Option<(DrawRule, u32)> {
        endgame_rule(pos, self.options)
    }
}

/// Draw with advantage (001 ch. I 6.5.2): a side with at least three men more,
/// a king counting as two; `None` in 64-square draughts (6.5 does not apply).
///
/// ```
/// use tandem_rules::draughts::game::advantage;
/// use tandem_rules::Color;
/// use tandem_rules::draughts::{Position, Variant};
/// let p = Position::from_fen(Variant::International, "W:W31,32,33,K34:B1,2").unwrap();
/// assert_eq!(advantage(&p), Some(Color::White)); // 5 against 2
/// let p = Position::from_fen(Variant::International, "W:W31,32,K33:B1,2").unwrap();
/// assert_eq!(advantage(&p), None); // 4 against 2
/// ```
#[must_use]
pub fn advantage(pos: &Position) -> Option<Color> {
    if pos.variant() == Variant::SixtyFour {
        return None;
    }
    let value = |c| {
        let (m, k) = pos.count(c);
        m as i32 + 2 * k as i32
    };
    let d = value(Color::White) - value(Color::Black);
    if d >= 3 {
        Some(Color::White)
    } else if d <= -3 {
        Some(Color::Black)
    } else {
        None
    }
}

fn endgame_rule(pos: &Position, options: GameOptions) -> Option<(DrawRule, u32)> {
    let w = pos.count(Color::White);
    let b = pos.count(Color::Black);
    // The weaker side has a lone king.
    let (strong, weak_color) = if b == (0, 1) {
        (w, Color::Black)
    } else if w == (0, 1) {
        (b, Color::White)
    } else {
        return None;
    };
    let (men, kings) = strong;
    let six_four = matches!((men, kings), (0, 2) | (1, 1) | (0, 1));
    let six_three = matches!((men, kings), (0, 3) | (1, 2) | (2, 1));
    if six_four {
        return Some((DrawRule::Endgame5, 5));
    }
    if !six_three {
        return None;
    }
    match pos.variant() {
        Variant::International => Some((
            DrawRule::Endgame16,
            if options.draws_with_advantage { 25 } else { 16 },
        )),
        Variant::SixtyFour => {
            let diag: Vec<_> = (0..8)
                .filter_map(|i| pos.variant().square_at(7 - i, i))
                .collect();
            let on = |c: Color| {
                diag.iter()
                    .any(|&s| pos.piece_at(s).is_some_and(|p| p.color == c))
            };
            if on(weak_color) && !on(weak_color.other()) {
                Some((DrawRule::MainDiagonal5, 5))
            } else if (men, kings) == (0, 3) && on(weak_color.other()) {
                Some((DrawRule::ThreeKings15, 15))
            } else {
                None
            }
        }
    }
}

/// Draughts behind the shared [`TableGame`]:
///
/// ```
/// use tandem_rules::draughts::{Game, Variant};
/// use tandem_rules::TableGame;
/// fn play_all<G: TableGame>(g: &mut G, moves: &[&str]) -> Result<(), G::Error> {
///     for m in moves {
///         let mv = g.resolve_text(m)?;
///         g.play_move(&mv)?;
///     }
///     Ok(())
/// }
/// let mut g = Game::new(Variant::International);
/// play_all(&mut g, &["32-28", "19-23", "28x19"]).unwrap();
/// assert_eq!(g.plies(), 3);
/// assert_eq!(g.record(), ["32-28", "19-23", "28x19"]);
/// ```
impl TableGame for Game {
    type Move = Move;
    type Error = PlayError;

    fn game_name(&self) -> &'static str {
        self.variant().name()
    }

    fn side_to_move(&self) -> Color {
        self.position().turn()
    }

    fn plies(&self) -> usize {
        self.ply()
    }

    fn moves_by(&self, side: Color) -> u32 {
        self.moves_made(side)
    }

    fn position_text(&self) -> String {
        self.position().to_fen()
    }

    fn legal(&self) -> Vec<Self::Move> {
        self.position().legal_moves()
    }

    fn resolve_text(&self, text: &str) -> Result<Self::Move, Self::Error> {
        notation::resolve(self.position(), text).map_err(PlayError::Resolve)
    }

    fn move_text(&self, m: &Self::Move) -> String {
        notation::write_move(self.position(), m)
    }

    fn play_move(&mut self, m: &Self::Move) -> Result<(), Self::Error> {
        self.play(m)
    }

    fn take_back(&mut self) -> Option<Self::Move> {
        self.undo()
    }

    fn result(&self) -> Option<Outcome> {
        self.outcome()
    }

    fn end(&mut self, outcome: Outcome) {
        self.declare(outcome);
    }

    fn draw_offer_allowed(&self, side: Color) -> bool {
        self.may_offer_draw(side)
    }

    fn record(&self) -> Vec<String> {
        self.move_texts()
    }
}
