//! The hall against hostile tables and spectators, with the real desk and
//! the real Mosquitto (passwords and ACL): the desk never freezes while the
//! arbiter shows and hides tables; a spectator who lags sees no hidden
//! table; a table's oversized or junk messages and made-up games cost only
//! its own view; alert floods push out no other table's alert; idle and
//! slow sockets are bounded; the `result` line reaches the desk when a table
//! stops.

mod hall_common;
mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hall_common::{
    alert_kinds, closed, ctl_ok, hall, journal_of, mark, table, wait_for, Broker, Desk, EVENT,
};
use serde_json::{json, Value};

/// A desk with a public server: (desk, the public server's base URL).
fn desk_with_public(
    dir: &std::path::Path,
    broker: &Broker,
    env: &[(&str, &str)],
) -> (Desk, String) {
    let (desk, public) = Desk::start_public(dir, broker, &[], env);
    (desk, format!("http://{public}"))
}

/// A desk with a public server and `extra` flags.
fn desk_with_public_args(dir: &std::path::Path, broker: &Broker, extra: &[&str]) -> (Desk, String) {
    let (desk, public) = Desk::start_public(dir, broker, extra, &[]);
    (desk, format!("http://{public}"))
}

/// A table's state as a relay publishes it, `pad` bytes of moves.
fn state(n: u32, pad: usize) -> String {
    let moves: Vec<String> = (0..pad / 8)
        .map(|i| format!("{}-{}", i % 50, i % 49))
        .collect();
    json!({"variant": "international", "ply": moves.len(), "turn": "white", "moves": moves,
           "clocks": {"running": false, "white": {"remaining_ms": 60000}, "black": {"remaining_ms": 60000}},
           "players": {"white": format!("White {n}"), "black": format!("Black {n}")},
           "result": null, "journal_lines": 0})
    .to_string()
}

fn publish_state(broker: &Broker, n: u32, pad: usize) {
    let topic = format!("tandem/{EVENT}/table/{n}/state");
    assert!(broker.publish_args(
        &format!("table{n}"),
        &format!("pw{n}"),
        &["-t", &topic, "-s"],
        Some(state(n, pad).as_bytes())
    ));
}

/// POSTs JSON to the desk as its page does; the status and the answer.
fn post(base: &str, path: &str, body: &Value) -> (u16, String) {
    match ureq::post(&format!("{base}{path}"))
        .set("x-tandem-desk", "1")
        .timeout(Duration::from_secs(10))
        .send_json(body.clone())
    {
        Ok(r) => (r.status(), r.into_string().unwrap_or_default()),
        Err(ureq::Error::Status(c, r)) => (c, r.into_string().unwrap_or_default()),
        Err(e) => panic!("POST {path}: {e}"),
    }
}

fn get(base: &str, path: &str) -> Result<String, String> {
    ureq::get(&format!("{base}{path}"))
        .timeout(Duration::from_secs(10))
        .call()
        .map_err(|e| format!("GET {path}: {e}"))?
        .into_string()
        .map_err(|e| e.to_string())
}

/// Opens `GET /events` on `base` and returns the socket (nothing read yet).
fn open_events(base: &str) -> TcpStream {
    let addr = base.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    s
}

/// Reads what `s` has until it is quiet for `quiet`.
fn read_until_quiet(s: &mut TcpStream, quiet: Duration) -> String {
    s.set_read_timeout(Some(quiet)).unwrap();
    let mut all = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(k) => all.extend_from_slice(&buf[..k]),
        }
    }
    String::from_utf8_lossy(&all).into_owned()
}

/// A file of 2 MiB in `dir`, over every bound on a message.
fn two_mib(dir: &std::path::Path) -> std::path::PathBuf {
    let huge = dir.join("huge");
    std::fs::write(&huge, vec![b'x'; 2 << 20]).unwrap();
    huge
}

/// The file `file` published retained by table 2 (its own login) on its
/// topic `leaf`: whether the broker took it.
fn retained_from_table_2(broker: &Broker, leaf: &str, file: &std::path::Path) -> bool {
    let topic = format!("tandem/{EVENT}/table/2/{leaf}");
    let args = ["-t", &topic, "-r", "-f", file.to_str().unwrap()];
    broker.publish_args("table2", "pw2", &args, None)
}

