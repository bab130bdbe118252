//! Draughts at the table (001, 003): international and 64-square, behind
//! [`Game`]. Rules: `tandem_rules::draughts::Game`; words: the speech crate's
//! [`Announcer`]; braille: the standard renderer; voice: the speech
//! crate's draughts listener; record: PDN 3.0.

pub mod arbiter;
pub mod book;
pub mod braille;
pub mod ear;
pub mod one_shot;
pub mod options;
pub mod picture;

use std::fmt::Write as _;

use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
use tandem_braille::driver::DriverInput;
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::draughts::arbiter::{compare_readback, parse_readback, Readback};
use tandem_rules::draughts::pdn::{write_pdn, PdnHeader};
use tandem_rules::draughts::{notation, Game as Rules, Position, Role, Square, Variant};
use tandem_rules::{Color, GameOptions, Outcome, TableGame};
use tandem_speech::draughts::SquareDiff;
use tandem_speech::{AnnounceOptions, Announcer, Kind, Phrasebook, Priority, Utterance, Value};

use tandem_speech::draughts::listen::{Draughts, DraughtsWords, Heard};
use tandem_speech::listen::{Decision, Lexicon, Listener};

use super::{BoardCheck, BoardNotRead, Game, Prepared, Refused};
use crate::kind::{AnyPosition, GameKind};
use crate::voice::VoiceGame;

/// The move text of a move routed on the braille display by two squares'
/// targets (`32 28`, by the variant's square names: `c3 d4` in 64-square
/// draughts), decided like a typed move.
#[must_use]
pub fn routed_move(
    variant: Variant,
    from: tandem_braille::Target,
    to: tandem_braille::Target,
) -> String {
    tandem_braille::draughts::keys::move_text(variant, from, to)
}

/// A draughts game with its words.
#[derive(Debug, Clone)]
pub struct DraughtsTable {
    game: Rules,
    words: Announcer,
    lang: String,
    /// Each ply in strict notation, kept as the plies are played: the view
    /// sent after every move lists them all, and writing a capture means
    /// generating the position's moves (whether another capture shares its
    /// ends), so writing the whole record each time cost a game of 100
    /// plies more than the move itself.
    texts: Vec<String>,
    /// Refusals may name the pieces that could move (off in a rated game).
    hints: bool,
}

impl DraughtsTable {
    /// A game from `start`, spoken in `lang` (`pl`, `en`; English for another).
    #[must_use]
    pub fn new(start: Position, options: GameOptions, lang: &str) -> DraughtsTable {
        let book = Phrasebook::builtin(lang).unwrap_or_else(Phrasebook::english);
        DraughtsTable {
            game: Rules::from_position(start, options),
            words: Announcer::new(book, AnnounceOptions::default()),
            lang: lang.to_owned(),
            texts: Vec::new(),
            hints: true,
        }
    }

    /// The rules' game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.game
    }
}

impl Game for DraughtsTable {
    fn kind(&self) -> GameKind {
        GameKind::Draughts(self.game.variant())
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
        AnyPosition::Draughts(*self.game.position())
    }

    fn position_at(&self, ply: usize) -> Option<AnyPosition> {
        self.game
            .position_at(ply)
            .map(|p| AnyPosition::Draughts(*p))
    }

    fn fen(&self) -> String {
        self.game.position_text()
    }

    fn move_texts(&self) -> Vec<String> {
        self.texts.clone()
    }

    fn last_move_text(&self) -> Option<String> {
        self.texts.last().cloned()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.result()
    }

