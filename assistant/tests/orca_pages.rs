//! The pages a blind person uses, read by a real screen reader (issue 46;
//! docs/devices.md, "Heard once, in every screen reader"): Orca reading
//! Chromium and Firefox ESR on a private Xvfb (support::orca), its speech
//! recorded by a speech-dispatcher module that only logs, against a real
//! table relayed to a real desk (a private Mosquitto, `tandem hall`).
//!
//! One test per browser, Orca started once in each: white pairs by keyboard
//! on the pairing page (a wrong code first: its refusal spoken), plays a
//! short draughts game on the seat page by the grid's keys and the command
//! line, a move and a capture each side, asks `ask opponent kings` four
//! times, plays an occupied square twice, hears a clock warning and black's
//! resignation; then the same window opens the desk, where the boards are
//! said to differ twice. Every line white's seat was told (read from a
//! second device's stream of the same seat: the table's words, not the
//! page's) is spoken exactly once, within 1 s of the seat hearing it, and
//! is on Orca's braille line; nothing of it twice; each new alert of the
//! desk (its API's list) spoken once, those from before it opened not read
//! out. Keys go one at a time where a person waits to hear each (the
//! grid), and an act waits until the lines it caused are spoken: Orca drops
//! a line still waiting when a key is pressed.
//!
//! Run ten times in a row before this was committed (`cargo test --test
//! orca_pages`, both tests side by side, 2 cores shared with other work):
//! 10 of 10 passed in each browser; Chromium 21-26 s, Firefox ESR 23-29 s,
//! 24-30 s for the file.

mod hall_common;
mod support;

