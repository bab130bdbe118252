//! The session's side of voice input, with the listener fed typed
//! transcripts (`Listener::hear`, the listener's scripted path: no model,
//! no microphone; the real recognizer and microphone are in `voice_e2e.rs`):
//! read-back and "tak", what is journaled, stale and out-of-turn utterances,
//! refusals with the rules engine's reason, commands, and the grammar swap
//! the session asks for after every move.

use std::path::PathBuf;
use std::sync::mpsc::Receiver;

use tandem::journal::{Event, Journal, Source};
use tandem::session::{Blind, Cmd, GameSetup, Outputs, Session, SessionHandle, DEFAULT_WARNINGS};
use tandem::voice::{Spoken, VoiceCtl, VoiceInput, VoiceLink};
use tandem_rules::clock::TimeControl;
use tandem_rules::{GameOptions, Position, Variant};
use tandem_speech::listen::audio::{Mode, VadConfig};
use tandem_speech::listen::{ConfirmPolicy, Lexicon, Listener, ScriptedRecognizer, Transcript};
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook, Utterance};
use tokio::sync::{broadcast, mpsc};

struct Table {
    _dir: tempfile::TempDir,
    journal: PathBuf,
    speech: mpsc::UnboundedReceiver<Utterance>,
    handle: SessionHandle,
    voice: Receiver<VoiceCtl>,
    listener: Listener,
    announcer: Announcer,
}

fn start() -> Table {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let (tx, speech) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(256);
    let out = Outputs {
        speech: tx,
        braille: None,
        notices,
    };
    let setup = GameSetup {
        start: tandem::game::AnyPosition::Draughts(Position::start(Variant::International)),
        control: TimeControl::lookup("90m").unwrap(),
        warnings: DEFAULT_WARNINGS.to_vec(),
        white: None,
        black: None,
        event: None,
        blind: Blind::White,
        lang: "pl".into(),
        options: GameOptions::default(),
    };
    let mut s = Session::start(&setup, &journal, out).unwrap();
    let (vtx, voice) = std::sync::mpsc::channel();
    s.set_voice(VoiceLink::new(vtx, false));
    let (handle, _task) = s.spawn();
    let listener = Listener::new(
        Box::new(ScriptedRecognizer::default()),
        Lexicon::polish(),
        ConfirmPolicy::Always,
        Mode::Voice(VadConfig::default()),
        Position::start(Variant::International),
    )
    .unwrap();
    Table {
        _dir: dir,
        journal,
        speech,
        handle,
        voice,
        listener,
        announcer: Announcer::new(Phrasebook::polish(), AnnounceOptions::default()),
    }
}

impl Table {
    /// What the voice thread does with an utterance, then waits until the
    /// session has handled it. Returns what was said meanwhile.
    async fn hear(&mut self, ply: u32, text: &str) -> Vec<String> {
        let d = self.listener.hear(&[Transcript::text(text)]);
        let reply = d.reply(
            self.listener.position(),
            &self.announcer,
            self.listener.lexicon(),
        );
        let s = Spoken {
            ply,
            pos: *self.listener.position(),
            decision: d,
            reply,
        };
        let h = self.handle.clone();
        tokio::task::spawn_blocking(move || h.blocking_voice(VoiceInput::Heard(Box::new(s))))
            .await
            .unwrap()
            .unwrap();
        // The actor takes messages in order: once this is answered, that was handled.
        self.handle
            .request(Cmd::State, Source::Control)
            .await
            .unwrap();
        self.said()
    }

    fn said(&mut self) -> Vec<String> {
        let mut v = Vec::new();
        while let Ok(u) = self.speech.try_recv() {
            v.push(u.text());
        }
        v
    }

    fn events(&self) -> Vec<Event> {
        Journal::read(&self.journal)
            .unwrap()
            .records
            .into_iter()
            .map(|r| r.event)
            .collect()
    }

    fn heard(&self) -> Vec<(String, String, String)> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Heard {
                    kind,
                    text,
                    decision,
                    ..
                } => Some((kind, text, decision)),
                _ => None,
            })
            .collect()
    }

    /// The positions the session sent to the voice thread, latest last.
    fn positions(&self) -> Vec<u32> {
        self.voice
            .try_iter()
            .filter_map(|c| match c {
                VoiceCtl::Position { ply, .. } => Some(ply),
                VoiceCtl::Listen(_) => None,
            })
            .collect()
    }

    async fn ply(&self) -> u32 {
        let r = self
            .handle
            .request(Cmd::State, Source::Control)
            .await
            .unwrap();
        r.state.unwrap().ply
    }
}

fn h(kind: &str, text: &str, decision: &str) -> (String, String, String) {
    (kind.into(), text.into(), decision.into())
}

#[tokio::test]
async fn a_spoken_move_is_read_back_then_played_on_tak_and_journaled() {
    let mut t = start();
    t.said();
    assert_eq!(
        t.positions(),
        [0],
        "the listener hears in the start position"
    );
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
    assert_eq!(
        t.heard(),
        [h("move", "32-28", "read-back"), h("command", "yes", "play")]
    );
    let ev = t.events();
    let heard_at = ev
        .iter()
        .rposition(|e| matches!(e, Event::Heard { .. }))
        .unwrap();
    let move_at = ev
        .iter()
        .position(|e| matches!(e, Event::Move { .. }))
        .unwrap();
    assert!(
        heard_at < move_at,
        "what was heard is on record before the move"
    );
    let Event::Move { source, text, .. } = &ev[move_at] else {
        unreachable!()
    };
    assert_eq!((*source, text.as_str()), (Source::Spoken, "32-28"));
    assert_eq!(t.positions(), [1], "the grammar follows the move");
}

#[tokio::test]
async fn an_utterance_from_a_position_that_has_passed_is_never_played() {
    let mut t = start();
    let _ = t.hear(0, "trzydzieści dwa na dwadzieścia osiem").await;
    // Meanwhile the assistant typed White's move.
    let r = t
        .handle
        .request(Cmd::Move("33-29".into()), Source::Typed)
        .await
        .unwrap();
    assert!(r.ok);
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
    let r = t
        .handle
        .request(Cmd::Move("32-28".into()), Source::Typed)
        .await
        .unwrap();
    assert!(r.ok);
    let pos = Position::from_fen(Variant::International, &r_state_fen(&t).await).unwrap();
    t.listener.set_position(pos).unwrap();
    t.said();
    let said = t.hear(1, "dziewiętnaście dwadzieścia trzy").await;
    assert_eq!(t.heard().last().unwrap().2, "not-your-move");
    assert_eq!(t.ply().await, 1);
    assert_eq!(said.len(), 1, "{said:?}");
}

async fn r_state_fen(t: &Table) -> String {
    let r = t.handle.request(Cmd::State, Source::Control).await.unwrap();
    r.state.unwrap().fen
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

/// Without the `vosk` feature, `--voice-model` is refused with how to rebuild.
#[cfg(not(feature = "vosk"))]
#[test]
fn voice_model_without_the_vosk_feature_says_how_to_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["play", "--headless", "--voice-model"])
        .arg(dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("noconfig"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("built without speech recognition") && err.contains("--features vosk"),
        "{err}"
    );
}
