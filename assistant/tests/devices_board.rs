//! The sighted seat's page (issue 33; docs/devices.md) in real headless
//! Chromium through WebDriver, against the real daemon: a device paired for
//! a sighted side (`--blind` names the other) opens the board page; whole
//! short games are played on it by clicks on the drawn board (draughts with
//! a double capture and a move made by the keyboard, chess from black's
//! chair with a draw offered (asked twice) and declined, and a promotion
//! chosen by its buttons, backgammon with the dice entered, the checkers
//! tapped (one by both dice in one tap pair), a double taken and one passed), resigning asked twice; the
//! journal holds each move with its seat and `"source": "device"`; axe-core
//! finds nothing on the page at a phone's and a desktop's size.

mod support;

use serde_json::{json, Value};
use support::browser::Browser;
use support::ctl;
use support::devices::Table;

/// A table serving device seats on loopback, with `args`.
fn table(args: &[&str]) -> Table {
    Table::launch("127.0.0.1:0", args, &[])
}

impl Table {
    fn ctl(&self, args: &[&str]) -> Value {
        let out = ctl(&self.socket, args);
        assert!(out.status.success(), "ctl {args:?}: {out:?}");
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
    }

    /// The table's state (`tandem ctl state`).
    fn state(&self) -> Value {
        self.ctl(&["state"])
    }

