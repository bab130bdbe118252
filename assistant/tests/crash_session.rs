//! The session actor dying by itself (RELIABILITY.md, "Session actor ends by
//! itself"): no input is known to panic it, so a fail point (fail-rs, the
//! `failpoints` feature; a mock of the fault only, the daemon and its
//! journal are real) panics it at the fifth request (the first is the
//! start-up sentence about voice input, then three moves). `tandem play` must then
//! stop answering and exit with code 3 rather than linger half alive, and
//! `--resume` must bring back every acknowledged move with the clock stopped.
//!
//! Built with `--features failpoints` (scripts/test.sh builds all features).
#![cfg(feature = "failpoints")]

mod support;

use std::time::{Duration, Instant};

use support::{verify_ok, Play};

#[test]
fn a_panicking_session_exits_3_and_the_game_resumes_from_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let mut d = Play::text_only(dir.path())
        .args(["--lang", "en", "--journal"])
        .arg(&journal)
        // Four requests pass (what tandem says at start about voice input,
        // then three moves), the fifth panics inside the actor.
        .env("FAILPOINTS", "session-handle=4*off->panic")
        .start();
    let mut c = d.client();
    for m in ["32-28", "19-23", "28x19"] {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m}: {r}");
    }
    // The fifth request: the actor panics; the answer never comes as "ok".
    let r = c.request("move", Some("14x23"));
    assert!(
        r.as_ref().map_or(true, |v| v["ok"] != true),
        "a move answered after the actor died: {r:?}"
    );
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = d.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "tandem play still runs after its session died"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(3), "{status}");
    drop(d);
    // What systemd's restart does: resume the journal (no fail point now).
    let d = Play::text_only(dir.path())
        .args(["--lang", "en", "--resume"])
        .arg(&journal)
        .start();
    let mut c = d.client();
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(
        st["moves"],
        serde_json::json!(["32-28", "19-23", "28x19"]),
        "{st}"
    );
    assert_eq!(st["clocks"]["paused"], true);
    assert_eq!(c.request("resume", None).unwrap()["ok"], true);
    assert_eq!(c.request("move", Some("14x23")).unwrap()["ok"], true);
    verify_ok(&journal);
}
