//! Backgammon entered on the braille display, end to end: the real
//! `tandem play --variant backgammon` with the real BRLTTY (a virtual
//! display through its `vr` driver and BrlAPI). The blind player types the
//! opening roll on the braille keys (two dice, then Enter), enters the turn
//! with the routing keys checker by checker (each pick and step said back,
//! an impossible step refused with the rules' reason and nothing changed),
//! and the move reaches the journal and both boards' state; panning on 40
//! cells reaches the counts and the status line and comes back; on a
//! 20-cell display the board line is in two windows and the routing keys
//! follow the panning.
//!
//! Without BRLTTY the test fails with a message, unless `TANDEM_SKIP_REAL`
//! is set outside CI.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use support::{ctl, journal_events, real_brltty, Daemon, Play};
use tandem_braille::backgammon::{board_line, BgLine, BgSpot};
use tandem_braille::testing::brltty::VirtualBrltty;
use tandem_braille::{Cell, Key, KeyCommand, Width};
use tandem_rules::backgammon::{Board, Match, MatchOptions};
use tandem_rules::Color;

const T: Duration = Duration::from_secs(20);

/// The next thing said that starts with `want` (earlier words skipped).
fn hear(events: &mut tandem::client::Client, want: &str) -> String {
    let mut heard = Vec::new();
    loop {
        let v = events
            .next_line()
            .unwrap_or_else(|e| panic!("never said {want:?} ({e}); heard {heard:?}"));
        if v["event"] == "speech" {
            let text = v["text"].as_str().unwrap_or_default().to_owned();
            if text.starts_with(want) {
                return text;
            }
            heard.push(text);
        }
    }
}

fn state(c: &mut tandem::client::Client) -> Value {
    c.request("state", None).unwrap()["state"].clone()
}

/// Waits until the display shows `cells` at its start.
fn shows(b: &VirtualBrltty, cells: &[Cell]) {
    b.wait_for(T, |s| s.cells.starts_with(cells))
        .unwrap_or_else(|e| panic!("the display never showed the cells: {e:?}"));
}

fn cell(line: &BgLine, p: u8) -> usize {
    line.cell_of(BgSpot::Point(p)).unwrap()
}

fn start(b: &VirtualBrltty, blind: &str) -> (tempfile::TempDir, Daemon, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("match.jsonl");
    let d = Play::in_dir(dir.path())
        .args(["--variant", "backgammon", "--match", "3", "--blind", blind])
        .args(["--lang", "en", "--speech", "text"])
        .brltty(b)
        .journal(&journal)
        .start();
    (dir, d, journal)
}

