//! What a seat and its device may do at the table (issue 45), through the
//! real `tandem play --seats`, real HTTP and `tandem ctl`: the pairing
//! code typed at the table is never said on the table's own loudspeaker
//! (the other player hears it too); every pairing and unpairing is
//! journaled with the seat and the device's address (never the code),
//! told to the operator, and listed by `tandem ctl devices`; a device
//! stops the clock to call the arbiter but never restarts it; its `say` is
//! its seat's words, bounded in length and rate; `repeat` repeats what
//! that seat last heard, never the other seat's answer.

mod support;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{ctl, journal_events, Daemon, Play};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A table serving device seats at a free loopback port, its speech as
/// text on stdout (the table's loudspeaker), in `dir`.
fn device_table(dir: &Path) -> (Daemon, String, PathBuf) {
    let addr = format!("127.0.0.1:{}", free_port());
    let journal = dir.join("game.jsonl");
    let d = Play::in_dir(dir)
        .args(["--lang", "en", "--speech", "text", "--braille", "none"])
        .args(["--voice", "off", "--seats", &addr, "--journal"])
        .arg(&journal)
        .env_remove("TANDEM_ARBITER_SECRET")
        .stdout_lines()
        .start();
    let t0 = Instant::now();
    while get(&addr, "/", None).0 != 200 {
        assert!(t0.elapsed() < Duration::from_secs(20), "no pages");
        std::thread::sleep(Duration::from_millis(50));
    }
    (d, addr, journal)
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(20))
        .build()
}

