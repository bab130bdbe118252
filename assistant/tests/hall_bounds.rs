//! The desk's bounds against any one peer (issue 35), with the real desk and
//! the real Mosquitto: heavy routes built once per change, however many ask;
//! a share of the connections per peer address and room kept for the
//! arbiter's session; live streams that fell silent closed; the desk's file
//! limit raised and the public server's cap below it; a wrong login that
//! waits without holding a connection.

mod hall_common;
mod support;

use std::io::Write as _;
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hall_common::{
    closed, connect_from, desk_args, free_port, hall, login, wait_for, Broker, Desk, EVENT, SECRET,
};
use serde_json::{json, Value};

/// A draughts journal of `lines` lines, each an announcement of `pad`
/// bytes, written by the daemon's own journal writer.
fn big_journal(path: &Path, lines: usize, pad: usize) {
    game_journal(path, "Kowalski", lines, pad);
}

/// [`big_journal`] with white's name.
fn game_journal(path: &Path, white: &str, lines: usize, pad: usize) {
    use tandem::journal::Event;
    let mut w = hall_common::started(path, white);
    let words = "x".repeat(pad);
    for i in 0..lines {
        w.append(
            i as u64,
            Event::Announced {
                kind: "sync".into(),
                priority: "normal".into(),
                text: words.clone(),
                to: Vec::new(),
                lang: None,
            },
        )
        .unwrap();
    }
}

/// A draughts journal of up to `plies` legal moves (each the `k`th legal
/// move of its position, the game's own words), written by the daemon's
/// own journal writer: a game the desk replays as it takes the lines.
fn moves_journal(path: &Path, white: &str, plies: u32, k: usize) {
    use tandem::journal::{Event, Source};
    let fen = "W:W31-50:B1-20";
    let mut w = hall_common::started(path, white);
    let mut g = tandem::game::from_journal("international", fen, Default::default(), "en").unwrap();
    for ply in 1..=plies {
        let legal = g.legal_move_texts();
        if legal.is_empty() {
            break;
        }
        let text = legal[(k + ply as usize) % legal.len()].clone();
        let side = g.turn();
        g.play_text(&text).unwrap();
        w.append(
            u64::from(ply) * 1000,
            Event::Move {
                ply,
                side,
                text: text.clone(),
                input: text,
                source: Source::Typed,
                move_ms: 1000,
                white_ms: 5_000_000,
                black_ms: 5_000_000,
                seat: None,
            },
        )
        .unwrap();
    }
}

