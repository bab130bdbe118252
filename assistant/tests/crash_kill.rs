//! Crash safety, measured: the real `tandem play --headless --speech text
//! --braille none` binary plays real tournament games (from
//! `rules/tests/data/pdn/`) through the control socket and is killed with
//! SIGKILL at hundreds of points chosen by a fixed-seed RNG: right after a
//! random number of acknowledged moves, or while a move request is in
//! flight. After each kill it is resumed from its journal, and:
//!
//! - every acknowledged move is there (a move in flight may or may not be);
//! - the journal verifies (`tandem journal verify --json`: `ok`);
//! - both clocks come back within 1 s of `tandem ctl state` just before the kill;
//! - now and then a torn last line (half a line written by the test, as a
//!   power loss mid-write leaves it) is detected, reported (`torn` by
//!   `journal verify`, a `resumed` event with `torn: true`, a warning on
//!   stderr) and dropped, and the daemon resumes anyway.
//!
//! A second test lets the side to move think 3.5 s before the kill: the
//! clock checkpoints (`tick` lines) bring that think back within 1 s, and
//! stay out of the PDN export, the arbiter's reports and `journal verify`.
//!
//! The figures (kills, moves lost) are printed at the end for RELIABILITY.md.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{pdn_data, tandem, verify_ok, Daemon, Play};
use tandem::client::Client;
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::Variant;
use tandem_testkit::Rng;

const KILLS: usize = 220;

fn games() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for name in [
        "dutch96h.pdn",
        "wiersma.pdn",
        "nk-ronde-01.pdn",
        "wk2003.pdn",
    ] {
        for g in parse_pdn(&pdn_data(name)) {
            if let Replay::Ok(game) = replay(&g, Variant::International) {
                if game.ply() >= 20 {
                    out.push(game.move_texts());
                }
            }
        }
    }
    assert!(!out.is_empty(), "no test games replay");
    out
}

/// `tandem play --headless --speech text --braille none` in `dir`, its
/// stderr in `dir/stderr-N.txt`.
fn daemon(dir: &Path, args: &[&str], n: usize) -> Daemon {
    Play::text_only(dir)
        .args(args)
        .stderr_file(dir.join(format!("stderr-{n}.txt")))
        .start()
}

fn state(c: &mut Client) -> Value {
    let r = c.request("state", None).unwrap();
    assert_eq!(r["ok"], true, "{r}");
    r["state"].clone()
}

fn moves_of(st: &Value) -> Vec<String> {
    serde_json::from_value(st["moves"].clone()).unwrap()
}

