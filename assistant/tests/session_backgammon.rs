//! The session actor playing backgammon through the one game interface
//! (tokio's paused clock): rolls entered and rolled by tandem (`--dice
//! tandem`, journaled before said), `reroll` (004 4.2), moves in loose
//! forms, a dance and its pass, the numbering setting, refusals in words
//! that change nothing, `tandem ctl state`'s backgammon fields, and the
//! journal's replay.

use tandem::game::{AnyPosition, GameKind};
use tandem::journal::{Event, Source};
use tandem::session::{Cmd, GameSetup, Session};
use tandem_rules::backgammon::{match_id, position_id, Board};
use tandem_rules::{Color, GameOptions, PointNumbering};

mod support;

use support::session::{drain, events, fixture, game_setup};

fn setup(length: u32, lang: &str, options: GameOptions) -> GameSetup {
    let mut s = game_setup(
        GameKind::Backgammon.position(None).unwrap(),
        "eubgf-3",
        lang,
    );
    s.options = GameOptions {
        match_length: length,
        listener: Some(Color::White),
        ..options
    };
    s
}

fn ok(s: &mut Session, cmd: Cmd) -> Vec<String> {
    let c = format!("{cmd:?}");
    let r = s.handle(cmd, Source::Typed);
    assert!(r.ok, "{c}: {r:?}");
    r.said
}

/// Refused, and nothing changed: the state and the journal's length.
fn refused(s: &mut Session, cmd: Cmd, journal: &std::path::Path) -> Vec<String> {
    let before = serde_json::to_value(s.view()).unwrap();
    let lines = events(journal).len();
    let c = format!("{cmd:?}");
    let r = s.handle(cmd, Source::Typed);
    assert!(!r.ok, "{c} was taken: {r:?}");
    let after = serde_json::to_value(s.view()).unwrap();
    for k in ["ply", "fen", "moves", "dice", "cube", "score", "pips"] {
        assert_eq!(before[k], after[k], "{c} changed {k}");
    }
    let played = events(journal)
        .iter()
        .skip(lines)
        .filter(|e| {
            matches!(
                e,
                Event::Move { .. } | Event::Action { .. } | Event::Result { .. }
            )
        })
        .count();
    assert_eq!(played, 0, "{c} journaled a move or an action");
    r.said
}