/// A process's memory (kB) from /proc: its resident size now and its peak.
fn memory(pid: u32) -> (u64, u64) {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb = |key: &str| {
        s.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    (kb("VmRSS:"), kb("VmHWM:"))
}

/// `GET base+path`: its status and body, within 180 s (ten arbiter's
/// pages waiting their turn for reports of seconds each on a loaded
/// machine; the reports' own time limit is 120 s there).
fn get(base: &str, path: &str) -> Result<(u16, String), String> {
    match ureq::get(&format!("{base}{path}"))
        .timeout(Duration::from_secs(180))
        .call()
    {
        Ok(r) => Ok((r.status(), r.into_string().map_err(|e| e.to_string())?)),
        Err(ureq::Error::Status(c, r)) => Ok((c, r.into_string().unwrap_or_default())),
        Err(e) => Err(format!("GET {path}: {e}")),
    }
}

/// Issue 35: the round's PDN, a table's game and `results.csv` are built
/// once per change and served from that, at most two at a time: forty
/// spectators and forty arbiter's tabs asking at once for a table whose
/// journal is 8 MB cost one build per route and server, and the desk's
/// peak memory does not grow with them.
#[test]
fn heavy_routes_are_built_once_per_change_however_many_ask() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    // The desk's copy of table 1, kept by an earlier run, and shown to spectators.
    let copies = dir.path().join("desk").join(EVENT);
    std::fs::create_dir_all(&copies).unwrap();
    big_journal(&copies.join("table-1.jsonl"), 2_000, 4_000);
    std::fs::write(copies.join("public.json"), r#"{"all": true, "tables": []}"#).unwrap();
    let (desk, public) = Desk::start_public(dir.path(), &broker, &[], &[]);
    let public = format!("http://{public}");
    let (_, game) = get(&desk.base, "/api/tables/1/game").unwrap();
    assert!(game.contains("Kowalski"), "{game}");
    let stats = desk.get("/api/stats");
    assert_eq!(stats["heavy_builds"], 1, "{stats}");
    let pid = desk.child.id();
    let (rss0, peak0) = memory(pid);
    let routes = ["/api/round.pdn", "/api/tables/1/game", "/api/results.csv"];
    let asks: Vec<_> = (0..80)
        .map(|i| {
            let base = if i % 2 == 0 {
                desk.base.clone()
            } else {
                public.clone()
            };
            let path = routes[i % 3];
            std::thread::spawn(move || (path, get(&base, path)))
        })
        .collect();
    for a in asks {
        let (path, r) = a.join().unwrap();
        let (status, body) = r.unwrap();
        assert_eq!(status, 200, "{path}: {body}");
        if path != "/api/results.csv" {
            assert!(body.contains("Kowalski"), "{path}");
        }
    }
    let (rss1, peak1) = memory(pid);
    let stats: Value = desk.get("/api/stats");
    eprintln!("desk memory: RSS {rss0} -> {rss1} kB, peak {peak0} -> {peak1} kB; {stats}");
    // The game was built (desk); now the round (desk, public), the game
    // (public) and the results (desk, public): one build each.
    assert_eq!(stats["heavy_builds"], 6, "{stats}");
    assert!(
        peak1 - peak0 < 150_000,
        "the desk's peak memory grew by {} kB with 80 requests",
        peak1 - peak0
    );
}

/// `tandem hall` as [`Desk::start_env`] starts it, with the open-file
/// limits `nofile` (`SOFT:HARD`, through `prlimit`).
fn desk_limited(dir: &Path, broker: &Broker, nofile: &str, extra: &[&str]) -> Desk {
    let port = free_port();
    let mut cmd = Command::new("prlimit");
    cmd.arg(format!("--nofile={nofile}")).arg(support::TANDEM);
    let child = desk_args(&mut cmd, dir, broker, &format!("127.0.0.1:{port}"))
        .args(extra)
        .stderr(std::fs::File::create(dir.join("desk-stderr")).unwrap())
        .spawn()
        .expect("start tandem hall under prlimit");
    let d = Desk {
        child,
        base: format!("http://127.0.0.1:{port}"),
        data: dir.join("desk"),
    };
    wait_for("the desk's answer", || get_as(&d.base, "/", None).map(drop));
    d
}

/// GET `path` with the session `cookie` (from 127.0.0.1); the status, or why there is none.
fn get_as(base: &str, path: &str, cookie: Option<&str>) -> Result<u16, String> {
    get_with(&ureq::agent(), base, path, cookie)
}

/// [`get_as`] through `agent` (its connections kept open between requests, as a browser's).
fn get_with(
    agent: &ureq::Agent,
    base: &str,
    path: &str,
    cookie: Option<&str>,
) -> Result<u16, String> {
    let mut r = agent
        .get(&format!("{base}{path}"))
        .timeout(Duration::from_secs(5));
    if let Some(c) = cookie {
        r = r.set("cookie", c);
    }
    match r.call() {
        Ok(r) => Ok(r.status()),
        Err(ureq::Error::Status(c, _)) => Ok(c),
        Err(e) => Err(e.to_string()),
    }
}

/// Opens `GET /events` from `from` and sends the request (reads nothing;
/// a connection the server closed at once is given back as it is).
fn open_events_from(from: &str, base: &str) -> Option<TcpStream> {
    open_events_with(from, base, None)
}

/// [`open_events_from`] with a receive buffer of `recv` bytes.
fn open_events_with(from: &str, base: &str, recv: Option<u32>) -> Option<TcpStream> {
    let addr = base.trim_start_matches("http://");
    let mut s = support::devices::connect_from_with(from, addr, recv).ok()?;
    let _ = write!(
        s,
        "GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    );
    Some(s)
}

/// Issue 35: one address holds at most its share of the desk's connections
/// (the others still get in), and when many addresses fill the desk, the
/// arbiter's session still gets in (room kept for it) while others are
/// answered "full".
#[test]
fn one_address_cannot_take_the_desk_from_the_arbiter() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = Desk::start_env(
        dir.path(),
        &broker,
        &["--login"],
        &[("TANDEM_HALL_HEADER_TIMEOUT_MS", "60000")],
    );
    let (status, cookie) = login(&desk.base, SECRET);
    assert_eq!(status, 303);
    let cookie = cookie.unwrap();
    let addr = desk.base.trim_start_matches("http://").to_owned();
    // 300 idle sockets from one address: it gets its share, no more.
    let idle: Vec<TcpStream> = (0..300)
        .filter_map(|_| connect_from("127.0.0.2", &addr).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let shut = idle.iter().filter(|s| closed(s)).count();
    assert!(
        shut >= 300 - 64 - 2,
        "one address holds its share: {shut} of 300 closed"
    );
    // Anyone else still gets in; the arbiter works.
    assert_eq!(get_as(&desk.base, "/login", None), Ok(200));
    for _ in 0..5 {
        assert_eq!(get_as(&desk.base, "/api/tables", Some(&cookie)), Ok(200));
    }
    // Eight more addresses fill the desk's connections.
    let mut more = Vec::new();
    for k in 3..=10 {
        let from = format!("127.0.0.{k}");
        more.extend((0..40).filter_map(|_| connect_from(&from, &addr).ok()));
    }
    std::thread::sleep(Duration::from_millis(500));
    let open = idle.iter().chain(&more).filter(|s| !closed(s)).count();
    assert!(open >= 256, "the desk is full: {open} held");
    // The arbiter's session gets in; a request without it is told the desk is full.
    let browser = ureq::agent();
    for i in 0..5 {
        assert_eq!(
            get_with(&browser, &desk.base, "/api/tables", Some(&cookie)),
            Ok(200),
            "request {i}; {open} held; {}",
            std::fs::read_to_string(dir.path().join("desk-stderr")).unwrap()
        );
    }
    let other = get_as(&desk.base, "/login", None);
    assert!(other == Ok(503) || other.is_err(), "{other:?}");
}

/// Issues 35 and 36: a wrong secret is answered at once (its wait holds no
/// connection); every try within the wait after it is refused unread, with
/// `Retry-After`, the right secret too; the next wrong secret makes the desk
/// wait twice as long; after the wait the right secret logs in.
#[test]
fn a_wrong_login_waits_without_holding_a_connection() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = Desk::start(dir.path(), &broker, &["--login"]);
    let t0 = Instant::now();
    assert_eq!(login_waits(&desk.base, "guess"), (401, Some(1)));
    assert!(
        t0.elapsed() < Duration::from_millis(500),
        "{:?}",
        t0.elapsed()
    );
    // Fifty guesses at once: every one answered at once, none looked at.
    let t0 = Instant::now();
    let guesses: Vec<_> = (0..50)
        .map(|i| {
            let base = desk.base.clone();
            std::thread::spawn(move || login(&base, &format!("guess{i}")).0)
        })
        .collect();
    for g in guesses {
        assert_eq!(g.join().unwrap(), 429);
    }
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    assert_eq!(
        login(&desk.base, SECRET).0,
        429,
        "not looked at within the second"
    );
    std::thread::sleep(Duration::from_millis(1100));
    // The second wrong secret: the desk waits twice as long.
    assert_eq!(login_waits(&desk.base, "guess again"), (401, Some(2)));
    std::thread::sleep(Duration::from_millis(2100));
    let (status, cookie) = login(&desk.base, SECRET);
    assert_eq!(status, 303);
    assert!(cookie.is_some());
}

/// `POST /login` with `secret`: the status and the seconds of `Retry-After`.
fn login_waits(base: &str, secret: &str) -> (u16, Option<u64>) {
    let r = match ureq::post(&format!("{base}/login")).send_form(&[("secret", secret)]) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("POST /login: {e}"),
    };
    let wait = r.header("retry-after").and_then(|v| v.parse().ok());
    (r.status(), wait)
}

