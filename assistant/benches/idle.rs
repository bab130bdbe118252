//! Idle CPU, wake-ups and resident memory of a running game: starts `tandem
//! play --headless` (text speech, no speech model), without braille and with
//! the terminal braille view (`--braille none`, `--braille terminal`), and
//! without braille at a table in a hall (`--relay` to a real Mosquitto on
//! this machine, once the relay has the game's first lines acknowledged;
//! and so again with the clock paused: no `tick` line is written then),
//! lets it idle for 10 s mid-game, and reads /proc/PID/stat,
//! /proc/PID/status and each thread's context switches (a thread that polls
//! wakes on its timer; one that waits on its events does not: issue 47).
//! Targets: under 1 % of a core, under 30 MB.
//!
//! `cargo bench -p tandem --bench idle` (`IDLE_TANDEM=PATH`: another build
//! of `tandem` measured, to compare two commits under the same load).

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
        idle(braille, false, false);
    }
    idle("none", true, false);
    idle("none", true, true);
}

fn idle(braille: &str, relayed: bool, paused: bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("s.sock");
    let tandem =
        std::env::var_os("IDLE_TANDEM").unwrap_or_else(|| env!("CARGO_BIN_EXE_tandem").into());
    let mut cmd = support::play_as(&tandem, dir.path(), &socket, braille);
    cmd.args(["--lang", "en"]);
    let broker = relayed.then(|| support::broker(dir.path()));
    if let Some((_, port)) = &broker {
        std::fs::write(dir.path().join("pw"), "simpw").expect("password file");
        cmd.args(["--relay", &format!("mqtt://sim@127.0.0.1:{port}")])
            .arg("--relay-password-file")
            .arg(dir.path().join("pw"))
            .args(["--event", "LOAD", "--table", "1"]);
    }
    let mut child = cmd.spawn().expect("tandem play");
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
    if paused {
        client.request("pause", None).expect("pause");
    }
    if relayed {
        // The relay connected and the broker acknowledged the moves' lines.
        let lines = std::fs::read_to_string(dir.path().join("g.jsonl"))
            .expect("journal")
            .lines()
            .count() as u64;
        let cursor = dir.path().join("g.jsonl.relay.json");
        let acked = || {
            let c: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&cursor).ok()?).ok()?;
            c["acked"].as_u64()
        };
        while acked().unwrap_or(0) < lines {
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "the relay sent nothing"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
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
        "idle game, --braille {braille}{}{}: CPU {cpu:.2} % of a core over 10 s, {wakes:.1} wake-ups a second, resident memory {:.1} MB",
        if relayed { ", --relay" } else { "" },
        if paused { ", clock paused" } else { "" },
        rss as f64 / 1024.0
    );
    let _ = child.kill();
    let _ = child.wait();
}
