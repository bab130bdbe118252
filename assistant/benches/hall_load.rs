//! The hall under load: a real Mosquitto (password and ACL on) on this
//! machine, a real `tandem hall` with one arbiter's page following it live
//! (server-sent events), and N simulated tables, each a relay's traffic: a
//! move a second (the move's journal line, the announcement's line and a
//! retained state; a clock tick line every other second), chained and
//! hashed like a real journal. The state is what a relay sends: the
//! position, the moves and the table's picture of its board (about 5 KB),
//! one of 400 positions. Reports the desk's delay from a line's time
//! at the table to the desk taking it (p50, p99, max), the lines it took
//! against those sent, and its CPU and memory; steps up N until the desk
//! falls behind (p99 over 1 s, or lines missing).
//!
//! `cargo bench -p tandem --bench hall_load` (`HALL_LOAD_STEPS=100,200`,
//! `HALL_LOAD_SECS=20` to choose).
//!
//! The whole chain, part by part (issue 27): the simulator's CPU and how
//! late its tables' seconds fire (`sim_late_ms`), the broker's CPU and
//! memory and its delivery delay to a probe subscribed to a few tables
//! beside the desk (`broker_lag_ms`: from a line's time at the table to the
//! probe), and the desk's CPU, memory and delay. Options:
//! - `HALL_LOAD_TRAFFIC=line`: each table writes one journal line a second
//!   (and its retained state, whose position moves on every 30 s), instead
//!   of the default `move` traffic above;
//! - `HALL_LOAD_TANDEM=PATH`: another build of `tandem` as the desk (to
//!   compare two commits under the same load);
//! - `HALL_LOAD_SPECTATORS=1000`: the desk also serves `--public`, every
//!   table shown, with that many idle spectator connections open (each
//!   asked for `/api/tables` once and then waits); and one spectator
//!   following `/events` there;
//! - `HALL_LOAD_DELAY=15m`: with `--public-delay`;
//! - `HALL_LOAD_INFLIGHT=N`: the broker's `max_inflight_messages` (default 20);
//! - `HALL_LOAD_KEEP_IDLE=1`: the idle spectators stay open through the step
//!   (the desk's 10 s header timeout, which closes idle connections, raised);
//! - `HALL_LOAD_DATA=DIR`: the step's folder (the desk's copies, the
//!   broker's files) in DIR instead of the system's temporary folder: the
//!   desk creates a file per table as the round starts, and how long that
//!   takes is the filesystem's (BENCHMARKS.md, "Where the 1 s went").
//!
//! Each table connects before its game starts, as a relay is connected
//! before its table's first move; how long that took is `sim_connect_ms`
//! (2,000 connections at once overflow the broker's listen queue, and the
//! dropped ones try again after 1 s), not part of the desk's delay.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rumqttc::{AsyncClient, MqttOptions, QoS};
use serde_json::{json, Value};
use tandem::journal::{line_hash, wall_now, Event, Record, StartInfo, GENESIS};

use tandem_testkit::free_port;

mod support;

fn ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    let rest = &stat[stat.rfind(')').expect("stat format") + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    f[11].parse::<u64>().expect("utime") + f[12].parse::<u64>().expect("stime")
}

fn status_kb(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or(0)
}

/// A simulated table: its journal's chain and the relay's messages.
struct Sim {
    n: u32,
    seq: u64,
    prev: String,
    t0: Instant,
}

impl Sim {
    fn line(&mut self, event: Event) -> Vec<u8> {
        self.seq += 1;
        let r = Record {
            seq: self.seq,
            wall: wall_now(),
            t_ms: self.t0.elapsed().as_millis() as u64,
            prev: std::mem::take(&mut self.prev),
            event,
        };
        let line = serde_json::to_string(&r).unwrap();
        let hash = line_hash(line.as_bytes());
        self.prev = hash.clone();
        serde_json::to_vec(&json!({"seq": self.seq, "hash": hash, "line": line})).unwrap()
    }

