//! `tandem arbiter reconcile|diff|announcements` for backgammon, run as the
//! built binary on real records: the journal of a match played through the
//! real daemon (`tandem play --variant backgammon` driven by `tandem ctl`),
//! its own `tandem export` `.mat`, the same match exported again by the real
//! GNU Backgammon (`import mat`, `export match mat`), a match gnubg plays
//! against itself, and sheets typed from paper with one wrong roll or move.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use support::cli::json_of;
use support::{backgammon_match, ctl, tandem, verify_ok};
use tandem_rules::backgammon::arbiter::play_entry;
use tandem_rules::backgammon::{Board, Match, MatchOptions};
use tandem_rules::{Color, TableGame};
use tandem_testkit::gnubg;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn ok(socket: &Path, args: &[&str]) {
    let out = ctl(socket, args);
    assert!(out.status.success(), "tandem ctl {args:?}: {}", text(&out));
}

fn script() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "tests", "data", "gnubg_mat.py"]
        .iter()
        .collect()
}

fn reconcile(a: &Path, b: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "arbiter",
        "reconcile",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    tandem(&args)
}

/// The sheet a sighted opponent writes of the match below, typed loosely:
/// sides as letters, `-` and run-together digits, the bar as 25, the end of
/// the game written out.
const SHEET: &str = "\
Game 1
1) W 52: 13/11 13/8
   B 64: 24-14
2) W 31: 25/22 65
   B doubles
3) W takes
   B 11: 8/7(2) 6/5(2)
4) W 33: 24/21(2) 8/5(2)
   B 21: 24/21
5) W doubles
   B drops
white wins 2 points
Game 2
1) W 42: 8/4 6/4
   B 65: 24/13
";