fn extra(s: &Session) -> serde_json::Value {
    serde_json::to_value(s.view()).unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_game_of_a_match_rolls_hits_enters_doubles_and_ends_with_a_pass() {
    let mut f = fixture();
    let mut s = f.start(&setup(3, "pl", GameOptions::default()));
    assert!(matches!(
        s.table().game.position(),
        AnyPosition::Backgammon(_)
    ));
    drain(&mut f.speech);
    // Refusals in the player's words, nothing changed.
    assert_eq!(
        refused(&mut s, Cmd::Move("13/11 13/8".into()), &f.journal),
        ["Partia nie trwa: rzuć kostki otwarcia."]
    );
    assert_eq!(
        refused(&mut s, Cmd::Unknown("roll 3 3".into()), &f.journal),
        ["Równe kostki otwarcia: rzućcie jeszcze raz."]
    );
    // Typed `52`: the opening roll, white's die first.
    assert_eq!(
        ok(&mut s, Cmd::Move("52".into())),
        ["Biały zaczyna, pięć dwa."]
    );
    assert_eq!(extra(&s)["dice"], serde_json::json!([5, 2]));
    // A loose form in, gnubg's notation in the journal.
    assert_eq!(
        ok(&mut s, Cmd::Move("13/8 13/11".into())),
        ["Biały: trzynaście na jedenaście, trzynaście na osiem."]
    );
    ok(&mut s, Cmd::Unknown("roll 6 4".into()));
    assert_eq!(
        refused(&mut s, Cmd::Move("24/18".into()), &f.journal),
        ["Trzeba zagrać też cztery."]
    );
    ok(&mut s, Cmd::Move("24/14*".into()));
    ok(&mut s, Cmd::Unknown("roll 3 1".into()));
    assert_eq!(
        refused(&mut s, Cmd::Move("6/5 8/5".into()), &f.journal),
        ["Najpierw wejdź z bandy."]
    );
    assert_eq!(
        ok(&mut s, Cmd::Move("bar/22 6/5".into())),
        ["Biały: z bandy na dwadzieścia dwa, sześć na pięć."]
    );
    assert_eq!(
        ok(&mut s, Cmd::Unknown("double".into())),
        ["Czarny kontruje na dwa."]
    );
    assert_eq!(
        ok(&mut s, Cmd::Unknown("take".into())),
        ["Biały akceptuje."]
    );
    let st = extra(&s);
    assert_eq!(
        st["cube"],
        serde_json::json!({"value": 2, "owner": "white"})
    );
    assert_eq!(st["dice"], serde_json::Value::Null);
    ok(&mut s, Cmd::Unknown("11".into()));
    ok(&mut s, Cmd::Move("8/7(2) 6/5(2)".into()));
    ok(&mut s, Cmd::Unknown("roll 3 3".into()));
    ok(&mut s, Cmd::Move("24/21(2) 8/5(2)".into()));
    ok(&mut s, Cmd::Unknown("roll 2 1".into()));
    ok(&mut s, Cmd::Move("24/21".into()));
    ok(&mut s, Cmd::Unknown("double".into()));
    assert_eq!(
        ok(&mut s, Cmd::Unknown("pass".into())),
        ["Czarny pasuje. Biały wygrywa dwa punkty. Biały 2, Czarny 0, mecz do 3. Partia Crawforda: bez kontry."]
    );
    let st = extra(&s);
    assert_eq!(
        st["score"],
        serde_json::json!({"white": 2, "black": 0, "length": 3, "crawford": true})
    );
    assert_eq!(
        ok(&mut s, Cmd::Unknown("pips".into())),
        [format!(
            "Oczka: Biały {}, Czarny {}.",
            st["pips"]["white"], st["pips"]["black"]
        )]
    );
    // Exactly issue 17's fields, and the Position ID of the side to act next.
    let AnyPosition::Backgammon(m) = s.table().game.position() else {
        panic!()
    };
    assert_eq!(st["match_id"], match_id::encode(&match_id::of_match(&m)));
    assert_eq!(st["position_id"], position_id::encode(m.board()));
    for k in ["position_id", "match_id", "dice", "cube", "score", "pips"] {
        assert!(st.get(k).is_some(), "{k} missing: {st}");
    }
    // The journal replays to the same match.
    let again = f.resume();
    let back = extra(&again);
    for k in [
        "fen",
        "moves",
        "position_id",
        "match_id",
        "dice",
        "cube",
        "score",
        "pips",
    ] {
        assert_eq!(back[k], st[k], "{k} after the replay");
    }
}

#[tokio::test(start_paused = true)]
async fn tandem_rolls_from_the_os_journals_before_saying_and_a_reroll_takes_it_back() {
    let mut f = fixture();
    let opts = GameOptions {
        tandem_dice: true,
        ..GameOptions::default()
    };
    let mut s = f.start(&setup(5, "en", opts));
    drain(&mut f.speech);
    let said = ok(&mut s, Cmd::Unknown("roll".into()));
    let Some(Event::Action { text, press, .. }) = events(&f.journal)
        .into_iter()
        .rfind(|e| matches!(e, Event::Action { .. }))
    else {
        panic!("no action journaled")
    };
    let dice = extra(&s)["dice"].clone();
    let (a, b) = (dice[0].as_u64().unwrap(), dice[1].as_u64().unwrap());
    assert!(
        (1..=6).contains(&a) && (1..=6).contains(&b) && a != b,
        "{dice}"
    );
    assert_eq!(text, format!("roll {a}{b}"));
    // The opening roll presses the clock only when black won it.
    assert_eq!(press, b > a);
    assert!(said[0].contains(" starts with "), "{said:?}");
    // 004 4.2: a roll to make again.
    assert_eq!(
        ok(&mut s, Cmd::Unknown("reroll".into())),
        ["The roll is taken back: roll again."]
    );
    assert_eq!(extra(&s)["dice"], serde_json::Value::Null);
    assert_eq!(
        refused(&mut s, Cmd::Unknown("reroll".into()), &f.journal),
        ["No roll to take back."]
    );
    ok(&mut s, Cmd::Unknown("roll 4 1".into()));
    let again = f.resume();
    assert_eq!(extra(&again)["dice"], serde_json::json!([4, 1]));
    assert_eq!(extra(&again)["score"]["length"], 5);
}

#[tokio::test(start_paused = true)]
async fn a_dance_is_passed_and_the_opponents_moves_are_said_in_the_numbering_chosen() {
    // White on the bar against black's closed board: 31 cannot enter.
    let mut white = [0u8; 25];
    white[5] = 14;
    white[24] = 1;
    let mut black = [0u8; 25];
    for p in black.iter_mut().take(6) {
        *p = 2;
    }
    black[12] = 3;
    let board = Board::from_sides(white, black, Color::White).unwrap();
    let mut info = match_id::of_match(&tandem_rules::backgammon::Match::from_board(
        tandem_rules::backgammon::MatchOptions { length: 3 },
        board,
    ));
    info.length = 3;
    let fen = format!(
        "{}:{}",
        position_id::encode(&board),
        match_id::encode(&info)
    );
    let mut f = fixture();
    let mut st = setup(
        3,
        "en",
        GameOptions {
            numbering: PointNumbering::Both,
            ..GameOptions::default()
        },
    );
    st.start = GameKind::Backgammon.position(Some(&fen)).unwrap();
    let mut s = f.start(&st);
    drain(&mut f.speech);
    assert_eq!(
        ok(&mut s, Cmd::Unknown("roll 3 1".into())),
        ["White rolls three one. No legal move: say pass."]
    );
    assert_eq!(
        refused(&mut s, Cmd::Move("bar/22".into()), &f.journal),
        ["No legal move: say pass."]
    );
    assert_eq!(
        ok(&mut s, Cmd::Unknown("pass".into())),
        ["White cannot move."]
    );
    ok(&mut s, Cmd::Unknown("roll 2 1".into()));
    // Black's 13/11 13/12 in black's numbers, then in white's (the listener's).
    assert_eq!(
        ok(&mut s, Cmd::Move("13/11 13/12".into())),
        ["Black: thirteen to twelve, thirteen to eleven, your twelve to thirteen, twelve to fourteen."]
    );
    assert_eq!(s.table().game.moves_made(Color::White), 1);
    // Earlier positions replay from the set position, not from a new match.
    let first = s.table().game.position_at(0).unwrap();
    assert_eq!(first.to_fen(), fen);
    assert_eq!(
        ok(&mut s, Cmd::Last),
        ["Black: thirteen to twelve, thirteen to eleven, your twelve to thirteen, twelve to fourteen."]
    );
    let mut g = s.table().game.clone();
    g.undo();
    assert_eq!(g.ply(), s.table().game.ply() - 1);
    assert_eq!(g.state_extra()["dice"], serde_json::json!([2, 1]));
}

#[tokio::test(start_paused = true)]
async fn a_board_read_back_as_a_position_id_and_a_resigned_match() {
    let f = fixture();
    let mut s = f.start(&setup(3, "en", GameOptions::default()));
    ok(&mut s, Cmd::Unknown("roll 3 1".into()));
    ok(&mut s, Cmd::Move("8/5 6/5".into()));
    let now = extra(&s)["position_id"].as_str().unwrap().to_owned();
    // The record's board: they agree.
    let r = s.handle(Cmd::Mismatch(Some(now)), Source::Typed);
    assert!(r.ok, "{r:?}");
    assert_eq!(r.said, ["That position matches the record."]);
    // The start: one behind, the first action to make said.
    let r = s.handle(Cmd::Mismatch(Some("4HPwATDgc/ABMA".into())), Source::Typed);
    assert_eq!(
        r.said,
        ["The board is 1 behind. First: White: eight to five, six to five."]
    );
    let r = s.handle(Cmd::Mismatch(Some("not an id".into())), Source::Typed);
    assert!(!r.ok);
    // The match resigned (`resign match black`; a bare `resign` offers the
    // game, see session_backgammon_table.rs): the winner said after the score.
    let said = ok(&mut s, Cmd::parse_line("resign match black"));
    assert!(
        said.iter()
            .any(|l| l.ends_with("White 0, Black 0, match to 3. White wins the match.")),
        "{said:?}"
    );
    assert_eq!(s.view().result.as_deref(), Some("1-0"));
    let r = s.handle(Cmd::Unknown("roll 4 2".into()), Source::Typed);
    assert!(!r.ok, "the match is over");
}
