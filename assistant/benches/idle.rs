//! Idle CPU, wake-ups and resident memory of a running game: starts `tandem
//! play --headless` (text speech, no speech model), without braille and with
//! the terminal braille view (`--braille none`, `--braille terminal`), lets
//! it idle for 10 s mid-game, and reads /proc/PID/stat, /proc/PID/status and
//! each thread's context switches (a thread that polls wakes on its timer;
//! one that waits on its events does not: issue 47).
//! Targets: under 1 % of a core, under 30 MB.
//!
//! `cargo bench -p tandem --bench idle`

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    // Fields after the command name (which is in parentheses).
    let rest = &stat[stat.rfind(')').expect("stat format") + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    f[11].parse::<u64>().expect("utime") + f[12].parse::<u64>().expect("stime")
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .expect("VmRSS")
}

/// Context switches of every thread of `pid` so far: each is a wake-up.
fn switches(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("status")).ok())
        .flat_map(|s| {
            s.lines()
                .filter(|l| l.contains("ctxt_switches"))
                .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                .collect::<Vec<_>>()
        })
        .sum()
}

fn main() {
    for braille in ["none", "terminal"] {
        idle(braille);
    }
}

fn idle(braille: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("s.sock");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args([
            "play",
            "--headless",
            "--speech",
            "text",
            "--braille",
            braille,
            "--lang",
            "en",
        ])
        .arg("--socket")
        .arg(&socket)
        .arg("--journal")
        .arg(dir.path().join("g.jsonl"))
        .env("XDG_CONFIG_HOME", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tandem play");
    let t0 = Instant::now();
    let mut client = loop {
        if let Ok(c) = tandem::client::Client::connect(&socket) {
            break c;
        }
        assert!(t0.elapsed() < Duration::from_secs(20), "no socket");
        std::thread::sleep(Duration::from_millis(20));
    };
    for m in ["32-28", "19-23", "28x19", "14x23"] {
        client.request("move", Some(m)).expect("move");
    }
    let pid = child.id();
    let hz = 100.0; // USER_HZ on Linux
    let (c0, s0, w0) = (ticks(pid), switches(pid), Instant::now());
    std::thread::sleep(Duration::from_secs(10));
    let (c1, s1, w1) = (ticks(pid), switches(pid), Instant::now());
    let secs = (w1 - w0).as_secs_f64();
    let cpu = (c1 - c0) as f64 / hz / secs * 100.0;
    let wakes = (s1 - s0) as f64 / secs;
    let rss = rss_kb(pid);
    println!(
        "idle game, --braille {braille}: CPU {cpu:.2} % of a core over 10 s, {wakes:.1} wake-ups a second, resident memory {:.1} MB",
        rss as f64 / 1024.0
    );
    let _ = child.kill();
    let _ = child.wait();
}
