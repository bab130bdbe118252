//! Speech input: the blind player moves and asks by voice. This is the
//! engine every game shares and it names no game; each game's grammar and
//! understanding of its moves live in its folder (its `listen` module),
//! behind [`ListenGame`].
//!
//! - [`lexicon`]: the words per language (numbers, file words, phrasings,
//!   commands, typical mis-hearings), from the speech
//!   [`Phrasebook`](crate::Phrasebook); a game says its squares with them.
//! - [`grammar`]: the machinery of the games' grammars: phrases and their
//!   meanings, the commands every game listens for ([`CommandGrammar`]:
//!   clock, position, repeat, yes, no, resign, help, "square N", the record
//!   …), ranking a transcript against phrases with a weighted edit distance
//!   ([`matcher`]). Pure; table-tested through the games' grammars.
//! - [`Recognizer`]: n-best transcripts with confidences from audio. Backends:
//!   [`vosk::VoskRecognizer`] (libvosk, loaded at run time) and [`ScriptedRecognizer`]
//!   (a fake for unit tests of code that consumes transcripts).
//! - [`audio`]: energy-based endpointing, muting while tandem speaks,
//!   push-to-talk; [`mic`]: cpal capture at 16 kHz mono.
//! - [`models`]: where the model of a language is found by itself.
//!
//! - [`Listener`]: what the daemon holds: the recognizer, the position's
//!   grammar (swapped on every new position), muting, and the confirmation
//!   flow; each utterance becomes a [`Decision`] with an [`Action`].
//!
//! The recognizer's transcript is never played as such: a Vosk grammar only
//! limits the vocabulary, and the decoder may return other word sequences.
//!
//! # For the daemon
//!
//! ```text
//! start-up:   rec = VoskRecognizer::new(model_dir, &[])            (model_dir: models::find_model(lang))
//!             words = the game's words (draughts: Lexicon::draughts(&phrasebook), the same book the Announcer uses)
//!             listener = Listener::<G>::for_game(Box::new(rec), words, policy, Mode::Voice(VadConfig::default()), pos)
//!             report listener.missing_words() if not empty
//!             give listener.mute_switch() to the speech output: mute() before speaking, unmute() after
//! audio:      mic = Microphone::open_default(); for each frame: listener.push_frame(&frame)
//! decision:   Action::Play(m)            -> decide/journal/apply m as a typed move, then announce it
//!             Action::Command(c, n)      -> answer it (clock: Announcer::on_clock, ...; n: the number said after it)
//!             otherwise                  -> speak the game's decision.reply(...)
//! new position (any move, undo, resume): listener.set_position(pos)
//! ```
//!
//! The cpal stream must stay on the thread that opened it; the recognizer
//! is `Send`. Run the microphone and the listener on one thread and send the
//! decisions to the session actor.

pub mod audio;
// Test fixtures: only with `testing` (they use tandem-testkit).
#[cfg(feature = "testing")]
pub mod fixture;
pub mod grammar;
pub mod lexicon;
pub mod listener;
pub mod matcher;
pub mod mic;
pub mod models;
pub mod vosk;
pub mod words;

use std::fmt;

pub use grammar::{CommandGrammar, CommandHeard, ConfirmPolicy};
pub use lexicon::{command_words, CommandKind, Lexicon};
pub use listener::{command_phrase, Action, Decision, ListenGame, Listener, Understood};

/// The sample rate every recognizer takes: 16 kHz, mono, signed 16 bit.
pub const SAMPLE_RATE: u32 = 16_000;

/// One recognition hypothesis.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// The words as recognized.
    pub text: String,
    /// 0..1 (the mean of the recognizer's word confidences).
    pub confidence: f32,
}

impl Transcript {
    /// A typed transcript: certain.
    #[must_use]
    pub fn text(text: &str) -> Transcript {
        Transcript {
            text: text.to_owned(),
            confidence: 1.0,
        }
    }
}

/// Why speech input failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ListenError {
    /// The model folder could not be loaded.
    Model(String),
    /// The recognizer rejected its grammar or the audio.
    Recognizer(String),
    /// Audio could not be read or captured.
    Audio(String),
    /// libvosk is not installed or cannot be loaded (the message says how
    /// to install it).
    Library(String),
}