fn answer(r: Result<ureq::Response, ureq::Error>) -> (u16, Option<String>, Value) {
    let r = match r {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let status = r.status();
    let cookie = r.header("set-cookie").map(str::to_owned);
    let body = r.into_string().unwrap_or_default();
    (
        status,
        cookie,
        serde_json::from_str(&body).unwrap_or(Value::Null),
    )
}

fn get(addr: &str, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let mut req = agent().get(&format!("http://{addr}{path}"));
    if let Some(c) = cookie {
        req = req.set("Cookie", c);
    }
    let (s, _, v) = answer(req.call());
    (s, v)
}

fn post(
    addr: &str,
    path: &str,
    cookie: Option<&str>,
    body: &Value,
) -> (u16, Option<String>, Value) {
    let mut req = agent().post(&format!("http://{addr}{path}"));
    if let Some(c) = cookie {
        req = req.set("Cookie", c);
    }
    answer(req.send_json(body.clone()))
}

/// Pairs a device as `side` with a code from `tandem ctl pair`: its cookie.
fn paired_device(socket: &Path, addr: &str, side: &str) -> String {
    let out = ctl(socket, &["pair", side, "--json"]);
    assert!(out.status.success(), "{out:?}");
    let code: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (st, cookie, v) = post(addr, "/api/pair", None, &json!({"code": code["code"]}));
    assert_eq!(st, 200, "{v}");
    cookie.unwrap().split(';').next().unwrap().to_owned()
}

fn command(addr: &str, cookie: &str, cmd: &str) -> (u16, Value) {
    let (s, _, v) = post(
        addr,
        "/api/command",
        Some(cookie),
        &json!({ "command": cmd }),
    );
    (s, v)
}

/// Waits for a journal line of type `kind` (the pairing hook is told
/// after the device's answer).
fn wait_event(journal: &Path, kind: &str, n: usize) -> Vec<Value> {
    let t0 = Instant::now();
    loop {
        let v = journal_events(journal, kind);
        if v.len() >= n {
            return v;
        }
        assert!(t0.elapsed() < Duration::from_secs(20), "no {kind} line");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_code_is_never_on_the_shared_loudspeaker_and_every_pairing_is_journaled_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, addr, journal) = device_table(dir.path());
    let mut screen = d.client();
    screen.subscribe().unwrap();
    // Typed at the table: the code goes to the operator's screen (the
    // `pairing` event) and white's own channels, never to the loudspeaker.
    d.type_line("pair white");
    d.type_line("say the code was asked");
    let code = loop {
        let v = screen.next_line().unwrap();
        if v["event"] == "pairing" {
            break v["code"].as_str().unwrap().to_owned();
        }
    };
    let digits: Vec<String> = code.chars().map(String::from).collect();
    let spoken = digits.join(", ");
    let mut loudspeaker = Vec::new();
    loop {
        let line = d.wait_stdout("", Duration::from_secs(20)).unwrap();
        let done = line.contains("the code was asked");
        loudspeaker.push(line);
        if done {
            break;
        }
    }
    for line in &loudspeaker {
        assert!(
            !line.contains(&spoken) && !line.contains("Pairing code"),
            "the code on the table's loudspeaker: {loudspeaker:?}"
        );
    }

    // The device pairs: journaled with its seat and address, never the code.
    let (st, cookie, v) = post(&addr, "/api/pair", None, &json!({ "code": code }));
    assert_eq!(st, 200, "{v}");
    let cookie = cookie.unwrap().split(';').next().unwrap().to_owned();
    let paired = wait_event(&journal, "paired", 1);
    assert_eq!(paired[0]["seat"], "white", "{paired:?}");
    let address = paired[0]["address"].as_str().unwrap().to_owned();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let written = std::fs::read_to_string(&journal).unwrap();
    assert!(!written.contains(&spoken) && !written.contains(&format!("\"{code}\"")));
    // Told to the operator (the screen's speech), not on the loudspeaker.
    let told = format!("A device at {address} is now white's seat.");
    loop {
        let v = screen.next_line().unwrap();
        if v["event"] == "speech" && v["text"] == told.as_str() {
            assert_eq!(v["to"], json!(["white"]), "{v}");
            break;
        }
    }

    // `tandem ctl devices` lists it (exact JSON), the operator's only.
    let out = ctl(&d.socket, &["devices", "--json"]);
    assert!(out.status.success(), "{out:?}");
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list["black"], json!([]), "{list}");
    assert_eq!(list["white"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["white"][0]["address"], address.as_str());
    assert_eq!(list["white"][0]["seat"], "white");
    assert!(
        list["white"][0]["since"].as_str().unwrap().ends_with('Z'),
        "{list}"
    );
    let out = ctl(&d.socket, &["devices"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains(&format!("white: {address} since ")), "{text}");
    assert!(text.contains("black: no device"), "{text}");
    assert!(!ctl(&d.socket, &["--seat", "black", "devices"])
        .status
        .success());

    // Its live stream, open when it is unpaired.
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200", "{}", String::from_utf8_lossy(&head));

    // Unpaired: journaled with the same address, the device a seat no more.
    assert!(ctl(&d.socket, &["unpair", "white"]).status.success());
    // Its stream ends with its seat: the next move is not sent to it.
    assert!(ctl(&d.socket, &["move", "32-28"]).status.success());
    // Read until the server ends it (its keep-alives would go on forever).
    let mut rest = Vec::new();
    let t0 = Instant::now();
    let mut buf = [0u8; 4096];
    let ended = loop {
        match stream.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => rest.extend_from_slice(&buf[..n]),
            Err(_) if t0.elapsed() < Duration::from_secs(20) => {}
            Err(_) => break false,
        }
        if t0.elapsed() > Duration::from_secs(20) {
            break false;
        }
    };
    let rest = String::from_utf8_lossy(&rest);
    assert!(ended, "the unpaired device's stream went on: {rest}");
    assert!(!rest.contains("Thirty-two"), "{rest}");
    let unpaired = wait_event(&journal, "unpaired", 1);
    assert_eq!(
        unpaired[0],
        json!({"type": "unpaired", "seat": "white", "address": address})
    );
    assert_eq!(get(&addr, "/api/state", Some(&cookie)).0, 401);
    let out = ctl(&d.socket, &["devices", "--json"]);
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list, json!({"white": [], "black": []}));
}

