//! The broadcast delay (`tandem hall --public ADDR --public-delay 3s`), end
//! to end with a real Mosquitto, real tables and a real desk: spectators
//! (the public API, two live streams, one of them reading slowly, the PGN
//! and PDN feeds) see a move only once it is as old as the delay, never a
//! table the arbiter hid, while the arbiter's desk shows it at once. The
//! round's PGN is read with python-chess, as a broadcast site reads it.

mod hall_common;
mod support;

use std::time::{Duration, Instant};

use hall_common::spectator::Spectator;
use hall_common::{ctl_ok, table, wait_for, Broker, Desk};
use serde_json::Value;

const DELAY: Duration = Duration::from_secs(3);

fn get(addr: &str, path: &str) -> Result<String, String> {
    ureq::get(&format!("http://{addr}{path}"))
        .timeout(Duration::from_secs(10))
        .call()
        .map_err(|e| e.to_string())?
        .into_string()
        .map_err(|e| e.to_string())
}

fn public_tables(addr: &str) -> Vec<Value> {
    serde_json::from_str::<Value>(&get(addr, "/api/tables").unwrap())
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn ply_of(tables: &[Value], n: u64) -> Option<u64> {
    tables
        .iter()
        .find(|t| t["table"] == n)
        .and_then(|t| t["ply"].as_u64())
}

#[test]
fn spectators_see_each_move_only_once_it_is_as_old_as_the_delay() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 2);
    let (desk, public) = Desk::start_public(dir.path(), &broker, &["--public-delay", "3s"], &[]);
    let t1 = table(
        dir.path(),
        &broker,
        1,
        &["--variant", "chess", "--round", "5"],
    );
    let t2 = table(dir.path(), &broker, 2, &[]);
    desk.set_public(None, true);
    let quick = Spectator::follow(&public, None);
    let slow = Spectator::follow(&public, Some(Duration::from_secs(2)));
    // Both games appear, once their first lines are as old as the delay.
    wait_for("both tables in public", || {
        let t = public_tables(&public);
        match (ply_of(&t, 1), ply_of(&t, 2)) {
            (Some(0), Some(0)) => Ok(()),
            _ => Err(format!("{t:?}")),
        }
    });

    let t0 = Instant::now();
    ctl_ok(&t1, &["move", "e4"]);
    ctl_ok(&t2, &["move", "32-28"]);
    // The arbiter's desk is not delayed.
    desk.wait_table(1, "e4 at the desk", |t| t["ply"] == 1);
    let desk_had_it = Instant::now();
    // The spectators' API: the move only once it is 3 s old.
    let mut held_back = false;
    wait_for("e4 in public", || {
        let asked = Instant::now();
        let t = public_tables(&public);
        let ply = ply_of(&t, 1).ok_or_else(|| format!("{t:?}"))?;
        if ply == 0 {
            held_back |= asked >= desk_had_it;
            return Err(format!("ply {ply} after {:?}", t0.elapsed()));
        }
        assert!(
            asked >= t0 + DELAY,
            "e4 shown {:?} after it was played",
            asked - t0
        );
        Ok(())
    });
    assert!(held_back, "the desk had e4 while spectators did not yet");
    wait_for("32-28 in public", || {
        match ply_of(&public_tables(&public), 2) {
            Some(1) => Ok(()),
            other => Err(format!("{other:?}")),
        }
    });

    // The feeds broadcast sites poll: python-chess reads the clock after e4.
    let pgn = get(&public, "/api/round.pgn").unwrap();
    let game = get(&public, "/api/tables/1/game").unwrap();
    assert_eq!(pgn.trim_end(), game.trim_end());
    assert!(pgn.contains("[Round \"5\"]"), "{pgn}");
    if let Some(games) = support::pychess::read(&pgn) {
        assert_eq!(games.len(), 1, "{pgn}");
        let g = &games[0];
        for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
            assert!(g["headers"][tag].is_string(), "{tag}: {g}");
        }
        assert_eq!(g["headers"]["White"], "White 1");
        assert_eq!(g["moves"][0]["san"], "e4");
        let clk = g["moves"][0]["clock"].as_f64().expect("a clock after e4");
        assert!(clk > 0.0, "{g}");
    }
    let pdn = get(&public, "/api/round.pdn").unwrap();
    assert!(pdn.contains("1. 32-28"), "{pdn}");
    assert!(!pdn.contains("e4"), "chess only in the PGN: {pdn}");

    // Hidden: at once, everywhere, and moves made after stay unseen.
    desk.set_public(Some(2), false);
    let hidden_at = Instant::now();
    assert_eq!(ply_of(&public_tables(&public), 2), None);
    assert!(get(&public, "/api/tables/2/game").is_err());
    assert!(!get(&public, "/api/round.pdn").unwrap().contains("32-28"));
    let csv = get(&public, "/api/results.csv").unwrap();
    assert!(!csv.lines().any(|l| l.starts_with("2,")), "{csv}");
    ctl_ok(&t2, &["move", "19-23"]);
    desk.wait_table(2, "19-23 at the desk", |t| t["ply"] == 2);
    ctl_ok(&t1, &["move", "e5"]);
    wait_for("e5 in public", || {
        match ply_of(&public_tables(&public), 1) {
            Some(2) => Ok(()),
            other => Err(format!("{other:?}")),
        }
    });
    assert_eq!(ply_of(&public_tables(&public), 2), None);

    // Both live streams, the slow one too: each view no newer than the delay allows.
    wait_for("the slow spectator catches up", || {
        let v = slow.views();
        if v.iter().any(|(_, t)| t["table"] == 1 && t["ply"] == 2) {
            Ok(())
        } else {
            Err(format!("{} views", v.len()))
        }
    });
    for (name, s) in [("quick", &quick), ("slow", &slow)] {
        let views = s.views();
        for (at, v) in &views {
            if v["table"] == 1 && v["ply"].as_u64() >= Some(1) {
                assert!(*at >= t0 + DELAY, "{name}: e4 seen too early: {v}");
            }
            if v["table"] == 2 {
                assert!(
                    *at < hidden_at + Duration::from_secs(1) || v["ply"] == 1,
                    "{name}: {v}"
                );
                assert_ne!(v["ply"], 2, "{name} saw a move of a hidden table: {v}");
            }
            assert!(
                v.get("alerts").is_none() && v.get("chain_ok").is_none(),
                "{v}"
            );
        }
        let events = s.events();
        let hide = events
            .iter()
            .position(|e| e.kind == "hide" && e.data["table"] == 2)
            .unwrap_or_else(|| panic!("{name}: no hide for table 2: {events:?}"));
        assert!(
            events[hide..]
                .iter()
                .all(|e| e.kind != "table" || e.data["table"] != 2),
            "{name}: table 2 shown after it was hidden"
        );
        assert!(
            events
                .iter()
                .all(|e| e.kind != "hide" || e.data["table"] == 2),
            "{name}: a hide names a table it was never shown"
        );
    }
    // The arbiter sees everything, undelayed.
    assert_eq!(desk.table(2).unwrap()["ply"], 2);

    // A change that leaves the board as it is (table 1's clocks paused):
    // once it is old enough, the stream sends table 1 without its board
    // (`board_same`); every such view follows one that had that board.
    ctl_ok(&t1, &["pause"]);
    let paused = wait_for("the pause in public", || {
        quick
            .events()
            .into_iter()
            .rev()
            .find(|e| e.kind == "table" && e.data["table"] == 1 && e.data["paused"] == true)
            .map(|e| e.data)
            .ok_or_else(|| "not yet".to_owned())
    });
    assert_eq!(paused["board_same"], true, "{paused}");
    assert!(paused.get("board_svg").is_none(), "{paused}");
    for (name, s) in [("quick", &quick), ("slow", &slow)] {
        let mut boards: std::collections::HashMap<u64, Value> = Default::default();
        for e in s.events() {
            let views = match e.kind.as_str() {
                "snapshot" => e.data["tables"].as_array().cloned().unwrap_or_default(),
                "table" => vec![e.data],
                "hide" => {
                    boards.remove(&e.data["table"].as_u64().unwrap());
                    continue;
                }
                _ => continue,
            };
            for v in views {
                let n = v["table"].as_u64().unwrap();
                if v["board_same"] == true {
                    let had = boards
                        .get(&n)
                        .unwrap_or_else(|| panic!("{name}: board_same before any board: {v}"));
                    assert_eq!(had["fen"], v["fen"], "{name}: {v}");
                } else {
                    assert!(v["board_svg"].is_string(), "{name}: no board: {v}");
                    boards.insert(n, v);
                }
            }
        }
    }
}
