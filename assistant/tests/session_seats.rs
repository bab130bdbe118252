//! Two seats at one table (001 ch. VIII 1.3, 2.2, 5.1), in the session:
//! each seat's speech caught in its own channel, the journal read back.
//! A move is heard by both seats; the answer to a seat's own request
//! (`clock`, `position`, an error about its own input) by that seat
//! alone; a time warning by the seat whose clock it is; a seat plays only
//! for its own side, on its turn; the journal says who heard what (`to`)
//! and which seat asked (`seat`). The real outputs (two earphones, two
//! braille displays) are in `e2e_seats.rs`.

use std::time::Duration;

use tandem::game::AnyPosition;
use tandem::journal::{Event, Journal, Source};
use tandem::session::{Blind, Cmd, DrawCmd, GameSetup, Reply, SeatOutput, Session};
use tandem_braille::driver::DriverInput;
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;
use tandem_speech::Utterance;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

mod support;

use support::session::{drain, fixture, game_setup, Fixture};

/// `cmd` on `seat`'s own channel.
fn as_seat(s: &mut Session, cmd: Cmd, seat: Color) -> Reply {
    s.handle_as(cmd, Source::Control, Some(seat))
}

/// A seat of `side` with its own speech or display.
fn seat(
    side: Color,
    speech: Option<UnboundedSender<Utterance>>,
    braille: Option<std::sync::mpsc::Sender<DriverInput>>,
) -> SeatOutput {
    SeatOutput {
        side,
        speech,
        braille,
        lang: None,
    }
}

fn setup(blind: Blind, control: &str) -> GameSetup {
    let mut s = game_setup(
        AnyPosition::Draughts(Position::start(Variant::International)),
        control,
        "en",
    );
    s.blind = blind;
    s
}

/// A fixture whose two seats have speech of their own; the table's own
/// output speaks nowhere (`--seat` without `--speech`).
fn two_seats() -> (
    Fixture,
    UnboundedReceiver<Utterance>,
    UnboundedReceiver<Utterance>,
) {
    let mut f = fixture();
    let (w, wr) = unbounded_channel();
    let (b, br) = unbounded_channel();
    f.out.table_speaks = false;
    f.out.seats = vec![
        seat(Color::White, Some(w), None),
        seat(Color::Black, Some(b), None),
    ];
    (f, wr, br)
}

/// Each `announced` line of the journal: its words and who heard them.
fn announced(f: &Fixture) -> Vec<(String, Vec<Color>)> {
    Journal::read(&f.journal)
        .unwrap()
        .records
        .into_iter()
        .filter_map(|r| match r.event {
            Event::Announced { text, to, .. } => Some((text, to)),
            _ => None,
        })
        .collect()
}

fn to_of(f: &Fixture, text: &str) -> Vec<Color> {
    announced(f)
        .into_iter()
        .rev()
        .find(|(t, _)| t == text)
        .unwrap_or_else(|| panic!("{text:?} was not journaled: {:?}", announced(f)))
        .1
}

