//! The backgammon table's last gaps, through the session actor (tokio's
//! paused clock) and the journal: a match without a clock (`--control
//! none`, 004 3.5 (i) (a)); a game resigned for 1, 2 or 3 times the cube,
//! offered then accepted or declined (004 4.5, 4.3 (ii) (g)), and the match
//! resigned; the two boards counting only the checkers' moves; the spoken
//! record naming each side once a turn; and the Position ID and Match ID of
//! `tandem ctl state` at every step (a double offered, taken, passed, the
//! Crawford game, a resignation offered) against the real GNU Backgammon.

use std::path::PathBuf;
use std::time::Duration;

use tandem::game::GameKind;
use tandem::journal::{Event, Source};
use tandem::session::{Cmd, GameSetup, Session};
use tandem_rules::{Color, GameOptions};
use tandem_testkit::gnubg;

mod support;

use support::session::{drain, events, fixture, game_setup};

fn setup(length: u32, control: &str, lang: &str) -> GameSetup {
    let mut s = game_setup(GameKind::Backgammon.position(None).unwrap(), control, lang);
    s.options = GameOptions {
        match_length: length,
        listener: Some(Color::White),
        ..GameOptions::default()
    };
    s
}

/// A line typed at the table, as the screen's input line sends it.
/// Each of the `; `-separated `lines` typed in turn.
fn typed_each(s: &mut Session, lines: &str) {
    for line in lines.split("; ") {
        typed(s, line);
    }
}

fn typed(s: &mut Session, line: &str) -> Vec<String> {
    let r = s.handle(Cmd::parse_line(line), Source::Typed);
    assert!(r.ok, "{line}: {r:?}");
    r.said
}

fn state(s: &Session) -> serde_json::Value {
    serde_json::to_value(s.view()).unwrap()
}

fn behind(s: &Session) -> (u64, u64) {
    let st = state(s);
    (
        st["boards"]["white"]["behind"].as_u64().unwrap(),
        st["boards"]["black"]["behind"].as_u64().unwrap(),
    )
}

#[tokio::test(start_paused = true)]
async fn a_match_without_a_clock_never_flags_says_so_and_resumes_untimed() {
    let mut f = fixture();
    let mut s = f.start(&setup(3, "none", "en"));
    drain(&mut f.speech);
    let Some(Event::Start(info)) = events(&f.journal).into_iter().next() else {
        panic!("no start line")
    };
    assert_eq!(info.control, "none", "the journal records it");
    typed_each(&mut s, "roll 5 2; 13/11 13/8");
    // Ten hours on black's roll: no warning, no flag (004 3.5 (i) (a)).
    tokio::time::advance(Duration::from_secs(36_000)).await;
    s.poll_clock();
    assert_eq!(s.next_deadline(), None);
    assert_eq!(s.view().result, None);
    assert_eq!(
        typed(&mut s, "clock"),
        [
            "No clock in this game. Moves made: one.",
            "White 0, Black 0, match to 3."
        ]
    );
    let st = state(&s);
    assert_eq!(st["clocks"]["control"], "none");
    assert_eq!(st["clocks"]["white"]["remaining_ms"], 0);
    assert_eq!(st["clocks"]["black"]["flag_ms"], serde_json::Value::Null);
    // No running times on the braille status line.
    let status = s.table().status(s.now());
    assert_eq!((status.white_clock, status.black_clock), (None, None));
    typed(&mut s, "roll 6 4");
    drop(s);
    let mut again = f.resume();
    assert_eq!(state(&again)["clocks"]["control"], "none");
    assert_eq!(state(&again)["dice"], serde_json::json!([6, 4]));
    again.handle(Cmd::Resume, Source::Typed);
    tokio::time::advance(Duration::from_secs(36_000)).await;
    again.poll_clock();
    assert_eq!(again.view().result, None);
    typed(&mut again, "24/14*");
    assert!(!events(&f.journal)
        .iter()
        .any(|e| matches!(e, Event::Flag { .. } | Event::Warning { .. })));
}

