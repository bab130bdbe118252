//! The journal's disk fails mid-game, with real kernel errors, against the
//! real `tandem play` binary:
//!
//! - `EFBIG` from a file-size limit put on the running daemon with
//!   `prlimit --fsize` (no mount needed; the limit covers every file of the
//!   process, so the fallback copy cannot be written either and the lines
//!   are kept in memory): the game goes on, everyone is told at once
//!   (urgent speech), `state` shows the journal's health, and when the limit
//!   is lifted every kept line is written, in order, and the journal verifies.
//! - `ENOSPC` on a full 64 KiB tmpfs (`mount -t tmpfs`, root only, as CI
//!   runs): the lines go to a full fallback copy on another disk
//!   (`$XDG_STATE_HOME/tandem/fallback/`); the daemon is then killed while
//!   the disk is still full and resumed from the fallback copy without
//!   losing an acknowledged move. Without the right to mount, this test fails
//!   with a message unless `TANDEM_SKIP_REAL` is set outside CI.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{real_game, verify_json, Daemon, Play, Tmpfs};
use tandem::client::Client;

fn daemon(dir: &Path, args: &[&str]) -> Daemon {
    Play::text_only(dir).args(args).start()
}

/// Puts a soft file-size limit on the running daemon.
fn prlimit_fsize(d: &Daemon, limit: &str) {
    let out = Command::new("prlimit")
        .arg("--pid")
        .arg(d.child.id().to_string())
        // The soft limit only: lowering and raising it needs no privilege.
        .arg(format!("--fsize={limit}:"))
        .output()
        .expect("prlimit (util-linux) is needed");
    assert!(out.status.success(), "prlimit: {out:?}");
}

fn play(c: &mut Client, m: &str) -> Value {
    let r = c.request("move", Some(m)).unwrap();
    assert_eq!(r["ok"], true, "{m}: {r}");
    r
}

fn health(c: &mut Client) -> Value {
    c.request("state", None).unwrap()["state"]["journal_health"].clone()
}

fn verify(journal: &Path) -> Value {
    verify_json(journal).1
}

fn journal_moves(journal: &Path) -> Vec<String> {
    std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["event"]["type"] == "move")
        .map(|v| v["event"]["text"].as_str().unwrap().to_owned())
        .collect()
}

/// Speech events until one matches (the subscriber sees what everyone hears).
fn wait_speech(events: &mut Client, pred: impl Fn(&Value) -> bool) -> Value {
    let t0 = Instant::now();
    loop {
        assert!(t0.elapsed() < Duration::from_secs(10), "never said");
        let v = events.next_line().unwrap();
        if v["event"] == "speech" && pred(&v) {
            return v;
        }
    }
}

