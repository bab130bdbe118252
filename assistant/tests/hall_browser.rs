//! The desk's page in a real browser: headless Chromium driven through
//! WebDriver (Debian's `chromedriver`, spoken to over plain HTTP) against a
//! real Mosquitto, real tables and a real `tandem hall`. The page loads, a
//! board changes after a `tandem ctl move`, an alert appears in the live
//! region after a mismatch, the accessibility tree (read through the
//! DevTools protocol) has the live region and a heading per table, and a
//! screenshot is kept as the test's artifact in `target/hall-artifacts/`.

mod hall_common;
mod support;

use std::path::PathBuf;
use std::time::Duration;

use hall_common::{ctl_ok, hall, journal_of, table, wait_for, Broker, Desk, EVENT};
use serde_json::{json, Value};
use support::browser::Browser;

fn artifacts() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/hall-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_desk_page_in_chromium_follows_moves_and_alerts() {
    let (dir, broker, desk) = hall(2);
    let t1 = table(dir.path(), &broker, 1, &[]);
    let t2 = table(dir.path(), &broker, 2, &["--variant", "chess"]);
    desk.wait_table(2, "table 2 at the desk", |t| t["variant"] == "chess");
    desk.wait_table(1, "table 1 at the desk", |t| t["ply"] == 0);
    let b = Browser::start();
    b.go(&format!("{}/", desk.base));
    // The page loads: a heading per table.
    b.wait_js(
        "table 1's heading",
        "const h = document.querySelector('#table-1 h2'); return h && h.textContent.includes('White 1 against Black 1') && h.textContent;",
    );
    b.wait_js(
        "table 2's heading",
        "const h = document.querySelector('#table-2 h2'); return h && h.textContent;",
    );
    // A move at the table changes the board on the page.
    ctl_ok(&t1, &["move", "32-28"]);
    b.wait_js(
        "the board after 32-28",
        "return !!document.querySelector('svg[data-table=\"1\"] [data-square=\"28\"][data-piece=\"w\"]');",
    );
    b.wait_js(
        "the last move in words",
        "return document.querySelector('#table-1').textContent.includes('32-28');",
    );
    let words = b.js("return document.querySelector('#table-1 .words').textContent;");
    assert!(words.as_str().unwrap().contains("twenty-eight"), "{words}");
    // A change that leaves the board as it is (the clocks paused): the
    // stream sends the table without its board (`board_same`), and the page
    // keeps the board it drew, the same element, with its words.
    let stream = read_events(&desk.base);
    b.wait_js(
        "black's clock running",
        "const c = document.querySelector('#table-1 .clocks'); return c && !c.textContent.includes('clock stopped');",
    );
    b.js("window.keptBoard = document.querySelector('svg[data-table=\"1\"]'); return true;");
    ctl_ok(&t1, &["pause"]);
    b.wait_js(
        "the clocks stopped on the page",
        "return document.querySelector('#table-1 .clocks').textContent.includes('clock stopped');",
    );
    let kept = b.js(
        "const s = document.querySelector('svg[data-table=\"1\"]'); \
         return s === window.keptBoard && !!s.querySelector('[data-square=\"28\"][data-piece=\"w\"]') \
         && document.querySelector('#table-1 .words').textContent.includes('twenty-eight');",
    );
    assert_eq!(kept, json!(true), "the board was drawn again, or lost");
    let paused = wait_for("the paused table in the stream", || {
        stream
            .lock()
            .unwrap()
            .iter()
            .rev()
            .find(|v| v["table"] == 1 && v["paused"] == true)
            .cloned()
            .ok_or_else(|| "not yet".to_owned())
    });
    assert_eq!(paused["board_same"], true, "{paused}");
    for k in [
        "board_svg",
        "board",
        "diagram",
        "words",
        "braille",
        "braille_text",
    ] {
        assert!(paused.get(k).is_none(), "{k} sent again: {paused}");
    }
    ctl_ok(&t1, &["resume"]);
    b.wait_js(
        "the clocks running again",
        "return !document.querySelector('#table-1 .clocks').textContent.includes('clock stopped');",
    );
    // The boards differ: an alert in the live region.
    ctl_ok(&t1, &["mismatch"]);
    let alert = b.wait_js(
        "the mismatch alert",
        "const p = document.querySelector('#alerts p'); return p && p.textContent;",
    );
    assert!(alert.as_str().unwrap().contains("boards differ"), "{alert}");
    b.wait_js(
        "table 1 marked",
        "return document.querySelector('#table-1').classList.contains('alerting');",
    );
    // Chess at table 2: a move changes its diagram too.
    ctl_ok(&t2, &["move", "e4"]);
    b.wait_js(
        "the chess move",
        "return document.querySelector('#table-2').textContent.includes('e4');",
    );
    let png = b.screenshot();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(artifacts().join("desk.png"), &png).unwrap();
    // The accessibility tree: the live region and the tables' headings.
    b.cdp("Accessibility.enable", json!({}));
    let tree = b.cdp("Accessibility.getFullAXTree", json!({}));
    let nodes = tree["nodes"].as_array().unwrap();
    let role = |n: &Value| n["role"]["value"].as_str().unwrap_or("").to_owned();
    let name = |n: &Value| n["name"]["value"].as_str().unwrap_or("").to_owned();
    let prop = |n: &Value, p: &str| {
        n["properties"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|x| x["name"] == p)
            .map(|x| x["value"]["value"].clone())
    };
    let log = nodes
        .iter()
        .find(|n| role(n) == "log")
        .expect("a live log region for the alerts");
    assert_eq!(prop(log, "live"), Some(json!("assertive")), "{log}");
    let headings: Vec<String> = nodes
        .iter()
        .filter(|n| role(n) == "heading")
        .map(name)
        .collect();
    assert!(headings.iter().any(|h| h == "Alerts"), "{headings:?}");
    assert!(
        headings
            .iter()
            .any(|h| h.starts_with("Table 1: White 1 against Black 1")),
        "{headings:?}"
    );
    assert!(
        headings.iter().any(|h| h.starts_with("Table 2:")),
        "{headings:?}"
    );
    let buttons: Vec<String> = nodes
        .iter()
        .filter(|n| role(n) == "button")
        .map(name)
        .collect();
    assert!(buttons.iter().any(|b| b == "Pause table 1"), "{buttons:?}");
    assert!(
        buttons.iter().any(|b| b == "Start every clock"),
        "{buttons:?}"
    );
    std::fs::write(
        artifacts().join("desk-ax-tree.json"),
        serde_json::to_vec_pretty(&tree).unwrap(),
    )
    .unwrap();
    // The table's own page: moves and the journal's events.
    b.go(&format!("{}/tables/1", desk.base));
    b.wait_js(
        "the detail page",
        "const m = document.querySelector('#moves li'); return m && m.textContent === '32-28';",
    );
    b.wait_js(
        "the mismatch in the events",
        "return document.querySelector('#events').textContent.includes('mismatch');",
    );
    // The arbiter takes a ply back and sets a clock from the table's page
    // (the confirmation answered yes): done at the table as the arbiter's.
    b.js("window.confirm = () => true;
         document.getElementById('takeback-plies').value = '1';
         document.getElementById('takeback-why').value = 'boards differed';
         document.querySelector('#takeback-form button').click();
         document.getElementById('clock-side').value = 'black';
         document.getElementById('clock-seconds').value = '600';
         document.querySelector('#clock-form button').click();
         return true;");
    b.wait_js(
        "the takeback and the clock set in the events",
        "const t = document.querySelector('#events').textContent;
         return t.includes('\"correction\"') && t.includes('\"clock-set\"');",
    );
    let back = support::journal_events(&journal_of(dir.path(), 1), "correction");
    assert_eq!(
        (back[0]["source"].as_str(), back[0]["reason"].as_str()),
        (Some("arbiter"), Some("boards differed"))
    );
    std::fs::write(artifacts().join("table-1.png"), b.screenshot()).unwrap();
}

/// The `table` events of the desk's live stream, read as a page reads
/// them, from now on (the snapshot's tables included).
fn read_events(base: &str) -> std::sync::Arc<std::sync::Mutex<Vec<Value>>> {
    use std::io::BufRead;
    let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let out = got.clone();
    let r = ureq::get(&format!("{base}/events"))
        .call()
        .expect("the desk's live stream");
    std::thread::spawn(move || {
        let mut rd = std::io::BufReader::new(r.into_reader());
        let mut line = String::new();
        while rd.read_line(&mut line).is_ok_and(|n| n > 0) {
            if let Some(v) = line
                .strip_prefix("data:")
                .and_then(|d| serde_json::from_str::<Value>(d.trim()).ok())
            {
                let mut out = out.lock().unwrap();
                match v["tables"].as_array() {
                    Some(list) => out.extend(list.iter().cloned()),
                    None => out.push(v),
                }
            }
            line.clear();
        }
    });
    got
}

/// The pieces of a PDN FEN (`W:W31,32,K45:B1-20`): square and piece code
/// (`w` `b` men, `W` `B` kings), sorted.
fn draughts_pieces(fen: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in fen.split(':').skip(1) {
        let (side, list) = part.split_at(1);
        for item in list.split(',').filter(|x| !x.is_empty()) {
            let (king, sq) = match item.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let code = match (side, king) {
                ("W", false) => "w",
                ("W", true) => "W",
                (_, false) => "b",
                (_, true) => "B",
            };
            let (a, z) = match sq.split_once('-') {
                Some((a, z)) => (a.parse::<u32>().unwrap(), z.parse::<u32>().unwrap()),
                None => (sq.parse().unwrap(), sq.parse().unwrap()),
            };
            for n in a..=z {
                out.push(format!("{n}:{code}"));
            }
        }
    }
    out.sort();
    out
}

/// The pieces of a chess FEN's board (`rnbqkbnr/…`): square and FEN letter, sorted.
fn chess_pieces(fen: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, rank) in fen.split(' ').next().unwrap().split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
            } else {
                out.push(format!("{}{}:{c}", (b'a' + file) as char, 8 - i));
                file += 1;
            }
        }
    }
    out.sort();
    out
}

