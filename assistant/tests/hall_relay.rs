//! The hall end to end: a real Mosquitto (passwords and an ACL), real
//! `tandem play --headless --relay …` tables and a real `tandem hall`, as
//! processes. Moves made with `tandem ctl` reach the desk's `GET /api/tables`;
//! the desk's journal copies verify and equal the tables' journals byte for
//! byte after a broker restart mid-round and after a table is SIGKILLed and
//! resumed; a game that ended while the broker was down reaches the desk,
//! result line included, when the table's next game starts at a new journal.

mod hall_common;
mod support;

use hall_common::{alert_kinds, ctl_ok, hall, journal_of, table, Broker, Desk, EVENT};
use serde_json::Value;

#[test]
fn moves_through_ctl_appear_at_the_desk_with_every_field() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 3);
    let (desk, public) = Desk::start_public(dir.path(), &broker, &[], &[]);
    let t1 = table(dir.path(), &broker, 1, &[]);
    let t2 = table(dir.path(), &broker, 2, &["--round", "3"]);
    ctl_ok(&t1, &["move", "32-28"]);
    ctl_ok(&t2, &["move", "33-29"]);
    ctl_ok(&t2, &["move", "18-23"]);
    let v1 = desk.wait_table(1, "table 1 after 32-28", |t| t["ply"] == 1);
    let v2 = desk.wait_table(2, "table 2 after 18-23", |t| t["ply"] == 2);
    // Issue 16's object, every field.
    let keys: Vec<&str> = v1.as_object().unwrap().keys().map(String::as_str).collect();
    for k in [
        "table",
        "event",
        "variant",
        "white",
        "black",
        "fen",
        "ply",
        "turn",
        "last_move",
        "clocks",
        "boards",
        "result",
        "journal_lines",
        "chain_ok",
        "alerts",
        "seen_ms_ago",
        // Issue 41: the table's build.
        "binary_sha256",
        "rated",
    ] {
        assert!(keys.contains(&k), "{k} missing from {v1}");
    }
    assert_eq!(keys.len(), 18, "exactly the contract's fields: {keys:?}");
    assert_eq!(v1["event"], EVENT);
    assert_eq!(v1["variant"], "international");
    assert_eq!(v1["white"], "White 1");
    assert_eq!(v1["black"], "Black 1");
    assert_eq!(v1["turn"], "black");
    assert_eq!(v1["last_move"], "32-28");
    assert!(v1["fen"].as_str().unwrap().starts_with("B:W28,"));
    assert!(v1["clocks"]["white_remaining_ms"].as_u64().unwrap() < 5_400_000);
    assert_eq!(v1["clocks"]["running"], true);
    assert_eq!(v1["boards"]["black_behind"], 1);
    assert_eq!(v1["boards"]["mismatch"], false);
    assert_eq!(v1["result"], serde_json::Value::Null);
    assert_eq!(v1["chain_ok"], true);
    assert!(v1["seen_ms_ago"].as_u64().is_some());
    assert_eq!(v2["turn"], "white");
    assert_eq!(v2["last_move"], "18-23");
    // The desk's copy is the table's journal and verifies as one.
    for (n, d) in [(1, &t1), (2, &t2)] {
        let _ = d;
        let copy = desk.wait_copy(n, &journal_of(dir.path(), n));
        let f = dir.path().join(format!("copy-{n}.jsonl"));
        std::fs::write(&f, copy).unwrap();
        support::verify_ok(&f);
    }
    // A board read back wrong: the detail page's `tandem arbiter diff` names the square.
    ctl_ok(&t2, &["mismatch", "W:W28,31,32,34-50:B1-17,19,20,23"]);
    let detail = hall_common::wait_for("the diff report", || {
        let d = desk.get("/api/tables/2/detail");
        if d["diff"].as_str().unwrap_or("").is_empty() {
            Err(d.to_string())
        } else {
            Ok(d)
        }
    });
    let diff = detail["diff"].as_str().unwrap();
    assert!(diff.contains("28") && diff.contains("29"), "{diff}");
    assert!(detail["announcements"]
        .as_str()
        .unwrap()
        .contains("Boards reported different: 1"));
    // Reconciled against a record typed from a scoresheet: the same moves.
    let rec = ureq::post(&format!("{}/api/tables/2/reconcile", desk.base))
        .set("x-tandem-desk", "1")
        .send_string("1. 33-29 18-23")
        .unwrap()
        .into_string()
        .unwrap();
    assert!(rec.to_lowercase().contains("agree"), "{rec}");
    // A resignation: the result at the desk, in the round's PDN and the results.
    ctl_ok(&t1, &["resign", "black"]);
    desk.wait_table(1, "table 1's result", |t| t["result"] == "2-0");
    let pdn = desk.get_text("/api/round.pdn").unwrap();
    assert!(
        pdn.contains("[White \"White 1\"]") && pdn.contains("1. 32-28"),
        "{pdn}"
    );
    let csv = desk.get_text("/api/results.csv").unwrap();
    assert!(
        csv.contains("1,White 1,Black 1,international,2-0,1"),
        "{csv}"
    );
    let page = desk.get_text("/").unwrap();
    assert!(page.contains("aria-live") && page.contains("<h1"), "{page}");
    // The spectators' server: nothing until the arbiter makes it public.
    let get = |path: &str| {
        ureq::get(&format!("http://{public}{path}"))
            .call()
            .map_err(Box::new)
    };
    let spect: serde_json::Value = get("/api/tables").unwrap().into_json().unwrap();
    assert_eq!(spect, serde_json::json!([]), "nothing public yet");
    assert!(get("/api/tables/2/game").is_err(), "no game either");
    desk.set_public(None, true);
    // Then the games and their live PDN, nothing of the arbiter's.
    let spect: serde_json::Value = get("/api/tables").unwrap().into_json().unwrap();
    assert_eq!(spect[0]["last_move"], "32-28", "{spect}");
    assert!(spect[0].get("alerts").is_none() && spect[0].get("chain_ok").is_none());
    let feed = get("/api/tables/2/game").unwrap().into_string().unwrap();
    assert!(
        feed.contains("1. 33-29 {") && feed.contains("} 18-23"),
        "{feed}"
    );
    assert!(
        get("/api/tables/1/journal").is_err(),
        "no journals in public"
    );
    assert!(ureq::post(&format!("http://{public}/api/command"))
        .set("x-tandem-desk", "1")
        .send_json(serde_json::json!({"table": 1, "cmd": "pause"}))
        .is_err());
    let ppage = get("/").unwrap().into_string().unwrap();
    assert!(
        !ppage.contains("start-all"),
        "no commands on the public page"
    );
}

