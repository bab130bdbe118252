//! The game at the table, draughts or chess, behind one face for the
//! session actor, the journal replay, the export and the arbiter tools.
//!
//! The rules crate keeps each game behind the [`TableGame`] trait; the
//! session needs more than the trait (the position for braille and voice,
//! the announcer that words a move from the position before it), so it holds
//! an [`AnyGame`] and asks it, and the words come from [`GameWords`], which
//! holds the draughts [`Announcer`] (the clock, warnings, sync and the other
//! game-independent phrases) and the [`ChessAnnouncer`] (002 annex E).
//!
//! Adding a game (backgammon) means a variant here, its phrasebook, and its
//! braille view; the session itself does not change.

use tandem_rules::chess::shakmaty::{Chess, Position as _};
use tandem_rules::chess::{self, ChessGame, ChessOptions};
use tandem_rules::{
    notation, Color, DrawReason, Game, GameOptions, Outcome, Position, TableGame, Variant,
};
use tandem_speech::chess::{ChessAnnouncer, ChessPhrasebook, FileStyle};
use tandem_speech::{Announcer, Utterance};

/// Which game: draughts of a variant, or chess (`--variant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    /// International or 64-square draughts.
    Draughts(Variant),
    /// Chess.
    Chess,
}

impl GameKind {
    /// The name on the command line, in JSON and in the journal.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Draughts(v) => v.name(),
            GameKind::Chess => "chess",
        }
    }

    /// The start position of this game, or the one a FEN gives.
    ///
    /// # Errors
    /// The FEN does not parse for this game.
    pub fn position(self, fen: Option<&str>) -> anyhow::Result<AnyPosition> {
        Ok(match (self, fen) {
            (GameKind::Draughts(v), None) => AnyPosition::Draughts(Position::start(v)),
            (GameKind::Draughts(v), Some(f)) => AnyPosition::Draughts(
                Position::from_fen(v, f).map_err(|e| anyhow::anyhow!("FEN {f:?}: {e}"))?,
            ),
            (GameKind::Chess, None) => AnyPosition::Chess(Box::new(chess::start())),
            (GameKind::Chess, Some(f)) => AnyPosition::Chess(Box::new(
                chess::from_fen(f).map_err(|e| anyhow::anyhow!("FEN {f:?}: {e}"))?,
            )),
        })
    }
}

/// An unknown `--variant` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseGameKindError(pub String);

impl std::fmt::Display for ParseGameKindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown variant {:?} (expected international, sixty-four or chess)",
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
}

impl AnyPosition {
    /// Whose move it is.
    #[must_use]
    pub fn turn(&self) -> Color {
        match self {
            AnyPosition::Draughts(p) => p.turn(),
            AnyPosition::Chess(p) => p.turn().into(),
        }
    }

    /// The game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Draughts(p) => GameKind::Draughts(p.variant()),
            AnyPosition::Chess(_) => GameKind::Chess,
        }
    }

    /// FEN (PDN FEN for draughts).
    #[must_use]
    pub fn to_fen(&self) -> String {
        match self {
            AnyPosition::Draughts(p) => p.to_fen(),
            AnyPosition::Chess(p) => chess::to_fen(p),
        }
    }
}

/// The game at the table.
#[derive(Debug, Clone)]
pub enum AnyGame {
    /// Draughts (001).
    Draughts(Game),
    /// Chess (002).
    Chess(Box<ChessGame>),
}

/// A move checked against the rules, ready to journal and announce.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The move in strict notation (`32-28`, SAN `Nf3`): what the journal keeps.
    pub text: String,
    /// Its announcement (001 ch. VIII 2.2; 002 annex E.2).
    pub announce: Utterance,
}

/// A move the rules refuse.
#[derive(Debug, Clone)]
pub struct Refused {
    /// The reason, for the log and the control socket.
    pub reason: String,
    /// The reason in the player's words.
    pub say: Utterance,
}