/// The pieces drawn in table `n`'s SVG: `square:piece[:count]`, sorted.
fn svg_pieces(b: &Browser, n: u32) -> Vec<String> {
    let v = b.js(&format!(
        "return [...document.querySelectorAll('svg[data-table=\"{n}\"] [data-piece]')].map(e => \
         e.dataset.square + ':' + e.dataset.piece + (e.dataset.count ? ':' + e.dataset.count : ''));"
    ));
    let mut out: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_owned())
        .collect();
    out.sort();
    out
}

/// A table only as its relay's messages (a start line and a state), for
/// the overview of many tables: `mosquitto_pub` as table `n`.
fn simulated_table(broker: &Broker, n: u32, state: Value) {
    use tandem::journal::{line_hash, wall_now, Event, Record, StartInfo, GENESIS};
    let start = StartInfo {
        variant: state["variant"].as_str().unwrap().into(),
        fen: state["fen"].as_str().unwrap().into(),
        control: "90m".into(),
        warnings_s: vec![],
        white: Some(format!("White {n}")),
        black: Some(format!("Black {n}")),
        event: Some(EVENT.into()),
        round: None,
        blind: "white".into(),
        lang: "en".into(),
        options: Default::default(),
        version: "test".into(),
    };
    let r = Record {
        seq: 1,
        wall: wall_now(),
        t_ms: 0,
        prev: GENESIS.to_owned(),
        event: Event::Start(start),
    };
    let line = serde_json::to_string(&r).unwrap();
    let msg = json!({"seq": 1, "hash": line_hash(line.as_bytes()), "line": line});
    let (user, pw) = (format!("table{n}"), format!("pw{n}"));
    let topic = |leaf: &str| format!("tandem/{EVENT}/table/{n}/{leaf}");
    assert!(broker.publish(&user, &pw, &topic("journal"), &msg.to_string()));
    assert!(broker.publish(&user, &pw, &topic("state"), &state.to_string()));
}