#[test]
fn a_device_calls_the_arbiter_but_never_restarts_the_clock_nor_marks_the_other_board() {
    let dir = tempfile::tempdir().unwrap();
    let (d, addr, journal) = device_table(dir.path());
    let black = paired_device(&d.socket, &addr, "black");
    assert!(ctl(&d.socket, &["move", "32-28"]).status.success());
    // Black's device marks white's board: refused.
    let (st, v) = command(&addr, &black, "done white");
    assert_eq!(st, 409, "{v}");
    assert!(journal_events(&journal, "board-done").is_empty());
    // It stops the clock to call the arbiter: journaled as the device's seat.
    let (st, v) = command(&addr, &black, "pause");
    assert_eq!(st, 200, "{v}");
    let p = journal_events(&journal, "pause").pop().unwrap();
    assert_eq!(
        p,
        json!({"type": "pause", "reason": "device", "source": "device", "seat": "black"})
    );
    // It never restarts it, whoever stopped it.
    let (st, v) = command(&addr, &black, "resume");
    assert_eq!(st, 409, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("Only the arbiter or the table's operator"),
        "{v}"
    );
    assert!(journal_events(&journal, "resume").is_empty());
    // The operator does.
    assert!(ctl(&d.socket, &["resume"]).status.success());
    assert_eq!(
        journal_events(&journal, "resume").pop().unwrap(),
        json!({"type": "resume", "source": "control"})
    );
}

#[test]
fn a_devices_say_is_its_seats_words_bounded_in_length_and_rate() {
    let dir = tempfile::tempdir().unwrap();
    let (d, addr, journal) = device_table(dir.path());
    let white = paired_device(&d.socket, &addr, "white");
    let (st, v) = command(&addr, &white, "say I need the arbiter");
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["said"], json!(["White says: I need the arbiter"]));
    let say = journal_events(&journal, "say").pop().unwrap();
    assert_eq!(
        say,
        json!({"type": "say", "text": "I need the arbiter", "seat": "white", "source": "device"})
    );
    // Said as white's words, never bare as the arbiter's.
    let announced = journal_events(&journal, "announced");
    assert!(
        !announced.iter().any(|a| a["text"] == "I need the arbiter"),
        "{announced:?}"
    );
    // 300 long `say`s: the journal grows by less than 256 KiB, the table plays on.
    let before = std::fs::metadata(&journal).unwrap().len();
    let long = format!("say {}", "x".repeat(3000));
    let mut refused = 0;
    for i in 0..300 {
        let text = if i % 2 == 0 {
            long.clone()
        } else {
            format!("say note {i}")
        };
        let (st, _) = command(&addr, &white, &text);
        if st != 200 {
            refused += 1;
        }
    }
    assert!(refused >= 290, "only {refused} refused");
    let grown = std::fs::metadata(&journal).unwrap().len() - before;
    assert!(grown < 256 * 1024, "the journal grew by {grown} bytes");
    let written = std::fs::read_to_string(&journal).unwrap();
    assert!(
        !written.contains(&"x".repeat(300)),
        "a long say's words journaled"
    );
    assert!(ctl(&d.socket, &["move", "32-28"]).status.success());
}

#[test]
fn repeat_says_again_what_that_seat_last_heard_never_the_other_seats_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (d, _addr, _journal) = device_table(dir.path());
    assert!(ctl(&d.socket, &["move", "32-28"]).status.success());
    let said = |args: &[&str]| {
        let out = ctl(&d.socket, args);
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    // White's private answer.
    let clock = said(&["--seat", "white", "clock"]);
    assert!(!clock.is_empty());
    // Black repeats what black heard last (the move, its turn), not white's clock.
    let black = said(&["--seat", "black", "repeat"]);
    assert!(!black.is_empty());
    assert_ne!(black, clock, "black heard white's private answer again");
    // White repeats its own answer.
    assert_eq!(said(&["--seat", "white", "repeat"]), clock);
}