/// Issue 35: a spectator's live stream that reads nothing while the desk
/// has things to send is closed once its socket stayed full for the stall
/// time (`TANDEM_HALL_STALL_MS`); a stream that reads stays.
#[test]
fn live_streams_that_fell_silent_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 12);
    let (desk, public) = Desk::start_public(
        dir.path(),
        &broker,
        &[],
        &[("TANDEM_HALL_STALL_MS", "1500")],
    );
    let public = format!("http://{public}");
    // Twelve tables' games of real moves: each move is a new board for
    // every stream (its picture, its words, its braille), megabytes in all.
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let mut lines = Vec::new();
    for n in 1..=12u32 {
        let path = games.join(format!("{n}.jsonl"));
        moves_journal(&path, &format!("White {n}"), 120, n as usize);
        lines.push(relayed(&path, false));
        let mut p = journal_publisher(&broker, n);
        let mut input = p.stdin.take().unwrap();
        writeln!(input, "{}", lines[n as usize - 1][0]).unwrap();
        drop(input);
        assert!(p.wait().unwrap().success());
    }
    wait_for("12 tables at the desk", || {
        let n = desk.tables().len();
        (n == 12).then_some(()).ok_or(n.to_string())
    });
    desk.set_public(None, true);
    // The silent stream's socket holds little (4 KiB asked: the kernel's
    // least): the boards sent fill it at once.
    let silent = open_events_with("127.0.0.1", &public, Some(4096)).unwrap();
    let reader = open_events_from("127.0.0.1", &public).unwrap();
    let read = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let ended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reading = {
        let (read, ended) = (read.clone(), ended.clone());
        let mut s = reader.try_clone().unwrap();
        std::thread::spawn(move || {
            use std::io::Read as _;
            let mut b = vec![0u8; 1 << 16];
            while let Ok(k) = s.read(&mut b) {
                if k == 0 {
                    break;
                }
                read.fetch_add(k as u64, std::sync::atomic::Ordering::Relaxed);
            }
            ended.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    // The games' moves, one table after another.
    for (n, l) in lines.iter().enumerate() {
        let mut p = journal_publisher(&broker, n as u32 + 1);
        let mut input = p.stdin.take().unwrap();
        for line in &l[1..] {
            writeln!(input, "{line}").unwrap();
        }
        drop(input);
        assert!(p.wait().unwrap().success());
    }
    std::thread::sleep(Duration::from_secs(4));
    assert!(closed(&silent), "the silent stream is closed");
    // The reader gets every table's boards as fast as the broker and the
    // desk pass them on (a loaded machine takes longer than the 4 s above):
    // many times what the silent stream's socket could hold.
    wait_for("the reading stream's boards", || {
        let n = read.load(std::sync::atomic::Ordering::Relaxed);
        (n > 500_000).then_some(()).ok_or(n.to_string())
    });
    assert!(
        !ended.load(std::sync::atomic::Ordering::Relaxed),
        "the stream that reads stays open"
    );
    reader.shutdown(std::net::Shutdown::Both).unwrap();
    reading.join().unwrap();
}

/// The soft and hard open-file limits of a process (`/proc/PID/limits`).
fn file_limits(pid: u32) -> (u64, u64) {
    let s = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = s
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap()
        .to_owned();
    let v: Vec<u64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (v[0], v[1])
}

/// Issue 35: the desk raises its soft open-file limit to the hard one.
#[test]
fn the_desk_raises_its_file_limit_to_the_hard_one() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = desk_limited(dir.path(), &broker, "512:4096", &[]);
    assert_eq!(file_limits(desk.child.id()), (4096, 4096));
}

/// Issue 35: under a limit of 1,024 open files, 1,100 live streams from one
/// spectator's address cost the desk its share (16), not its files: the
/// arbiter logs in and reads, and a new table's copy is opened.
#[test]
fn eleven_hundred_streams_from_one_peer_under_1024_files() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 2);
    let public = format!("127.0.0.1:{}", free_port());
    let desk = desk_limited(
        dir.path(),
        &broker,
        "1024:1024",
        &["--public", &public, "--login"],
    );
    assert_eq!(file_limits(desk.child.id()), (1024, 1024));
    let public = format!("http://{public}");
    let streams: Vec<TcpStream> = (0..1100)
        .filter_map(|_| open_events_from("127.0.0.1", &public))
        .collect();
    assert_eq!(streams.len(), 1100, "connected");
    std::thread::sleep(Duration::from_millis(500));
    let open = streams.iter().filter(|s| !closed(s)).count();
    assert!(
        open <= 16,
        "one peer's share of the public server: {open} held"
    );
    // The arbiter logs in and reads.
    let (status, cookie) = login(&desk.base, SECRET);
    assert_eq!(status, 303);
    let cookie = cookie.unwrap();
    assert_eq!(get_as(&desk.base, "/api/tables", Some(&cookie)), Ok(200));
    // A new table's copy is opened.
    let line = {
        let dir = tempfile::tempdir().unwrap();
        big_journal(&dir.path().join("j.jsonl"), 0, 0);
        std::fs::read_to_string(dir.path().join("j.jsonl")).unwrap()
    };
    let line = line.trim_end();
    let msg = json!({"seq": 1, "hash": tandem::journal::line_hash(line.as_bytes()), "line": line,
                     "game": tandem::journal::line_hash(line.as_bytes())});
    assert!(broker.publish(
        "table2",
        "pw2",
        &format!("tandem/{EVENT}/table/2/journal"),
        &msg.to_string()
    ));
    wait_for("table 2's copy at the desk", || {
        let r = ureq::get(&format!("{}/api/tables", desk.base))
            .set("cookie", &cookie)
            .call()
            .map_err(|e| e.to_string())?;
        let v: Value = r.into_json().map_err(|e| e.to_string())?;
        v.as_array()
            .and_then(|a| {
                a.iter()
                    .find(|t| t["table"] == 2 && t["journal_lines"] == 1)
            })
            .map(drop)
            .ok_or_else(|| v.to_string())
    });
    assert!(desk.data.join(EVENT).join("table-2.jsonl").exists());
    let stderr = std::fs::read_to_string(dir.path().join("desk-stderr")).unwrap();
    assert!(!stderr.contains("Too many open files"), "{stderr}");
    drop(streams);
}