    /// The table's state as its relay sends it (`tandem ctl state`): the
    /// position (one of 400, different at neighbouring tables, moving on with
    /// `ply`), the moves and the table's own picture of the board.
    fn state(&self, ply: u32) -> Vec<u8> {
        let (w, b) = (31 + self.n % 20, 1 + (self.n / 20 + ply) % 20);
        let list = |r: std::ops::RangeInclusive<u32>, gone: u32| {
            r.filter(|s| *s != gone)
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let fen = format!("W:W{}:B{}", list(31..=50, w), list(1..=20, b));
        let mut board = tandem::game::picture_of_text("international", &fen).expect("a position");
        board.last = vec![w.to_string(), b.to_string()];
        serde_json::to_vec(&json!({
            "variant": "international", "fen": fen, "ply": ply,
            "turn": if ply % 2 == 0 { "white" } else { "black" },
            "moves": vec!["32-28"; ply as usize], "board": board, "clocks": {"white": {"remaining_ms": 5_400_000u64}, "black": {"remaining_ms": 5_400_000u64},
                                   "running": true, "paused": false, "control": "90m"},
            "boards": {"white": {"ply": ply, "behind": 0}, "black": {"ply": ply, "behind": 0}},
            "result": null, "table": self.n, "event": "LOAD", "seq": ply + 1,
            "players": {"white": format!("W{}", self.n), "black": format!("B{}", self.n)},
            "state_ms": 0, "sent_ms": 0, "journal_lines": self.seq,
        }))
        .unwrap()
    }
}

/// What each simulated table sends a second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Traffic {
    /// A move: its line, the announcement's line, a tick every other second, the state.
    Move,
    /// One journal line and the state; the state's position moves on once
    /// every 30 s at each table (a tournament's pace, the tables staggered).
    Line,
}

/// How late each table's seconds fired, in ms (the simulator's share of the delay).
type Late = std::sync::Arc<std::sync::Mutex<Vec<u64>>>;

async fn table(
    n: u32,
    port: u16,
    secs: u64,
    sent: std::sync::Arc<std::sync::atomic::AtomicU64>,
    traffic: Traffic,
    late: Late,
    connects: Late,
) {
    let mut o = MqttOptions::new(format!("sim-{n}"), "127.0.0.1", port);
    o.set_credentials("sim", "simpw");
    o.set_keep_alive(Duration::from_secs(10));
    let (client, mut el) = AsyncClient::new(o, 64);
    // Connected before the game starts, as a relay is before its table's
    // first move: the connection's set-up is the broker's, not the desk's.
    let (up_tx, up_rx) = tokio::sync::oneshot::channel();
    let asked = Instant::now();
    tokio::spawn(async move {
        let mut up_tx = Some(up_tx);
        while let Ok(ev) = el.poll().await {
            if let rumqttc::Event::Incoming(rumqttc::Packet::ConnAck(_)) = ev {
                if let Some(t) = up_tx.take() {
                    let _ = t.send(());
                }
            }
        }
    });
    let _ = up_rx.await;
    connects
        .lock()
        .unwrap()
        .push(asked.elapsed().as_millis() as u64);
    let mut sim = Sim {
        n,
        seq: 0,
        prev: GENESIS.to_owned(),
        t0: Instant::now(),
    };
    let topic = |leaf: &str| format!("tandem/LOAD/table/{n}/{leaf}");
    let start = StartInfo {
        variant: "international".into(),
        fen: "W:W31-50:B1-20".into(),
        control: "90m".into(),
        warnings_s: vec![],
        white: Some(format!("W{n}")),
        black: Some(format!("B{n}")),
        event: Some("LOAD".into()),
        round: None,
        blind: "white".into(),
        lang: "en".into(),
        options: Default::default(),
        version: "load".into(),
    };
    let pub_line =
        |payload: Vec<u8>| client.publish(topic("journal"), QoS::AtLeastOnce, false, payload);
    let _ = pub_line(sim.line(Event::Start(start))).await;
    sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // Spread the tables over the second.
    tokio::time::sleep(Duration::from_millis(u64::from(n * 37) % 1000)).await;
    let mut every = tokio::time::interval(Duration::from_secs(1));
    let mut lates = Vec::with_capacity(secs as usize);
    for ply in 1..=secs as u32 {
        let due = every.tick().await;
        lates.push(due.elapsed().as_millis() as u64);
        if traffic == Traffic::Line {
            let _ = pub_line(sim.line(Event::Tick)).await;
            sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let _ = client
                .publish(
                    topic("state"),
                    QoS::AtLeastOnce,
                    true,
                    sim.state((ply + n) / 30),
                )
                .await;
            continue;
        }
        let said = Event::Say {
            text: format!("Move {ply} at table {n}: thirty-two, twenty-eight."),
            seat: None,
            source: None,
        };
        let _ = pub_line(sim.line(said)).await;
        let _ = pub_line(sim.line(Event::Announced {
            kind: "move".into(),
            priority: "next".into(),
            text: "Thirty-two, twenty-eight.".into(),
            to: vec![tandem_rules::Color::White],
            lang: None,
        }))
        .await;
        let mut k = 2;
        if ply % 2 == 0 {
            let _ = pub_line(sim.line(Event::Tick)).await;
            k += 1;
        }
        sent.fetch_add(k, std::sync::atomic::Ordering::Relaxed);
        let _ = client
            .publish(topic("state"), QoS::AtLeastOnce, true, sim.state(ply))
            .await;
    }
    late.lock().unwrap().extend(lates);
}