#[tokio::test(start_paused = true)]
async fn each_seat_hears_the_moves_and_only_its_own_answers() {
    let (f, mut white, mut black) = two_seats();
    let mut s = f.start(&setup(Blind::Both, "90m"));
    // The start: both hear whose turn it is.
    assert_eq!(drain(&mut white), ["White to move."]);
    assert_eq!(drain(&mut black), ["White to move."]);
    tokio::time::advance(Duration::from_secs(4)).await;

    // White's seat plays: both hear the move; the journal names the seat.
    let r = as_seat(&mut s, Cmd::Move("32-28".into()), Color::White);
    assert!(r.ok, "{r:?}");
    assert_eq!(drain(&mut white), ["Thirty-two, twenty-eight."]);
    assert_eq!(drain(&mut black), ["Thirty-two, twenty-eight."]);
    assert_eq!(
        to_of(&f, "Thirty-two, twenty-eight."),
        [Color::White, Color::Black]
    );

    // White asks the clock (ch. VIII 5.1): white alone hears it.
    let r = s.handle_as(Cmd::Clock, Source::Control, Some(Color::White));
    assert!(r.ok);
    let clock = drain(&mut white);
    assert_eq!(clock.len(), 1, "{clock:?}");
    assert!(
        clock[0].starts_with("White: used four seconds"),
        "{clock:?}"
    );
    assert!(drain(&mut black).is_empty(), "black heard white's clock");
    assert_eq!(to_of(&f, &clock[0]), [Color::White]);

    // Black asks where the pieces stand: black alone.
    let r = s.handle_as(Cmd::Last, Source::Control, Some(Color::Black));
    assert!(r.ok);
    assert!(drain(&mut white).is_empty());
    let last = drain(&mut black);
    assert_eq!(last.len(), 1, "{last:?}");
    assert_eq!(to_of(&f, &last[0]), [Color::Black]);

    // White's seat tries to move on black's turn: refused to white alone,
    // nothing played, the refusal journaled with the seat.
    let r = as_seat(&mut s, Cmd::Move("19-23".into()), Color::White);
    assert!(!r.ok);
    assert_eq!(drain(&mut white), ["It is not your move."]);
    assert!(drain(&mut black).is_empty());
    assert_eq!(s.table().game.ply(), 1);
    assert_eq!(to_of(&f, "It is not your move."), [Color::White]);

    // Black's seat plays its move; then resigns for white: refused.
    let r = as_seat(&mut s, Cmd::Move("19-23".into()), Color::Black);
    assert!(r.ok, "{r:?}");
    assert_eq!(drain(&mut white), ["Nineteen, twenty-three."]);
    assert_eq!(drain(&mut black), ["Nineteen, twenty-three."]);
    let r = as_seat(&mut s, Cmd::Resign(Some(Color::White)), Color::Black);
    assert!(!r.ok);
    assert_eq!(drain(&mut black), ["You play black."]);
    assert!(drain(&mut white).is_empty());
    assert!(s.table().result.is_none());

    // An illegal move of its own: the reason to that seat alone.
    let r = as_seat(&mut s, Cmd::Move("31-26".into()), Color::White);
    assert!(!r.ok);
    assert!(!drain(&mut white).is_empty());
    assert!(drain(&mut black).is_empty());

    // A draw offer from a seat is that seat's, and both hear it.
    let r = as_seat(&mut s, Cmd::Draw(DrawCmd::Offer, None), Color::White);
    let w = drain(&mut white);
    let b = drain(&mut black);
    if r.ok {
        assert_eq!(w, b, "a draw offer is everyone's");
    }

    // The table's own channel (the arbiter's `tandem ctl` without --seat):
    // its clock answer is everyone's, as before seats.
    let r = s.handle(Cmd::Clock, Source::Control);
    assert!(r.ok);
    assert_eq!(drain(&mut white).len(), 1);
    assert_eq!(drain(&mut black).len(), 1);

    // The journal: the moves and the refusal name their seats.
    let j = Journal::read(&f.journal).unwrap();
    let seats: Vec<(String, Option<Color>)> = j
        .records
        .iter()
        .filter_map(|r| match &r.event {
            Event::Move { text, seat, .. } => Some((text.clone(), *seat)),
            Event::Rejected { input, seat, .. } => Some((format!("refused {input}"), *seat)),
            _ => None,
        })
        .collect();
    assert_eq!(seats[0], ("32-28".to_owned(), Some(Color::White)));
    assert_eq!(seats[1], ("refused 19-23".to_owned(), Some(Color::White)));
    assert_eq!(seats[2], ("19-23".to_owned(), Some(Color::Black)));
}

