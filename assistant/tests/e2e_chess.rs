//! End to end, chess (002 annex E): the real `tandem play --variant chess`
//! binary with a real BRLTTY (`vr` driver) and a private speech-dispatcher
//! plays a real game (Aronian - Munizaba, Bratislava 1993): the first move
//! entered with two routing keys on the braille display, then white through
//! the control socket and black typed; a board behind, a board that differs
//! (clock stopped), an incorrect draw claim (three minutes to the opponent,
//! 9.5(b)), resignation; then the announcements, the audio, the braille
//! cells, the journal and the exported PGN are checked. A second test kills
//! the daemon mid-game, resumes it, and ends the game by a correct claim of
//! threefold repetition.
//!
//! Without BRLTTY or speech-dispatcher the real-component test fails with a
//! message, unless `TANDEM_SKIP_REAL` is set outside CI.

mod support;

use std::time::Duration;

use support::{
    assert_spoke_since, ctl, play_ply, real_english_table, said_until, tandem, wait_ply, Play,
};
use tandem_braille::chess::ChessRenderer;
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::chess::pgn::{parse_pgn, replay, Replay};
use tandem_rules::chess::shakmaty::{Chess, Square};
use tandem_rules::chess::{square_number, ChessGame};

fn aronian_game() -> ChessGame {
    let path = format!(
        "{}/../rules/tests/data/chess/aronian-1993-2002.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    match replay(&parse_pgn(&text)[0]) {
        Replay::Ok(g) => g,
        other => panic!("the test game does not replay: {other:?}"),
    }
}

/// The rows view's lines of a position on a 40-cell display.
fn rows(pos: &Chess) -> Vec<tandem_braille::chess::ChessLine> {
    ChessRenderer::default().render(
        pos,
        &StatusInfo::new(tandem_rules::Color::White),
        View::Rows,
        Width::new(40).unwrap(),
    )
}

/// The line and cell of the rows view that show `sq`.
fn cell_of(lines: &[tandem_braille::chess::ChessLine], sq: Square) -> (usize, usize) {
    let n = square_number(sq);
    for (i, l) in lines.iter().enumerate() {
        if let Some(c) = l.squares().iter().position(|s| *s == Some(n)) {
            return (i, c);
        }
    }
    panic!("{sq} is on no line");
}

