//! The arbiter's authority in a hall (issue 45), with the real broker, a
//! real `tandem hall` and a real table: the desk's signed `pause`, `say`
//! and `resume` are journaled as the arbiter's (`"source": "arbiter"`), a
//! seat never restarts the clock the desk stopped, and the README's
//! promise holds on the wire: the arbiter's secret (the desk's login)
//! never reaches a table; an observer subscribed to every topic (`#`)
//! on the broker never sees it.

mod hall_common;
mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};

use hall_common::{ctl_ok, journal_of, table, wait_for, Broker, Desk, SECRET};
use serde_json::Value;
use support::{ctl, journal_events};

/// Adds `spy` (password `spypw`), who reads every topic, to the test's
/// broker, and restarts it.
fn with_spy(broker: &mut Broker, dir: &Path) {
    let conf = dir.join("broker");
    let st = Command::new("mosquitto_passwd")
        .args(["-b"])
        .arg(conf.join("passwd"))
        .args(["spy", "spypw"])
        .status()
        .unwrap();
    assert!(st.success());
    let mut acl = std::fs::read_to_string(conf.join("acl")).unwrap();
    acl.push_str("\nuser spy\ntopic read #\n");
    std::fs::write(conf.join("acl"), acl).unwrap();
    broker.kill();
    broker.restart();
}

/// `mosquitto_sub` as `spy` on `#`, every message (topic and payload) to `out`.
fn spy(broker: &Broker, out: &Path) -> Child {
    Command::new("mosquitto_sub")
        .args(["-h", "127.0.0.1", "-p", &broker.port.to_string()])
        .args(["-u", "spy", "-P", "spypw", "-t", "#", "-v", "-q", "1"])
        .stdout(std::fs::File::create(out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn last(journal: &Path, kind: &str) -> Value {
    journal_events(journal, kind).pop().unwrap_or(Value::Null)
}

#[test]
fn the_desks_pause_and_resume_are_the_arbiters_and_its_secret_never_reaches_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut broker = Broker::start(dir.path(), 1);
    with_spy(&mut broker, dir.path());
    let traffic = dir.path().join("traffic.txt");
    let mut watcher = spy(&broker, &traffic);
    let desk = Desk::start(dir.path(), &broker, &[]);
    // The desk holds the arbiter's secret (`--arbiter-secret-file`).
    let t1 = table(dir.path(), &broker, 1, &[]);
    let journal = journal_of(dir.path(), 1);
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "the first move", |t| t["ply"] == 1);

    // The desk stops the clock: the arbiter's pause.
    let r = desk.command(Some(1), "pause", "");
    assert_eq!(r["ok"], true, "{r}");
    let p = wait_for("the desk's pause", || match last(&journal, "pause") {
        Value::Null => Err("none".to_owned()),
        p => Ok(p),
    });
    assert_eq!(p["source"], "arbiter", "{p}");
    // No seat restarts it.
    let out = ctl(&t1.socket, &["--seat", "white", "resume"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(journal_events(&journal, "resume").is_empty());
    // The desk's words are the arbiter's.
    let r = desk.command(Some(1), "say", "The arbiter is coming.");
    assert_eq!(r["ok"], true, "{r}");
    let s = wait_for("the desk's words", || {
        journal_events(&journal, "say")
            .into_iter()
            .find(|s| s["text"] == "The arbiter is coming.")
            .ok_or_else(|| "none".to_owned())
    });
    assert_eq!(
        (s["text"].as_str(), s["source"].as_str(), s.get("seat")),
        (Some("The arbiter is coming."), Some("arbiter"), None),
        "{s}"
    );
    // The desk restarts it: the arbiter's resume.
    let r = desk.command(Some(1), "resume", "");
    assert_eq!(r["ok"], true, "{r}");
    let p = wait_for("the desk's resume", || match last(&journal, "resume") {
        Value::Null => Err("none".to_owned()),
        p => Ok(p),
    });
    assert_eq!(p["source"], "arbiter", "{p}");
    let r = desk.command(Some(1), "clock", "set white 600");
    assert_eq!(r["ok"], true, "{r}");
    wait_for("the desk's clock set", || {
        match last(&journal, "clock-set") {
            Value::Null => Err("none".to_owned()),
            c => Ok(c),
        }
    });
    desk.wait_copy(1, &journal);

    // On the wire: the desk's commands, the table's lines; never the secret.
    let _ = watcher.kill();
    let _ = watcher.wait();
    let seen = std::fs::read_to_string(&traffic).unwrap();
    assert!(
        seen.contains("/desk/cmd/1 "),
        "the observer saw no command: {seen}"
    );
    assert!(seen.contains("/table/1/journal "), "{seen}");
    assert!(!seen.contains(SECRET), "the arbiter's secret on the broker");
    let written = std::fs::read_to_string(&journal).unwrap();
    assert!(
        !written.contains(SECRET),
        "the arbiter's secret in a table's journal"
    );
}