#[tokio::test(start_paused = true)]
async fn a_time_warning_goes_to_the_seat_whose_clock_it_is() {
    let (f, mut white, mut black) = two_seats();
    let s = f.start(&setup(Blind::Both, "2m"));
    let (h, task) = s.spawn();
    let r = h
        .request_as(
            Cmd::Move("32-28".into()),
            Source::Control,
            Some(Color::White),
        )
        .await
        .unwrap();
    assert!(r.ok);
    drain(&mut white);
    drain(&mut black);
    // Black thinks until one minute is left.
    tokio::time::sleep(Duration::from_secs(61)).await;
    tokio::task::yield_now().await;
    assert_eq!(drain(&mut black), ["Warning, black: one minute left."]);
    assert!(drain(&mut white).is_empty(), "white heard black's warning");
    h.shutdown().await;
    task.await.unwrap();
    assert_eq!(
        to_of(&f, "Warning, black: one minute left."),
        [Color::Black]
    );
}

#[tokio::test(start_paused = true)]
async fn without_seats_the_one_output_is_the_blind_sides_and_says_everything() {
    for (blind, want) in [
        (Blind::White, vec![Color::White]),
        (Blind::Both, vec![Color::White, Color::Black]),
        (Blind::None, vec![]),
    ] {
        let mut f = fixture();
        let mut s: Session = f.start(&setup(blind, "90m"));
        let r = s.handle(Cmd::Move("32-28".into()), Source::Typed);
        assert!(r.ok);
        assert_eq!(
            drain(&mut f.speech),
            ["White to move.", "Thirty-two, twenty-eight."]
        );
        assert_eq!(to_of(&f, "Thirty-two, twenty-eight."), want, "{blind:?}");
        // `--speech none`: no seat heard anything.
        let mut f = fixture();
        f.out.table_speaks = false;
        let mut s: Session = f.start(&setup(blind, "90m"));
        s.handle(Cmd::Move("32-28".into()), Source::Typed);
        assert!(to_of(&f, "Thirty-two, twenty-eight.").is_empty());
    }
}

#[test]
fn a_journal_from_before_seats_still_reads() {
    let line = r#"{"type":"announced","kind":"move","priority":"normal","text":"Thirty-two, twenty-eight."}"#;
    let e: Event = serde_json::from_str(line).unwrap();
    assert!(matches!(e, Event::Announced { ref to, .. } if to.is_empty()));
    let mv = r#"{"type":"move","ply":1,"side":"white","text":"32-28","input":"32-28","source":"control","move_ms":1,"white_ms":2,"black_ms":3}"#;
    let e: Event = serde_json::from_str(mv).unwrap();
    assert!(matches!(e, Event::Move { seat: None, .. }));
    // A move without a seat is written without the field, as before.
    let back = serde_json::to_string(&e).unwrap();
    assert!(!back.contains("seat"), "{back}");
}

mod voice {
    //! Each seat's own microphone: its own listener, its own read-back and
    //! yes/no; what it hears is taken only for its side.

    use super::*;
    use tandem::session::SessionHandle;
    use tandem::voice::{Spoken, VoiceGame, VoiceLink};
    use tandem_speech::draughts::listen::{Draughts, DraughtsWords};
    use tandem_speech::listen::audio::{Mode, VadConfig};
    use tandem_speech::listen::{ConfirmPolicy, Lexicon, Listener, ScriptedRecognizer, Transcript};
    use tandem_speech::{AnnounceOptions, Announcer, Phrasebook};

    fn listener() -> Listener<Draughts> {
        Listener::new(
            Box::new(ScriptedRecognizer::default()),
            Lexicon::draughts_builtin("pl").unwrap(),
            ConfirmPolicy::Always,
            Mode::Voice(VadConfig::default()),
            Position::start(Variant::International),
        )
        .unwrap()
    }

    /// What a seat's voice thread sends for `text` heard at `ply`, sent as
    /// that seat's; returns once the session has handled it.
    async fn hear(
        h: &SessionHandle,
        l: &mut Listener<Draughts>,
        seat: Color,
        ply: u32,
        text: &str,
    ) {
        let announcer = Announcer::new(Phrasebook::polish(), AnnounceOptions::default());
        let decision = l.hear(&[Transcript::text(text)]);
        let reply = Draughts::reply(&decision, l, &announcer);
        let input = Draughts::input(Spoken {
            ply,
            pos: *l.position(),
            decision,
            reply,
        });
        let h2 = h.clone();
        tokio::task::spawn_blocking(move || h2.blocking_voice_as(input, Some(seat)))
            .await
            .unwrap()
            .unwrap();
        h.request(Cmd::State, Source::Control).await.unwrap();
    }

