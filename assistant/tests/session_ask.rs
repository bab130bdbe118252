//! Questions about the board (issue 23), session level: typed `ask …` and
//! bare question words, the control socket's `ask` (the same words as
//! typed, answered in `said`), an unknown question refused with the list
//! of questions, "my" for the blind side, and each answer journaled.

use tandem::control::cmd::to_cmd;
use tandem::game::{AnyPosition, GameKind};
use tandem::journal::Source;
use tandem::session::{Cmd, Session};
use tandem_rules::draughts::{Position, Variant};

mod support;

use support::session::{fixture, game_setup};

fn ctl(s: &mut Session, cmd: &str, arg: Option<&str>) -> tandem::session::Reply {
    s.handle(to_cmd(cmd, arg).unwrap(), Source::Control)
}

fn typed(s: &mut Session, line: &str) -> tandem::session::Reply {
    s.handle(Cmd::parse_line(line), Source::Typed)
}

#[tokio::test(start_paused = true)]
async fn chess_questions_typed_and_through_the_control_socket() {
    let f = fixture();
    let start = GameKind::Chess.position(None).unwrap();
    let mut s = f.start(&game_setup(start, "90m", "en"));
    let r = ctl(&mut s, "ask", Some("opponent knights"));
    assert!(r.ok, "{r:?}");
    // The blind side is white by default: the opponent's are black's.
    assert_eq!(r.said, ["Black knights: Bella eight, Gustav eight."]);
    let r = typed(&mut s, "knights");
    assert!(r.ok, "{r:?}");
    assert_eq!(
        r.said,
        ["White knights: Bella one, Gustav one. Black knights: Bella eight, Gustav eight."]
    );
    let r = typed(&mut s, "ask file e");
    assert!(
        r.said[0].starts_with("Eva file: white king Eva one"),
        "{r:?}"
    );
    // The game goes on: a move is still a move.
    assert!(typed(&mut s, "e4").ok);
    let r = ctl(&mut s, "ask", Some("rank 4"));
    assert_eq!(r.said, ["Rank four: white pawn Eva four."], "{r:?}");
    let r = ctl(&mut s, "ask", Some("where is the threat"));
    assert!(!r.ok);
    let e = r.error.unwrap_or_default();
    assert!(e.contains("knights") && e.contains("material"), "{e}");
    assert!(
        r.said[0].starts_with("There is no such question"),
        "{:?}",
        r.said
    );
}

#[tokio::test(start_paused = true)]
async fn draughts_questions_in_polish_by_their_spoken_words_and_journaled() {
    let f = fixture();
    let start = AnyPosition::Draughts(Position::start(Variant::International));
    let mut s = f.start(&game_setup(start, "90m", "pl"));
    let r = ctl(&mut s, "ask", Some("count"));
    assert_eq!(
        r.said,
        ["Białe: piony 20, damki 0. Czarne: piony 20, damki 0."],
        "{r:?}"
    );
    let r = typed(&mut s, "zapytaj damki przeciwnika");
    assert_eq!(r.said, ["Czarne: bez damek."], "{r:?}");
    let r = ctl(&mut s, "ask", Some("row 5"));
    assert_eq!(r.said, ["Rząd 5: pusty."], "{r:?}");
    let r = ctl(&mut s, "ask", Some("row 12"));
    assert!(!r.ok && r.said[0].starts_with("Nie ma rzędu 12"), "{r:?}");
    let journal = std::fs::read_to_string(&f.journal).unwrap();
    assert!(journal.contains("Rząd 5: pusty."), "{journal}");
}