/// The broker's part of the delay: a probe subscribed to the journals of
/// the first `tables` tables, beside the desk, on a thread of its own:
/// from a line's time at the table to the probe, in ms.
fn probe(
    port: u16,
    tables: u32,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<Vec<u64>> {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut o = MqttOptions::new("probe", "127.0.0.1", port);
            o.set_credentials("sim", "simpw");
            o.set_keep_alive(Duration::from_secs(10));
            let (client, mut el) = AsyncClient::new(o, 64);
            for n in 1..=tables {
                let _ = client
                    .subscribe(format!("tandem/LOAD/table/{n}/journal"), QoS::AtLeastOnce)
                    .await;
            }
            let mut lags = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let ev = tokio::time::timeout(Duration::from_millis(200), el.poll()).await;
                let Ok(Ok(rumqttc::Event::Incoming(rumqttc::Packet::Publish(p)))) = ev else {
                    continue;
                };
                let wall = serde_json::from_slice::<Value>(&p.payload)
                    .ok()
                    .and_then(|m| serde_json::from_str::<Value>(m["line"].as_str()?).ok())
                    .and_then(|r| humantime::parse_rfc3339(r["wall"].as_str()?).ok());
                if let Some(w) = wall {
                    let ms = std::time::SystemTime::now()
                        .duration_since(w)
                        .map_or(0, |d| d.as_millis() as u64);
                    lags.push(ms);
                }
            }
            lags
        })
    })
}

/// Reads the server-sent events at `url` on a thread of its own until the
/// stream ends, adding the bytes of each line to `bytes`.
fn count_stream(url: String, bytes: std::sync::Arc<std::sync::atomic::AtomicU64>) {
    std::thread::spawn(move || {
        if let Ok(r) = ureq::get(&url).call() {
            let mut rd = BufReader::new(r.into_reader());
            let mut line = String::new();
            while rd.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                bytes.fetch_add(line.len() as u64, std::sync::atomic::Ordering::Relaxed);
                line.clear();
            }
        }
    });
}

/// p50, p99 and max of `v`, in the stats' form.
fn pcts(mut v: Vec<u64>) -> Value {
    if v.is_empty() {
        return Value::Null;
    }
    v.sort_unstable();
    let at = |p: f64| v[(((v.len() - 1) as f64) * p).round() as usize];
    json!({"p50": at(0.5), "p99": at(0.99), "max": v[v.len() - 1]})
}

/// A connection to `addr` from the local address `from` (of 127.0.0.0/8).
fn connect_from(
    rt: &tokio::runtime::Runtime,
    from: &str,
    addr: &str,
) -> Option<std::net::TcpStream> {
    let from: std::net::SocketAddr = format!("{from}:0").parse().ok()?;
    let to: std::net::SocketAddr = addr.parse().ok()?;
    let s = rt
        .block_on(async {
            let sock = tokio::net::TcpSocket::new_v4()?;
            sock.bind(from)?;
            sock.connect(to).await
        })
        .ok()?;
    let s = s.into_std().ok()?;
    s.set_nonblocking(false).ok()?;
    Some(s)
}