    #[tokio::test]
    async fn each_seats_microphone_reads_back_to_it_and_plays_only_its_side() {
        let (f, mut white, mut black) = two_seats();
        let mut setup = setup(Blind::Both, "90m");
        setup.lang = "pl".into();
        let mut s = f.start(&setup);
        let (wtx, _wrx) = std::sync::mpsc::channel();
        let (btx, _brx) = std::sync::mpsc::channel();
        s.set_voice(VoiceLink::new(wtx, false).for_seat(Color::White));
        s.set_voice(VoiceLink::new(btx, false).for_seat(Color::Black));
        let (h, _task) = s.spawn();
        drain(&mut white);
        drain(&mut black);
        let (mut wl, mut bl) = (listener(), listener());

        // Black says white's move on white's turn: black alone is told.
        hear(
            &h,
            &mut bl,
            Color::Black,
            0,
            "trzydzieści dwa na dwadzieścia osiem",
        )
        .await;
        assert_eq!(drain(&mut black), ["To nie jest twój ruch."]);
        assert!(drain(&mut white).is_empty());

        // White says it: read back to white alone, played on "tak", heard by both.
        hear(
            &h,
            &mut wl,
            Color::White,
            0,
            "trzydzieści dwa na dwadzieścia osiem",
        )
        .await;
        let back = drain(&mut white);
        assert_eq!(back.len(), 1, "{back:?}");
        assert!(
            back[0].to_lowercase().contains("trzydzieści dwa"),
            "{back:?}"
        );
        assert!(
            drain(&mut black).is_empty(),
            "black heard white's read-back"
        );
        hear(&h, &mut wl, Color::White, 0, "tak").await;
        let w = drain(&mut white);
        assert_eq!(w, drain(&mut black), "the move is everyone's");
        assert!(w.iter().any(|t| t.contains("dwadzieścia osiem")), "{w:?}");

        // The journal: what each microphone heard, with its seat.
        let j = Journal::read(&f.journal).unwrap();
        let heard: Vec<(Option<Color>, String)> = j
            .records
            .iter()
            .filter_map(|r| match &r.event {
                Event::Heard { seat, decision, .. } => Some((*seat, decision.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(heard[0], (Some(Color::Black), "not-your-move".into()));
        assert_eq!(heard[1].0, Some(Color::White));
        let mv = j
            .records
            .iter()
            .find_map(|r| match &r.event {
                Event::Move { source, seat, .. } => Some((*source, *seat)),
                _ => None,
            })
            .unwrap();
        assert_eq!(mv, (Source::Spoken, Some(Color::White)));
    }
}

#[tokio::test(start_paused = true)]
async fn my_and_opponent_are_the_asking_seats() {
    let (f, mut white, mut black) = two_seats();
    let mut s = f.start(&setup(Blind::Both, "90m"));
    drain(&mut white);
    drain(&mut black);
    // The table's own channel at a table of two blind players: whose?
    let r = s.handle(Cmd::Ask("my men".into()), Source::Control);
    assert!(r.said.iter().any(|t| t.contains("hose")), "{r:?}");
    drain(&mut white);
    drain(&mut black);
    // White's seat: white's men, told to white alone.
    let r = as_seat(&mut s, Cmd::Ask("my men".into()), Color::White);
    assert!(r.ok, "{r:?}");
    let w = drain(&mut white);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(!w[0].contains("hose"), "{w:?}");
    assert!(drain(&mut black).is_empty());
    // Black's "opponent's men" are white's: the same men (read from
    // black's side of the board).
    let r = as_seat(&mut s, Cmd::Ask("opponent men".into()), Color::Black);
    assert!(r.ok, "{r:?}");
    let b = drain(&mut black);
    let words = |t: &str| {
        let mut v: Vec<String> = t
            .split([' ', ',', '.'])
            .filter(|w| !w.is_empty() && *w != "and")
            .map(str::to_owned)
            .collect();
        v.sort();
        v
    };
    assert_eq!(words(&b[0]), words(&w[0]), "{b:?} {w:?}");
    assert!(drain(&mut white).is_empty());
}

#[tokio::test(start_paused = true)]
async fn each_seats_display_shows_the_board_from_its_own_side() {
    use tandem_braille::Board;
    let mut f = fixture();
    let (w, wr) = std::sync::mpsc::channel();
    let (b, br) = std::sync::mpsc::channel();
    f.out.seats = vec![
        seat(Color::White, None, Some(w)),
        seat(Color::Black, None, Some(b)),
    ];
    // Backgammon numbers the points from one side: each player's own.
    let start = tandem::game::GameKind::Backgammon.position(None).unwrap();
    let mut s = f.start(&game_setup(start, "eubgf-7", "en"));
    as_seat(&mut s, Cmd::Unknown("roll 3 1".into()), Color::White);
    for (rx, side) in [(wr, Color::White), (br, Color::Black)] {
        let boards: Vec<Color> = rx
            .try_iter()
            .filter_map(|i| match i {
                DriverInput::Board {
                    board: Board::Backgammon { viewer, .. },
                    ..
                } => Some(viewer),
                _ => None,
            })
            .collect();
        assert!(!boards.is_empty(), "{side}'s display got no board");
        assert!(boards.iter().all(|v| *v == side), "{side}: {boards:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn at_an_international_table_each_seat_hears_its_own_language() {
    let (mut f, mut white, mut black) = two_seats();
    // A Polish table; black's seat speaks English.
    f.out.seats[1].lang = Some("en".into());
    let mut setup = setup(Blind::Both, "90m");
    setup.lang = "pl".into();
    let mut s = f.start(&setup);
    assert_eq!(drain(&mut white), ["Ruch białych."]);
    assert_eq!(drain(&mut black), ["White to move."]);
    tokio::time::advance(Duration::from_secs(4)).await;
    assert!(as_seat(&mut s, Cmd::Move("32-28".into()), Color::White).ok);
    assert_eq!(drain(&mut white), ["Trzydzieści dwa na dwadzieścia osiem."]);
    assert_eq!(drain(&mut black), ["Thirty-two, twenty-eight."]);
    // Black asks the clock: in English, to black alone; the reply too.
    let r = s.handle_as(Cmd::Clock, Source::Control, Some(Color::Black));
    assert!(r.said[0].starts_with("White: used four seconds"), "{r:?}");
    assert!(drain(&mut white).is_empty());
    assert_eq!(drain(&mut black), r.said);
    // Black's illegal move: the reason in English, to black alone.
    let r = as_seat(&mut s, Cmd::Move("19-14".into()), Color::Black);
    assert!(!r.ok, "{r:?}");
    assert!(drain(&mut white).is_empty());
    let b = drain(&mut black);
    assert_eq!(b.len(), 1, "{b:?}");
    assert!(b[0].is_ascii(), "in English: {b:?}");
    // One journal line a language, each with its own `to`.
    let j = Journal::read(&f.journal).unwrap();
    let lines: Vec<(String, Vec<Color>, Option<String>)> = j
        .records
        .into_iter()
        .filter_map(|r| match r.event {
            Event::Announced { text, to, lang, .. } => Some((text, to, lang)),
            _ => None,
        })
        .collect();
    assert!(lines.contains(&(
        "Trzydzieści dwa na dwadzieścia osiem.".into(),
        vec![Color::White],
        None
    )));
    assert!(lines.contains(&(
        "Thirty-two, twenty-eight.".into(),
        vec![Color::Black],
        Some("en".into())
    )));
    // The game resumed from its journal keeps each seat's language.
    drop(s);
    let mut s = f.resume();
    drain(&mut white);
    drain(&mut black);
    s.handle_as(Cmd::Last, Source::Control, Some(Color::Black));
    assert_eq!(drain(&mut black), ["Last move: thirty-two, twenty-eight."]);
}