impl AnyGame {
    /// A game from its journal start: `variant` (`international`,
    /// `sixty-four`, `chess`) and start FEN.
    ///
    /// # Errors
    /// An unknown variant or a bad FEN.
    pub fn new(variant: &str, fen: &str, options: GameOptions) -> anyhow::Result<AnyGame> {
        let kind: GameKind = variant.parse()?;
        Ok(AnyGame::from_position(kind.position(Some(fen))?, options))
    }

    /// A game from a start position.
    #[must_use]
    pub fn from_position(start: AnyPosition, options: GameOptions) -> AnyGame {
        match start {
            AnyPosition::Draughts(p) => AnyGame::Draughts(Game::from_position(p, options)),
            AnyPosition::Chess(p) => AnyGame::Chess(Box::new(ChessGame::from_position(
                *p,
                ChessOptions::default(),
            ))),
        }
    }

    fn table(&self) -> &dyn DynGame {
        match self {
            AnyGame::Draughts(g) => g,
            AnyGame::Chess(g) => g.as_ref(),
        }
    }

    fn table_mut(&mut self) -> &mut dyn DynGame {
        match self {
            AnyGame::Draughts(g) => g,
            AnyGame::Chess(g) => g.as_mut(),
        }
    }

    /// The game's name as `--variant` takes it.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Draughts(g) => GameKind::Draughts(g.variant()),
            AnyGame::Chess(_) => GameKind::Chess,
        }
    }

    /// Chess?
    #[must_use]
    pub fn is_chess(&self) -> bool {
        matches!(self, AnyGame::Chess(_))
    }

    /// The draughts game, if it is one.
    #[must_use]
    pub fn draughts(&self) -> Option<&Game> {
        match self {
            AnyGame::Draughts(g) => Some(g),
            AnyGame::Chess(_) => None,
        }
    }

    /// The chess game, if it is one.
    #[must_use]
    pub fn chess(&self) -> Option<&ChessGame> {
        match self {
            AnyGame::Chess(g) => Some(g),
            AnyGame::Draughts(_) => None,
        }
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.table().plies()
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.table().side_to_move()
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> AnyPosition {
        match self {
            AnyGame::Draughts(g) => AnyPosition::Draughts(*g.position()),
            AnyGame::Chess(g) => AnyPosition::Chess(Box::new(g.position().clone())),
        }
    }

    /// The position after `ply` plies.
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<AnyPosition> {
        match self {
            AnyGame::Draughts(g) => g.position_at(ply).map(|p| AnyPosition::Draughts(*p)),
            AnyGame::Chess(g) => g
                .position_at(ply)
                .map(|p| AnyPosition::Chess(Box::new(p.clone()))),
        }
    }

    /// The current position as FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        self.table().position_text()
    }

    /// The moves in strict notation.
    #[must_use]
    pub fn move_texts(&self) -> Vec<String> {
        self.table().record()
    }

    /// The last move in strict notation (the braille status line).
    #[must_use]
    pub fn last_move_text(&self) -> Option<String> {
        let i = self.ply().checked_sub(1)?;
        match self {
            AnyGame::Draughts(g) => {
                Some(notation::write_move(g.position_at(i)?, g.moves().get(i)?))
            }
            AnyGame::Chess(g) => g.sans().get(i).cloned(),
        }
    }

    /// How the game ended, if it did.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.table().result()
    }

    /// The result as its record writes it: PDN (`2-0`) or PGN (`1-0`).
    #[must_use]
    pub fn result_text(&self, outcome: Option<Outcome>) -> &'static str {
        match (self, outcome) {
            (AnyGame::Chess(_), o) => chess::pgn_result(o),
            (AnyGame::Draughts(_), Some(o)) => o.pdn_result(),
            (AnyGame::Draughts(_), None) => "*",
        }
    }

    /// Ends the game (resignation, agreement, time, the arbiter).
    pub fn declare(&mut self, outcome: Outcome) {
        self.table_mut().end(outcome);
    }

    /// Takes the last move back.
    pub fn undo(&mut self) {
        self.table_mut().take_back();
    }

    /// Moves `side` has made.
    #[must_use]
    pub fn moves_made(&self, side: Color) -> u32 {
        self.table().moves_by(side)
    }

    /// Whether `side` may offer a draw now (001 ch. II 5.1; chess: any time
    /// after one's own move, 002 art. 9.1(b)).
    #[must_use]
    pub fn may_offer_draw(&self, side: Color) -> bool {
        self.table().draw_offer_allowed(side)
    }

    /// Moves each side must have made before offering a draw.
    #[must_use]
    pub fn draw_offer_min_moves(&self) -> u32 {
        match self {
            AnyGame::Draughts(g) => g.variant().draw_offer_min_moves(),
            AnyGame::Chess(g) => g.options().draw_offer_min_moves,
        }
    }

    /// Plays a move from its text (journal replay: the text was checked
    /// when it was written).
    ///
    /// # Errors
    /// The rules refuse it (a journal written by another program).
    pub fn play_text(&mut self, text: &str) -> anyhow::Result<()> {
        match self {
            AnyGame::Draughts(g) => g
                .play_text(text)
                .map(|_| ())
                .map_err(|e| anyhow::anyhow!("{e}")),
            AnyGame::Chess(g) => g
                .play_text(text)
                .map(|_| ())
                .map_err(|e| anyhow::anyhow!("{e}")),
        }
    }

    /// Checks a move typed, spoken or routed in the current position, in
    /// strict notation with its announcement, or refused with the reason.
    ///
    /// # Errors
    /// The rules refuse the move: the reason, worded for the player.
    pub fn prepare(&self, text: &str, words: &GameWords) -> Result<Prepared, Refused> {
        match self {
            AnyGame::Draughts(g) => {
                let before = g.position();
                match notation::resolve(before, text) {
                    Ok(m) => Ok(Prepared {
                        text: notation::write_move(before, &m),
                        announce: words.draughts.on_move(before, &m),
                    }),
                    Err(e) => Err(Refused {
                        reason: e.to_string(),
                        say: words.draughts.on_rejected(before, text, &e),
                    }),
                }
            }
            AnyGame::Chess(g) => {
                let before = g.position();
                match chess::resolve(before, text) {
                    Ok(m) => Ok(Prepared {
                        text: chess::san(before, &m),
                        announce: words.chess.on_move(before, &m),
                    }),
                    Err(e) => Err(Refused {
                        reason: e.to_string(),
                        say: words.chess.on_rejected(text, &e),
                    }),
                }
            }
        }
    }

    /// The draw the player on move may claim now (chess, 002 art. 9.2, 9.3).
    #[must_use]
    pub fn claimable_draw(&self) -> Option<DrawReason> {
        self.chess().and_then(ChessGame::claimable_draw)
    }

    /// A flag fell for `side`: the opponent wins, unless (chess, 002 art.
    /// 6.9) the opponent cannot checkmate by any series of legal moves.
    #[must_use]
    pub fn flag_outcome(&self, side: Color) -> Outcome {
        if let AnyGame::Chess(g) = self {
            if g.position().has_insufficient_material(side.other().into()) {
                return Outcome::Draw {
                    reason: DrawReason::FlagNoMate,
                };
            }
        }
        Outcome::Win {
            winner: side.other(),
            reason: tandem_rules::WinReason::Time,
        }
    }
}

