//! A draughts move entered on the braille display, end to end: the real
//! `tandem play --variant sixty-four` with the real BRLTTY (a virtual
//! display through its `vr` driver and BrlAPI). Two routing keys over two
//! squares of the rows view reach the daemon as two targets; the game
//! names them by the variant's square names (`c3 d4`: 64-square draughts
//! names its squares algebraically, 001 ch. I 2.6.4) and the move is
//! decided, journaled and shown like a typed one.
//!
//! Without BRLTTY the test fails with a message, unless `TANDEM_SKIP_REAL`
//! is set outside CI.

mod support;

use std::time::Duration;

use support::{journal_events, real_brltty, wait_ply, Play};
use tandem_braille::{Key, KeyCommand};

const T: Duration = Duration::from_secs(20);

#[test]
fn two_routing_keys_play_a_sixty_four_square_move() {
    let Some(b) = real_brltty(40) else { return };
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let d = Play::in_dir(dir.path())
        .args([
            "--variant",
            "sixty-four",
            "--lang",
            "en",
            "--speech",
            "text",
        ])
        .brltty(&b)
        .journal(&journal)
        .start();
    let mut c = d.client();
    // The list view first (white's men from a3); the next view is the
    // rows, one board row a line, at the row of the list's first square.
    b.wait_for(T, |s| s.text.starts_with("W a3 c3"))
        .unwrap_or_else(|e| panic!("the list view never showed: {e:?}"));
    b.press_key(Key::Command(KeyCommand::NextView)).unwrap();
    b.wait_for(T, |s| s.text.starts_with("a3:w c3:w e3:w g3:w"))
        .unwrap_or_else(|e| panic!("row 3 never showed: {e:?}"));
    // Over the "3" of "c3:w": the from-square, marked with dots 7-8.
    b.route(6).unwrap();
    b.wait_for(T, |s| s.cells[5..9].iter().all(|c| c.0 & 0xC0 == 0xC0))
        .unwrap_or_else(|e| panic!("c3 was never marked: {e:?}"));
    b.press_key(Key::LineUp).unwrap();
    b.wait_for(T, |s| s.text.starts_with("b4:- d4:- f4:- h4:-"))
        .unwrap_or_else(|e| panic!("row 4 never showed: {e:?}"));
    // Over "d4:-": the move.
    b.route(5).unwrap();
    let st = wait_ply(&mut c, 1);
    assert_eq!(st["turn"], "black", "{st}");
    let moves = journal_events(&journal, "move");
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["text"], "c3-d4", "{}", moves[0]);
    assert_eq!(moves[0]["source"], "keys", "{}", moves[0]);
    // The display shows the board after it: d4 white, c3 empty.
    b.wait_for(T, |s| s.text.starts_with("b4:- d4:w f4:- h4:-"))
        .unwrap_or_else(|e| panic!("the move never showed on the display: {e:?}"));
}
