//! A spectator of the public server: reads `GET /events` (server-sent
//! events) on a thread and keeps every event with when it came, or reads
//! nothing for a while on purpose (a spectator that lags).

use std::io::{BufRead, BufReader};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One event as it came.
#[derive(Debug, Clone)]
pub struct Seen {
    /// When it was read.
    pub at: Instant,
    /// `snapshot`, `table`, `hide`…
    pub kind: String,
    /// Its data.
    pub data: Value,
}

/// A spectator following `/events` of a server.
pub struct Spectator {
    /// What it has read so far.
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl Spectator {
    /// Follows `http://ADDR/events`; with `lag`, reads nothing for that long
    /// after the first event (the server's buffers fill meanwhile).
    pub fn follow(addr: &str, lag: Option<Duration>) -> Spectator {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let url = format!("http://{addr}/events");
        std::thread::spawn(move || {
            let Ok(r) = ureq::get(&url).call() else {
                return;
            };
            let mut rd = BufReader::with_capacity(1024, r.into_reader());
            let (mut kind, mut data) = (String::new(), String::new());
            let mut line = String::new();
            let mut lagged = lag.is_none();
            while rd.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                let l = line.trim_end_matches(['\r', '\n']);
                if let Some(k) = l.strip_prefix("event:") {
                    kind = k.trim().to_owned();
                } else if let Some(d) = l.strip_prefix("data:") {
                    data.push_str(d.strip_prefix(' ').unwrap_or(d));
                } else if l.is_empty() && !kind.is_empty() {
                    let v = serde_json::from_str(&data).unwrap_or(Value::Null);
                    s.lock().unwrap().push(Seen {
                        at: Instant::now(),
                        kind: std::mem::take(&mut kind),
                        data: v,
                    });
                    data.clear();
                    if !lagged {
                        lagged = true;
                        std::thread::sleep(lag.unwrap_or_default());
                    }
                }
                line.clear();
            }
        });
        Spectator { seen }
    }

    /// Every event read so far.
    pub fn events(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Every table view this spectator was shown (the snapshot's and the
    /// `table` events'), with when.
    pub fn views(&self) -> Vec<(Instant, Value)> {
        let mut out = Vec::new();
        for e in self.events() {
            match e.kind.as_str() {
                "snapshot" => {
                    for t in e.data["tables"].as_array().into_iter().flatten() {
                        out.push((e.at, t.clone()));
                    }
                }
                "table" => out.push((e.at, e.data)),
                _ => {}
            }
        }
        out
    }
}
