//! `tandem arbiter reconcile` and `tandem arbiter diff` for chess (002 annex
//! E.7-E.8), run as the built binary on a real game (Aronian's first game of
//! `rules/tests/data/chess/aronian-1993-2002.pgn`) written out as PGN, as a
//! SAN move list and as UCI, and made to diverge in code: exit codes, the
//! JSON fields of the draughts report, detection of chess without
//! `--variant`, the spoken diff in Polish and English.

mod support;

use support::cli::{json_of, strs};
use support::tandem;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tandem_rules::chess::pgn::{parse_pgn, replay, Replay};
use tandem_rules::chess::{to_fen, uci, ChessGame};

/// The real game and its PGN text (the first game of the collection).
fn the_game() -> (ChessGame, String) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rules/tests/data/chess/aronian-1993-2002.pgn"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.split("\n[Event ").next().unwrap().to_owned();
    match replay(&parse_pgn(&first)[0]) {
        Replay::Ok(g) => (g, first),
        other => panic!("{other}"),
    }
}

/// A SAN move list in the way a scoresheet is typed: `1. e4 c5 2. Nc3 …`.
/// [`the_game`], its PGN written in `dir` as `name`.
fn the_game_in(dir: &Path, name: &str) -> (ChessGame, PathBuf) {
    let (g, pgn) = the_game();
    (g, write(dir, name, &pgn))
}

fn san_list(sans: &[String]) -> String {
    let mut s = String::new();
    for (i, m) in sans.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(m);
        s.push(if i % 10 == 9 { '\n' } else { ' ' });
    }
    s
}