#[test]
fn a_real_chess_game_with_brltty_and_speech_dispatcher() {
    let Some((brltty, speechd, dir, journal, mark)) = real_english_table("game.jsonl") else {
        return;
    };
    let mut d = Play::in_dir(dir.path())
        .args(["--variant", "chess", "--lang", "en", "--control", "90m+30s"])
        .args(["--white", "Aronian, Levon", "--black", "Munizaba, Slobodan"])
        .args(["--event", "Wch U12"])
        .real(&brltty, &speechd)
        .journal(&journal)
        .start();
    let socket = d.socket.clone();
    let mut events = d.subscribed();
    let mut c = d.client();
    let game = aronian_game();
    let moves: Vec<String> = game.sans().to_vec();
    assert_eq!(moves.len(), 75);

    // 1. e4 with the routing keys: the rows view (one key), rank 2, e2, rank 4, e4.
    let start = tandem_rules::chess::start();
    let lines = rows(&start);
    let wait_text = |want: &str| {
        brltty
            .wait_for(Duration::from_secs(10), |s| {
                s.text.trim_end() == want.trim_end()
            })
            .unwrap_or_else(|e| panic!("the display never showed {want:?}: {e:?}"))
    };
    let list = ChessRenderer::default().render(
        &start,
        &StatusInfo::new(tandem_rules::Color::White),
        View::List,
        Width::new(40).unwrap(),
    );
    wait_text(&list[0].text());
    // The rows view keeps the square under the first cell (e1 of the list
    // view): it opens on rank 1.
    brltty.press("DISPMD").unwrap();
    let shown = brltty
        .wait_for(Duration::from_secs(10), |s| {
            lines
                .iter()
                .any(|l| l.text().trim_end() == s.text.trim_end())
        })
        .unwrap();
    let mut at = lines
        .iter()
        .position(|l| l.text().trim_end() == shown.text.trim_end())
        .unwrap();
    // One line key at a time, each waited for on the display: BRLTTY may
    // read two presses sent close together on a loaded machine as one.
    let mut go = |to: usize| {
        while at != to {
            if at < to {
                brltty.press("LNDN").unwrap();
                at += 1;
            } else {
                brltty.press("LNUP").unwrap();
                at -= 1;
            }
            wait_text(&lines[at].text());
        }
    };
    let (e2_line, e2_cell) = cell_of(&lines, Square::E2);
    let (e4_line, e4_cell) = cell_of(&lines, Square::E4);
    go(e2_line);
    brltty.route(e2_cell).unwrap();
    // The selected square is marked with dots 7-8 (BRLTTY's cursor dots).
    brltty
        .wait_for(Duration::from_secs(10), |s| {
            s.cells.get(e2_cell).is_some_and(|c| c.0 & 0xC0 == 0xC0)
        })
        .unwrap();
    go(e4_line);
    brltty.route(e4_cell).unwrap();
    let st = wait_ply(&mut c, 1);
    assert_eq!(st["moves"][0], "e4", "{st}");
    assert_eq!(st["variant"], "chess");

    // The rest of the game: white through the socket, black typed.
    for (i, m) in moves.iter().enumerate().skip(1) {
        play_ply(&mut d, &mut c, i, m);
        if i == 20 {
            // Black's board shows the position before white's last move: one behind.
            let before = tandem_rules::chess::to_fen(game.position_at(20).unwrap());
            let r = c.request("mismatch", Some(&before)).unwrap();
            assert_eq!(r["ok"], true, "{r}");
            let said = r["said"].to_string();
            assert!(said.contains("one move behind"), "{said}");
            // Black (on move) claims a draw that is not there: 9.5(b).
            let st = c.request("state", None).unwrap()["state"].clone();
            let white_before = st["clocks"]["white"]["remaining_ms"].as_u64().unwrap();
            let out = ctl(&socket, &["draw", "claim"]);
            assert!(out.status.success(), "{out:?}");
            let st = c.request("state", None).unwrap()["state"].clone();
            let white_after = st["clocks"]["white"]["remaining_ms"].as_u64().unwrap();
            assert_eq!(white_after, white_before + 180_000, "{st}");
            assert!(st["result"].is_null());
            // A square read back that the record does not have: the boards differ.
            let r = c.request("mismatch", Some("e4:P")).unwrap();
            assert_eq!(r["ok"], true, "{r}");
            let said = r["said"].to_string();
            assert!(said.contains("the boards differ"), "{said}");
            let st = c.request("state", None).unwrap()["state"].clone();
            assert_eq!(st["clocks"]["paused"], true);
            assert_eq!(c.request("resume", None).unwrap()["ok"], true);
        }
    }
    let st = wait_ply(&mut c, moves.len() as u64);
    assert_eq!(st["fen"], tandem_rules::chess::to_fen(game.position()));
    // An illegal move is refused with its reason.
    let r = c.request("move", Some("O-O")).unwrap();
    assert_eq!(r["ok"], false, "{r}");
    // The record ends 1-0: black resigned.
    let out = ctl(&socket, &["resign", "black"]);
    assert!(out.status.success(), "{out:?}");
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["result"], "1-0", "{st}");

    // What was said, in order (002 annex E.2: files by name, what comes off).
    events.set_timeout(Some(Duration::from_secs(5))).unwrap();
    let said = said_until(&mut events, "Game over");
    let find = |s: &str| said.iter().any(|t| t == s);
    assert!(find("Pawn Eva two, Eva four."), "{said:?}");
    assert!(
        find("Short castling: king to Gustav one, rook Hector one to Felix one."),
        "{said:?}"
    );
    assert!(
        find("Pawn David six takes Eva five. Remove the white pawn from Eva five."),
        "{said:?}"
    );
    assert!(said.iter().any(|t| t.ends_with("Check.")), "{said:?}");
    assert!(
        said.iter()
            .any(|t| t.starts_with("The draw claim is not correct")),
        "{said:?}"
    );
    assert_eq!(
        said.last().map(String::as_str),
        Some("Game over. White wins. Black resigned.")
    );
    // speech-dispatcher really spoke.
    assert_spoke_since(&speechd, mark);
    // The braille display shows the final position (the rows view stays on
    // the line the player left it on: rank 4).
    let last = rows(game.position());
    wait_text(&last[e4_line].text());

    // The journal verifies; the first move came from the braille keys.
    let v = tandem(&["journal", "verify", journal.to_str().unwrap()]);
    assert!(v.status.success(), "{v:?}");
    let text = std::fs::read_to_string(&journal).unwrap();
    let first_move: serde_json::Value = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| v["event"].clone())
        .find(|e| e["type"] == "move")
        .unwrap();
    assert_eq!(first_move["source"], "keys", "{first_move}");
    assert!(
        text.contains(r#""type":"draw-claim""#),
        "no draw claim journaled"
    );
    // The export is PGN and replays to the same game.
    let pgn = tandem(&["pdn", "export", journal.to_str().unwrap()]);
    assert!(pgn.status.success(), "{pgn:?}");
    let text = String::from_utf8(pgn.stdout).unwrap();
    assert!(
        text.contains("[White \"Aronian, Levon\"]")
            && text.contains("[Result \"1-0\"]")
            && text.contains("[TimeControl \"5400+30\"]"),
        "{text}"
    );
    assert!(text.contains("{[%clk 1:"), "clock comments: {text}");
    let Replay::Ok(back) = replay(&parse_pgn(&text)[0]) else {
        panic!("{text}")
    };
    assert_eq!(back.sans(), game.sans());
}

#[test]
fn a_chess_game_resumes_after_sigkill_and_ends_by_a_claimed_repetition() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let mut d = Play::text_only(dir.path())
        .args(["--variant", "chess", "--lang", "en"])
        .journal(&journal)
        .start();
    let mut c = d.client();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"] {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m}: {r}");
    }
    d.child.kill().unwrap(); // SIGKILL
    d.child.wait().unwrap();
    drop(d);
    let resumed = Play::text_only(dir.path()).resume(&journal).start();
    let mut c = resumed.client();
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["variant"], "chess");
    assert_eq!(
        st["moves"],
        serde_json::json!(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"])
    );
    assert_eq!(st["clocks"]["paused"], true);
    assert_eq!(c.request("resume", None).unwrap()["ok"], true);
    for m in ["Nf6", "Ng1"] {
        assert_eq!(c.request("move", Some(m)).unwrap()["ok"], true, "{m}");
    }
    // After ...Ng8 the start position stands for the third time (002 art. 9.2):
    // the player on move (white) may claim; the game goes on until then.
    let r = c.request("move", Some("Ng8")).unwrap();
    assert_eq!(r["ok"], true);
    assert!(
        r["said"].to_string().contains("third time"),
        "the claim is offered: {r}"
    );
    let r = c.request("draw", Some("claim")).unwrap();
    assert_eq!(r["ok"], true, "{r}");
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["result"], "1/2-1/2", "{st}");
    assert!(
        r["said"].to_string().contains("Threefold repetition"),
        "{r}"
    );
    let v = tandem(&["journal", "verify", journal.to_str().unwrap()]);
    assert!(v.status.success(), "{v:?}");
}
