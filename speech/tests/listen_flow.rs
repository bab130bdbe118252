//! The confirmation flow of [`Listener`]: read-backs, yes/no/cancel while a
//! read-back is pending, corrections, refusals, the grammar swap and muting.
//!
//! These tests feed transcripts through [`ScriptedRecognizer`], a fake that
//! stands in for Vosk (no Polish or English model can be brought onto the
//! test machines); the same flow with the real recognizer and the Korean
//! model is in `listen_vosk.rs`.

use tandem_rules::draughts::notation::{resolve, ResolveError};
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::{Draughts, DraughtsWords};
use tandem_speech::listen::audio::{Mode, VadConfig, FRAME};
use tandem_speech::listen::{CommandKind, ConfirmPolicy, Lexicon, ScriptedRecognizer, Transcript};
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook};

type Listener = tandem_speech::listen::Listener<Draughts>;
type Action = tandem_speech::listen::Action<tandem_rules::draughts::Move, ResolveError>;

fn listener(policy: ConfirmPolicy, pos: Position) -> Listener {
    Listener::new(
        Box::new(ScriptedRecognizer::default()),
        Lexicon::draughts_builtin("pl").unwrap(),
        policy,
        Mode::Voice(VadConfig::default()),
        pos,
    )
    .unwrap()
}

fn say(l: &mut Listener, text: &str) -> Action {
    l.hear(&[Transcript::text(text)]).action
}

fn mv(pos: &Position, text: &str) -> tandem_rules::draughts::Move {
    resolve(pos, text).unwrap()
}

#[test]
fn scripted_always_policy_reads_back_and_plays_only_on_yes() {
    let start = Position::start(Variant::International);
    let mut l = listener(ConfirmPolicy::Always, start);
    assert_eq!(
        say(&mut l, "trzydzieści dwa na dwadzieścia osiem"),
        Action::ConfirmMove(mv(&start, "32-28"))
    );
    assert!(l.is_pending());
    // A question in between keeps the read-back.
    assert_eq!(
        say(&mut l, "zegar"),
        Action::Command(CommandKind::Clock, None)
    );
    // Garbled: ask again, still pending.
    assert_eq!(say(&mut l, "eee"), Action::Repeat);
    // The player corrects himself: the new move is read back.
    assert_eq!(
        say(&mut l, "trzydzieści trzy dwadzieścia osiem"),
        Action::ConfirmMove(mv(&start, "33-28"))
    );
    assert_eq!(say(&mut l, "tak"), Action::Play(mv(&start, "33-28")));
    assert!(!l.is_pending());
    // "yes" with nothing pending goes to the daemon (e.g. a draw offer).
    assert_eq!(say(&mut l, "tak"), Action::Command(CommandKind::Yes, None));
}

#[test]
fn scripted_no_and_cancel_drop_the_read_back() {
    let start = Position::start(Variant::International);
    let mut l = listener(ConfirmPolicy::Always, start);
    for refusal in ["nie", "anuluj"] {
        assert!(matches!(
            say(&mut l, "trzydzieści dwa dwadzieścia osiem"),
            Action::ConfirmMove(_)
        ));
        assert_eq!(say(&mut l, refusal), Action::Cancelled);
        assert!(!l.is_pending());
    }
    // An illegal move in a read-back refuses it with the reason and drops
    // the read-back: a later "yes" confirms nothing.
    assert!(matches!(
        say(&mut l, "trzydzieści dwa dwadzieścia osiem"),
        Action::ConfirmMove(_)
    ));
    let a = say(&mut l, "trzydzieści dwa dwadzieścia sześć");
    assert!(
        matches!(&a, Action::Refuse { text, error: ResolveError::Unreachable { .. } } if text == "32-26"),
        "{a:?}"
    );
    assert_eq!(say(&mut l, "tak"), Action::Command(CommandKind::Yes, None));
}

#[test]
fn scripted_policy_by_confidence_and_never() {
    let start = Position::start(Variant::International);
    let mut l = listener(ConfirmPolicy::BelowConfidence(0.8), start);
    let sure = Transcript {
        text: "trzydzieści dwa dwadzieścia osiem".into(),
        confidence: 0.95,
    };
    let unsure = Transcript {
        confidence: 0.6,
        ..sure.clone()
    };
    assert_eq!(l.hear(&[sure]).action, Action::Play(mv(&start, "32-28")));
    assert_eq!(
        l.hear(&[unsure]).action,
        Action::ConfirmMove(mv(&start, "32-28"))
    );
    l.set_policy(ConfirmPolicy::Never);
    assert_eq!(say(&mut l, "nie"), Action::Cancelled);
    assert_eq!(
        say(&mut l, "trzydzieści dwa dwadzieścia osiem"),
        Action::Play(mv(&start, "32-28"))
    );
    // Resigning and offering a draw are always read back.
    assert_eq!(
        say(&mut l, "poddaję się"),
        Action::ConfirmCommand(CommandKind::Resign)
    );
    assert_eq!(
        say(&mut l, "tak"),
        Action::Command(CommandKind::Resign, None)
    );
    assert_eq!(
        say(&mut l, "pole trzydzieści dwa"),
        Action::Command(CommandKind::Square, Some(32))
    );
}

