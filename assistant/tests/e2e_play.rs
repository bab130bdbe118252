//! End to end: the real `tandem play --headless` binary with a real BRLTTY
//! (`vr` driver, braille crate fixture) and a private speech-dispatcher
//! (speech crate fixture), a real tournament game played through `tandem
//! ctl`'s client and typed input, then the announcements, the braille cells,
//! the clock and the exported PDN checked; and a daemon killed with SIGKILL
//! at a random point and resumed without losing an acknowledged move.
//!
//! Without BRLTTY or speech-dispatcher the real-component test fails with a
//! message, unless `TANDEM_SKIP_REAL` is set outside CI.

mod support;

use std::time::Duration;

use support::{
    assert_spoke_since, ctl, play_ply, real_english_table, real_game, tandem, verify_ok, wait_ply,
    Play,
};
use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::Variant;

#[test]
fn a_real_game_with_brltty_and_speech_dispatcher() {
    let Some((brltty, speechd, dir, journal, mark)) = real_english_table("game.jsonl") else {
        return;
    };
    let mut d = Play::in_dir(dir.path())
        .args(["--lang", "en", "--control", "90m"])
        .args(["--event", "Dutch semifinales"])
        .args(["--white", "H. van der Zee", "--black", "H. Clasquin"])
        .real(&brltty, &speechd)
        .journal(&journal)
        .start();
    let socket = d.socket.clone();
    // The socket is private to its owner.
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let mut events = d.subscribed();
    let mut c = d.client();
    let game = real_game();
    let moves = game.move_texts();
    // White's moves through the control socket, black's typed on stdin.
    for (i, m) in moves.iter().enumerate() {
        play_ply(&mut d, &mut c, i, m);
    }
    let st = wait_ply(&mut c, moves.len() as u64);
    assert_eq!(st["fen"], game.position().to_fen());
    assert!(st["result"].is_null(), "{st}");
    // The record ends 1-0: black resigned.
    let out = ctl(&socket, &["resign", "black"]);
    assert!(out.status.success(), "{out:?}");
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["result"], "2-0", "{st}");
    assert_eq!(st["boards"]["black"]["behind"], 1);
    // The announcements, in order, as subscribers saw them.
    let mut said = Vec::new();
    events.set_timeout(Some(Duration::from_secs(5))).unwrap();
    while let Ok(v) = events.next_line() {
        if v["event"] == "speech" {
            said.push(v["text"].as_str().unwrap().to_owned());
            if said.last().is_some_and(|s| s.starts_with("Game over")) {
                break;
            }
        }
    }
    assert_eq!(
        said.first().map(String::as_str),
        Some("Thirty-three, twenty-nine.")
    );
    assert!(
        said.iter()
            .any(|s| s == "Twenty-nine takes twenty. Remove the piece on twenty-four."),
        "{said:?}"
    );
    assert_eq!(
        said.last().map(String::as_str),
        Some("Game over. White wins. Black resigned.")
    );
    // speech-dispatcher really spoke (audio went to its file).
    assert_spoke_since(&speechd, mark);
    // The braille display shows the final position (list view, from the first cell).
    let pos = *game.position();
    let mut status = StatusInfo::new(pos.turn());
    status.last_move = moves.last().cloned();
    let want =
        StandardRenderer::default().render(&pos, &status, View::List, Width::new(40).unwrap())[0]
            .text();
    let shown = brltty
        .wait_for(Duration::from_secs(10), |s| {
            s.text.trim_end() == want.trim_end()
        })
        .unwrap_or_else(|e| {
            panic!(
                "braille never showed {want:?}: {e:?} (now {:?})",
                brltty.snapshot().text
            )
        });
    assert_eq!(shown.cells.len(), 40);
    // A refusal: ctl exits 1 and says why.
    let out = ctl(&socket, &["move", "32-28"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("game is over"),
        "{out:?}"
    );
    let out = ctl(&socket, &["clock"]);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("White: used"),
        "{out:?}"
    );
    // The journal verifies and exports as the same game.
    let j = journal.to_str().unwrap();
    let v = tandem(&["journal", "verify", j]);
    assert!(v.status.success(), "{v:?}");
    let pdn = tandem(&["pdn", "export", j]);
    assert!(pdn.status.success(), "{pdn:?}");
    let text = String::from_utf8(pdn.stdout).unwrap();
    assert!(
        text.contains("[White \"H. van der Zee\"]") && text.contains("[Result \"2-0\"]"),
        "{text}"
    );
    assert!(text.contains("{white 1:"), "clock comments: {text}");
    let back = parse_pdn(&text);
    let Replay::Ok(g) = replay(&back[0], Variant::International) else {
        panic!("{text}")
    };
    assert_eq!(g.move_texts(), moves);
}