/// `tandem arbiter diff A B ARGS…`.
fn diff(a: &str, b: &str, args: &[&str]) -> std::process::Output {
    tandem(&[&["arbiter", "diff", a, b], args].concat())
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `tandem arbiter reconcile A B ARGS…`.
fn reconcile_out(a: &Path, b: &Path, args: &[&str]) -> std::process::Output {
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    tandem(&[&["arbiter", "reconcile", a, b], args].concat())
}

fn reconcile(a: &Path, b: &Path, extra: &[&str]) -> (i32, Value) {
    let out = reconcile_out(a, b, &[&["--json"], extra].concat());
    (out.status.code().unwrap(), json_of(&out))
}

#[test]
fn the_pgn_and_a_uci_list_of_the_same_game_agree() {
    let dir = tempfile::tempdir().unwrap();
    let (g, a) = the_game_in(dir.path(), "game.pgn");
    let ucis: Vec<String> = g.moves().iter().map(uci).collect();
    let b = write(dir.path(), "braille.txt", &ucis.join("\n"));
    let (code, j) = reconcile(&a, &b, &[]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["agree"], true);
    assert_eq!(j["variant"], "chess");
    assert_eq!(j["agreed_plies"], g.ply());
    assert_eq!(j["agreed_moves"], json!(g.sans()));
    assert_eq!(j["finding"], json!({"kind": "agree"}));
    assert_eq!(j["first_difference"], Value::Null);
    assert_eq!(j["records"]["a"]["format"], "pgn");
    assert_eq!(j["records"]["b"]["format"], "list");
    assert_eq!(j["fen"], to_fen(g.position()));
    assert_eq!(j["start_fen"], to_fen(g.start()));
}

#[test]
fn a_wrong_move_in_the_san_list_exits_1_with_the_position_to_go_back_to() {
    let dir = tempfile::tempdir().unwrap();
    let (g, a) = the_game_in(dir.path(), "game.pgn");
    // 11. e5 written as 11. e6?? (illegal: e6 is not reachable from e4).
    let mut sans = g.sans().to_vec();
    assert_eq!(sans[20], "e5");
    sans[20] = "Qf2".into();
    let b = write(dir.path(), "sheet.txt", &san_list(&sans));
    let (code, j) = reconcile(&a, &b, &["--lang", "en"]);
    assert_eq!(code, 1);
    assert_eq!(j["agree"], false);
    assert_eq!(j["agreed_plies"], 20);
    let d = &j["first_difference"];
    assert_eq!(d["ply"], 21);
    assert_eq!(d["move_number"], "11.");
    assert_eq!(d["side"], "white");
    assert_eq!(
        (d["a"].clone(), d["b"].clone()),
        (json!("e5"), json!("Qf2"))
    );
    assert_eq!(
        (d["a_legal"].clone(), d["b_legal"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(d["a_move"], "e5");
    assert_eq!(d["b_move"], "Qf2");
    assert_eq!(j["fen"], to_fen(g.position_at(20).unwrap()));
    assert_eq!(j["to_move"], "white");
    assert_eq!(j["next_move"], "11.");
    // After the slip B's 11... dxe5 has nothing to take.
    assert_eq!(j["illegal"]["record"], "b");
    assert_eq!(j["illegal"]["ply"], 22);
    assert_eq!(j["illegal"]["move"], "dxe5");
    assert!(
        j["illegal"]["reason"].as_str().unwrap().len() > 5,
        "{}",
        j["illegal"]
    );
    assert_eq!(j["finding"], json!({"kind": "wrong_move", "ply": 21}));
    assert!(j["finding_text"].as_str().unwrap().contains("ply 21"));
    // The diagram, the list and the braille list view of the agreed position.
    let diagram: Vec<&str> = strs(&j["diagram"]);
    assert_eq!(diagram.len(), 11);
    assert_eq!(diagram[10], "    a b c d e f g h");
    assert!(j["list"].as_str().unwrap().starts_with("W Kg1 Qe1 "));
    assert!(j["braille_list"][0].as_str().unwrap().starts_with("W Kg1"));
    assert!(!j["braille_cells"][0].as_str().unwrap().is_empty());
    assert_eq!(j["clocks"], Value::Null, "no journal, no clocks");
    assert_eq!(j["lang"], "en");
}

#[test]
fn a_missing_ply_and_the_human_report_in_polish() {
    let dir = tempfile::tempdir().unwrap();
    let (g, a) = the_game_in(dir.path(), "a.pgn");
    let mut sans = g.sans().to_vec();
    sans.remove(30);
    let b = write(dir.path(), "b.txt", &sans.join("\n"));
    let (code, j) = reconcile(&a, &b, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        j["finding"],
        json!({"kind": "missing_ply", "record": "b", "ply": 31})
    );
    let out = reconcile_out(&a, &b, &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Zgodne półruchy: 30"), "{text}");
    assert!(text.contains("w zapisie B brakuje półruchu 31"), "{text}");
    assert!(text.contains(&format!("FEN {}", to_fen(g.position_at(30).unwrap()))));
    assert!(text.contains("    a b c d e f g h"), "{text}");
}

#[test]
fn swapped_moves_transpose_back_to_the_same_position() {
    let dir = tempfile::tempdir().unwrap();
    let (sheet_a, sheet_b) = (
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6\n",
        "1. Nf3 e5 2. e4 Nc6 3. Bb5 a6 4. Ba4 Nf6\n",
    );
    let a = write(dir.path(), "a.txt", sheet_a);
    let b = write(dir.path(), "b.txt", sheet_b);
    let (code, j) = reconcile(&a, &b, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        j["variant"], "chess",
        "SAN moves are chess without --variant"
    );
    assert_eq!(j["agreed_plies"], 0);
    assert_eq!(
        j["finding"],
        json!({"kind": "swapped", "first": 1, "second": 3})
    );
    assert_eq!(j["transposition"]["same_position_after"], 3);
    assert_eq!(j["transposition"]["last_common_ply"], 8);
    assert_eq!(
        j["transposition"]["fen"],
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5"
    );
    assert_eq!(j["fen"], to_fen(&tandem_rules::chess::start()));
}

#[test]
fn unreadable_records_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (_, pgn) = the_game();
    let a = write(dir.path(), "a.pgn", &pgn);
    let two = write(dir.path(), "two.pgn", &format!("{pgn}\n{pgn}"));
    let empty = write(dir.path(), "empty.pgn", "[Event \"x\"]\n");
    let missing = dir.path().join("nope.pgn");
    for b in [&two, &empty, &missing] {
        let out = reconcile_out(&a, b, &["--json"]);
        assert_eq!(out.status.code(), Some(2), "{}", b.display());
        assert!(!out.stderr.is_empty());
    }
    let out = reconcile_out(&a, &a, &["--variant", "chess", "--fen", "not a fen"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn diff_speaks_the_fixes_in_both_languages_with_the_annex_names() {
    // The record has 1. e4 e5 2. Nf3 Nc6; the board has the knight on f6
    // (black's) instead and the white pawn still on e2.
    let a = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let b = "rnbqkb1r/pppp1ppp/5n2/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3";
    let out = diff(a, b, &["--json", "--lang", "en"]);
    assert_eq!(out.status.code(), Some(1));
    let j = json_of(&out);
    assert_eq!(j["variant"], "chess");
    assert_eq!(j["same"], false);
    assert_eq!(j["turn"], Value::Null);
    assert_eq!(
        j["differences"],
        json!([
            {"square": 13, "name": "e2", "a": null, "b": "white pawn"},
            {"square": 29, "name": "e4", "a": "white pawn", "b": null},
            {"square": 43, "name": "c6", "a": "black knight", "b": null},
            {"square": 46, "name": "f6", "a": null, "b": "black knight"},
            {"square": 58, "name": "b8", "a": null, "b": "black knight"},
            {"square": 63, "name": "g8", "a": "black knight", "b": null},
        ])
    );
    assert_eq!(j["instructions"][0], "Take the white pawn off e2.");
    assert_eq!(j["instructions"][1], "Put a white pawn on e4.");
    assert_eq!(
        j["spoken"],
        "Take the white pawn off Eva two. Put a white pawn on Eva four. \
         Put a black knight on Cesar six. Take the black knight off Felix six. \
         Take the black knight off Bella eight. Put a black knight on Gustav eight."
    );
    assert_eq!(j["lang"], "en");

    let out = diff(a, b, &["--json"]);
    let j = json_of(&out);
    assert_eq!(j["lang"], "pl");
    assert!(
        j["spoken"].as_str().unwrap().starts_with(
            "Z pola Ewa dwa zdejmij: biały pion. Na polu Ewa cztery postaw: biały pion."
        ),
        "{}",
        j["spoken"]
    );
    let out = diff(a, b, &["--json", "--files", "letters"]);
    assert!(json_of(&out)["spoken"]
        .as_str()
        .unwrap()
        .starts_with("Z pola e dwa zdejmij"));

    // The human report.
    let text = String::from_utf8(diff(a, b, &["--lang", "en"]).stdout).unwrap();
    assert!(text.contains("  e4: A white pawn, B empty"), "{text}");
    assert!(
        text.contains("Spoken: Take the white pawn off Eva two."),
        "{text}"
    );
}

#[test]
fn diff_of_the_same_board_exits_0_and_a_bad_fen_2() {
    let a = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = diff(a, a, &["--json"]);
    assert_eq!(out.status.code(), Some(0));
    let j = json_of(&out);
    assert_eq!(j["same"], true);
    assert_eq!(j["differences"], json!([]));
    // Only the board part, and a board that is no legal position (a king
    // knocked off, 002 art. 7.5): still compared.
    let out = diff(
        a,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR",
        &["--json", "--lang", "en"],
    );
    assert_eq!(out.status.code(), Some(1));
    let j = json_of(&out);
    assert_eq!(j["spoken"], "Put a white king on Eva one.");
    // The side to move differs.
    let out = diff(
        a,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        &["--json", "--lang", "en"],
    );
    assert_eq!(out.status.code(), Some(1));
    let j = json_of(&out);
    assert_eq!(j["turn"], json!({"a": "white", "b": "black"}));
    assert_eq!(j["spoken"], "White to move.");
    let out = diff(
        a,
        "rnbqkbnr/ppzppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        &["--json"],
    );
    assert_eq!(out.status.code(), Some(2));
    let out = diff(a, "W:W31:B1", &["--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A chess journal written by the daemon's own journal writer: the game's
/// first `plies` moves (SAN in `text`, as `tandem play --variant chess`
/// writes them) with clock times, 10 s a move from 90 minutes each.
fn write_journal(path: &Path, g: &ChessGame, plies: usize) {
    use tandem::journal::{Event, JournalWriter, Source, StartInfo};
    use tandem_rules::Color;
    let mut w = JournalWriter::create(path).unwrap();
    w.append(
        0,
        Event::Start(StartInfo {
            variant: "chess".into(),
            fen: to_fen(g.start()),
            control: "90m".into(),
            warnings_s: vec![300, 60, 10],
            white: Some("Aronian".into()),
            black: Some("Munizaba".into()),
            event: None,
            round: None,
            blind: "white".into(),
            lang: "pl".into(),
            options: Default::default(),
            version: "test".into(),
        }),
    )
    .unwrap();
    let (mut white_ms, mut black_ms) = (5_400_000u64, 5_400_000u64);
    for (i, san) in g.sans()[..plies].iter().enumerate() {
        let side = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let move_ms = 10_000 + i as u64 * 100;
        match side {
            Color::White => white_ms -= move_ms,
            Color::Black => black_ms -= move_ms,
        }
        w.append(
            (i as u64 + 1) * 10_000,
            Event::Move {
                ply: i as u32 + 1,
                side,
                text: san.clone(),
                input: san.clone(),
                source: Source::Typed,
                move_ms,
                white_ms,
                black_ms,
                seat: None,
            },
        )
        .unwrap();
    }
}

#[test]
fn a_chess_journal_is_detected_and_gives_the_clocks_at_the_agreed_ply() {
    let dir = tempfile::tempdir().unwrap();
    let (g, _) = the_game();
    let journal = dir.path().join("game.jsonl");
    write_journal(&journal, &g, 24);
    let mut sans = g.sans()[..24].to_vec();
    sans[20] = "Qf2".into();
    let b = write(dir.path(), "braille.txt", &san_list(&sans));
    let (code, j) = reconcile(&journal, &b, &["--lang", "en"]);
    assert_eq!(code, 1, "{j}");
    assert_eq!(j["variant"], "chess");
    assert_eq!(j["records"]["a"]["format"], "journal");
    assert_eq!(j["records"]["a"]["plies"], 24);
    assert_eq!(j["agreed_plies"], 20);
    // After ply 20 (10... Rd8): each side made 10 moves of 10 s + 0.1 s a ply.
    let used = |first: u64| -> f64 {
        (0..10).map(|k| 10_000 + (first + 2 * k) * 100).sum::<u64>() as f64 / 1000.0
    };
    assert_eq!(
        j["clocks"],
        json!({
            "ply": 20,
            "white_remaining": 5400.0 - used(0),
            "black_remaining": 5400.0 - used(1),
            "white_used": used(0),
            "black_used": used(1),
        })
    );
    assert_eq!(j["clocks_source"], journal.to_str().unwrap());
    assert_eq!(j["announcements"]["white"]["moves"], 12);
    // The same journal against itself agrees.
    let (code, j) = reconcile(&journal, &journal, &[]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["clocks"]["ply"], 24);
}

#[test]
fn a_chess960_record_reconciles_with_the_same_game_castling_onto_its_rook() {
    // Issue 44: game 4 of a real Chess960 file (cutechess's `fischerandom`
    // export, rules/tests/data/chess/SOURCES.md) castling `O-O`, against
    // the same game with castling written as the king taking its own rook
    // (`f1h1`, `f8h8`): the records agree to the end, by Chess960's rules.
    let data = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rules/tests/data/chess")
            .join(name)
    };
    let fourth = |name: &str| {
        let text = std::fs::read_to_string(data(name)).unwrap();
        format!("[Event {}", text.split("\n[Event ").nth(3).unwrap())
    };
    let dir = tempfile::tempdir().unwrap();
    let a_text = fourth("cutechess-fischerrandom.pgn");
    let b_text = fourth("cutechess-fischerrandom-king-takes-rook.pgn");
    assert!(b_text.contains("f1h1") && !a_text.contains("f1h1"));
    let a = write(dir.path(), "a.pgn", &a_text);
    let b = write(dir.path(), "b.pgn", &b_text);
    let Replay::Ok(g) = replay(&parse_pgn(&a_text)[0]) else {
        panic!("the real game replays")
    };
    assert!(g.is_chess960());
    let (code, j) = reconcile(&a, &b, &[]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["agree"], true, "{j}");
    assert_eq!(j["agreed_plies"], g.ply());
    assert_eq!(j["agreed_moves"], json!(g.sans()));
    assert_eq!(j["fen"], to_fen(g.position()));
    assert_eq!(
        j["start_fen"],
        "nbrnbkqr/pppppppp/8/8/8/8/PPPPPPPP/NBRNBKQR w KQkq - 0 1"
    );
}