#[test]
fn hundreds_of_sigkills_lose_no_acknowledged_move_and_no_clock_time() {
    let games = games();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x7A4D_E3C1_0B5F_9E27);
    let (mut kills, mut torn_made, mut torn_seen, mut in_flight_kept) = (0usize, 0, 0, 0);
    let mut worst_clock_ms = 0i64;
    let mut game_no = 0usize;
    let mut total_acked = 0usize;
    let t0 = Instant::now();
    while kills < KILLS {
        let moves = &games[game_no % games.len()];
        let journal = dir.path().join(format!("game-{game_no}.jsonl"));
        let j = journal.to_str().unwrap().to_owned();
        let mut d = daemon(dir.path(), &["--lang", "en", "--journal", &j], kills);
        let mut acked = 0usize;
        loop {
            let mut c = d.client();
            // A few acknowledged moves (sometimes none at all).
            let k = rng.below(4) as usize;
            for m in moves.iter().skip(acked).take(k) {
                let r = c.request("move", Some(m)).unwrap();
                assert_eq!(r["ok"], true, "game {game_no}, {m}: {r}");
                acked += 1;
                total_acked += 1;
            }
            let before = state(&mut c);
            assert_eq!(moves_of(&before).len(), acked);
            // Kill now, or while a move is in flight.
            let in_flight = (rng.below(3) == 0 && acked < moves.len()).then(|| {
                let mut racer = d.client();
                let m = moves[acked].clone();
                std::thread::spawn(move || {
                    racer
                        .request("move", Some(&m))
                        .is_ok_and(|r| r["ok"] == true)
                })
            });
            if in_flight.is_some() {
                std::thread::sleep(Duration::from_micros(rng.below(2000)));
            }
            d.kill();
            kills += 1;
            let racer_acked = in_flight.is_some_and(|t| t.join().unwrap());
            if racer_acked {
                acked += 1;
                total_acked += 1;
            }
            // Now and then: power lost mid-write, half a line on disk.
            let tear = rng.below(8) == 0;
            if tear {
                let text = std::fs::read(&journal).unwrap();
                let last = text[..text.len() - 1]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let line = &text[last..];
                let half = &line[..line.len() / 2];
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&journal)
                    .unwrap();
                std::io::Write::write_all(&mut f, half).unwrap();
                torn_made += 1;
                let v = verify_ok(&journal);
                assert!(!v["torn"].is_null(), "a torn line not reported: {v}");
            } else {
                verify_ok(&journal);
            }
            drop(d);
            d = daemon(dir.path(), &["--resume", &j], kills);
            let mut c = d.client();
            let after = state(&mut c);
            let got = moves_of(&after);
            assert!(
                got.len() >= acked && got.len() <= acked + 1,
                "kill {kills}: {} moves after resume, {acked} acknowledged",
                got.len()
            );
            assert_eq!(
                got[..],
                moves[..got.len()],
                "kill {kills}: a different game"
            );
            if got.len() > acked {
                // The move in flight was recorded before the kill: it stands.
                in_flight_kept += 1;
                acked = got.len();
                total_acked += 1;
            }
            for side in ["white", "black"] {
                let a = before["clocks"][side]["remaining_ms"].as_i64().unwrap();
                let b = after["clocks"][side]["remaining_ms"].as_i64().unwrap();
                worst_clock_ms = worst_clock_ms.max((a - b).abs());
                assert!(
                    (a - b).abs() <= 1000,
                    "kill {kills}: {side}'s clock {a} ms before, {b} ms after resume"
                );
            }
            assert_eq!(after["clocks"]["paused"], true, "{after}");
            if tear {
                let v = verify_ok(&journal);
                assert!(v["torn"].is_null(), "the torn line was not cut: {v}");
                let stderr = d.stderr_text();
                assert!(stderr.contains("torn"), "not reported: {stderr}");
                let text = std::fs::read_to_string(&journal).unwrap();
                assert!(
                    text.lines()
                        .rev()
                        .take(8)
                        .any(|l| l.contains(r#""type":"resumed""#) && l.contains(r#""torn":true"#)),
                    "no resumed/torn event"
                );
                torn_seen += 1;
            }
            if acked >= moves.len() || kills >= KILLS {
                break;
            }
            assert_eq!(c.request("resume", None).unwrap()["ok"], true);
        }
        drop(d);
        verify_ok(&journal);
        game_no += 1;
    }
    assert_eq!(torn_made, torn_seen);
    assert!(torn_made >= 10, "only {torn_made} torn lines tried");
    eprintln!(
        "crash_kill: {kills} SIGKILLs over {game_no} games in {:.1} s, {total_acked} moves acknowledged, \
         0 lost, {in_flight_kept} in-flight moves kept, {torn_made} torn lines dropped, \
         worst clock difference {worst_clock_ms} ms",
        t0.elapsed().as_secs_f64()
    );
}

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = tandem(args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains("tick") && !String::from_utf8_lossy(&out.stderr).contains("tick"),
        "tandem {args:?} shows a checkpoint: {text}"
    );
    (out.status.code(), text)
}

