//! `tandem arbiter` run as the built binary on a real game (Meijer - Meurs,
//! Dutch championship 2009) whose records were made to diverge
//! (`rules/tests/data/arbiter/`, written by `make_fixtures.py` there), and
//! on its tandem journal: exact JSON, exit codes, the spoken diff in Polish
//! and English.

mod support;

use support::cli::json_of;
use support::tandem;

use std::path::PathBuf;

use serde_json::{json, Value};
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::{Game, Variant};

fn data(name: &str) -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "rules",
        "tests",
        "data",
        "arbiter",
        name,
    ]
    .iter()
    .collect();
    p.to_str().unwrap().to_owned()
}

fn reconcile(a: &str, b: &str, extra: &[&str]) -> (i32, Value) {
    let (a, b) = (data(a), data(b));
    let mut args = vec!["arbiter", "reconcile", a.as_str(), b.as_str(), "--json"];
    args.extend_from_slice(extra);
    let out = tandem(&args);
    (out.status.code().unwrap(), json_of(&out))
}

/// The real game, replayed by the rules engine on its own.
fn the_game() -> Game {
    let text = std::fs::read_to_string(data("meijer-meurs-nk2009.pdn")).unwrap();
    match replay(&parse_pdn(&text)[0], Variant::International) {
        Replay::Ok(g) => g,
        other => panic!("{other}"),
    }
}

