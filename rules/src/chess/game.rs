//! [`ChessGame`]: the record of a chess game with its results and draw rules.
//!
//! As the seed's Laws (002, FIDE 2009) have them:
//! - ends at once: checkmate (art. 5.1(a)), stalemate (5.2(a)), a dead
//!   position (5.2(b), 9.6; decided as shakmaty's insufficient material:
//!   K v K, K+minor v K, bishops of one colour only);
//! - drawn on a claim by the player on move ([`ChessGame::claim_draw`]): the
//!   same position for the third time (9.2, positions identical with the
//!   same side to move, castling and en passant rights) or 50 moves of each
//!   side without a pawn move or capture (9.3). Until claimed, play goes on
//!   ([`ChessGame::claimable_draw`] tells the assistant to say so);
//! - resignation, agreement, time, arbiter: [`ChessGame::declare`].

use shakmaty::{Chess, Color as ShColor, Position};

use super::error::{ChessError, IllegalReason};
use super::mv::ChessMove;
pub use super::result::pgn_result;
use super::text::{resolve, san};
use crate::Color;
use crate::{DrawReason, Outcome, WinReason};

/// Event options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ChessOptions {
    /// Moves each side must have made before a draw offer (the Laws set
    /// none; events may, e.g. "no draw before move 30").
    #[serde(default)]
    pub draw_offer_min_moves: u32,
}

/// shakmaty's side as the side every game here uses.
impl From<ShColor> for Color {
    fn from(c: ShColor) -> Color {
        match c {
            ShColor::White => Color::White,
            ShColor::Black => Color::Black,
        }
    }
}

/// A side as shakmaty's.
impl From<Color> for ShColor {
    fn from(c: Color) -> ShColor {
        match c {
            Color::White => ShColor::White,
            Color::Black => ShColor::Black,
        }
    }
}

/// A chess game in progress or finished.
///
/// ```
/// use tandem_rules::chess::ChessGame;
/// use tandem_rules::{Outcome, WinReason, Color};
/// let mut g = ChessGame::new();
/// for m in ["f3", "e5", "g4", "Qh4#"] { g.play_text(m).unwrap(); }
/// assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Black, reason: WinReason::Checkmate }));
/// assert!(g.play_text("a3").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct ChessGame {
    options: ChessOptions,
    /// `[0]` the start, `[i]` after ply `i`.
    positions: Vec<Chess>,
    moves: Vec<ChessMove>,
    sans: Vec<String>,
    declared: Option<Outcome>,
    /// Replaying a record that goes on past a dead position: the moves
    /// after it are played ([`ChessGame::play_on_past_dead_position`]).
    play_on_dead: bool,
}

impl Default for ChessGame {
    fn default() -> ChessGame {
        ChessGame::new()
    }
}

impl ChessGame {
    /// A game from the standard start position.
    #[must_use]
    pub fn new() -> ChessGame {
        ChessGame::from_position(Chess::default(), ChessOptions::default())
    }

    /// A game from any legal position.
    #[must_use]
    pub fn from_position(start: Chess, options: ChessOptions) -> ChessGame {
        ChessGame {
            options,
            positions: vec![start],
            moves: Vec::new(),
            sans: Vec::new(),
            declared: None,
            play_on_dead: false,
        }
    }

