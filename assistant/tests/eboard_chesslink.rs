//! The sighted player's ChessLink e-board (issue 42, docs/eboards.md), end
//! to end: the real `tandem play --variant chess --seat
//! white:board=chesslink:PATH` with a ChessLink board emulated on a
//! pseudo-terminal (`support::chesslink`, written from the protocol's
//! document), white's moves made by hand on the board, black's (the blind
//! player's) given through `tandem ctl` and shown on the board's lights.
//!
//! The settle time (the debounce) is shortened with the test knobs
//! `TANDEM_EBOARD_SETTLE_MS` and `TANDEM_EBOARD_MISMATCH_MS`. Nothing here
//! is timed: a pause between two hands only lets the position between them
//! settle, and a loaded machine that merges them still must play the same.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::chesslink::{Board, START};
use support::cli::strs;
use support::{ctl, journal_events, tandem, wait_ply, Daemon, Play};

const SETTLE_MS: u64 = 100;

fn daemon(dir: &Path, link: &Path, fen: Option<&str>) -> Daemon {
    let mut p = Play::text_only(dir)
        .args(["--variant", "chess", "--lang", "en", "--blind", "black"])
        .arg("--journal")
        .arg(dir.join("game.jsonl"))
        .arg("--seat")
        .arg(format!("white:board=chesslink:{}", link.display()))
        .env("TANDEM_EBOARD_SETTLE_MS", SETTLE_MS.to_string())
        .env("TANDEM_EBOARD_MISMATCH_MS", "300");
    if let Some(f) = fen {
        p = p.args(["--fen", f]);
    }
    p.start()
}

/// Black's move through the control socket, as the blind player's seat.
fn black(socket: &Path, mv: &str) {
    let out = ctl(socket, &["--seat", "black", "move", mv]);
    assert!(out.status.success(), "{mv}: {out:?}");
}

/// Lets what the board shows now settle before the next hand (longer than
/// the settle time, shorter than a move on the way to another must stand).
fn settle() {
    std::thread::sleep(Duration::from_millis(SETTLE_MS * 3 / 2));
}