/// Issue 22: every table's board is an inline SVG whose pieces are the
/// position of `/api/tables` (draughts, chess, backgammon after moves),
/// the last move highlighted, a mismatch drawn on the board; the overview
/// of fifty tables fits one laptop screen; the words stay for screen
/// readers and the SVG is read once, by its label. Screenshots in
/// `target/hall-artifacts/`.
#[test]
fn every_board_is_an_svg_of_the_api_position_and_fifty_fit_one_screen() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 50);
    let (desk, public) = Desk::start_public(dir.path(), &broker, &[], &[]);
    let t1 = table(dir.path(), &broker, 1, &[]);
    let t2 = table(dir.path(), &broker, 2, &["--variant", "chess"]);
    let t3 = table(
        dir.path(),
        &broker,
        3,
        &["--variant", "backgammon", "--control", "none"],
    );
    for m in ["32-28", "19-23"] {
        ctl_ok(&t1, &["move", m]);
    }
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6"] {
        ctl_ok(&t2, &["move", m]);
    }
    ctl_ok(&t3, &["roll", "3", "1"]);
    ctl_ok(&t3, &["move", "8/5 6/5"]);
    // Forty-seven more tables, in every state the overview colours.
    let states = [
        (
            "international",
            "W:W31-50:B1-20",
            "white",
            Value::Null,
            0,
            5_400_000,
        ),
        (
            "international",
            "B:W28,31-50:B1-20",
            "black",
            Value::Null,
            2,
            5_000_000,
        ),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "black",
            Value::Null,
            0,
            0,
        ),
        (
            "international",
            "W:WK46:BK5",
            "white",
            json!("1-1"),
            0,
            1_200_000,
        ),
    ];
    for n in 4..=50u32 {
        let (variant, fen, turn, result, behind, ms) = &states[n as usize % states.len()];
        simulated_table(
            &broker,
            n,
            json!({
                "variant": variant, "fen": fen, "ply": 1, "turn": turn, "moves": [],
                "clocks": {"white": {"remaining_ms": ms}, "black": {"remaining_ms": 5_400_000u64},
                           "running": result.is_null(), "paused": false, "control": "90m"},
                "boards": {"white": {"ply": 1, "behind": behind}, "black": {"ply": 1, "behind": 0}},
                "result": result, "table": n, "event": EVENT, "seq": 2,
                "players": {"white": format!("White {n}"), "black": format!("Black {n}")},
                "state_ms": 0, "sent_ms": 0, "journal_lines": 1,
            }),
        );
    }
    let api1 = desk.wait_table(1, "table 1's moves", |t| t["ply"] == 2);
    let api2 = desk.wait_table(2, "table 2's moves", |t| t["ply"] == 7);
    let api3 = desk.wait_table(3, "table 3's play", |t| t["last_move"] == "move 8/5 6/5");
    wait_for("fifty tables at the desk", || {
        let n = desk.tables().len();
        if n == 50 {
            Ok(())
        } else {
            Err(format!("{n}"))
        }
    });

    // A laptop's screen.
    let b = Browser::start_sized("1440,900");
    b.go(&format!("{}/", desk.base));
    b.wait_js(
        "fifty boards",
        "return document.querySelectorAll('svg[data-table]').length === 50;",
    );
    // The pieces are the API's position.
    let want1 = draughts_pieces(api1["fen"].as_str().unwrap());
    wait_for("table 1's pieces", || {
        let got = svg_pieces(&b, 1);
        if got == want1 {
            Ok(())
        } else {
            Err(format!("{got:?} != {want1:?}"))
        }
    });
    let want2 = chess_pieces(api2["fen"].as_str().unwrap());
    assert_eq!(want2.len(), 31, "{want2:?}");
    wait_for("table 2's pieces", || {
        let got = svg_pieces(&b, 2);
        if got == want2 {
            Ok(())
        } else {
            Err(format!("{got:?} != {want2:?}"))
        }
    });
    // Backgammon after 3-1 played 8/5 6/5 (004 2.1's start, white's numbering).
    let mut want3: Vec<String> = [
        "24:w:2", "13:w:5", "8:w:2", "6:w:4", "5:w:2", "1:b:2", "12:b:5", "17:b:3", "19:b:5",
    ]
    .map(String::from)
    .to_vec();
    want3.sort();
    assert_eq!(api3["variant"], "backgammon");
    wait_for("table 3's checkers", || {
        let got = svg_pieces(&b, 3);
        if got == want3 {
            Ok(())
        } else {
            Err(format!("{got:?} != {want3:?}"))
        }
    });
    // The last moves highlighted: 19-23's two squares; Bxc6's two.
    let last = |n: u32| {
        b.js(&format!(
            "return document.querySelectorAll('svg[data-table=\"{n}\"] .last').length;"
        ))
    };
    assert_eq!(last(1), json!(2));
    assert_eq!(last(2), json!(2));
    assert_eq!(last(3), json!(3), "8, 5 and 6");
    // Fifty boards on one screen: none below the window's bottom.
    let below = b.js(
        "return [...document.querySelectorAll('svg[data-table]')].filter(s => s.getBoundingClientRect().bottom > innerHeight).length;",
    );
    std::fs::write(artifacts().join("desk-overview-50.png"), b.screenshot()).unwrap();
    assert_eq!(below, json!(0), "boards below the screen");
    // A mismatch: the board read back has black's 19-23 but not white's
    // 32-28 (no earlier position): 28 and 32 are drawn as differing.
    ctl_ok(&t1, &["mismatch", "W:W31-50:B1-18,20,23"]);
    let differs = b.wait_js(
        "the differing squares",
        "const d = [...document.querySelectorAll('svg[data-table=\"1\"] [data-differs=\"true\"]')].map(e => e.dataset.square).sort(); return d.length ? d : null;",
    );
    assert_eq!(differs, json!(["28", "32"]));
    b.wait_js(
        "table 1's status",
        "return document.querySelector('#table-1').dataset.status === 'differ';",
    );
    std::fs::write(
        artifacts().join("desk-overview-mismatch.png"),
        b.screenshot(),
    )
    .unwrap();
    // Read once: the SVG is an image named by its label, with nothing
    // read inside it; the words are still there.
    b.cdp("Accessibility.enable", json!({}));
    let tree = b.cdp("Accessibility.getFullAXTree", json!({}));
    let nodes = tree["nodes"].as_array().unwrap();
    let role = |n: &Value| n["role"]["value"].as_str().unwrap_or("").to_owned();
    let name = |n: &Value| n["name"]["value"].as_str().unwrap_or("").to_owned();
    let images: Vec<&Value> = nodes
        .iter()
        .filter(|n| role(n) == "image" && name(n).starts_with("Board of table "))
        .collect();
    assert_eq!(images.len(), 50, "one image a board");
    let img1 = images
        .iter()
        .find(|n| name(n).starts_with("Board of table 1:"))
        .unwrap();
    assert!(name(img1).contains("differs on"), "{}", name(img1));
    let ids: Vec<String> = img1["childIds"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| x.as_str().unwrap_or("").to_owned())
        .collect();
    for id in ids {
        let child = nodes.iter().find(|n| n["nodeId"] == id.as_str()).unwrap();
        assert!(
            child["ignored"] == true || name(child).is_empty(),
            "read inside the board: {child}"
        );
    }
    assert!(
        nodes.iter().any(|n| name(n).contains("twenty-three")),
        "the position in words is still read"
    );
    // The table's page: its board large, the mismatch drawn.
    b.go(&format!("{}/tables/1", desk.base));
    b.wait_js(
        "the large board",
        "const s = document.querySelector('#now svg[data-table=\"1\"]'); return s && s.getBoundingClientRect().width > 400 && s.querySelectorAll('[data-differs]').length === 2;",
    );
    std::fs::write(artifacts().join("table-1-mismatch.png"), b.screenshot()).unwrap();
    b.go(&format!("{}/tables/3", desk.base));
    b.wait_js(
        "the backgammon board",
        "return !!document.querySelector('#now svg[data-table=\"3\"] [data-square=\"5\"][data-count=\"2\"]');",
    );
    std::fs::write(artifacts().join("table-3-backgammon.png"), b.screenshot()).unwrap();
    // The spectators' page: the same boards, equal to its own API's positions.
    for n in [1, 2, 3] {
        desk.set_public(Some(n), true);
    }
    b.go(&format!("http://{public}/"));
    b.wait_js(
        "three public boards",
        "return document.querySelectorAll('svg[data-table]').length === 3;",
    );
    let spectators: Vec<Value> = ureq::get(&format!("http://{public}/api/tables"))
        .call()
        .unwrap()
        .into_json::<Vec<Value>>()
        .unwrap();
    for t in &spectators {
        let n = u32::try_from(t["table"].as_u64().unwrap()).unwrap();
        let fen = t["fen"].as_str().unwrap();
        let want = match t["variant"].as_str().unwrap() {
            "chess" => chess_pieces(fen),
            "backgammon" => want3.clone(),
            _ => draughts_pieces(fen),
        };
        wait_for(&format!("public table {n}'s pieces"), || {
            let got = svg_pieces(&b, n);
            if got == want {
                Ok(())
            } else {
                Err(format!("{got:?} != {want:?}"))
            }
        });
    }
    std::fs::write(artifacts().join("spectators.png"), b.screenshot()).unwrap();
    drop((t1, t2, t3));
}