/// `HALL_LOAD_SPECTATORS` idle connections to the public server: each asks
/// for `/api/tables` once (keep-alive) and then waits. They come from 100
/// at a time from each of the local addresses 127.0.0.2, .3…, as
/// spectators' devices do (one address holds only a share of the public
/// server, docs/hall.md). Returns the sockets.
fn idle_spectators(addr: &str, n: usize) -> Vec<std::net::TcpStream> {
    use std::io::{Read, Write};
    let Ok(rt) = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
    else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let from = format!("127.0.0.{}", 2 + i / 100);
        let Some(mut s) = connect_from(&rt, &from, addr) else {
            continue;
        };
        let _ = s.write_all(
            format!("GET /api/tables HTTP/1.1\r\nHost: {addr}\r\nConnection: keep-alive\r\n\r\n")
                .as_bytes(),
        );
        let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
        let mut buf = [0u8; 4096];
        let _ = s.read(&mut buf);
        out.push(s);
    }
    out
}

/// How many of these sockets the server still holds open.
fn still_open(socks: &[std::net::TcpStream]) -> usize {
    use std::io::Read;
    socks
        .iter()
        .filter(|s| {
            let _ = s.set_nonblocking(true);
            let mut buf = [0u8; 1];
            let open = match (&**s).read(&mut buf) {
                Ok(0) => false,
                Ok(_) => true,
                Err(e) => e.kind() == std::io::ErrorKind::WouldBlock,
            };
            let _ = s.set_nonblocking(false);
            open
        })
        .count()
}

/// What a step runs besides the tables.
struct Options {
    traffic: Traffic,
    spectators: usize,
    delay: Option<String>,
}

