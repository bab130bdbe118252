//! The arbiter's authority over the clock and the boards (issue 45; FIDE
//! Laws 6.12, 001 ch. VIII), through the real `tandem play` and `tandem
//! ctl`: a seat (`tandem ctl --seat`) may stop the clock to call the
//! arbiter (said to both, journaled with its seat) but never restarts it,
//! whoever stopped it (the operator, a mismatch, the seat itself); the
//! operator (`tandem ctl` without `--seat`) and the arbiter (its secret)
//! do, and every `pause` and `resume` line names its source; a seat says
//! `done` and `missing` for its own board only.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{json, Value};
use support::{journal_events, Daemon, Play};

const SECRET: &str = "the arbiter's own words";

/// A table in `dir` (socket `run/tandem.sock`, journal `game.jsonl`) with
/// the arbiter's secret, no speech, no braille.
fn table(dir: &Path) -> Daemon {
    let secret = dir.join("arbiter.secret");
    std::fs::write(&secret, SECRET).unwrap();
    Play::new(&dir.join("run/tandem.sock"))
        .args(["--speech", "none", "--braille", "none", "--lang", "en"])
        .arg("--journal")
        .arg(dir.join("game.jsonl"))
        .arg("--arbiter-secret-file")
        .arg(&secret)
        .env_remove("TANDEM_ARBITER_SECRET")
        .start()
}

/// `tandem ctl ARGS…` as the table's operator or a seat, never with the
/// arbiter's secret (whatever this test's own environment holds).
fn ctl_plain(d: &Daemon, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("ctl")
        .arg("--socket")
        .arg(&d.socket)
        .args(args)
        .env_remove("TANDEM_ARBITER_SECRET")
        .env_remove("TANDEM_ARBITER_SECRET_FILE")
        .output()
        .unwrap()
}

fn ok(d: &Daemon, args: &[&str]) -> String {
    let out = ctl_plain(d, args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Refused (exit 1), with what stderr says.
fn refused(d: &Daemon, args: &[&str]) -> String {
    let out = ctl_plain(d, args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} was not refused: {out:?}"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn clock_paused(d: &Daemon) -> bool {
    let st = d.client().request("state", None).unwrap()["state"].clone();
    st["clocks"]["paused"] == true
}

fn last(journal: &Path, kind: &str) -> Value {
    journal_events(journal, kind).pop().unwrap_or(Value::Null)
}

#[test]
fn a_seat_stops_the_clock_to_call_the_arbiter_but_only_the_arbiter_or_the_operator_restarts_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = table(dir.path());
    let journal = dir.path().join("game.jsonl");
    ok(&d, &["move", "32-28"]);

    // Stopped by the operator (before a round's start, say): no seat restarts it.
    ok(&d, &["pause"]);
    assert_eq!(
        last(&journal, "pause"),
        json!({"type": "pause", "reason": "control", "source": "control"})
    );
    for seat in ["white", "black"] {
        let why = refused(&d, &["--seat", seat, "resume"]);
        assert!(
            why.contains("Only the arbiter or the table's operator may restart the clock."),
            "{why}"
        );
    }
    assert!(clock_paused(&d), "a seat restarted the clock");
    assert!(journal_events(&journal, "resume").is_empty());
    // The refusal is journaled with the seat that asked.
    let r = last(&journal, "rejected");
    assert_eq!(
        (r["input"].as_str(), r["seat"].as_str()),
        (Some("resume"), Some("black"))
    );

    // The operator restarts it, journaled as the operator's.
    ok(&d, &["resume"]);
    assert_eq!(
        last(&journal, "resume"),
        json!({"type": "resume", "source": "control"})
    );

    // A seat stops it to call the arbiter: both hear it, journaled with its seat.
    let said = ok(&d, &["--seat", "black", "pause"]);
    assert!(
        said.contains("Black stopped the clock and calls the arbiter."),
        "{said}"
    );
    assert_eq!(
        last(&journal, "pause"),
        json!({"type": "pause", "reason": "control", "source": "control", "seat": "black"})
    );
    let called: Vec<Value> = journal_events(&journal, "announced")
        .into_iter()
        .filter(|a| a["text"] == "Black stopped the clock and calls the arbiter.")
        .collect();
    assert_eq!(called.len(), 1, "{called:?}");
    // Not even the seat that stopped it restarts it.
    refused(&d, &["--seat", "black", "resume"]);
    refused(&d, &["--seat", "white", "resume"]);
    assert!(clock_paused(&d));

    // The arbiter (the secret given at start) restarts it, journaled as the arbiter's.
    let out = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["ctl", "--socket"])
        .arg(&d.socket)
        .arg("resume")
        .env("TANDEM_ARBITER_SECRET", SECRET)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        last(&journal, "resume"),
        json!({"type": "resume", "source": "arbiter"})
    );
    assert!(!clock_paused(&d));

    // A mismatch a seat reports stops the clock for the arbiter: no seat restarts it.
    ok(&d, &["--seat", "white", "mismatch"]);
    let p = last(&journal, "pause");
    assert_eq!(
        (p["reason"].as_str(), p["seat"].as_str()),
        (Some("mismatch"), Some("white")),
        "{p}"
    );
    refused(&d, &["--seat", "white", "resume"]);
    assert!(clock_paused(&d));
    ok(&d, &["resume"]);
    // Every pause and resume line names its source.
    for e in journal_events(&journal, "pause")
        .into_iter()
        .chain(journal_events(&journal, "resume"))
    {
        assert!(e["source"].is_string(), "{e}");
    }
}

#[test]
fn a_seat_says_done_and_missing_for_its_own_board_only() {
    let dir = tempfile::tempdir().unwrap();
    let d = table(dir.path());
    let journal = dir.path().join("game.jsonl");
    ok(&d, &["move", "32-28"]);
    // White's seat cannot mark black's board up to date, nor ask what it lacks.
    for cmd in ["done", "missing"] {
        let why = refused(&d, &["--seat", "white", cmd, "black"]);
        assert!(why.contains("You play white."), "{cmd}: {why}");
    }
    assert!(
        journal_events(&journal, "board-done").is_empty(),
        "{:?}",
        journal_events(&journal, "board-done")
    );
    let st = d.client().request("state", None).unwrap()["state"].clone();
    assert_eq!(st["boards"]["black"]["behind"], 1, "{st}");
    let announced = std::fs::read_to_string(&journal).unwrap();
    assert!(
        !announced.contains("Both boards agree"),
        "the table said the boards agree"
    );
    // Its own board: yes (named or not).
    ok(&d, &["--seat", "black", "done"]);
    let b = last(&journal, "board-done");
    assert_eq!(b["side"], "black", "{b}");
    ok(&d, &["--seat", "white", "missing", "white"]);
    // The operator marks either board.
    ok(&d, &["move", "19-23"]);
    ok(&d, &["done", "white"]);
    assert_eq!(last(&journal, "board-done")["side"], "white");
}