/// The spectators' page with a broadcast delay (`--public-delay 6s`), live in
/// Chromium: a move shows on it only once it is 6 s old, while the desk has it at once.
#[test]
fn the_delayed_public_page_in_chromium_shows_a_move_only_after_the_delay() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let (desk, public) = Desk::start_public(dir.path(), &broker, &["--public-delay", "6s"], &[]);
    let t1 = table(dir.path(), &broker, 1, &[]);
    desk.set_public(None, true);
    let b = Browser::start();
    b.go(&format!("http://{public}/"));
    b.wait_js(
        "table 1 on the public page (after the delay)",
        "const h = document.querySelector('#table-1 h2'); return h && h.textContent.includes('White 1') && h.textContent;",
    );
    let t0 = std::time::Instant::now();
    ctl_ok(&t1, &["move", "32-28"]);
    desk.wait_table(1, "32-28 at the desk", |t| t["last_move"] == "32-28");
    let shown = "return document.querySelector('#table-1').textContent.includes('32-28');";
    let early = b.js(shown);
    if t0.elapsed() < Duration::from_secs(6) {
        assert_eq!(
            early,
            json!(false),
            "the move on the public page before the delay"
        );
    }
    b.wait_js("32-28 on the public page", shown);
    assert!(
        t0.elapsed() >= Duration::from_secs(6),
        "shown {:?} after the move",
        t0.elapsed()
    );
}
