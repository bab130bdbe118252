//! Chess at the table (002, annex E), behind [`Game`]. Rules:
//! `tandem_rules::chess` (shakmaty); words: the speech crate's
//! [`ChessAnnouncer`]; braille: the chess renderer; voice: the speech
//! crate's chess listener; record: PGN.

pub mod arbiter;
pub mod book;
pub mod braille;
pub mod ear;
pub mod eboard;
pub mod one_shot;
pub mod options;
pub mod picture;

use std::fmt::Write as _;

use tandem_braille::chess::ChessRenderer;
use tandem_braille::driver::DriverInput;
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::chess::arbiter::{compare_chess_readback, parse_chess_readback};
use tandem_rules::chess::shakmaty::{Board, Chess, File, Piece, Position as _, Rank};
use tandem_rules::chess::{self, ChessGame, ChessMove, ChessOptions};
use tandem_rules::{Color, DrawReason, Outcome, TableGame};
use tandem_speech::chess::{ChessAnnouncer, ChessPhrasebook, FileStyle};
use tandem_speech::{Phrasebook, Utterance};

use tandem_speech::chess::listen::{ChessSaid, ChessVoice, ChessWords};
use tandem_speech::listen::{Decision, Listener};
use tandem_speech::Announcer;

use super::{BoardCheck, BoardNotRead, Game, Prepared, Refused};
use crate::kind::{AnyPosition, GameKind};
use crate::voice::VoiceGame;

/// A chess game with its words.
#[derive(Debug, Clone)]
pub struct ChessTable {
    game: ChessGame,
    words: ChessAnnouncer,
    /// Refusals may name the pieces that could move (off in a rated game).
    hints: bool,
}

impl ChessTable {
    /// A game from `start`, spoken in `lang` (`pl`, `en`; English for another).
    #[must_use]
    pub fn new(start: Chess, lang: &str) -> ChessTable {
        let book = ChessPhrasebook::builtin(lang).unwrap_or_else(ChessPhrasebook::english);
        ChessTable {
            game: ChessGame::from_position(start, ChessOptions::default()),
            words: ChessAnnouncer::new(book, FileStyle::Names),
            hints: true,
        }
    }

    /// The rules' game.
    #[must_use]
    pub fn rules(&self) -> &ChessGame {
        &self.game
    }
}

impl Game for ChessTable {
    fn kind(&self) -> GameKind {
        GameKind::Chess
    }

    fn clone_box(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn ply(&self) -> usize {
        self.game.plies()
    }

    fn turn(&self) -> Color {
        self.game.side_to_move()
    }

    fn position(&self) -> AnyPosition {
        AnyPosition::Chess(Box::new(self.game.position().clone()))
    }

    fn position_at(&self, ply: usize) -> Option<AnyPosition> {
        self.game
            .position_at(ply)
            .map(|p| AnyPosition::Chess(Box::new(p.clone())))
    }

    fn fen(&self) -> String {
        self.game.position_text()
    }

    fn move_texts(&self) -> Vec<String> {
        self.game.record()
    }

    fn last_move_text(&self) -> Option<String> {
        let i = self.ply().checked_sub(1)?;
        self.game.sans().get(i).cloned()
    }

    fn outcome(&self) -> Option<Outcome> {
        TableGame::result(&self.game)
    }

    fn result_text(&self, outcome: Option<Outcome>) -> &'static str {
        chess::pgn_result(outcome)
    }

    fn declare(&mut self, outcome: Outcome) {
        TableGame::end(&mut self.game, outcome);
    }

    fn undo(&mut self) {
        let _ = TableGame::take_back(&mut self.game);
    }

    fn moves_made(&self, side: Color) -> u32 {
        self.game.moves_by(side)
    }

    fn may_offer_draw(&self, side: Color) -> bool {
        self.game.draw_offer_allowed(side)
    }

    fn draw_offer_min_moves(&self) -> u32 {
        self.game.options().draw_offer_min_moves
    }

    fn declined_offer_bars(&self) -> bool {
        // 002 art. 9.1: no such bar, only repeated offers that annoy (the arbiter's call).
        false
    }

