//! `tandem braille render`: the exact command line and JSON contract.

mod support;

use support::cli::run as tandem;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = tandem(args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "one JSON object: {out}");
    serde_json::from_str(&out).expect("valid JSON")
}

/// `tandem braille render ARGS… --json`.
fn render(args: &[&str]) -> serde_json::Value {
    json(&[&["braille", "render"], args, &["--json"]].concat())
}

/// `tandem braille render --variant backgammon --fen FEN ARGS… --json`.
fn render_backgammon(fen: &str, args: &[&str]) -> serde_json::Value {
    render(&[&["--variant", "backgammon", "--fen", fen], args].concat())
}

#[test]
fn json_list_view_maps_cells_to_squares() {
    let v = render(&["--fen", "W:W31,32,33,K45:B1,2,3,K12"]);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1);
    let l = &lines[0];
    assert_eq!(l["text"], "W 31 32 33 K45 | B 1 2 3 K12");
    let cells = l["cells"].as_str().unwrap();
    assert_eq!(cells.chars().count(), 28);
    assert!(cells
        .chars()
        .all(|c| ('\u{2800}'..='\u{28FF}').contains(&c)));
    assert!(cells.starts_with("⡺⠀⠒⠂"), "{cells}");
    let squares = l["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 28);
    assert_eq!(squares[0], serde_json::Value::Null);
    assert_eq!(squares[2], 31);
    assert_eq!(squares[3], 31);
    assert_eq!(squares[11], 45);
}

#[test]
fn defaults_are_international_start_width_40() {
    let v = render(&[]);
    let lines = v["lines"].as_array().unwrap();
    assert!(lines[0]["text"].as_str().unwrap().starts_with("W 31 32"));
    for l in lines {
        assert!(l["cells"].as_str().unwrap().chars().count() <= 40);
    }
}

#[test]
fn every_view_and_width() {
    for view in ["list", "rows", "graphic", "status"] {
        for width in ["14", "40", "80"] {
            let v = render(&["--view", view, "--width", width]);
            for l in v["lines"].as_array().unwrap() {
                let n = l["cells"].as_str().unwrap().chars().count();
                assert!(n <= width.parse().unwrap(), "{view} {width}: {l}");
                assert_eq!(l["squares"].as_array().unwrap().len(), n);
                assert_eq!(l["text"].as_str().unwrap().chars().count(), n);
            }
        }
    }
    let v = render(&["--view", "rows"]);
    assert_eq!(v["lines"][3]["text"], "16:b 17:b 18:b 19:b 20:b");
    let v = render(&["--view", "graphic"]);
    assert_eq!(v["lines"][9]["text"], "46 wwwww");
    assert_eq!(v["lines"][9]["cells"], "⠲⠖⠀⠃⠃⠃⠃⠃");
    assert_eq!(
        v["lines"][9]["squares"],
        serde_json::json!([null, null, null, 46, 47, 48, 49, 50])
    );
}

#[test]
fn sixty_four_uses_algebraic_names() {
    let v = render(&["--variant", "sixty-four", "--view", "rows"]);
    assert_eq!(v["lines"][7]["text"], "a1:w c1:w e1:w g1:w");
    assert_eq!(v["lines"][7]["squares"][0], 29);
}

#[test]
fn plain_output_is_braille_then_text() {
    let (code, out, err) = tandem(&["braille", "render", "--view", "graphic", "--width", "14"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], "⠂⠀⠘⠘⠘⠘⠘⠀⠀⠀⠀⠀⠀⠀  1 bbbbb");
}

#[test]
fn bad_input_gets_a_clear_message() {
    let (code, _, err) = tandem(&["braille", "render", "--width", "10"]);
    assert_ne!(code, 0);
    assert!(err.contains("10") && err.contains("14"), "{err}");
    let (code, _, err) = tandem(&["braille", "render", "--view", "board"]);
    assert_ne!(code, 0);
    assert!(err.contains("board"), "{err}");
    let (code, _, err) = tandem(&["braille", "render", "--fen", "W:W99"]);
    assert_ne!(code, 0);
    assert!(err.contains("--fen"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn backgammon_renders_the_board_line_and_status_with_points_under_cells() {
    // The start of a 7-point match, white on roll: gnubg's IDs.
    let v = render_backgammon("4HPwATDgc/ABMA:cAkAAAAAAAAA", &[]);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{v}");
    let board = &lines[0];
    let squares: Vec<Option<u64>> = board["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(serde_json::Value::as_u64)
        .collect();
    // The bar (25), four quarters of six points each after a gap, borne off (0).
    let mut want = vec![Some(25)];
    for q in 0..4u64 {
        want.push(None);
        want.extend((0..6).map(|k| Some(24 - q * 6 - k)));
    }
    want.extend([None, Some(0)]);
    assert_eq!(squares, want);
    let cells: Vec<char> = board["cells"].as_str().unwrap().chars().collect();
    assert_eq!(cells.len(), 31);
    // Two of the viewer's checkers on 24 (dots 1 2), five on 13 shown as
    // four (dots 1 2 3 7), the opponent's five on the viewer's 12 (dots 4 5 6 8).
    assert_eq!(cells[2], '⠃');
    assert_eq!(cells[14], '⡇');
    assert_eq!(cells[16], '⢸');
    assert_eq!(lines[1]["text"], "- | pips 167 167 | cube 1 | 0-0/7");

    // 20 cells: the line is cut at its gaps and each window keeps its points.
    let v = render_backgammon("4HPwATDgc/ABMA", &["--width", "20"]);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "board only without a Match ID: {v}");
    assert_eq!(
        lines[0]["text"],
        "bar _ 24 23 22 21 20 19 _ 18 17 16 15 14 13"
    );
    assert_eq!(lines[1]["squares"][1], 12);

    let (code, _, err) = tandem(&[
        "braille",
        "render",
        "--variant",
        "backgammon",
        "--fen",
        "junk",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a Position ID"), "{err}");
}
