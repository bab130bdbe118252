//! What the hall shows of a game comes from the desk's own copy of the
//! table's journal, never from what a table says of itself (issue 36,
//! "Facts from verified journals"), with the real desk, the real tables and
//! the real Mosquitto (passwords and ACL):
//! - a retained state that gives the game another result, other players or
//!   another round is an alert (`state-mismatch`) and is shown nowhere: not
//!   in `/api/tables`, not in the desk's or the public `results.csv`;
//! - the delayed public views take the round and the players from the lines
//!   they replay: when a table starts its next game, spectators never see
//!   the new players or round with the last game's result.

mod hall_common;
mod support;

use std::time::{Duration, Instant};

use hall_common::{ctl_ok, journal_of, table, table_next_game_with, wait_for, Broker, Desk, EVENT};
use serde_json::{json, Value};

fn get(base: &str, path: &str) -> String {
    ureq::get(&format!("{base}{path}"))
        .timeout(Duration::from_secs(10))
        .call()
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
        .into_string()
        .unwrap()
}

/// Table 1's row of a `results.csv`.
fn row_of_table_1(csv: &str) -> String {
    csv.lines()
        .find(|l| l.starts_with("1,"))
        .unwrap_or_else(|| panic!("no table 1 in {csv}"))
        .to_owned()
}