/// Issue 35: a desk restarted on a copy with an edited line keeps the break:
/// the whole copy moved aside, `chain_ok` false after that restart and the
/// next ones, the copy caught up with the table's journal again, until the
/// arbiter acknowledges.
#[test]
fn an_edited_copy_stays_broken_across_restarts() {
    let (dir, broker, desk) = hall(1);
    let t1 = hall_common::table(dir.path(), &broker, 1, &[]);
    for m in ["32-28", "19-23", "28x19"] {
        hall_common::ctl_ok(&t1, &["move", m]);
    }
    let journal = hall_common::journal_of(dir.path(), 1);
    desk.wait_copy(1, &journal);
    let copy = desk.data.join(EVENT).join("table-1.jsonl");
    drop(desk);
    // Line 3 of the desk's copy edited while the desk was stopped.
    let text = std::fs::read_to_string(&copy).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut v: Value = serde_json::from_str(&lines[2]).unwrap();
    v["wall"] = json!("2000-01-01T00:00:00Z");
    lines[2] = v.to_string();
    let edited = lines.join("\n") + "\n";
    std::fs::write(&copy, &edited).unwrap();
    let desk = Desk::start(dir.path(), &broker, &[]);
    let t = desk.wait_table(1, "table 1 read back", |t| t["chain_ok"] == false);
    let alerts = t["alerts"].to_string();
    assert!(
        // Line 4 is where the chain breaks: its hash of line 3 does not match.
        alerts.contains("line 4") && alerts.contains("table-1.jsonl.broken-1"),
        "{alerts}"
    );
    // Nothing lost: the edited copy is kept whole, and the desk's copy is the
    // table's journal again (asked for from the break on).
    assert_eq!(
        std::fs::read_to_string(desk.data.join(EVENT).join("table-1.jsonl.broken-1")).unwrap(),
        edited
    );
    desk.wait_copy(1, &journal);
    // The table stopped, then the desk: what the desk holds stays what it
    // held (a running table's lines, its ticks and the desk's witness of
    // what it had just taken, would reach each restarted desk at once).
    drop(t1);
    drop(desk);
    let held = std::fs::read_to_string(&copy).unwrap().lines().count() as u64;
    for restart in 2..=3 {
        let desk = Desk::start(dir.path(), &broker, &[]);
        let t = desk.wait_table(1, "table 1", |t| t["journal_lines"] == held);
        assert_eq!(t["chain_ok"], false, "restart {restart}: {t}");
        if restart == 3 {
            let r = ureq::post(&format!("{}/api/tables/1/acknowledge", desk.base))
                .set("x-tandem-desk", "1")
                .call()
                .unwrap();
            assert_eq!(r.status(), 200);
        }
    }
    let desk = Desk::start(dir.path(), &broker, &[]);
    let t = desk.wait_table(1, "table 1", |t| t["journal_lines"] == held);
    assert_eq!(t["chain_ok"], true, "acknowledged: {t}");
}

