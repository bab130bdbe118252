//! `tandem arbiter reconcile` on real `.mat` files as FIBS, gnubg and other
//! programs wrote them (`rules/tests/data/mat/real/`, provenance there),
//! run as the built binary: each file against itself agrees to the end, at
//! the Position ID and Match ID the real GNU Backgammon reaches with `import
//! mat`; a record's irregularities (an illegal recorded move, a roll
//! without its move) are reported at their game and line. The exports of
//! today's servers (`real/servers/`) are sampled, one file per form.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use support::tandem;
use tandem_testkit::gnubg;

fn real(name: &str) -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "rules",
        "tests",
        "data",
        "mat",
        "real",
        name,
    ]
    .iter()
    .collect()
}

fn reconcile(a: &Path, b: &Path) -> (Output, Value) {
    let out = tandem(&[
        "arbiter",
        "reconcile",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--json",
        "--lang",
        "en",
    ]);
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, json)
}

/// gnubg's Position ID and Match ID after `import mat` of each file.
fn gnubg_ids(files: &[PathBuf]) -> Option<Vec<(String, String)>> {
    if !gnubg::present() {
        return None;
    }
    let script = gnubg::oracle();
    let questions: String = files
        .iter()
        .map(|f| format!("M {}\n", f.display()))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let (answers, stderr) = gnubg::ask(&script, dir.path(), &questions);
    let ids: Vec<(String, String)> = answers
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].to_owned(), f[2].to_owned())
        })
        .collect();
    assert_eq!(ids.len(), files.len(), "gnubg's stderr:\n{stderr}");
    Some(ids)
}

#[test]
fn real_mat_files_reconcile_with_themselves_to_gnubgs_ids() {
    // A roll then a resignation; a forced move left out; the score on game
    // 1's line; a match won in the Crawford game; a match ended by
    // resignation; no `*` on hits; tag lines; CRLF; a roll without its move.
    let files: Vec<PathBuf> = [
        "kevung-roll_then_resign_1p.mat",
        "Amirrr-nori-2009Feb151603.mat",
        "nicksbar-nori-2009Jan302316.mat",
        "BlueNote-nori-2009Jan181115.mat",
        "Kopanze-nori-2009Mar220108.mat",
        "1887435.mat",
        "1863526.mat",
        "kevung-charlot.mat",
        "gibbon-7point.mat",
        "Wakagashira-nori-2009Feb092110.mat",
    ]
    .iter()
    .map(|f| real(f))
    .collect();
    assert_reconciled_to_gnubgs_ids(&files);
}

/// Each of `files` reconciled with itself agrees (exit 0), at gnubg's
/// Position and Match IDs where gnubg runs.
fn assert_reconciled_to_gnubgs_ids(files: &[PathBuf]) {
    let theirs = gnubg_ids(files);
    for (k, f) in files.iter().enumerate() {
        let (out, json) = reconcile(f, f);
        assert_eq!(out.status.code(), Some(0), "{}: {json}", f.display());
        assert_eq!(json["agree"], true, "{}", f.display());
        if let Some(ids) = &theirs {
            assert_eq!(json["position_id"], ids[k].0, "{}", f.display());
            assert_eq!(json["match_id"], ids[k].1, "{}", f.display());
        }
    }
}

#[test]
fn server_exports_reconcile_with_themselves_to_gnubgs_ids() {
    // Issue 34, one file per form (all 1,774 in the rules crate's test):
    // Galaxy's `Losses` beside the winner's last move and after the first
    // move, `Wins 3 point and the match` for a game worth 6, `Wins 1 point`
    // for a gammon in a `16 point match`, a second turn number in the right
    // column; Studio's and eXtreme Gammon's `???` after a roll (the last
    // with a byte order mark and CRLF). A record that stops between games
    // is left out here: the report's Match ID is the table's (the next
    // game's Crawford flag, as gnubg sets it when a game ends at the
    // table), where `import mat` keeps the last game's.
    let files: Vec<PathBuf> = [
        "galaxy/match10030560.mat",
        "galaxy/match1574327.mat",
        "galaxy/match1061881.mat",
        "galaxy/match8239468.mat",
        "galaxy/match2900236.mat",
        "studio/MrPurple_-_Lasse_3pt_Backgammon_Studio_2024_05_11_20_10_33.mat",
        "xg/cuotos-fullmatch1.mat",
        "xg/kevung-gbf-test.mat",
    ]
    .iter()
    .map(|f| real(&format!("servers/{f}")))
    .collect();
    assert_reconciled_to_gnubgs_ids(&files);
    // The capped value is reported.
    let (_, json) = reconcile(&files[2], &files[2]);
    let notes = json["notes"].to_string();
    assert!(
        notes.contains("worth 6; the file gives 3, capped"),
        "{notes}"
    );
}