#[test]
fn a_roll_on_the_braille_keys_and_a_turn_by_routing_keys() {
    let Some(b) = real_brltty(40) else { return };
    let (_dir, d, journal) = start(&b, "black");
    let mut events = d.subscribed();
    let mut c = d.client();
    let m = Match::new(MatchOptions { length: 3 });
    shows(&b, &board_line(m.board(), Color::Black).cells);

    // The opening roll on the braille keys: white's die 1, black's die 3
    // (typed as the letter c: dots 1-4), then Enter. Black starts with 3-1.
    b.press_key(Key::Char('1')).unwrap();
    b.wait_for(T, |s| s.text.starts_with("roll 1")).unwrap();
    b.press_key(Key::Char('c')).unwrap();
    b.wait_for(T, |s| s.text.starts_with("roll 13")).unwrap();
    b.press_key(Key::Command(KeyCommand::Done)).unwrap();
    hear(&mut events, "Black starts with three one.");
    let st = state(&mut c);
    assert_eq!(st["dice"], serde_json::json!([1, 3]), "{st}");
    let action = &journal_events(&journal, "action")[0];
    assert_eq!(action["text"], "roll 13", "{action}");
    assert_eq!(action["source"], "keys", "{action}");

    // Black's board line, black's numbering; the checkers to move: 8 and 6 to 5.
    let line = board_line(m.board(), Color::Black);
    shows(&b, &line.cells);
    // An impossible step: 8 to 3 is no die of 3-1. Said why; nothing changes.
    b.route(cell(&line, 8)).unwrap();
    hear(&mut events, "From eight.");
    b.wait_for(T, |s| {
        s.cells
            .get(cell(&line, 8))
            .is_some_and(|c| c.0 & 0xC0 == 0xC0)
    })
    .unwrap();
    b.route(cell(&line, 3)).unwrap();
    hear(&mut events, "eight to three is not on the dice.");
    // No checker of black's on 7: nothing is picked up.
    b.route(cell(&line, 7)).unwrap();
    hear(&mut events, "No checker of yours on seven.");
    let st = state(&mut c);
    assert_eq!(st["dice"], serde_json::json!([1, 3]), "{st}");
    assert_eq!(st["pips"]["black"], 167, "{st}");
    assert!(journal_events(&journal, "move").is_empty());
    shows(&b, &line.cells);

    // 8 to 5: said back; the display shows the checker moved.
    b.route(cell(&line, 8)).unwrap();
    hear(&mut events, "From eight.");
    b.route(cell(&line, 5)).unwrap();
    hear(&mut events, "eight to five.");
    let mut after = line.cells.clone();
    after[cell(&line, 8)] = Cell::from_dots(&[1, 2]);
    after[cell(&line, 5)] = Cell::from_dots(&[1]);
    shows(&b, &after);
    // Panning on 40 cells: the counts, the status line (the die left), and back.
    b.press("FWINRT").unwrap();
    b.wait_for(T, |s| {
        s.text
            .starts_with("bar 0 0 24x2 19o5 17o3 13x5 12o5 8x2 6x5")
    })
    .unwrap();
    // One key at a time, each waited for: BRLTTY may read two presses sent
    // close together on a loaded machine as one.
    b.press("FWINRT").unwrap();
    // The counts are the board after the step entered: 8x2, and 5x1 on.
    b.wait_for(T, |s| s.text.starts_with("5x1 1o2 off 0 0"))
        .unwrap();
    b.press("FWINRT").unwrap();
    b.wait_for(T, |s| {
        s.text.starts_with("13 left 1 | pips 167 167 | cube 1")
    })
    .unwrap();
    b.press("TOP").unwrap();
    shows(&b, &after);
    // 6 to 5: the whole move, played as if typed.
    b.route(cell(&line, 6)).unwrap();
    hear(&mut events, "From six.");
    b.route(cell(&line, 5)).unwrap();
    hear(&mut events, "Black: eight to five, six to five.");
    let moves = journal_events(&journal, "move");
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["text"], "8/5 6/5", "{}", moves[0]);
    assert_eq!(moves[0]["source"], "keys", "{}", moves[0]);
    assert_eq!(moves[0]["side"], "black", "{}", moves[0]);
    let st = state(&mut c);
    assert_eq!(st["pips"]["black"], 163, "{st}");
    assert!(st["dice"].is_null(), "{st}");
    // Black's board has the move (its own); white's lacks it until its owner
    // says done. The roll moves no checker, so it is not counted.
    assert_eq!(st["ply"], 2, "{st}");
    assert_eq!(st["moves"], serde_json::json!(["roll 13", "move 8/5 6/5"]));
    assert_eq!(st["boards"]["black"]["behind"], 0, "{st}");
    assert_eq!(st["boards"]["white"]["behind"], 1, "{st}");
    let mut played = m.clone();
    played.act_text("roll 13").unwrap();
    played.act_text("8/5 6/5").unwrap();
    assert_eq!(st["position_id"], played.position_id(), "{st}");
    shows(&b, &board_line(played.board(), Color::Black).cells);
    let out = ctl(&d.socket, &["pips"]);
    assert!(out.status.success(), "{out:?}");
}

/// On a 20-cell display showing the first window: 13 routed there, the
/// display panned right, 10 and then 6 routed in the second window.
fn thirteen_ten_then_six(
    b: &VirtualBrltty,
    events: &mut tandem::client::Client,
    windows: &[BgLine],
) {
    b.route(cell(&windows[0], 13)).unwrap();
    hear(events, "From thirteen.");
    b.press("FWINRT").unwrap();
    shows(b, &windows[1].cells);
    b.route(cell(&windows[1], 10)).unwrap();
    hear(events, "thirteen to ten.");
    b.route(cell(&windows[1], 6)).unwrap();
    hear(events, "From six.");
}

#[test]
fn a_narrow_display_pans_the_board_line_and_the_keys_follow() {
    let Some(b) = real_brltty(20) else { return };
    let (_dir, d, journal) = start(&b, "white");
    let mut events = d.subscribed();
    let out = ctl(&d.socket, &["roll", "3", "1"]);
    assert!(out.status.success(), "{out:?}");
    hear(&mut events, "White starts with three one.");
    let board = Board::start(Color::White);
    let windows = board_line(&board, Color::White).windows(Width::new(20).unwrap());
    assert_eq!(windows.len(), 2);
    shows(&b, &windows[0].cells);
    // 13 is in the first window (bar .. 13), 10 and 6, 5 in the second.
    thirteen_ten_then_six(&b, &mut events, &windows);
    // The cancel key drops the steps; the board line is the position again.
    b.press_key(Key::Command(KeyCommand::Cancel)).unwrap();
    hear(&mut events, "Steps cleared.");
    shows(&b, &windows[1].cells);
    b.press("FWINLT").unwrap();
    shows(&b, &windows[0].cells);
    thirteen_ten_then_six(&b, &mut events, &windows);
    b.route(cell(&windows[1], 5)).unwrap();
    hear(&mut events, "White: thirteen to ten, six to five.");
    let moves = journal_events(&journal, "move");
    assert_eq!(moves[0]["text"], "13/10 6/5", "{}", moves[0]);
    assert_eq!(moves[0]["source"], "keys", "{}", moves[0]);
}