fn run_step(tables: u32, secs: u64, o: &Options) -> Value {
    // `HALL_LOAD_DATA=DIR`: where the desk keeps its copies (and the broker its files).
    let dir = match std::env::var("HALL_LOAD_DATA") {
        Ok(d) if !d.is_empty() => tempfile::tempdir_in(d).unwrap(),
        _ => tempfile::tempdir().unwrap(),
    };
    let (broker, port) = support::broker(dir.path());
    let broker_pid = broker.0.id();
    let http = free_port();
    let public = free_port();
    let tandem =
        std::env::var("HALL_LOAD_TANDEM").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tandem").into());
    let mut cmd = Command::new(tandem);
    cmd.args([
        "hall",
        "--broker",
        &format!("mqtt://desk:deskpw@127.0.0.1:{port}"),
        "--event",
        "LOAD",
    ])
    .args(["--listen", &format!("127.0.0.1:{http}")])
    .arg("--data")
    .arg(dir.path().join("data"));
    if o.spectators > 0 {
        if std::env::var("HALL_LOAD_KEEP_IDLE").is_ok_and(|v| v == "1") {
            // The idle spectators kept open through the step: the desk's
            // header timeout (10 s, against slowloris) raised past it.
            cmd.env(
                "TANDEM_HALL_HEADER_TIMEOUT_MS",
                ((secs + 60) * 1000).to_string(),
            );
        }
        cmd.args(["--public", &format!("127.0.0.1:{public}")]);
        if let Some(d) = &o.delay {
            cmd.args(["--public-delay", d]);
        }
    }
    let desk = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tandem hall");
    let pid = desk.id();
    let _desk = support::Kill(desk);
    let base = format!("http://127.0.0.1:{http}");
    let t0 = Instant::now();
    while ureq::get(&format!("{base}/api/stats")).call().is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the desk did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The arbiter's page, following live.
    let sse_base = base.clone();
    let sse_bytes = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    count_stream(format!("{sse_base}/events"), sse_bytes.clone());
    // The spectators: every table shown, the idle connections, one page following.
    let mut idle = Vec::new();
    let public_bytes = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    if o.spectators > 0 {
        ureq::post(&format!("{base}/api/public"))
            .set("x-tandem-desk", "1")
            .send_json(json!({"table": null, "on": true}))
            .expect("every table public");
        idle = idle_spectators(&format!("127.0.0.1:{public}"), o.spectators);
        let events = format!("http://127.0.0.1:{public}/events");
        count_stream(events, public_bytes.clone());
    }
    let opened = idle.len();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let probe = probe(port, tables.min(20), stop.clone());
    let late: Late = Default::default();
    let connects: Late = Default::default();
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let cpu0 = ticks(pid);
    let broker_cpu0 = ticks(broker_pid);
    let sim_cpu0 = ticks(std::process::id());
    let w0 = Instant::now();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut hs = Vec::new();
        for n in 1..=tables {
            hs.push(tokio::spawn(table(
                n,
                port,
                secs,
                sent.clone(),
                o.traffic,
                late.clone(),
                connects.clone(),
            )));
        }
        for h in hs {
            let _ = h.await;
        }
    });
    let sent = sent.load(std::sync::atomic::Ordering::Relaxed);
    // Let the desk take what is on the way (at most 5 s more).
    let mut stats = Value::Null;
    let t1 = Instant::now();
    while t1.elapsed() < Duration::from_secs(5) {
        stats = ureq::get(&format!("{base}/api/stats"))
            .call()
            .unwrap()
            .into_json()
            .unwrap();
        if stats["lines"].as_u64() >= Some(sent) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let wall = w0.elapsed().as_secs_f64();
    let pct = |t: u64| ((t as f64 / 100.0) / wall * 1000.0).round() / 10.0;
    let cpu = ticks(pid) - cpu0;
    let broker_cpu = ticks(broker_pid) - broker_cpu0;
    let sim_cpu = ticks(std::process::id()) - sim_cpu0;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let broker_lag = probe.join().unwrap_or_default();
    let late = std::mem::take(&mut *late.lock().unwrap());
    let connects = std::mem::take(&mut *connects.lock().unwrap());
    let api = Instant::now();
    let answered = ureq::get(&format!("http://127.0.0.1:{public}/api/tables"))
        .timeout(Duration::from_secs(10))
        .call()
        .is_ok();
    json!({
        "tables": tables, "seconds": secs, "traffic": format!("{:?}", o.traffic).to_lowercase(),
        "lines_sent": sent, "lines_taken": stats["lines"],
        "lag_ms": stats["lag_ms"], "desk_cpu_pct_of_a_core": pct(cpu),
        "desk_rss_mb": status_kb(pid, "VmRSS:") / 1024, "desk_peak_rss_mb": status_kb(pid, "VmHWM:") / 1024,
        "page_stream_kb": sse_bytes.load(std::sync::atomic::Ordering::Relaxed) / 1024,
        "broker_cpu_pct_of_a_core": pct(broker_cpu), "broker_rss_mb": status_kb(broker_pid, "VmRSS:") / 1024,
        "broker_lag_ms": pcts(broker_lag),
        "sim_cpu_pct_of_a_core": pct(sim_cpu), "sim_late_ms": pcts(late), "sim_connect_ms": pcts(connects),
        "spectators": if o.spectators > 0 { json!({
            "idle_opened": opened, "idle_open_at_end": still_open(&idle),
            "public_stream_kb": public_bytes.load(std::sync::atomic::Ordering::Relaxed) / 1024,
            "public_api_answered": answered, "public_api_ms": api.elapsed().as_millis() as u64,
            "delay": o.delay,
        }) } else { Value::Null },
        "load_average": std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim(),
    })
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken.
    let steps: Vec<u32> = std::env::var("HALL_LOAD_STEPS")
        .unwrap_or_else(|_| "100,200,400,800".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let secs: u64 = std::env::var("HALL_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let o = Options {
        traffic: match std::env::var("HALL_LOAD_TRAFFIC").as_deref() {
            Ok("line") => Traffic::Line,
            _ => Traffic::Move,
        },
        spectators: std::env::var("HALL_LOAD_SPECTATORS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0),
        delay: std::env::var("HALL_LOAD_DELAY")
            .ok()
            .filter(|d| !d.is_empty()),
    };
    for n in steps {
        let r = run_step(n, secs, &o);
        println!("{r}");
        let p99 = r["lag_ms"]["p99"].as_u64().unwrap_or(u64::MAX);
        let behind = p99 > 1000 || r["lines_taken"].as_u64() < r["lines_sent"].as_u64();
        if behind {
            println!("the desk fell behind at {n} tables");
            break;
        }
    }
}