/// Stops a table the way systemd does (SIGTERM), and waits for it.
fn stop(t: &mut support::Daemon) {
    let pid = rustix::process::Pid::from_raw(t.child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    assert!(t.child.wait().unwrap().success());
}

/// A new folder, a broker for one table, and a desk (`flags`) showing every
/// table on its public server: (folder, broker, desk, the public base URL).
fn public_hall(flags: &[&str]) -> (tempfile::TempDir, Broker, Desk, String) {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let (desk, public) = Desk::start_public(dir.path(), &broker, flags, &[]);
    desk.set_public(None, true);
    (dir, broker, desk, format!("http://{public}"))
}

#[test]
fn a_state_that_contradicts_the_journal_is_an_alert_and_never_a_shown_result() {
    let (dir, broker, desk, public) = public_hall(&[]);
    let mut t1 = table(dir.path(), &broker, 1, &["--round", "3"]);
    ctl_ok(&t1, &["move", "32-28"]);
    ctl_ok(&t1, &["resign", "black"]);
    stop(&mut t1);
    let journal = journal_of(dir.path(), 1);
    desk.wait_copy(1, &journal);
    let lines = std::fs::read_to_string(&journal).unwrap().lines().count();
    let t = desk.wait_table(1, "2-0 at the desk", |t| t["result"] == "2-0");
    assert_eq!(t["chain_ok"], true, "{t}");
    assert_eq!(t["white"], "White 1", "{t}");

    // The table's credentials leave a retained state that says black won,
    // at the very line the desk holds, with another black player and round.
    let topic = format!("tandem/{EVENT}/table/1/state");
    let lie = json!({"variant": "international", "ply": 1, "turn": "black",
                     "moves": ["32-28"], "result": "0-2", "journal_seq": lines,
                     "journal_lines": lines, "round": "3",
                     "players": {"white": "White 1", "black": "Black 1"},
                     "clocks": {"running": false}});
    assert!(broker.publish_args(
        "table1",
        "pw1",
        &["-t", &topic, "-r", "-s"],
        Some(lie.to_string().as_bytes())
    ));
    wait_for("the state-mismatch alert", || {
        let found: Vec<Value> = desk
            .alerts()
            .into_iter()
            .filter(|a| a["alert"]["kind"] == "state-mismatch" || a["kind"] == "state-mismatch")
            .collect();
        if found.is_empty() {
            Err(format!("{:?}", desk.alerts()))
        } else {
            Ok(found)
        }
    });
    // Shown: the journal's result, at the desk and in public, in both views and both files.
    let t = desk.table(1).unwrap();
    assert_eq!(t["result"], "2-0", "{t}");
    assert_eq!(
        t["chain_ok"], true,
        "a lie in a state is not a broken chain: {t}"
    );
    for csv in [
        get(&desk.base, "/api/results.csv"),
        get(&public, "/api/results.csv"),
    ] {
        let row = row_of_table_1(&csv);
        assert!(row.contains(",2-0,") && !row.contains("0-2"), "{row}");
    }
    let shown: Value = serde_json::from_str(&get(&public, "/api/tables")).unwrap();
    assert_eq!(shown[0]["result"], "2-0", "{shown}");

    // Another lie with no line number (as a table of an older tandem
    // sends): nothing to hold it against, and still not shown.
    let lie = json!({"result": "0-2", "players": {"white": "Mallory", "black": "Eve"},
                     "round": "9", "clocks": {"running": false}});
    assert!(broker.publish_args(
        "table1",
        "pw1",
        &["-t", &topic, "-r", "-s"],
        Some(lie.to_string().as_bytes())
    ));
    std::thread::sleep(Duration::from_millis(500));
    let page: Value = serde_json::from_str(&get(&desk.base, "/api/view")).unwrap();
    let t = page["tables"]
        .as_array()
        .and_then(|a| a.iter().find(|t| t["table"] == 1).cloned())
        .unwrap_or_else(|| panic!("{page}"));
    assert_eq!(
        (&t["result"], &t["white"], &t["black"], &t["round"]),
        (
            &json!("2-0"),
            &json!("White 1"),
            &json!("Black 1"),
            &json!("3")
        ),
        "{t}"
    );
    let csv = get(&desk.base, "/api/results.csv");
    assert!(!csv.contains("Mallory") && !csv.contains("0-2"), "{csv}");
    let pdn = get(&public, "/api/round.pdn");
    assert!(
        pdn.contains("[Round \"3\"]") && !pdn.contains("\"9\""),
        "{pdn}"
    );
}

#[test]
fn the_delayed_views_take_the_round_and_players_from_the_lines_they_replay() {
    let (dir, broker, desk, public) = public_hall(&["--public-delay", "3s"]);
    let mut t1 = table(dir.path(), &broker, 1, &["--round", "1"]);
    ctl_ok(&t1, &["move", "32-28"]);
    ctl_ok(&t1, &["resign", "black"]);
    stop(&mut t1);
    desk.wait_copy(1, &journal_of(dir.path(), 1));
    // The last game, as spectators see it once the delay has passed.
    let old_row = wait_for("the last game's result in public", || {
        let csv = get(&public, "/api/results.csv");
        match csv.lines().find(|l| l.starts_with("1,")) {
            Some(row) if row.contains(",2-0,") => Ok(row.to_owned()),
            _ => Err(csv),
        }
    });
    assert!(old_row.starts_with("1,White 1,Black 1,"), "{old_row}");
    // The next game, with other players and the next round.
    let t2 = table_next_game_with(
        dir.path(),
        &broker,
        1,
        "next.jsonl",
        &["--round", "2", "--white", "Zofia", "--black", "Xawery"],
    );
    desk.wait_table(1, "the next game at the desk", |t| t["white"] == "Zofia");
    // Through the delay and past it, every public view is one game's
    // whole: the last game's players, round and result, or the next one's.
    let until = Instant::now() + Duration::from_secs(5);
    let mut saw_next = false;
    while Instant::now() < until || !saw_next {
        let row = row_of_table_1(&get(&public, "/api/results.csv"));
        let next = row.starts_with("1,Zofia,Xawery,");
        assert!(row == old_row || (next && !row.contains("2-0")), "{row}");
        let page: Value = serde_json::from_str(&get(&public, "/api/view")).unwrap();
        let t = page["tables"]
            .as_array()
            .and_then(|a| a.iter().find(|t| t["table"] == 1).cloned())
            .unwrap_or_else(|| panic!("{page}"));
        let seen = (t["white"].clone(), t["round"].clone(), t["result"].clone());
        assert!(
            seen == (json!("White 1"), json!("1"), json!("2-0"))
                || seen == (json!("Zofia"), json!("2"), Value::Null),
            "{t}"
        );
        saw_next |= next;
        assert!(
            Instant::now() < until + Duration::from_secs(30),
            "the next game never reached the public views"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(t2);
}
