//! `tandem clock` run as the built binary: exact JSON, exit codes, messages.

mod support;

use support::tandem;

use std::path::PathBuf;

use serde_json::{json, Value};

/// Writes a presses file into a fresh temp dir (kept alive by the guard).
fn presses(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("presses.txt");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// `tandem clock replay --control CONTROL --presses PRESSES EXTRA..`.
fn replay<'a>(control: &'a str, presses: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "clock",
        "replay",
        "--control",
        control,
        "--presses",
        presses,
    ];
    args.extend_from_slice(extra);
    args
}

fn replay_json(control: &str, text: &str, extra: &[&str]) -> Value {
    let (_dir, path) = presses(text);
    let out = tandem(&replay(
        control,
        path.to_str().unwrap(),
        &[&["--json"], extra].concat(),
    ));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "one JSON object: {stdout}");
    serde_json::from_str(&stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = tandem(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn replay_json_code_6_1_2_example() {
    // 15' + 5": white moves in 3 s and has 15:02; black in 7 s: 14:58.
    let v = replay_json(
        "15m+5s",
        "# 001 ch. II 6.1.2\n3\n\n10   # black\n20.5\n",
        &[],
    );
    assert_eq!(
        v,
        json!({
            "control": "15m+5s",
            "presses": [
                {"ply": 1, "at": 3.0, "white_remaining": 902.0, "black_remaining": 900.0, "white_used": 3.0, "black_used": 0.0},
                {"ply": 2, "at": 10.0, "white_remaining": 902.0, "black_remaining": 898.0, "white_used": 3.0, "black_used": 7.0},
                {"ply": 3, "at": 20.5, "white_remaining": 896.5, "black_remaining": 898.0, "white_used": 13.5, "black_used": 7.0},
            ],
            "flag": null,
            "flags": [],
        })
    );
    let v = replay_json("15m+5s:bronstein", "3\n", &[]);
    assert_eq!(v["presses"][0]["white_remaining"], json!(900.0));
}

#[test]
fn replay_json_code_6_1_4_example() {
    // 90 min for 45 moves, then 30 min: 45 moves in 70 minutes leave 50.
    // White thinks 93 s a move for 44 moves (68 min 12 s), then 1 min 48 s; black 10 s.
    let mut text = String::new();
    let mut t = 0u64;
    for n in 1..=45 {
        t += if n == 45 { 108 } else { 93 };
        text.push_str(&format!("{t}\n"));
        t += 10;
        text.push_str(&format!("{t}\n"));
    }
    let v = replay_json("90m/45,30m", &text, &[]);
    let presses = v["presses"].as_array().unwrap();
    assert_eq!(presses.len(), 90);
    let white_45th = &presses[88];
    assert_eq!(white_45th["ply"], json!(89));
    assert_eq!(white_45th["white_used"], json!(70.0 * 60.0));
    assert_eq!(white_45th["white_remaining"], json!(50.0 * 60.0));
    assert_eq!(
        presses[87]["white_remaining"],
        json!(90.0 * 60.0 - 44.0 * 93.0)
    );
    assert_eq!(v["flag"], Value::Null);
}

#[test]
fn replay_reports_the_moment_the_flag_fell() {
    // 1 minute each. White: 50 s (10 s left). Black: 5 s. White's flag falls
    // 10 s into the next move, at 65 s, though white pressed only at 85 s.
    // Replay goes on: black's flag falls at 85 + 55 = 140 s, before black's
    // press at 150 s; white, flagged, stays at zero.
    let v = replay_json("1m", "50\n55\n85\n150\n151\n", &[]);
    assert_eq!(v["flag"], json!({"side": "white", "at": 65.0}));
    assert_eq!(
        v["flags"],
        json!([{"side": "white", "at": 65.0}, {"side": "black", "at": 140.0}])
    );
    let p = &v["presses"];
    assert_eq!(
        p[2],
        json!({"ply": 3, "at": 85.0, "white_remaining": 0.0, "black_remaining": 55.0, "white_used": 80.0, "black_used": 5.0})
    );
    assert_eq!(p[3]["black_remaining"], json!(0.0));
    assert_eq!(p[4]["white_remaining"], json!(0.0));
    assert_eq!(p[4]["white_used"], json!(81.0));
}

#[test]
fn replay_end_runs_the_clock_on() {
    // Black never pressed: the arbiter stopped the clock at 400 s.
    let v = replay_json("blitz-5", "10\n", &["--end", "400"]);
    assert_eq!(v["flag"], json!({"side": "black", "at": 310.0}));
    let v = replay_json("blitz-5", "10\n", &["--end", "300"]);
    assert_eq!(v["flag"], Value::Null);
}

#[test]
fn replay_presets_and_delay() {
    // eubgf-7: 14 min, 12 s delay: a 20-s move costs 8 s, a 10-s one nothing.
    let v = replay_json("eubgf-7", "20\n30\n", &[]);
    assert_eq!(v["control"], json!("14m+12s:delay"));
    assert_eq!(v["presses"][0]["white_remaining"], json!(832.0));
    assert_eq!(v["presses"][1]["black_remaining"], json!(840.0));
    // fmjd-preferred by name.
    let v = replay_json("fmjd-preferred", "60\n", &[]);
    assert_eq!(v["presses"][0]["white_remaining"], json!(89.0 * 60.0));
}

#[test]
fn replay_text_output() {
    let (_dir, path) = presses("50\n55\n85\n");
    let out = tandem(&replay("1m", path.to_str().unwrap(), &[]));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("control 1m\n"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ply ")).count(),
        3,
        "{text}"
    );
    assert!(text.contains("white's flag fell at 1:05"), "{text}");
    assert!(
        text.contains("  white: 0:00 left, 1:20 used, 2 moves made"),
        "{text}"
    );
    assert!(
        text.contains("  black: 0:55 left, 0:05 used, 1 move made"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("flag: white's fell at 1:05"),
        "{text}"
    );
}

#[test]
fn replay_bad_input_exits_2_naming_the_problem() {
    let (_dir, path) = presses("3\n\n# c\n1O.5\n");
    let p = path.to_str().unwrap();
    let err = fails(&replay("5m", p, &[]));
    assert!(
        err.contains("line 4: \"1O.5\" is not a time in seconds"),
        "{err}"
    );

    let (_dir2, path2) = presses("3\n2.5\n");
    let err = fails(&replay("5m", path2.to_str().unwrap(), &[]));
    assert!(
        err.contains("line 2: 2.5 s is before the previous press at 3 s (line 1)"),
        "{err}"
    );

    let err = fails(&replay("90m/x", p, &[]));
    assert!(
        err.contains(
            r#"not a written time control: a number of moves must be a whole number from 1 at "x""#
        ),
        "{err}"
    );
    let err = fails(&replay("2h/50,1h/25", p, &[]));
    assert!(err.contains(r#"repeat (/moves*) at "1h/25""#), "{err}");
    let err = fails(&replay("eubgf-0", p, &[]));
    assert!(err.contains("eubgf-N"), "{err}");

    let err = fails(&replay("5m", "/nonexistent/presses.txt", &[]));
    assert!(err.contains("/nonexistent/presses.txt"), "{err}");
    let (_dir3, ok) = presses("10\n");
    let err = fails(&replay("5m", ok.to_str().unwrap(), &["--end", "5"]));
    assert!(err.contains("--end 5 is before the last press"), "{err}");
    // clap's own usage errors are 2 as well.
    fails(&["clock", "replay", "--presses", p]);
}

#[test]
fn presets_lists_every_name_with_its_written_form() {
    const NAMES: [&str; 22] = [
        "fmjd-basic",
        "fmjd-preferred",
        "fmjd-classic",
        "fmjd-classic-finish",
        "pzwarc-90",
        "pzwarc-60+30",
        "64-60",
        "64-45+30",
        "64-45/25+15",
        "64-45",
        "rapid-20",
        "rapid-10+5",
        "blitz-5",
        "blitz-3+3",
        "64-rapid-10",
        "64-rapid-15",
        "64-rapid-10+3",
        "64-blitz-3",
        "64-blitz-5",
        "64-blitz-3+3",
        "superblitz",
        "superblitz-bronstein",
    ];
    let out = tandem(&["clock", "presets", "--json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed: Vec<&str> = v["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, NAMES);
    for p in v["presets"].as_array().unwrap() {
        let written = p["control"].as_str().unwrap();
        // The written form is accepted by replay and means the same control.
        let by_name = replay_json(p["name"].as_str().unwrap(), "1\n", &[]);
        let by_spec = replay_json(written, "1\n", &[]);
        assert_eq!(by_name, by_spec, "{}", p["name"]);
        assert_eq!(by_name["control"], p["control"]);
    }
    assert_eq!(v["families"][0]["pattern"], json!("eubgf-N"));
    assert_eq!(v["families"][0]["example_control"], json!("14m+12s:delay"));

    let out = tandem(&["clock", "presets"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for name in NAMES {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} missing:\n{text}"
        );
    }
    assert!(
        text.contains("fmjd-preferred        90m/45,30m+30s@46"),
        "{text}"
    );
}

#[test]
fn replay_without_a_clock_says_no_clock_and_never_flags() {
    // 004 3.5 (i) (a): a match may be played without a clock (`--control none`).
    let (_dir, path) = presses("10\n25\n7200\n");
    let out = tandem(&replay("none", path.to_str().unwrap(), &["--end", "99999"]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("control none\n"), "{text}");
    assert!(text.contains("white: no clock, 1:59:45 used"), "{text}");
    assert!(!text.contains(" left"), "{text}");
    assert!(text.contains("no flag fell"), "{text}");
    let v = replay_json("none", "10\n25\n", &["--end", "99999"]);
    assert_eq!(v["control"], "none");
    assert_eq!(v["flag"], Value::Null);
}
