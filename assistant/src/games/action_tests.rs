//! The session's path for game actions beyond moves (`Game::action`),
//! game questions (`Game::query`) and the clock report's addition,
//! with a MOCK game: draughts plus three made-up actions, because no game in
//! this branch has actions yet (backgammon's `roll`, `double`, `take` come
//! with its own adapter and its own end-to-end tests).

use std::path::Path;

use tandem_braille::driver::DriverInput;
use tandem_braille::{StatusInfo, Width};
use tandem_rules::{Color, GameOptions, Outcome};
use tandem_speech::{Kind, Phrasebook, Priority, Utterance};
use tokio::sync::{broadcast, mpsc};

use crate::games::{BoardCheck, BoardNotRead, Game, Prepared, PreparedAction, Refused};
use crate::journal::{Event, Journal, JournalWriter, Source};
use crate::kind::{AnyPosition, GameKind};
use crate::session::{
    start_info, Blind, Cmd, GameSetup, Outputs, Session, Table, DEFAULT_WARNINGS,
};

/// MOCK: draughts with the actions `ring` (does not end the turn),
/// `hand-over` (ends it) and `refuse-me` (refused), the question `count`,
/// and words after the clock report.
#[derive(Debug, Clone)]
struct MockActions {
    /// International draughts, from the registry.
    inner: Box<dyn Game>,
    actions: Vec<String>,
}

fn words(text: &str) -> Utterance {
    Utterance::new(Priority::Next, Kind::Move, vec![text.to_owned()])
}

impl Game for MockActions {
    fn kind(&self) -> GameKind {
        self.inner.kind()
    }
    fn clone_box(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
    fn ply(&self) -> usize {
        self.inner.ply()
    }
    fn turn(&self) -> Color {
        self.inner.turn()
    }
    fn position(&self) -> AnyPosition {
        self.inner.position()
    }
    fn position_at(&self, ply: usize) -> Option<AnyPosition> {
        self.inner.position_at(ply)
    }
    fn fen(&self) -> String {
        self.inner.fen()
    }
    fn move_texts(&self) -> Vec<String> {
        self.inner.move_texts()
    }
    fn last_move_text(&self) -> Option<String> {
        self.inner.last_move_text()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }
    fn result_text(&self, outcome: Option<Outcome>) -> &'static str {
        self.inner.result_text(outcome)
    }
    fn declare(&mut self, outcome: Outcome) {
        self.inner.declare(outcome);
    }
    fn undo(&mut self) {
        self.inner.undo();
    }
    fn moves_made(&self, side: Color) -> u32 {
        self.inner.moves_made(side)
    }
    fn may_offer_draw(&self, side: Color) -> bool {
        self.inner.may_offer_draw(side)
    }
    fn draw_offer_min_moves(&self) -> u32 {
        self.inner.draw_offer_min_moves()
    }
    fn declined_offer_bars(&self) -> bool {
        self.inner.declined_offer_bars()
    }
    fn play_text(&mut self, text: &str) -> anyhow::Result<()> {
        self.inner.play_text(text)
    }
    fn prepare(&self, text: &str) -> Result<Prepared, Refused> {
        self.inner.prepare(text)
    }
    fn draw_claims(&self) -> Result<(), Refused> {
        self.inner.draw_claims()
    }
    fn claim_wrong(&self, minutes: u64) -> Utterance {
        self.inner.claim_wrong(minutes)
    }
    fn action(&self, text: &str) -> Option<Result<PreparedAction, Refused>> {
        let press = match text.trim() {
            "ring" => false,
            "hand-over" => true,
            "refuse-me" => {
                return Some(Err(Refused {
                    reason: "refused by the mock".into(),
                    say: words("no"),
                }))
            }
            _ => return None,
        };
        Some(Ok(PreparedAction {
            either_seat: false,
            text: text.trim().to_owned(),
            side: self.turn(),
            press,
            announce: words(&format!("{} done", text.trim())),
        }))
    }
    fn query(&self, text: &str) -> Option<Utterance> {
        (text.trim() == "count").then(|| words("forty"))
    }
    fn after_clock(&self) -> Option<Utterance> {
        Some(words("and the score"))
    }
    fn play_action(&mut self, text: &str) -> anyhow::Result<()> {
        self.actions.push(text.to_owned());
        Ok(())
    }
    fn set_hints(&mut self, _hints: bool) {}

    fn hints(&self) -> bool {
        true
    }

