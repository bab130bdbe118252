//! The session's side of backgammon voice input, with a backgammon listener
//! fed typed transcripts (`Listener<BgVoice>::hear` over a scripted
//! recognizer: no model, no microphone; the real ones are in
//! `voice_backgammon_e2e.rs`): the opening roll and a move read back and
//! entered on "tak" (an `action` and a `move` event, spoken, after their
//! `heard` lines), the pips asked, a move refused with the rules' reason,
//! the opponent's double taken by voice, the opponent's roll not the blind
//! player's to say, and the match sent to the voice thread after each act.

mod support;

use tandem::game::{AnyPosition, GameKind};
use tandem::journal::{Event, Source};
use tandem::session::{Blind, Cmd, GameSetup};
use tandem_rules::backgammon::{Action, Dice, Match};
use tandem_rules::Color;
use tandem_speech::backgammon::listen::{BgVoice, BgWords};
use tandem_speech::listen::audio::{Mode, VadConfig};
use tandem_speech::listen::{ConfirmPolicy, Listener, ScriptedRecognizer};

use support::assert_refuses_draughts_phrasebook;
use support::session::{game_setup, h, voice_table, VoiceTable};

fn start() -> (VoiceTable<BgVoice>, Match) {
    let setup = GameSetup {
        blind: Blind::White,
        ..game_setup(
            GameKind::Backgammon.position(None).unwrap(),
            "eubgf-7",
            "pl",
        )
    };
    let m = match &setup.start {
        AnyPosition::Backgammon(m) => (**m).clone(),
        _ => unreachable!(),
    };
    let listener = Listener::for_game(
        Box::new(ScriptedRecognizer::default()),
        BgWords::builtin("pl").unwrap(),
        ConfirmPolicy::Always,
        Mode::Voice(VadConfig::default()),
        m.clone(),
    )
    .unwrap();
    let mut t = voice_table(&setup, listener);
    t.said();
    (t, m)
}

