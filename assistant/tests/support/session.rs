//! In-process session fixtures: a [`Session`] on a private journal with its
//! speech caught in a channel ([`fixture`], [`game_setup`], [`drain`]), and
//! a [`VoiceTable`]: a running session with voice input whose utterances
//! come from a listener of either game fed typed transcripts
//! (`Listener::hear` over a scripted recognizer: no model, no microphone),
//! exactly as the voice thread sends them.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;

use tandem::game::AnyPosition;
use tandem::journal::{Event, Journal, Source};
use tandem::session::{
    Blind, Cmd, GameSetup, Outputs, Reply, Session, SessionHandle, DEFAULT_WARNINGS,
};
use tandem::voice::{Spoken, VoiceCtl, VoiceGame, VoiceLink};
use tandem_rules::clock::TimeControl;
use tandem_rules::GameOptions;
use tandem_speech::listen::{Listener, Transcript};
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook, Utterance};
use tokio::sync::{broadcast, mpsc};

/// A private journal and the session's outputs, speech caught in a channel.
pub struct Fixture {
    _dir: tempfile::TempDir,
    /// The journal file (not made yet).
    pub journal: PathBuf,
    /// What the session says.
    pub speech: mpsc::UnboundedReceiver<Utterance>,
    /// The outputs to give the session.
    pub out: Outputs,
}

/// A new [`Fixture`] in a temporary folder.
pub fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let (tx, speech) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(256);
    Fixture {
        _dir: dir,
        journal,
        speech,
        out: Outputs::new(tx, None, notices),
    }
}

impl Fixture {
    /// A new game on this journal.
    pub fn start(&self, setup: &GameSetup) -> Session {
        Session::start(setup, &self.journal, self.out.clone()).unwrap()
    }

    /// The game resumed from this journal.
    pub fn resume(&self) -> Session {
        Session::resume(&self.journal, self.out.clone()).unwrap()
    }
}

/// A game from `start` with time control `control`, Alice (white, the blind
/// player) against Bob, announced in `lang`.
pub fn game_setup(start: AnyPosition, control: &str, lang: &str) -> GameSetup {
    GameSetup {
        start,
        control: TimeControl::lookup(control).unwrap(),
        warnings: DEFAULT_WARNINGS.to_vec(),
        white: Some("Alice".into()),
        black: Some("Bob".into()),
        event: None,
        round: None,
        blind: Blind::White,
        lang: lang.into(),
        options: GameOptions::default(),
    }
}

/// A listener of international draughts from `start` with the built-in
/// Polish words over a scripted recognizer, every move read back
/// (`ConfirmPolicy::Always`), in voice mode.
pub fn draughts_listener(
    start: tandem_rules::draughts::Position,
) -> Listener<tandem_speech::draughts::listen::Draughts> {
    use tandem_speech::draughts::listen::DraughtsWords;
    use tandem_speech::listen::audio::{Mode, VadConfig};
    use tandem_speech::listen::{ConfirmPolicy, Lexicon, ScriptedRecognizer};
    Listener::new(
        Box::new(ScriptedRecognizer::default()),
        Lexicon::draughts_builtin("pl").unwrap(),
        ConfirmPolicy::Always,
        Mode::Voice(VadConfig::default()),
        start,
    )
    .unwrap()
}

/// The texts said so far, taken out of the channel.
pub fn drain(rx: &mut mpsc::UnboundedReceiver<Utterance>) -> Vec<String> {
    let mut v = Vec::new();
    while let Ok(u) = rx.try_recv() {
        v.push(u.text());
    }
    v
}

/// A journal's events.
pub fn events(journal: &Path) -> Vec<Event> {
    Journal::read(journal)
        .unwrap()
        .records
        .into_iter()
        .map(|r| r.event)
        .collect()
}

/// A `heard` event's (`kind`, `text`, `decision`).
pub fn h(kind: &str, text: &str, decision: &str) -> (String, String, String) {
    (kind.into(), text.into(), decision.into())
}

/// A running session with voice input in game `G`, and the listener whose
/// decisions it is sent.
pub struct VoiceTable<G: VoiceGame> {
    f: Fixture,
    /// The session.
    pub handle: SessionHandle,
    voice: Receiver<VoiceCtl>,
    /// The listener (its position is the test's to set).
    pub listener: Listener<G>,
    announcer: Announcer,
}