#[test]
fn a_broker_restart_mid_round_loses_no_line_and_repeats_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut broker = Broker::start(dir.path(), 2);
    let desk = Desk::start(dir.path(), &broker, &[]);
    let t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "the first move", |t| t["ply"] == 1);
    broker.kill();
    // The game goes on while the broker is down.
    for m in ["19-23", "28x19", "14x23"] {
        ctl_ok(&t1, &["move", m]);
    }
    ctl_ok(&t1, &["say", "broker down"]);
    broker.restart();
    ctl_ok(&t1, &["move", "37-32"]);
    let v = desk.wait_table(1, "every move after the restart", |t| t["ply"] == 5);
    assert_eq!(v["last_move"], "37-32");
    let copy = desk.wait_copy(1, &journal_of(dir.path(), 1));
    assert!(copy.contains("broker down"));
    let v = desk.table(1).unwrap();
    assert_eq!(v["chain_ok"], true, "{v}");
    assert_eq!(
        v["journal_lines"].as_u64().unwrap(),
        copy.lines().count() as u64
    );
}

#[test]
fn a_table_killed_and_resumed_goes_on_at_the_desk() {
    let (dir, broker, desk) = hall(2);
    let mut t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    ctl_ok(&t1, &["move", "19-23"]);
    desk.wait_table(1, "two moves", |t| t["ply"] == 2);
    t1.kill();
    drop(t1);
    let t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["resume"]);
    ctl_ok(&t1, &["move", "28x19"]);
    let v = desk.wait_table(1, "the move after the resume", |t| t["ply"] == 3);
    assert!(alert_kinds(&v).contains(&"resumed"), "a resumed alert: {v}");
    desk.wait_copy(1, &journal_of(dir.path(), 1));
    assert_eq!(desk.table(1).unwrap()["chain_ok"], true);
}

