//! The session's side of chess voice input, with a chess listener fed typed
//! transcripts (`Listener<ChessVoice>::hear` over a scripted recognizer: no
//! model, no microphone; the real ones are in `voice_chess_e2e.rs`): the
//! read-back and "tak", the `heard` journal event in SAN before the move,
//! the which-knight question never played, illegal moves refused with the
//! reason, stale and out-of-turn utterances, and the chess position sent to
//! the voice thread after every move.

mod support;

use tandem::game::{AnyPosition, GameKind};
use tandem::journal::{Event, Source};
use tandem::session::{Blind, Cmd, GameSetup};
use tandem_speech::chess::listen::{ChessVoice, ChessWords};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::listen::audio::{Mode, VadConfig};
use tandem_speech::listen::{ConfirmPolicy, Lexicon, Listener, ScriptedRecognizer};

use support::assert_refuses_draughts_phrasebook;
use support::session::{game_setup, h, voice_table, VoiceTable};

fn start(fen: Option<&str>, blind: Blind) -> VoiceTable<ChessVoice> {
    let setup = GameSetup {
        white: None,
        black: None,
        blind,
        ..game_setup(GameKind::Chess.position(fen).unwrap(), "90m", "pl")
    };
    let pos = match &setup.start {
        AnyPosition::Chess(p) => (**p).clone(),
        AnyPosition::Draughts(_) | AnyPosition::Backgammon(_) => unreachable!(),
    };
    let listener = Listener::for_game(
        Box::new(ScriptedRecognizer::default()),
        ChessWords::new(&ChessPhrasebook::polish(), Lexicon::polish()),
        ConfirmPolicy::Always,
        Mode::Voice(VadConfig::default()),
        pos,
    )
    .unwrap();
    let mut t = voice_table(&setup, listener);
    // "Ruch białych." at the start.
    t.said();
    t
}

#[tokio::test]
async fn a_spoken_chess_move_is_read_back_then_played_on_tak_in_san() {
    let mut t = start(None, Blind::White);
    t.assert_hears_in_the_start_position();
    let said = t.hear(0, "skoczek Feliks trzy").await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("Feliks trzy"), "read back: {said:?}");
    assert_eq!(t.state().await.0, 0, "nothing is played before tak");
    let said = t.hear(0, "tak").await;
    assert_eq!(t.state().await, (1, vec!["Nf3".to_owned()]));
    assert!(
        said.iter().any(|s| s.contains("Feliks trzy")),
        "announced: {said:?}"
    );
    t.assert_played_on_tak("Nf3", "the chess grammar follows the move");
}

#[tokio::test]
async fn which_knight_is_asked_and_nothing_is_played() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 1";
    let mut t = start(Some(fen), Blind::White);
    let said = t.hear(0, "skoczek Dawid dwa").await;
    assert_eq!(said, ["Który skoczek: Bella jeden czy Feliks trzy?"]);
    assert_eq!(t.heard(), [h("ambiguous", "Nbd2 Nfd2", "ask-which")]);
    let said = t.hear(0, "tak").await;
    assert_eq!(said, ["Nie ma nic do potwierdzenia."]);
    assert_eq!(t.state().await.0, 0);
}

#[tokio::test]
async fn an_illegal_spoken_move_is_refused_and_stale_or_foreign_ones_are_not_acted_on() {
    let mut t = start(None, Blind::White);
    let said = t.hear(0, "Ewa dwa Ewa pięć").await;
    assert_eq!(t.heard(), [h("illegal", "e2e5", "refused")]);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(t.events().into_iter().any(|e| matches!(
        e,
        Event::Rejected { source: Source::Spoken, ref input, .. } if input == "e2e5"
    )));
    // A read-back, then the move is typed meanwhile: the "tak" is stale.
    let _ = t.hear(0, "Ewa dwa Ewa cztery").await;
    t.done(Cmd::Move("d4".into()), Source::Typed).await;
    let said = t.hear(0, "tak").await;
    assert_eq!(t.heard().last().unwrap().2, "stale");
    assert!(!said.is_empty());
    assert_eq!(t.state().await, (1, vec!["d4".to_owned()]));
    // Black's move said by the blind White player: not theirs to enter.
    let black =
        tandem_rules::chess::from_fen("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
    t.listener.set_position(black).unwrap();
    let _ = t.hear(1, "Ewa siedem Ewa pięć").await;
    assert_eq!(t.heard().last().unwrap().2, "not-your-move");
    assert_eq!(t.state().await.0, 1);
}

/// `tandem play --variant chess --phrasebook` takes a chess phrasebook: a
/// draughts one is refused with what to give, before the journal is made.
#[test]
fn a_chess_game_refuses_a_draughts_phrasebook_clearly() {
    assert_refuses_draughts_phrasebook("chess", &[]);
}

#[tokio::test]
async fn a_spoken_question_is_answered_and_nothing_is_played() {
    // Issue 23: "skoczki przeciwnika" beside the moves; black is blind here,
    // so the opponent's knights are white's.
    let mut t = start(None, Blind::Black);
    let said = t.hear(0, "skoczki przeciwnika").await;
    assert_eq!(said, ["Białe: skoczki Bella jeden, Gustaw jeden."]);
    let said = t.hear(0, "linia Ewa").await;
    assert_eq!(
        said,
        ["Linia Ewa: czarny król Ewa osiem, czarny pion Ewa siedem, biały pion Ewa dwa, biały król Ewa jeden."]
    );
    assert_eq!(t.state().await.0, 0, "nothing is played");
    assert_eq!(
        t.heard(),
        [
            h("query", "opponent knights", "command"),
            h("query", "file e", "command")
        ]
    );
    // A move is still a move: white's, which black (blind) may not say.
    let said = t.hear(0, "Ewa dwa Ewa cztery").await;
    assert_eq!(said, ["Ruch białych."]);
}
