//! Idle CPU and resident memory of a running game: starts `tandem play
//! --headless` (text speech, no braille, no speech model), lets it idle for
//! 10 s mid-game, and reads /proc/PID/stat and /proc/PID/status.
//! Targets: under 1 % of a core, under 30 MB.
//!
//! `cargo bench -p tandem --bench idle`

mod support;

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

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("s.sock");
    let mut child = support::play(dir.path(), &socket)
        .args(["--lang", "en"])
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
    let (c0, w0) = (ticks(pid), Instant::now());
    std::thread::sleep(Duration::from_secs(10));
    let (c1, w1) = (ticks(pid), Instant::now());
    let cpu = (c1 - c0) as f64 / hz / (w1 - w0).as_secs_f64() * 100.0;
    let rss = rss_kb(pid);
    println!(
        "idle game: CPU {cpu:.2} % of a core over 10 s, resident memory {:.1} MB",
        rss as f64 / 1024.0
    );
    let _ = child.kill();
    let _ = child.wait();
}
