//! A round, end to end, as a soak (issue 27): a real Mosquitto (passwords
//! and ACL), a real desk with a delayed public server, and real tables of
//! all three games playing random legal moves at random intervals, while
//! the arbiter starts every clock and hides a table, a table is SIGKILLed
//! and resumed, its braille display (BRLTTY) is lost and comes back, the
//! broker is restarted, a hostile table (its own
//! credentials) sends junk, oversized and retained messages and floods its
//! alerts, and two spectators follow the public stream (one reading
//! slowly). At the end: every desk copy equals its table's journal byte for
//! byte and verifies; every table's own alerts reached the desk; no
//! spectator saw a move before it was as old as the delay, nor anything of
//! the hidden table after it was hidden.
//!
//! The suite runs a short round (a dozen actions a table, about 20 s);
//! `HALL_SOAK_ACTIONS=200` plays longer, `HALL_SOAK_SEED=N` replays a round.

mod hall_common;
mod support;

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hall_common::spectator::Spectator;
use hall_common::{ctl_ok, journal_of, table, wait_for, Broker, Desk, EVENT};
use serde_json::{json, Value};
use support::{real_brltty, Daemon, Play};
use tandem_rules::backgammon::{Match, MatchOptions};
use tandem_rules::chess::ChessGame;
use tandem_rules::draughts::{Game, Variant};
use tandem_rules::TableGame;
use tandem_testkit::Rng;

const DELAY: Duration = Duration::from_secs(2);

/// The game a table plays, mirrored in the test to pick legal moves.
enum Model {
    Draughts(Game),
    Chess(ChessGame),
    Backgammon(Match),
}

impl Model {
    /// The next action as `tandem ctl` arguments, played on the mirror; `None` when done.
    fn next(&mut self, rng: &mut Rng) -> Option<Vec<String>> {
        match self {
            Model::Draughts(g) => {
                let legal = g.legal();
                if legal.is_empty() || TableGame::result(g).is_some() {
                    return None;
                }
                let m = legal[rng.index(legal.len())];
                let text = g.move_text(&m);
                g.play_move(&m).ok()?;
                Some(vec!["move".into(), text])
            }
            Model::Chess(g) => {
                let legal = g.legal_moves();
                if legal.is_empty() || g.outcome().is_some() {
                    return None;
                }
                let m = legal[rng.index(legal.len())];
                g.play(&m).ok()?;
                Some(vec!["move".into(), g.sans().last()?.clone()])
            }
            Model::Backgammon(m) => {
                if TableGame::result(m).is_some() {
                    return None;
                }
                let legal = m.legal();
                if legal.is_empty() {
                    // On roll: the dice (different ones, so an opening roll counts too).
                    let a = 1 + rng.index(6);
                    let b = 1 + (a + rng.index(5)) % 6;
                    m.act_text(&format!("roll {a}{b}")).ok()?;
                    return Some(vec!["roll".into(), a.to_string(), b.to_string()]);
                }
                let p = legal[rng.index(legal.len())];
                let text = m.move_text(&p);
                m.act(tandem_rules::backgammon::Action::Move(p)).ok()?;
                Some(vec!["move".into(), text])
            }
        }
    }
}

fn ply_now(d: &Daemon) -> u64 {
    let out = support::ctl(&d.socket, &["state"]);
    serde_json::from_slice::<Value>(&out.stdout).map_or(0, |v| v["ply"].as_u64().unwrap_or(0))
}

/// The hostile table's traffic, on its own topics (the ACL allows no other):
/// junk, forged and made-up lines, a junk retained state, an alert flood,
/// an oversized retained message. One `mosquitto_pub -l` a topic.
fn hostile(broker: &Broker, n: u32, topic: &str, lines: &[String], retain: bool) {
    let mut c = Command::new("mosquitto_pub");
    c.args(["-h", "127.0.0.1", "-p", &broker.port.to_string(), "-q", "1"])
        .args(["-u", &format!("table{n}"), "-P", &format!("pw{n}")])
        .args(["-t", &format!("tandem/{EVENT}/table/{n}/{topic}"), "-l"]);
    if retain {
        c.arg("-r");
    }
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    assert!(child.wait().unwrap().success(), "mosquitto_pub {topic}");
}

