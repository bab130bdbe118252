//! The record at the table (issue 15), session level: `record`, `record
//! FROM TO`, `move N` opening the review, `next` / `back`, `position` in
//! review, `live`, and a move played during the review (announced as
//! always, the review staying), for draughts and chess, typed and through
//! the control socket's command words.

use tandem::control::cmd::to_cmd;
use tandem::game::{AnyPosition, GameKind};
use tandem::journal::Source;
use tandem::session::{Cmd, Session};
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::{Position, Variant};

mod support;

use support::session::{drain, fixture, game_setup, Fixture};

fn dutch_moves(n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(format!(
        "{}/../rules/tests/data/pdn/dutch96h.pdn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let games = parse_pdn(&text);
    let Replay::Ok(g) = replay(&games[0], Variant::International) else {
        panic!("the game does not replay")
    };
    g.move_texts().into_iter().take(n).collect()
}

fn draughts(f: &Fixture, lang: &str, plies: usize) -> Session {
    let start = AnyPosition::Draughts(Position::start(Variant::International));
    let mut s = f.start(&game_setup(start, "90m", lang));
    for m in dutch_moves(plies) {
        let r = s.handle(Cmd::Move(m.clone()), Source::Typed);
        assert!(r.ok, "{m}: {r:?}");
    }
    s
}

fn ctl(s: &mut Session, cmd: &str, arg: Option<&str>) -> tandem::session::Reply {
    s.handle(to_cmd(cmd, arg).unwrap(), Source::Control)
}

/// The first thing said begins with `start`.
fn assert_first_said(r: &tandem::session::Reply, start: &str) {
    assert!(r.said[0].starts_with(start), "{:?}", r.said);
}

fn typed(s: &mut Session, line: &str) -> tandem::session::Reply {
    s.handle(Cmd::parse_line(line), Source::Typed)
}

#[tokio::test(start_paused = true)]
async fn record_reads_the_last_three_pairs_and_record_from_to_reads_those_moves() {
    let mut f = fixture();
    let mut s = draughts(&f, "en", 25);
    drain(&mut f.speech);
    let moves = dutch_moves(25);

    let r = ctl(&mut s, "record", None);
    assert!(r.ok, "{r:?}");
    assert_eq!(r.said.len(), 3, "{:?}", r.said);
    assert_first_said(&r, "Move eleven. White: ");
    assert!(
        r.said[2].starts_with("Move thirteen. White: "),
        "{:?}",
        r.said
    );
    assert!(
        !r.said[2].contains("Black:"),
        "move 13 has only white's half"
    );
    assert_eq!(
        drain(&mut f.speech),
        r.said,
        "what was said is what was spoken"
    );

    let r = ctl(&mut s, "record", Some("10 12"));
    assert!(r.ok, "{r:?}");
    let numbers: Vec<&str> = r
        .said
        .iter()
        .map(|t| t.split('.').next().unwrap())
        .collect();
    assert_eq!(numbers, ["Move ten", "Move eleven", "Move twelve"]);
    // Each ply in words, as it was announced when played.
    let said_when_played = |i: usize| {
        let mut g = tandem::game::new_game(
            GameKind::Draughts(Variant::International)
                .position(None)
                .unwrap(),
            tandem_rules::GameOptions::default(),
            "en",
        );
        for x in &moves[..i] {
            g.play_text(x).unwrap();
        }
        g.prepare(&moves[i]).unwrap().announce.text()
    };
    let lower = |t: String| {
        let mut c = t.chars();
        c.next()
            .unwrap()
            .to_lowercase()
            .chain(c)
            .collect::<String>()
    };
    assert_eq!(
        r.said[0],
        format!(
            "Move ten. White: {} Black: {}",
            lower(said_when_played(18)),
            lower(said_when_played(19))
        )
    );

    // Typed, and `record from`, the same.
    assert_eq!(typed(&mut s, "record 10 12").said, r.said);
    let from = typed(&mut s, "record from 12");
    assert_eq!(from.said.len(), 2, "{:?}", from.said);
    assert!(from.said[0].starts_with("Move twelve."));

    // A move that does not exist: refused aloud, nothing else.
    let r = ctl(&mut s, "record", Some("30"));
    assert!(!r.ok);
    assert_eq!(r.said, ["There is no move thirty."]);
    assert!(to_cmd("record", Some("x")).is_err());
}

#[tokio::test(start_paused = true)]
async fn record_last_is_a_setting_and_an_empty_record_says_so() {
    let mut f = fixture();
    let mut s = draughts(&f, "pl", 0);
    drain(&mut f.speech);
    let r = typed(&mut s, "zapis");
    assert!(r.ok);
    assert_eq!(r.said, ["Nie było jeszcze ruchów."]);
    drop(s);
    let f2 = fixture();
    let mut s = draughts(&f2, "pl", 8);
    s.set_record_last(1);
    let r = typed(&mut s, "zapis");
    assert_eq!(r.said.len(), 1);
    assert_first_said(&r, "Ruch cztery. Białe: ");
    assert!(r.said[0].contains(". Czarne: "), "{:?}", r.said);
}

#[tokio::test(start_paused = true)]
async fn the_review_walks_the_record_reads_its_position_and_the_game_goes_on() {
    let mut f = fixture();
    let mut s = draughts(&f, "en", 24);
    drain(&mut f.speech);
    let live = typed(&mut s, "position").said;

    // `move 12` reads move 12 and opens the review after it (ply 24).
    let r = typed(&mut s, "move 12");
    assert!(r.ok, "{r:?}");
    assert_first_said(&r, "Move twelve. White: ");
    assert_eq!(s.review(), Some(24));
    let at12 = typed(&mut s, "position").said;
    assert_eq!(at12[0], "The position after black's move twelve.");
    assert_eq!(at12[1..], live[..], "after move 12 is now");

    // Back one ply: white's half of move 12; the position there differs.
    let r = typed(&mut s, "back");
    assert_first_said(&r, "Move twelve. White: ");
    assert!(!r.said[0].contains("Black"), "{:?}", r.said);
    assert_eq!(s.review(), Some(23));
    let p = typed(&mut s, "position").said;
    assert_eq!(p[0], "The position after white's move twelve.");
    assert_ne!(p[1..], live[..], "the position at ply 23");
    assert!(p[1].ends_with("Black to move."), "{p:?}");
    let r = ctl(&mut s, "back", None);
    assert_first_said(&r, "Move eleven. Black: ");
    let r = ctl(&mut s, "next", None);
    assert_first_said(&r, "Move twelve. White: ");
    assert_eq!(s.review(), Some(23));

    // The opponent moves during the review: announced as always, the review stays.
    let next = dutch_moves(25).pop().unwrap();
    let r = s.handle(Cmd::Move(next), Source::Control);
    assert!(r.ok, "{r:?}");
    assert!(!r.said.is_empty());
    assert_eq!(s.review(), Some(23));
    assert_eq!(s.table().game.ply(), 25);
    let p2 = typed(&mut s, "position").said;
    assert_eq!(p2, p, "still the position after ply 23");

    // Walking on reaches the new move, then the end.
    typed(&mut s, "next");
    let r = typed(&mut s, "next");
    assert_first_said(&r, "Move thirteen. White: ");
    assert_eq!(typed(&mut s, "next").said, ["That is the last move."]);

    let r = typed(&mut s, "live");
    assert_eq!(r.said, ["Back to the game."]);
    assert_eq!(s.review(), None);
    assert_ne!(
        typed(&mut s, "position").said,
        live,
        "the live position again"
    );
    let r = typed(&mut s, "live");
    assert!(!r.ok);
    assert_eq!(typed(&mut s, "next").said, ["The record is not open."]);
    // A move number past the game is refused.
    let r = typed(&mut s, "move 40");
    assert!(!r.ok);
    assert_eq!(r.said, ["There is no move forty."]);
    // Back with no review open starts at the last move.
    let r = typed(&mut s, "back");
    assert_first_said(&r, "Move thirteen. White: ");
    assert_eq!(typed(&mut s, "move 1").said.len(), 1);
    assert_eq!(s.review(), Some(2));
    typed(&mut s, "back");
    assert_eq!(typed(&mut s, "back").said, ["That is the first move."]);
}

#[tokio::test(start_paused = true)]
async fn chess_records_are_read_in_polish_with_move_numbers_and_reviewed() {
    let mut f = fixture();
    let start = GameKind::Chess.position(None).unwrap();
    let mut s = f.start(&game_setup(start, "90m", "pl"));
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6"] {
        let r = s.handle(Cmd::Move(m.into()), Source::Typed);
        assert!(r.ok, "{m}: {r:?}");
    }
    drain(&mut f.speech);
    let r = ctl(&mut s, "record", Some("2 3"));
    assert!(r.ok, "{r:?}");
    assert_eq!(r.said.len(), 2);
    assert!(r.said[0].starts_with("Ruch dwa. Białe: "), "{:?}", r.said);
    assert!(r.said[0].contains(". Czarne: "), "{:?}", r.said);
    assert!(r.said[1].starts_with("Ruch trzy. Białe: "), "{:?}", r.said);

    let r = typed(&mut s, "ruch 4");
    assert!(r.ok, "{r:?}");
    assert_first_said(&r, "Ruch cztery. Białe: ");
    assert_eq!(s.review(), Some(7));
    let r = typed(&mut s, "wstecz");
    assert!(r.said[0].starts_with("Ruch trzy. Czarne: "), "{:?}", r.said);
    let p = typed(&mut s, "pozycja").said;
    assert_eq!(p[0], "Pozycja po ruchu trzy czarnych.");
    // The opponent's move during the review is announced; the review stays.
    let r = s.handle(Cmd::Move("dxc6".into()), Source::Control);
    assert!(r.ok && !r.said.is_empty(), "{r:?}");
    assert_eq!(s.review(), Some(6));
    assert_eq!(typed(&mut s, "pozycja").said, p);
    assert_eq!(typed(&mut s, "dalej").said.len(), 1);
    assert_eq!(typed(&mut s, "wróć").said, ["Powrót do gry."]);
}
