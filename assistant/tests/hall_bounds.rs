//! The desk's bounds against any one peer (issue 35), with the real desk and
//! the real Mosquitto: heavy routes built once per change, however many ask.

mod hall_common;
mod support;

use std::path::Path;
use std::time::Duration;

use hall_common::{free_port, Broker, Desk, EVENT};
use serde_json::Value;

/// A draughts journal of `lines` lines, each an announcement of `pad`
/// bytes, written by the daemon's own journal writer.
fn big_journal(path: &Path, lines: usize, pad: usize) {
    use tandem::journal::{Event, JournalWriter, StartInfo};
    let mut w = JournalWriter::create(path).unwrap();
    w.append(
        0,
        Event::Start(StartInfo {
            variant: "international".into(),
            fen: "W:W31-50:B1-20".into(),
            control: "90m".into(),
            warnings_s: vec![],
            white: Some("Kowalski".into()),
            black: Some("Nowak".into()),
            event: None,
            blind: "white".into(),
            lang: "en".into(),
            options: Default::default(),
            version: "test".into(),
        }),
    )
    .unwrap();
    let words = "x".repeat(pad);
    for i in 0..lines {
        w.append(
            i as u64,
            Event::Announced {
                kind: "sync".into(),
                priority: "normal".into(),
                text: words.clone(),
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

fn get(base: &str, path: &str) -> Result<(u16, String), String> {
    match ureq::get(&format!("{base}{path}"))
        .timeout(Duration::from_secs(60))
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
    let public = format!("127.0.0.1:{}", free_port());
    let desk = Desk::start(dir.path(), &broker, &["--public", &public]);
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