/// Table 1, its first move played and seen at the desk.
fn table_with_a_move(dir: &std::path::Path, broker: &Broker, desk: &Desk) -> support::Daemon {
    let t1 = table(dir, broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "table 1's move", |t| t["ply"] == 1);
    t1
}

#[test]
fn toggling_spectators_while_everything_is_read_never_freezes_the_desk() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 30);
    let (desk, public) = desk_with_public(dir.path(), &broker, &[]);
    for n in 1..=30 {
        publish_state(&broker, n, 64);
    }
    wait_for("30 tables at the desk", || {
        let k = desk.tables().len();
        if k == 30 {
            Ok(())
        } else {
            Err(format!("{k}"))
        }
    });
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let mut threads = Vec::new();
    // The arbiter: every table shown, then one hidden (the order that took
    // `public` then `tables`), again and again (two browsers).
    for _ in 0..2 {
        let (stop, done, base) = (stop.clone(), done.clone(), desk.base.clone());
        threads.push(std::thread::spawn(move || {
            let mut k = 0u32;
            while !stop.load(Ordering::Relaxed) {
                let (c, _) = post(&base, "/api/public", &json!({"table": null, "on": true}));
                assert_eq!(c, 200);
                let (c, _) = post(
                    &base,
                    "/api/public",
                    &json!({"table": 1 + k % 3, "on": false}),
                );
                assert_eq!(c, 200);
                k += 1;
                done.fetch_add(2, Ordering::Relaxed);
            }
        }));
    }
    // Pages, the API and the feeds on both servers (`tables` then `public`).
    for base in [
        desk.base.clone(),
        public.clone(),
        desk.base.clone(),
        public.clone(),
    ] {
        let (stop, done) = (stop.clone(), done.clone());
        threads.push(std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                for p in [
                    "/api/tables",
                    "/api/view",
                    "/api/results.csv",
                    "/api/round.pdn",
                ] {
                    get(&base, p).unwrap();
                    done.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    // Live streams read as they come.
    for base in [desk.base.clone(), public.clone()] {
        let stop = stop.clone();
        threads.push(std::thread::spawn(move || {
            let mut s = open_events(&base);
            s.set_read_timeout(Some(Duration::from_millis(200)))
                .unwrap();
            let mut buf = vec![0u8; 1 << 16];
            while !stop.load(Ordering::Relaxed) {
                let _ = s.read(&mut buf);
            }
        }));
    }
    // A table sending states all along (the broker loop takes `tables` too).
    let lines: String = (0..3000).map(|_| state(2, 64) + "\n").collect();
    let b = broker.publish_args(
        "table2",
        "pw2",
        &["-t", &format!("tandem/{EVENT}/table/2/state"), "-l"],
        Some(lines.as_bytes()),
    );
    assert!(b);
    std::thread::sleep(Duration::from_secs(4));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join()
            .expect("a client got no answer in 10 s: the desk froze");
    }
    assert!(done.load(Ordering::Relaxed) > 20, "requests were answered");
    // The broker loop still takes messages.
    mark(
        &broker,
        &desk,
        3,
        "still here",
        "the marker after the stress",
    );
}

#[test]
fn a_spectator_who_lags_never_gets_a_hidden_table() {
    let dir = tempfile::tempdir().unwrap();
    let hidden = 31u32;
    let broker = Broker::start(dir.path(), hidden);
    // A short queue of changes: a spectator lags as soon as more come at once.
    let (desk, public) = desk_with_public(dir.path(), &broker, &[("TANDEM_HALL_UPDATES", "16")]);
    for n in 1..=hidden {
        publish_state(&broker, n, 64);
    }
    wait_for("every table at the desk", || {
        let k = desk.tables().len();
        if k == hidden as usize {
            Ok(())
        } else {
            Err(format!("{k}"))
        }
    });
    // Every table shown but the last (taken off a "show every table").
    let show = |table: Value, on: bool| {
        assert_eq!(
            post(
                &desk.base,
                "/api/public",
                &json!({"table": table, "on": on})
            )
            .0,
            200
        );
    };
    show(Value::Null, true);
    show(json!(hidden), false);
    // A spectator opens the live stream, and stops reading for a while.
    let mut spectator = open_events(&public);
    // The arbiter shows and hides table 1: each time every table changes
    // (the hidden one too), more than the queue holds: the spectator lags.
    for on in [false, true, false, true] {
        show(json!(1), on);
    }
    // And the hidden table changes meanwhile.
    publish_state(&broker, hidden, 80);
    wait_for("the spectator lagged", || {
        let stats: Value = serde_json::from_str(&get(&desk.base, "/api/stats")?).unwrap();
        if stats["sse_lagged"].as_u64().unwrap_or(0) > 0 {
            Ok(())
        } else {
            Err(stats.to_string())
        }
    });
    let stats: Value = serde_json::from_str(&get(&desk.base, "/api/stats").unwrap()).unwrap();
    assert!(
        stats["sse_lagged"].as_u64().unwrap() > 0,
        "the spectator lagged: {stats}"
    );
    // It reads again: everything public comes, the hidden table never.
    let seen = read_until_quiet(&mut spectator, Duration::from_secs(3));
    assert!(
        seen.contains("\"table\":1,") || seen.contains("\"table\":1}"),
        "public tables come"
    );
    let leak = format!("\"table\":{hidden}");
    assert!(
        !seen.contains(&leak),
        "the hidden table reached a spectator"
    );
    // Nor by the other public routes.
    for p in [
        "/api/tables",
        "/api/view",
        "/api/results.csv",
        "/api/round.pdn",
    ] {
        let t = get(&public, p).unwrap();
        assert!(!t.contains(&format!("White {hidden}")), "{p}: {t}");
    }
    assert!(get(&public, &format!("/api/tables/{hidden}/game")).is_err());
}

#[test]
fn a_tables_oversized_or_junk_messages_cost_only_its_own_view() {
    let (dir, broker, mut desk) = hall(2);
    let t1 = table_with_a_move(dir.path(), &broker, &desk);
    // Over the broker's max_packet_size, retained: the broker refuses it.
    let huge = two_mib(dir.path());
    retained_from_table_2(&broker, "state", &huge);
    // Under it, retained junk on every topic table 2 may write.
    let junk = dir.path().join("junk");
    std::fs::write(&junk, vec![b'{'; 200 << 10]).unwrap();
    for leaf in ["state", "journal", "alert", "reply"] {
        assert!(retained_from_table_2(&broker, leaf, &junk));
    }
    desk.wait_table(2, "table 2's junk alerts", |t| {
        t["alerts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == "junk")
            .count()
            >= 3
    });
    ctl_ok(&t1, &["move", "19-23"]);
    desk.wait_table(1, "table 1 goes on", |t| t["ply"] == 2);
    // The desk restarted: the retained junk comes again, and changes nothing else.
    let _ = desk.child.kill();
    let _ = desk.child.wait();
    desk = Desk::start(dir.path(), &broker, &[]);
    ctl_ok(&t1, &["move", "28x19"]);
    desk.wait_table(1, "table 1 after the desk's restart", |t| {
        t["ply"] == 3 && t["chain_ok"] == true
    });
    desk.wait_copy(1, &journal_of(dir.path(), 1));
    let t2 = desk.table(2).unwrap();
    assert!(alert_kinds(&t2).iter().all(|k| *k == "junk"), "{t2}");
    assert!(alert_kinds(&desk.table(1).unwrap())
        .iter()
        .all(|k| *k != "junk"));
}

#[test]
fn a_broker_without_a_packet_limit_cannot_keep_the_desk_off_it() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start_unbounded(dir.path(), 2);
    let desk = Desk::start(dir.path(), &broker, &[]);
    let t1 = table_with_a_move(dir.path(), &broker, &desk);
    // 2 MiB retained under table 2: over the desk's 1 MiB, redelivered on every reconnect.
    let huge = two_mib(dir.path());
    assert!(retained_from_table_2(&broker, "state", &huge));
    // The desk says so once, takes it as table 2's junk, and goes on.
    wait_for("the desk's alert about the broker", || {
        let a = desk.alerts();
        if a.iter().any(|a| a["alert"]["kind"] == "broker") {
            Ok(())
        } else {
            Err(format!("{a:?}"))
        }
    });
    desk.wait_table(2, "table 2's junk", |t| alert_kinds(t).contains(&"junk"));
    ctl_ok(&t1, &["move", "19-23"]);
    desk.wait_table(1, "table 1 goes on", |t| t["ply"] == 2);
}

/// A journal line of table `n`'s game made up at another "table": the start
/// line with other names (hash and game id right).
fn made_up_start(real_first: &str, white: &str) -> Value {
    let mut v: Value = serde_json::from_str(real_first).unwrap();
    v["event"]["white"] = json!(white);
    let line = v.to_string();
    let hash = tandem::journal::line_hash(line.as_bytes());
    json!({"seq": 1, "hash": hash, "line": line, "game": hash})
}

/// A journal's text without the desk's witness lines (the desk witnesses
/// what it holds as it goes: one may come at any moment of a test).
fn game_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.contains("\"type\":\"witness\""))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_table_cannot_erase_its_evidence() {
    let (dir, broker, mut desk) = hall(1);
    let t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    let journal = journal_of(dir.path(), 1);
    let copy = desk.wait_copy(1, &journal);
    let topic = format!("tandem/{EVENT}/table/1/journal");
    let send = |m: &Value| assert!(broker.publish("table1", "pw1", &topic, &m.to_string()));
    let lines: Vec<String> = copy.lines().map(str::to_owned).collect();
    // A line with a made-up game id: no new copy, nothing reset.
    let l2 = &lines[1];
    send(
        &json!({"seq": 2, "hash": tandem::journal::line_hash(l2.as_bytes()), "line": l2, "game": "f".repeat(64)}),
    );
    desk.wait_table(1, "the made-up game refused", |t| {
        alert_kinds(t).contains(&"junk")
    });
    assert_eq!(
        game_lines(&desk.get_text("/api/tables/1/journal").unwrap()),
        game_lines(&copy)
    );
    assert_eq!(desk.table(1).unwrap()["chain_ok"], true);
    // An edited line 2: the chain is broken, and stays so across a restart of the desk.
    let game = tandem::journal::line_hash(lines[0].as_bytes());
    let edited = l2.replacen("\"t_ms\":", "\"t_ms\":1", 1);
    send(
        &json!({"seq": 2, "hash": tandem::journal::line_hash(edited.as_bytes()), "line": edited, "game": game}),
    );
    desk.wait_table(1, "the broken chain", |t| t["chain_ok"] == false);
    let _ = desk.child.kill();
    let _ = desk.child.wait();
    desk = Desk::start(dir.path(), &broker, &[]);
    desk.wait_table(1, "still broken after a restart", |t| {
        t["chain_ok"] == false
    });
    // A made-up game that starts as a journal starts: believed, the copy kept aside; still broken.
    let copy_has = |who: &str| {
        wait_for(&format!("the desk's copy is {who}'s game"), || {
            let c = desk.get_text("/api/tables/1/journal")?;
            if c.lines().count() == 1 && c.contains(who) {
                Ok(())
            } else {
                Err(c)
            }
        })
    };
    send(&made_up_start(&lines[0], "Someone Else"));
    copy_has("Someone Else");
    assert_eq!(desk.table(1).unwrap()["chain_ok"], false);
    let aside = desk
        .data
        .join(EVENT)
        .join(format!("table-1-{}.jsonl", &game[..12]));
    assert_eq!(
        game_lines(&std::fs::read_to_string(&aside).unwrap()),
        game_lines(&copy),
        "the real game kept aside"
    );
    // A second one never overwrites the first kept aside.
    send(&made_up_start(&lines[0], "A Third"));
    copy_has("A Third");
    assert_eq!(
        game_lines(&std::fs::read_to_string(&aside).unwrap()),
        game_lines(&copy)
    );
    // The real table goes on: two machines as table 1, an alert, no ping-pong.
    ctl_ok(&t1, &["move", "19-23"]);
    wait_for("the duplicate table alert", || {
        let a = desk.alerts();
        if a.iter().any(|a| a["alert"]["kind"] == "duplicate") {
            Ok(())
        } else {
            Err(format!("{a:?}"))
        }
    });
    copy_has("A Third");
    // The arbiter acknowledges the broken chain.
    assert_eq!(
        post(&desk.base, "/api/tables/1/acknowledge", &json!({})).0,
        200
    );
    desk.wait_table(1, "acknowledged", |t| t["chain_ok"] == true);
}

