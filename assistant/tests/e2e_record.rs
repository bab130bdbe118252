//! End to end, the record at the table (issue 15): the real `tandem play`
//! binary with a real BRLTTY (`vr` driver). Six plies of a real game are
//! played through the control socket; `tandem ctl record 1 2` answers with
//! the moves in words; on the display the "next view" key reaches the
//! record view (cells read back: `3. …`, one move pair a line); a routing
//! key over a move opens the review and the cells show the position after
//! that move; a move played meanwhile is spoken while the display stays in
//! review; the cancel key goes back to the live position.
//!
//! Without BRLTTY the test fails with a message, unless `TANDEM_SKIP_REAL=1`.

mod support;

use std::path::Path;
use std::time::Duration;

use support::{ctl, heard_until as said_until, real_brltty, real_game, Daemon, Play};
use tandem::client::Client;
use tandem_braille::chess::ChessRenderer;
use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
use tandem_braille::testing::brltty::VirtualBrltty;
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::chess::shakmaty::Chess;
use tandem_rules::chess::ChessGame;
use tandem_rules::draughts::Position;
use tandem_rules::Color;

/// What `render` gives of the list view on 40 cells, for white.
fn list_view(render: impl Fn(&StatusInfo, View, Width) -> String) -> String {
    render(
        &StatusInfo::new(Color::White),
        View::List,
        Width::new(40).unwrap(),
    )
}

/// The list view's first line of a position, on 40 cells.
fn list(pos: &Position) -> String {
    list_view(|s, v, w| StandardRenderer::default().render(pos, s, v, w)[0].text())
}

/// The chess list view's first line of a position, on 40 cells.
fn chess_list(pos: &Chess) -> String {
    list_view(|s, v, w| ChessRenderer::default().render(pos, s, v, w)[0].text())
}

#[test]
fn the_record_view_opens_a_review_that_stays_while_the_game_goes_on() {
    let Some(brltty) = real_brltty(40) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (d, mut events, mut c) = review_table(dir.path(), &brltty, "en", &[]);
    let socket = d.socket.clone();
    let game = real_game();
    let moves = game.move_texts();
    for m in &moves[..6] {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m}: {r}");
    }
    let wait_text = |want: &str| wait_text(&brltty, want);
    wait_text(&list(game.position_at(6).unwrap()));

    // `tandem ctl record 1 2`: the moves in words, numbered.
    let out = ctl(&socket, &["record", "1", "2"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    assert!(lines[0].starts_with("Move one. White: "), "{said}");
    assert!(lines[1].starts_with("Move two. White: "), "{said}");

    // List, rows, graphic, status, then the record view at the last pair.
    next_views(&brltty, 4);
    wait_text(&format!("3. {} {}", moves[4], moves[5]));
    brltty.press("LNUP").unwrap();
    let second = format!("2. {} {}", moves[2], moves[3]);
    wait_text(&second);
    // Routing over black's move of pair 2 (ply 4): the review after it.
    let cell = 3 + moves[2].len() + 1;
    brltty.route(cell).unwrap();
    let review = list(game.position_at(4).unwrap());
    wait_text(&review);
    let said_review = said_until(&mut events, "Move two. Black: ");
    assert!(!said_review.is_empty());
    let st = c.request("state", None).unwrap();
    assert_eq!(st["ok"], true);

    // The opponent moves during the review: spoken, the display stays.
    let r = c.request("move", Some(&moves[6])).unwrap();
    assert_eq!(r["ok"], true, "{r}");
    let announced = r["said"][0].as_str().unwrap().to_owned();
    let heard = said_until(&mut events, &announced);
    assert!(heard.contains(&announced), "{heard:?}");
    let live = list(game.position_at(7).unwrap());
    // The cancel key: back to the live position.
    stays_in_review_until_cancelled(&brltty, &review, &live);
    said_until(&mut events, "Back to the game.");
}

#[test]
fn a_chess_review_on_the_display_in_polish() {
    let Some(brltty) = real_brltty(40) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (d, mut events, mut c) = review_table(dir.path(), &brltty, "pl", &["--variant", "chess"]);
    let socket = d.socket.clone();
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bb5"];
    let mut g = ChessGame::new();
    for m in moves {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m}: {r}");
        g.play_text(m).unwrap();
    }
    let wait_text = |want: &str| wait_text(&brltty, want);
    wait_text(&chess_list(g.position()));
    let out = ctl(&socket, &["record"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(said.starts_with("Ruch jeden. Białe: "), "{said}");
    assert_eq!(said.lines().count(), 3, "{said}");

    next_views(&brltty, 4);
    wait_text("3. Bb5");
    brltty.press("LNUP").unwrap();
    wait_text("2. Nf3 Nc6");
    // Routing over Nf3 (ply 3).
    brltty.route(4).unwrap();
    let review = chess_list(g.position_at(3).unwrap());
    wait_text(&review);
    said_until(&mut events, "Ruch dwa. Białe: ");

    let r = c.request("move", Some("a6")).unwrap();
    assert_eq!(r["ok"], true, "{r}");
    g.play_text("a6").unwrap();
    let announced = r["said"][0].as_str().unwrap().to_owned();
    said_until(&mut events, &announced);
    let live = chess_list(g.position());
    stays_in_review_until_cancelled(&brltty, &review, &live);
    said_until(&mut events, "Powrót do gry.");
}

/// Presses the next-view key `n` times, each press waited for on the
/// display (BRLTTY may merge keys sent close together on a loaded machine).
fn next_views(brltty: &VirtualBrltty, n: usize) {
    for _ in 0..n {
        let before = brltty.snapshot();
        brltty.press("DISPMD").unwrap();
        brltty
            .wait_for(Duration::from_secs(10), |s| {
                s.text != before.text || s.cells != before.cells
            })
            .unwrap_or_else(|e| panic!("the next view never showed: {e:?}"));
    }
}

/// The display keeps showing `review` (not `live`, for 2 s) until the
/// cancel key, then shows `live`.
fn stays_in_review_until_cancelled(brltty: &VirtualBrltty, review: &str, live: &str) {
    assert!(
        brltty
            .wait_for(Duration::from_secs(2), |s| s.text.trim_end() == live)
            .is_err(),
        "the display left the review"
    );
    assert_eq!(brltty.snapshot().text.trim_end(), review);
    brltty.press("KEY_ESCAPE").unwrap();
    wait_text(brltty, live);
}

/// Waits until the display's text is `want` (trailing blanks aside).
fn wait_text(brltty: &VirtualBrltty, want: &str) {
    brltty
        .wait_for(Duration::from_secs(10), |s| {
            s.text.trim_end() == want.trim_end()
        })
        .unwrap_or_else(|e| panic!("the display never showed {want:?}: {e:?}"));
}

/// `tandem play` in `dir`, in `lang` (and `extra`) speaking as text, on
/// `brltty`, journaling to `DIR/game.jsonl`, 90 minutes a player: the
/// daemon, a client subscribed to its events and one for requests.
fn review_table(
    dir: &Path,
    brltty: &VirtualBrltty,
    lang: &str,
    extra: &[&str],
) -> (Daemon, Client, Client) {
    let d = Play::in_dir(dir)
        .args(["--lang", lang, "--speech", "text", "--control", "90m"])
        .args(extra)
        .brltty(brltty)
        .journal(&dir.join("game.jsonl"))
        .start();
    let events = d.subscribed();
    let c = d.client();
    (d, events, c)
}
