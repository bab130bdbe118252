//! `tandem moves` (issue 17's exact contract): every legal move of a roll,
//! once each, as GNU Backgammon writes it; checked against the real gnubg
//! (`/usr/games/gnubg`, one process for all positions). Without gnubg the
//! test fails, unless TANDEM_SKIP_REAL is set outside CI.

mod support;

use support::cli::run_lossy as tandem;

use std::collections::BTreeSet;

fn json_moves(id: &str, dice: &str) -> Vec<String> {
    let (code, out, err) = tandem(&[
        "moves",
        "--variant",
        "backgammon",
        "--position",
        id,
        "--dice",
        dice,
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "one field: {out}");
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_opening_three_one_lists_sixteen_moves() {
    let moves = json_moves("4HPwATDgc/ABMA", "31");
    assert_eq!(moves.len(), 16);
    assert!(moves.contains(&"8/5 6/5".to_owned()));
    assert!(moves.contains(&"24/20".to_owned()));
    // Larger die first or not: the same list.
    assert_eq!(json_moves("4HPwATDgc/ABMA", "13"), moves);
    // Without --json: one move a line.
    let (code, out, _) = tandem(&[
        "moves",
        "--variant",
        "backgammon",
        "--position",
        "4HPwATDgc/ABMA",
        "--dice",
        "31",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 16);
}

#[test]
fn a_closed_out_checker_on_the_bar_passes_with_an_empty_list() {
    // The opponent holds points 1..6 and 7 of the mover's entry; the mover is on the bar.
    let (code, out, _) = tandem(&[
        "moves",
        "--variant",
        "backgammon",
        "--position",
        "27YdAAAAAID/Xw",
        "--dice",
        "31",
        "--json",
    ]);
    // That ID puts both sides on one point; a bad ID is refused with a reason.
    assert_eq!(code, Some(2), "{out}");
    let closed = "27YdAADg/wcAQA";
    assert_eq!(json_moves(closed, "64"), Vec::<String>::new());
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let (code, _, err) = tandem(&[
        "moves",
        "--variant",
        "backgammon",
        "--position",
        "nonsense",
        "--dice",
        "31",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("Position ID"), "{err}");
    let (code, _, err) = tandem(&["moves", "--variant", "backgammon", "--dice", "71"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--dice"), "{err}");
}

#[test]
fn draughts_and_chess_list_their_moves_too() {
    let (code, out, _) = tandem(&["moves", "--variant", "international", "--json"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    let (_, out, _) = tandem(&["moves", "--variant", "chess", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 20);
    assert!(v["moves"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("Nf3")));
}

#[test]
fn moves_agree_with_gnubg() {
    if !tandem_testkit::gnubg::present() {
        return;
    }
    // Openings, a checker on the bar, a hit on the way, doubles, bearing off, a pass.
    let cases = [
        ("4HPwATDgc/ABMA", "31"),
        ("4HPwATDgc/ABMA", "66"),
        ("4HPwATDgc/ABMA", "55"),
        ("sGfwATDgc/ABMA", "64"),
        ("OoI8YFE2XiBCUQ", "23"),
        ("nEqyQgPv/QAABA", "26"),
        ("HAEY7Vj2AZMWQA", "11"),
        ("8H0AALC7BQAAAA", "62"),
        ("27YdAADg/wcAQA", "64"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let questions: Vec<String> = cases
        .iter()
        .map(|(id, d)| {
            let b = d.as_bytes();
            format!("H {id} {} {}", char::from(b[0]), char::from(b[1]))
        })
        .collect();
    let script = tandem_testkit::gnubg::oracle();
    let (answers, stderr) =
        tandem_testkit::gnubg::ask(&script, dir.path(), &(questions.join("\n") + "\n"));
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), cases.len(), "{stderr}");
    for ((id, dice), answer) in cases.iter().zip(answers) {
        let field = answer.split('\t').nth(1).unwrap();
        assert!(!field.starts_with("BOARD-REFUSED"), "gnubg refused {id}");
        let theirs: BTreeSet<String> = field
            .split('|')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let list = json_moves(id, dice);
        let ours: BTreeSet<String> = list.iter().cloned().collect();
        assert_eq!(
            ours.len(),
            list.len(),
            "a move twice for {id} {dice}: {list:?}"
        );
        assert_eq!(ours, theirs, "{id} dice {dice}");
    }
}
