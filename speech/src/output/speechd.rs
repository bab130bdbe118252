//! [`SpeechdOutput`]: speech-dispatcher through the `tts` crate (feature
//! `speechd`), so tandem speaks with the voice, rate and output the user
//! already set up for their screen reader.
//!
//! The server is found the way every speech-dispatcher client finds it:
//! `SPEECHD_ADDRESS` (for example `unix_socket:/run/user/1000/speech-dispatcher/speechd.sock`),
//! else the user's default socket, where libspeechd starts the server if needed.
//!
//! The `tts` handle is not `Send`: build this backend on the thread that uses
//! it ([`SpeechWorker::spawn`](super::worker::SpeechWorker::spawn) does).

use std::sync::{Arc, Mutex};

use tts::{Backends, Tts, UtteranceId};

use super::{Caps, SpeechError, SpeechOutput, VoiceParams};
use crate::utterance::Utterance;

/// The speech-dispatcher backend.
pub struct SpeechdOutput {
    tts: Tts,
    /// The utterance being spoken; cleared by the end and stop callbacks.
    current: Arc<Mutex<Option<UtteranceId>>>,
}

impl std::fmt::Debug for SpeechdOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpeechdOutput").finish_non_exhaustive()
    }
}

fn failed(e: &tts::Error) -> SpeechError {
    SpeechError::Failed(e.to_string())
}

fn lock(m: &Mutex<Option<UtteranceId>>) -> std::sync::MutexGuard<'_, Option<UtteranceId>> {
    // A poisoned lock means a callback panicked; the id inside is still meaningful.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl SpeechdOutput {
    /// Connects to speech-dispatcher and applies `params`.
    ///
    /// # Errors
    /// [`SpeechError::Unavailable`] when no server can be reached.
    pub fn new(params: &VoiceParams) -> Result<SpeechdOutput, SpeechError> {
        let tts = Tts::new(Backends::SpeechDispatcher).map_err(|e| {
            SpeechError::Unavailable(format!("cannot connect to speech-dispatcher: {e}"))
        })?;
        let current: Arc<Mutex<Option<UtteranceId>>> = Arc::default();
        for stop in [false, true] {
            let c = Arc::clone(&current);
            let cb: Box<dyn FnMut(UtteranceId)> = Box::new(move |id| {
                let mut cur = lock(&c);
                if *cur == Some(id) {
                    *cur = None;
                }
            });
            let r = if stop {
                tts.on_utterance_stop(Some(cb))
            } else {
                tts.on_utterance_end(Some(cb))
            };
            r.map_err(|e| failed(&e))?;
        }
        let mut out = SpeechdOutput { tts, current };
        out.set_params(params)?;
        Ok(out)
    }

    /// The voices the server offers: (name, language).
    ///
    /// # Errors
    /// [`SpeechError`] when the server cannot list them.
    pub fn voices(&self) -> Result<Vec<(String, String)>, SpeechError> {
        Ok(self
            .tts
            .voices()
            .map_err(|e| failed(&e))?
            .iter()
            .map(|v| (v.name(), v.language().to_string()))
            .collect())
    }
}

impl SpeechOutput for SpeechdOutput {
    fn name(&self) -> &'static str {
        "speechd"
    }

    fn capabilities(&self) -> Caps {
        Caps::ALL
    }

    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError> {
        // Hold the lock across the call so an end callback for this very
        // utterance cannot run before its id is stored.
        let mut cur = lock(&self.current);
        let id = self.tts.speak(u.text(), false).map_err(|e| failed(&e))?;
        *cur = id;
        Ok(())
    }

    fn is_speaking(&mut self) -> bool {
        lock(&self.current).is_some()
    }

    fn cancel(&mut self) -> Result<(), SpeechError> {
        self.tts.stop().map_err(|e| failed(&e))?;
        *lock(&self.current) = None;
        Ok(())
    }

    fn set_params(&mut self, params: &VoiceParams) -> Result<(), SpeechError> {
        let t = &mut self.tts;
        // speech-dispatcher's scales are -100..100 for rate and volume.
        t.set_rate(f32::from(params.rate.clamp(-100, 100)))
            .map_err(|e| failed(&e))?;
        t.set_volume(f32::from(params.volume.min(100)) * 2.0 - 100.0)
            .map_err(|e| failed(&e))?;
        // tts 0.26 has no set_language: pick the named voice, or the first
        // voice of the language.
        let voices = t.voices().map_err(|e| failed(&e))?;
        let wanted = match &params.voice {
            Some(name) => voices.iter().find(|v| &v.name() == name),
            None => voices
                .iter()
                .find(|v| v.language().primary_language() == params.language),
        };
        match (wanted, &params.voice) {
            (Some(v), _) => t.set_voice(v).map_err(|e| failed(&e)),
            (None, Some(name)) => Err(SpeechError::Failed(format!(
                "speech-dispatcher has no voice named {name:?}"
            ))),
            // No voice of that language: keep the server's default rather than refuse to speak.
            (None, None) => Ok(()),
        }
    }
}
