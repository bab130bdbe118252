//! The Vosk recognizer over libvosk (feature `vosk`).
//!
//! The model is loaded once and the recognizer created once; each new
//! position only swaps the grammar (`vosk_recognizer_set_grm`, which the
//! `vosk` crate 0.3.1 does not wrap, hence this thin layer over `vosk-sys`).
//! Creating a recognizer costs 0.12-0.16 s, a swap a few milliseconds.

use std::ffi::{c_char, c_int, CStr, CString};
use std::path::Path;
use std::ptr::NonNull;

use vosk_sys::{VoskModel, VoskRecognizer as RawRecognizer};

use super::{ListenError, Recognizer, Transcript, SAMPLE_RATE};

extern "C" {
    // libvosk 0.3.45 exports it (vosk_api.h: "Reconfigures recognizer to use
    // grammar"); vosk-sys 0.2 lacks the declaration.
    fn vosk_recognizer_set_grm(recognizer: *mut RawRecognizer, grammar: *const c_char);
}

/// A loaded Vosk model.
#[derive(Debug)]
struct Model(NonNull<VoskModel>);

// SAFETY: a VoskModel is immutable after loading and reference-counted by
// libvosk; its API is documented thread-safe for concurrent recognizers.
unsafe impl Send for Model {}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: the pointer came from vosk_model_new and is freed once.
        unsafe { vosk_sys::vosk_model_free(self.0.as_ptr()) }
    }
}

/// Vosk with a grammar of phrases, 16 kHz mono input, word confidences on.
#[derive(Debug)]
pub struct VoskRecognizer {
    model: Model,
    rec: NonNull<RawRecognizer>,
}

// SAFETY: the recognizer is used from one thread at a time (`&mut self`);
// libvosk recognizers are not tied to the thread that created them.
unsafe impl Send for VoskRecognizer {}

impl Drop for VoskRecognizer {
    fn drop(&mut self) {
        // SAFETY: created by vosk_recognizer_new_grm, freed once, before the
        // model (field order does not matter: libvosk reference-counts it).
        unsafe { vosk_sys::vosk_recognizer_free(self.rec.as_ptr()) }
    }
}

fn grammar_json(phrases: &[String]) -> Result<CString, ListenError> {
    let mut v: Vec<&str> = phrases.iter().map(String::as_str).collect();
    if !v.contains(&"[unk]") {
        v.push("[unk]");
    }
    let json = serde_json::to_string(&v).map_err(|e| ListenError::Recognizer(e.to_string()))?;
    CString::new(json)
        .map_err(|_| ListenError::Recognizer("a grammar phrase contains a NUL byte".to_owned()))
}

/// Silences Kaldi's log lines on stderr (`level` -1), or sets their level.
pub fn set_log_level(level: i32) {
    // SAFETY: sets a global integer in libvosk.
    unsafe { vosk_sys::vosk_set_log_level(level as c_int) }
}

impl VoskRecognizer {
    /// Loads the model in `dir` (the folder with `am/`, `graph/`, `conf/`)
    /// and creates the recognizer with an initial grammar.
    ///
    /// # Errors
    /// The folder is not a Vosk model, or the grammar is rejected.
    pub fn new(dir: &Path, phrases: &[String]) -> Result<VoskRecognizer, ListenError> {
        if !dir.join("am").is_dir() || !dir.join("conf").is_dir() {
            return Err(ListenError::Model(format!(
                "{} is not a Vosk model folder (it needs am/ and conf/)",
                dir.display()
            )));
        }
        let cpath = CString::new(dir.as_os_str().as_encoded_bytes())
            .map_err(|_| ListenError::Model("model path contains a NUL byte".to_owned()))?;
        // SAFETY: cpath is a valid C string for the duration of the call.
        let model =
            NonNull::new(unsafe { vosk_sys::vosk_model_new(cpath.as_ptr()) }).ok_or_else(|| {
                ListenError::Model(format!("libvosk could not load {}", dir.display()))
            })?;
        let model = Model(model);
        let g = grammar_json(phrases)?;
        // SAFETY: model is live; g is a valid C string; libvosk copies it.
        let rec = NonNull::new(unsafe {
            vosk_sys::vosk_recognizer_new_grm(model.0.as_ptr(), SAMPLE_RATE as f32, g.as_ptr())
        })
        .ok_or_else(|| {
            ListenError::Recognizer("libvosk could not create a recognizer".to_owned())
        })?;
        // SAFETY: rec is live.
        unsafe { vosk_sys::vosk_recognizer_set_words(rec.as_ptr(), 1) };
        Ok(VoskRecognizer { model, rec })
    }

