//! Session actor tests with tokio's paused clock: moves, refusals, the two
//! boards, the clock (reports, warnings, flag fall), draw offers, mismatches,
//! and resuming from the journal.

use std::time::Duration;

use tandem::game::AnyPosition;
use tandem::journal::Source;
use tandem::journal::{Event, Journal};
use tandem::session::{Cmd, DrawCmd, GameSetup, Reply, Session, SessionHandle};
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;

mod support;

use support::session::{drain, fixture, game_setup, Fixture};

fn setup(variant: Variant, control: &str) -> GameSetup {
    game_setup(
        AnyPosition::Draughts(Position::start(variant)),
        control,
        "en",
    )
}

/// A 90-minute international game after 32-28 19-23.
fn after_32_28_19_23(f: &Fixture) -> Session {
    let mut s = f.start(&setup(Variant::International, "90m"));
    s.handle(Cmd::Move("32-28".into()), Source::Typed);
    s.handle(Cmd::Move("19-23".into()), Source::Typed);
    s
}

/// The board read back as `board` (`tandem ctl mismatch BOARD`).
fn mismatch(s: &mut Session, board: &str) -> Reply {
    s.handle(Cmd::Mismatch(Some(board.into())), Source::Control)
}

fn game_moves(file: &str, n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(format!(
        "{}/../rules/tests/data/pdn/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let games = parse_pdn(&text);
    let Replay::Ok(g) = replay(&games[n], Variant::International) else {
        panic!("game {n} of {file} does not replay")
    };
    g.move_texts()
}

#[tokio::test(start_paused = true)]
async fn a_move_is_journaled_then_announced_and_the_clock_switches() {
    let mut f = fixture();
    let mut s = f.start(&setup(Variant::International, "90m"));
    assert_eq!(drain(&mut f.speech), ["White to move."]);
    tokio::time::advance(Duration::from_secs(12)).await;
    let r = s.handle(Cmd::Move("32 28".into()), Source::Typed);
    assert!(r.ok, "{r:?}");
    assert_eq!(r.said, ["Thirty-two, twenty-eight."]);
    let j = Journal::read(&f.journal).unwrap();
    let i = j
        .records
        .iter()
        .position(|r| matches!(r.event, Event::Move { .. }))
        .unwrap();
    let Event::Move {
        text,
        move_ms,
        white_ms,
        black_ms,
        ..
    } = &j.records[i].event
    else {
        unreachable!()
    };
    assert_eq!(
        (text.as_str(), *move_ms, *white_ms, *black_ms),
        ("32-28", 12_000, 90 * 60_000 - 12_000, 90 * 60_000)
    );
    // The move line comes before the line recording its announcement.
    assert!(
        matches!(&j.records[i + 1].event, Event::Announced { text, .. } if text == "Thirty-two, twenty-eight.")
    );
    tokio::time::advance(Duration::from_secs(30)).await;
    let st = s.view();
    assert_eq!((st.ply, st.turn), (1, Color::Black));
    assert_eq!(st.clocks.black.remaining_ms, 90 * 60_000 - 30_000);
    assert_eq!(st.boards.white.behind, 0);
    assert_eq!(st.boards.black.behind, 1);
}

#[tokio::test(start_paused = true)]
async fn an_illegal_move_is_refused_with_the_reason_and_changes_nothing() {
    let mut f = fixture();
    let mut s = f.start(&setup(Variant::International, "90m"));
    for m in ["32-28", "19-23"] {
        assert!(s.handle(Cmd::Move(m.into()), Source::Control).ok);
    }
    drain(&mut f.speech);
    let lines_before = Journal::read(&f.journal).unwrap().records.len();
    let r = s.handle(Cmd::Move("31-27".into()), Source::Control);
    assert!(!r.ok);
    assert_eq!(r.said, ["Capture is compulsory: you must take one piece. The piece on twenty-eight can capture."]);
    assert!(r.error.is_some());
    assert_eq!(s.view().ply, 2);
    let j = Journal::read(&f.journal).unwrap();
    // Only the refusal's announcement and the refusal itself were recorded.
    assert_eq!(j.records.len(), lines_before + 2);
    assert!(
        matches!(&j.records.last().unwrap().event, Event::Rejected { input, .. } if input == "31-27")
    );
    let r = s.handle(Cmd::Unknown("dance".into()), Source::Control);
    assert!(!r.ok);
    assert_eq!(r.said, ["Unknown command: dance."]);
}

#[tokio::test(start_paused = true)]
async fn the_other_board_is_one_move_behind_until_done() {
    let f = fixture();
    let mut s = f.start(&setup(Variant::International, "90m"));
    s.handle(Cmd::Move("32-28".into()), Source::Typed);
    let r = s.handle(Cmd::Missing(Some(Color::Black)), Source::Control);
    assert_eq!(
        r.said,
        ["Your board is one move behind: play thirty-two, twenty-eight."]
    );
    let r = s.handle(Cmd::Done(None), Source::Control);
    assert_eq!(r.said, ["Both boards agree."]);
    assert_eq!(s.view().boards.black.behind, 0);
    s.handle(Cmd::Move("19-23".into()), Source::Typed);
    assert_eq!(s.view().boards.white.behind, 1);
    // Entering one's own next move counts as done.
    s.handle(Cmd::Move("28x19".into()), Source::Typed);
    let v = s.view();
    assert_eq!((v.boards.white.behind, v.boards.black.behind), (0, 1));
    let r = s.handle(Cmd::Missing(None), Source::Typed);
    // The blind player (white) is up to date.
    assert_eq!(r.said, ["Both boards agree."]);
}

#[tokio::test(start_paused = true)]
async fn clock_reports_warnings_and_a_flag_fall() {
    let mut f = fixture();
    let s = f.start(&setup(Variant::International, "2m"));
    let (h, task) = s_spawn(s);
    tokio::time::advance(Duration::from_secs(5)).await;
    let r = ask(&h, Cmd::Move("32-28".into()), Source::Typed).await;
    assert!(r.ok);
    tokio::time::advance(Duration::from_secs(3)).await;
    let r = h.request(Cmd::Clock, Source::Typed).await.unwrap();
    assert_eq!(
        r.said,
        ["White: used five seconds, left one minute fifty-five seconds. Black: used three seconds, left one minute fifty-seven seconds. One move made."]
    );
    drain(&mut f.speech);
    // Black thinks: one minute left, ten seconds left, flag.
    tokio::time::sleep(Duration::from_secs(57)).await;
    tokio::task::yield_now().await;
    assert_eq!(drain(&mut f.speech), ["Warning, black: one minute left."]);
    tokio::time::sleep(Duration::from_secs(60)).await;
    tokio::task::yield_now().await;
    assert_eq!(
        drain(&mut f.speech),
        [
            "Warning, black: ten seconds left.",
            "Black's flag has fallen.",
            "Game over. White wins. Black lost on time."
        ]
    );
    let st = ask(&h, Cmd::State, Source::Control).await.state.unwrap();
    assert_eq!(st.result.as_deref(), Some("2-0"));
    assert_eq!(st.clocks.black.flag_ms, Some(125_000));
    let r = ask(&h, Cmd::Move("19-23".into()), Source::Typed).await;
    assert!(!r.ok);
    h.shutdown().await;
    task.await.unwrap();
    let s = f.resume();
    assert_eq!(s.view().result.as_deref(), Some("2-0"));
}

/// `cmd` from `source`, answered.
async fn ask(h: &SessionHandle, cmd: Cmd, source: Source) -> Reply {
    h.request(cmd, source).await.unwrap()
}

fn s_spawn(s: Session) -> (tandem::session::SessionHandle, tokio::task::JoinHandle<()>) {
    s.spawn()
}

#[tokio::test(start_paused = true)]
async fn draw_offers_follow_chapter_two_5_1() {
    let mut f = fixture();
    let mut s = f.start(&setup(Variant::International, "90m"));
    let moves = game_moves("dutch96h.pdn", 0);
    for m in &moves[..10] {
        assert!(s.handle(Cmd::Move(m.clone()), Source::Typed).ok);
    }
    let r = s.handle(Cmd::Draw(DrawCmd::Offer, None), Source::Control);
    assert!(!r.ok);
    assert_eq!(
        r.said,
        ["A draw may be offered only after forty moves each."]
    );
    for m in &moves[10..80] {
        assert!(s.handle(Cmd::Move(m.clone()), Source::Typed).ok, "{m}");
    }
    // White just made its 40th move... no: 80 plies = 40 moves each, black moved last.
    let r = s.handle(
        Cmd::Draw(DrawCmd::Offer, Some(Color::White)),
        Source::Control,
    );
    assert_eq!(r.said, ["A draw is offered right after one's own move."]);
    let r = s.handle(Cmd::Draw(DrawCmd::Offer, None), Source::Control);
    assert!(r.ok, "{r:?}");
    assert_eq!(r.said, ["Black offers a draw."]);
    // White answers by moving: that declines (5.1), and black may not offer again.
    assert!(s.handle(Cmd::Move(moves[80].clone()), Source::Typed).ok);
    assert_eq!(s.view().draw_offer, None);
    assert!(s.handle(Cmd::Move(moves[81].clone()), Source::Typed).ok);
    let r = s.handle(Cmd::Draw(DrawCmd::Offer, None), Source::Control);
    assert_eq!(
        r.said,
        ["Your offer was declined. You may not repeat it until your opponent offers a draw."]
    );
    assert!(s.handle(Cmd::Move(moves[82].clone()), Source::Typed).ok);
    let r = s.handle(Cmd::Draw(DrawCmd::Offer, None), Source::Control);
    assert_eq!(r.said, ["White offers a draw."]);
    let r = s.handle(Cmd::Draw(DrawCmd::Accept, None), Source::Control);
    assert_eq!(r.said, ["Game over. Draw. Draw agreed."]);
    assert_eq!(s.view().result.as_deref(), Some("1-1"));
    drain(&mut f.speech);
}

#[tokio::test(start_paused = true)]
async fn a_mismatch_stops_the_clock_and_names_the_differing_squares() {
    let mut f = fixture();
    let mut s = after_32_28_19_23(&f);
    // White's board still lacks black's 19-23 (read back without the side to move): only behind.
    let behind = "W28,31,33-50:B1-20";
    let r = mismatch(&mut s, behind);
    assert!(r.ok);
    assert_eq!(
        r.said,
        ["Your board is one move behind: play nineteen, twenty-three."]
    );
    assert!(!s.view().clocks.paused);
    // A board with 33 on 29 instead of 32 on 28.
    let wrong = "W:W28,29,31,34-50:B1-18,20,23";
    let r = mismatch(&mut s, wrong);
    assert!(r.ok);
    assert_eq!(
        r.said,
        [
            "Attention: the boards differ. Clock stopped. Call the arbiter. Square twenty-nine: record empty, board white man. Square thirty-three: record white man, board empty."
        ]
    );
    assert!(s.view().clocks.paused);
    let r = s.handle(Cmd::Move("28x19".into()), Source::Typed);
    assert!(!r.ok);
    assert_eq!(r.said, ["The clock is stopped. Resume the game first."]);
    assert!(s.handle(Cmd::Resume, Source::Control).ok);
    assert!(s.handle(Cmd::Move("28x19".into()), Source::Typed).ok);
    drain(&mut f.speech);
}

#[tokio::test(start_paused = true)]
async fn a_board_read_back_square_by_square_is_compared_square_by_square() {
    // 001 ch. VIII 3.1 and issue 7: the blind player reads squares off the
    // tactile board; only the squares read are compared.
    let mut f = fixture();
    let mut s = after_32_28_19_23(&f);
    let r = mismatch(&mut s, "28:w, 23:b, 19:empty");
    assert!(r.ok);
    assert!(
        !s.view().clocks.paused,
        "the squares read agree: {:?}",
        r.said
    );
    let r = mismatch(&mut s, "28 empty, 32 white man");
    assert!(r.ok);
    assert_eq!(
        r.said,
        [
            "Attention: the boards differ. Clock stopped. Call the arbiter. Square twenty-eight: record white man, board empty. Square thirty-two: record empty, board white man."
        ]
    );
    assert!(s.view().clocks.paused);
    let r = mismatch(&mut s, "28:x");
    assert!(!r.ok, "an unreadable read-back is refused: {:?}", r.said);
    drain(&mut f.speech);
}

#[tokio::test(start_paused = true)]
async fn resume_rebuilds_game_boards_and_clock_paused_and_says_so() {
    let moves = game_moves("dutch96h.pdn", 0);
    let mut f = fixture();
    let mut s = f.start(&setup(Variant::International, "90m"));
    for m in &moves[..7] {
        tokio::time::advance(Duration::from_millis(1500)).await;
        assert!(s.handle(Cmd::Move(m.clone()), Source::Typed).ok);
    }
    s.handle(Cmd::Done(Some(Color::White)), Source::Control);
    tokio::time::advance(Duration::from_millis(700)).await;
    let before = s.view();
    drop(s);
    // A torn line, as after a power loss mid-write.
    let mut bytes = std::fs::read(&f.journal).unwrap();
    bytes.extend_from_slice(br#"{"seq":99,"wall":"#);
    std::fs::write(&f.journal, bytes).unwrap();
    drain(&mut f.speech);
    tokio::time::advance(Duration::from_secs(100)).await;
    let s = f.resume();
    let after = s.view();
    assert_eq!(after.fen, before.fen);
    assert_eq!(after.moves, before.moves);
    assert_eq!(after.boards, before.boards);
    assert!(after.clocks.paused);
    // Time is charged up to the last journal line only.
    assert_eq!(
        after.clocks.white.remaining_ms,
        before.clocks.white.remaining_ms
    );
    assert_eq!(
        after.clocks.black.used_ms,
        before.clocks.black.used_ms - 700
    );
    assert_eq!(
        drain(&mut f.speech),
        [
            "Game resumed after a restart. Four moves made. Black to move.",
            "Clock stopped."
        ]
    );
    let j = Journal::read(&f.journal).unwrap();
    assert!(j.bad.is_none() && j.torn.is_none());
}

/// Game times (`t_ms`) of the journal's `tick` checkpoints.
fn ticks(journal: &std::path::Path) -> Vec<u64> {
    let j = Journal::read(journal).unwrap();
    assert!(j.bad.is_none() && j.torn.is_none());
    j.records
        .iter()
        .filter(|r| matches!(r.event, Event::Tick))
        .map(|r| r.t_ms)
        .collect()
}

#[tokio::test(start_paused = true)]
async fn the_running_clock_is_checkpointed_once_a_second_and_not_while_paused() {
    let mut f = fixture();
    let s = f.start(&setup(Variant::International, "90m"));
    let mut notices = f.out.notices.subscribe();
    let (h, task) = s_spawn(s);
    // White's clock runs from the start: a checkpoint each second.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    assert_eq!(ticks(&f.journal), [1000, 2000, 3000]);
    // Nobody is told about a checkpoint: no speech, no notice.
    assert_eq!(drain(&mut f.speech), ["White to move."]);
    assert!(notices.try_recv().is_err(), "a checkpoint was announced");
    // Any line is a checkpoint: the next tick is a second after the move.
    let r = ask(&h, Cmd::Move("32-28".into()), Source::Typed).await;
    assert!(r.ok, "{r:?}");
    tokio::time::sleep(Duration::from_millis(2200)).await;
    assert_eq!(ticks(&f.journal), [1000, 2000, 3000, 4500, 5500]);
    // Paused: no checkpoints (the clock does not run).
    assert!(h.request(Cmd::Pause, Source::Control).await.unwrap().ok);
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(ticks(&f.journal).len(), 5);
    // Running again: checkpoints again, charged to black on a resume.
    assert!(h.request(Cmd::Resume, Source::Control).await.unwrap().ok);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(ticks(&f.journal), [1000, 2000, 3000, 4500, 5500, 16_700]);
    let before = ask(&h, Cmd::State, Source::Control).await.state.unwrap();
    // The game is over: no checkpoints.
    assert!(
        h.request(Cmd::Resign(None), Source::Control)
            .await
            .unwrap()
            .ok
    );
    let n = ticks(&f.journal).len();
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(ticks(&f.journal).len(), n);
    h.shutdown().await;
    task.await.unwrap();
    drain(&mut f.speech);
    // Replay charges black up to the last line (here the result, after the
    // last tick): black used 2.2 s before the pause and 1.5 s after it.
    let s = f.resume();
    let after = s.view();
    assert_eq!(after.clocks.black.used_ms, before.clocks.black.used_ms);
    assert_eq!(after.clocks.black.used_ms, 3_700);
    assert_eq!(after.clocks.white.used_ms, 3_500);
}

#[tokio::test(start_paused = true)]
async fn a_resume_charges_the_side_to_move_up_to_the_last_checkpoint() {
    let mut f = fixture();
    let s = f.start(&setup(Variant::International, "90m"));
    let (h, task) = s_spawn(s);
    for m in ["32-28", "19-23"] {
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(
            h.request(Cmd::Move(m.into()), Source::Typed)
                .await
                .unwrap()
                .ok
        );
    }
    // White thinks 7.3 s; the daemon dies (no shutdown line: the task is dropped).
    tokio::time::sleep(Duration::from_millis(7300)).await;
    let before = ask(&h, Cmd::State, Source::Control).await.state.unwrap();
    task.abort();
    let _ = task.await;
    drain(&mut f.speech);
    tokio::time::advance(Duration::from_secs(60)).await;
    let s = f.resume();
    let after = s.view();
    assert!(after.clocks.paused);
    assert_eq!(after.turn, Color::White);
    // White's think up to the last checkpoint (7 s of the 7.3 s), black untouched.
    assert_eq!(after.clocks.white.used_ms, 400 + 7_000);
    assert_eq!(before.clocks.white.used_ms, 400 + 7_300);
    assert_eq!(after.clocks.black.used_ms, before.clocks.black.used_ms);
    assert_eq!(
        drain(&mut f.speech),
        [
            "Game resumed after a restart. One move made. White to move.",
            "Clock stopped."
        ]
    );
}