#[tokio::test(start_paused = true)]
async fn a_game_is_resigned_for_one_two_or_three_times_the_cube_offered_then_answered() {
    let mut f = fixture();
    let mut s = f.start(&setup(7, "eubgf-7", "en"));
    drain(&mut f.speech);
    typed_each(&mut s, "roll 3 1; 8/5 6/5; double; take");
    // Black on roll: the session's own `resign` is the game's offer of a single game.
    assert_eq!(
        typed(&mut s, "resign"),
        ["Black offers to resign a single game. White: accept or decline?"]
    );
    assert_eq!(s.table().game.turn(), Color::White, "white answers");
    let r = s.handle(Cmd::parse_line("roll 4 2"), Source::Typed);
    assert!(!r.ok);
    assert_eq!(
        r.said,
        ["A resignation is offered: accept or decline first."]
    );
    assert_eq!(
        typed(&mut s, "decline"),
        ["White declines: the game goes on."]
    );
    assert_eq!(state(&s)["score"]["white"], 0);
    // `resign gammon` (or `resign 2`), accepted: 2 × the cube of 2.
    assert_eq!(
        typed(&mut s, "resign gammon"),
        ["Black offers to resign a gammon. White: accept or decline?"]
    );
    assert_eq!(
        typed(&mut s, "accept"),
        ["White accepts. Black resigns a gammon. White wins four points. White 4, Black 0, match to 7."]
    );
    let actions: Vec<String> = events(&f.journal)
        .into_iter()
        .filter_map(|e| match e {
            Event::Action { text, press, .. } if text.starts_with("resign") => {
                assert!(!press, "{text} presses no clock");
                Some(text)
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        actions,
        [
            "resign offer black 1",
            "resign decline",
            "resign offer black 2",
            "resign black 2"
        ]
    );
    // `tandem ctl resign white 3` arrives as the command word `resign`
    // with arguments; a backgammon of 3 × the cube of 1.
    typed_each(&mut s, "roll 2 4; 24/20 13/11");
    let r = s.handle(Cmd::Unknown("resign white 3".into()), Source::Control);
    assert!(r.ok, "{r:?}");
    let r = s.handle(Cmd::Resign(Some(Color::Black)), Source::Control);
    assert!(!r.ok, "an offer waits: no second one");
    typed(&mut s, "accept");
    assert_eq!(
        state(&s)["score"],
        serde_json::json!({"white": 4, "black": 3, "length": 7, "crawford": false})
    );
    // The journal replays to the same score.
    drop(s);
    let mut again = f.resume();
    assert_eq!(state(&again)["score"]["black"], 3);
    again.handle(Cmd::Resume, Source::Typed);
    // The whole match resigned, as in the other games.
    typed(&mut again, "roll 5 3");
    let said = typed(&mut again, "resign match white");
    assert!(
        said.last().unwrap().ends_with("Black wins the match."),
        "{said:?}"
    );
    assert_eq!(again.view().result.as_deref(), Some("0-1"));
    drop(again);
    let back = f.resume();
    assert_eq!(back.view().result.as_deref(), Some("0-1"));
}

#[tokio::test(start_paused = true)]
async fn resignation_in_polish_and_bad_levels_refused() {
    let mut f = fixture();
    let mut s = f.start(&setup(5, "eubgf-5", "pl"));
    drain(&mut f.speech);
    let r = s.handle(Cmd::parse_line("poddaję się"), Source::Typed);
    assert!(!r.ok, "no game before the opening roll");
    typed_each(&mut s, "roll 6 1; 13/7 8/7; roll 3 2");
    let r = s.handle(Cmd::parse_line("resign 4"), Source::Typed);
    assert!(!r.ok);
    assert_eq!(r.said, ["Poddaj jeden, dwa albo trzy."]);
    assert_eq!(
        typed(&mut s, "poddaję potrójnie"),
        ["Czarny chce poddać partię potrójnie. Biały: przyjmuje czy odrzuca?"]
    );
    assert_eq!(
        typed(&mut s, "odrzucam"),
        ["Biały odrzuca: gra toczy się dalej."]
    );
    typed(&mut s, "poddaję się");
    let said = typed(&mut s, "przyjmuję");
    assert!(
        said[0].starts_with("Biały przyjmuje. Czarny poddaje partię pojedynczo."),
        "{said:?}"
    );
    assert_eq!(state(&s)["score"]["white"], 1);
    let r = s.handle(Cmd::parse_line("odrzucam"), Source::Typed);
    assert_eq!(r.said, ["Nikt nie proponował poddania."]);
}

#[tokio::test(start_paused = true)]
async fn a_roll_leaves_both_boards_in_sync_and_a_move_puts_the_other_behind() {
    let f = fixture();
    let mut s = f.start(&setup(3, "eubgf-3", "en"));
    typed(&mut s, "roll 5 2");
    assert_eq!(behind(&s), (0, 0), "a roll changes no board");
    typed(&mut s, "13/11 13/8");
    assert_eq!(behind(&s), (0, 1), "black's board lacks white's move");
    typed(&mut s, "roll 6 4");
    assert_eq!(behind(&s), (0, 1));
    assert_eq!(
        typed(&mut s, "missing black"),
        ["The board is 1 behind. First: White: thirteen to eleven, thirteen to eight."]
    );
    typed(&mut s, "done black");
    assert_eq!(behind(&s), (0, 0));
    // Playing one's own move counts as done (as in the other games).
    typed(&mut s, "24/14*");
    assert_eq!(behind(&s), (1, 0));
    typed(&mut s, "roll 1 1");
    assert_eq!(behind(&s), (1, 0));
    typed(&mut s, "done");
    assert_eq!(behind(&s), (0, 0));
    // A double and its take change no board either.
    typed_each(&mut s, "bar/24 6/5 8/7(2); double; take");
    assert_eq!(behind(&s), (0, 1));
}

#[tokio::test(start_paused = true)]
async fn the_spoken_record_names_each_side_once_a_turn() {
    let f = fixture();
    let mut s = f.start(&setup(3, "eubgf-3", "en"));
    typed_each(
        &mut s,
        "roll 5 2; 13/11 13/8; roll 6 4; 24/14*; double; take",
    );
    assert_eq!(
        typed(&mut s, "record 1"),
        [
            "Move one. White starts with five two. Thirteen to eleven, thirteen to eight.",
            "Move two. Black rolls six four. One to eleven, hitting.",
            "Move three. White doubles to two. Black takes."
        ]
    );
    assert_eq!(
        s.view().screen.record,
        [
            "Game 1: White 0, Black 0, match to 3",
            "  1. White 52: 13/11 13/8",
            "  2. Black 64: 24/14*",
            "  3. White doubles to 2, Black takes"
        ]
    );
}

fn gnubg_ids(questions: &str) -> Option<Vec<(String, String)>> {
    if !gnubg::present() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let script: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "data",
        "gnubg",
        "steps.py",
    ]
    .iter()
    .collect();
    let (answer, stderr) = gnubg::ask(&script, dir.path(), questions);
    let ids: Vec<(String, String)> = answer
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "gnubg: {l:?}\n{stderr}");
            (f[1].to_owned(), f[2].to_owned())
        })
        .collect();
    Some(ids)
}

