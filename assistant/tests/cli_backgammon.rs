//! Backgammon through the real daemon: `tandem play --headless --variant
//! backgammon --match 3` driven by `tandem ctl roll|move|double|take|pass|pips`,
//! issue 17's state fields, refusals that exit non-zero and change nothing,
//! a SIGKILL after a roll and before its move (`--resume` knows the dice),
//! and `tandem export` of the journal imported by the real GNU Backgammon
//! (`/usr/games/gnubg`, the oracle) to the same Position ID and Match ID.

mod support;

use std::path::Path;

use serde_json::{json, Value};
use support::{
    backgammon_match, ctl_refused, ctl_state as state, ctl_text as ok, resume_text_only, tandem,
    verify_ok,
};
use tandem_rules::backgammon::match_id;

use tandem_testkit::gnubg;

fn refused(socket: &Path, args: &[&str]) -> String {
    let before = state(socket);
    let said = ctl_refused(socket, args);
    let after = state(socket);
    for k in ["ply", "fen", "dice", "cube", "score", "pips", "moves"] {
        assert_eq!(before[k], after[k], "{args:?} changed {k}");
    }
    said
}

fn gnubg_import(mat: &Path) -> Option<(String, String)> {
    if !gnubg::present() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = gnubg::oracle();
    let (answer, stderr) = gnubg::ask(&script, dir.path(), &format!("M {}\n", mat.display()));
    let f: Vec<&str> = answer.trim().split('\t').collect();
    assert_eq!(f.len(), 3, "gnubg: {answer:?}\n{stderr}");
    Some((f[1].to_owned(), f[2].to_owned()))
}

#[test]
fn a_match_through_the_daemon_survives_a_kill_between_roll_and_move_and_exports_for_gnubg() {
    let dir = tempfile::tempdir().unwrap();
    let three = ["--match", "3", "--white", "Alice", "--black", "Bob"];
    let (mut d, journal, sock) = backgammon_match(dir.path(), &three);
    let j = journal.to_str().unwrap();

    // Issue 17's fields, exactly; the EUBGF control of a 3-point match.
    let st = state(&sock);
    assert_eq!(st["variant"], "backgammon");
    assert_eq!(st["position_id"], "4HPwATDgc/ABMA");
    assert_eq!(st["dice"], Value::Null);
    assert_eq!(st["cube"], json!({"value": 1, "owner": null}));
    assert_eq!(
        st["score"],
        json!({"white": 0, "black": 0, "length": 3, "crawford": false})
    );
    assert_eq!(st["pips"], json!({"white": 167, "black": 167}));
    let eubgf3 = tandem_rules::TimeControl::lookup("eubgf-3").unwrap();
    assert_eq!(st["clocks"]["control"], eubgf3.to_string());
    assert!(st["match_id"].as_str().is_some_and(|m| m.len() == 12));

    refused(&sock, &["move", "13/11 13/8"]);
    assert_eq!(
        ok(&sock, &["roll", "5", "2"]),
        "White starts with five two.\n"
    );
    assert_eq!(
        ok(&sock, &["move", "13/11 13/8"]),
        "White: thirteen to eleven, thirteen to eight.\n"
    );
    // After a move the Position ID is the opponent's (who acts next).
    assert_eq!(state(&sock)["position_id"], "4PPIATDgc/ABMA");
    ok(&sock, &["roll", "64"]);
    refused(&sock, &["move", "8/1"]);
    refused(&sock, &["roll", "3", "1"]);
    assert_eq!(
        ok(&sock, &["move", "24/14*"]),
        "Black: one to eleven, hitting.\n"
    );
    ok(&sock, &["roll", "3", "1"]);
    refused(&sock, &["double"]);
    assert!(ok(&sock, &["pips"]).starts_with("Pips: White "));
    let before_kill = state(&sock);
    assert_eq!(before_kill["dice"], json!([3, 1]));

    // SIGKILL after the roll, before the move: the dice come back.
    d.kill();
    let _d = resume_text_only(dir.path(), j);
    let st = state(&sock);
    for k in "position_id match_id dice cube score pips moves".split(' ') {
        assert_eq!(st[k], before_kill[k], "{k} after --resume");
    }
    ok(&sock, &["resume"]);
    assert_eq!(
        ok(&sock, &["move", "bar/22 6/5"]),
        "White: from the bar to twenty-two, six to five.\n"
    );
    assert_eq!(ok(&sock, &["double"]), "Black doubles to two.\n");
    refused(&sock, &["roll", "2", "1"]);
    assert_eq!(ok(&sock, &["take"]), "White takes.\n");
    assert_eq!(state(&sock)["cube"], json!({"value": 2, "owner": "white"}));
    ok(&sock, &["roll", "1", "1"]);
    ok(&sock, &["move", "8/7(2) 6/5(2)"]);
    ok(&sock, &["roll", "3", "3"]);
    ok(&sock, &["move", "24/21(2) 8/5(2)"]);
    ok(&sock, &["roll", "2", "1"]);
    ok(&sock, &["move", "24/21"]);
    assert_eq!(ok(&sock, &["double"]), "White doubles to four.\n");
    assert_eq!(
        ok(&sock, &["pass"]),
        "Black passes.\nWhite wins two points. White 2, Black 0, match to 3. Crawford game: no doubling.\n"
            .replace("passes.\n", "passes. ")
    );
    let st = state(&sock);
    assert_eq!(
        st["score"],
        json!({"white": 2, "black": 0, "length": 3, "crawford": true})
    );
    // The Crawford game: no doubling (004 4.4 (iv)); the cube back in the middle.
    ok(&sock, &["roll", "4", "2"]);
    assert_eq!(state(&sock)["cube"], json!({"value": 1, "owner": null}));
    ok(&sock, &["move", "8/4 6/4"]);
    ok(&sock, &["roll", "6", "5"]);
    ok(&sock, &["move", "24/13"]);
    refused(&sock, &["double"]);
    let clock = ok(&sock, &["clock"]);
    // The times, the simple delay of eubgf-3 (004 3.5 (v)), the match score.
    let delay = eubgf3.bonus().unwrap().amount.as_secs();
    assert_eq!(delay, 12, "{eubgf3}");
    assert!(
        clock.contains("Delay twelve seconds a move. White 2, Black 0, match to 3. Crawford game"),
        "{clock}"
    );
    let last = state(&sock);
    verify_ok(&journal);

    // The journal exported as a Jellyfish .mat that gnubg imports to the same match.
    let out = tandem(&["export", j]);
    assert!(out.status.success(), "{out:?}");
    let mat = String::from_utf8(out.stdout).unwrap();
    assert!(mat.contains("3 point match"), "{mat}");
    assert!(mat.contains("Alice") && mat.contains("Bob"), "{mat}");
    let path = dir.path().join("match.mat");
    std::fs::write(&path, &mat).unwrap();
    if let Some((pid, mid)) = gnubg_import(&path) {
        assert_eq!(pid, last["position_id"], "{mat}");
        // Every field of the Match ID (cube, turn, dice, Crawford, score);
        // gnubg's Jacoby bit for money play is its own setting (004 4.4 (viii)).
        let ours = match_id::decode(last["match_id"].as_str().unwrap()).unwrap();
        assert_eq!(match_id::decode(&mid).unwrap(), ours, "{mat}");
    }
}