    fn find_word(&self, w: &str) -> bool {
        let Ok(c) = CString::new(w) else { return false };
        // SAFETY: model is live; c is a valid C string.
        unsafe { vosk_sys::vosk_model_find_word(self.model.0.as_ptr(), c.as_ptr()) >= 0 }
    }
}

/// `{"result": [{"conf": .., "word": ..}], "text": ".."}`
#[derive(serde::Deserialize)]
struct FinalResult {
    #[serde(default)]
    result: Vec<WordResult>,
    #[serde(default)]
    text: String,
}

#[derive(serde::Deserialize)]
struct WordResult {
    conf: f32,
}

impl Recognizer for VoskRecognizer {
    fn set_grammar(&mut self, phrases: &[String]) -> Result<(), ListenError> {
        let g = grammar_json(phrases)?;
        // SAFETY: rec is live; libvosk copies the grammar.
        unsafe {
            vosk_recognizer_set_grm(self.rec.as_ptr(), g.as_ptr());
            vosk_sys::vosk_recognizer_set_words(self.rec.as_ptr(), 1);
        }
        Ok(())
    }

    fn accept(&mut self, samples: &[i16]) -> Result<(), ListenError> {
        for chunk in samples.chunks(i32::MAX as usize / 2) {
            // SAFETY: rec is live; the pointer and length describe `chunk`.
            let r = unsafe {
                vosk_sys::vosk_recognizer_accept_waveform_s(
                    self.rec.as_ptr(),
                    chunk.as_ptr(),
                    chunk.len() as c_int,
                )
            };
            if r < 0 {
                return Err(ListenError::Recognizer(
                    "libvosk rejected the audio".to_owned(),
                ));
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Vec<Transcript>, ListenError> {
        // SAFETY: rec is live; the returned string is owned by the recognizer
        // and valid until the next call on it, so it is copied at once.
        let json =
            unsafe { CStr::from_ptr(vosk_sys::vosk_recognizer_final_result(self.rec.as_ptr())) }
                .to_string_lossy()
                .into_owned();
        // SAFETY: rec is live.
        unsafe { vosk_sys::vosk_recognizer_reset(self.rec.as_ptr()) };
        let r: FinalResult = serde_json::from_str(&json)
            .map_err(|e| ListenError::Recognizer(format!("unreadable result {json:?}: {e}")))?;
        if r.text.trim().is_empty() {
            return Ok(Vec::new());
        }
        let confidence = if r.result.is_empty() {
            0.0
        } else {
            r.result.iter().map(|w| w.conf).sum::<f32>() / r.result.len() as f32
        };
        Ok(vec![Transcript {
            text: r.text,
            confidence,
        }])
    }

    fn finish_early(&mut self) -> Result<Option<Vec<Transcript>>, ListenError> {
        // Vosk's final result is exact once the words are in (its partial
        // result lags them by about 480 ms with the Korean model): the
        // listener feeds the audio again if the utterance goes on, which
        // costs about 20 ms of decoding per second of audio.
        self.finish().map(Some)
    }

    fn missing_words(&mut self, words: &[String]) -> Vec<String> {
        words
            .iter()
            .filter(|w| w.as_str() != "[unk]" && !self.find_word(w))
            .cloned()
            .collect()
    }
}
