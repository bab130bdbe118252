//! Security of the control socket, against the real `tandem play` binary:
//! who may connect (0600, owned by the user running tandem), who may act as
//! the arbiter (the secret given at start, compared in constant time;
//! without one, never), and that no client, however many, hostile or slow,
//! can make the daemon panic, block the game or grow without bound.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{journal_events, tandem, Daemon, Play};
use tandem::client::Client;

/// `tandem play --headless --speech none --braille none --lang en` in
/// `dir`, its socket in a folder of its own (`run/`), the journal
/// `game.jsonl`, and no arbiter secret unless `env` gives one.
fn daemon(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Daemon {
    Play::new(&dir.join("run/tandem.sock"))
        .config_home(&dir.join("noconfig"))
        .args(["--speech", "none", "--braille", "none", "--lang", "en"])
        .arg("--journal")
        .arg(journal(dir))
        .args(args)
        .env_remove("TANDEM_ARBITER_SECRET")
        .envs(env)
        .start()
}

fn journal(dir: &Path) -> PathBuf {
    dir.join("game.jsonl")
}

fn raw(c: &mut Client, v: &Value) -> Value {
    c.raw(&v.to_string()).unwrap()
}

#[test]
fn the_socket_is_0600_in_a_0700_folder_and_owned_by_the_user_running_tandem() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path(), &[], &[]);
    let meta = std::fs::metadata(&d.socket).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(meta.uid(), rustix::process::getuid().as_raw());
    let folder = std::fs::metadata(d.socket.parent().unwrap()).unwrap();
    assert_eq!(folder.permissions().mode() & 0o777, 0o700);
    assert_eq!(folder.uid(), rustix::process::getuid().as_raw());
}

#[test]
fn arbiter_actions_need_the_secret_given_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let secret_file = dir.path().join("arbiter.secret");
    std::fs::write(&secret_file, "correct horse battery\n").unwrap();
    let d = daemon(
        dir.path(),
        &["--arbiter-secret-file", secret_file.to_str().unwrap()],
        &[],
    );
    let journal = journal(dir.path());
    let mut c = d.client();
    for m in ["32-28", "19-23", "28x19", "14x23"] {
        assert_eq!(c.request("move", Some(m)).unwrap()["ok"], true);
    }
    // No secret, a wrong one, one that differs only in its last byte: refused, journaled.
    for secret in [None, Some("wrong"), Some("correct horse batterz")] {
        let mut req = json!({"cmd": "clock", "arg": "set white 600"});
        if let Some(s) = secret {
            req["secret"] = s.into();
        }
        let r = raw(&mut c, &req);
        assert_eq!(r["ok"], false, "{r}");
        assert!(
            r["error"].as_str().unwrap().contains("arbiter secret"),
            "{r}"
        );
        let r = raw(
            &mut c,
            &json!({"cmd": "takeback", "arg": "1", "secret": secret}),
        );
        assert_eq!(r["ok"], false, "{r}");
    }
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["ply"], 4);
    assert!(st["clocks"]["white"]["remaining_ms"].as_u64().unwrap() > 5_000_000);
    assert_eq!(journal_events(&journal, "rejected").len(), 6);
    // With the secret: the clock is set and two plies are taken back.
    let r = raw(
        &mut c,
        &json!({"cmd": "clock", "arg": "set white 600", "secret": "correct horse battery"}),
    );
    assert_eq!(r["ok"], true, "{r}");
    let r = raw(
        &mut c,
        &json!({"cmd": "takeback", "arg": "2 boards differed on 23", "secret": "correct horse battery"}),
    );
    assert_eq!(r["ok"], true, "{r}");
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["moves"], json!(["32-28", "19-23"]));
    assert_eq!(st["turn"], "white");
    let w = st["clocks"]["white"]["remaining_ms"].as_u64().unwrap();
    assert!((599_000..=600_000).contains(&w), "{st}");
    let corr = journal_events(&journal, "correction");
    assert_eq!(
        corr,
        vec![
            json!({"type": "correction", "plies": 2, "undone": ["28x19", "14x23"],
                    "source": "arbiter", "reason": "boards differed on 23"})
        ]
    );
    assert_eq!(journal_events(&journal, "clock-set").len(), 1);
    // Play goes on from the corrected position; the journal verifies and replays to it.
    assert_eq!(c.request("move", Some("28x19")).unwrap()["ok"], true);
    drop(c);
    let j = journal.to_str().unwrap();
    let v = tandem(&["journal", "verify", j]);
    assert!(v.status.success(), "{v:?}");
    let pdn = tandem(&["pdn", "export", j]);
    let text = String::from_utf8(pdn.stdout).unwrap();
    let games = tandem_rules::draughts::pdn::parse_pdn(&text);
    let tandem_rules::draughts::pdn::Replay::Ok(g) = tandem_rules::draughts::pdn::replay(
        &games[0],
        tandem_rules::draughts::Variant::International,
    ) else {
        panic!("{text}")
    };
    assert_eq!(g.move_texts(), ["32-28", "19-23", "28x19"], "{text}");
}

#[test]
fn without_a_secret_arbiter_actions_are_always_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path(), &[], &[]);
    let mut c = d.client();
    assert_eq!(c.request("move", Some("32-28")).unwrap()["ok"], true);
    let r = raw(
        &mut c,
        &json!({"cmd": "takeback", "arg": "1", "secret": ""}),
    );
    assert_eq!(r["ok"], false);
    assert!(r["error"].as_str().unwrap().contains("disabled"), "{r}");
    assert_eq!(c.request("state", None).unwrap()["state"]["ply"], 1);
    // The env var works too.
    drop(c);
    drop(d);
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path(), &[], &[("TANDEM_ARBITER_SECRET", "s3cret")]);
    let mut c = d.client();
    let r = raw(
        &mut c,
        &json!({"cmd": "clock", "arg": "set black 60", "secret": "s3cret"}),
    );
    assert_eq!(r["ok"], true, "{r}");
}