#[test]
fn sigkill_at_a_random_point_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let moves = real_game().move_texts();
    // A random ply from the clock's nanoseconds (no extra crate needed).
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as usize;
    let kill_at = 5 + nanos % (moves.len() - 10);
    let mut d = Play::text_only(dir.path())
        .args(["--lang", "en"])
        .journal(&journal)
        .start();
    let mut c = d.client();
    let mut acked = 0;
    for m in &moves[..kill_at] {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{r}");
        acked += 1;
    }
    // Kill while a request is in flight: it may or may not be recorded, but
    // every acknowledged move must be.
    let mut racer = d.client();
    let inflight = moves[kill_at].clone();
    let t = std::thread::spawn(move || racer.request("move", Some(&inflight)).is_ok());
    std::thread::sleep(Duration::from_micros((nanos % 3000) as u64));
    d.kill(); // SIGKILL
    let in_flight_acked = t.join().unwrap();
    drop(d);
    let resumed = Play::text_only(dir.path()).resume(&journal).start();
    let mut c = resumed.client();
    let st = c.request("state", None).unwrap()["state"].clone();
    let got: Vec<String> = serde_json::from_value(st["moves"].clone()).unwrap();
    let want_min = acked + usize::from(in_flight_acked);
    assert!(
        got.len() >= want_min,
        "killed at ply {kill_at}: {} moves resumed, {want_min} acknowledged",
        got.len()
    );
    assert_eq!(got[..], moves[..got.len()]);
    assert_eq!(st["clocks"]["paused"], true);
    // Play goes on after resume.
    assert_eq!(c.request("resume", None).unwrap()["ok"], true);
    let next = &moves[got.len()];
    assert_eq!(c.request("move", Some(next)).unwrap()["ok"], true);
    verify_ok(&journal);
}

#[test]
fn malformed_and_over_long_requests_disturb_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let d = Play::in_dir(dir.path())
        .args(["--lang", "en", "--speech", "none", "--braille", "none"])
        .journal(&journal)
        .start();
    let mut a = d.client();
    let mut b = d.client();
    let r = a.raw("{not json").unwrap();
    assert_eq!(r["ok"], false);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .starts_with("malformed request"),
        "{r}"
    );
    let r = a.raw(r#"{"cmd":"done","arg":"green"}"#).unwrap();
    assert_eq!(r["ok"], false);
    let r = a.request("dance", None).unwrap();
    assert_eq!(
        (r["ok"].clone(), r["error"].clone()),
        (false.into(), "Unknown command: dance.".into())
    );
    // The same connection still works.
    assert_eq!(a.request("move", Some("32-28")).unwrap()["ok"], true);
    // An over-long line closes only that connection.
    let long = "x".repeat(tandem::control::MAX_LINE + 10);
    let r = b.raw(&long);
    assert!(
        r.is_err() || r.as_ref().is_ok_and(|v| v["ok"] == false),
        "{r:?}"
    );
    assert!(
        b.request("state", None).is_err(),
        "the over-long connection must be closed"
    );
    let st = a.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["ply"], 1);
    assert_eq!(st["turn"], "black");
    assert_eq!(st["boards"]["black"]["behind"], 1);
    assert!(st["clocks"]["white"]["remaining_ms"].is_u64());
    assert!(st["result"].is_null());
}