/// The trait object the session's common questions go through.
trait DynGame {
    fn side_to_move(&self) -> Color;
    fn plies(&self) -> usize;
    fn moves_by(&self, side: Color) -> u32;
    fn position_text(&self) -> String;
    fn take_back(&mut self);
    fn result(&self) -> Option<Outcome>;
    fn end(&mut self, outcome: Outcome);
    fn draw_offer_allowed(&self, side: Color) -> bool;
    fn record(&self) -> Vec<String>;
}

impl<G: TableGame> DynGame for G {
    fn side_to_move(&self) -> Color {
        TableGame::side_to_move(self)
    }
    fn plies(&self) -> usize {
        TableGame::plies(self)
    }
    fn moves_by(&self, side: Color) -> u32 {
        TableGame::moves_by(self, side)
    }
    fn position_text(&self) -> String {
        TableGame::position_text(self)
    }
    fn take_back(&mut self) {
        let _ = TableGame::take_back(self);
    }
    fn result(&self) -> Option<Outcome> {
        TableGame::result(self)
    }
    fn end(&mut self, outcome: Outcome) {
        TableGame::end(self, outcome);
    }
    fn draw_offer_allowed(&self, side: Color) -> bool {
        TableGame::draw_offer_allowed(self, side)
    }
    fn record(&self) -> Vec<String> {
        TableGame::record(self)
    }
}