    /// The journal's moves and actions from a device, as (side, text).
    fn device_moves(&self) -> Vec<(String, String)> {
        std::fs::read_to_string(&self.journal)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].clone())
            .filter(|e| (e["type"] == "move" || e["type"] == "action") && e["source"] == "device")
            .map(|e| {
                // A device plays for its seat (an opening roll the table
                // rolls is either seat's: the dice say who starts).
                if e["type"] == "move" {
                    assert_eq!(e["seat"], e["side"], "a device plays for its seat: {e}");
                }
                (
                    e["seat"].as_str().unwrap().to_owned(),
                    e["text"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }
}

/// Pairs the browser for `side` through the pairing page: it opens the
/// board page, the board drawn.
fn open_board(b: &Browser, t: &Table, side: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let code = loop {
        let out = ctl(&t.socket, &["pair", side, "--json"]);
        if out.status.success() {
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            break v["code"].as_str().unwrap().to_owned();
        }
        assert!(std::time::Instant::now() < deadline, "no pairing: {out:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    b.go(&format!("http://{}/", t.addr));
    b.wait_js(
        "the pairing form",
        "return !!document.getElementById('code');",
    );
    b.js(&format!(
        "const c = document.getElementById('code'); c.value = '{code}'; \
         document.getElementById('pair').requestSubmit(); return true;"
    ));
    b.wait_js("the board page", "return location.pathname === '/board';");
    b.wait_js(
        "the board drawn",
        "return document.querySelectorAll('#board svg .square[role=button]').length > 0;",
    );
}

/// A WebDriver element click (the pointer at its centre, as a finger).
fn click(b: &Browser, css: &str) {
    b.click(css);
}

/// A tap on a square of the drawn board.
fn tap(b: &Browser, square: &str) {
    click(b, &format!("#board .square[data-square='{square}']"));
}

/// Waits until the table's log on the page has `text`.
fn heard(b: &Browser, text: &str) {
    b.wait_js(
        &format!("{text:?} in the page's log"),
        &format!(
            "return document.getElementById('log').textContent.includes({});",
            json!(text)
        ),
    );
}

/// Waits until the table's state has `ply` plies (the page's state too).
fn wait_ply(b: &Browser, t: &Table, ply: u64) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while t.state()["ply"] != ply {
        assert!(
            std::time::Instant::now() < deadline,
            "ply {ply} never came: {}",
            t.state()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    b.wait_js(
        &format!("the page at ply {ply}"),
        &format!("return st && st.ply === {ply} && document.querySelector('#board svg') !== null;"),
    );
}

/// No violation from axe-core, at a phone's and a desktop's size.
fn no_axe_violations(b: &Browser, what: &str) {
    for (w, h) in [(1280, 900), (360, 740)] {
        b.resize(w, h);
        if let Some(v) = b.axe_violations() {
            assert!(v.is_empty(), "{what} at {w}x{h}: {v:#?}");
        }
    }
}

/// The page as a person sees it, kept as the test's artifact.
fn screenshot(b: &Browser, name: &str) {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/device-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), b.screenshot()).unwrap();
}

/// Resigning is asked twice: the first press only asks.
fn resign_twice(b: &Browser, t: &Table) {
    click(b, "#resign");
    b.wait_js(
        "the confirm step",
        "return !document.getElementById('confirm').hidden;",
    );
    assert_eq!(t.state()["result"], Value::Null, "one press never resigns");
    click(b, "#confirm-yes");
}

#[test]
fn a_draughts_game_played_by_clicks_on_the_drawn_board() {
    // White (sighted) to take two at once: 32x21x12 (27 and 17).
    let t = table(&["--blind", "black", "--fen", "W:W32,44,49:B27,17,3,8"]);
    let b = Browser::start_sized("360,740");
    open_board(&b, &t, "white");
    assert_eq!(
        b.js("return document.getElementById('title').textContent;"),
        "Your board: white"
    );
    // White at the bottom: 49 is drawn below 3.
    let y = |sq: &str| {
        b.js(&format!(
            "return document.querySelector(\"#board .square[data-square='{sq}']\").getBBox().y;"
        ))
        .as_f64()
        .unwrap()
    };
    assert!(y("49") > y("3"), "white's side at the bottom");
    // A square's button is named by its number and what stands on it.
    assert_eq!(
        b.js("return document.querySelector(\"#board .square[data-square='27']\").getAttribute('aria-label');"),
        "27, black man"
    );
    no_axe_violations(&b, "the board page");
    b.resize(360, 740);
    // The double capture by its last landing square, the only way there.
    tap(&b, "32");
    screenshot(&b, "board-draughts-phone.png");
    tap(&b, "12");
    heard(&b, "Thirty-two takes twelve");
    wait_ply(&b, &t, 1);
    // Black's reply at the table: 8x17.
    t.ctl(&["move", "8x17"]);
    wait_ply(&b, &t, 2);
    // A plain move by the keyboard: Enter on the piece's square, then on its square.
    let enter_on = |sq: &str| {
        b.js(&format!(
            "document.querySelector(\"#board .square[data-square='{sq}']\").focus(); return true;"
        ));
        b.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "kb", "actions": [
                {"type": "keyDown", "value": "\u{E007}"}, {"type": "keyUp", "value": "\u{E007}"}]}]})),
        );
    };
    enter_on("49");
    enter_on("43");
    wait_ply(&b, &t, 3);

    t.ctl(&["move", "17-21"]);
    wait_ply(&b, &t, 4);
    assert_eq!(
        b.js("return document.getElementById('last').textContent;"),
        "17-21"
    );
    // Black's move made at the table: white's board (the table's record of
    // what stands on it) lacks it, as the table says.
    assert_eq!(t.state()["boards"]["white"]["behind"], 1);
    assert_eq!(
        b.js("return document.getElementById('sync').textContent;"),
        "white's board is 1 move behind"
    );
    resign_twice(&b, &t);
    b.wait_js(
        "the game over on the page",
        "return document.getElementById('prompt').textContent.includes('over');",
    );
    assert_eq!(t.state()["result"], "0-2");
    assert_eq!(
        t.device_moves(),
        [
            ("white".to_owned(), "32x12".to_owned()),
            ("white".to_owned(), "49-43".to_owned()),
        ]
    );
}