#[test]
fn an_alert_flood_from_one_table_pushes_out_no_other_tables_alert() {
    let (_dir, broker, desk) = hall(2);
    let alert =
        |text: &str| json!({"kind": "behind", "text": text, "seq": null, "wall": ""}).to_string();
    assert!(broker.publish(
        "table1",
        "pw1",
        &format!("tandem/{EVENT}/table/1/alert"),
        &alert("table 1 before")
    ));
    wait_for("table 1's alert", || {
        let a = desk.alerts();
        if a.iter().any(|a| a["table"] == 1) {
            Ok(())
        } else {
            Err(format!("{a:?}"))
        }
    });
    // Table 2 floods its alert topic: 3,000 different alerts, and one 3,000 times.
    let mut flood: String = (0..3000)
        .map(|i| alert(&format!("flood {i}")) + "\n")
        .collect();
    flood.extend((0..3000).map(|_| alert("the same") + "\n"));
    assert!(broker.publish_args(
        "table2",
        "pw2",
        &["-t", &format!("tandem/{EVENT}/table/2/alert"), "-l"],
        Some(flood.as_bytes())
    ));
    assert!(broker.publish(
        "table1",
        "pw1",
        &format!("tandem/{EVENT}/table/1/alert"),
        &alert("table 1 after")
    ));
    let a = wait_for("table 1's second alert", || {
        let a = desk.alerts();
        if a.iter().any(|a| a["alert"]["text"] == "table 1 after") {
            Ok(a)
        } else {
            Err(format!("{} alerts", a.len()))
        }
    });
    assert!(
        a.iter().any(|a| a["alert"]["text"] == "table 1 before"),
        "not pushed out"
    );
    let from2 = a.iter().filter(|a| a["table"] == 2).count();
    assert!(from2 <= 25, "table 2's flood is rate-limited: {from2}");
    assert!(
        a.iter()
            .any(|a| a["table"] == 2 && a["alert"]["kind"] == "flood"),
        "and said so"
    );
}

