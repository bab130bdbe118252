//! The game behind a trait: what the daemon, the arbiter tools and the record
//! keeping need from any game played at the table. Draughts, chess (FIDE annex E, through `shakmaty`) and backgammon
//! (EUBGF) implement it, each with its own move type and notation,
//! so that they join without touching the daemon.
//!
//! Everything here speaks in move *text* at the edges (what players say,
//! type and record) and in the game's own move type inside.

use std::fmt;

use crate::Color;
use crate::Outcome;

/// A game played at the table by two sides taking turns. Each game's
/// `impl TableGame` shows it at work (draughts' `Game`: a doc example that
/// plays a record through this trait alone).
pub trait TableGame: Clone + Send + 'static {
    /// A legal move of this game.
    type Move: Copy + Eq + fmt::Debug + Send;
    /// Why a move text or a move was refused; its `Display` is for logs,
    /// the speech layer words it for players.
    type Error: std::error::Error + Clone + Send;

    /// The game's name as the command line writes it (`international`, `sixty-four`, `chess`).
    fn game_name(&self) -> &'static str;
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// Plies played so far.
    fn plies(&self) -> usize;
    /// Moves made by a side (the clock's and ch. VIII 5.1's count).
    fn moves_by(&self, side: Color) -> u32;
    /// The current position in the game's text format (PDN FEN, chess FEN).
    fn position_text(&self) -> String;
    /// The legal moves.
    fn legal(&self) -> Vec<Self::Move>;
    /// Reads a move as a player writes or says it, against the position.
    ///
    /// # Errors
    /// Why the text names no single legal move.
    fn resolve_text(&self, text: &str) -> Result<Self::Move, Self::Error>;
    /// The strict notation of a legal move in the current position.
    fn move_text(&self, m: &Self::Move) -> String;
    /// Plays a legal move.
    ///
    /// # Errors
    /// The move is not legal, or the game is over.
    fn play_move(&mut self, m: &Self::Move) -> Result<(), Self::Error>;
    /// Takes back the last ply (an arbiter's correction).
    fn take_back(&mut self) -> Option<Self::Move>;
    /// How the game ended, if it has.
    fn result(&self) -> Option<Outcome>;
    /// Records an ending not from the board (resignation, agreement, time, arbiter).
    fn end(&mut self, outcome: Outcome);
    /// Whether a side may offer a draw yet.
    fn draw_offer_allowed(&self, side: Color) -> bool;
    /// The record in strict notation, one entry a ply.
    fn record(&self) -> Vec<String>;
}
