//! The hall's security with the real broker: a wrong password is refused at
//! connect; a table publishing under another table's topic is dropped by
//! the broker's ACL (checked from the desk's side); the desk's signed
//! commands are done once, and a replayed or forged one is refused.

mod hall_common;
mod support;

use hall_common::{ctl_ok, hall, journal_of, mark, table, table_as, wait_for, Broker, Desk, EVENT};

#[test]
fn a_wrong_password_is_refused_and_a_foreign_topic_is_dropped() {
    let (dir, broker, desk) = hall(3);
    // Table 3 with table 3's name but a wrong password.
    let bad = table_as(dir.path(), &broker.url("table3", "wrong"), 3, &[]);
    wait_for("the relay says the broker refused it", || {
        let e = bad.stderr_text();
        if e.contains("refused") {
            Ok(())
        } else {
            Err(e)
        }
    });
    let t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "table 1", |t| t["ply"] == 1);
    // Table 1's user forges table 2's journal: the broker drops it (the ACL).
    let j1 = std::fs::read_to_string(journal_of(dir.path(), 1)).unwrap();
    let line = j1.lines().next().unwrap();
    let forged = serde_json::json!({"seq": 1, "hash": tandem::journal::line_hash(line.as_bytes()), "line": line});
    broker.publish(
        "table1",
        "pw1",
        &format!("tandem/{EVENT}/table/2/journal"),
        &forged.to_string(),
    );
    // Then a message table 1 may send: once the desk has it, it would have had the forgery.
    mark(&broker, &desk, 1, "marker", "the marker alert");
    let tables: Vec<u64> = desk
        .tables()
        .iter()
        .map(|t| t["table"].as_u64().unwrap())
        .collect();
    assert_eq!(
        tables,
        [1],
        "neither the forged table 2 nor the refused table 3"
    );
    // mosquitto_pub itself is refused with a wrong password.
    assert!(!broker.publish(
        "table1",
        "nope",
        &format!("tandem/{EVENT}/table/1/alert"),
        "{}"
    ));
}

fn replies(desk: &Desk, n: u32) -> Vec<serde_json::Value> {
    desk.get(&format!("/api/tables/{n}/detail"))["replies"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn desk_commands_are_done_once_and_a_replay_is_refused() {
    let (dir, broker, desk) = hall(2);
    let t1 = table(dir.path(), &broker, 1, &[]);
    let t2 = table(dir.path(), &broker, 2, &[]);
    desk.wait_table(2, "table 2 connected", |t| t["clocks"]["running"] == true);
    desk.wait_table(1, "table 1 connected", |t| t["clocks"]["running"] == true);
    // Say a message at table 1: journaled there like a local `say`.
    let sent = desk.command(Some(1), "say", "Five minutes to the time control.");
    assert_eq!(sent["ok"], true, "{sent}");
    // The desk's messages said at table 1 (the table's own start-up words,
    // such as whether voice input is on, are `say` lines too).
    let says = || {
        support::journal_events(&journal_of(dir.path(), 1), "say")
            .into_iter()
            .filter(|e| e["text"] == "Five minutes to the time control.")
            .collect::<Vec<_>>()
    };
    wait_for("the message at table 1", || {
        let s = says();
        if s.iter()
            .any(|e| e["text"] == "Five minutes to the time control.")
        {
            Ok(())
        } else {
            Err(format!("{s:?}"))
        }
    });
    // The same signed command again, as a recording of the broker's traffic would send it
    // (by another client: one with the desk's user would push the desk off the broker).
    let cmd = sent["command"].to_string();
    assert!(broker.publish(
        "replayer",
        "replaypw",
        &format!("tandem/{EVENT}/desk/cmd/1"),
        &cmd
    ));
    wait_for("the replay refused", || {
        let r = replies(&desk, 1);
        if r.iter()
            .any(|r| r["ok"] == false && r["text"].as_str().unwrap().contains("replayed"))
        {
            Ok(())
        } else {
            Err(format!("{r:?}"))
        }
    });
    // A forged one (the arg changed, the signature kept) is refused too.
    let mut forged = sent["command"].clone();
    forged["arg"] = "The game is drawn.".into();
    forged["counter"] = (sent["counter"].as_u64().unwrap() + 5).into();
    assert!(broker.publish(
        "replayer",
        "replaypw",
        &format!("tandem/{EVENT}/desk/cmd/1"),
        &forged.to_string()
    ));
    wait_for("the forgery refused", || {
        let r = replies(&desk, 1);
        if r.iter()
            .any(|r| r["text"].as_str().unwrap().contains("bad signature"))
        {
            Ok(())
        } else {
            Err(format!("{r:?}"))
        }
    });
    assert_eq!(says().len(), 1, "said once: {:?}", says());
    // Pause one table; then the start signal restarts every stopped clock.
    assert_eq!(desk.command(Some(2), "pause", "")["ok"], true);
    desk.wait_table(2, "table 2 paused", |t| t["clocks"]["running"] == false);
    assert_eq!(desk.table(1).unwrap()["clocks"]["running"], true);
    // Table 1's game is under way and stopped at the table: the start signal leaves it stopped.
    ctl_ok(&t1, &["move", "32-28"]);
    ctl_ok(&t1, &["pause"]);
    desk.wait_table(1, "table 1 paused", |t| t["clocks"]["running"] == false);
    assert_eq!(desk.command(None, "start", "")["ok"], true);
    desk.wait_table(2, "table 2 started", |t| t["clocks"]["running"] == true);
    wait_for("table 1's answer to the start signal", || {
        let r = replies(&desk, 1);
        if r.iter().any(|r| r["cmd"] == "start" && r["ok"] == false) {
            Ok(())
        } else {
            Err(format!("{r:?}"))
        }
    });
    assert_eq!(desk.table(1).unwrap()["clocks"]["running"], false);
    assert!(!support::journal_events(&journal_of(dir.path(), 2), "resume").is_empty());
    // A command the desk does not know is refused at the desk, and so is
    // an arbiter's act for every table at once.
    assert_eq!(desk.command(Some(1), "resign", "")["ok"], false);
    assert_eq!(desk.command(None, "takeback", "1")["ok"], false);
    drop((t1, t2));
}

#[test]
fn tables_and_desk_talk_through_tls() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start_with(dir.path(), 1, true);
    let desk = Desk::start(dir.path(), &broker, &[]);
    let t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "a move through mqtts://", |t| t["last_move"] == "32-28");
    desk.wait_copy(1, &journal_of(dir.path(), 1));
    // A table that does not trust the broker's CA does not connect.
    let untrusting = table_as(dir.path(), &broker.url("table1", "pw1"), 2, &[]);
    wait_for("the relay's TLS error", || {
        let e = untrusting.stderr_text();
        if e.contains("relay: broker") {
            Ok(())
        } else {
            Err(e)
        }
    });
}
