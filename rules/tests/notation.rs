//! Move text: loose input, strict output, reasons for refusals (issue 2 item 3).

use tandem_rules::draughts::notation::{resolve, write_move, ResolveError};
use tandem_rules::draughts::{Game, Position, Variant};

fn intl(fen: &str) -> Position {
    Position::from_fen(Variant::International, fen).unwrap()
}

#[test]
fn loose_forms_all_resolve_to_the_same_move() {
    let p = Position::start(Variant::International);
    for text in [
        "32-28",
        "32 28",
        "3228",
        "32x28",
        "32:28",
        " 32 - 28 ",
        "32-28!",
        "32–28",
    ] {
        let m = resolve(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(write_move(&p, &m), "32-28", "{text}");
    }
    // Leading zeros.
    let p = intl("B:W30:B5");
    assert_eq!(write_move(&p, &resolve(&p, "05-10").unwrap()), "5-10");
    assert_eq!(write_move(&p, &resolve(&p, "0510").unwrap()), "5-10");
}

#[test]
fn multi_capture_paths() {
    // A man on 26 takes 31 and 42: 26x37x48 with the landing squares.
    let p = Position::from_fen(Variant::International, "B:W31,42:B26").unwrap();
    let m = resolve(&p, "26x48").unwrap();
    assert_eq!(m.capture_count(), 2);
    assert_eq!(
        m.captured().map(|s| s.number()).collect::<Vec<_>>(),
        [31, 42]
    );
    assert_eq!(
        m.landings().map(|s| s.number()).collect::<Vec<_>>(),
        [37, 48]
    );
    assert_eq!(resolve(&p, "26x37x48").unwrap(), m);
    assert_eq!(write_move(&p, &m), "26x48");
}

#[test]
fn ambiguous_capture_is_written_with_its_path_and_asked_back() {
    // The example: 16x1 can take 21,23,33 or 21,23,39.
    let p = intl("W:WK16:B21,23,33,39");
    let moves = p.legal_moves();
    let to1: Vec<_> = moves.iter().filter(|m| m.to().number() == 1).collect();
    assert_eq!(to1.len(), 2);
    let texts: Vec<String> = to1.iter().map(|m| write_move(&p, m)).collect();
    assert_ne!(texts[0], texts[1]);
    for (m, t) in to1.iter().zip(&texts) {
        assert!(t.matches('x').count() > 1, "{t} must carry the path");
        assert_eq!(&&resolve(&p, t).unwrap(), m, "{t} resolves back");
    }
    match resolve(&p, "16x1") {
        Err(ResolveError::Ambiguous { candidates }) => assert_eq!(candidates.len(), 2),
        other => panic!("{other:?}"),
    }
    let m33 = resolve(&p, "16x1x33").unwrap();
    assert!(m33.captured().any(|s| s.number() == 33));
    let m39 = resolve(&p, "16x1x39").unwrap();
    assert!(m39.captured().any(|s| s.number() == 39));
}

#[test]
fn refusals_say_why() {
    let start = Position::start(Variant::International);
    assert!(
        matches!(resolve(&start, "28-23"), Err(ResolveError::NoPiece { square }) if square.number() == 28)
    );
    assert!(matches!(
        resolve(&start, "19-23"),
        Err(ResolveError::NotYourPiece { .. })
    ));
    assert!(matches!(
        resolve(&start, "37-32"),
        Err(ResolveError::Occupied { .. })
    ));
    assert!(matches!(
        resolve(&start, "32-26"),
        Err(ResolveError::Unreachable { .. })
    ));
    assert!(matches!(
        resolve(&start, "32-60"),
        Err(ResolveError::Syntax(_))
    ));
    assert!(matches!(resolve(&start, ""), Err(ResolveError::Syntax(_))));
    assert!(matches!(
        resolve(&start, "32"),
        Err(ResolveError::Syntax(_))
    ));
    // A man moving backwards.
    let p = intl("W:W28:B1");
    assert!(matches!(
        resolve(&p, "28-33"),
        Err(ResolveError::WrongDirection { .. })
    ));
    // Capture is compulsory, with how many pieces and by whom.
    let mut g = Game::new(Variant::International);
    for m in ["32-28", "19-23"] {
        g.play_text(m).unwrap();
    }
    match resolve(g.position(), "34-29") {
        Err(ResolveError::CaptureCompulsory {
            required,
            capturers,
        }) => {
            assert_eq!(required, 1);
            assert_eq!(
                capturers.iter().map(|s| s.number()).collect::<Vec<_>>(),
                [28]
            );
        }
        other => panic!("{other:?}"),
    }
    // Not the largest capture (001 ch. I 4.13): 27 can take one (22) or 28 can take two.
    let p = intl("W:W27,28:B22,23,14");
    let largest = p.legal_moves()[0].capture_count();
    assert_eq!(largest, 2);
    match resolve(&p, "27x18") {
        Err(ResolveError::NotLargestCapture {
            required: 2,
            given: 1,
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn sixty_four_algebraic() {
    let p = Position::start(Variant::SixtyFour);
    for text in ["c3-d4", "c3d4", "C3-D4", "22-18", "c3 d4"] {
        let m = resolve(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(write_move(&p, &m), "c3-d4", "{text}");
    }
    let mut g = Game::new(Variant::SixtyFour);
    for m in ["c3-d4", "f6-e5", "d4xf6"] {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert_eq!(g.move_texts(), ["c3-d4", "f6-e5", "d4xf6"]);
}

#[test]
fn men_capture_backwards_and_promotion_needs_to_end_on_the_row() {
    // 001 ch. I 4.1: men capture backwards.
    let p = intl("W:W23:B28");
    assert_eq!(write_move(&p, &resolve(&p, "23x32").unwrap()), "23x32");
    // 4.15: a man passing the last row during a capture stays a man.
    let p = intl("W:W15:B10,9");
    let m = resolve(&p, "15x13").unwrap(); // 15x4x13: lands on 4, then takes 8 to 13
    assert_eq!(m.capture_count(), 2);
    assert!(!m.promotes());
    let p = intl("W:W12:B7");
    assert!(resolve(&p, "12x1").unwrap().promotes());
}

#[test]
fn fuzz_regression_long_digit_runs_are_refused_quickly() {
    // Found by the `move_text` fuzz target: 40 digits took ~0.1 s to split.
    let p = Position::start(Variant::International);
    let long = "1".repeat(40);
    assert!(matches!(resolve(&p, &long), Err(ResolveError::Syntax(_))));
    assert!(resolve(&p, "322823").is_err()); // three squares, not a path: refused with a reason
}