    fn set_phrasebook(&mut self, book: &Phrasebook) {
        self.inner.set_phrasebook(book);
    }
    fn describe_position(&self) -> Utterance {
        self.inner.describe_position()
    }
    fn last_move(&self) -> Utterance {
        self.inner.last_move()
    }
    fn braille_list(&self, width: tandem_braille::Width) -> Vec<(String, String)> {
        self.inner.braille_list(width)
    }
    fn move_words(&self, i: usize) -> Option<Utterance> {
        self.inner.move_words(i)
    }
    fn board_behind(&self, at: usize, behind: u32) -> Option<Utterance> {
        self.inner.board_behind(at, behind)
    }
    fn boards_in_sync(&self) -> Utterance {
        self.inner.boards_in_sync()
    }
    fn game_over(&self, outcome: &Outcome) -> Utterance {
        self.inner.game_over(outcome)
    }
    fn help(&self) -> Utterance {
        self.inner.help()
    }
    fn after_move(&self) -> Option<Utterance> {
        self.inner.after_move()
    }
    fn to_move(&self) -> Utterance {
        self.inner.to_move()
    }
    fn check_board(&self, board: Option<&str>) -> Result<BoardCheck, BoardNotRead> {
        self.inner.check_board(board)
    }
    fn braille(&self, status: &StatusInfo) -> DriverInput {
        self.inner.braille(status)
    }
    fn braille_line(&self, status: &StatusInfo, width: Width) -> String {
        self.inner.braille_line(status, width)
    }
    fn diagram(&self) -> String {
        self.inner.diagram()
    }
    fn picture(&self) -> crate::picture::BoardPicture {
        self.inner.picture()
    }
    fn export(&self, tags: Vec<(String, String)>, comments: Vec<Option<String>>) -> String {
        self.inner.export(tags, comments)
    }
}

/// The start of international draughts, from the registry.
fn international() -> AnyPosition {
    let kind: GameKind = "international".parse().unwrap();
    kind.position(None).unwrap()
}

fn setup() -> GameSetup {
    GameSetup {
        start: international(),
        control: tandem_rules::clock::TimeControl::lookup("90m").unwrap(),
        warnings: DEFAULT_WARNINGS.to_vec(),
        white: None,
        black: None,
        event: None,
        round: None,
        blind: Blind::White,
        lang: "en".into(),
        options: GameOptions::default(),
    }
}

fn session(journal: &Path) -> Session {
    let info = start_info(&setup());
    let mut table = Table::new(info.clone()).unwrap();
    table.game = Box::new(MockActions {
        inner: crate::game::new_game(international(), GameOptions::default(), "en"),
        actions: Vec::new(),
    });
    let mut w = JournalWriter::create(journal).unwrap();
    w.append(0, Event::Start(info)).unwrap();
    let (speech, _) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(16);
    let out = Outputs::new(speech, None, notices);
    Session::from_table(table, w, out)
}

fn actions(journal: &Path) -> Vec<(String, bool, Source)> {
    Journal::read(journal)
        .unwrap()
        .records
        .into_iter()
        .filter_map(|r| match r.event {
            Event::Action {
                text,
                press,
                source,
                ..
            } => Some((text, press, source)),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_game_action_is_journaled_said_and_presses_the_clock_only_when_it_ends_the_turn_mock_game(
) {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("g.jsonl");
    let mut s = session(&journal);
    // A control command the session does not know, claimed by the game.
    let r = s.handle(Cmd::Unknown("ring".into()), Source::Control);
    assert!(r.ok, "{r:?}");
    assert_eq!(r.said, ["ring done"]);
    assert_eq!(s.table().clock.side_to_move(), Color::White);
    // Typed: the line is taken for a move, and the game claims it first.
    let r = s.handle(Cmd::parse_line("hand-over"), Source::Typed);
    assert!(r.ok, "{r:?}");
    assert_eq!(r.said, ["hand-over done"]);
    assert_eq!(
        s.table().clock.side_to_move(),
        Color::Black,
        "an action that ends the turn presses the clock"
    );
    // Refused by the game: nothing journaled, the reason answered.
    let r = s.handle(Cmd::Unknown("refuse-me".into()), Source::Control);
    assert!(!r.ok);
    assert_eq!(r.error.as_deref(), Some("refused by the mock"));
    // The game's own question, typed or sent: answered, nothing journaled but the words.
    let r = s.handle(Cmd::parse_line("count"), Source::Typed);
    assert_eq!((r.ok, r.said), (true, vec!["forty".to_owned()]));
    let r = s.handle(Cmd::Unknown("count".into()), Source::Control);
    assert_eq!((r.ok, r.said), (true, vec!["forty".to_owned()]));
    // The clock report, then what the game adds to it.
    let r = s.handle(Cmd::Clock, Source::Control);
    assert_eq!(r.said.last().map(String::as_str), Some("and the score"));
    // Not the game's: still an unknown command.
    let r = s.handle(Cmd::Unknown("dance".into()), Source::Control);
    assert!(!r.ok);
    assert_eq!(
        actions(&journal),
        [
            ("ring".to_owned(), false, Source::Control),
            ("hand-over".to_owned(), true, Source::Typed)
        ]
    );
    assert_eq!(s.table().game.ply(), 0, "an action is not a ply");
    // A journal with actions replayed for a game that has none: a clear error.
    let j = Journal::read(&journal).unwrap();
    let e = Table::replay(&j.records).unwrap_err().to_string();
    assert!(e.contains("action ring"), "{e}");
}