/// Starts `setup` with voice input (not push-to-talk), heard by `listener`
/// and answered in the Polish phrasebook's words.
pub fn voice_table<G: VoiceGame>(setup: &GameSetup, listener: Listener<G>) -> VoiceTable<G> {
    let f = fixture();
    let mut s = f.start(setup);
    let (vtx, voice) = std::sync::mpsc::channel();
    s.set_voice(VoiceLink::new(vtx, false));
    let (handle, _task) = s.spawn();
    VoiceTable {
        f,
        handle,
        voice,
        listener,
        announcer: Announcer::new(Phrasebook::polish(), AnnounceOptions::default()),
    }
}

impl<G: VoiceGame> VoiceTable<G> {
    /// What the voice thread does with an utterance heard at `ply`, then
    /// waits until the session has handled it. Returns what was said meanwhile.
    pub async fn hear(&mut self, ply: u32, text: &str) -> Vec<String> {
        let decision = self.listener.hear(&[Transcript::text(text)]);
        let reply = G::reply(&decision, &self.listener, &self.announcer);
        let input = G::input(Spoken {
            ply,
            pos: self.listener.position().clone(),
            decision,
            reply,
        });
        let h = self.handle.clone();
        tokio::task::spawn_blocking(move || h.blocking_voice(input))
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

    /// `cmd` from `source`, which the session does (`ok`).
    pub async fn done(&self, cmd: Cmd, source: Source) -> Reply {
        let asked = format!("{cmd:?}");
        let r = self.handle.request(cmd, source).await.unwrap();
        assert!(r.ok, "{asked}: {r:?}");
        r
    }

    /// What was said since the last look.
    pub fn said(&mut self) -> Vec<String> {
        drain(&mut self.f.speech)
    }

    /// The journal's events.
    pub fn events(&self) -> Vec<Event> {
        events(&self.f.journal)
    }

    /// The journal's `heard` events: (`kind`, `text`, `decision`).
    pub fn heard(&self) -> Vec<(String, String, String)> {
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

    /// The journal's first move is `text`, spoken, and what was heard last
    /// is on record before it (001 ch. VIII 3.2).
    pub fn assert_spoken_move_after_heard(&self, text: &str) {
        let ev = self.events();
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
        let Event::Move {
            source, text: t, ..
        } = &ev[move_at]
        else {
            unreachable!()
        };
        assert_eq!((*source, t.as_str()), (Source::Spoken, text));
    }

    /// What was heard last is the command `text`, answered.
    pub fn assert_last_heard_command(&self, text: &str) {
        assert_eq!(self.heard().last().unwrap(), &h("command", text, "command"));
    }

    /// The only position sent to the listener so far is the start.
    pub fn assert_hears_in_the_start_position(&self) {
        assert_eq!(
            self.positions(),
            [0],
            "the listener hears in the start position"
        );
    }

    /// What was heard is `text` read back, then "tak" that played it (on
    /// record before the move), and the one position then sent to the
    /// listener is the next ply's (`why`).
    pub fn assert_played_on_tak(&self, text: &str, why: &str) {
        assert_eq!(
            self.heard(),
            [h("move", text, "read-back"), h("command", "yes", "play")]
        );
        self.assert_spoken_move_after_heard(text);
        assert_eq!(self.positions(), [1], "{why}");
    }

    /// The plies of the positions the session sent to the voice thread
    /// since the last look, latest last; every one is of this game.
    pub fn positions(&self) -> Vec<u32> {
        self.voice
            .try_iter()
            .filter_map(|c| match c {
                VoiceCtl::Position { ply, pos } => {
                    assert!(
                        G::listened_position(pos.clone()).is_some(),
                        "a position of another game sent to the voice thread: {pos:?}"
                    );
                    Some(ply)
                }
                VoiceCtl::Listen(_) => None,
            })
            .collect()
    }

    /// The game's plies and moves.
    pub async fn state(&self) -> (u32, Vec<String>) {
        let r = self
            .handle
            .request(Cmd::State, Source::Control)
            .await
            .unwrap();
        let st = r.state.unwrap();
        (st.ply, st.moves)
    }

    /// The plies played.
    pub async fn ply(&self) -> u32 {
        self.state().await.0
    }

    /// The position's FEN.
    pub async fn fen(&self) -> String {
        let r = self
            .handle
            .request(Cmd::State, Source::Control)
            .await
            .unwrap();
        r.state.unwrap().fen
    }
}