#[test]
fn idle_and_slow_sockets_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let (desk, public) = desk_with_public(
        dir.path(),
        &broker,
        &[("TANDEM_HALL_HEADER_TIMEOUT_MS", "1500")],
    );
    let addr = public.trim_start_matches("http://").to_owned();
    // A thousand idle sockets (from another address: one address gets a
    // share of the connections) and a slowloris on the public server.
    let idle: Vec<TcpStream> = (0..1000)
        .map(|_| hall_common::connect_from("127.0.0.2", &addr).unwrap())
        .collect();
    let mut slow = TcpStream::connect(&addr).unwrap();
    slow.write_all(b"GET /api/tables HTTP/1.1\r\n").unwrap();
    // Meanwhile both servers answer.
    get(&public, "/api/tables").unwrap();
    get(&desk.base, "/api/tables").unwrap();
    let t0 = Instant::now();
    let mut slow_closed = false;
    while t0.elapsed() < Duration::from_secs(4) && !slow_closed {
        std::thread::sleep(Duration::from_millis(300));
        if slow.write_all(b"X-a: b\r\n").is_err() {
            slow_closed = true;
        }
    }
    assert!(slow_closed || closed(&slow), "the slowloris is cut off");
    let open = idle.iter().filter(|s| !closed(s)).count();
    assert_eq!(open, 0, "idle sockets are closed after the header time");
    // The desk's server holds at most 256: more are closed at once.
    let daddr = desk.base.trim_start_matches("http://").to_owned();
    let many: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(&daddr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let shut = many.iter().filter(|s| closed(s)).count();
    assert!(shut >= 40, "over the limit: closed at once ({shut})");
    drop(many);
    get(&desk.base, "/api/tables").unwrap();
}