/// A long think, then SIGKILL: the time up to the last clock checkpoint
/// (`tick`, at most a second old) is charged to the side to move on resume,
/// and the checkpoints stay out of everything people read.
#[test]
fn a_long_think_before_a_sigkill_is_charged_to_the_side_to_move_within_a_second() {
    const THINK: Duration = Duration::from_millis(3500);
    let games = games();
    let moves = &games[0];
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("think.jsonl");
    let j = journal.to_str().unwrap().to_owned();
    let mut d = daemon(dir.path(), &["--lang", "en", "--journal", &j], 0);
    let mut c = d.client();
    for m in &moves[..5] {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m}: {r}");
    }
    let start = state(&mut c);
    let (turn, other) = ("black", "white");
    assert_eq!(start["turn"], turn);
    // The journal's lines since the last move: (type, t_ms).
    let since_move = || -> Vec<(String, i64)> {
        let text = std::fs::read_to_string(&journal).unwrap();
        let mut lines: Vec<(String, i64)> = text
            .lines()
            .rev()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|v| {
                let ty = v["event"]["type"].as_str().unwrap_or_default().to_owned();
                (ty, v["t_ms"].as_i64().unwrap())
            })
            .take_while(|(ty, _)| ty != "move")
            .collect();
        lines.reverse();
        lines
    };
    // Black thinks at least THINK, and until two checkpoints are journaled
    // (each a second after the line before; later on a loaded machine).
    let t0 = Instant::now();
    while t0.elapsed() < THINK || since_move().iter().filter(|(ty, _)| ty == "tick").count() < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "no two checkpoints in a minute of thinking: {:?}",
            since_move()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let before = state(&mut c);
    d.kill();
    let lines = since_move();
    let ticks: Vec<i64> = lines
        .iter()
        .filter(|(ty, _)| ty == "tick")
        .map(|(_, t)| *t)
        .collect();
    assert!(ticks.len() >= 2, "{lines:?}");
    let last_line_t = lines.last().unwrap().1;
    let v = verify_ok(&journal);
    assert!(v["torn"].is_null(), "{v}");
    drop(d);
    let d = daemon(dir.path(), &["--resume", &j], 1);
    let mut c = d.client();
    let after = state(&mut c);
    assert_eq!(after["clocks"]["paused"], true, "{after}");
    assert_eq!(moves_of(&after), moves[..5]);
    let used = |s: &Value, side: &str| s["clocks"][side]["used_ms"].as_i64().unwrap();
    let lost = used(&before, turn) - used(&after, turn);
    // What is lost is the time from the journal's last line to the kill
    // (negative when a checkpoint came after the `state` read), give or take
    // the moment the clock was pressed against its line's `t_ms` (the line
    // is written and synced after the press: SLACK). The checkpoints come
    // about a second apart: their gaps are measured, as load makes them later.
    const SLACK: i64 = 250;
    let since_last_line = before["t_ms"].as_i64().unwrap() - last_line_t;
    let gaps: Vec<i64> = lines.windows(2).map(|w| w[1].1 - w[0].1).collect();
    let max_gap = gaps.iter().copied().max().unwrap_or(0).max(1000);
    assert!(
        (lost - since_last_line).abs() <= SLACK && since_last_line <= max_gap + SLACK,
        "{turn} lost {lost} ms, the last line was {since_last_line} ms before the kill: {lines:?}"
    );
    assert!(max_gap < 2000, "checkpoint gaps {gaps:?} ms");
    assert!(
        used(&after, turn) - used(&start, turn) >= THINK.as_millis() as i64 - max_gap - SLACK,
        "{turn} used {} ms at the last move, {} ms just before the kill, {} ms after resume",
        used(&start, turn),
        used(&before, turn),
        used(&after, turn)
    );
    assert_eq!(used(&after, other), used(&start, other));
    assert_eq!(used(&before, other), used(&start, other));
    eprintln!(
        "crash_kill think: {turn} thought {} ms, {} ms charged after resume, {lost} ms lost",
        used(&before, turn) - used(&start, turn),
        used(&after, turn) - used(&start, turn),
    );
    drop(d);
    // What people read: no checkpoint in the PDN, the arbiter's reports or
    // the verification (which still checks the chain through them).
    let (code, pdn) = run(&["pdn", "export", &j]);
    assert_eq!(code, Some(0), "{pdn}");
    let exported = dir.path().join("think.pdn");
    std::fs::write(&exported, &pdn).unwrap();
    let (code, rec) = run(&[
        "arbiter",
        "reconcile",
        &j,
        exported.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, Some(0), "{rec}");
    let rec: Value = serde_json::from_str(&rec).unwrap();
    assert_eq!(
        (rec["agree"].clone(), rec["agreed_plies"].clone()),
        (Value::Bool(true), 5.into())
    );
    let (code, ann) = run(&["arbiter", "announcements", &j, "--json"]);
    assert_eq!(code, Some(0), "{ann}");
    let ann: Value = serde_json::from_str(&ann).unwrap();
    assert_eq!(ann["white"]["moves"], 3, "{ann}");
    assert_eq!(ann["refused"], serde_json::json!([]), "{ann}");
    let (code, ver) = run(&["journal", "verify", &j]);
    assert_eq!(code, Some(0), "{ver}");
}