#[test]
fn a_desk_started_late_asks_for_and_gets_the_whole_journal() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    ctl_ok(&t1, &["move", "19-23"]);
    // Every line is acknowledged by the broker before the desk exists.
    let cursor = journal_of(dir.path(), 1).with_file_name("game.jsonl.relay.json");
    hall_common::wait_for("the broker's acknowledgements", || {
        let c: serde_json::Value = std::fs::read(&cursor)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .ok_or("no cursor yet")?;
        let lines = std::fs::read_to_string(journal_of(dir.path(), 1))
            .unwrap()
            .lines()
            .count() as u64;
        if c["acked"].as_u64() >= Some(lines.min(6)) {
            Ok(())
        } else {
            Err(c.to_string())
        }
    });
    let desk = Desk::start(dir.path(), &broker, &[]);
    // The retained state tells the desk how many lines there are; it asks for them.
    desk.wait_copy(1, &journal_of(dir.path(), 1));
    let v = desk.wait_table(1, "both moves", |t| t["ply"] == 2);
    assert_eq!(v["chain_ok"], true);
}

#[test]
fn a_game_ended_with_the_broker_down_reaches_the_desk_when_the_next_game_starts() {
    let dir = tempfile::tempdir().unwrap();
    let mut broker = Broker::start(dir.path(), 1);
    let desk = Desk::start(dir.path(), &broker, &[]);
    let mut t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "the first move", |t| t["ply"] == 1);
    // The broker goes; the game goes on and ends; the table stops (its
    // relay drains in vain for 3 s).
    broker.kill();
    ctl_ok(&t1, &["move", "19-23"]);
    ctl_ok(&t1, &["resign", "black"]);
    let pid = rustix::process::Pid::from_raw(t1.child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    assert!(t1.child.wait().unwrap().success());
    drop(t1);
    let first = journal_of(dir.path(), 1);
    let journal = std::fs::read_to_string(&first).unwrap();
    assert!(!support::journal_events(&first, "result").is_empty());
    // The broker is back; the table's next game starts at a new journal.
    broker.restart();
    let t2 = hall_common::table_next_game(dir.path(), &broker, 1, "game2.jsonl");
    // The new game is not held up.
    ctl_ok(&t2, &["move", "32-28"]);
    let second = dir.path().join("t1/game2.jsonl");
    desk.wait_copy(1, &second);
    // The first game's copy, kept aside under its game, equals its journal
    // byte for byte, the result line included.
    let first_line = journal.lines().next().unwrap();
    let game = tandem::journal::line_hash(first_line.as_bytes());
    let aside = desk
        .data
        .join(hall_common::EVENT)
        .join(format!("table-1-{}.jsonl", &game[..12]));
    hall_common::wait_for("the first game's copy at the desk", || {
        let got = std::fs::read_to_string(&aside).map_err(|e| e.to_string())?;
        if got == journal {
            Ok(())
        } else {
            Err(format!(
                "desk has {} lines of {}",
                got.lines().count(),
                journal.lines().count()
            ))
        }
    });
    let out = std::process::Command::new(support::TANDEM)
        .args(["journal", "verify"])
        .arg(&aside)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = desk.table(1).unwrap();
    assert_eq!(v["chain_ok"], true, "{v}");
    let kinds: Vec<Value> = desk
        .alerts()
        .iter()
        .map(|a| a["alert"]["kind"].clone())
        .collect();
    assert!(
        !kinds.contains(&Value::from("duplicate")),
        "left-over lines are no second machine: {kinds:?}"
    );
    // The first journal's cursor comes to say every line went (it is not sent again).
    let lines = journal.lines().count() as u64;
    hall_common::wait_for("the first journal's cursor", || {
        let c: Value = std::fs::read(first.with_file_name("game.jsonl.relay.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .ok_or("no cursor")?;
        if c["acked"] == lines {
            Ok(())
        } else {
            Err(c.to_string())
        }
    });
}