    /// A game from FEN.
    ///
    /// # Errors
    /// [`ChessError::Fen`].
    pub fn from_fen(fen: &str) -> Result<ChessGame, ChessError> {
        Ok(ChessGame::from_position(
            super::from_fen(fen)?,
            ChessOptions::default(),
        ))
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Chess {
        self.positions
            .last()
            .expect("a game always holds its start position")
    }

    /// The position after `ply` plies (0 = the start).
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<&Chess> {
        self.positions.get(ply)
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[ChessMove] {
        &self.moves
    }

    /// SAN of each move played.
    #[must_use]
    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The legal moves now.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<ChessMove> {
        self.position()
            .legal_moves()
            .iter()
            .map(ChessMove::from_shakmaty)
            .collect()
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`ChessError::GameOver`] after the end, [`ChessError::Illegal`] for a move that is not legal.
    pub fn play(&mut self, m: &ChessMove) -> Result<(), ChessError> {
        self.check_not_over()?;
        if !self.legal_moves().contains(m) {
            return Err(ChessError::Illegal {
                text: m.uci(),
                reason: IllegalReason::CannotReach {
                    role: m.role,
                    from: m.from,
                    to: m.to,
                },
            });
        }
        self.push(*m);
        Ok(())
    }

    /// Resolves a move text ([`super::resolve`]) and plays it.
    ///
    /// # Errors
    /// As [`ChessGame::play`], with the resolution error saying why.
    pub fn play_text(&mut self, text: &str) -> Result<ChessMove, ChessError> {
        self.check_not_over()?;
        let m = resolve(self.position(), text)?;
        self.push(m);
        Ok(m)
    }

    fn push(&mut self, m: ChessMove) {
        let pos = self.position();
        let s = san(pos, &m);
        let mut next = pos.clone();
        next.play_unchecked(&m.to_shakmaty());
        self.positions.push(next);
        self.moves.push(m);
        self.sans.push(s);
    }

    fn check_not_over(&self) -> Result<(), ChessError> {
        match self.outcome() {
            Some(Outcome::Draw {
                reason: DrawReason::DeadPosition,
            }) if self.play_on_dead && self.declared.is_none() => Ok(()),
            Some(o) => Err(ChessError::GameOver(o)),
            None => Ok(()),
        }
    }

    /// Lets the moves a record holds after a dead position be played: the
    /// game was drawn when the position arose (FIDE Laws 5.2.2), but players
    /// sometimes play on and a record replayed as written goes on with them
    /// ([`ChessGame::dead_position_ply`] says where it was drawn). Checkmate
    /// and stalemate still end the game.
    pub fn play_on_past_dead_position(&mut self) {
        self.play_on_dead = true;
    }

    /// The ply after which a dead position first stood on the board (0: the
    /// start), if one did (FIDE Laws 5.2.2; decided as insufficient
    /// material, as [`ChessGame::outcome`]).
    #[must_use]
    pub fn dead_position_ply(&self) -> Option<usize> {
        self.positions
            .iter()
            .position(Position::is_insufficient_material)
    }

    /// Whether the game castles by Chess960's rules (a Chess960 start).
    #[must_use]
    pub fn is_chess960(&self) -> bool {
        super::is_chess960(self.start())
    }

    /// Takes back the last ply; `None` at the start. A declared ending is
    /// cleared too (an arbiter's correction).
    pub fn undo(&mut self) -> Option<ChessMove> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.sans.pop();
        self.declared = None;
        Some(m)
    }

    /// Records an ending not from the board (resignation, agreement, time, arbiter).
    pub fn declare(&mut self, outcome: Outcome) {
        if self.outcome().is_none() {
            self.declared = Some(outcome);
        }
    }

    /// How the game ended, if it has: a declared ending, or checkmate,
    /// stalemate or a dead position on the board.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        let pos = self.position();
        if pos.is_checkmate() {
            return Some(Outcome::Win {
                winner: Color::from(!pos.turn()),
                reason: WinReason::Checkmate,
            });
        }
        if pos.is_stalemate() {
            return Some(Outcome::Draw {
                reason: DrawReason::Stalemate,
            });
        }
        if pos.is_insufficient_material() {
            return Some(Outcome::Draw {
                reason: DrawReason::DeadPosition,
            });
        }
        None
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// How many times the current position has stood on the board, this
    /// time included (002 art. 9.2: same pieces on the same squares, same
    /// side to move, same castling and en passant possibilities).
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        // Positions before the last pawn move or capture cannot repeat.
        let back = (cur.halfmoves() as usize).min(self.positions.len() - 1);
        let from = self.positions.len() - 1 - back;
        self.positions[from..].iter().filter(|p| *p == cur).count()
    }

    /// Moves of each side since the last pawn move or capture, rounded down
    /// (002 art. 9.3 counts 50).
    #[must_use]
    pub fn quiet_moves(&self) -> u32 {
        self.position().halfmoves() / 2
    }

    /// The draw the player on move may claim now, if any (002 art. 9.2(b), 9.3(b)).
    #[must_use]
    pub fn claimable_draw(&self) -> Option<DrawReason> {
        if self.outcome().is_some() {
            return None;
        }
        if self.repetitions() >= 3 {
            Some(DrawReason::Repetition)
        } else if self.position().halfmoves() >= 100 {
            Some(DrawReason::FiftyMoves)
        } else {
            None
        }
    }

    /// The player on move claims a draw (002 art. 9.2, 9.3); a valid claim
    /// ends the game.
    ///
    /// # Errors
    /// [`ChessError::NoClaim`] when the claim is not valid (9.5(b): the
    /// arbiter adds time to the opponent and play goes on).
    pub fn claim_draw(&mut self) -> Result<Outcome, ChessError> {
        let reason = self.claimable_draw().ok_or(ChessError::NoClaim)?;
        let o = Outcome::Draw { reason };
        self.declared = Some(o);
        Ok(o)
    }

    /// Moves made by `side` so far.
    #[must_use]
    pub fn moves_made(&self, side: Color) -> u32 {
        let first = Color::from(self.positions[0].turn());
        let n = self.moves.len() as u32;
        if side == first {
            n.div_ceil(2)
        } else {
            n / 2
        }
    }

    /// Options.
    #[must_use]
    pub fn options(&self) -> ChessOptions {
        self.options
    }
}

impl crate::TableGame for ChessGame {
    type Move = ChessMove;
    type Error = ChessError;

    fn game_name(&self) -> &'static str {
        "chess"
    }

    fn side_to_move(&self) -> Color {
        Color::from(self.position().turn())
    }

    fn plies(&self) -> usize {
        self.ply()
    }

    fn moves_by(&self, side: Color) -> u32 {
        self.moves_made(side)
    }

    fn position_text(&self) -> String {
        super::to_fen(self.position())
    }

    fn legal(&self) -> Vec<ChessMove> {
        self.legal_moves()
    }

    fn resolve_text(&self, text: &str) -> Result<ChessMove, ChessError> {
        resolve(self.position(), text)
    }

    fn move_text(&self, m: &ChessMove) -> String {
        san(self.position(), m)
    }

    fn play_move(&mut self, m: &ChessMove) -> Result<(), ChessError> {
        self.play(m)
    }

    fn take_back(&mut self) -> Option<ChessMove> {
        self.undo()
    }

    fn result(&self) -> Option<Outcome> {
        self.outcome()
    }

    fn end(&mut self, outcome: Outcome) {
        self.declare(outcome);
    }

    fn draw_offer_allowed(&self, side: Color) -> bool {
        self.moves_made(side) >= self.options.draw_offer_min_moves
    }

    fn record(&self) -> Vec<String> {
        self.sans.clone()
    }
}
