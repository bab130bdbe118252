//! Headless Chromium driven through WebDriver (Debian's `chromedriver`,
//! spoken to over plain HTTP): the pages of the hall and of the device
//! seats, as a person's browser loads them, with the DevTools protocol for
//! the accessibility tree.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tandem_testkit::free_port;

/// Waits until `f` gives something (polling), or panics with `what`.
fn wait_for<T>(what: &str, f: impl FnMut() -> Result<T, String>) -> T {
    wait_within(what, Duration::from_secs(30), f)
}

/// Waits until `f` gives something (polling every 50 ms), or panics with
/// `what` and the last answer once `limit` has passed.
pub fn wait_within<T>(what: &str, limit: Duration, mut f: impl FnMut() -> Result<T, String>) -> T {
    let t0 = Instant::now();
    loop {
        match f() {
            Ok(v) => return v,
            Err(last) => assert!(
                t0.elapsed() < limit,
                "{what}: not within {limit:?}; last: {last}"
            ),
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver and one browser session, both ended when dropped.
pub struct Browser {
    driver: Child,
    pub base: String,
    session: String,
}

impl Browser {
    pub fn start() -> Browser {
        Browser::start_sized("1280,1000")
    }

    /// A browser whose window is `size` (`W,H`).
    pub fn start_sized(size: &str) -> Browser {
        Browser::start_with(size, &[])
    }

    /// [`Browser::start_sized`] with more Chromium arguments (`args`).
    pub fn start_with(size: &str, args: &[&str]) -> Browser {
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
        let window = format!("--window-size={size}");
        let mut all = vec!["--headless=new", "--no-sandbox", "--disable-gpu", &window];
        all.extend_from_slice(args);
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"args": all}}}});
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

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
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

    pub fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    /// Runs a script in the page and returns its value.
    pub fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Waits until a script gives a truthy value; returns it.
    pub fn wait_js(&self, what: &str, script: &str) -> Value {
        wait_for(what, || {
            let v = self.js(script);
            match &v {
                Value::Null | Value::Bool(false) => Err(v.to_string()),
                Value::String(s) if s.is_empty() => Err(v.to_string()),
                _ => Ok(v),
            }
        })
    }

    /// A WebDriver element click on the element `css` selects (the pointer
    /// at its centre, as a finger).
    pub fn click(&self, css: &str) {
        let el = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = el
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_owned();
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let b64 = self.call("GET", "/screenshot", None);
        decode_base64(b64.as_str().unwrap())
    }

    /// A DevTools protocol command (chromedriver's `goog/cdp/execute`).
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
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

pub fn decode_base64(s: &str) -> Vec<u8> {
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

impl Browser {
    /// axe-core's violations on the page as it is now, one line each
    /// (`rule: help: the elements`); `None` (said on stderr) when axe-core
    /// is not installed and `TANDEM_SKIP_REAL` is set outside CI, else a
    /// panic saying to run `scripts/setup.sh --test`.
    pub fn axe_violations(&self) -> Option<Vec<String>> {
        let path = std::env::var("TANDEM_AXE")
            .unwrap_or_else(|_| "/opt/tandem/node/node_modules/axe-core/axe.min.js".into());
        let source = tandem_testkit::require(
            "axe-core (npm; scripts/setup.sh --test installs it)",
            std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}")),
        )?;
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": format!("{source}\nreturn typeof axe;"), "args": []})),
        );
        let v = self.call(
            "POST",
            "/execute/async",
            Some(
                json!({"script": "const done = arguments[arguments.length - 1];\
                axe.run(document).then(r => done(r.violations.map(v => \
                v.id + ': ' + v.help + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))));",
                "args": []}),
            ),
        );
        Some(
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default(),
        )
    }

    /// Sets the window's size (a phone's, a desktop's).
    pub fn resize(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }
}