#[test]
fn chess_from_the_board_page_black_chair_and_a_promotion_asked() {
    let b = Browser::start_sized("1024,768");
    // Fool's mate from black's chair: white plays at the table.
    let t = table(&["--variant", "chess", "--blind", "white"]);
    open_board(&b, &t, "black");
    let y = |sq: &str| {
        b.js(&format!(
            "return document.querySelector(\"#board .square[data-square='{sq}']\").getBBox().y;"
        ))
        .as_f64()
        .unwrap()
    };
    assert!(y("e7") > y("e2"), "black's side at the bottom");
    t.ctl(&["move", "f3"]);
    wait_ply(&b, &t, 1);
    tap(&b, "e7");
    tap(&b, "e5");
    wait_ply(&b, &t, 2);
    // A draw offered, asked twice; declined at the table.
    click(&b, "#draw");
    b.wait_js(
        "the confirm step",
        "return !document.getElementById('confirm').hidden;",
    );
    assert_eq!(
        t.state()["draw_offer"],
        Value::Null,
        "one press never offers"
    );
    click(&b, "#confirm-yes");
    b.wait_js("the offer made", "return st && st.draw_offer === 'black';");
    t.ctl(&["--seat", "white", "draw", "decline"]);
    b.wait_js("the offer declined", "return st && st.draw_offer === null;");
    t.ctl(&["move", "g4"]);
    wait_ply(&b, &t, 3);
    tap(&b, "d8");
    tap(&b, "h4");
    wait_ply(&b, &t, 4);
    assert_eq!(t.state()["result"], "0-1");
    assert_eq!(
        t.device_moves(),
        [
            ("black".to_owned(), "e5".to_owned()),
            ("black".to_owned(), "Qh4#".to_owned()),
        ]
    );
    drop(t);

    // A promotion: the piece asked with buttons, and mate.
    let t = table(&[
        "--variant",
        "chess",
        "--blind",
        "black",
        "--fen",
        "k7/4P3/1K6/8/8/8/8/8 w - - 0 1",
    ]);
    open_board(&b, &t, "white");
    tap(&b, "e7");
    tap(&b, "e8");
    b.wait_js(
        "the promotion asked",
        "return !document.getElementById('promotion').hidden;",
    );
    let choices =
        b.js("return [...document.querySelectorAll('#choices button')].map(b => b.textContent);");
    assert_eq!(choices, json!(["Queen", "Rook", "Bishop", "Knight"]));
    assert_eq!(t.state()["ply"], 0, "nothing played before the choice");
    screenshot(&b, "board-chess-promotion.png");
    no_axe_violations(&b, "the promotion asked");
    click(&b, "#choices button:first-child");
    wait_ply(&b, &t, 1);
    assert_eq!(t.state()["result"], "1-0");
    assert_eq!(t.device_moves(), [("white".to_owned(), "e8=Q#".to_owned())]);
}

#[test]
fn backgammon_from_the_board_page_dice_checkers_and_the_cube() {
    let t = table(&[
        "--variant",
        "backgammon",
        "--blind",
        "black",
        "--match",
        "3",
    ]);
    let b = Browser::start_sized("800,1280");
    open_board(&b, &t, "white");
    let pick = |id: &str, value: &str| {
        click(&b, &format!("#{id} option:nth-child({value})"));
    };
    // The opening roll entered on the page: white starts with 3-1.
    pick("die1", "3");
    pick("die2", "1");
    click(&b, "#roll-enter");
    heard(&b, "White starts with three one.");
    b.wait_js(
        "the move asked",
        "return document.getElementById('prompt').textContent.includes('tap a checker');",
    );
    // Each checker, then its point: 8/5 6/5.
    tap(&b, "8");
    tap(&b, "5");
    tap(&b, "6");
    tap(&b, "5");
    b.wait_js("black to roll", "return st && st.taps.actor === 'black';");
    // Black at the table: 6-5, 24/13 (black's numbering).
    t.ctl(&["move", "roll 6 5"]);
    t.ctl(&["move", "24/13"]);
    b.wait_js(
        "white may double",
        "return [...document.querySelectorAll('#actions button')].some(b => b.textContent === 'Double');",
    );
    screenshot(&b, "board-backgammon-tablet.png");
    no_axe_violations(&b, "the backgammon board");
    b.resize(800, 1280);
    click(&b, "#actions button:first-of-type");
    heard(&b, "White doubles to two.");
    t.ctl(&["move", "take"]);
    heard(&b, "Black takes.");
    pick("die1", "6");
    pick("die2", "4");
    click(&b, "#roll-enter");
    heard(&b, "White rolls six four.");
    // One checker with both dice in one tap pair: 24/14.
    tap(&b, "24");
    tap(&b, "14");
    b.wait_js("black to roll", "return st && st.taps.actor === 'black';");
    // Black redoubles; white passes, asked twice.
    t.ctl(&["move", "double"]);
    b.wait_js(
        "take or pass asked",
        "return [...document.querySelectorAll('#actions button')].some(b => b.textContent === 'Pass');",
    );
    b.js("[...document.querySelectorAll('#actions button')].find(b => b.textContent === 'Pass').id = 'pass'; return true;");
    click(&b, "#pass");
    b.wait_js(
        "the confirm step",
        "return !document.getElementById('confirm').hidden;",
    );
    assert_eq!(t.device_moves().len(), 5, "one press never passes");
    click(&b, "#confirm-yes");
    b.wait_js(
        "the pass heard",
        "return /pass/i.test(document.getElementById('log').textContent);",
    );
    let moves = t.device_moves();
    let texts: Vec<&str> = moves.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        texts,
        ["roll 31", "8/5 6/5", "double", "roll 64", "24/14", "pass"]
    );
    assert!(moves.iter().all(|(s, _)| s == "white"));
}