#[test]
fn too_many_connections_are_turned_away_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path(), &[], &[]);
    let mut held = Vec::new();
    for _ in 0..tandem::control::MAX_CONNECTIONS + 8 {
        held.push(UnixStream::connect(&d.socket).unwrap());
    }
    // The last ones are told and closed (the read waits for it).
    let last = held.pop().unwrap();
    last.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut line = String::new();
    BufReader::new(&last).read_line(&mut line).unwrap();
    assert!(line.contains("too many connections"), "{line}");
    drop(held);
    // Once the daemon has seen them close, a new client is served: until
    // then one is turned away like the others, so try until one is served.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut c = d.client();
        match c.request("move", Some("32-28")) {
            Ok(r) if r["ok"] == true => break,
            Ok(r) if r["error"].as_str().is_some_and(|e| e.contains("too many")) => {}
            other => panic!("the game did not go on: {other:?}"),
        }
        assert!(
            Instant::now() < deadline,
            "no client served 20 s after the others left"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_subscriber_that_never_reads_is_dropped_and_never_blocks_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path(), &[], &[]);
    let mut slow = UnixStream::connect(&d.socket).unwrap();
    slow.write_all(b"{\"cmd\":\"subscribe\"}\n").unwrap();
    let mut c = d.client();
    // Each request makes a speech and a state event, far more than the queue holds.
    let t0 = Instant::now();
    for i in 0..1500 {
        let r = c.request("position", None).unwrap();
        assert_eq!(r["ok"], true, "request {i}: {r}");
    }
    let took = t0.elapsed();
    assert!(
        took < Duration::from_secs(60),
        "the game was held up: {took:?}"
    );
    // The slow subscriber's connection ends (after a `lagged` line, or on a stuck write).
    slow.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut r = BufReader::new(&slow);
    let mut lines = 0;
    let mut line = String::new();
    loop {
        line.clear();
        match r.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => lines += 1,
            Err(e) => panic!("the slow subscriber was never dropped ({lines} lines): {e}"),
        }
    }
    assert!(lines < 3100, "{lines} lines: nothing was dropped");
    assert_eq!(c.request("move", Some("32-28")).unwrap()["ok"], true);
}

#[test]
fn garbage_of_every_shape_never_stops_the_daemon() {
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(dir.path(), &[], &[]);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let shapes = [
        r#"{"cmd":"move","arg":"#,
        r#"{"cmd":"clock","arg":"set white 99999999999999999999999","secret":"x"}"#,
        r#"{"cmd":"takeback","arg":"4294967296"}"#,
        r#"{"cmd":"mismatch","arg":"W:W1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51:B"}"#,
        r#"{"cmd":"say","arg":""}"#,
        r#"{"cmd":["move"]}"#,
        r#"{"cmd":"move","arg":"32-28","extra":1}"#,
        r#"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["#,
    ];
    let mut s = UnixStream::connect(&d.socket).unwrap();
    for i in 0..3000 {
        let mut line: Vec<u8> = if i % 3 == 0 {
            shapes[(next() % shapes.len() as u64) as usize]
                .as_bytes()
                .to_vec()
        } else {
            (0..next() % 300)
                .map(|_| (next() % 256) as u8)
                .filter(|&b| b != b'\n')
                .collect()
        };
        line.push(b'\n');
        if s.write_all(&line).is_err() {
            // A line the daemon closed the connection over: open another.
            s = UnixStream::connect(&d.socket).unwrap();
        }
    }
    // Deep nesting and a 10 MB line: that connection closes, nothing else.
    let mut big = UnixStream::connect(&d.socket).unwrap();
    let _ = big.write_all(&vec![b'['; 10 << 20]);
    let mut c = d.client();
    let r = c.request("state", None).unwrap();
    assert_eq!(r["ok"], true, "{r}");
    assert!(r["state"]["ply"].as_u64().unwrap() <= 1);
    assert_eq!(c.request("say", Some("still here")).unwrap()["ok"], true);
}

/// The limits the docs promise are the daemon's (`control::MAX_LINE`,
/// `MAX_CONNECTIONS`, `EVENT_QUEUE`): docs/protocol.md and RELIABILITY.md
/// once said 256 events where the code held 4096.
#[test]
fn the_control_limits_in_the_docs_are_the_daemons() {
    use tandem::control::{EVENT_QUEUE, MAX_CONNECTIONS, MAX_LINE};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let expected = [
        format!("more than {EVENT_QUEUE} events behind"),
        format!("at most {MAX_CONNECTIONS} connections"),
        format!("{} KiB", MAX_LINE / 1024),
    ];
    for doc in ["docs/protocol.md", "RELIABILITY.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        // Lines wrap anywhere: compare with the whitespace made single spaces.
        let flat = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        for e in &expected {
            assert!(flat.contains(&e.to_lowercase()), "{doc} does not say {e:?}");
        }
        // And no other figure for the event queue.
        for (i, _) in flat.match_indices(" events behind") {
            let before = &flat[..i];
            let n = before.rsplit(' ').next().unwrap();
            assert_eq!(
                n,
                EVENT_QUEUE.to_string(),
                "{doc}: {:?}",
                &flat[i.saturating_sub(40)..i + 14]
            );
        }
    }
}
