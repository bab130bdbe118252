//! The voice thread's listener, whatever the game: [`GameListener`] over a
//! game's `Listener<G>` (its [`VoiceGame`]), made by the registry
//! ([`AnyPosition::listener`]) with [`listener`], and the game's own words
//! from `--phrasebook` ([`GameWords`]).

use std::sync::Arc;
use std::time::Instant;

use tandem_speech::listen::audio::{Mode, MuteSwitch};
use tandem_speech::listen::{ConfirmPolicy, ListenError, Listener, Recognizer};
use tandem_speech::{AnnounceOptions, Announcer};

use super::{Spoken, VoiceGame, VoiceInput, VoiceSetup};
use crate::kind::AnyPosition;

/// A game's own listening words (from `--phrasebook`: a chess game's
/// `ChessWords`, a backgammon game's `BgWords`), handed to its
/// [`VoiceGame::words`], which knows their type.
#[derive(Clone)]
pub struct GameWords(pub Arc<dyn std::any::Any + Send + Sync>);

impl std::fmt::Debug for GameWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GameWords")
    }
}

impl GameWords {
    /// Wraps a game's words.
    #[must_use]
    pub fn new<T: std::any::Any + Send + Sync>(words: T) -> GameWords {
        GameWords(Arc::new(words))
    }

    /// The words, if they are a `T`.
    #[must_use]
    pub fn get<T: std::any::Any>(&self) -> Option<&T> {
        self.0.downcast_ref::<T>()
    }
}

/// A game's listener as the voice thread drives it, whatever the game
/// (made by the registry, [`AnyPosition::listener`], with [`listener`]).
pub trait GameListener {
    /// The words the model does not know.
    fn missing_words(&self) -> &[String];
    /// The switch muting it while tandem speaks.
    fn mute_switch(&self) -> MuteSwitch;
    /// A new position: swaps the grammar (refused for another game's).
    ///
    /// # Errors
    /// Another game's position, or the recognizer refuses the grammar.
    fn set_position(&mut self, pos: AnyPosition) -> Result<(), String>;
    /// One frame of audio; a finished utterance comes back as the
    /// session's message, heard at `ply`.
    ///
    /// # Errors
    /// The recognizer fails.
    fn push_frame(&mut self, frame: &[i16], ply: u32) -> Result<Option<VoiceInput>, ListenError>;
}

struct Listening<G: VoiceGame> {
    listener: Listener<G>,
    announcer: Announcer,
}

impl<G: VoiceGame> GameListener for Listening<G> {
    fn missing_words(&self) -> &[String] {
        self.listener.missing_words()
    }

    fn mute_switch(&self) -> MuteSwitch {
        self.listener.mute_switch()
    }

    fn set_position(&mut self, pos: AnyPosition) -> Result<(), String> {
        match G::listened_position(pos) {
            Some(pos) => self.listener.set_position(pos).map_err(|e| e.to_string()),
            None => Err("a position of another game".to_owned()),
        }
    }

    fn push_frame(&mut self, frame: &[i16], ply: u32) -> Result<Option<VoiceInput>, ListenError> {
        let t = Instant::now();
        let Some(decision) = self.listener.push_frame(frame)? else {
            return Ok(None);
        };
        // The frame that ends an utterance carries the recognizer's final
        // decode and the grammar match: logged, for the latency benchmark
        // (benches/voice_latency.rs).
        let recognized = t.elapsed();
        let reply = G::reply(&decision, &self.listener, &self.announcer);
        tracing::info!(
            "voice: heard {:?} -> {:?} (recognized in {} µs)",
            G::transcript(&decision.heard),
            decision.action,
            recognized.as_micros()
        );
        Ok(Some(G::input(Spoken {
            ply,
            pos: self.listener.position().clone(),
            decision,
            reply,
        })))
    }
}

/// The listener of game `G` in `pos` with the words of `setup`, for the
/// voice thread (the registry calls it for the game at the table).
///
/// # Errors
/// The recognizer refuses the grammar.
pub fn listener<G: VoiceGame + 'static>(
    rec: Box<dyn Recognizer>,
    setup: &VoiceSetup,
    policy: ConfirmPolicy,
    mode: Mode,
    pos: G::Position,
) -> Result<Box<dyn GameListener>, ListenError> {
    let words = G::words(&setup.book, setup.words.as_ref());
    let listener = Listener::<G>::for_game(rec, words, policy, mode, pos)?;
    Ok(Box::new(Listening {
        listener,
        announcer: Announcer::new(setup.book.clone(), AnnounceOptions::default()),
    }))
}