/// The `tandem arbiter` processes the desk `pid` runs now.
fn arbiters_of(pid: u32) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter(|e| {
            let p = e.path();
            let stat = std::fs::read_to_string(p.join("stat")).unwrap_or_default();
            // pid (comm) state ppid …: the fields after the last ')'.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u32>().ok());
            ppid == Some(pid)
                && std::fs::read(p.join("cmdline"))
                    .unwrap_or_default()
                    .split(|b| *b == 0)
                    .any(|a| a == b"arbiter")
        })
        .count()
}

/// A desk over a copy of table 1 kept by an earlier run (a journal of
/// `lines` lines of 100 bytes), with `env`.
fn desk_over_big_copy(dir: &Path, broker: &Broker, lines: usize, env: &[(&str, &str)]) -> Desk {
    let copies = dir.join("desk").join(EVENT);
    std::fs::create_dir_all(&copies).unwrap();
    if !copies.join("table-1.jsonl").exists() {
        big_journal(&copies.join("table-1.jsonl"), lines, 100);
    }
    Desk::start_env(dir, broker, &[], env)
}

/// Issue 35: the detail page's and the reconciliation's `tandem arbiter`
/// run at most two at once (ten pages asking at once), each stopped when
/// it runs past the time limit, and the record to reconcile goes through a
/// private temporary file that is gone after.
#[test]
fn the_arbiters_reports_run_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let tmp = dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let tmp_s = tmp.to_str().unwrap().to_owned();
    let desk = desk_over_big_copy(
        dir.path(),
        &broker,
        20_000,
        &[
            ("TANDEM_HALL_ARBITER_TIMEOUT_MS", "120000"),
            // A page waits its turn within the reports' time limit, not
            // the desk's 30 s for any request (a page stopped there would
            // end its report early: a bound this test does not measure).
            ("TANDEM_HALL_REQUEST_TIMEOUT_MS", "300000"),
            ("TMPDIR", &tmp_s),
        ],
    );
    let pid = desk.child.id();
    let t0 = Instant::now();
    // A report of seconds (more on a loaded machine): asked within 180 s.
    let (status, body) = get(&desk.base, "/api/tables/1/detail").unwrap();
    assert_eq!(status, 200, "{body}");
    eprintln!("one detail: {:?}", t0.elapsed());
    let d: Value = serde_json::from_str(&body).unwrap();
    let a = d["announcements"].as_str().unwrap();
    assert!(a.contains("Boards reported different: 0"), "{a}");
    let started = |desk: &Desk| desk.get("/api/stats")["arbiters"]["started"].as_u64();
    assert_eq!(started(&desk), Some(1), "the one detail's report");
    // Ten pages at once: at most two reports run at a time, seen twice: by
    // sampling /proc from here (which may miss a short report, never see
    // one too many: a bound from above) and by the desk's own count of its
    // children alive from their start until reaped (which misses none).
    let most = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = {
        let (most, done) = (most.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                most.fetch_max(arbiters_of(pid), std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let pages: Vec<_> = (0..10)
        .map(|_| {
            let base = desk.base.clone();
            std::thread::spawn(move || get(&base, "/api/tables/1/detail"))
        })
        .collect();
    for p in pages {
        let (status, body) = p.join().unwrap().unwrap();
        assert_eq!(status, 200, "{body}");
        // Each page with its report (not a word of why there is none).
        let d: Value = serde_json::from_str(&body).unwrap();
        let a = d["announcements"].as_str().unwrap();
        assert!(a.contains("Boards reported different: 0"), "{a}");
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    watch.join().unwrap();
    let most = most.load(std::sync::atomic::Ordering::Relaxed);
    assert!(most <= 2, "{most} tandem arbiter at once (seen in /proc)");
    let stats = desk.get("/api/stats");
    assert_eq!(
        started(&desk),
        Some(11),
        "a report for each page, none answered from a cache: {stats}"
    );
    let at_once = stats["arbiters"]["most_at_once"].as_u64().unwrap();
    assert!(
        (1..=2).contains(&at_once) && most as u64 <= at_once,
        "{at_once} tandem arbiter at once by the desk's count, {most} seen in /proc"
    );
    eprintln!("reports at once: {at_once} by the desk's count, {most} seen in /proc");
    // A reconciliation: its record in a private file (only the desk's user
    // may read it), gone after.
    let base = desk.base.clone();
    let rec = std::thread::spawn(move || {
        ureq::post(&format!("{base}/api/tables/1/reconcile"))
            .set("x-tandem-desk", "1")
            .send_string("1. 32-28")
            .unwrap()
            .into_string()
            .unwrap()
    });
    let mut modes = Vec::new();
    while !rec.is_finished() {
        for e in std::fs::read_dir(&tmp).unwrap().filter_map(Result::ok) {
            use std::os::unix::fs::PermissionsExt as _;
            if let Ok(m) = e.metadata() {
                modes.push((e.file_name(), m.permissions().mode() & 0o777));
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let r = rec.join().unwrap();
    assert!(!r.contains("could not run"), "{r}");
    assert!(!modes.is_empty(), "the record's file was never seen");
    assert!(
        modes.iter().all(|(_, m)| m & 0o077 == 0),
        "a record others may read: {modes:?}"
    );
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "left in TMPDIR"
    );
    drop(desk);
    // A time limit shorter than the report: it is stopped, and no process is left.
    let desk = desk_over_big_copy(
        dir.path(),
        &broker,
        20_000,
        &[("TANDEM_HALL_ARBITER_TIMEOUT_MS", "150")],
    );
    let d = desk.get("/api/tables/1/detail");
    let a = d["announcements"].as_str().unwrap();
    assert!(a.contains("was stopped"), "{a}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(arbiters_of(desk.child.id()), 0, "a report left running");
}

/// A journal's lines as a relay sends them (`earlier` when marked so).
fn relayed(path: &Path, earlier: bool) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let game = tandem::journal::line_hash(text.lines().next().unwrap().as_bytes());
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            json!({"seq": i + 1, "hash": tandem::journal::line_hash(l.as_bytes()), "line": l,
                   "game": game, "earlier": earlier})
            .to_string()
        })
        .collect()
}

/// `mosquitto_pub -l` as table `n` on its journal topic: one message a line
/// written to the returned stdin.
fn journal_publisher(broker: &Broker, n: u32) -> std::process::Child {
    Command::new("mosquitto_pub")
        .args(["-h", "127.0.0.1", "-p", &broker.port.to_string(), "-q", "1"])
        .args(["-u", &format!("table{n}"), "-P", &format!("pw{n}")])
        .args(["-t", &format!("tandem/{EVENT}/table/{n}/journal"), "-l"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Issue 35: a table with two earlier games of 20 MB each sends their
/// lines in turn for 10 s (as a stopped table's relay sends what was left,
/// or a hostile one): the desk reads each copy once, on a thread of its
/// own, so the arbiter's `/api/tables` and another table's state stay under
/// a second throughout (each switch read a whole copy on the broker's
/// thread, the tables locked, before).
#[test]
fn switching_between_big_earlier_games_never_freezes_the_desk() {
    let (dir, broker, desk) = hall(2);
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    for (name, white, lines, pad) in [
        ("a", "Alpha", 100, 200_000),
        ("b", "Bravo", 100, 200_000),
        ("c", "Charlie", 0, 0),
    ] {
        game_journal(&games.join(format!("{name}.jsonl")), white, lines, pad);
    }
    // Games a, b and c in turn at table 1: a and b are kept aside.
    for (name, held) in [("a", 101), ("b", 101), ("c", 1)] {
        let mut p = journal_publisher(&broker, 1);
        let mut input = p.stdin.take().unwrap();
        for l in relayed(&games.join(format!("{name}.jsonl")), false) {
            writeln!(input, "{l}").unwrap();
        }
        drop(input);
        assert!(p.wait().unwrap().success());
        let white = match name {
            "a" => "Alpha",
            "b" => "Bravo",
            _ => "Charlie",
        };
        desk.wait_table(1, &format!("game {name} at the desk"), |t| {
            t["journal_lines"] == held && t["white"] == white
        });
    }
    let (a, b) = (
        relayed(&games.join("a.jsonl"), true),
        relayed(&games.join("b.jsonl"), true),
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // The arbiter reads the tables all along.
    let arbiter = {
        let (stop, base) = (stop.clone(), desk.base.clone());
        std::thread::spawn(move || {
            let mut worst = Duration::ZERO;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let t0 = Instant::now();
                get(&base, "/api/tables").unwrap();
                worst = worst.max(t0.elapsed());
                std::thread::sleep(Duration::from_millis(100));
            }
            worst
        })
    };
    // Table 2 plays on: each of its journal lines is at the desk within…
    let table2 = relayed(
        &{
            let p = games.join("table2.jsonl");
            game_journal(&p, "W2", 400, 10);
            p
        },
        false,
    );
    let other = {
        let (stop, base, port) = (stop.clone(), desk.base.clone(), broker.port);
        std::thread::spawn(move || {
            let mut worst = Duration::ZERO;
            for (k, line) in table2.iter().enumerate() {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                let t0 = Instant::now();
                let ok = Command::new("mosquitto_pub")
                    .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-q", "1"])
                    .args(["-u", "table2", "-P", "pw2"])
                    .args(["-t", &format!("tandem/{EVENT}/table/2/journal")])
                    .args(["-m", line])
                    .status()
                    .unwrap()
                    .success();
                assert!(ok);
                loop {
                    let (_, body) = get(&base, "/api/tables").unwrap();
                    let v: Value = serde_json::from_str(&body).unwrap();
                    let seen = v
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|t| t["table"] == 2 && t["journal_lines"] == k + 1);
                    if seen || t0.elapsed() > Duration::from_secs(20) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                worst = worst.max(t0.elapsed());
                std::thread::sleep(Duration::from_millis(200));
            }
            worst
        })
    };
    // Ten seconds of lines of games a and b in turn, ten a second.
    let mut p = journal_publisher(&broker, 1);
    let mut input = p.stdin.take().unwrap();
    for i in 0..100 {
        let game = if i % 2 == 0 { &a } else { &b };
        writeln!(input, "{}", game[1 + (i / 2) % 99]).unwrap();
        input.flush().unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(input);
    assert!(p.wait().unwrap().success());
    std::thread::sleep(Duration::from_secs(1));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (arbiter, other) = (arbiter.join().unwrap(), other.join().unwrap());
    eprintln!("worst /api/tables {arbiter:?}, worst lag of table 2 {other:?}");
    assert!(
        arbiter < Duration::from_secs(1),
        "/api/tables took {arbiter:?}"
    );
    assert!(
        other < Duration::from_secs(1),
        "table 2 behind by {other:?}"
    );
    // Nothing was lost: both copies aside are whole.
    for (name, g) in [("a", &a), ("b", &b)] {
        let first: Value = serde_json::from_str(&g[0]).unwrap();
        let short = &first["game"].as_str().unwrap()[..12];
        let copy = desk.data.join(EVENT).join(format!("table-1-{short}.jsonl"));
        assert_eq!(
            std::fs::read(&copy).unwrap(),
            std::fs::read(games.join(format!("{name}.jsonl"))).unwrap(),
            "game {name}'s copy"
        );
    }
}

/// Issue 35: a table that starts sixty one-line games at once makes the
/// desk keep at most thirty copies aside in the hour (one alert says so);
/// the games it took are kept whole.
#[test]
fn a_flood_of_games_makes_at_most_thirty_files_an_hour() {
    let (dir, broker, desk) = hall(1);
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let mut p = journal_publisher(&broker, 1);
    let mut input = p.stdin.take().unwrap();
    for i in 0..60 {
        let j = games.join(format!("{i}.jsonl"));
        game_journal(&j, &format!("Player {i}"), 0, 0);
        writeln!(input, "{}", relayed(&j, false)[0]).unwrap();
    }
    drop(input);
    assert!(p.wait().unwrap().success());
    let t = desk.wait_table(1, "the alert", |t| {
        t["alerts"]
            .as_array()
            .is_some_and(|a| a.iter().any(|a| a["kind"] == "games"))
    });
    let alerts = t["alerts"].as_array().unwrap();
    assert_eq!(alerts.iter().filter(|a| a["kind"] == "games").count(), 1);
    // The first game, then thirty more: thirty copies aside and the copy.
    assert_eq!(t["white"], "Player 30", "{t}");
    let copies: Vec<String> = std::fs::read_dir(desk.data.join(EVENT))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.starts_with("table-1") && f.ends_with(".jsonl"))
        .collect();
    assert_eq!(copies.len(), 31, "{copies:?}");
}

/// Issue 35: a table's copies take at most their bytes on the desk's disk
/// (`TANDEM_HALL_TABLE_BYTES`, 4 MiB here): of a journal of 8 MB the desk
/// holds what fits, whole lines in order, and one alert says it is full.
#[test]
fn a_tables_copies_take_at_most_their_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = Desk::start_env(
        dir.path(),
        &broker,
        &[],
        &[("TANDEM_HALL_TABLE_BYTES", "4194304")],
    );
    let j = dir.path().join("big.jsonl");
    game_journal(&j, "Big", 40, 200_000);
    let mut p = journal_publisher(&broker, 1);
    let mut input = p.stdin.take().unwrap();
    for l in relayed(&j, false) {
        writeln!(input, "{l}").unwrap();
    }
    drop(input);
    assert!(p.wait().unwrap().success());
    let t = desk.wait_table(1, "the alert", |t| {
        t["alerts"]
            .as_array()
            .is_some_and(|a| a.iter().any(|a| a["kind"] == "disk"))
    });
    let alerts = t["alerts"].as_array().unwrap();
    assert_eq!(alerts.iter().filter(|a| a["kind"] == "disk").count(), 1);
    let copy = std::fs::read(desk.data.join(EVENT).join("table-1.jsonl")).unwrap();
    assert!(copy.len() <= 4 << 20, "{} bytes", copy.len());
    let whole = std::fs::read(&j).unwrap();
    assert!(
        copy.len() > 3 << 20 && whole.starts_with(&copy),
        "the lines that fit, in order"
    );
    assert_eq!(
        t["journal_lines"].as_u64().unwrap() as usize,
        copy.iter().filter(|b| **b == b'\n').count()
    );
}