#[test]
fn a_daemon_journal_its_mat_and_gnubgs_mat_agree_and_sheets_name_the_first_slip() {
    let dir = tempfile::tempdir().unwrap();
    let three = ["--match", "3", "--white", "Alice", "--black", "Bob"];
    let (_d, journal, sock) = backgammon_match(dir.path(), &three);
    let j = journal.to_str().unwrap();
    for step in [
        &["roll", "5", "2"][..],
        &["move", "13/11 13/8"],
        &["roll", "6", "4"],
        &["move", "24/14*"],
        &["roll", "3", "1"],
        &["move", "bar/22 6/5"],
        &["double"],
        &["take"],
        &["roll", "1", "1"],
        &["move", "8/7(2) 6/5(2)"],
        &["roll", "3", "3"],
        &["move", "24/21(2) 8/5(2)"],
        &["roll", "2", "1"],
        &["move", "24/21"],
        &["double"],
        &["pass"],
        // The Crawford game; a roll made again (004 4.2) is taken back.
        &["roll", "4", "2"],
        &["move", "8/4 6/4"],
        &["roll", "2", "1"],
        &["reroll"],
        &["roll", "6", "5"],
        &["move", "24/13"],
    ] {
        ok(&sock, step);
    }
    // Refused: a double in the Crawford game (listed for 3.2, not charged: from ctl).
    assert_eq!(ctl(&sock, &["double"]).status.code(), Some(1));
    verify_ok(&journal);

    // The journal's own export.
    let out = tandem(&["export", j]);
    assert!(out.status.success(), "{}", text(&out));
    let ours = write(
        dir.path(),
        "tandem.mat",
        &String::from_utf8(out.stdout).unwrap(),
    );

    // Detected without --variant: a journal names its game.
    let out = reconcile(&journal, &ours, &["--lang", "en", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let r = json_of(&out);
    assert_eq!(r["variant"], "backgammon");
    assert_eq!(r["agree"], true);
    assert_eq!(r["agreed_plies"], 12, "{r}");
    assert_eq!(r["records"]["a"]["format"], "journal");
    assert_eq!(r["records"]["b"]["format"], "mat");
    assert_eq!(r["score"]["white"], 2);
    assert_eq!(r["score"]["crawford"], true);
    assert!(
        r["clocks"]["white_remaining"].as_f64().unwrap() > 0.0,
        "{r}"
    );
    assert_eq!(r["agreed_moves"][0], "white 52: 13/11 13/8");

    // The same match written by the real gnubg (import mat, export match mat).
    if gnubg::present() {
        let theirs = dir.path().join("gnubg.mat");
        let (answer, stderr) = gnubg::ask(
            &script(),
            dir.path(),
            &format!("X {} {}\n", ours.display(), theirs.display()),
        );
        assert!(theirs.exists(), "gnubg wrote no .mat: {answer}{stderr}");
        let out = reconcile(&journal, &theirs, &["--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert_eq!(json_of(&out)["agreed_plies"], 12);
        let out = reconcile(&ours, &theirs, &["--variant", "backgammon"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }

    // The blind player's record as a BRF file (tandem's export, read back
    // with the real liblouis).
    let out = tandem(&["export", j, "--format", "brf", "--lang", "en"]);
    assert!(out.status.success(), "{}", text(&out));
    let brf = dir.path().join("record.brf");
    std::fs::write(&brf, &out.stdout).unwrap();
    let out = reconcile(&journal, &brf, &["--variant", "backgammon", "--lang", "en"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        text(&out),
        String::from_utf8_lossy(&std::fs::read(&brf).unwrap())
    );

    // The sighted opponent's sheet, typed loosely: it agrees too.
    let sheet = write(dir.path(), "sheet.txt", SHEET);
    let out = reconcile(&journal, &sheet, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(json_of(&out)["records"]["b"]["format"], "list");

    // A wrong roll: white's 33 written as 22 (the move no longer fits).
    let wrong_roll = write(
        dir.path(),
        "wrong-roll.txt",
        &SHEET.replace("W 33: 24/21(2)", "W 22: 24/21(2)"),
    );
    let out = reconcile(&journal, &wrong_roll, &["--json", "--lang", "en"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let r = json_of(&out);
    let d = &r["first_difference"];
    assert_eq!(d["ply"], 7, "{r}");
    assert_eq!(d["game"], 1);
    assert_eq!(d["line"], 4);
    assert_eq!(d["side"], "white");
    assert_eq!(d["a_roll"], "33");
    assert_eq!(d["b_roll"], "22");
    assert_eq!(d["differs"], "roll");
    assert_eq!(d["a_legal"], true);
    assert_eq!(d["b_legal"], false);
    assert_eq!(d["a_move"], "white 33: 24/21(2) 8/5(2)");
    assert!(d["b_reason"].as_str().is_some_and(|s| !s.is_empty()), "{r}");
    assert_eq!(r["agreed_plies"], 6);
    // Play goes back to the position before it, with the clocks there.
    assert!(r["clocks"].is_object(), "{r}");
    let t = text(&reconcile(&journal, &wrong_roll, &["--lang", "en"]));
    assert!(
        t.contains("First difference: entry 7 (game 1, line 4 white, in the position below)"),
        "{t}"
    );
    assert!(t.contains("B: white 22: 24/21(2) 8/5(2) (illegal: "), "{t}");

    // A wrong move that is legal: black's 11 played another way.
    let wrong_move = write(
        dir.path(),
        "wrong-move.txt",
        &SHEET.replace("8/7(2) 6/5(2)", "8/7(2) 6/4"),
    );
    let out = reconcile(&journal, &wrong_move, &["--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let r = json_of(&out);
    assert_eq!(r["first_difference"]["ply"], 6, "{r}");
    assert_eq!(r["first_difference"]["b_legal"], true);
    assert_eq!(r["first_difference"]["a_roll"], "11");
    assert_eq!(r["first_difference"]["differs"], "move");
    assert_eq!(r["finding"]["kind"], "wrong_move", "{r}");

    // A corrupt .mat: exit 2, naming the file and the line.
    let corrupt = write(
        dir.path(),
        "corrupt.mat",
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 5x: 13/11 13/8\n",
    );
    let out = reconcile(&journal, &corrupt, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let t = text(&out);
    assert!(t.contains("corrupt.mat") && t.contains("line 5"), "{t}");
    let headless = write(dir.path(), "headless.mat", "Game 1\n  1) 52: 13/11 13/8\n");
    let out = reconcile(&ours, &headless, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("headless.mat"), "{}", text(&out));

    // Announcements on a backgammon journal: the refused double is listed,
    // charged to nobody (it came through the control socket), black to act.
    let out = tandem(&["arbiter", "announcements", j, "--json"]);
    assert!(out.status.success(), "{}", text(&out));
    let st = json_of(&out);
    let refused = st["refused"].as_array().unwrap();
    assert!(
        refused.iter().any(
            |r| r["input"].as_str().is_some_and(|i| i.contains("double")) && r["side"] == "white"
        ),
        "{st}"
    );
    assert_eq!(st["white"]["moves"], 4, "{st}");
    assert_eq!(st["black"]["moves"], 4, "{st}");
    assert_eq!(st["white"]["refused"], 0);
}

#[test]
fn a_match_gnubg_plays_reads_and_a_sheet_of_it_with_a_slip_is_caught() {
    if !gnubg::present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mat = dir.path().join("played.mat");
    let (answer, stderr) = gnubg::ask(
        &script(),
        dir.path(),
        &format!("P 3 17 {}\n", mat.display()),
    );
    let text_mat = std::fs::read_to_string(&mat)
        .unwrap_or_else(|e| panic!("gnubg wrote no .mat ({e}): {answer}{stderr}"));
    let out = reconcile(&mat, &mat, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let r = json_of(&out);
    let plies = r["agreed_plies"].as_u64().unwrap();
    assert!(plies > 20, "{r}");
    // gnubg's last position, as it says (its Position ID and Match ID).
    let fields: Vec<&str> = answer.trim().split('\t').collect();
    assert_eq!(r["position_id"], fields[1], "{text_mat}");

    // The same match as a sheet, one entry a line with its side, moves
    // written with `-`: it agrees; one move changed, it does not.
    let moves: Vec<String> = r["agreed_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().replace('/', "-"))
        .collect();
    let sheet = write(dir.path(), "sheet.txt", &moves.join("\n"));
    let out = reconcile(&mat, &sheet, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // One roll misread as 66 (a turn with two different dice that moved).
    let k = moves
        .iter()
        .position(|m| {
            let d: Vec<char> = m.split_whitespace().nth(1).unwrap_or("").chars().collect();
            d.len() == 3 && d[0] != d[1] && m.contains('-')
        })
        .unwrap();
    let mut bad = moves.clone();
    let (side, rest) = bad[k].split_once(' ').unwrap();
    let (_, mv) = rest.split_once(':').unwrap();
    bad[k] = format!("{side} 66:{mv}");
    let sheet = write(dir.path(), "bad.txt", &bad.join("\n"));
    let out = reconcile(&mat, &sheet, &["--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json_of(&out)["first_difference"]["ply"], k + 1);
}

fn diff(a: &str, b: &str, extra: &[&str]) -> Output {
    let mut args = vec!["arbiter", "diff", a, b];
    args.extend_from_slice(extra);
    tandem(&args)
}

#[test]
fn diff_of_position_ids_says_what_to_change_in_the_blind_players_numbers() {
    let start = "4HPwATDgc/ABMA";
    let out = diff(start, start, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // The record: white opened 52 with 13/11 13/8; the board still has the
    // checker on 13 that went to 11.
    let mut m = Match::new(MatchOptions { length: 3 });
    play_entry(&mut m, "white 52: 13/11 13/8").unwrap();
    let right = m.position_text();
    let b = m.board();
    let mut white = *b.side(Color::White);
    white[10] -= 1;
    white[12] += 1;
    let wrong = Board::from_sides(white, *b.side(Color::Black), b.turn()).unwrap();
    let mid = right.split(':').nth(1).unwrap();
    let board_b = format!(
        "{}:{mid}",
        tandem_rules::backgammon::position_id::encode(&wrong)
    );
    let out = diff(&right, &board_b, &["--lang", "en", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let r = json_of(&out);
    assert_eq!(r["variant"], "backgammon");
    assert_eq!(r["same"], false);
    let d = r["differences"].as_array().unwrap();
    assert_eq!(d.len(), 2, "{r}");
    assert_eq!(d[0]["point"], 13);
    assert_eq!(d[0]["point_black"], 12);
    assert_eq!((d[0]["a"].as_u64(), d[0]["b"].as_u64()), (Some(3), Some(4)));
    assert_eq!(
        r["spoken"],
        "Take one white checker off point thirteen. Put one white checker on point eleven."
    );
    // The blind player plays black: black's numbers, or both.
    let out = diff(
        &right,
        &board_b,
        &["--lang", "en", "--json", "--blind", "black"],
    );
    assert_eq!(
        json_of(&out)["spoken"],
        "Take one white checker off point twelve. Put one white checker on point fourteen."
    );
    let out = diff(
        &right,
        &board_b,
        &[
            "--lang",
            "pl",
            "--json",
            "--blind",
            "black",
            "--numbering",
            "both",
        ],
    );
    assert_eq!(
        json_of(&out)["spoken"],
        "Z punktu dwanaście, u białych trzynaście zdejmij jeden pion białych. Na punkt czternaście, u białych jedenaście postaw jeden pion białych."
    );
    let t = text(&diff(&right, &board_b, &["--lang", "en"]));
    assert!(
        t.contains("Take 1 white checker off point 13, black's 12."),
        "{t}"
    );

    // The Match IDs differ: the dice after black's roll, the cube.
    let mut rolled = m.clone();
    rolled
        .act(tandem_rules::backgammon::Action::Roll(
            tandem_rules::backgammon::Dice(6, 4),
        ))
        .unwrap();
    let out = diff(&rolled.position_text(), &right, &["--lang", "en", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let r = json_of(&out);
    assert_eq!(r["differences"].as_array().unwrap().len(), 0, "{r}");
    assert_eq!(r["match"][0]["field"], "dice", "{r}");
    assert_eq!(r["spoken"], "Set the dice to six four.");

    // A bad ID: exit 2, saying which.
    let out = diff("4HPwATDgc/ABM!", start, &["--variant", "backgammon"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("ID_A"), "{}", text(&out));
}

#[test]
fn two_typed_sheets_are_told_apart_from_draughts_and_need_the_match_length() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(
        dir.path(),
        "opponent.txt",
        "W 52: 13/11 13/8\nB 64: 24/14*\nW 31: bar/22 6/5\n",
    );
    // The blind player's sheet: no sides, two entries a line, loose moves.
    let b = write(
        dir.path(),
        "blind.txt",
        "52: 1311 138   64: 24-14\n31: 25/22 65\n",
    );
    let out = reconcile(&a, &b, &["--lang", "en"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--match"), "{}", text(&out));
    let out = reconcile(&a, &b, &["--match", "5", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let r = json_of(&out);
    assert_eq!(r["variant"], "backgammon");
    assert_eq!(r["score"]["length"], 5);
    assert_eq!(r["agreed_plies"], 3);
    // A sheet that is neither: exit 2, naming the line.
    let c = write(dir.path(), "junk.txt", "W 52: 13/11 13/8\nhello there\n");
    let out = reconcile(&a, &c, &["--match", "5"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("junk.txt: line 2"), "{}", text(&out));
}