/// The words of the table: the draughts announcer (clock, warnings, sync and
/// the other phrases every game shares) and the chess announcer.
#[derive(Debug, Clone)]
pub struct GameWords {
    /// Draughts, and what every game shares.
    pub draughts: Announcer,
    /// Chess (002 annex E).
    pub chess: ChessAnnouncer,
}

impl GameWords {
    /// The words in `lang` (`pl`, `en`; English for another).
    #[must_use]
    pub fn new(draughts: Announcer, lang: &str) -> GameWords {
        let book = ChessPhrasebook::builtin(lang).unwrap_or_else(ChessPhrasebook::english);
        GameWords {
            draughts,
            chess: ChessAnnouncer::new(book, FileStyle::Names),
        }
    }

    /// The whole position read out.
    #[must_use]
    pub fn describe_position(&self, game: &AnyGame) -> Utterance {
        match game {
            AnyGame::Draughts(g) => self.draughts.describe_position(g.position()),
            AnyGame::Chess(g) => self.chess.describe_position(g.position()),
        }
    }

    /// The last move again.
    #[must_use]
    pub fn last_move(&self, game: &AnyGame) -> Utterance {
        let last = game.ply().checked_sub(1);
        match game {
            AnyGame::Draughts(g) => {
                let last = last.and_then(|i| Some((*g.position_at(i)?, g.moves()[i])));
                self.draughts.last_move(last.as_ref().map(|(p, m)| (p, m)))
            }
            AnyGame::Chess(g) => {
                let last = last.and_then(|i| Some((g.position_at(i)?.clone(), g.moves()[i])));
                self.chess.last_move(last.as_ref().map(|(p, m)| (p, m)))
            }
        }
    }

    /// A board that shows ply `at`: `behind` plies behind; the first move to make.
    #[must_use]
    pub fn board_behind(&self, game: &AnyGame, at: usize, behind: u32) -> Option<Utterance> {
        match game {
            AnyGame::Draughts(g) => {
                let (before, m) = (g.position_at(at)?, g.moves().get(at)?);
                Some(self.draughts.board_behind(behind, before, m))
            }
            AnyGame::Chess(g) => {
                let (before, m) = (g.position_at(at)?, g.moves().get(at)?);
                Some(self.chess.board_behind(behind, before, m))
            }
        }
    }

    /// Both boards agree.
    #[must_use]
    pub fn boards_in_sync(&self, game: &AnyGame) -> Utterance {
        if game.is_chess() {
            self.chess.boards_in_sync()
        } else {
            self.draughts.boards_in_sync()
        }
    }

    /// How the game ended.
    #[must_use]
    pub fn game_over(&self, game: &AnyGame, outcome: &Outcome) -> Utterance {
        match game {
            AnyGame::Draughts(g) => self.draughts.game_over(g.variant(), outcome),
            AnyGame::Chess(_) => self.chess.game_over(outcome),
        }
    }

    /// How to play.
    #[must_use]
    pub fn help(&self, game: &AnyGame) -> Utterance {
        if game.is_chess() {
            self.chess.help()
        } else {
            self.draughts.help()
        }
    }

    /// What follows a move that did not end the game: draughts warns of a
    /// second repetition (001 ch. I 6.1); chess says a draw may be claimed
    /// (002 art. 9.2, 9.3).
    #[must_use]
    pub fn after_move(&self, game: &AnyGame) -> Option<Utterance> {
        match game {
            AnyGame::Draughts(g) => {
                (g.repetitions() == 2).then(|| self.draughts.repetition_warning())
            }
            AnyGame::Chess(g) => g.claimable_draw().and_then(|r| self.chess.claimable(r)),
        }
    }
}
