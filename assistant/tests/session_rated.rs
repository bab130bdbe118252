//! A rated table (issue 41; FIDE Laws 11.3.2.1): the session journals the
//! table's report before the first move, and a refused move names the rule
//! it breaks but never the pieces or squares that could move, in each game,
//! unless `--allow hints`; the clock and the record stay.

use tandem::game::GameKind;
use tandem::journal::{Event, Journal, Source};
use tandem::report::Report;
use tandem::session::{Cmd, Session};

mod support;

use support::session::{fixture, game_setup, Fixture};

/// A report as `tandem play --rated [--allow …]` journals it.
fn report(rated: bool, allow: &[&str]) -> Report {
    Report {
        version: "0.1.0".into(),
        commit: "c0ffee".into(),
        binary_sha256: "ab".repeat(32),
        variant: "test".into(),
        rated,
        allow: allow.iter().map(|a| (*a).to_owned()).collect(),
        inputs: vec!["keyboard".into(), "control-socket".into()],
        listens: vec!["unix:/run/tandem.sock".into()],
        connects: Vec::new(),
        devices: Vec::new(),
        radios: Vec::new(),
        engine: false,
        assistance: tandem::report::assistance(!rated || allow.contains(&"hints")),
        journal_dir: "/tmp".into(),
    }
}

fn table(f: &Fixture, kind: GameKind, fen: &str, control: &str, r: Report) -> Session {
    let mut s = f.start(&game_setup(
        kind.position(Some(fen)).unwrap(),
        control,
        "en",
    ));
    s.report(r).unwrap();
    s
}

/// The refusal of `text`: what was said, and the reason the socket and the
/// journal's `rejected` line give.
fn refusal(s: &mut Session, f: &Fixture, text: &str) -> (String, String, String) {
    let r = s.handle(Cmd::Move(text.into()), Source::Typed);
    assert!(!r.ok, "{text} was taken: {r:?}");
    let j = Journal::read(&f.journal).unwrap();
    let journaled = j
        .records
        .iter()
        .rev()
        .find_map(|r| match &r.event {
            Event::Rejected { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    (r.said.join(" "), r.error.unwrap_or_default(), journaled)
}

#[test]
fn the_report_line_comes_before_the_first_move() {
    let f = fixture();
    let mut s = table(
        &f,
        GameKind::Draughts(tandem_rules::draughts::Variant::International),
        "W:W32:B19",
        "fmjd-basic",
        report(true, &[]),
    );
    assert!(s.handle(Cmd::Move("32-28".into()), Source::Typed).ok);
    let j = Journal::read(&f.journal).unwrap();
    let kinds: Vec<&str> = j
        .records
        .iter()
        .filter_map(|r| match &r.event {
            Event::Start(_) => Some("start"),
            Event::Report(rep) => {
                assert_eq!(rep.binary_sha256, "ab".repeat(32));
                assert!(rep.rated);
                Some("report")
            }
            Event::Move { .. } => Some("move"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["start", "report", "move"]);
    assert!(j.bad.is_none(), "the chain holds: {:?}", j.bad);
}

#[test]
fn draughts_rated_names_the_rule_not_the_piece_that_can_capture() {
    // White 32 must take black 27 (001 ch. I 4.2): 32-28 is refused.
    let fen = "W:W32:B27";
    let kind = GameKind::Draughts(tandem_rules::draughts::Variant::International);
    let f = fixture();
    let mut s = table(&f, kind, fen, "fmjd-basic", report(false, &[]));
    let (said, error, journaled) = refusal(&mut s, &f, "32-28");
    // Unrated: the piece that can capture is named (the check below is not
    // empty), and the screen completes typed moves from the legal ones.
    assert!(said.contains("thirty-two"), "{said}");
    assert_eq!(s.view().screen.legal, ["32x21"]);
    assert!(
        error.contains("by 32") && journaled.contains("by 32"),
        "{error}"
    );

    let f = fixture();
    let mut s = table(&f, kind, fen, "fmjd-basic", report(true, &[]));
    let (said, error, journaled) = refusal(&mut s, &f, "32-28");
    assert_eq!(said, "Capture is compulsory: you must take one piece.");
    assert_eq!(error, "capture is compulsory: 1 piece(s) must be taken");
    assert_eq!(journaled, error);
    // Nor does the screen's Tab complete the legal moves.
    assert!(s.view().screen.legal.is_empty());
    // What else a blind player may ask stays: the clock, the record.
    let r = s.handle(Cmd::Clock, Source::Typed);
    assert!(r.ok && !r.said.is_empty(), "{r:?}");

    // --allow hints: named again.
    let f = fixture();
    let mut s = table(&f, kind, fen, "fmjd-basic", report(true, &["hints"]));
    let (said, _, _) = refusal(&mut s, &f, "32-28");
    assert!(said.contains("thirty-two"), "{said}");
}

#[test]
fn chess_rated_asks_for_the_start_square_without_naming_the_knights() {
    // Knights on b1 and f3 both reach d2.
    let fen = "8/8/8/8/8/5N2/8/1N2K2k w - - 0 1";
    let f = fixture();
    let mut s = table(&f, GameKind::Chess, fen, "90m+30s", report(false, &[]));
    let (said, error, _) = refusal(&mut s, &f, "Nd2");
    assert!(error.contains("b1") && error.contains("f3"), "{error}");
    assert_ne!(
        said,
        "More than one move fits: say the square the piece starts from too."
    );

    let f = fixture();
    let mut s = table(
        &f,
        GameKind::Chess,
        fen,
        "90m+30s",
        report(true, &["radio"]),
    );
    let (said, error, journaled) = refusal(&mut s, &f, "Nd2");
    assert_eq!(
        said,
        "More than one move fits: say the square the piece starts from too."
    );
    assert!(!error.contains("b1") && !error.contains("f3"), "{error}");
    assert_eq!(journaled, error);
    // The move given whole is taken.
    assert!(s.handle(Cmd::Move("Nbd2".into()), Source::Typed).ok);
    let r = s.handle(Cmd::Record(None, None), Source::Typed);
    assert!(r.ok, "{r:?}");
}