#[test]
fn the_words_are_in_the_seats_language_on_both_pages() {
    // The table speaks Polish; black's seat English.
    let t = table(&[
        "--lang",
        "pl",
        "--blind",
        "none",
        "--seat",
        "black:lang=en",
        "--fen",
        "W:W32,44,K49:B27,3",
    ]);
    let b = Browser::start_sized("360,740");
    open_board(&b, &t, "white");
    let label = |sq: &str| {
        b.js(&format!(
            "return document.querySelector(\"#board .square[data-square='{sq}']\").getAttribute('aria-label');"
        ))
    };
    // The page's own words too, and its language.
    b.wait_js(
        "the page in Polish",
        "return document.documentElement.lang === 'pl';",
    );
    assert_eq!(
        b.js("return [document.getElementById('title').textContent, document.getElementById('resign').textContent, document.querySelector('#board svg').getAttribute('aria-label')];"),
        json!(["Twoja plansza: białe", "Poddaj partię", "Plansza, białe na dole"])
    );
    no_axe_violations(&b, "the board page in Polish");
    b.resize(360, 740);
    assert_eq!(label("27"), "27, czarny pion");
    assert_eq!(label("49"), "49, biała damka");
    assert_eq!(label("28"), "28, puste");
    // The screen reader's page, its grid cells in the same words.
    click(&b, "header a");
    b.wait_js("the seat's page", "return location.pathname === '/seat';");
    let cell = |sq: &str| {
        b.wait_js(
            &format!("square {sq} in the grid"),
            &format!(
                "const c = document.querySelector(\"#board [data-id='{sq}']\"); \
                 return c && [...c.children].filter(n => n.getAttribute('aria-hidden') !== 'true').map(n => n.textContent).join('');"
            ),
        )
    };
    assert_eq!(cell("27"), "27, czarny pion");
    assert_eq!(
        b.js("return [document.documentElement.lang, document.getElementById('title').textContent, document.getElementById('board-label').textContent];"),
        json!(["pl", "Twoje miejsce: białe", "Plansza"])
    );
    assert_eq!(
        b.js("return [...document.querySelectorAll('#board [role=gridcell]')].find(c => !c.dataset.id).textContent;"),
        "jasne pole"
    );
    // Black's device: English.
    let b2 = Browser::start_sized("360,740");
    open_board(&b2, &t, "black");
    assert_eq!(
        b2.js("return document.querySelector(\"#board .square[data-square='27']\").getAttribute('aria-label');"),
        "27, black man"
    );
}

#[test]
fn backgammon_with_the_tables_dice_rolled_from_the_page() {
    // `--dice tandem`: the opening roll from white's page, whoever it says starts.
    let t = table(&[
        "--variant",
        "backgammon",
        "--blind",
        "black",
        "--dice",
        "tandem",
    ]);
    let b = Browser::start_sized("360,740");
    open_board(&b, &t, "white");
    // Nothing to enter: a button rolls them at the table.
    b.wait_js(
        "the roll button",
        "const x = [...document.querySelectorAll('#actions button')].find(b => b.textContent === 'Roll the dice'); if (x) x.id = 'roll-here'; return !!x;",
    );
    assert_eq!(b.js("return document.getElementById('roll').hidden;"), true);
    click(&b, "#roll-here");
    b.wait_js(
        "the opening roll heard",
        "return document.getElementById('log').textContent.includes('starts with');",
    );
    let moves = t.device_moves();
    assert_eq!(moves.len(), 1, "{moves:?}");
    let roll = moves[0].1.as_bytes();
    assert!(
        roll.len() == 7
            && roll.starts_with(b"roll ")
            && (b'1'..=b'6').contains(&roll[5])
            && (b'1'..=b'6').contains(&roll[6])
            && roll[5] != roll[6],
        "an opening roll of two different dice: {:?}",
        moves[0].1
    );
}