/// The journal's `action` and `move` events: (`text`, `source`).
fn acts(t: &VoiceTable<BgVoice>) -> Vec<(String, Source)> {
    t.events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Action { text, source, .. } | Event::Move { text, source, .. } => {
                Some((text, source))
            }
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_opening_roll_and_a_move_are_read_back_then_entered_on_tak() {
    let (mut t, mut m) = start();
    let said = t.hear(0, "trzy jeden").await;
    assert_eq!(said, ["Trzy jeden, zgadza się?"]);
    assert!(acts(&t).is_empty(), "nothing before tak");
    let said = t.hear(0, "tak").await;
    assert!(said.iter().any(|s| s.contains("Biały zaczyna")), "{said:?}");
    assert_eq!(acts(&t), [("roll 31".to_owned(), Source::Spoken)]);
    assert_eq!(
        t.positions().last(),
        Some(&1),
        "the grammar follows the roll"
    );
    follow(&mut t, &mut m, Action::Roll(Dice(3, 1)));

    let said = t.hear(1, "oczka").await;
    assert_eq!(said, ["Oczka: Biały 167, Czarny 167."]);
    let said = t.hear(1, "osiem pięć sześć pięć").await;
    assert_eq!(said, ["Osiem na pięć, sześć na pięć, zgadza się?"]);
    let said = t.hear(1, "tak").await;
    assert!(said.iter().any(|s| s.contains("osiem na pięć")), "{said:?}");
    assert_eq!(
        acts(&t),
        [
            ("roll 31".to_owned(), Source::Spoken),
            ("8/5 6/5".to_owned(), Source::Spoken)
        ]
    );
    assert_eq!(
        t.heard(),
        [
            h("move", "roll 3 1", "read-back"),
            h("command", "yes", "play"),
            h("command", "pips", "command"),
            h("move", "8/5 6/5", "read-back"),
            h("command", "yes", "play"),
        ]
    );
    t.assert_spoken_move_after_heard("8/5 6/5");
    assert_eq!(t.positions().last(), Some(&2));
}

#[tokio::test]
async fn a_move_is_refused_with_the_reason_and_the_opponent_s_roll_is_not_said_by_voice() {
    let (mut t, mut m) = start();
    ctl(&mut t, &mut m, "roll 3 1", Action::Roll(Dice(3, 1))).await;
    let said = t.hear(1, "osiem pięć").await;
    assert_eq!(said, ["Trzeba zagrać też jeden."]);
    assert_eq!(t.heard(), [h("illegal", "8/5", "refused")]);
    assert!(t.events().into_iter().any(|e| matches!(
        e,
        Event::Rejected { source: Source::Spoken, ref input, .. } if input == "8/5"
    )));
    // The move typed; black (sighted) is on roll: White's "trzy jeden" is not his.
    t.done(Cmd::Move("8/5 6/5".into()), Source::Typed).await;
    let mv = m.resolve("8/5 6/5").unwrap();
    follow(&mut t, &mut m, Action::Move(mv));
    let _ = t.hear(2, "trzy jeden").await;
    let _ = t.hear(2, "tak").await;
    assert_eq!(t.heard().last().unwrap().2, "not-your-move");
    assert_eq!(t.ply().await, 2);

    // Black doubles (typed): White takes by voice, always read back.
    ctl(&mut t, &mut m, "double", Action::Double).await;
    let said = t.hear(3, "przyjmuję").await;
    assert_eq!(said, ["Przyjmuję, zgadza się?"]);
    let said = t.hear(3, "tak").await;
    assert!(said.iter().any(|s| s.contains("akceptuje")), "{said:?}");
    assert_eq!(acts(&t).last(), Some(&("take".to_owned(), Source::Spoken)));
}

/// The match and the game's `ctl state` fields (`score`…).
async fn state_json(t: &VoiceTable<BgVoice>) -> serde_json::Value {
    let r = t.handle.request(Cmd::State, Source::Control).await.unwrap();
    serde_json::to_value(r.state.unwrap()).unwrap()
}

/// `action` played in the test's match, and the listener's position set to it.
fn follow(t: &mut VoiceTable<BgVoice>, m: &mut Match, action: Action) {
    m.act(action).unwrap();
    t.listener.set_position(m.clone()).unwrap();
}

/// A line sent with `tandem ctl`, mirrored in the listener's match.
async fn ctl(t: &mut VoiceTable<BgVoice>, m: &mut Match, line: &str, action: Action) {
    t.done(Cmd::Unknown(line.into()), Source::Control).await;
    follow(t, m, action);
    t.said();
}

#[tokio::test]
async fn a_resignation_is_offered_and_accepted_by_voice_with_its_points() {
    let (mut t, mut m) = start();
    ctl(&mut t, &mut m, "roll 3 1", Action::Roll(Dice(3, 1))).await;
    // White (blind) offers a gammon by voice: read back, then offered on "tak".
    let ply = t.ply().await;
    let said = t.hear(ply, "poddaję gammona").await;
    assert_eq!(said, ["Poddaję podwójnie, zgadza się?"]);
    assert!(acts(&t).iter().all(|(a, _)| !a.starts_with("resign")));
    let said = t.hear(ply, "tak").await;
    assert!(
        said.iter()
            .any(|s| s.contains("Biały chce poddać partię podwójnie")),
        "{said:?}"
    );
    assert_eq!(
        acts(&t).last(),
        Some(&("resign offer white 2".to_owned(), Source::Spoken))
    );
    m.act(Action::ResignOffer {
        side: Color::White,
        level: 2,
    })
    .unwrap();
    t.listener.set_position(m.clone()).unwrap();
    // The answer is Black's: White cannot accept his own offer.
    let ply = t.ply().await;
    let _ = t.hear(ply, "przyjmuję").await;
    assert_eq!(t.heard().last().unwrap().2, "not-your-move");
    // Black declines (typed): the game goes on, White moves by voice.
    ctl(&mut t, &mut m, "decline", Action::ResignDecline).await;
    let ply = t.ply().await;
    let _ = t.hear(ply, "osiem pięć sześć pięć").await;
    let _ = t.hear(ply, "tak").await;
    assert_eq!(
        acts(&t).last(),
        Some(&("8/5 6/5".to_owned(), Source::Spoken))
    );
    let mv = m.resolve("8/5 6/5").unwrap();
    follow(&mut t, &mut m, Action::Move(mv));
    // Black, on roll, offers a gammon (typed); White accepts by voice.
    let offer = Action::ResignOffer {
        side: Color::Black,
        level: 2,
    };
    ctl(&mut t, &mut m, "resign gammon", offer).await;
    let ply = t.ply().await;
    let said = t.hear(ply, "trzy jeden").await;
    assert_eq!(
        said,
        ["Czeka propozycja poddania: najpierw przyjmij albo odrzuć."],
        "nothing else while the offer waits"
    );
    let said = t.hear(ply, "przyjmuję").await;
    assert_eq!(said, ["Przyjmuję, zgadza się?"]);
    let said = t.hear(ply, "tak").await;
    assert!(
        said.iter().any(|s| s.contains("Biały przyjmuje")),
        "{said:?}"
    );
    assert_eq!(
        acts(&t).last(),
        Some(&("resign black 2".to_owned(), Source::Spoken))
    );
    let st = state_json(&t).await;
    assert_eq!(st["score"]["white"], 2, "{st}");
    assert_eq!(st["score"]["black"], 0);
    assert_eq!(
        t.heard()
            .into_iter()
            .filter(|(_, text, _)| text.starts_with("resign")
                || text == "accept"
                || text == "decline")
            .collect::<Vec<_>>(),
        [
            h("move", "resign 2", "read-back"),
            h("move", "accept", "not-your-move"),
            h("move", "accept", "read-back"),
        ]
    );
}

/// `tandem play --variant backgammon --phrasebook` takes a backgammon
/// phrasebook: a draughts one is refused with what to give, before the
/// journal is made.
#[test]
fn a_backgammon_game_refuses_a_draughts_phrasebook_clearly() {
    assert_refuses_draughts_phrasebook("backgammon", &["--voice", "off"]);
}

#[tokio::test]
async fn a_spoken_question_about_a_point_or_the_bar_is_answered_beside_the_moves() {
    // Issue 23: "punkt osiem" in the listener's numbering (white is blind).
    let (mut t, mut m) = start();
    m.act(Action::Roll(Dice(3, 1))).unwrap();
    let _ = t.hear(0, "trzy jeden").await;
    let _ = t.hear(0, "tak").await;
    t.listener.set_position(m.clone()).unwrap();
    let said = t.hear(1, "punkt osiem").await;
    assert_eq!(said, ["Punkt 8: 3 białe."]);
    let said = t.hear(1, "punkt jeden").await;
    assert_eq!(said, ["Punkt 1: 2 czarne."]);
    let said = t.hear(1, "na bandzie").await;
    assert_eq!(said, ["Banda: białe 0, czarne 0."]);
    // The move after them is still the move.
    let said = t.hear(1, "osiem pięć sześć pięć").await;
    assert_eq!(said, ["Osiem na pięć, sześć na pięć, zgadza się?"]);
    let heard = t.heard();
    assert_eq!(
        heard[2..5],
        [
            h("query", "point 8", "command"),
            h("query", "point 1", "command"),
            h("query", "bar", "command"),
        ]
    );
}