    fn result_text(&self, outcome: Option<Outcome>) -> &'static str {
        outcome.map_or("*", |o| o.pdn_result())
    }

    fn declare(&mut self, outcome: Outcome) {
        self.game.end(outcome);
    }

    fn undo(&mut self) {
        if self.game.take_back().is_some() {
            self.texts.pop();
        }
    }

    fn moves_made(&self, side: Color) -> u32 {
        self.game.moves_by(side)
    }

    fn may_offer_draw(&self, side: Color) -> bool {
        self.game.draw_offer_allowed(side)
    }

    fn draw_offer_min_moves(&self) -> u32 {
        self.game.variant().draw_offer_min_moves()
    }

    fn declined_offer_bars(&self) -> bool {
        // 001 ch. II 5.1.
        true
    }

    fn play_text(&mut self, text: &str) -> anyhow::Result<()> {
        let before = *self.game.position();
        let m = self
            .game
            .play_text(text)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        self.texts.push(notation::write_move(&before, &m));
        Ok(())
    }

    fn prepare(&self, text: &str) -> Result<Prepared, Refused> {
        let before = self.game.position();
        match notation::resolve(before, text) {
            Ok(m) => Ok(Prepared {
                text: notation::write_move(before, &m),
                announce: self.words.on_move(before, &m),
            }),
            Err(e) => {
                let e = if self.hints { e } else { e.without_hints() };
                Err(Refused {
                    reason: e.to_string(),
                    say: self.words.on_rejected(before, text, &e),
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

    fn draw_claims(&self) -> Result<(), Refused> {
        // Draughts draws come by themselves (001 ch. I 6): nothing to claim.
        Err(Refused {
            reason: "draughts draws need no claim".into(),
            say: claim_words(&self.lang).message(
                "game.no_draw_claim",
                &[],
                Priority::Now,
                Kind::Rejection,
            ),
        })
    }

    fn claim_wrong(&self, minutes: u64) -> Utterance {
        claim_words(&self.lang).message(
            "game.draw_claim_wrong",
            &[("minutes", Value::Text(minutes.to_string()))],
            Priority::Now,
            Kind::Draw,
        )
    }

    fn set_phrasebook(&mut self, book: &Phrasebook) {
        self.words = Announcer::new(book.clone(), AnnounceOptions::default());
    }

    fn describe_position(&self) -> Utterance {
        self.words.describe_position(self.game.position())
    }

    fn ask(
        &self,
        text: &str,
        asker: Option<Color>,
        any_words: bool,
    ) -> Option<Result<Utterance, Refused>> {
        use tandem_speech::draughts::ask;
        let book = super::or_english(self.words.phrasebook().language(), ask::ask_book);
        super::ask_with(
            text,
            any_words,
            || ask::phrases(self.words.phrasebook()),
            |q| ask::answer(book, &self.words, self.game.position(), q, asker),
        )
    }

    fn unknown_question(&self, text: &str) -> Refused {
        use tandem_speech::draughts::ask;
        let book = super::or_english(self.words.phrasebook().language(), ask::ask_book);
        super::unknown_question(text, ask::QUESTIONS, book)
    }

    /// "square N": the square by its number (001 ch. I 2.6; the
    /// 64-square board's too, as the listener hears "ce trzy").
    fn describe_square(&self, n: u8) -> Option<Utterance> {
        let sq = Square::new(n).filter(|&sq| self.game.variant().contains(sq))?;
        Some(self.words.describe_square(self.game.position(), sq))
    }

    fn last_move(&self) -> Utterance {
        let g = &self.game;
        let last = g
            .plies()
            .checked_sub(1)
            .and_then(|i| Some((*g.position_at(i)?, g.moves()[i])));
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
        self.words.game_over(self.game.variant(), outcome)
    }

    fn help(&self) -> Utterance {
        self.words.help()
    }

    fn after_move(&self) -> Option<Utterance> {
        // 001 ch. I 6.1: a second repetition is warned of.
        (self.game.repetitions() == 2).then(|| self.words.repetition_warning())
    }

    fn to_move(&self) -> Utterance {
        self.words.turn(self.game.position().turn())
    }

    fn check_board(&self, board: Option<&str>) -> Result<BoardCheck, BoardNotRead> {
        let g = &self.game;
        let variant = g.variant();
        let turn = g.position().turn();
        // What the board shows: a whole position (PDN FEN, the side may be
        // left out) or the squares the blind player reads back one by one
        // from the tactile board ("28:w, 45:wk, 30:empty"; 001 ch. VIII 3.1).
        let read = board
            .map(|b| read_board(variant, b, turn))
            .transpose()
            .map_err(|()| BoardNotRead)?;
        let current = *g.position();
        let diffs = read.as_ref().map(|r| board_diffs(&current, r));
        let matches_now = diffs.as_ref().is_some_and(Vec::is_empty);
        let complete = read.as_ref().is_some_and(|r| r.complete);
        let shows_ply = match &read {
            Some(r) if complete && !matches_now => (0..g.plies()).rev().find(|&i| {
                g.position_at(i)
                    .is_some_and(|q| board_diffs(q, r).is_empty())
            }),
            _ => None,
        };
        let texts = diffs
            .iter()
            .flatten()
            .map(|d| {
                format!(
                    "{}: record {}, board {}",
                    variant.square_name(d.square),
                    piece_name(d.expected),
                    piece_name(d.actual)
                )
            })
            .collect();
        Ok(BoardCheck {
            read_back: read.is_some(),
            matches_now,
            complete,
            shows_ply,
            diffs: texts,
            board_fen: read.as_ref().and_then(readback_fen(variant, turn)),
            differ: self
                .words
                .boards_differ(variant, diffs.as_deref().unwrap_or(&[])),
        })
    }

    fn braille(&self, status: &StatusInfo) -> DriverInput {
        DriverInput::Board {
            board: tandem_braille::Board::Draughts(*self.game.position()),
            status: status.clone(),
        }
    }

    fn braille_line(&self, status: &StatusInfo, width: Width) -> String {
        braille_line(self.game.position(), status, width)
    }

    fn braille_list(&self, width: Width) -> Vec<(String, String)> {
        StandardRenderer::default()
            .render(
                self.game.position(),
                &StatusInfo::new(self.turn()),
                View::List,
                width,
            )
            .iter()
            .map(|l| (l.cells_string(), l.text()))
            .collect()
    }

    fn legal_move_texts(&self) -> Vec<String> {
        let pos = self.game.position();
        pos.legal_moves()
            .iter()
            .map(|m| notation::write_move(pos, m))
            .collect()
    }

    fn taps(&self) -> super::Taps {
        let pos = self.game.position();
        let moves = pos
            .legal_moves()
            .iter()
            .map(|m| {
                // The piece's square, then each landing (a plain move: its square).
                let mut squares = vec![m.from().to_string()];
                if m.is_capture() {
                    squares.extend(m.landings().map(|s| s.to_string()));
                } else {
                    squares.push(m.to().to_string());
                }
                super::TapMove {
                    squares,
                    text: notation::write_move(pos, m),
                    choice: None,
                }
            })
            .collect();
        super::Taps {
            actor: Some(self.turn()),
            moves,
            ..super::Taps::default()
        }
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
            .map(|m| vec![m.from(), m.to()])
            .unwrap_or_default();
        diagram_marked(self.game.position(), &last)
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
            board: tandem_braille::Board::Draughts(*self.game.position_at(ply)?),
            status: status.clone(),
        })
    }

    fn export(&self, tags: Vec<(String, String)>, comments: Vec<Option<String>>) -> String {
        let result = self.result_text(self.outcome());
        write_pdn(&self.game, &PdnHeader { tags, comments }, result)
    }
}

/// The braille line of the list view (Unicode braille).
#[must_use]
pub fn braille_line(pos: &Position, status: &StatusInfo, width: Width) -> String {
    StandardRenderer::default()
        .render(pos, status, View::List, width)
        .first()
        .map(|l| l.cells_string())
        .unwrap_or_default()
}

/// A text diagram, one row a line, each row led by its first square's number.
#[must_use]
pub fn diagram(pos: &Position) -> String {
    diagram_marked(pos, &[])
}

/// [`diagram`] with `marked` squares (the last move's) followed by `*`.
#[must_use]
pub fn diagram_marked(pos: &Position, marked: &[Square]) -> String {
    let variant = pos.variant();
    let n = variant.size();
    let mut s = String::new();
    for row in 0..n {
        let line: String = (0..n)
            .map(|c| {
                let mark = variant
                    .square_at(row, c)
                    .is_some_and(|sq| marked.contains(&sq));
                format!(
                    "{}{}",
                    piece_char(pos, row, c),
                    if mark { '*' } else { ' ' }
                )
            })
            .collect();
        let first = (0..n)
            .find_map(|c| variant.square_at(row, c))
            .map_or(0, |q| q.number());
        let _ = writeln!(s, "{first:>3} │ {line}");
    }
    s
}

/// The words of draw claims (a draughts game is told that its draws need
/// no claim): the built-in phrasebook's of the table's language, English
/// when there is none, whatever `--phrasebook` says.
fn claim_words(lang: &str) -> Announcer {
    let book = Phrasebook::builtin(lang).unwrap_or_else(Phrasebook::english);
    Announcer::new(book, AnnounceOptions::default())
}

fn piece_char(pos: &Position, row: u8, col: u8) -> char {
    match pos.variant().square_at(row, col) {
        None => ' ',
        Some(sq) => match pos.piece_at(sq) {
            None => '.',
            Some(p) => match (p.color, p.role) {
                (Color::White, Role::Man) => 'w',
                (Color::White, Role::King) => 'W',
                (Color::Black, Role::Man) => 'b',
                (Color::Black, Role::King) => 'B',
            },
        },
    }
}

fn piece_name(p: Option<tandem_rules::draughts::Piece>) -> &'static str {
    p.map_or("empty", tandem_rules::draughts::Piece::name)
}

/// Reads what a board shows: a PDN FEN (`W:W31,32:B1,2`), with or without
/// the side to move (then `turn`), or squares read back one by one
/// (`28:w, 45:wk, 30:empty`, see [`tandem_rules::draughts::arbiter::parse_readback`]).
fn read_board(variant: Variant, text: &str, turn: Color) -> Result<Readback, ()> {
    let t = text.trim();
    let prefix = if turn == Color::White { "W:" } else { "B:" };
    let whole = Position::from_fen(variant, t)
        .or_else(|_| Position::from_fen(variant, &format!("{prefix}{t}")));
    if let Ok(p) = whole {
        return Ok(Readback {
            squares: variant
                .all_squares()
                .map(|sq| (sq, p.piece_at(sq)))
                .collect(),
            complete: true,
        });
    }
    parse_readback(variant, t).map_err(|_| ())
}

/// The FEN of a whole board read back (none for a few squares).
fn readback_fen(variant: Variant, turn: Color) -> impl Fn(&Readback) -> Option<String> {
    move |r| {
        r.complete.then(|| {
            let mut p = Position::empty(variant, turn);
            for &(sq, piece) in &r.squares {
                p.set(sq, piece);
            }
            p.to_fen()
        })
    }
}

/// Squares whose contents differ between the record and what a board shows.
#[must_use]
pub fn board_diffs(record: &Position, board: &Readback) -> Vec<SquareDiff> {
    compare_readback(record, board)
        .into_iter()
        .map(|c| SquareDiff {
            square: c.square,
            expected: c.a,
            actual: c.b,
        })
        .collect()
}

/// Voice input: the speech crate's draughts listener, to the session's
/// game-neutral input.
impl VoiceGame for Draughts {
    fn fields(heard: &Heard) -> (&'static str, String) {
        heard_fields(heard)
    }

    fn confidence(heard: &Heard) -> f64 {
        heard.confidence()
    }

    fn reply(
        d: &Decision<Draughts>,
        l: &Listener<Draughts>,
        announcer: &Announcer,
    ) -> Option<Utterance> {
        d.reply(l.position(), announcer, l.lexicon())
    }

    fn listened_position(pos: AnyPosition) -> Option<Position> {
        match pos {
            AnyPosition::Draughts(p) => Some(p),
            _ => None,
        }
    }

    fn any_position(pos: Position) -> AnyPosition {
        AnyPosition::Draughts(pos)
    }

    fn move_text(pos: &Position, m: &tandem_rules::draughts::Move) -> String {
        tandem_rules::draughts::notation::write_move(pos, m)
    }

    fn words(book: &Phrasebook, _own: Option<&crate::voice::GameWords>) -> Lexicon {
        Lexicon::draughts(book)
    }
}

/// The journal's words for what was heard: (`kind`, `text`).
#[must_use]
pub fn heard_fields(h: &Heard) -> (&'static str, String) {
    match h {
        Heard::Move { notation, .. } => ("move", notation.clone()),
        Heard::Command {
            command,
            square: Some(sq),
            ..
        } => ("command", format!("{} {sq}", command.name())),
        Heard::Command { command, .. } => ("command", command.name().to_owned()),
        Heard::Ambiguous { candidates, .. } => (
            "ambiguous",
            candidates
                .iter()
                .map(|c| c.notation.clone())
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Heard::Illegal { text, .. } => ("illegal", text.clone()),
        Heard::Query { query, .. } => ("query", query.clone()),
        _ => ("unknown", String::new()),
    }
}

#[cfg(test)]
mod record_tests {
    use super::*;

    #[test]
    fn the_kept_record_is_the_rules_record_through_moves_captures_and_takebacks() {
        let mut g = DraughtsTable::new(
            Position::start(tandem_rules::draughts::Variant::International),
            GameOptions::default(),
            "en",
        );
        for m in ["32-28", "19-23", "28x19", "14x23", "33-29"] {
            g.play_text(m).unwrap();
            assert_eq!(g.move_texts(), g.rules().record());
        }
        assert!(g.play_text("1-2").is_err());
        assert_eq!(g.move_texts(), g.rules().record());
        g.undo();
        g.undo();
        assert_eq!(g.move_texts(), g.rules().record());
        assert_eq!(g.last_move_text().as_deref(), Some("28x19"));
        for _ in 0..5 {
            g.undo();
        }
        assert!(g.move_texts().is_empty() && g.last_move_text().is_none());
    }

    #[test]
    fn a_draw_claim_is_refused_in_the_words_of_the_table_s_language() {
        let start = Position::start(tandem_rules::draughts::Variant::International);
        let g = DraughtsTable::new(start, GameOptions::default(), "pl");
        let r = g.draw_claims().unwrap_err();
        assert_eq!(r.reason, "draughts draws need no claim");
        assert_eq!(r.say.text(), "Remisu nie można teraz reklamować.");
        assert_eq!(r.say.priority, Priority::Now);
        assert_eq!(r.say.kind, Kind::Rejection);
        let u = g.claim_wrong(2);
        assert_eq!(
            u.text(),
            "Reklamacja remisu jest nieuzasadniona. Przeciwnik dostaje 2 minuty, gra toczy się dalej."
        );
        assert_eq!((u.priority, u.kind), (Priority::Now, Kind::Draw));
        // A language without built-in words: English.
        let g = DraughtsTable::new(start, GameOptions::default(), "ko");
        assert_eq!(
            g.draw_claims().unwrap_err().say.text(),
            "No draw can be claimed now."
        );
    }
}
