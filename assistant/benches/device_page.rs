//! The device pages' weight and time to interactive on a throttled phone
//! (issue 33): the real daemon (`tandem play --seats`), a real headless
//! Chromium through WebDriver, throttled through the DevTools protocol as
//! Lighthouse's mobile profile throttles ("Slow 4G": 150 ms round trip,
//! 1.6 Mbit/s down, 750 kbit/s up; the CPU 4 times slower), the cache off.
//! Each page is loaded afresh 10 times once paired; its size is everything
//! it loads (the page, its script, its first state: the resource timing's
//! bytes on the wire; the live stream `/events` is not counted), its time to interactive the page's own mark when the
//! board is drawn and answers taps (`board-ready`, `seat-ready`), from the
//! start of the navigation.
//!
//! `cargo bench -p tandem --bench device_page` (needs chromium and
//! chromedriver: `scripts/setup.sh --test`). Prints a table for
//! BENCHMARKS.md.

#[path = "../tests/support/browser.rs"]
#[allow(dead_code)]
mod browser;
mod support;

use std::process::Command;

use std::time::{Duration, Instant};
use tandem_testkit::Killed;

use browser::Browser;
use serde_json::{json, Value};

const LOADS: usize = 10;

struct Table {
    _dir: tempfile::TempDir,
    socket: std::path::PathBuf,
    addr: String,
    _child: Killed,
}

fn table(args: &[&str]) -> Table {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("s.sock");
    let addr = format!("127.0.0.1:{}", tandem_testkit::free_port());
    let child = support::play(dir.path(), &socket)
        .args(["--voice", "off", "--lang", "en", "--seats", &addr])
        .args(args)
        .env("XDG_STATE_HOME", dir.path())
        .spawn()
        .expect("tandem play");
    Table {
        _dir: dir,
        socket,
        addr,
        _child: Killed(child),
    }
}

fn pair(b: &Browser, t: &Table, side: &str) {
    let t0 = Instant::now();
    let code = loop {
        let out = Command::new(env!("CARGO_BIN_EXE_tandem"))
            .args(["ctl", "--socket"])
            .arg(&t.socket)
            .args(["pair", side, "--json"])
            .output()
            .expect("tandem ctl");
        if out.status.success() {
            let v: Value = serde_json::from_slice(&out.stdout).expect("pair --json");
            break v["code"].as_str().expect("code").to_owned();
        }
        assert!(t0.elapsed() < Duration::from_secs(20), "no pairing");
        std::thread::sleep(Duration::from_millis(50));
    };
    b.go(&format!("http://{}/", t.addr));
    b.wait_js(
        "the pairing form",
        "return !!document.getElementById('code');",
    );
    b.js(&format!(
        "document.getElementById('code').value = '{code}'; \
         document.getElementById('pair').requestSubmit(); return true;"
    ));
    b.wait_js("paired", "return location.pathname !== '/';");
}

fn throttle(b: &Browser, on: bool) {
    b.cdp("Network.enable", json!({}));
    b.cdp("Network.setCacheDisabled", json!({"cacheDisabled": on}));
    b.cdp(
        "Network.emulateNetworkConditions",
        if on {
            json!({"offline": false, "latency": 150,
                   "downloadThroughput": 1.6 * 1024.0 * 1024.0 / 8.0,
                   "uploadThroughput": 750.0 * 1024.0 / 8.0})
        } else {
            json!({"offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        },
    );
    b.cdp(
        "Emulation.setCPUThrottlingRate",
        json!({"rate": if on { 4 } else { 1 }}),
    );
}

/// One load of `path`: its time to interactive (ms) and what it loaded
/// (name, bytes on the wire).
fn load(b: &Browser, t: &Table, path: &str, mark: &str) -> (f64, Vec<(String, u64)>) {
    b.go("about:blank");
    b.go(&format!("http://{}{path}", t.addr));
    let tti = b
        .wait_js(
            mark,
            &format!(
                "const m = performance.getEntriesByName('{mark}'); return m.length ? m[0].startTime : null;"
            ),
        )
        .as_f64()
        .expect("a time");
    // The first state's fetch is complete once the board is drawn.
    let loaded = b.js(
        "const n = performance.getEntriesByType('navigation')[0]; \
         return [[location.pathname, n.transferSize]].concat(performance.getEntriesByType('resource') \
         .filter(r => r.responseEnd > 0 && !r.name.endsWith('/events')) \
         .map(r => [new URL(r.name).pathname, r.transferSize]));",
    );
    let items = loaded
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e[0].as_str().unwrap_or("?").to_owned(),
                e[1].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (tti, items)
}

fn main() {
    let b = Browser::start_sized("360,740");
    let cases: [(&str, &[&str], &str, &str, &str); 4] = [
        (
            "board, international draughts",
            &["--blind", "black"],
            "white",
            "/board",
            "board-ready",
        ),
        (
            "board, chess",
            &["--variant", "chess", "--blind", "black"],
            "white",
            "/board",
            "board-ready",
        ),
        (
            "board, backgammon",
            &["--variant", "backgammon", "--blind", "black"],
            "white",
            "/board",
            "board-ready",
        ),
        (
            "screen reader's page, international draughts",
            &["--blind", "white"],
            "white",
            "/seat",
            "seat-ready",
        ),
    ];
    println!("| page (360x740, Slow 4G, CPU 4x) | bytes loaded (requests) | what | TTI median | TTI max |");
    println!("| --- | --- | --- | --- | --- |");
    for (name, args, side, path, mark) in cases {
        let t = table(args);
        pair(&b, &t, side);
        throttle(&b, true);
        let mut ttis = Vec::new();
        let mut items = Vec::new();
        for _ in 0..LOADS {
            let (tti, it) = load(&b, &t, path, mark);
            ttis.push(tti);
            items = it;
        }
        throttle(&b, false);
        ttis.sort_by(f64::total_cmp);
        let total: u64 = items.iter().map(|(_, n)| n).sum();
        let what: Vec<String> = items.iter().map(|(p, n)| format!("{p} {n}")).collect();
        println!(
            "| {name} | {total} ({}) | {} | {:.0} ms | {:.0} ms |",
            items.len(),
            what.join(", "),
            ttis[ttis.len() / 2],
            ttis[ttis.len() - 1]
        );
    }
}
