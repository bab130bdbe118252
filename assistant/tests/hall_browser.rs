//! The desk's page in a real browser: headless Chromium driven through
//! WebDriver (Debian's `chromedriver`, spoken to over plain HTTP) against a
//! real Mosquitto, real tables and a real `tandem hall`. The page loads, a
//! board changes after a `tandem ctl move`, an alert appears in the live
//! region after a mismatch, the accessibility tree (read through the
//! DevTools protocol) has the live region and a heading per table, and a
//! screenshot is kept as the test's artifact in `target/hall-artifacts/`.

mod hall_common;
mod support;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use hall_common::{ctl_ok, free_port, table, wait_for, Broker, Desk};
use serde_json::{json, Value};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver and one browser session, both ended when dropped.
struct Browser {
    driver: Child,
    base: String,
    session: String,
}

impl Browser {
    fn start() -> Browser {
        assert!(
            std::path::Path::new(CHROMEDRIVER).exists(),
            "chromedriver is missing: run scripts/setup.sh --test (Debian's chromium and chromium-driver)"
        );
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        wait_for("chromedriver ready", || {
            ureq::get(&format!("{base}/status"))
                .call()
                .map_err(|e| e.to_string())?
                .into_json::<Value>()
                .map_err(|e| e.to_string())
                .and_then(|v| {
                    if v["value"]["ready"] == true {
                        Ok(())
                    } else {
                        Err(v.to_string())
                    }
                })
        });
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"]}}}});
        let v: Value = ureq::post(&format!("{base}/session"))
            .timeout(Duration::from_secs(60))
            .send_json(caps)
            .expect("a browser session")
            .into_json()
            .unwrap();
        let session = v["value"]["sessionId"]
            .as_str()
            .expect("session id")
            .to_owned();
        Browser {
            driver,
            base,
            session,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let r = ureq::request(method, &url).timeout(Duration::from_secs(30));
        let r = match body {
            Some(b) => r.send_json(b),
            None => r.call(),
        };
        match r {
            Ok(r) => r.into_json::<Value>().unwrap()["value"].clone(),
            Err(ureq::Error::Status(code, r)) => panic!(
                "{method} {path}: {code} {}",
                r.into_string().unwrap_or_default()
            ),
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    /// Runs a script in the page and returns its value.
    fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Waits until a script gives a truthy value; returns it.
    fn wait_js(&self, what: &str, script: &str) -> Value {
        wait_for(what, || {
            let v = self.js(script);
            match &v {
                Value::Null | Value::Bool(false) => Err(v.to_string()),
                Value::String(s) if s.is_empty() => Err(v.to_string()),
                _ => Ok(v),
            }
        })
    }

    /// A PNG of the window.
    fn screenshot(&self) -> Vec<u8> {
        let b64 = self.call("GET", "/screenshot", None);
        decode_base64(b64.as_str().unwrap())
    }

    /// A DevTools protocol command (chromedriver's `goog/cdp/execute`).
    fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": cmd, "params": params})),
        )
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = ureq::delete(&format!("{}/session/{}", self.base, self.session)).call();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes() {
        let Some(v) = val(c) else { continue };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

fn artifacts() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/hall-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_desk_page_in_chromium_follows_moves_and_alerts() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 2);
    let desk = Desk::start(dir.path(), &broker, &[]);
    let t1 = table(dir.path(), &broker, 1, &[]);
    let t2 = table(dir.path(), &broker, 2, &["--variant", "chess"]);
    desk.wait_table(2, "table 2 at the desk", |t| t["variant"] == "chess");
    desk.wait_table(1, "table 1 at the desk", |t| t["ply"] == 0);
    let b = Browser::start();
    b.go(&format!("{}/", desk.base));
    // The page loads: a heading per table.
    b.wait_js(
        "table 1's heading",
        "const h = document.querySelector('#table-1 h2'); return h && h.textContent.includes('White 1 against Black 1') && h.textContent;",
    );
    b.wait_js(
        "table 2's heading",
        "const h = document.querySelector('#table-2 h2'); return h && h.textContent;",
    );
    let before = b.js("return document.querySelector('#table-1 pre.board').textContent;");
    // A move at the table changes the board on the page.
    ctl_ok(&t1, &["move", "32-28"]);
    let after = b.wait_js(
        "the board after 32-28",
        &format!(
            "const t = document.querySelector('#table-1 pre.board').textContent; return t !== {before} && t;"
        ),
    );
    assert!(after.as_str().unwrap().contains('w'));
    b.wait_js(
        "the last move in words",
        "return document.querySelector('#table-1').textContent.includes('32-28');",
    );
    let words = b.js("return document.querySelector('#table-1 .words').textContent;");
    assert!(words.as_str().unwrap().contains("twenty-eight"), "{words}");
    // The boards differ: an alert in the live region.
    ctl_ok(&t1, &["mismatch"]);
    let alert = b.wait_js(
        "the mismatch alert",
        "const li = document.querySelector('#alerts li'); return li && li.textContent;",
    );
    assert!(alert.as_str().unwrap().contains("boards differ"), "{alert}");
    b.wait_js(
        "table 1 marked",
        "return document.querySelector('#table-1').classList.contains('alerting');",
    );
    // Chess at table 2: a move changes its diagram too.
    ctl_ok(&t2, &["move", "e4"]);
    b.wait_js(
        "the chess move",
        "return document.querySelector('#table-2').textContent.includes('e4');",
    );
    let png = b.screenshot();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(artifacts().join("desk.png"), &png).unwrap();
    // The accessibility tree: the live region and the tables' headings.
    b.cdp("Accessibility.enable", json!({}));
    let tree = b.cdp("Accessibility.getFullAXTree", json!({}));
    let nodes = tree["nodes"].as_array().unwrap();
    let role = |n: &Value| n["role"]["value"].as_str().unwrap_or("").to_owned();
    let name = |n: &Value| n["name"]["value"].as_str().unwrap_or("").to_owned();
    let prop = |n: &Value, p: &str| {
        n["properties"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|x| x["name"] == p)
            .map(|x| x["value"]["value"].clone())
    };
    let log = nodes
        .iter()
        .find(|n| role(n) == "log")
        .expect("a live log region for the alerts");
    assert_eq!(prop(log, "live"), Some(json!("assertive")), "{log}");
    let headings: Vec<String> = nodes
        .iter()
        .filter(|n| role(n) == "heading")
        .map(name)
        .collect();
    assert!(headings.iter().any(|h| h == "Alerts"), "{headings:?}");
    assert!(
        headings
            .iter()
            .any(|h| h.starts_with("Table 1: White 1 against Black 1")),
        "{headings:?}"
    );
    assert!(
        headings.iter().any(|h| h.starts_with("Table 2:")),
        "{headings:?}"
    );
    let buttons: Vec<String> = nodes
        .iter()
        .filter(|n| role(n) == "button")
        .map(name)
        .collect();
    assert!(buttons.iter().any(|b| b == "Pause table 1"), "{buttons:?}");
    assert!(
        buttons.iter().any(|b| b == "Start every clock"),
        "{buttons:?}"
    );
    std::fs::write(
        artifacts().join("desk-ax-tree.json"),
        serde_json::to_vec_pretty(&tree).unwrap(),
    )
    .unwrap();
    // The table's own page: moves and the journal's events.
    b.go(&format!("{}/tables/1", desk.base));
    b.wait_js(
        "the detail page",
        "const m = document.querySelector('#moves li'); return m && m.textContent === '32-28';",
    );
    b.wait_js(
        "the mismatch in the events",
        "return document.querySelector('#events').textContent.includes('mismatch');",
    );
    std::fs::write(artifacts().join("table-1.png"), b.screenshot()).unwrap();
}

/// The spectators' page with a broadcast delay (`--public-delay 6s`), live in
/// Chromium: a move shows on it only once it is 6 s old, while the desk has it at once.
#[test]
fn the_delayed_public_page_in_chromium_shows_a_move_only_after_the_delay() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let public = format!("127.0.0.1:{}", free_port());
    let desk = Desk::start(
        dir.path(),
        &broker,
        &["--public", &public, "--public-delay", "6s"],
    );
    let t1 = table(dir.path(), &broker, 1, &[]);
    let r: Value = ureq::post(&format!("{}/api/public", desk.base))
        .set("x-tandem-desk", "1")
        .send_json(json!({"table": null, "on": true}))
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(r["ok"], true, "{r}");
    let b = Browser::start();
    b.go(&format!("http://{public}/"));
    b.wait_js(
        "table 1 on the public page (after the delay)",
        "const h = document.querySelector('#table-1 h2'); return h && h.textContent.includes('White 1') && h.textContent;",
    );
    let t0 = std::time::Instant::now();
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "32-28 at the desk", |t| t["last_move"] == "32-28");
    let shown = "return document.querySelector('#table-1').textContent.includes('32-28');";
    let early = b.js(shown);
    if t0.elapsed() < Duration::from_secs(6) {
        assert_eq!(
            early,
            json!(false),
            "the move on the public page before the delay"
        );
    }
    b.wait_js("32-28 on the public page", shown);
    assert!(
        t0.elapsed() >= Duration::from_secs(6),
        "shown {:?} after the move",
        t0.elapsed()
    );
}
