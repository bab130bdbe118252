//! How to say it: the [`SpeechOutput`] trait and its backends.
//!
//! - [`speechd::SpeechdOutput`] (feature `speechd`): speech-dispatcher through
//!   the `tts` crate, the voice the user already set up for their screen reader;
//! - [`espeak::EspeakOutput`]: the `espeak-ng` program, where speech-dispatcher
//!   is missing; [`espeak::synthesize_wav`] writes speech to a WAV file;
//! - [`text::TextOutput`]: plain text to any writer (stdout, a log);
//! - [`recording::RecordingSpeech`]: a fake that records what it was asked to
//!   say, with a simulated speaking time, for unit tests.
//!
//! Backends are synchronous and not necessarily `Send` (the `tts` crate's
//! handle is not): the daemon runs each on its own thread through
//! [`worker::SpeechWorker`], which builds the backend on that thread, keeps
//! the queue in priority order and interrupts for [`Priority::Now`]. A slow
//! synthesizer therefore never delays the clock or the game.
//!
//! [`Priority::Now`]: crate::Priority::Now

pub mod channel;
pub mod espeak;
pub mod recording;
#[cfg(feature = "speechd")]
pub mod speechd;
pub mod text;
pub mod worker;

use std::fmt;

use crate::utterance::Utterance;

/// What a backend can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Caps {
    /// It can stop speaking at once.
    pub interrupt: bool,
    /// It reports when it has finished speaking (otherwise `is_speaking` is always false).
    pub end_of_speech: bool,
    /// Rate, volume and voice can be set.
    pub rate: bool,
    /// Volume can be set.
    pub volume: bool,
    /// A voice can be chosen.
    pub voice: bool,
}

impl Caps {
    /// Everything: interrupt, end of speech, rate, volume and voice.
    pub const ALL: Caps = Caps {
        interrupt: true,
        end_of_speech: true,
        rate: true,
        volume: true,
        voice: true,
    };
}

/// Rate, volume, voice and language, on backend-neutral scales.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoiceParams {
    /// Speaking rate from -100 (slowest) through 0 (the backend's normal) to 100 (fastest).
    pub rate: i8,
    /// Volume from 0 (silent) to 100 (full).
    pub volume: u8,
    /// A voice by the backend's name for it (`None`: the language's default voice).
    pub voice: Option<String>,
    /// The language (BCP 47, `pl`, `en`) when no voice is named.
    pub language: String,
}

impl Default for VoiceParams {
    fn default() -> VoiceParams {
        VoiceParams {
            rate: 0,
            volume: 100,
            voice: None,
            language: "pl".to_owned(),
        }
    }
}

impl VoiceParams {
    /// Default parameters for a language.
    #[must_use]
    pub fn for_language(language: &str) -> VoiceParams {
        VoiceParams {
            language: language.to_owned(),
            ..VoiceParams::default()
        }
    }

    /// The rate as espeak-ng words per minute: -100 is 80, 0 is 175, 100 is 450.
    ///
    /// ```
    /// use tandem_speech::output::VoiceParams;
    /// let mut p = VoiceParams::default();
    /// assert_eq!(p.espeak_wpm(), 175);
    /// p.rate = 100;
    /// assert_eq!(p.espeak_wpm(), 450);
    /// p.rate = -100;
    /// assert_eq!(p.espeak_wpm(), 80);
    /// ```
    #[must_use]
    pub fn espeak_wpm(&self) -> u32 {
        let r = i32::from(self.rate.clamp(-100, 100));
        let wpm = if r >= 0 {
            175 + r * 275 / 100
        } else {
            175 + r * 95 / 100
        };
        wpm.unsigned_abs()
    }
}

/// Why speech failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpeechError {
    /// The synthesizer is not installed or not running.
    Unavailable(String),
    /// The synthesizer refused or failed an operation.
    Failed(String),
    /// The backend cannot do this (see [`Caps`]).
    Unsupported(&'static str),
    /// The speech thread has stopped.
    Stopped,
}

impl fmt::Display for SpeechError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpeechError::Unavailable(s) => write!(f, "speech unavailable: {s}"),
            SpeechError::Failed(s) => write!(f, "speech failed: {s}"),
            SpeechError::Unsupported(s) => write!(f, "speech backend cannot {s}"),
            SpeechError::Stopped => write!(f, "the speech thread has stopped"),
        }
    }
}

impl std::error::Error for SpeechError {}

/// A speech backend. Synchronous; see the [module docs](self) for threading.
///
/// The protocol: [`speak`](SpeechOutput::speak) starts one utterance and
/// returns without waiting for its end; [`is_speaking`](SpeechOutput::is_speaking)
/// says whether it is still being spoken; [`cancel`](SpeechOutput::cancel)
/// stops it at once. The queue and the priorities live in
/// [`worker::SpeechWorker`], so every backend behaves the same way.
pub trait SpeechOutput {
    /// A short name for logs ("speechd", "espeak-ng", "text").
    fn name(&self) -> &'static str;
    /// What it can do.
    fn capabilities(&self) -> Caps;
    /// Starts speaking `u`.
    ///
    /// # Errors
    /// [`SpeechError`] when the synthesizer fails.
    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError>;
    /// Whether the last utterance is still being spoken.
    fn is_speaking(&mut self) -> bool;
    /// Stops speaking at once.
    ///
    /// # Errors
    /// [`SpeechError`] when the synthesizer fails.
    fn cancel(&mut self) -> Result<(), SpeechError>;
    /// Sets rate, volume and voice.
    ///
    /// # Errors
    /// [`SpeechError`] when the synthesizer refuses them.
    fn set_params(&mut self, params: &VoiceParams) -> Result<(), SpeechError>;
}

impl<T: SpeechOutput + ?Sized> SpeechOutput for Box<T> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn capabilities(&self) -> Caps {
        (**self).capabilities()
    }
    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError> {
        (**self).speak(u)
    }
    fn is_speaking(&mut self) -> bool {
        (**self).is_speaking()
    }
    fn cancel(&mut self) -> Result<(), SpeechError> {
        (**self).cancel()
    }
    fn set_params(&mut self, params: &VoiceParams) -> Result<(), SpeechError> {
        (**self).set_params(params)
    }
}