fn junk_lines(n: u32) -> Vec<String> {
    let line = r#"{"seq":1,"wall":"2026-01-01T00:00:00.000Z","t_ms":0,"prev":"0000000000000000000000000000000000000000000000000000000000000000","event":{"type":"tick"}}"#;
    let hash = tandem::journal::line_hash(line.as_bytes());
    vec![
        "not json at all".into(),
        json!({"seq": 1, "hash": "00", "line": line}).to_string(),
        json!({"seq": 1, "hash": hash, "line": line, "game": "made-up"}).to_string(),
        json!({"seq": 0, "hash": hash, "line": line}).to_string(),
        json!({"seq": u64::MAX, "hash": hash, "line": line}).to_string(),
        json!({"seq": 7, "hash": hash, "line": "x".repeat(5000), "game": format!("t{n}")})
            .to_string(),
    ]
}

/// Table 1, with its braille display on BRLTTY at `host`; resumed when its
/// journal exists (as `hall_common::table`, with a display).
fn braille_table(dir: &std::path::Path, broker: &Broker, host: &str) -> Daemon {
    let tdir = dir.join("t1");
    std::fs::create_dir_all(&tdir).unwrap();
    std::fs::write(tdir.join("secret"), hall_common::SECRET).unwrap();
    let journal = journal_of(dir, 1);
    let mut p = Play::in_dir(&tdir)
        .args([
            "--speech",
            "text",
            "--braille",
            "brlapi",
            "--brlapi-host",
            host,
        ])
        .args(["--lang", "en"])
        .state_home(&tdir.join("state"))
        .stderr_file(tdir.join(format!("stderr-{}", rand_suffix())))
        .env("TANDEM_LOG", "warn");
    p = if journal.exists() {
        p.arg("--resume").arg(&journal)
    } else {
        p.arg("--journal")
            .arg(&journal)
            .args(["--white", "White 1", "--black", "Black 1"])
    };
    p.args([
        "--relay",
        &broker.url("table1", "pw1"),
        "--event",
        EVENT,
        "--table",
        "1",
    ])
    .arg("--desk-key")
    .arg(hall_common::desk_keys(dir).1)
    .start()
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

#[test]
fn a_whole_round_with_kills_a_broker_restart_a_hostile_table_and_spectators() {
    round(false);
}

/// The same round with the hostile table's alert flood after table 1's
/// `resumed` alert: the flood must not push it out of the desk's list.
/// Needs issue 27's per-table alert bounds ("Alerts drown each other",
/// done on branch h27s); run it with `--ignored` until that is merged.
#[test]
fn a_flood_of_junk_alerts_after_a_resume_loses_no_other_tables_alert() {
    round(true);
}

/// Plays the round; `flood_late`: the alert flood comes after table 1 resumed.
fn round(flood_late: bool) {
    let seed = std::env::var("HALL_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    eprintln!("hall soak: HALL_SOAK_SEED={seed}");
    let actions: usize = std::env::var("HALL_SOAK_ACTIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let mut rng = Rng(seed);
    let Some(mut brltty) = real_brltty(40) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut broker = Broker::start(dir.path(), 4);
    let (desk, public) = Desk::start_public(dir.path(), &broker, &["--public-delay", "2s"], &[]);
    let extra: [&[&str]; 3] = [
        &[],
        &["--variant", "chess"],
        &["--variant", "backgammon", "--match", "7"],
    ];
    let mut tables: Vec<Daemon> = (1..=3)
        .map(|n| match n {
            1 => braille_table(dir.path(), &broker, &brltty.host()),
            n => table(dir.path(), &broker, n, extra[n as usize - 1]),
        })
        .collect();
    let mut models = [
        Model::Draughts(Game::new(Variant::International)),
        Model::Chess(ChessGame::new()),
        Model::Backgammon(Match::new(MatchOptions { length: 7 })),
    ];
    // The round starts together: every clock stopped, then the arbiter's start.
    for t in &tables {
        ctl_ok(t, &["pause"]);
    }
    for n in 1..=3u64 {
        desk.wait_table(n, "every table at the desk", |t| {
            t["clocks"]["running"] == false
        });
    }
    desk.set_public(None, true);
    let quick = Spectator::follow(&public, None);
    let slow = Spectator::follow(&public, Some(Duration::from_secs(3)));
    let r = desk.command(None, "start", "");
    assert_eq!(r["ok"], true, "{r}");
    for n in 1..=3u64 {
        desk.wait_table(n, "every clock started by the arbiter", |t| {
            t["clocks"]["running"] == true
        });
    }

    // (table, when the action was sent, the table's ply after it)
    let mut done: Vec<(u64, Instant, u64)> = Vec::new();
    let mut hidden: Option<(Instant, u64)> = None;
    let mut playing = [true; 3];
    for step in 0..actions * 3 {
        let i = rng.index(3);
        if playing[i] {
            match models[i].next(&mut rng) {
                Some(args) => {
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    let sent = Instant::now();
                    let out = support::ctl(&tables[i].socket, &args);
                    if out.status.success() {
                        done.push((i as u64 + 1, sent, ply_now(&tables[i])));
                    } else {
                        // The mirror and the table disagree (a backgammon pass): stop this one.
                        eprintln!("table {}: {args:?}: {out:?}", i + 1);
                        playing[i] = false;
                    }
                }
                None => playing[i] = false,
            }
        }
        std::thread::sleep(Duration::from_millis(20 + rng.index(250) as u64));
        match step {
            // The hostile table: junk on every topic it may write.
            s if s == actions / 2 => {
                hostile(&broker, 4, "journal", &junk_lines(4), false);
                hostile(&broker, 4, "state", &["{junk".into()], true);
                hostile(&broker, 4, "online", &["x".repeat(64 * 1024)], true);
            }
            // Its alerts flood, before every other alert of the round or
            // (`flood_late`) after table 1's.
            s if s == if flood_late { actions * 5 / 4 } else { 1 } => {
                let flood: Vec<String> = (0..600)
                    .map(|k| {
                        json!({"kind": "flag", "text": format!("junk {k}"), "seq": null,
                               "wall": "2026-01-01T00:00:00.000Z"})
                        .to_string()
                    })
                    .collect();
                hostile(&broker, 4, "alert", &flood, false);
            }
            // Table 1's braille display lost, and back.
            s if s == actions / 3 => brltty.kill(),
            s if s == actions * 2 / 3 => {
                brltty.restart().expect("BRLTTY restarts");
                // The table finds it again (and says so) before anything else happens to it.
                wait_for("table 1's braille display back", || {
                    let j = std::fs::read_to_string(journal_of(dir.path(), 1)).unwrap_or_default();
                    if j.contains("The braille display works again.") {
                        Ok(())
                    } else {
                        Err("not yet".into())
                    }
                });
            }
            // Table 1 SIGKILLed, and resumed.
            s if s == actions => {
                tables[0].kill();
                std::thread::sleep(Duration::from_millis(300));
                tables[0] = braille_table(dir.path(), &broker, &brltty.host());
                ctl_ok(&tables[0], &["resume"]);
            }
            // The arbiter hides the backgammon table from spectators.
            s if s == actions * 3 / 2 => {
                desk.set_public(Some(3), false);
                hidden = Some((Instant::now(), ply_now(&tables[2])));
            }
            // The broker restarted mid-round.
            s if s == actions * 2 => {
                broker.kill();
                std::thread::sleep(Duration::from_millis(500));
                broker.restart();
            }
            _ => {}
        }
    }
    for (i, t) in tables.iter().enumerate() {
        ctl_ok(t, &["say", &format!("end of round at table {}", i + 1)]);
    }
    for n in 1..=3 {
        let k = done.iter().filter(|(t, _, _)| *t == n).count();
        eprintln!("hall soak: table {n}: {k} actions");
        assert!(k >= 3, "table {n} played only {k} actions");
    }

    // Every desk copy is its table's journal, byte for byte, and verifies.
    for n in 1..=3u32 {
        let copy = desk.wait_copy(n, &journal_of(dir.path(), n));
        let f = dir.path().join(format!("copy-{n}.jsonl"));
        std::fs::write(&f, &copy).unwrap();
        support::verify_ok(&f);
        let v = desk.table(u64::from(n)).unwrap();
        assert_eq!(v["chain_ok"], true, "table {n}: {v}");
    }
    // Each game's record under its own ending: the round's PDN holds the
    // draughts game, its PGN the chess game, and the backgammon match is a
    // `.mat` of its own, in neither (gnubg's match file is one match).
    let round_pdn = desk.get_text("/api/round.pdn").unwrap();
    let round_pgn = desk.get_text("/api/round.pgn").unwrap();
    let mat = desk.get_text("/api/tables/3/game").unwrap();
    assert!(round_pdn.contains("[GameType \"20"), "{round_pdn}");
    assert!(round_pgn.contains("[%clk "), "{round_pgn}");
    assert!(mat.contains(" 7 point match"), "{mat}");
    for round in [&round_pdn, &round_pgn] {
        assert!(
            !round.contains("point match"),
            "a .mat in a round file: {round}"
        );
    }
    // No alert lost: each table's own alerts (from its journal) are at the desk.
    let view = desk.get("/api/view");
    let alerts = view["alerts"].as_array().unwrap();
    let v1 = desk.table(1).unwrap();
    let a1 = v1["alerts"].as_array().unwrap();
    assert!(
        a1.iter().any(|a| a["kind"] == "resumed"),
        "table 1's resumed alert: {v1}"
    );
    for text in [
        "The braille display is not answering. Play goes on.",
        "The braille display works again.",
    ] {
        assert!(
            a1.iter()
                .any(|a| a["kind"] == "device" && a["text"] == text),
            "table 1's device alert {text:?}: {v1}"
        );
        assert!(
            alerts
                .iter()
                .any(|a| a["table"] == 1 && a["alert"]["text"] == text),
            "{text:?} not in the desk's list"
        );
    }
    assert!(
        alerts
            .iter()
            .any(|a| a["table"] == 1 && a["alert"]["kind"] == "resumed"),
        "table 1's resumed alert pushed out of the desk's list by table 4's flood"
    );

    // The spectators: nothing undelayed, nothing hidden.
    let (hidden_at, hidden_ply) = hidden.expect("the table was hidden");
    wait_for("the slow spectator reads on", || {
        let n = slow.views().len();
        if n > 3 {
            Ok(())
        } else {
            Err(format!("{n} views"))
        }
    });
    std::thread::sleep(DELAY + Duration::from_secs(1));
    for (name, s) in [("quick", &quick), ("slow", &slow)] {
        let views = s.views();
        for n in [1, 2] {
            assert!(
                views
                    .iter()
                    .any(|(_, v)| v["table"] == n && v["ply"].as_u64() > Some(0)),
                "{name} saw no move of table {n}"
            );
        }
        for (at, v) in &views {
            let n = v["table"].as_u64().unwrap();
            let ply = v["ply"].as_u64().unwrap_or(0);
            assert!(n <= 3, "{name} was shown the hostile table {n}? {v}");
            assert!(v.get("alerts").is_none() && v.get("journal_lines").is_none());
            // The first action that brought the table to this ply.
            if let Some((_, sent, _)) = done.iter().find(|(t, _, p)| *t == n && *p >= ply) {
                if ply > 0 {
                    assert!(
                        *at >= *sent + DELAY,
                        "{name}: table {n} ply {ply} shown {:?} after it was played",
                        at.saturating_duration_since(*sent)
                    );
                }
            }
            if n == 3 {
                assert!(
                    ply <= hidden_ply,
                    "{name}: table 3 ply {ply} shown after it was hidden at ply {hidden_ply}"
                );
            }
        }
        let events = s.events();
        if let Some(h) = events
            .iter()
            .position(|e| e.kind == "hide" && e.data["table"] == 3)
        {
            assert!(events[h].at >= hidden_at);
            assert!(
                events[h..]
                    .iter()
                    .all(|e| e.kind != "table" || e.data["table"] != 3),
                "{name}: table 3 shown after its hide"
            );
        }
    }
    let shown = serde_json::from_str::<Value>(
        &ureq::get(&format!("http://{public}/api/tables"))
            .call()
            .unwrap()
            .into_string()
            .unwrap(),
    )
    .unwrap();
    let numbers: Vec<u64> = shown
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["table"].as_u64())
        .collect();
    assert!(!numbers.contains(&3), "hidden table in public: {shown}");
    assert!(numbers.contains(&1) && numbers.contains(&2), "{shown}");
}