#[test]
fn a_write_error_keeps_the_game_going_and_every_line_is_written_when_it_can_be() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let d = daemon(
        dir.path(),
        &["--lang", "en", "--journal", journal.to_str().unwrap()],
    );
    let mut events = d.client();
    events.subscribe().unwrap();
    let mut c = d.client();
    let moves = real_game().move_texts();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    for m in &moves[..4] {
        play(&mut c, m);
    }
    assert_eq!(health(&mut c)["ok"], true);
    // The next line crosses the limit: half of it is written, then EFBIG.
    let size = std::fs::metadata(&journal).unwrap().len();
    prlimit_fsize(&d, &(size + 40).to_string());
    let r = play(&mut c, moves[4]);
    let said: Vec<String> = serde_json::from_value(r["said"].clone()).unwrap();
    assert!(
        said.iter().any(|s| s.contains("cannot be written")),
        "the answer must say so: {said:?}"
    );
    // The limit covers the fallback copy too: nobody is told it is safe there.
    assert!(
        said.iter().any(|s| s.contains("kept in memory")),
        "{said:?}"
    );
    let warn = wait_speech(&mut events, |v| {
        v["text"].as_str().unwrap().contains("cannot be written")
    });
    assert_eq!(warn["priority"], "now", "urgent: {warn}");
    let h = health(&mut c);
    assert_eq!(h["ok"], false, "{h}");
    assert!(h["error"].as_str().unwrap().contains("too large"), "{h}");
    assert!(h["pending"].as_u64().unwrap() >= 1, "{h}");
    // The game goes on in memory.
    play(&mut c, moves[5]);
    play(&mut c, moves[6]);
    let h = health(&mut c);
    assert_eq!(h["ok"], false);
    // Nothing past the limit reached the file.
    assert!(std::fs::metadata(&journal).unwrap().len() <= size + 40);
    // The disk comes back: within the retry second every kept line is written.
    prlimit_fsize(&d, "unlimited");
    wait_speech(&mut events, |v| {
        v["text"].as_str().unwrap().contains("written again")
    });
    let h = health(&mut c);
    assert_eq!(
        (h["ok"].clone(), h["pending"].clone()),
        (true.into(), 0.into()),
        "{h}"
    );
    play(&mut c, moves[7]);
    let v = verify(&journal);
    assert_eq!(v["ok"], true, "{v}");
    assert!(v["torn"].is_null(), "{v}");
    assert_eq!(journal_moves(&journal), moves[..8]);
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(text.contains(r#""type":"journal-degraded""#));
    assert!(text.contains(r#""type":"journal-recovered""#));
    // And a resumed daemon has the whole game.
    drop(c);
    drop(events);
    drop(d);
    let d = daemon(dir.path(), &["--resume", journal.to_str().unwrap()]);
    let st = d.client().request("state", None).unwrap()["state"].clone();
    let got: Vec<String> = serde_json::from_value(st["moves"].clone()).unwrap();
    assert_eq!(got, moves[..8]);
}

/// `tandem ctl` as a script at the table uses it.
fn ctl(d: &Daemon, args: &[&str]) -> std::process::Output {
    Command::new(support::TANDEM)
        .arg("ctl")
        .arg("--socket")
        .arg(&d.socket)
        .args(args)
        .output()
        .unwrap()
}

fn moves_of(d: &Daemon) -> Vec<String> {
    let st = d.client().request("state", None).unwrap()["state"].clone();
    serde_json::from_value(st["moves"].clone()).unwrap()
}

/// Issue 26: a move whose journal line cannot be written (here `EFBIG`, a
/// file-size limit, which covers the fallback copy too) is played and
/// announced, but `tandem ctl` does not exit 0 for it: it exits 3 and says
/// the move is not yet safe on disk. A SIGKILL then loses exactly the moves
/// `ctl` did not acknowledge: every move it exited 0 for is in the resumed
/// game. (This is the path that lost an acknowledged move in a 1,000-kill
/// soak on a nearly full disk: `ok` used to be sent for a line kept in memory.)
#[test]
fn a_move_not_yet_safe_on_disk_is_not_a_ctl_success_and_a_kill_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let j = journal.to_str().unwrap();
    let d = daemon(dir.path(), &["--lang", "en", "--journal", j]);
    let moves = real_game().move_texts();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    for m in &moves[..2] {
        let out = ctl(&d, &["move", m]);
        assert_eq!(out.status.code(), Some(0), "{m}: {out:?}");
    }
    let size = std::fs::metadata(&journal).unwrap().len();
    prlimit_fsize(&d, &(size + 40).to_string());
    // Played and announced, with the warning, but not a success.
    let out = ctl(&d, &["move", moves[2]]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(stdout.contains("cannot be written"), "{stdout}");
    assert!(
        stderr.contains("tandem ctl: move: carried out, but NOT yet safe on disk")
            && stderr.contains("File too large")
            && stderr.contains("kept in memory only")
            && stderr.contains("`tandem ctl state`"),
        "{stderr}"
    );
    assert_eq!(moves_of(&d), moves[..3]);
    // The reply says so in JSON too; every later change is unsaved as well
    // (a resume from the file would lack the line before it).
    let out = ctl(&d, &["--json", "move", moves[3]]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["unsaved"]["ok"], false, "{v}");
    assert!(v["unsaved"]["pending"].as_u64() >= Some(2), "{v}");
    assert_eq!(v["unsaved"]["fallback_ok"], false, "{v}");
    // A question changes nothing: it is answered, exit 0.
    assert_eq!(ctl(&d, &["clock"]).status.code(), Some(0));
    assert_eq!(ctl(&d, &["state"]).status.code(), Some(0));
    // The disk comes back: the kept lines go in, the next move is a success.
    prlimit_fsize(&d, "unlimited");
    let mut c = d.client();
    let t0 = Instant::now();
    while health(&mut c)["ok"] != true {
        assert!(t0.elapsed() < Duration::from_secs(10), "never recovered");
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = ctl(&d, &["move", moves[4]]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Fails again, then the daemon is killed before the disk comes back.
    let size = std::fs::metadata(&journal).unwrap().len();
    prlimit_fsize(&d, &(size + 40).to_string());
    for m in &moves[5..7] {
        let out = ctl(&d, &["move", m]);
        assert_eq!(out.status.code(), Some(3), "{m}: {out:?}");
    }
    // The desk's commands through the relay: not done either.
    let (outcome, text) = tandem::relay::bridge::act(&d.socket, "pause", None);
    assert_eq!(outcome, tandem::relay::bridge::Outcome::Unsaved, "{text}");
    assert!(
        text.starts_with("not confirmed: at the table: carried out, but NOT yet safe on disk"),
        "{text}"
    );
    assert_eq!(ctl(&d, &["resume"]).status.code(), Some(3));
    drop(c);
    let mut d = d;
    d.kill();
    assert_eq!(verify(&journal)["ok"], true);
    let d = daemon(dir.path(), &["--resume", j]);
    // Every move `ctl` exited 0 for, and nothing it did not.
    assert_eq!(moves_of(&d), moves[..5]);
}

/// The daemon's log file (`--log FILE`; the same with stderr sent to a
/// file) is already past the limit: logging the journal's write error fails
/// with EFBIG too. That must cost the log line, not the game (it used to
/// panic the session mid-move: "the session stopped before answering").
#[test]
fn a_file_size_limit_that_also_stops_the_log_file_stops_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let log = dir.path().join("daemon.log");
    std::fs::write(&log, "earlier output\n".repeat(16 * 1024)).unwrap();
    let d = Play::text_only(dir.path())
        .args(["--lang", "en", "--journal", journal.to_str().unwrap()])
        .arg("--log")
        .arg(&log)
        .start();
    let mut c = d.client();
    let moves = real_game().move_texts();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    for m in &moves[..2] {
        play(&mut c, m);
    }
    let size = std::fs::metadata(&journal).unwrap().len();
    assert!(size + 40 < std::fs::metadata(&log).unwrap().len());
    prlimit_fsize(&d, &(size + 40).to_string());
    let said = play(&mut c, moves[2])["said"].to_string();
    assert!(said.contains("cannot be written"), "{said}");
    play(&mut c, moves[3]);
    assert_eq!(health(&mut c)["ok"], false);
    prlimit_fsize(&d, "unlimited");
    let t0 = Instant::now();
    while health(&mut c)["ok"] != true {
        assert!(t0.elapsed() < Duration::from_secs(10), "never recovered");
        std::thread::sleep(Duration::from_millis(50));
    }
    play(&mut c, moves[4]);
    assert_eq!(journal_moves(&journal), moves[..5]);
    assert_eq!(verify(&journal)["ok"], true);
}

#[test]
fn a_full_disk_sends_the_journal_to_a_fallback_copy_that_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(fs) = tandem_testkit::require(
        "a 64 KiB tmpfs to fill up (mount, as root)",
        Tmpfs::mount(&dir.path().join("small"), "64k"),
    ) else {
        return;
    };
    let journal = fs.0.join("game.jsonl");
    let d = daemon(
        dir.path(),
        &["--lang", "en", "--journal", journal.to_str().unwrap()],
    );
    let mut c = d.client();
    let moves = real_game().move_texts();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    for m in &moves[..4] {
        play(&mut c, m);
    }
    let _filler = fs.fill();
    // The journal's last page still has room for a few lines.
    let mut n = 4;
    let (said, r) = loop {
        let r = play(&mut c, moves[n]);
        n += 1;
        let said = r["said"].to_string();
        if said.contains("cannot be written") || n == 30 {
            break (said, r);
        }
    };
    assert!(said.contains("fallback file"), "{said}");
    // Played, but not a success (issue 26): safe only in the fallback copy.
    assert_eq!(r["unsaved"]["fallback_ok"], true, "{r}");
    let text = tandem::client::unsaved_text(&r["unsaved"]);
    assert!(
        text.contains("in the fallback copy") && text.contains("tandem play --resume"),
        "{text}"
    );
    let h = health(&mut c);
    assert_eq!(h["ok"], false, "{h}");
    assert!(h["error"].as_str().unwrap().contains("No space"), "{h}");
    assert_eq!(h["fallback_ok"], true, "{h}");
    let fallback = PathBuf::from(h["fallback"].as_str().unwrap());
    assert!(
        fallback.starts_with(dir.path().join("state/tandem/fallback")),
        "{h}"
    );
    play(&mut c, moves[n]);
    n += 1;
    // The fallback copy is a whole journal: it verifies and has every move.
    assert_eq!(verify(&fallback)["ok"], true);
    assert_eq!(journal_moves(&fallback), moves[..n]);
    // Power lost while the disk is still full: resume from the fallback copy.
    drop(c);
    drop(d);
    let d = daemon(dir.path(), &["--resume", fallback.to_str().unwrap()]);
    let mut c = d.client();
    let st = c.request("state", None).unwrap()["state"].clone();
    let got: Vec<String> = serde_json::from_value(st["moves"].clone()).unwrap();
    assert_eq!(got, moves[..n], "acknowledged moves lost");
    assert_eq!(c.request("resume", None).unwrap()["ok"], true);
    play(&mut c, moves[n]);
    assert_eq!(verify(&fallback)["ok"], true);
    // The journal on the full disk holds what it could, and no torn garbage
    // that would stop a resume.
    let v = verify(&journal);
    assert_eq!(v["ok"], true, "{v}");
}
