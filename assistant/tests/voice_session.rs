//! The session's side of voice input, with the listener fed typed
//! transcripts (`Listener::hear`, the listener's scripted path: no model,
//! no microphone; the real recognizer and microphone are in `voice_e2e.rs`):
//! read-back and "tak", what is journaled, stale and out-of-turn utterances,
//! refusals with the rules engine's reason, commands, and the grammar swap
//! the session asks for after every move.

mod support;

use tandem::game::AnyPosition;
use tandem::journal::{Event, Source};
use tandem::session::{Cmd, GameSetup};
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::Draughts;

use support::session::{draughts_listener, game_setup, h, voice_table, VoiceTable};

fn start() -> VoiceTable<Draughts> {
    let start = Position::start(Variant::International);
    let setup = GameSetup {
        white: None,
        black: None,
        ..game_setup(AnyPosition::Draughts(start), "90m", "pl")
    };
    voice_table(&setup, draughts_listener(start))
}

#[tokio::test]
async fn a_spoken_move_is_read_back_then_played_on_tak_and_journaled() {
    let mut t = start();
    t.said();
    t.assert_hears_in_the_start_position();
    let said = t.hear(0, "trzydzieści dwa na dwadzieścia osiem").await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].to_lowercase().contains("trzydzieści dwa"),
        "{said:?}"
    );
    assert_eq!(t.ply().await, 0, "nothing is played before tak");
    let said = t.hear(0, "tak").await;
    assert_eq!(t.ply().await, 1);
    assert!(
        said[0].contains("dwadzieścia osiem"),
        "announced as typed: {said:?}"
    );
    t.assert_played_on_tak("32-28", "the grammar follows the move");
}

#[tokio::test]
async fn an_utterance_from_a_position_that_has_passed_is_never_played() {
    let mut t = start();
    let _ = t.hear(0, "trzydzieści dwa na dwadzieścia osiem").await;
    // Meanwhile the assistant typed White's move.
    t.done(Cmd::Move("33-29".into()), Source::Typed).await;
    t.said();
    // The listener had not heard of it yet: its "tak" plays the old read-back.
    let said = t.hear(0, "tak").await;
    assert_eq!(t.ply().await, 1, "not played");
    assert_eq!(t.heard().last().unwrap().2, "stale");
    assert!(!said.is_empty(), "asked to say it again: {said:?}");
}

#[tokio::test]
async fn the_blind_player_does_not_enter_the_opponents_moves_by_voice() {
    let mut t = start();
    t.done(Cmd::Move("32-28".into()), Source::Typed).await;
    let pos = Position::from_fen(Variant::International, &t.fen().await).unwrap();
    t.listener.set_position(pos).unwrap();
    t.said();
    let said = t.hear(1, "dziewiętnaście dwadzieścia trzy").await;
    assert_eq!(t.heard().last().unwrap().2, "not-your-move");
    assert_eq!(t.ply().await, 1);
    assert_eq!(said.len(), 1, "{said:?}");
}

#[tokio::test]
async fn an_illegal_spoken_move_is_refused_with_the_reason_and_commands_are_answered() {
    let mut t = start();
    t.said();
    let said = t.hear(0, "trzydzieści dwa dwadzieścia sześć").await;
    assert_eq!(t.heard(), [h("illegal", "32-26", "refused")]);
    assert_eq!(said.len(), 1, "{said:?}");
    let rejected = t.events().into_iter().any(|e| {
        matches!(e, Event::Rejected { source: Source::Spoken, ref input, .. } if input == "32-26")
    });
    assert!(rejected, "refused on record as a typed move would be");

    let said = t.hear(0, "zegar").await;
    assert_eq!(t.heard().last().unwrap(), &h("command", "clock", "command"));
    assert!(!said.is_empty());
    let again = t.hear(0, "powtórz").await;
    assert_eq!(again, said, "repeat says the last message again");
    let said = t.hear(0, "tak").await;
    assert_eq!(said, ["Nie ma nic do potwierdzenia."]);
    assert_eq!(t.ply().await, 0);
}
