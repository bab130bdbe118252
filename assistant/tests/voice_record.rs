//! The record's spoken commands (issue 15) through the listeners of both
//! games, fed typed transcripts (`Listener::hear` over a scripted
//! recognizer: no model, no microphone): "zapis", "zapis od N", "ruch N",
//! "wstecz", "dalej", "pozycja" in review, "wróć do gry"; journaled as
//! `heard` commands and answered as the typed ones are.

mod support;

use tandem::game::{AnyPosition, GameKind};
use tandem::journal::Source;
use tandem::session::{Cmd, GameSetup};
use tandem::voice::VoiceGame;
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::chess::listen::{ChessVoice, ChessWords};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::listen::audio::{Mode, VadConfig};
use tandem_speech::listen::{ConfirmPolicy, Lexicon, Listener, ScriptedRecognizer};

use support::session::{draughts_listener, game_setup, voice_table, VoiceTable};

/// Plays `moves` through the control socket's path.
async fn play<G: VoiceGame>(t: &mut VoiceTable<G>, moves: &[&str]) {
    for m in moves {
        let r = t
            .handle
            .request(Cmd::Move((*m).into()), Source::Control)
            .await
            .unwrap();
        assert!(r.ok, "{m}: {r:?}");
    }
}

fn setup(start: AnyPosition) -> GameSetup {
    GameSetup {
        white: None,
        black: None,
        ..game_setup(start, "90m", "pl")
    }
}

#[tokio::test]
async fn draughts_record_commands_are_heard_and_answered() {
    let start = Position::start(Variant::International);
    let listener = draughts_listener(start);
    let mut t = voice_table(&setup(AnyPosition::Draughts(start)), listener);
    let moves = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"];
    play(&mut t, &moves).await;
    let pos = Position::from_fen(Variant::International, &t.fen().await).unwrap();
    t.listener.set_position(pos).unwrap();
    t.said();

    let said = t.hear(6, "zapis").await;
    t.assert_last_heard_command("record");
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(
        said[0].starts_with("Ruch jeden. Białe: trzydzieści dwa"),
        "{said:?}"
    );

    let said = t.hear(6, "zapis od dwa").await;
    t.assert_last_heard_command("record-from 2");
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[0].starts_with("Ruch dwa. Białe: "), "{said:?}");

    let said = t.hear(6, "ruch dwa").await;
    assert!(said[0].starts_with("Ruch dwa. Białe: "), "{said:?}");
    let said = t.hear(6, "wstecz").await;
    assert!(said[0].starts_with("Ruch dwa. Białe: "), "{said:?}");
    let said = t.hear(6, "pozycja").await;
    assert_eq!(said[0], "Pozycja po ruchu dwa białych.");
    let said = t.hear(6, "dalej").await;
    assert!(said[0].starts_with("Ruch dwa. Czarne: "), "{said:?}");
    let said = t.hear(6, "wróć do gry").await;
    assert_eq!(said, ["Powrót do gry."]);
}

#[tokio::test]
async fn chess_record_commands_are_heard_and_answered() {
    let start = GameKind::Chess.position(None).unwrap();
    let AnyPosition::Chess(p) = &start else {
        unreachable!()
    };
    let listener: Listener<ChessVoice> = Listener::for_game(
        Box::new(ScriptedRecognizer::default()),
        ChessWords::new(&ChessPhrasebook::polish(), Lexicon::polish()),
        ConfirmPolicy::Always,
        Mode::Voice(VadConfig::default()),
        (**p).clone(),
    )
    .unwrap();
    let mut t = voice_table(&setup(start.clone()), listener);
    play(&mut t, &["e4", "e5", "Nf3"]).await;
    let mut g = tandem_rules::chess::ChessGame::new();
    for m in ["e4", "e5", "Nf3"] {
        g.play_text(m).unwrap();
    }
    t.listener.set_position(g.position().clone()).unwrap();
    t.said();

    let said = t.hear(3, "ruch dwa").await;
    t.assert_last_heard_command("move-number 2");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("Ruch dwa. Białe: "), "{said:?}");
    let said = t.hear(3, "zapis").await;
    assert_eq!(said.len(), 2, "{said:?}");
    let said = t.hear(3, "wstecz").await;
    assert!(said[0].starts_with("Ruch jeden. Czarne: "), "{said:?}");
}