#[tokio::test(start_paused = true)]
async fn the_ids_in_state_equal_gnubgs_with_a_double_offered_taken_passed_and_in_the_crawford_game()
{
    // Each step: what is typed at tandem's table, and the same in gnubg
    // (`C` lines set gnubg up and are not compared).
    let steps: &[(&str, &str)] = &[
        ("roll 5 2", "C new match 3\nC set turn 0\nQ set dice 5 2"),
        ("13/11 13/8", "Q move 13/11 13/8"),
        ("roll 6 4", "Q set dice 6 4"),
        ("24/14*", "Q move 24/14*"),
        ("double", "Q double"),
        ("take", "Q take"),
        // A resignation offered and declined (gnubg then takes only a higher one).
        ("resign", "Q resign normal"),
        ("decline", "Q reject"),
        ("roll 3 1", "Q set dice 3 1"),
        ("bar/22 6/5", "Q move bar/22 6/5"),
        ("double", "Q double"),
        ("pass", "Q pass"),
        // The Crawford game: black starts with 4-2 (white's die 2, black's
        // 4); gnubg's opening roll keeps player 0's die first too.
        ("roll 2 4", "C new game\nC set turn 1\nQ set dice 2 4"),
        ("8/4 6/4", "Q move 8/4 6/4"),
        ("roll 6 5", "Q set dice 6 5"),
        ("24/13", "Q move 24/13"),
        ("resign", "Q resign normal"),
        ("accept", "Q accept"),
        // 1-2: a post-Crawford game; white, 2 away, doubles at once; dice
        // entered smaller first.
        ("roll 1 6", "C new game\nC set turn 1\nQ set dice 1 6"),
        ("13/7 8/7", "Q move 13/7 8/7"),
        ("double", "Q double"),
        ("take", "Q take"),
        ("roll 1 3", "Q set dice 1 3"),
        ("24/23 13/10", "Q move 24/23 13/10"),
    ];
    let f = fixture();
    let mut s = f.start(&setup(3, "eubgf-3", "en"));
    let mut ours = Vec::new();
    for (typed_line, _) in steps {
        typed(&mut s, typed_line);
        let st = state(&s);
        ours.push((
            st["position_id"].as_str().unwrap().to_owned(),
            st["match_id"].as_str().unwrap().to_owned(),
        ));
    }
    assert_eq!(
        state(&s)["score"],
        serde_json::json!({"white": 1, "black": 2, "length": 3, "crawford": false})
    );
    assert_eq!(
        state(&s)["cube"],
        serde_json::json!({"value": 2, "owner": "black"})
    );
    let questions: String = steps.iter().map(|(_, g)| format!("{g}\n")).collect();
    let Some(theirs) = gnubg_ids(&questions) else {
        return;
    };
    assert_eq!(theirs.len(), steps.len(), "{theirs:?}");
    for ((step, _), (o, t)) in steps.iter().zip(ours.iter().zip(&theirs)) {
        assert_eq!(o, t, "after {step:?}: tandem {o:?}, gnubg {t:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn draughts_resigns_as_before_and_has_no_kinds_of_resignation() {
    let f = fixture();
    let start = GameKind::Draughts(tandem_rules::draughts::Variant::International)
        .position(None)
        .unwrap();
    let mut s = f.start(&game_setup(start, "none", "en"));
    typed(&mut s, "32-28");
    let r = s.handle(Cmd::parse_line("resign gammon"), Source::Typed);
    assert!(!r.ok, "draughts has no resignation of a gammon: {r:?}");
    assert_eq!(s.view().result, None);
    // `clock` without a clock in draughts too: the moves made.
    assert_eq!(
        typed(&mut s, "clock"),
        ["No clock in this game. Moves made: one."]
    );
    typed(&mut s, "resign black");
    assert_eq!(s.view().result.as_deref(), Some("2-0"));
    let ended = events(&f.journal)
        .into_iter()
        .filter(|e| matches!(e, Event::Action { .. }))
        .count();
    assert_eq!(ended, 0, "the session's own resignation: no game action");
}
