//! `tandem perft` and `tandem pdn check` (issue 2: exact command lines).

mod support;

use support::cli::run_lossy as tandem;

use support::cli::rules_data as data;

#[test]
fn perft_json_has_depth_nodes_seconds() {
    let (code, out, _) = tandem(&["perft", "--json", "5"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["depth"], 5);
    assert_eq!(v["nodes"], 27117);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);

    let (_, out, _) = tandem(&["perft", "--variant", "sixty-four", "--json", "4"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["nodes"], 1469);

    let woldouby = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38";
    let (_, out, _) = tandem(&["perft", "--fen", woldouby, "--json", "6"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["nodes"], 590);
}

#[test]
fn perft_divide_lists_each_move() {
    let (code, out, _) = tandem(&["perft", "--divide", "3"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}"); // 9 moves and the total
    let sum: u64 = lines[..9]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 658);
    assert!(lines[9].contains("nodes 658"));
}

#[test]
fn perft_bad_fen_names_the_part() {
    let (code, _, err) = tandem(&["perft", "--fen", "W:W31,51:B1", "2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("51"), "{err}");
}

#[test]
fn pdn_check_accepts_real_games() {
    let (code, out, _) = tandem(&[
        "pdn",
        "check",
        &data("pdn/nk2009-ronde12.pdn"),
        &data("pdn/lidraughts-brazilian.pdn"),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.ends_with(" ok, 0 failed"), "{last}");
}

#[test]
fn pdn_check_json_reports_each_game_and_a_summary() {
    let (code, out, _) = tandem(&[
        "pdn",
        "check",
        "--json",
        &data("pdn/bad/illegal-move.pdn"),
        &data("pdn/bad/bad-fen.pdn"),
    ]);
    assert_eq!(code, Some(1));
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs.len(), 5);
    assert_eq!(objs[0]["status"], "ok");
    assert_eq!(objs[1]["status"], "illegal");
    assert_eq!(objs[1]["ply"], 6);
    assert_eq!(objs[1]["move"], "20-26");
    assert!(objs[1]["reason"].as_str().unwrap().contains("26"));
    assert_eq!(objs[2]["status"], "ok");
    assert_eq!(objs[3]["status"], "unreadable");
    assert!(objs[3]["reason"].as_str().unwrap().contains("51"));
    for (i, o) in objs[..4].iter().enumerate() {
        assert_eq!(o["index"], i + 1);
    }
    for o in &objs[..4] {
        assert_eq!(o["warnings"], 0, "{o}");
    }
    assert_eq!(
        objs[4],
        serde_json::json!({"games": 4, "ok": 2, "failed": 2, "warnings": 0})
    );
}

#[test]
fn pdn_check_of_a_file_with_no_game_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pdn");
    std::fs::write(&empty, "\n\n").unwrap();
    let (code, out, _) = tandem(&["pdn", "check", empty.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(out.contains("no game found"), "{out}");
    assert!(out.contains("1 games, 0 ok, 1 failed"));
    let (code, _, err) = tandem(&["pdn", "check", "/nonexistent/x.pdn"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("/nonexistent/x.pdn"));
}

/// Issue 14: messy exports keep every game; warnings are reported apart
/// from failures, with line and column, and counted per game and in total.
#[test]
fn pdn_check_reports_warnings_apart_from_failures() {
    let files = [data("messy/failures.pdn"), data("messy/encodings.pdn")];
    let (code, out, _) = tandem(&["pdn", "check", &files[0], &files[1]]);
    assert_eq!(code, Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"6 games, 4 ok, 2 failed"), "{out}");
    assert_eq!(
        lines[lines.len() - 2],
        "4 warnings: text skipped or repaired (lines above)"
    );
    assert!(
        out.contains(&format!("{}:1:1: warning: a lone `[` skipped", files[0])),
        "{out}"
    );
    assert!(
        out.contains("game 2 (A.  van Berkel - M.  Barkel): illegal move 20-26 at ply 12"),
        "{out}"
    );
    assert!(
        out.contains("game 4 (Hélène Müller - H.  Clasquin): ok (20 plies), 1 warning"),
        "{out}"
    );

    let (code, out, _) = tandem(&["pdn", "check", "--json", &files[0], &files[1]]);
    assert_eq!(code, Some(1));
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let warnings: Vec<u64> = objs[..6]
        .iter()
        .map(|o| o["warnings"].as_u64().unwrap())
        .collect();
    assert_eq!(warnings, [1, 1, 0, 1, 1, 0]);
    assert_eq!(objs[1]["status"], "illegal");
    assert_eq!(objs[1]["ply"], 12);
    assert_eq!(objs[3]["players"], "Hélène Müller - H.  Clasquin");
    assert_eq!(
        objs[0]["warning_details"],
        serde_json::json!([{"line": 1, "column": 1, "message": "a lone `[` skipped"}])
    );
    assert_eq!(
        objs[6],
        serde_json::json!({"games": 6, "ok": 4, "failed": 2, "warnings": 4})
    );
}

/// Invalid UTF-8 is read, not refused; a PGN file gets the same care.
#[test]
fn pdn_check_reads_raw_bytes_and_messy_pgn() {
    let (code, out, _) = tandem(&["pdn", "check", "--json", &data("messy/messy.pgn")]);
    assert_eq!(code, Some(1), "{out}");
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs[0]["players"], "Hélène - Jürgen");
    assert_eq!(objs[3]["move"], "Kh8");
    assert_eq!(
        objs[4],
        serde_json::json!({"games": 4, "ok": 3, "failed": 1, "warnings": 7})
    );
}