/// Waits (20 s at most) for `n` journal lines of type `kind`.
fn wait_lines(journal: &Path, kind: &str, n: usize) -> Vec<Value> {
    let t0 = Instant::now();
    loop {
        let lines = journal_events(journal, kind);
        if lines.len() >= n {
            return lines;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "{n} {kind} lines never came: {lines:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The moves of the journal: (side, SAN, source, seat).
fn moves(journal: &Path) -> Vec<(String, String, String, String)> {
    journal_events(journal, "move")
        .iter()
        .map(|m| {
            let s = |k: &str| m[k].as_str().unwrap_or("").to_owned();
            (s("side"), s("text"), s("source"), s("seat"))
        })
        .collect()
}

/// `tandem export`'s PGN, its clock comments left out and its lines joined.
fn exported(journal: &Path) -> String {
    let out = tandem(&["export", journal.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut plain = String::new();
    let mut depth = 0;
    for ch in text.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A black move through `tandem ctl`, its squares lit on white's board
/// until the hand makes it there, then a `board-done` and the lights out.
fn black_shown(
    socket: &Path,
    journal: &Path,
    board: &Board,
    mv: &str,
    lit: [&str; 2],
    hand: &[&str],
) {
    let done = journal_events(journal, "board-done").len();
    black(socket, mv);
    board.wait_lit(&lit);
    board.hand(hand);
    let d = wait_lines(journal, "board-done", done + 1);
    assert_eq!(d[done]["source"], "eboard", "{d:?}");
    assert_eq!(d[done]["side"], "white", "{d:?}");
    board.wait_lit(&[]);
}

#[test]
fn a_real_game_from_a_chesslink_board_against_a_blind_player() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("chesslink");
    let journal = dir.path().join("game.jsonl");
    let mut board = Board::plug_in(&link, START);
    let d = daemon(dir.path(), &link, None);
    let mut c = d.client();
    board.wait_host();
    let s = &d.socket;
    // 1. e4: a plain move, the pawn slid on its way.
    board.hand(&["-e2", "+e3P", "-e3", "+e4P"]);
    wait_ply(&mut c, 1);
    black_shown(s, &journal, &board, "Nf6", ["g8", "f6"], &["-g8", "+f6n"]);
    // 2. e5: a piece knocked over and put back on the way does nothing.
    board.hand(&["-h2", "+h2P"]);
    board.hand(&["-e4", "+e5P"]);
    wait_ply(&mut c, 3);
    black_shown(s, &journal, &board, "d5", ["d7", "d5"], &["-d7", "+d5p"]);
    // 3. exd6 en passant, the taken pawn lifted after the capturing one is
    // set down (and left a moment: on the way, nothing played).
    board.hand(&["-e5", "+d6P"]);
    settle();
    board.hand(&["-d5"]);
    wait_ply(&mut c, 5);
    black_shown(
        s,
        &journal,
        &board,
        "cxd6",
        ["c7", "d6"],
        &["-d6", "-c7", "+d6p"],
    );
    // The cable pulled out: shown (a device event), said, and white goes
    // on by typing.
    let mut events = d.client();
    events.subscribe().unwrap();
    board.pull();
    loop {
        let e = events.next_line().expect("the lost board shown");
        if e["event"] == "device" && e["device"] == "eboard white" {
            assert_eq!(e["ok"], false, "{e}");
            break;
        }
    }
    let said = |text: &str| {
        journal_events(&journal, "say")
            .iter()
            .any(|e| e["text"].as_str().unwrap_or("").contains(text))
    };
    let t0 = Instant::now();
    while !said("e-board is not connected") {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the lost board was never said"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = ctl(s, &["--seat", "white", "move", "Nf3"]);
    assert!(out.status.success(), "{out:?}");
    board.hand_unplugged(&["-g1", "+f3N"]);
    black(s, "Bg4");
    board.hand_unplugged(&["-c8", "+g4b"]);
    // Plugged back at the same path: read again, found up to date.
    let done = journal_events(&journal, "board-done").len();
    board.plug();
    wait_lines(&journal, "board-done", done + 1);
    assert!(said("e-board is connected again"));
    // 5. Bc4, the bishop slid across e2 and d3 (each a legal move, seen
    // only in passing).
    board.hand(&["-f1", "+e2B", "-e2", "+d3B", "-d3", "+c4B"]);
    wait_ply(&mut c, 9);
    black_shown(s, &journal, &board, "e6", ["e7", "e6"], &["-e7", "+e6p"]);
    // 6. O-O, the king first (its square between left to settle), then the rook.
    board.hand(&["-e1", "+g1K"]);
    settle();
    board.hand(&["-h1", "+f1R"]);
    wait_ply(&mut c, 11);
    black_shown(s, &journal, &board, "d5", ["d6", "d5"], &["-d6", "+d5p"]);
    // 7. Bxd5, the capturing piece lifted first.
    board.hand(&["-c4", "-d5", "+d5B"]);
    wait_ply(&mut c, 13);
    black_shown(
        s,
        &journal,
        &board,
        "Nxd5",
        ["f6", "d5"],
        &["-d5", "-f6", "+d5n"],
    );
    // An impossible placement (the queen through its own pawn) for longer
    // than the mismatch takes: journaled and said, nothing played, the
    // clock not stopped (white's own board to put right); put right, play
    // goes on.
    board.hand(&["-d1", "+d4Q"]);
    let m = wait_lines(&journal, "mismatch", 1);
    assert_eq!(m[0]["source"], "eboard", "{m:?}");
    let diffs: Vec<&str> = strs(&m[0]["diffs"]);
    assert_eq!(diffs.len(), 2, "{diffs:?}");
    assert!(
        diffs[0].starts_with("d1") && diffs[1].starts_with("d4"),
        "{diffs:?}"
    );
    assert!(journal_events(&journal, "pause").is_empty());
    board.hand(&["-d4", "+d1Q"]);
    // 8. h3 Bxf3 9. Qxf3, the captured piece lifted first.
    board.hand(&["-h2", "+h3P"]);
    wait_ply(&mut c, 15);
    black_shown(
        s,
        &journal,
        &board,
        "Bxf3",
        ["g4", "f3"],
        &["-f3", "-g4", "+f3b"],
    );
    board.hand(&["-f3", "-d1", "+f3Q"]);
    wait_ply(&mut c, 17);
    let out = ctl(s, &["--seat", "black", "resign"]);
    assert!(out.status.success(), "{out:?}");
    wait_lines(&journal, "result", 1);

    let want = [
        "e4", "Nf6", "e5", "d5", "exd6", "cxd6", "Nf3", "Bg4", "Bc4", "e6", "O-O", "d5", "Bxd5",
        "Nxd5", "h3", "Bxf3", "Qxf3",
    ];
    let got = moves(&journal);
    assert_eq!(got.iter().map(|m| m.1.as_str()).collect::<Vec<_>>(), want);
    for (i, (side, _, source, seat)) in got.iter().enumerate() {
        let want_source = match (side.as_str(), i) {
            ("black", _) => "control",
            (_, 6) => "control",
            _ => "eboard",
        };
        assert_eq!(source, want_source, "ply {}: {got:?}", i + 1);
        assert_eq!(seat, side, "ply {}", i + 1);
    }
    assert_eq!(journal_events(&journal, "mismatch").len(), 1);
    assert!(journal_events(&journal, "rejected").is_empty());
    let pgn = exported(&journal);
    assert!(
        pgn.contains(
            "1. e4 Nf6 2. e5 d5 3. exd6 cxd6 4. Nf3 Bg4 5. Bc4 e6 6. O-O d5 7. Bxd5 Nxd5 \
             8. h3 Bxf3 9. Qxf3 1-0"
        ),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    // Every byte tandem sent had odd parity, every command its block parity.
    let sh = board.shared.lock().unwrap();
    assert_eq!((sh.bad_parity, sh.bad_block), (0, 0), "{:?}", sh.bad);
    assert_eq!(sh.e2rom[2] & 0b111, 0b011, "reports on every change");
}

#[test]
fn queenside_castling_rook_first_and_promotions_from_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("chesslink");
    let journal = dir.path().join("game.jsonl");
    // White: Ke1, Ra1, Rh1, pawns b7 g7; black: Ke8, pawn a2.
    let fen = "4k3/1P4P1/8/8/8/8/p7/R3K2R w KQ - 0 1";
    let squares = [
        "....k...", ".P....P.", "........", "........", "........", "........", "p.......",
        "R...K..R",
    ]
    .concat();
    let mut board = Board::plug_in(&link, &squares);
    let d = daemon(dir.path(), &link, Some(fen));
    let mut c = d.client();
    board.wait_host();
    let s = &d.socket;
    // 1. O-O-O, the rook first.
    board.hand(&["-a1", "+d1R"]);
    settle();
    board.hand(&["-e1", "+c1K"]);
    wait_ply(&mut c, 1);
    black_shown(s, &journal, &board, "Kf7", ["e8", "f7"], &["-e8", "+f7k"]);
    // 2. g8=N: under-promotion, the knight set on g8.
    board.hand(&["-g7", "+g8N"]);
    wait_ply(&mut c, 3);
    black_shown(
        s,
        &journal,
        &board,
        "Kxg8",
        ["f7", "g8"],
        &["-g8", "-f7", "+g8k"],
    );
    // 3. b8=Q+: the pawn set on b8 first (left there a while), then
    // exchanged for the queen.
    board.hand(&["-b7", "+b8P"]);
    settle();
    board.hand(&["-b8", "+b8Q"]);
    wait_ply(&mut c, 5);
    black_shown(s, &journal, &board, "Kf7", ["g8", "f7"], &["-g8", "+f7k"]);
    let got = moves(&journal);
    let sans: Vec<&str> = got.iter().map(|m| m.1.as_str()).collect();
    assert_eq!(sans, ["O-O-O", "Kf7", "g8=N", "Kxg8", "b8=Q+", "Kf7"]);
    assert!(got
        .iter()
        .filter(|m| m.0 == "white")
        .all(|m| m.2 == "eboard"));
    assert!(journal_events(&journal, "mismatch").is_empty());
    assert!(journal_events(&journal, "rejected").is_empty());
    let pgn = exported(&journal);
    assert!(
        pgn.contains("1. O-O-O Kf7 2. g8=N Kxg8 3. b8=Q+ Kf7 *"),
        "{pgn}"
    );
    board.pull();
}

#[test]
fn an_e_board_is_refused_for_draughts_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out = Play::text_only(dir.path())
        .args(["--variant", "international", "--voice", "off"])
        .arg("--journal")
        .arg(dir.path().join("game.jsonl"))
        .args(["--seat", "white:board=chesslink:/dev/null"])
        .output();
    assert!(!out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("e-boards are for chess"), "{err}");
}

#[test]
fn the_config_files_seat_takes_its_board() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("chesslink");
    let journal = dir.path().join("game.jsonl");
    let conf = dir.path().join("conf");
    std::fs::create_dir_all(conf.join("tandem")).unwrap();
    std::fs::write(
        conf.join("tandem/config.toml"),
        format!("[seat.white]\nboard = \"chesslink:{}\"\n", link.display()),
    )
    .unwrap();
    let board = Board::plug_in(&link, START);
    let d = Play::text_only(dir.path())
        .args(["--variant", "chess", "--lang", "en", "--blind", "black"])
        .arg("--journal")
        .arg(&journal)
        .config_home(&conf)
        .env("TANDEM_EBOARD_SETTLE_MS", SETTLE_MS.to_string())
        .start();
    let mut c = d.client();
    board.wait_host();
    board.hand(&["-d2", "+d4P"]);
    wait_ply(&mut c, 1);
    assert_eq!(
        moves(&journal),
        [("white".into(), "d4".into(), "eboard".into(), "white".into())]
    );
}