/// The journal's move events, read independently of tandem's reader.
fn journal_moves() -> Vec<Value> {
    std::fs::read_to_string(data("meijer-meurs.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["event"]["type"] == "move")
        .map(|r| r["event"].clone())
        .collect()
}

/// Clock times after `ply` computed from the journal by hand.
fn expected_clocks(ply: usize) -> Value {
    let moves = journal_moves();
    let m = &moves[ply - 1];
    let used = |side: &str| -> f64 {
        let ms: u64 = moves[..ply]
            .iter()
            .filter(|e| e["side"] == side)
            .map(|e| e["move_ms"].as_u64().unwrap())
            .sum();
        ms as f64 / 1000.0
    };
    json!({
        "ply": ply,
        "white_remaining": m["white_ms"].as_u64().unwrap() as f64 / 1000.0,
        "black_remaining": m["black_ms"].as_u64().unwrap() as f64 / 1000.0,
        "white_used": used("white"),
        "black_used": used("black"),
    })
}

/// [`reconcile`] of the game's PDN (`meijer-meurs-nk2009.pdn`) with `sheet`.
fn against_the_game(sheet: &str, extra: &[&str]) -> (i32, Value) {
    reconcile("meijer-meurs-nk2009.pdn", sheet, extra)
}

#[test]
fn a_wrong_move_at_ply_21_in_the_braille_record() {
    let (code, j) = against_the_game("braille-wrong-ply-21.txt", &["--lang", "en"]);
    assert_eq!(code, 1, "records that differ exit 1");
    assert_eq!(j["agreed_plies"], 20);
    let d = &j["first_difference"];
    assert_eq!(d["ply"], 21);
    assert_eq!(d["a"], "31-26");
    assert_eq!(d["b"], "31-27");
    assert_eq!(d["a_legal"], true);
    assert_eq!(d["b_legal"], true);
    assert_eq!(d["move_number"], "11.");
    assert_eq!(j["finding"], json!({"kind": "wrong_move", "ply": 21}));
    assert_eq!(j["fen"], the_game().position_at(20).unwrap().to_fen());
    assert_eq!(j["clocks"], Value::Null, "no journal, no clocks");
    // After the slip, record B's 11... 13-19 is illegal: 22 must capture.
    assert_eq!(j["illegal"]["record"], "b");
    assert_eq!(j["illegal"]["ply"], 22);
    assert_eq!(j["illegal"]["move"], "13-19");
    assert!(
        j["illegal"]["reason"]
            .as_str()
            .unwrap()
            .starts_with("Capture is compulsory"),
        "{}",
        j["illegal"]
    );
    assert_eq!(j["records"]["b"]["format"], "list");
    assert_eq!(j["records"]["b"]["plies"], 96);
    assert_eq!(j["list"].as_str().unwrap().split(" | ").count(), 2);
    assert!(j["braille_cells"][0].as_str().unwrap().starts_with('⡺'));
}

#[test]
fn the_journal_gives_the_clock_times_at_the_last_agreed_ply() {
    let (code, j) = reconcile("meijer-meurs.jsonl", "braille-wrong-ply-21.txt", &[]);
    assert_eq!(code, 1);
    assert_eq!(j["records"]["a"]["format"], "journal");
    assert_eq!(j["records"]["a"]["plies"], 60);
    assert_eq!(j["agreed_plies"], 20);
    assert_eq!(j["clocks"], expected_clocks(20));
    assert!(j["clocks_source"]
        .as_str()
        .unwrap()
        .ends_with("meijer-meurs.jsonl"));
    // The same times through --journal with two plain records.
    let (code, j2) = against_the_game(
        "braille-wrong-ply-21.txt",
        &["--journal", &data("meijer-meurs.jsonl")],
    );
    assert_eq!(code, 1);
    assert_eq!(j2["clocks"], expected_clocks(20));
}

#[test]
fn a_missing_ply_on_a_paper_scoresheet() {
    let (code, j) = against_the_game(
        "scoresheet-missing-ply-40.txt",
        &["--lang", "pl", "--journal", &data("meijer-meurs.jsonl")],
    );
    assert_eq!(code, 1);
    assert_eq!(j["agreed_plies"], 39);
    assert_eq!(
        j["finding"],
        json!({"kind": "missing_ply", "record": "b", "ply": 40})
    );
    let d = &j["first_difference"];
    assert_eq!(
        (d["a"].as_str(), d["b"].as_str()),
        (Some("21-27"), Some("32x21"))
    );
    assert_eq!(d["b_legal"], false);
    // White's capture written where Black is to move: told in Polish.
    assert_eq!(
        d["b_reason"],
        "Na polu trzydzieści dwa stoi bierka białych."
    );
    assert_eq!(j["clocks"], expected_clocks(39));
}

#[test]
fn two_swapped_moves() {
    let (code, j) = against_the_game("scoresheet-swapped-50-51.txt", &[]);
    assert_eq!(code, 1);
    assert_eq!(j["agreed_plies"], 49);
    assert_eq!(
        j["finding"],
        json!({"kind": "swapped", "first": 50, "second": 51})
    );
    assert_eq!(j["first_difference"]["b"], "30-25");
    assert_eq!(j["first_difference"]["b_legal"], false);
    assert_eq!(j["transposition"], Value::Null);
}

#[test]
fn a_transposition_is_reported_with_where_the_records_meet_again() {
    let (code, j) = against_the_game(
        "scoresheet-transposed-13-15.txt",
        &["--journal", &data("meijer-meurs.jsonl")],
    );
    assert_eq!(code, 1, "the records still differ in order");
    assert_eq!(j["agreed_plies"], 12);
    let t = &j["transposition"];
    assert_eq!(t["from_ply"], 13);
    assert_eq!(t["same_position_after"], 15);
    assert_eq!(t["last_common_ply"], 96);
    assert_eq!(t["fen"], the_game().position().to_fen());
    assert_eq!(j["first_difference"]["b_legal"], true);
    // The journal reaches ply 60 only: no clock times at ply 96.
    assert_eq!(j["clocks"], expected_clocks(12));
    assert_eq!(j["transposition_clocks"], Value::Null);
}

#[test]
fn identical_records_in_different_forms_agree_and_exit_0() {
    // The game as a typed list: CRLF, zero padding, spaced squares, a blank line.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("typed.txt");
    let moves = the_game().move_texts();
    let mut text = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{:02}. ", i / 2 + 1));
        }
        text.push_str(&m.replace('-', " "));
        text.push_str(if i % 2 == 1 { "\r\n\r\n" } else { " " });
    }
    std::fs::write(&p, text).unwrap();
    let out = tandem(&[
        "arbiter",
        "reconcile",
        &data("meijer-meurs-nk2009.pdn"),
        p.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json_of(&out);
    assert_eq!(j["agree"], true);
    assert_eq!(j["agreed_plies"], 96);
    assert_eq!(j["first_difference"], Value::Null);
    assert_eq!(j["illegal"], Value::Null);
    assert_eq!(j["fen"], the_game().position().to_fen());
}

#[test]
fn the_text_report_shows_the_position_and_the_clocks() {
    let out = tandem(&[
        "arbiter",
        "reconcile",
        &data("meijer-meurs.jsonl"),
        &data("braille-wrong-ply-21.txt"),
        "--lang",
        "en",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "Agreed plies: 20 (last agreed: 10... 1-7)",
        "  A: 31-26 (legal)",
        "  B: 31-27 (legal)",
        "Looks like: a different move at ply 21",
        "  |   .   b   b   b   . |  1- 5",
        "List: W 28 29 31",
        "Clocks at ply 20",
        "Set the clocks to these times",
        "White: 2 refused inputs (2 spoken, 0 typed), 30 moves played",
        "Boards reported different: 1",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn announcements_count_refused_inputs_per_side() {
    let out = tandem(&[
        "arbiter",
        "announcements",
        &data("meijer-meurs.jsonl"),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let j = json_of(&out);
    assert_eq!(
        j["white"],
        json!({"refused": 2, "spoken": 2, "typed": 0, "moves": 30, "taken_back": 0})
    );
    assert_eq!(
        j["black"],
        json!({"refused": 2, "spoken": 0, "typed": 2, "moves": 30, "taken_back": 0})
    );
    assert_eq!(j["mismatches"], 1);
    let refused = j["refused"].as_array().unwrap();
    assert_eq!(
        refused.len(),
        5,
        "the control-socket input is listed, not charged"
    );
    assert_eq!(refused[0]["side"], "white");
    assert_eq!(refused[0]["ply"], 6);
    assert_eq!(refused[4]["source"], "control");
}

fn diff(a: &str, b: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["arbiter", "diff", a, b, "--json"];
    args.extend_from_slice(extra);
    let out = tandem(&args);
    (out.status.code().unwrap(), json_of(&out))
}

#[test]
fn diff_json_names_each_square_and_the_fix_in_english() {
    let (code, j) = diff("B:W32,33:B19", "B:W28,33:B19", &["--lang", "en"]);
    assert_eq!(code, 1);
    assert_eq!(
        j["differences"],
        json!([
            {"square": 28, "a": null, "b": "white man"},
            {"square": 32, "a": "white man", "b": null},
        ])
    );
    assert_eq!(
        j["instructions"],
        json!(["Take the white man off 28.", "Put a white man on 32."])
    );
    assert_eq!(
        j["spoken"],
        "Take the white man off twenty-eight. Put a white man on thirty-two."
    );
    assert_eq!(j["turn"], Value::Null);
}

#[test]
fn diff_spoken_in_polish_with_a_king_to_crown_and_the_side_to_move() {
    let (code, j) = diff("W:WK5,33:B19", "B:W5,33:B19,24", &["--lang", "pl"]);
    assert_eq!(
        (code, &j["turn"]),
        (1, &json!({"a": "white", "b": "black"}))
    );
    assert_eq!(
        j["differences"],
        json!([
            {"square": 5, "a": "white king", "b": "white man"},
            {"square": 24, "a": null, "b": "black man"},
        ])
    );
    assert_eq!(
        j["spoken"],
        "Z pola pięć zdejmij: biały pion. Na polu pięć postaw: biała damka. \
         Z pola dwadzieścia cztery zdejmij: czarny pion. Ruch białych."
    );
}

#[test]
fn diff_of_equal_positions_exits_0_and_64_squares_carry_names() {
    let (code, j) = diff(
        "W:W31-50:B1-20",
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20",
        &[],
    );
    assert_eq!(code, 0);
    assert_eq!(j["differences"], json!([]));
    assert_eq!(j["same"], true);
    let (code, j) = diff(
        "W:Wc3:Bf6",
        "W:Wd4:Bf6",
        &["--variant", "sixty-four", "--lang", "en"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        j["differences"],
        json!([
            {"square": 18, "name": "d4", "a": null, "b": "white man"},
            {"square": 22, "name": "c3", "a": "white man", "b": null},
        ])
    );
    assert_eq!(
        j["instructions"],
        json!(["Take the white man off d4.", "Put a white man on c3."])
    );
}

#[test]
fn bad_input_is_a_clear_message_and_exit_2() {
    let out = tandem(&["arbiter", "diff", "W:W51", "W:W32"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("FEN_A"));
    let out = tandem(&[
        "arbiter",
        "reconcile",
        "/nonexistent/a.pdn",
        &data("braille-wrong-ply-21.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/a.pdn"));
    // A file with several games is refused, not guessed at.
    let many = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "rules",
        "tests",
        "data",
        "pdn",
        "nk2009-ronde12.pdn",
    ]
    .iter()
    .collect::<PathBuf>();
    let out = tandem(&[
        "arbiter",
        "reconcile",
        many.to_str().unwrap(),
        &data("braille-wrong-ply-21.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds 7 games"));
}