#[test]
fn a_real_records_irregularities_are_reported_at_their_game_and_line() {
    // White's `31:` without a move, black's turn after it: the comparison
    // reads on and the note names the game and the file's line.
    let f = real("Wakagashira-nori-2009Feb092110.mat");
    let (_, json) = reconcile(&f, &f);
    let notes = json["notes"].to_string();
    assert!(notes.contains("game 2, line 47"), "{notes}");
    assert!(notes.contains("roll 31 has no move"), "{notes}");

    // Snowie's `Illegal play (...)`: the entry is reported as illegal at
    // game 11 (the record's line 24), the file's line 315 in the notes, and
    // the comparison up to it agrees.
    let f = real("Nori-Kenji081229.mat");
    let (out, json) = reconcile(&f, &f);
    assert_eq!(out.status.code(), Some(1), "{json}");
    assert_eq!(json["finding"]["kind"], "same_illegal");
    assert_eq!(json["agreed_plies"], 542);
    let d = &json["first_difference"];
    assert_eq!(
        (d["game"].as_u64(), d["line"].as_u64()),
        (Some(11), Some(24))
    );
    assert_eq!(d["a_legal"], false);
    let notes = json["notes"].to_string();
    assert!(notes.contains("game 11, line 315"), "{notes}");
    assert!(notes.contains("Illegal play"), "{notes}");
    // Against a copy that stops before the illegal play, the file is the
    // longer record and the same 542 entries agree.
    let text = std::fs::read_to_string(&f).unwrap();
    let cut: String = text.lines().take(314).map(|l| format!("{l}\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    let short = dir.path().join("short.mat");
    std::fs::write(&short, cut).unwrap();
    let (out, json) = reconcile(&short, &f);
    assert_eq!(out.status.code(), Some(1), "{json}");
    assert_eq!(json["agreed_plies"], 542);
    assert_eq!(json["finding"]["kind"], "ends");
}

#[test]
fn score_lines_without_a_space_before_the_colon_reconcile_with_their_originals() {
    // Issue 44: `PlayerA: 0     PlayerB: 0`, as newer servers write a
    // game's score line (`rules/tests/data/mat/colon/`, real files with only
    // that line rewritten). Each reads entry for entry as its original and
    // ends at gnubg's IDs.
    let colon = |f: &str| {
        real(f)
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .join("colon")
            .join(f)
    };
    let pairs = [
        ("gibbon-7point.mat", real("gibbon-7point.mat")),
        (
            "BlueNote-nori-2009Jan181115.mat",
            real("BlueNote-nori-2009Jan181115.mat"),
        ),
        (
            "match10013413.mat",
            real("servers/galaxy/match10013413.mat"),
        ),
    ];
    let files: Vec<PathBuf> = pairs.iter().map(|(f, _)| colon(f)).collect();
    let theirs = gnubg_ids(&files);
    for (k, (f, original)) in pairs.iter().enumerate() {
        let (out, json) = reconcile(&colon(f), original);
        assert_eq!(out.status.code(), Some(0), "{f}: {json}");
        assert_eq!(json["agree"], true, "{f}: {json}");
        if let Some(ids) = &theirs {
            assert_eq!(json["position_id"], ids[k].0, "{f}");
            assert_eq!(json["match_id"], ids[k].1, "{f}");
        }
    }
}
