//! `tandem arbiter diff A B --svg FILE` and `tandem arbiter reconcile …
//! --svg FILE` (issue 22): the positions drawn side by side, every piece an
//! element with `data-square` and `data-piece` (and `data-count` on
//! points), each differing square's element marked `data-differs="true"`,
//! for draughts, chess and backgammon. The drawings are rendered by the
//! real Chromium in `hall_browser`; here the SVG's contract is read.

mod support;

use support::tandem;

use std::collections::BTreeSet;
use std::process::Output;

/// The `data-square` values of the elements marked as differing.
fn differing(svg: &str) -> BTreeSet<String> {
    svg.split('<')
        .filter(|e| e.contains("data-differs=\"true\""))
        .filter_map(|e| e.split("data-square=\"").nth(1))
        .map(|r| r.split('"').next().unwrap().to_owned())
        .collect()
}

/// `square:piece` of every piece element of board `board` (`a`, `b`, `c`).
fn pieces(svg: &str, board: &str) -> Vec<String> {
    let start = svg
        .find(&format!("data-board=\"{board}\""))
        .unwrap_or_else(|| panic!("no board {board}"));
    let part = &svg[start..];
    let end = part[1..].find("data-board=").map_or(part.len(), |i| i + 1);
    let attr = |e: &str, a: &str| {
        e.split(&format!("{a}=\""))
            .nth(1)
            .map(|r| r.split('"').next().unwrap().to_owned())
    };
    let mut v: Vec<String> = part[..end]
        .split('<')
        .filter(|e| e.contains("data-piece="))
        .map(|e| {
            let mut s = format!(
                "{}:{}",
                attr(e, "data-square").unwrap(),
                attr(e, "data-piece").unwrap()
            );
            if let Some(c) = attr(e, "data-count") {
                s.push(':');
                s.push_str(&c);
            }
            s
        })
        .collect();
    v.sort();
    v
}

fn diff_svg(a: &str, b: &str, extra: &[&str]) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("diff.svg");
    let f = file.to_str().unwrap();
    let mut args = vec!["arbiter", "diff", a, b, "--lang", "en", "--svg", f];
    args.extend_from_slice(extra);
    let out = tandem(&args);
    let svg = std::fs::read_to_string(&file).expect("the SVG written");
    assert!(svg.starts_with("<?xml") && svg.contains("<svg "), "{svg}");
    (out, svg)
}

#[test]
fn a_draughts_diff_marks_the_squares_that_differ_on_both_boards() {
    let (out, svg) = diff_svg("W:W28,31-50:B1-20", "W:W31-50:B1-20", &[]);
    assert_eq!(out.status.code(), Some(1), "they differ");
    assert_eq!(differing(&svg), BTreeSet::from(["28".to_owned()]));
    // Both boards carry it.
    assert_eq!(
        svg.matches("data-square=\"28\" data-differs=\"true\"")
            .count(),
        2
    );
    let a = pieces(&svg, "a");
    assert_eq!(a.len(), 41);
    assert!(a.contains(&"28:w".to_owned()) && a.contains(&"1:b".to_owned()));
    assert!(!pieces(&svg, "b").contains(&"28:w".to_owned()));
    // Kings by their codes.
    let (_, svg) = diff_svg("W:WK46:BK5", "W:W46:BK5", &[]);
    assert_eq!(pieces(&svg, "a"), ["46:W", "5:B"]);
    assert_eq!(pieces(&svg, "b"), ["46:w", "5:B"]);
    assert_eq!(differing(&svg), BTreeSet::from(["46".to_owned()]));
}

#[test]
fn a_chess_diff_names_squares_a1_to_h8_and_pieces_by_fen_letter() {
    let (_, svg) = diff_svg(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        &["--variant", "chess"],
    );
    assert_eq!(
        differing(&svg),
        BTreeSet::from(["e2".to_owned(), "e4".to_owned()])
    );
    let a = pieces(&svg, "a");
    assert_eq!(a.len(), 32);
    for p in ["e4:P", "e1:K", "d8:q", "a8:r", "g1:N"] {
        assert!(a.contains(&p.to_owned()), "{p} in {a:?}");
    }
    assert!(pieces(&svg, "b").contains(&"e2:P".to_owned()));
}

#[test]
fn a_backgammon_diff_draws_points_with_counts() {
    // The start (white on roll) against white's 3-1 played 8/5 6/5 (black on roll).
    let (_, svg) = diff_svg(
        "4HPwATDgc/ABMA",
        "sGfwATDgc/ABMA:cAngAAAAAAAE",
        &["--variant", "backgammon"],
    );
    let want: BTreeSet<String> = ["5", "6", "8"].map(String::from).into();
    assert_eq!(differing(&svg), want);
    // 004 2.1's start, in white's numbering.
    let a = pieces(&svg, "a");
    for p in [
        "24:w:2", "13:w:5", "8:w:3", "6:w:5", "1:b:2", "12:b:5", "17:b:3", "19:b:5",
    ] {
        assert!(a.contains(&p.to_owned()), "{p} in {a:?}");
    }
    let b = pieces(&svg, "b");
    for p in ["8:w:2", "6:w:4", "5:w:2"] {
        assert!(b.contains(&p.to_owned()), "{p} in {b:?}");
    }
}

#[test]
fn reconcile_draws_the_last_agreement_and_the_first_difference() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    // Ply 3 differs: A takes 28x19 (capturing 23); B's 33-29 is refused
    // (the capture is compulsory), so only A's next position is drawn.
    std::fs::write(&a, "1. 32-28 19-23 2. 28x19 14x23\n").unwrap();
    std::fs::write(&b, "1. 32-28 19-23 2. 33-29 14-19\n").unwrap();
    let file = dir.path().join("rec.svg");
    let out = tandem(&[
        "arbiter",
        "reconcile",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--lang",
        "en",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(
        svg.contains("after ply 2") && svg.contains("A after ply 3"),
        "{svg}"
    );
    // The agreed position (after 32-28 19-23) and A's 28x19: 19, 23 and 28 change.
    let want: BTreeSet<String> = ["19", "23", "28"].map(String::from).into();
    assert_eq!(differing(&svg), want);
    assert!(pieces(&svg, "a").contains(&"28:w".to_owned()));
    assert!(pieces(&svg, "b").contains(&"19:w".to_owned()));
}