    fn play_text(&mut self, text: &str) -> anyhow::Result<()> {
        self.game
            .play_text(text)
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    fn prepare(&self, text: &str) -> Result<Prepared, Refused> {
        let before = self.game.position();
        match chess::resolve(before, text) {
            Ok(m) => Ok(Prepared {
                text: chess::san(before, &m),
                announce: self.words.on_move(before, &m),
            }),
            Err(e) => {
                let e = if self.hints { e } else { e.without_hints() };
                Err(Refused {
                    reason: e.to_string(),
                    say: self.words.on_rejected(text, &e),
                })
            }
        }
    }

    fn set_hints(&mut self, hints: bool) {
        self.hints = hints;
    }

    fn hints(&self) -> bool {
        self.hints
    }

    fn flag_outcome(&self, side: Color) -> Outcome {
        // 002 art. 6.9: a draw if the opponent cannot checkmate by any series of legal moves.
        if self
            .game
            .position()
            .has_insufficient_material(side.other().into())
        {
            return Outcome::Draw {
                reason: DrawReason::FlagNoMate,
            };
        }
        Outcome::Win {
            winner: side.other(),
            reason: tandem_rules::WinReason::Time,
        }
    }

    fn draw_claims(&self) -> Result<(), Refused> {
        Ok(())
    }

    fn claimable_draw(&self) -> Option<DrawReason> {
        // 002 art. 9.2, 9.3.
        self.game.claimable_draw()
    }

    fn claim_wrong(&self, minutes: u64) -> Utterance {
        self.words.claim_wrong(minutes)
    }

    fn ask(
        &self,
        text: &str,
        asker: Option<Color>,
        any_words: bool,
    ) -> Option<Result<Utterance, Refused>> {
        use tandem_speech::chess::ask;
        let book = super::or_english(self.words.phrasebook().language(), ask::ask_book);
        super::ask_with(
            text,
            any_words,
            || ask::phrases(self.words.phrasebook()),
            |q| ask::answer(book, &self.words, self.game.position(), q, asker),
        )
    }

    fn unknown_question(&self, text: &str) -> Refused {
        use tandem_speech::chess::ask;
        let book = super::or_english(self.words.phrasebook().language(), ask::ask_book);
        super::unknown_question(text, ask::QUESTIONS, book)
    }

    fn set_phrasebook(&mut self, _book: &Phrasebook) {
        // Chess speaks from its own phrasebook (set_game_phrasebook).
    }

    fn set_game_phrasebook(&mut self, book: &dyn std::any::Any) -> bool {
        match book.downcast_ref::<ChessPhrasebook>() {
            Some(b) => {
                self.words = ChessAnnouncer::new(b.clone(), self.words.style());
                true
            }
            None => false,
        }
    }

    fn describe_position(&self) -> Utterance {
        self.words.describe_position(self.game.position())
    }

    fn last_move(&self) -> Utterance {
        let g = &self.game;
        let last = g
            .ply()
            .checked_sub(1)
            .and_then(|i| Some((g.position_at(i)?.clone(), g.moves()[i])));
        self.words.last_move(last.as_ref().map(|(p, m)| (p, m)))
    }

    fn board_behind(&self, at: usize, behind: u32) -> Option<Utterance> {
        let (before, m) = (self.game.position_at(at)?, self.game.moves().get(at)?);
        Some(self.words.board_behind(behind, before, m))
    }

    fn boards_in_sync(&self) -> Utterance {
        self.words.boards_in_sync()
    }

    fn game_over(&self, outcome: &Outcome) -> Utterance {
        self.words.game_over(outcome)
    }

    fn help(&self) -> Utterance {
        self.words.help()
    }

    fn after_move(&self) -> Option<Utterance> {
        // 002 art. 9.2, 9.3: a draw the player on move may claim.
        self.game
            .claimable_draw()
            .and_then(|r| self.words.claimable(r))
    }

    fn to_move(&self) -> Utterance {
        self.words.turn(self.game.position())
    }

    /// A chess board that differs from the record (002 annex E.4, art. 7.5):
    /// what the blind player reads back, as a FEN or square by square
    /// (`e4:P, e5:empty`), compared with the record's position.
    fn check_board(&self, board: Option<&str>) -> Result<BoardCheck, BoardNotRead> {
        let g = &self.game;
        let read = board
            .map(parse_chess_readback)
            .transpose()
            .map_err(|_| BoardNotRead)?;
        let current = g.position();
        let diffs = read.as_ref().map(|r| compare_chess_readback(current, r));
        let matches_now = diffs.as_ref().is_some_and(Vec::is_empty);
        let complete = read.as_ref().is_some_and(|r| r.complete);
        let shows_ply = match &read {
            Some(r) if complete && !matches_now => (0..g.ply()).rev().find(|&i| {
                g.position_at(i)
                    .is_some_and(|q| compare_chess_readback(q, r).is_empty())
            }),
            _ => None,
        };
        let name = |p: Option<Piece>| {
            p.map_or_else(
                || "empty".to_owned(),
                |p| format!("{} {}", p.color, format!("{:?}", p.role).to_lowercase()),
            )
        };
        let texts = diffs
            .iter()
            .flatten()
            .map(|d| format!("{}: record {}, board {}", d.square, name(d.a), name(d.b)))
            .collect();
        let board_fen = read.as_ref().filter(|r| r.complete).map(|r| {
            let mut b = Board::empty();
            for &(sq, p) in &r.squares {
                if let Some(p) = p {
                    b.set_piece_at(sq, p);
                }
            }
            b.to_string()
        });
        Ok(BoardCheck {
            read_back: read.is_some(),
            matches_now,
            complete,
            shows_ply,
            diffs: texts,
            board_fen,
            differ: self.words.boards_differ(diffs.as_deref().unwrap_or(&[])),
        })
    }

    fn braille(&self, status: &StatusInfo) -> DriverInput {
        DriverInput::Board {
            board: tandem_braille::Board::Chess(self.game.position().clone()),
            status: status.clone(),
        }
    }

    fn move_words(&self, i: usize) -> Option<Utterance> {
        let (before, m) = (self.game.position_at(i)?, self.game.moves().get(i)?);
        Some(self.words.on_move(before, m))
    }

    fn describe_position_at(&self, ply: usize) -> Option<Utterance> {
        Some(self.words.describe_position(self.game.position_at(ply)?))
    }

    fn braille_at(&self, ply: usize, status: &StatusInfo) -> Option<DriverInput> {
        Some(DriverInput::Board {
            board: tandem_braille::Board::Chess(self.game.position_at(ply)?.clone()),
            status: status.clone(),
        })
    }

    fn braille_line(&self, status: &StatusInfo, width: Width) -> String {
        braille_line(self.game.position(), status, width)
    }

    fn braille_list(&self, width: Width) -> Vec<(String, String)> {
        ChessRenderer::default()
            .render(
                self.game.position(),
                &StatusInfo::new(self.turn()),
                View::List,
                width,
            )
            .iter()
            .map(|l| (l.line.cells_string(), l.text()))
            .collect()
    }

    fn legal_move_texts(&self) -> Vec<String> {
        let pos = self.game.position();
        self.game
            .legal_moves()
            .iter()
            .map(|m| chess::san(pos, m))
            .collect()
    }

    fn taps(&self) -> super::Taps {
        let moves = self
            .game
            .legal_moves()
            .iter()
            .map(|m| super::TapMove {
                squares: vec![m.from.to_string(), m.to.to_string()],
                // UCI: the squares and the promotion's letter, read back exactly.
                text: m.uci(),
                choice: m.promotion.map(|r| format!("{r:?}").to_lowercase()),
            })
            .collect();
        super::Taps {
            actor: Some(self.turn()),
            moves,
            ..super::Taps::default()
        }
    }

    fn board_sight(&self) -> Option<super::BoardSight> {
        Some(eboard::sight(&self.game))
    }

    fn picture(&self) -> crate::picture::BoardPicture {
        let last = self
            .ply()
            .checked_sub(1)
            .and_then(|i| self.game.moves().get(i));
        picture::picture(self.game.position(), last)
    }

    fn diagram(&self) -> String {
        let last = self
            .ply()
            .checked_sub(1)
            .and_then(|i| self.game.moves().get(i))
            .map(|m| vec![m.from, m.to])
            .unwrap_or_default();
        diagram_marked(self.game.position(), &last)
    }

    fn record_control(&self, control: &str) -> String {
        // PGN has its own form (`5400+30`); tandem's written form where PGN cannot say it.
        tandem_rules::clock::TimeControl::lookup(control)
            .ok()
            .and_then(|c| c.pgn())
            .unwrap_or_else(|| control.to_owned())
    }

    fn clock_comment(
        &self,
        side: Color,
        white_ms: u64,
        black_ms: u64,
        _move_ms: u64,
        timed: bool,
    ) -> Option<String> {
        // The mover's remaining time as broadcast sites write it (`[%clk 1:29:48]`).
        timed.then(|| {
            chess::pgn::clk_comment(if side == Color::White {
                white_ms
            } else {
                black_ms
            })
        })
    }

    fn export(&self, tags: Vec<(String, String)>, comments: Vec<Option<String>>) -> String {
        // PGN (002 annex C), the same tags and clock comments as PDN.
        chess::pgn::write_pgn(&self.game, &chess::pgn::PgnHeader { tags, comments })
    }
}

/// The braille line of the list view (Unicode braille).
#[must_use]
pub fn braille_line(pos: &Chess, status: &StatusInfo, width: Width) -> String {
    ChessRenderer::default()
        .render(pos, status, View::List, width)
        .first()
        .map(|l| l.line.cells_string())
        .unwrap_or_default()
}

/// A text diagram, rank 8 first, with the files under it.
#[must_use]
pub fn diagram(pos: &Chess) -> String {
    diagram_marked(pos, &[])
}

/// [`diagram`] with `marked` squares (the last move's) followed by `*`.
#[must_use]
pub fn diagram_marked(pos: &Chess, marked: &[tandem_rules::chess::shakmaty::Square]) -> String {
    let board = pos.board();
    let mut s = String::new();
    for rank in (0..8u32).rev() {
        let line: String = (0..8u32)
            .map(|file| {
                let sq = tandem_rules::chess::shakmaty::Square::from_coords(
                    File::new(file),
                    Rank::new(rank),
                );
                let mark = if marked.contains(&sq) { '*' } else { ' ' };
                format!("{}{mark}", board.piece_at(sq).map_or('.', |p| p.char()))
            })
            .collect();
        let _ = writeln!(s, "{:>3} │ {line}", rank + 1);
    }
    let _ = writeln!(s, "      a b c d e f g h");
    s
}

/// Voice input: the speech crate's chess listener, to the session's
/// game-neutral input.
impl VoiceGame for ChessVoice {
    fn fields(heard: &ChessSaid) -> (&'static str, String) {
        heard.fields()
    }

    fn confidence(heard: &ChessSaid) -> f64 {
        heard.confidence()
    }

    fn reply(
        d: &Decision<ChessVoice>,
        l: &Listener<ChessVoice>,
        announcer: &Announcer,
    ) -> Option<Utterance> {
        d.reply(l.position(), announcer, l.lexicon())
    }

    fn listened_position(pos: AnyPosition) -> Option<Chess> {
        match pos {
            AnyPosition::Chess(p) => Some(*p),
            _ => None,
        }
    }

    fn any_position(pos: Chess) -> AnyPosition {
        AnyPosition::Chess(Box::new(pos))
    }

    fn move_text(pos: &Chess, m: &ChessMove) -> String {
        tandem_rules::chess::san(pos, m)
    }

    fn words(book: &Phrasebook, own: Option<&crate::voice::GameWords>) -> ChessWords {
        own.and_then(|w| w.get::<ChessWords>().cloned())
            .unwrap_or_else(|| {
                let chess = ChessPhrasebook::builtin(book.language())
                    .unwrap_or_else(ChessPhrasebook::english);
                ChessWords::new(
                    &chess,
                    tandem_speech::listen::Lexicon::from_phrasebook(book),
                )
            })
    }
}
