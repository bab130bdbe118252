//! The real daemon with `tandem ctl`: a match without a clock
//! (`tandem play --variant backgammon --match 7 --control none`), a game
//! resigned for a gammon offered with `tandem ctl resign gammon`, declined,
//! offered again and accepted with `tandem ctl accept`, a SIGKILL while an
//! offer waits (`--resume` knows it), and the match's score after it.

mod support;

use serde_json::json;
use support::{
    backgammon_match, ctl_refused as refused, ctl_state as state, ctl_text as ok, resume_text_only,
    verify_ok,
};

#[test]
fn an_untimed_match_resigns_a_gammon_through_ctl_and_survives_a_kill_with_the_offer_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let untimed = ["--match", "7", "--control", "none"];
    let (mut d, journal, sock) = backgammon_match(dir.path(), &untimed);
    let j = journal.to_str().unwrap();
    let st = state(&sock);
    assert_eq!(st["clocks"]["control"], "none");
    ok(&sock, &["roll", "3", "1"]);
    ok(&sock, &["move", "8/5 6/5"]);
    // No clock: said so, with the match score.
    assert_eq!(
        ok(&sock, &["clock"]),
        "No clock in this game. Moves made: one.\nWhite 0, Black 0, match to 7.\n"
    );
    ok(&sock, &["double"]);
    ok(&sock, &["take"]);
    // Black resigns a gammon (2 × the cube of 2); white declines.
    assert_eq!(
        ok(&sock, &["resign", "gammon"]),
        "Black offers to resign a gammon. White: accept or decline?\n"
    );
    refused(&sock, &["roll", "4", "2"]);
    assert_eq!(
        ok(&sock, &["decline"]),
        "White declines: the game goes on.\n"
    );
    refused(&sock, &["accept"]);
    refused(&sock, &["resign", "white", "seven"]);
    ok(&sock, &["resign", "black", "2"]);
    let before_kill = state(&sock);
    assert_eq!(before_kill["turn"], "white", "white answers the offer");

    // SIGKILL with the offer waiting: it waits after --resume too.
    d.kill();
    let _d = resume_text_only(dir.path(), j);
    let st = state(&sock);
    for k in ["position_id", "match_id", "cube", "score", "turn", "moves"] {
        assert_eq!(st[k], before_kill[k], "{k} after --resume");
    }
    assert_eq!(st["clocks"]["control"], "none");
    ok(&sock, &["resume"]);
    assert_eq!(
        ok(&sock, &["accept"]),
        "White accepts. Black resigns a gammon. White wins four points. White 4, Black 0, match to 7.\n"
    );
    assert_eq!(
        state(&sock)["score"],
        json!({"white": 4, "black": 0, "length": 7, "crawford": false})
    );
    verify_ok(&journal);
}
