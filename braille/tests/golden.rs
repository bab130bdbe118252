//! Golden files: what the player's fingers meet, cell for cell.
//!
//! Each block in `tests/golden/<view>.txt` is one scenario: the variant, FEN,
//! width (and status facts), then per line `BRAILLE:` (Unicode braille),
//! `TEXT:` and `SQUARES:` (the square under each cell, `.` for none).
//! Regenerate with `UPDATE_GOLDEN=1 cargo test -p tandem-braille --test golden`
//! and review the diff.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;

struct Scenario {
    name: &'static str,
    variant: Variant,
    fen: Option<&'static str>,
    widths: &'static [u16],
}

const MIDGAME: &str = "W:W27,28,32,33,34,37,38,K45,46:B3,8,12,13,K17,19,22,23";
const SIXTY_FOUR: &str = "W:W21,22,25,K29,30:B1,2,K5,9,10";

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "start",
            variant: Variant::International,
            fen: None,
            widths: &[14, 20, 40, 80],
        },
        Scenario {
            name: "midgame with kings",
            variant: Variant::International,
            fen: Some(MIDGAME),
            widths: &[14, 40],
        },
        Scenario {
            name: "one side bare",
            variant: Variant::International,
            fen: Some("B:W:BK1"),
            widths: &[40],
        },
        Scenario {
            name: "64-square start",
            variant: Variant::SixtyFour,
            fen: None,
            widths: &[14, 40],
        },
        Scenario {
            name: "64-square kings",
            variant: Variant::SixtyFour,
            fen: Some(SIXTY_FOUR),
            widths: &[40],
        },
    ]
}

fn status_cases() -> Vec<(&'static str, StatusInfo)> {
    let mut a = StatusInfo::new(Color::White);
    a.white_clock = Some(Duration::from_secs(300));
    a.black_clock = Some(Duration::from_secs(300));
    let mut b = StatusInfo::new(Color::Black);
    b.last_move = Some("32-28".into());
    b.white_clock = Some(Duration::from_secs(3723));
    b.black_clock = Some(Duration::from_millis(59_900));
    b.black_behind = 1;
    let mut c = StatusInfo::new(Color::White);
    c.last_move = Some("28x19x10".into());
    c.white_behind = 2;
    vec![
        ("clocks at start", a),
        ("after 32-28, black's board behind", b),
        ("no clock, white's board two behind", c),
    ]
}

fn block(out: &mut String, lines: &[tandem_braille::BrailleLine]) {
    for l in lines {
        let squares: Vec<String> = l
            .targets()
            .iter()
            .map(|s| s.map_or_else(|| ".".to_owned(), |s| s.number().to_string()))
            .collect();
        let _ = writeln!(out, "BRAILLE: {}", l.cells_string());
        let _ = writeln!(out, "TEXT:    {}", l.text());
        let _ = writeln!(out, "SQUARES: {}", squares.join(" "));
    }
    out.push('\n');
}

fn render_view(view: View) -> String {
    let r = StandardRenderer::default();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# tandem braille golden file: {view} view (UPDATE_GOLDEN=1 regenerates)\n"
    );
    if view == View::Status {
        for (name, st) in status_cases() {
            for w in [14u16, 40, 80] {
                let pos = Position::start(Variant::International);
                let _ = writeln!(out, "## {name}, width {w}");
                let _ = writeln!(out, "STATUS: {st:?}");
                block(&mut out, &r.render(&pos, &st, view, Width::new(w).unwrap()));
            }
        }
        return out;
    }
    for s in scenarios() {
        let pos = match s.fen {
            Some(f) => Position::from_fen(s.variant, f).unwrap(),
            None => Position::start(s.variant),
        };
        for &w in s.widths {
            let _ = writeln!(out, "## {}, {}, width {w}", s.name, s.variant);
            let _ = writeln!(out, "FEN: {}", pos.to_fen());
            block(
                &mut out,
                &r.render(
                    &pos,
                    &StatusInfo::new(pos.turn()),
                    view,
                    Width::new(w).unwrap(),
                ),
            );
        }
    }
    out
}

fn check(view: View) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{}.txt", view.name()));
    let got = render_view(view);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    if got != want {
        let first = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{} differs from the renderer at line {}:\n  golden: {:?}\n  now:    {:?}\n(UPDATE_GOLDEN=1 regenerates; review the diff)",
            path.display(),
            first + 1,
            want.lines().nth(first),
            got.lines().nth(first)
        );
    }
}

#[test]
fn list_view() {
    check(View::List);
}

#[test]
fn rows_view() {
    check(View::Rows);
}

#[test]
fn graphic_view() {
    check(View::Graphic);
}

#[test]
fn status_view() {
    check(View::Status);
}
