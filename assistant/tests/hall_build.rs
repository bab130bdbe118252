//! The build each table runs, at the hall's desk (issue 41), with the real
//! broker: `/api/tables` gives each table's `binary_sha256` and `rated`
//! (from its journal's `report` line), and a `build` alert is raised when
//! two tables of the event run different binaries and when a table's
//! report changes during its game (resumed by another binary).
//!
//! The other binary is this one with a byte appended: it runs the same
//! and hashes differently, as a build from other sources would.

mod hall_common;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use hall_common::{alert_kinds, desk_keys, hall, journal_of, table, wait_for, Broker, Desk, EVENT};
use serde_json::Value;
use support::TANDEM;

/// The binary's SHA-256 by `sha256sum`, not by tandem.
fn sha256sum(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

/// A copy of tandem with one byte more: another build.
fn other_build(dir: &Path) -> PathBuf {
    let p = dir.join("tandem-other");
    let mut bytes = std::fs::read(TANDEM).unwrap();
    bytes.push(0);
    std::fs::write(&p, bytes).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

/// Table `n` run by the binary `exe`, as `hall_common::table` runs one
/// (resumed when its journal exists), killed when dropped.
struct Table(Child);

impl Drop for Table {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn table_by(exe: &Path, dir: &Path, broker: &Broker, n: u32, extra: &[&str]) -> Table {
    let tdir = dir.join(format!("t{n}"));
    std::fs::create_dir_all(&tdir).unwrap();
    let socket = tdir.join(format!("other-{n}.sock"));
    let journal = journal_of(dir, n);
    let (_, public) = desk_keys(dir);
    let mut cmd = Command::new(exe);
    cmd.args([
        "play",
        "--headless",
        "--speech",
        "text",
        "--braille",
        "none",
    ])
    .arg("--socket")
    .arg(&socket)
    .env("XDG_CONFIG_HOME", tdir.join("noconfig"))
    .env("XDG_DATA_HOME", tdir.join("nodata"))
    .env("XDG_STATE_HOME", tdir.join("state"))
    .env("TANDEM_LOG", "warn");
    if journal.exists() {
        cmd.arg("--resume").arg(&journal);
    } else {
        cmd.arg("--journal").arg(&journal);
    }
    let url = broker.url(&format!("table{n}"), &format!("pw{n}"));
    cmd.args(["--relay", &url, "--event", EVENT, "--table", &n.to_string()])
        .arg("--desk-key")
        .arg(public)
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::null());
    let t = Table(cmd.spawn().unwrap());
    let t0 = Instant::now();
    while !socket.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "table {n} did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    t
}

fn build_alerts(desk: &Desk) -> Vec<String> {
    desk.alerts()
        .iter()
        .filter(|a| a["kind"] == "build" || a["alert"]["kind"] == "build")
        .map(Value::to_string)
        .collect()
}

#[test]
fn tables_of_one_event_on_different_builds_raise_a_build_alert() {
    let (dir, broker, desk) = hall(3);
    let ours = sha256sum(Path::new(TANDEM));
    let other = other_build(dir.path());
    let theirs = sha256sum(&other);
    assert_ne!(ours, theirs);

    // Two tables on this binary: no build alert.
    let t1 = table(dir.path(), &broker, 1, &["--rated"]);
    let _t2 = table(dir.path(), &broker, 2, &[]);
    let v1 = desk.wait_table(1, "table 1's build", |t| t["binary_sha256"].is_string());
    let v2 = desk.wait_table(2, "table 2's build", |t| t["binary_sha256"].is_string());
    assert_eq!(v1["binary_sha256"], ours);
    assert_eq!(v1["rated"], true);
    assert_eq!(v2["binary_sha256"], ours);
    assert_eq!(v2["rated"], false);
    assert!(build_alerts(&desk).is_empty(), "{:?}", build_alerts(&desk));

    // A third on another build: the alert names it and the others' build.
    let _t3 = table_by(&other, dir.path(), &broker, 3, &[]);
    let v3 = desk.wait_table(3, "table 3's build", |t| t["binary_sha256"].is_string());
    assert_eq!(v3["binary_sha256"], theirs);
    let alerts = wait_for("the build alert", || {
        let a = build_alerts(&desk);
        if a.is_empty() {
            Err("none yet".to_owned())
        } else {
            Ok(a)
        }
    });
    let want = format!("Table 3 runs binary {}", &theirs[..16]);
    assert!(alerts.iter().any(|a| a.contains(&want)), "{alerts:?}");
    assert!(
        alerts
            .iter()
            .any(|a| a.contains(&format!("table 1 runs {}", &ours[..16]))),
        "{alerts:?}"
    );
    let v3 = desk.table(3).unwrap();
    assert!(alert_kinds(&v3).contains(&"build"), "{v3}");

    // The page (Chromium) shows each table's build, the odd one marked.
    let b = support::browser::Browser::start();
    b.go(&format!("{}/", desk.base));
    let build_of = |n: u32| {
        format!(
            "const dt = [...document.querySelectorAll('#table-{n} dl.facts dt')].find(d => d.textContent === 'Build');              return dt && [dt.nextElementSibling.textContent, dt.nextElementSibling.className];"
        )
    };
    let shown = b.wait_js("table 3's build on the page", &build_of(3));
    assert_eq!(
        shown[0],
        format!("{} {}, not rated", &theirs[..8], &theirs[8..16])
    );
    assert_eq!(shown[1], "sync-bad", "the odd build is marked");
    let shown = b.wait_js("table 1's build on the page", &build_of(1));
    assert_eq!(shown[0], format!("{} {}, rated", &ours[..8], &ours[8..16]));
    drop(b);

    // Table 1 restarted by the other build during its game: its report
    // changed, and says how.
    drop(t1);
    let _t1 = table_by(&other, dir.path(), &broker, 1, &["--rated"]);
    let v1 = desk.wait_table(1, "table 1 on the other build", |t| {
        t["binary_sha256"] == theirs.as_str()
    });
    let changed = v1["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "build")
        .map(|a| a["text"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("no build alert on table 1: {v1}"));
    assert!(
        changed.contains("report changed during the game")
            && changed.contains(&format!("from {} to {}", &ours[..16], &theirs[..16])),
        "{changed}"
    );
    // A desk started again says it again, from its copy.
    drop(desk);
    let desk = Desk::start(dir.path(), &broker, &[]);
    let v1 = desk.wait_table(1, "table 1 after the desk's restart", |t| {
        t["alerts"]
            .as_array()
            .is_some_and(|a| a.iter().any(|a| a["kind"] == "build"))
    });
    assert_eq!(v1["binary_sha256"], theirs);
}
