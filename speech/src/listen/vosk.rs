//! The Vosk recognizer over libvosk, loaded at run time.
//!
//! libvosk is not linked into tandem: [`library`] opens `libvosk.so` the
//! first time voice input needs it, from
//!
//! 1. `$VOSK_LIB_DIR`,
//! 2. the setup script's folder, `$TANDEM_HOME/vosk/vosk`
//!    (`/opt/tandem/vosk/vosk` by default),
//! 3. the system's loader paths (`LD_LIBRARY_PATH`, `ld.so.cache`, `/usr/lib`),
//!
//! and resolves the eleven `vosk_*` functions tandem calls into typed
//! function pointers ([`VoskLib`]). So tandem builds on a machine without
//! libvosk, and a tandem that runs where it is missing does everything but
//! listen, and says why ([`ListenError::Library`]). See docs/voice.md for
//! why this and not an rpath.
//!
//! The model is loaded once and the recognizer created once; each new
//! position only swaps the grammar (`vosk_recognizer_set_grm`). Creating a
//! recognizer costs 0.12-0.16 s, a swap a few milliseconds.

use std::ffi::{c_char, c_int, CStr, CString};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::OnceLock;

use super::models::tandem_home;
use super::{ListenError, Recognizer, Transcript, SAMPLE_RATE};

/// The file name of the library.
pub const LIB_NAME: &str = "libvosk.so";

/// libvosk's `VoskModel` (opaque).
#[repr(C)]
struct RawModel {
    _private: [u8; 0],
}

/// libvosk's `VoskRecognizer` (opaque).
#[repr(C)]
struct RawRecognizer {
    _private: [u8; 0],
}

/// The `vosk_*` functions tandem calls (vosk_api.h of libvosk 0.3.45),
/// resolved from one loaded libvosk. Only [`library`] makes one, and it
/// lives for the rest of the process, so the function pointers stay valid.
pub struct VoskLib {
    path: PathBuf,
    model_new: unsafe extern "C" fn(*const c_char) -> *mut RawModel,
    model_free: unsafe extern "C" fn(*mut RawModel),
    model_find_word: unsafe extern "C" fn(*mut RawModel, *const c_char) -> c_int,
    recognizer_new_grm:
        unsafe extern "C" fn(*mut RawModel, f32, *const c_char) -> *mut RawRecognizer,
    recognizer_set_grm: unsafe extern "C" fn(*mut RawRecognizer, *const c_char),
    recognizer_set_words: unsafe extern "C" fn(*mut RawRecognizer, c_int),
    recognizer_accept_waveform_s:
        unsafe extern "C" fn(*mut RawRecognizer, *const i16, c_int) -> c_int,
    recognizer_final_result: unsafe extern "C" fn(*mut RawRecognizer) -> *const c_char,
    recognizer_reset: unsafe extern "C" fn(*mut RawRecognizer),
    recognizer_free: unsafe extern "C" fn(*mut RawRecognizer),
    set_log_level: unsafe extern "C" fn(c_int),
    /// Kept open for the function pointers above.
    _lib: libloading::Library,
}

impl std::fmt::Debug for VoskLib {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VoskLib")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl VoskLib {
    /// Where the library was loaded from (`libvosk.so` alone: found by the
    /// system's loader).
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn open(path: &Path) -> Result<VoskLib, libloading::Error> {
        // SAFETY: loading libvosk runs its initializers (Kaldi's and
        // OpenFst's static constructors), which have no preconditions.
        let lib = unsafe { libloading::Library::new(path) }?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the type is the function's in vosk_api.h; the
                // pointer is used only while `_lib` is open (for ever: see
                // `library`).
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }?
            };
        }
        Ok(VoskLib {
            path: path.to_owned(),
            model_new: sym!("vosk_model_new"),
            model_free: sym!("vosk_model_free"),
            model_find_word: sym!("vosk_model_find_word"),
            recognizer_new_grm: sym!("vosk_recognizer_new_grm"),
            recognizer_set_grm: sym!("vosk_recognizer_set_grm"),
            recognizer_set_words: sym!("vosk_recognizer_set_words"),
            recognizer_accept_waveform_s: sym!("vosk_recognizer_accept_waveform_s"),
            recognizer_final_result: sym!("vosk_recognizer_final_result"),
            recognizer_reset: sym!("vosk_recognizer_reset"),
            recognizer_free: sym!("vosk_recognizer_free"),
            set_log_level: sym!("vosk_set_log_level"),
            _lib: lib,
        })
    }
}

/// The folders searched for `libvosk.so` before the system's loader paths:
/// `$VOSK_LIB_DIR` (when set), then `$TANDEM_HOME/vosk/vosk`.
#[must_use]
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("VOSK_LIB_DIR").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(tandem_home().join("vosk").join("vosk"));
    dirs
}

/// The one command that installs libvosk.
pub const INSTALL_HINT: &str = "scripts/setup.sh";