use std::io::{BufRead, BufReader, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hall_common::{ctl_ok, table, Broker, Desk};
use serde_json::Value;
use support::devices::{code, connect_from, pair_from};
use support::orca::{now, wait_for, Orca, Web};

#[test]
fn chromium_with_orca_speaks_every_announcement_once() {
    scenario(Web::Chromium);
}

#[test]
fn firefox_with_orca_speaks_every_announcement_once() {
    scenario(Web::Firefox);
}

/// What a device of a seat hears on its stream (`said` events), each with
/// the time it came.
struct Heard(Arc<Mutex<Vec<(f64, String)>>>);

impl Heard {
    fn open(addr: &str, cookie: &str) -> Heard {
        let mut s = connect_from("127.0.0.1", addr).unwrap();
        write!(
            s,
            "GET /events HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\n\r\n"
        )
        .unwrap();
        let heard = Arc::new(Mutex::new(Vec::new()));
        let into = heard.clone();
        std::thread::spawn(move || {
            let mut event = String::new();
            for line in BufReader::new(s).lines() {
                let Ok(line) = line else { return };
                if let Some(e) = line.strip_prefix("event: ") {
                    event = e.to_owned();
                } else if let Some(d) = line.strip_prefix("data: ") {
                    if event == "said" {
                        into.lock().unwrap().push((now(), d.to_owned()));
                    }
                }
            }
        });
        Heard(heard)
    }

    fn since(&self, t: f64) -> Vec<(f64, String)> {
        let all = self.0.lock().unwrap();
        all.iter().filter(|(at, _)| *at >= t).cloned().collect()
    }

    /// Waits until the seat has heard something with `part` since `t`.
    fn wait(&self, part: &str, t: f64) {
        wait_for(
            &format!("the seat to hear {part:?}"),
            Duration::from_secs(20),
            || {
                let h = self.since(t);
                h.iter()
                    .any(|(_, s)| s.contains(part))
                    .then_some(())
                    .ok_or_else(|| format!("{h:?}"))
            },
        );
    }
}

/// Words as spoken and compared: no-break spaces as spaces, spaces runs as
/// one.
fn norm(s: &str) -> String {
    s.replace('\u{a0}', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each utterance cut into its sentences (a paragraph of two lines said
/// together is spoken as one utterance or as two).
fn sentences(spoken: &[(f64, String)]) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    for (t, u) in spoken {
        let mut cur = String::new();
        let mut chars = u.chars().peekable();
        while let Some(c) = chars.next() {
            cur.push(c);
            if matches!(c, '.' | '!' | '?') && chars.peek().is_some_and(|n| n.is_whitespace()) {
                out.push((*t, std::mem::take(&mut cur)));
            }
        }
        out.push((*t, cur));
    }
    out
}

/// When `text` was spoken (at or after `since`): each run of sentences
/// spoken that together are `text`.
fn spoken_at(spoken: &[(f64, String)], since: f64, text: &str) -> Vec<f64> {
    let spoken = &sentences(spoken);
    let want = norm(text);
    let mut at = Vec::new();
    for (i, (t, _)) in spoken.iter().enumerate().filter(|(_, (t, _))| *t >= since) {
        let mut acc = String::new();
        for (_, u) in &spoken[i..] {
            let u = norm(u);
            if u.is_empty() {
                continue;
            }
            acc = if acc.is_empty() {
                u
            } else {
                format!("{acc} {u}")
            };
            if acc == want {
                at.push(*t);
                break;
            }
            if !want.starts_with(&format!("{acc} ")) {
                break;
            }
        }
    }
    at
}

/// Every line the seat heard since `since` spoken once each time it was
/// said (the same words four times: four times), within 1 s; and on the
/// braille line.
fn each_spoken_once(o: &Orca, heard: &Heard, since: f64) -> usize {
    let said = heard.since(since);
    // The last line's speech may still be on its way.
    let last = said.last().map_or(since, |(t, _)| *t);
    o.wait_spoken("the last line heard", last - 0.5, |s| {
        said.last()
            .is_some_and(|(_, w)| norm(w).starts_with(&norm(s)))
    });
    let spoken = o.spoken();
    let braille: Vec<String> = o.braille().iter().map(|b| norm(b)).collect();
    let mut texts: Vec<&String> = said.iter().map(|(_, s)| s).collect();
    texts.dedup();
    texts.sort();
    texts.dedup();
    for text in texts {
        let when: Vec<f64> = said
            .iter()
            .filter(|(_, s)| s == text)
            .map(|(t, _)| *t)
            .collect();
        let at = spoken_at(&spoken, since, text);
        assert_eq!(
            at.len(),
            when.len(),
            "{text:?}: said to the seat {} times, spoken {} times (at {at:?}); all spoken: {spoken:#?}",
            when.len(),
            at.len()
        );
        for (heard_at, spoken_at) in when.iter().zip(&at) {
            let late = spoken_at - heard_at;
            assert!(
                (-0.5..=1.0).contains(&late),
                "{text:?}: spoken {late:.2} s after the seat heard it"
            );
        }
        let lines = braille.iter().filter(|b| b.contains(&norm(text))).count();
        assert!(
            lines >= when.len(),
            "{text:?}: said {} times, on the braille line {lines} times: {braille:#?}",
            when.len()
        );
    }
    said.len()
}

/// Waits until Orca has spoken every line the seat heard since `t0` (the
/// lines of one act: Orca drops a line still waiting when a key is
/// pressed, as it does for a person typing, so the next act waits).
fn settled(o: &Orca, heard: &Heard, t0: f64) {
    std::thread::sleep(Duration::from_millis(150));
    let lines = heard.since(t0);
    wait_for("the lines spoken", Duration::from_secs(10), || {
        let spoken = o.spoken();
        let missing: Vec<&String> = lines
            .iter()
            .filter(|(_, l)| spoken_at(&spoken, t0, l).is_empty())
            .map(|(_, l)| l)
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("not yet spoken: {missing:?}"))
        }
    });
}

fn scenario(web: Web) {
    let began = std::time::Instant::now();
    let Some(o) = Orca::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = Desk::start(dir.path(), &broker, &[]);
    let addr = format!("127.0.0.1:{}", tandem_testkit::free_port());
    // Two minutes each, a warning at 1:57; the clock paused at once, until
    // white's page is up: the warning comes while white thinks.
    let args = [
        "--lang",
        "en",
        "--voice",
        "off",
        "--seats",
        &addr,
        "--control",
        "2m",
        "--warnings",
        "1m57s",
    ];
    let t = table(dir.path(), &broker, 1, &args);
    ctl_ok(&t, &["pause"]);
    // What white's seat hears, on a second device of white's.
    let pair = |side: &str| -> String {
        let c = code(&t.socket, side)["code"].as_str().unwrap().to_owned();
        let r = pair_from(&addr, "127.0.0.1", &c);
        assert_eq!(r.status, 200, "{}", r.body);
        r.header("set-cookie")
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned()
    };
    let heard = Heard::open(&addr, &pair("white"));
    let black = pair("black");
    // Black's device (sighted: plain requests), then every line spoken.
    let black_plays = |path: &str, body: Value, part: &str| {
        let t0 = now();
        let r = support::devices::http(&addr, "POST", path, &[("Cookie", &black)], Some(&body));
        assert_eq!(r.status, 200, "{path} {body}: {r:?}");
        heard.wait(part, t0);
        settled(&o, &heard, t0);
    };
    // White's keys, then the table's answer heard and spoken.
    let white_keys = |keys: &[&str], part: &str| {
        let t0 = now();
        o.keys(keys);
        heard.wait(part, t0);
        settled(&o, &heard, t0);
    };
    // A line typed over what the field holds (a refused line stays there).
    let white_types = |line: &str, part: &str| {
        o.keys(&["ctrl+a"]);
        o.type_text(line);
        white_keys(&["Return"], part);
    };

    // The pairing page, by keyboard: a wrong code (refused, spoken), then
    // the table's.
    o.open(web, &format!("http://{addr}/"), "Pair this device");
    o.keys(&["Tab"]);
    o.type_text("000000");
    let wrong = now();
    o.keys(&["Return"]);
    o.wait_spoken("the wrong code refused", wrong, |s| {
        s.contains("wrong or expired")
    });
    let c = code(&t.socket, "white")["code"]
        .as_str()
        .unwrap()
        .to_owned();
    o.keys(&["ctrl+a"]);
    o.type_text(&c);
    let paired = now();
    o.keys(&["Return"]);
    o.wait_loaded("Your seat", paired);
    // The clock runs: its line, then the warning, spoken.
    let start = now();
    ctl_ok(&t, &["resume"]);
    heard.wait("Clock running", start);
    heard.wait("Warning", start);
    settled(&o, &heard, start);

    // White's move on the grid, a key at a time, each heard before the
    // next (as a person listening does): from the page's top, Tab to the
    // link, Tab to the grid (its first square), down six rows and right
    // three columns to 32, Enter; up and right to 28, Enter.
    let step = |key: &str, hear: &str| {
        let t0 = now();
        o.keys(&[key]);
        o.wait_spoken(&format!("{hear:?} after {key}"), t0, |s| s.contains(hear));
    };
    step("ctrl+Home", "Your seat");
    step("Tab", "Board view");
    step("Tab", "light square");
    for (key, hear) in [
        ("Down", "6, black man"),
        ("Down", "light square"),
        ("Down", "16, black man"),
        ("Down", "light square"),
        ("Down", "26, empty"),
        ("Down", "light square"),
        ("Right", "31, white man"),
        ("Right", "light square"),
        ("Right", "32, white man"),
    ] {
        step(key, hear);
    }
    o.keys(&["Return"]);
    step("Up", "light square");
    step("Right", "28, empty");
    white_keys(&["Return"], "Thirty-two, twenty-eight");
    black_plays(
        "/api/move",
        serde_json::json!({"move": "19-23"}),
        "Nineteen, twenty-three",
    );
    // The command line: Tab from the grid; a capture typed.
    o.keys(&["Tab"]);
    white_types("28x19", "Twenty-eight takes nineteen");
    black_plays(
        "/api/move",
        serde_json::json!({"move": "14x23"}),
        "Fourteen takes twenty-three",
    );
    for _ in 0..4 {
        white_types("ask opponent kings", "kings");
    }
    // Refused twice: the same words, each spoken.
    white_types("50-45", "occupied");
    white_types("50-45", "occupied");
    black_plays(
        "/api/command",
        serde_json::json!({"command": "resign"}),
        "Game over",
    );
    let n = each_spoken_once(&o, &heard, start);
    assert!(n >= 14, "the seat heard {n} lines");

    // The desk, in the same window: two alerts, the same words.
    let earlier: Vec<String> = desk
        .alerts()
        .iter()
        .map(|a| {
            format!(
                "Table {}: {}",
                a["table"],
                a["alert"]["text"].as_str().unwrap()
            )
        })
        .collect();
    let before = earlier.len();
    assert!(before > 0, "the pairings and the result raise alerts");
    o.keys(&["ctrl+l"]);
    o.type_text(&format!("{}/", desk.base));
    let desk_open = now();
    o.keys(&["Return"]);
    o.wait_loaded("tandem hall: EV", desk_open);
    let mut alerts = Vec::new();
    for i in 0..2 {
        let t0 = now();
        ctl_ok(&t, &["mismatch"]);
        let list = wait_for("the desk's alert", Duration::from_secs(20), || {
            let a = desk.alerts();
            if a.len() > before + i {
                Ok(a)
            } else {
                Err(format!("{a:?}"))
            }
        });
        let a = &list[list.len() - 1]["alert"];
        let text = format!("Table 1: {}", a["text"].as_str().unwrap());
        o.wait_spoken(&format!("alert {text:?}"), t0, |s| norm(s) == norm(&text));
        alerts.push(text);
    }
    std::thread::sleep(Duration::from_millis(500));
    let spoken = o.spoken();
    assert_eq!(alerts[0], alerts[1], "the same alert twice");
    let at = spoken_at(&spoken, desk_open, &alerts[0]);
    assert_eq!(
        at.len(),
        2,
        "{:?} spoken at {at:?}; all: {spoken:#?}",
        alerts[0]
    );
    // The alerts from before the page opened are shown, not read out.
    for text in earlier.iter().filter(|e| **e != alerts[0]) {
        let at = spoken_at(&spoken, desk_open, text);
        assert!(at.is_empty(), "{text:?} read at {at:?}");
    }
    drop(t);
    // What it costs (seen with --nocapture).
    eprintln!(
        "orca_pages: {web:?}: {:.1} s",
        began.elapsed().as_secs_f64()
    );
}