impl fmt::Display for ListenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListenError::Model(m) => write!(f, "speech model: {m}"),
            ListenError::Recognizer(m) => write!(f, "speech recognizer: {m}"),
            ListenError::Audio(m) => write!(f, "audio input: {m}"),
            ListenError::Library(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for ListenError {}

/// A speech recognizer fed 16 kHz mono audio, one utterance at a time.
pub trait Recognizer: Send {
    /// Restricts recognition to these phrases (plus `[unk]`), keeping the
    /// loaded model and the recognizer.
    ///
    /// # Errors
    /// The recognizer rejects the grammar.
    fn set_grammar(&mut self, phrases: &[String]) -> Result<(), ListenError>;

    /// Feeds audio of the current utterance.
    ///
    /// # Errors
    /// The recognizer fails on the audio.
    fn accept(&mut self, samples: &[i16]) -> Result<(), ListenError>;

    /// Ends the utterance: the n-best transcripts, best first, and resets
    /// for the next utterance.
    ///
    /// # Errors
    /// The recognizer's result cannot be read.
    fn finish(&mut self) -> Result<Vec<Transcript>, ListenError>;

    /// The final result of the audio fed so far, before the utterance is
    /// known to be over: exactly what [`Recognizer::finish`] would return
    /// now, and the recognizer is reset the same way. The listener asks once
    /// the speaker has been quiet for a moment ([`VadConfig::end_frames_complete`]):
    /// if the words are a whole phrase of the grammar it ends the utterance
    /// at once, otherwise it feeds the utterance's audio again from its
    /// start and goes on listening. `None` when the recognizer cannot tell
    /// before the end (the default): the listener waits out the full silence.
    ///
    /// # Errors
    /// The recognizer's result cannot be read.
    ///
    /// [`VadConfig::end_frames_complete`]: audio::VadConfig::end_frames_complete
    fn finish_early(&mut self) -> Result<Option<Vec<Transcript>>, ListenError> {
        Ok(None)
    }

    /// Which of these words the model does not know (they would be dropped
    /// from a grammar with only a warning).
    fn missing_words(&mut self, words: &[String]) -> Vec<String>;
}

/// A fake recognizer that returns prepared transcripts in turn, whatever the
/// audio: for testing code that consumes transcripts. It is not a substitute
/// for the Vosk tests.
#[derive(Debug, Default)]
pub struct ScriptedRecognizer {
    script: std::collections::VecDeque<Vec<Transcript>>,
    /// The last grammar set.
    pub grammar: Vec<String>,
    /// Samples fed since the last `finish`.
    pub samples: usize,
    /// Whether [`Recognizer::finish_early`] answers (once audio was fed).
    /// Each answer, early or not, takes the next entry of the script: a
    /// trial end that is not a whole phrase takes one, and the end of the
    /// utterance the next.
    pub early: bool,
}

impl ScriptedRecognizer {
    /// A recognizer that answers these utterances in order.
    #[must_use]
    pub fn new(script: Vec<Vec<Transcript>>) -> ScriptedRecognizer {
        ScriptedRecognizer {
            script: script.into(),
            ..ScriptedRecognizer::default()
        }
    }
}

impl Recognizer for ScriptedRecognizer {
    fn set_grammar(&mut self, phrases: &[String]) -> Result<(), ListenError> {
        self.grammar = phrases.to_vec();
        Ok(())
    }

    fn accept(&mut self, samples: &[i16]) -> Result<(), ListenError> {
        self.samples += samples.len();
        Ok(())
    }

    fn finish(&mut self) -> Result<Vec<Transcript>, ListenError> {
        self.samples = 0;
        Ok(self.script.pop_front().unwrap_or_default())
    }

    fn finish_early(&mut self) -> Result<Option<Vec<Transcript>>, ListenError> {
        if !self.early || self.samples == 0 {
            return Ok(None);
        }
        self.finish().map(Some)
    }

    fn missing_words(&mut self, _words: &[String]) -> Vec<String> {
        Vec::new()
    }
}

/// Reads a WAV file as 16 kHz mono i16 (other rates and stereo are
/// converted: channels averaged, rate changed by linear interpolation, which
/// is enough for files; live capture uses a proper resampler).
///
/// # Errors
/// The file cannot be read or is not PCM WAV.
pub fn read_wav_16k(path: &std::path::Path) -> Result<Vec<i16>, ListenError> {
    let mut r = hound::WavReader::open(path)
        .map_err(|e| ListenError::Audio(format!("{}: {e}", path.display())))?;
    let spec = r.spec();
    let bad = |e: hound::Error| ListenError::Audio(format!("{}: {e}", path.display()));
    let mono: Vec<f32> = match spec.sample_format {
        hound::SampleFormat::Int => {
            let scale = f32::from(1u16 << (spec.bits_per_sample.clamp(1, 16) - 1));
            let shift = u32::from(spec.bits_per_sample.saturating_sub(16));
            let all: Vec<i32> = r.samples::<i32>().collect::<Result<_, _>>().map_err(bad)?;
            let all: Vec<f32> = all.iter().map(|&s| (s >> shift) as f32 / scale).collect();
            audio::downmix(&all, usize::from(spec.channels))
        }
        hound::SampleFormat::Float => {
            let all: Vec<f32> = r.samples::<f32>().collect::<Result<_, _>>().map_err(bad)?;
            audio::downmix(&all, usize::from(spec.channels))
        }
    };
    Ok(audio::to_i16(&audio::resample_linear(
        &mono,
        spec.sample_rate,
        SAMPLE_RATE,
    )))
}