fn load() -> Result<VoskLib, String> {
    let dirs = search_dirs();
    for dir in &dirs {
        let path = dir.join(LIB_NAME);
        if path.is_file() {
            // Found but unusable (another architecture, a truncated file, a
            // version without these functions): said as it is, not skipped.
            return VoskLib::open(&path).map_err(|e| {
                format!(
                    "{} could not be loaded ({e}); run {INSTALL_HINT} to install a working copy",
                    path.display()
                )
            });
        }
    }
    VoskLib::open(Path::new(LIB_NAME)).map_err(|_| {
        let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        format!(
            "libvosk (the speech recognition library) is not installed: no {LIB_NAME} in {} \
             or the system's library path; run {INSTALL_HINT} to install it",
            looked.join(", ")
        )
    })
}

/// libvosk, loaded on first use and kept for the life of the process.
///
/// # Errors
/// [`ListenError::Library`]: it is not installed (the message names the
/// folders searched and the command that installs it), or it cannot be loaded.
pub fn library() -> Result<&'static VoskLib, ListenError> {
    static LIB: OnceLock<Result<VoskLib, String>> = OnceLock::new();
    LIB.get_or_init(load)
        .as_ref()
        .map_err(|e| ListenError::Library(e.clone()))
}

/// A loaded Vosk model.
#[derive(Debug)]
struct Model {
    lib: &'static VoskLib,
    ptr: NonNull<RawModel>,
}

// SAFETY: a VoskModel is immutable after loading and reference-counted by
// libvosk; its API is documented thread-safe for concurrent recognizers.
unsafe impl Send for Model {}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: the pointer came from vosk_model_new and is freed once.
        unsafe { (self.lib.model_free)(self.ptr.as_ptr()) }
    }
}

/// Vosk with a grammar of phrases, 16 kHz mono input, word confidences on.
#[derive(Debug)]
pub struct VoskRecognizer {
    lib: &'static VoskLib,
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
        unsafe { (self.lib.recognizer_free)(self.rec.as_ptr()) }
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
/// Does nothing when libvosk is not installed.
pub fn set_log_level(level: i32) {
    if let Ok(lib) = library() {
        // SAFETY: sets a global integer in libvosk.
        unsafe { (lib.set_log_level)(level as c_int) }
    }
}

impl VoskRecognizer {
    /// Loads the model in `dir` (the folder with `am/`, `graph/`, `conf/`)
    /// and creates the recognizer with an initial grammar.
    ///
    /// # Errors
    /// libvosk is not installed ([`ListenError::Library`]), the folder is not
    /// a Vosk model, or the grammar is rejected.
    pub fn new(dir: &Path, phrases: &[String]) -> Result<VoskRecognizer, ListenError> {
        if !dir.join("am").is_dir() || !dir.join("conf").is_dir() {
            return Err(ListenError::Model(format!(
                "{} is not a Vosk model folder (it needs am/ and conf/)",
                dir.display()
            )));
        }
        let lib = library()?;
        let cpath = CString::new(dir.as_os_str().as_encoded_bytes())
            .map_err(|_| ListenError::Model("model path contains a NUL byte".to_owned()))?;
        // SAFETY: cpath is a valid C string for the duration of the call.
        let ptr = NonNull::new(unsafe { (lib.model_new)(cpath.as_ptr()) }).ok_or_else(|| {
            ListenError::Model(format!("libvosk could not load {}", dir.display()))
        })?;
        let model = Model { lib, ptr };
        let g = grammar_json(phrases)?;
        // SAFETY: model is live; g is a valid C string; libvosk copies it.
        let rec = NonNull::new(unsafe {
            (lib.recognizer_new_grm)(model.ptr.as_ptr(), SAMPLE_RATE as f32, g.as_ptr())
        })
        .ok_or_else(|| {
            ListenError::Recognizer("libvosk could not create a recognizer".to_owned())
        })?;
        // SAFETY: rec is live.
        unsafe { (lib.recognizer_set_words)(rec.as_ptr(), 1) };
        Ok(VoskRecognizer { lib, model, rec })
    }

    fn find_word(&self, w: &str) -> bool {
        let Ok(c) = CString::new(w) else { return false };
        // SAFETY: model is live; c is a valid C string.
        unsafe { (self.lib.model_find_word)(self.model.ptr.as_ptr(), c.as_ptr()) >= 0 }
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
            (self.lib.recognizer_set_grm)(self.rec.as_ptr(), g.as_ptr());
            (self.lib.recognizer_set_words)(self.rec.as_ptr(), 1);
        }
        Ok(())
    }

    fn accept(&mut self, samples: &[i16]) -> Result<(), ListenError> {
        for chunk in samples.chunks(i32::MAX as usize / 2) {
            // SAFETY: rec is live; the pointer and length describe `chunk`.
            let r = unsafe {
                (self.lib.recognizer_accept_waveform_s)(
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
        let json = unsafe { CStr::from_ptr((self.lib.recognizer_final_result)(self.rec.as_ptr())) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: rec is live.
        unsafe { (self.lib.recognizer_reset)(self.rec.as_ptr()) };
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