#[test]
fn the_result_reaches_the_desk_when_a_table_stops() {
    let (dir, broker, desk) = hall(1);
    let mut t1 = table(dir.path(), &broker, 1, &[]);
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "table 1", |t| t["ply"] == 1);
    // The result, and the table stopped at once (SIGTERM, as systemd stops it).
    ctl_ok(&t1, &["resign", "black"]);
    let pid = rustix::process::Pid::from_raw(t1.child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let st = t1.child.wait().unwrap();
    assert!(st.success(), "{st:?}");
    let journal = journal_of(dir.path(), 1);
    assert!(!support::journal_events(&journal, "result").is_empty());
    desk.wait_copy(1, &journal);
    desk.wait_table(1, "the result at the desk", |t| t["result"] == "2-0");
}

/// One raw HTTP/1.1 request; the status line and headers, and the body.
fn raw(base: &str, head: &str) -> (String, String) {
    let addr = base.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let text = read_until_quiet(&mut s, Duration::from_millis(500));
    let (h, b) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (h.to_owned(), b.to_owned())
}

#[test]
fn the_desk_answers_only_its_arbiter_and_its_own_host_names() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let (desk, public) = desk_with_public_args(dir.path(), &broker, &["--login"]);
    let addr = desk.base.trim_start_matches("http://").to_owned();
    let no_redirects = ureq::AgentBuilder::new().redirects(0).build();
    // Without the login: the page sends to the login, the API and actions are refused.
    let r = no_redirects.get(&format!("{}/", desk.base)).call().unwrap();
    assert_eq!((r.status(), r.header("location")), (303, Some("/login")));
    assert!(get(&desk.base, "/login")
        .unwrap()
        .contains("arbiter's secret"));
    for (path, body) in [
        ("/api/command", json!({"table": 1, "cmd": "pause"})),
        ("/api/public", json!({"table": null, "on": true})),
    ] {
        assert_eq!(post(&desk.base, path, &body).0, 401, "{path}");
    }
    assert!(matches!(
        ureq::get(&format!("{}/api/tables", desk.base)).call(),
        Err(ureq::Error::Status(401, _))
    ));
    // A wrong secret, then the right one.
    let login = |secret: &str| match no_redirects
        .post(&format!("{}/login", desk.base))
        .send_form(&[("secret", secret)])
    {
        Ok(r) => (r.status(), r.header("set-cookie").map(str::to_owned)),
        Err(ureq::Error::Status(c, r)) => (c, r.header("set-cookie").map(str::to_owned)),
        Err(e) => panic!("{e}"),
    };
    assert_eq!(login("guess"), (401, None));
    // A wrong secret makes the desk wait a second (hall_bounds and hall_login test the wait).
    std::thread::sleep(Duration::from_millis(1100));
    let (status, cookie) = login(hall_common::SECRET);
    assert_eq!(status, 303);
    let cookie = cookie.unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let cookie = cookie.split(';').next().unwrap().to_owned();
    let r = ureq::get(&format!("{}/api/tables", desk.base))
        .set("cookie", &cookie)
        .call()
        .unwrap();
    assert_eq!(r.status(), 200);
    let r = ureq::post(&format!("{}/api/public", desk.base))
        .set("cookie", &cookie)
        .set("x-tandem-desk", "1")
        .send_json(json!({"table": null, "on": true}))
        .unwrap();
    assert_eq!(r.status(), 200);
    // Another host name (DNS rebinding) and another site's page: refused, on both servers.
    for base in [&desk.base, &public] {
        let (h, _) = raw(
            base,
            "GET /api/tables HTTP/1.1\r\nHost: evil.example\r\n\r\n",
        );
        assert!(h.starts_with("HTTP/1.1 421"), "{h}");
    }
    let (h, _) = raw(
        &desk.base,
        &format!(
            "POST /api/public HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://evil.example\r\nCookie: {cookie}\r\n\
             x-tandem-desk: 1\r\ncontent-type: application/json\r\ncontent-length: 26\r\n\r\n{{\"table\":null,\"on\":false}}"
        ),
    );
    assert!(h.starts_with("HTTP/1.1 403"), "{h}");
    // The pages are kept out of other sites' frames and scripts.
    let (h, _) = raw(
        &public,
        &format!(
            "GET / HTTP/1.1\r\nHost: {}\r\n\r\n",
            public.trim_start_matches("http://")
        ),
    );
    let h = h.to_ascii_lowercase();
    assert!(
        h.contains("content-security-policy: default-src 'self'"),
        "{h}"
    );
    assert!(
        h.contains("frame-ancestors 'none'") && h.contains("x-frame-options: deny"),
        "{h}"
    );
    // A spectator has nothing to log into, and no arbiter's action.
    assert_eq!(
        post(&public, "/api/public", &json!({"table": null, "on": false})).0,
        404
    );
}