#[test]
fn scripted_replies_are_the_announcer_s() {
    let start = Position::start(Variant::International);
    let mut l = listener(ConfirmPolicy::Always, start);
    let a = Announcer::new(Phrasebook::polish(), AnnounceOptions::default());
    let reply = |l: &mut Listener, text: &str| {
        let d = l.hear(&[Transcript::text(text)]);
        d.reply(&start, &a, l.lexicon()).map(|u| u.text())
    };
    assert_eq!(
        reply(&mut l, "trzydzieści dwa na dwadzieścia osiem").as_deref(),
        Some("Trzydzieści dwa na dwadzieścia osiem, zgadza się?")
    );
    assert_eq!(reply(&mut l, "tak"), None, "the daemon announces the move");
    assert_eq!(
        reply(&mut l, "poddaję się").as_deref(),
        Some("Poddaję się, zgadza się?")
    );
    assert_eq!(reply(&mut l, "nie").as_deref(), Some("Anulowano."));
    assert_eq!(
        reply(&mut l, "dzień dobry").as_deref(),
        Some("Nie zrozumiałem. Powtórz, proszę.")
    );
    let err = resolve(&start, "32-37").unwrap_err();
    assert_eq!(
        reply(&mut l, "trzydzieści dwa trzydzieści siedem"),
        Some(a.on_rejected(&start, "32-37", &err).text())
    );
    // An ambiguous capture is asked back naming the captured squares.
    let pos = Position::from_fen(Variant::International, "W:WK15:B9,14,20,28,41").unwrap();
    l.set_position(pos).unwrap();
    let d = l.hear(&[Transcript::text("piętnaście bije cztery")]);
    let Action::AskWhich(moves) = &d.action else {
        panic!("{d:?}")
    };
    assert_eq!(moves.len(), 2);
    let asked = d.reply(&pos, &a, l.lexicon()).unwrap().text();
    assert!(asked.contains("dwadzieścia osiem"), "{asked}");
}

#[test]
fn scripted_grammar_swaps_with_the_position() {
    let start = Position::start(Variant::International);
    let mut l = listener(ConfirmPolicy::Never, start);
    let m = mv(&start, "32-28");
    assert_eq!(
        say(&mut l, "trzydzieści dwa dwadzieścia osiem"),
        Action::Play(m)
    );
    let mut after = start;
    after.play_unchecked(&m);
    l.set_position(after).unwrap();
    // Black to move now: the same words are no legal move.
    assert!(matches!(
        say(&mut l, "trzydzieści dwa dwadzieścia osiem"),
        Action::Refuse { .. }
    ));
    assert!(matches!(
        say(&mut l, "dziewiętnaście dwadzieścia trzy"),
        Action::Play(_)
    ));
}

#[test]
fn scripted_recognizer_muting_throws_the_utterance_away() {
    let start = Position::start(Variant::International);
    let rec = ScriptedRecognizer::new(vec![
        vec![], // the abandoned utterance's finish()
        vec![Transcript::text("trzydzieści dwa dwadzieścia osiem")],
    ]);
    let mut l = Listener::new(
        Box::new(rec),
        Lexicon::draughts_builtin("pl").unwrap(),
        ConfirmPolicy::Never,
        Mode::Voice(VadConfig::default()),
        start,
    )
    .unwrap();
    let loud: Vec<i16> = (0..FRAME)
        .map(|i| if i % 2 == 0 { 8000 } else { -8000 })
        .collect();
    let quiet = vec![0i16; FRAME];
    let mute = l.mute_switch();
    for _ in 0..10 {
        assert_eq!(l.push_frame(&loud).unwrap(), None);
    }
    // tandem starts speaking: the utterance is dropped, nothing decided.
    mute.mute();
    for _ in 0..50 {
        assert_eq!(l.push_frame(&quiet).unwrap(), None);
    }
    mute.unmute();
    let mut decisions = Vec::new();
    for f in std::iter::repeat(&loud)
        .take(20)
        .chain(std::iter::repeat(&quiet).take(40))
    {
        decisions.extend(l.push_frame(f).unwrap());
    }
    assert_eq!(decisions.len(), 1, "{decisions:?}");
    assert_eq!(decisions[0].action, Action::Play(mv(&start, "32-28")));
}
