//! Whether `tandem play` listens, decided once at start, and what it says
//! about it (docs/voice.md).
//!
//! Voice input is on by default: with `--voice auto` (the default) tandem
//! takes `--voice-model DIR` if given, else the installed model of the
//! game's language ([`tandem_speech::listen::models::find_model`]); it
//! checks that libvosk loads and that the microphone opens. At start it says
//! (spoken, on the screen and in the journal) that voice input is on, or
//! why it is not and the one command that fixes it:
//!
//! - no libvosk: `scripts/setup.sh`;
//! - no model for this language: `scripts/setup.sh --voice pl` (or `en`:
//!   the languages whose model the script installs by itself, its size and
//!   SHA-256 pinned); for another language, `tandem play --voice-model
//!   FOLDER` with a model unzipped by hand;
//! - no microphone: connect one; `tandem voice check` tests it.
//!
//! `--voice off` (or `voice = "off"` in the config file) turns it off. The
//! sentences are data: `assistant/data/voice-status/LANG.toml`.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use serde::Deserialize;
use tandem_speech::listen::models;

use crate::voice::{ConfirmChoice, VoiceConfig};

/// `--voice`: listen when a model is there (the default), or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VoiceSwitch {
    /// Listen when libvosk, a model for the language and a microphone are there.
    #[default]
    Auto,
    /// Never listen.
    Off,
}

/// What the flags and the config file say about voice input.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VoiceRequest {
    /// `--voice`.
    pub switch: VoiceSwitch,
    /// `--voice-model DIR` (else the model found for the language).
    pub model: Option<PathBuf>,
    /// A phrasebook file (words listened for and said).
    pub phrasebook: Option<PathBuf>,
    /// The confirmation policy.
    pub confirm: ConfirmChoice,
    /// Listen only between two `listen` commands.
    pub push_to_talk: bool,
    /// The input device's name.
    pub mic: Option<String>,
}

impl VoiceRequest {
    fn config(&self, model: PathBuf) -> VoiceConfig {
        VoiceConfig {
            model,
            phrasebook: self.phrasebook.clone(),
            confirm: self.confirm,
            push_to_talk: self.push_to_talk,
            mic: self.mic.clone(),
        }
    }
}

/// Whether tandem listens, and if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceStatus {
    /// It listens with this model.
    On(PathBuf),
    /// `--voice off`.
    Off,
    /// libvosk is not installed or does not load (why).
    NoLibrary(String),
    /// No model for this language in these folders.
    NoModel {
        /// The language.
        lang: String,
        /// The folders searched.
        searched: Vec<PathBuf>,
    },
    /// The microphone does not open (why).
    NoMicrophone(String),
}

#[derive(Debug, Clone, Deserialize)]
struct Sentences {
    on: String,
    off: String,
    no_library: String,
    no_model: String,
    no_model_other: String,
    no_microphone: String,
    level_ok: String,
    level_silent: String,
    level_loud: String,
    say_a_move: String,
    understood: String,
    not_understood: String,
    nothing_heard: String,
    language: String,
}

/// The sentences of `lang` (`assistant/data/voice-status/LANG.toml`,
/// read by [`crate::lang::words`]).
fn sentences(lang: &str) -> Sentences {
    static ALL: crate::lang::Cache<Sentences> = OnceLock::new();
    crate::lang::words(&ALL, "voice-status", lang)
        .expect("assistant/data/voice-status is checked by its tests")
        .clone()
}

/// `model`'s language named in a sentence of `lang`: the file's own
/// `language` when they are the same, else the model language's own name
/// (its card's).
fn language_name(b: &Sentences, lang: &str, model: &str) -> String {
    if lang == model {
        return b.language.clone();
    }
    crate::lang::card(model).map_or_else(|_| model.to_owned(), |c| c.name.clone())
}

/// A sentence of `tandem voice check` in `lang`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckSentence {
    /// The microphone's level is fine.
    LevelOk,
    /// It hears nothing.
    LevelSilent,
    /// It clips.
    LevelLoud,
    /// "Say a move."
    SayAMove,
    /// "Not understood."
    NotUnderstood,
    /// "Nothing was heard."
    NothingHeard,
}

/// `tandem voice check`'s sentences: the prompt, and what was understood.
#[must_use]
pub fn check_text(lang: &str, s: CheckSentence) -> String {
    let b = sentences(lang);
    match s {
        CheckSentence::LevelOk => b.level_ok,
        CheckSentence::LevelSilent => b.level_silent,
        CheckSentence::LevelLoud => b.level_loud,
        CheckSentence::SayAMove => b.say_a_move,
        CheckSentence::NotUnderstood => b.not_understood,
        CheckSentence::NothingHeard => b.nothing_heard,
    }
}

/// "Understood: 32-28."
#[must_use]
pub fn understood_text(lang: &str, what: &str) -> String {
    sentences(lang).understood.replace("{move}", what)
}

impl VoiceStatus {
    /// Whether tandem listens.
    #[must_use]
    pub fn is_on(&self) -> bool {
        matches!(self, VoiceStatus::On(_))
    }

    /// The one command that fixes it, if any.
    #[must_use]
    pub fn fix(&self) -> Option<String> {
        match self {
            VoiceStatus::On(_) | VoiceStatus::Off => None,
            VoiceStatus::NoLibrary(_) => Some(tandem_speech::listen::vosk::INSTALL_HINT.into()),
            VoiceStatus::NoModel { lang, .. } => Some(
                crate::lang::install_command(lang)
                    .unwrap_or_else(|| models::OWN_MODEL_COMMAND.to_owned()),
            ),
            VoiceStatus::NoMicrophone(_) => Some("tandem voice check".into()),
        }
    }

    /// What tandem says at start, in `lang`.
    #[must_use]
    pub fn text(&self, lang: &str) -> String {
        let b = sentences(lang);
        let command = self.fix().unwrap_or_default();
        let t = match self {
            VoiceStatus::On(_) => b.on,
            VoiceStatus::Off => b.off,
            VoiceStatus::NoLibrary(_) => b.no_library,
            VoiceStatus::NoModel { lang: l, .. } => {
                let name = language_name(&b, lang, l);
                let t = if crate::lang::install_command(l).is_some() {
                    b.no_model
                } else {
                    b.no_model_other
                };
                t.replace("{language}", &name)
            }
            VoiceStatus::NoMicrophone(e) => b.no_microphone.replace("{error}", e),
        };
        t.replace("{command}", &command)
    }

    /// The details for the terminal (stderr): the model, or the whole reason.
    #[must_use]
    pub fn detail(&self) -> String {
        match self {
            VoiceStatus::On(m) => format!("voice input on (model {})", m.display()),
            VoiceStatus::Off => "voice input off (--voice off)".into(),
            VoiceStatus::NoLibrary(e) => format!("voice input off: {e}"),
            VoiceStatus::NoModel { lang, searched } => format!(
                "voice input off: no Vosk model for {lang:?} in {} (a folder named like {}); {}",
                searched
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
                crate::lang::card(lang).map_or_else(
                    |_| format!("vosk-model-small-{lang}-VERSION"),
                    |c| c.vosk.model.clone()
                ),
                crate::lang::install_command(lang).map_or_else(
                    || format!(
                        "unzip one from https://alphacephei.com/vosk/models into the first, \
                         or start with {}",
                        models::OWN_MODEL_COMMAND
                    ),
                    |c| format!("install one with {c}")
                )
            ),
            VoiceStatus::NoMicrophone(e) => format!(
                "voice input off: the microphone does not open ({e}); connect one, or name \
                 one with --mic (arecord -L lists them); `tandem voice check` tests it"
            ),
        }
    }
}

/// How long the microphone may take to open at start.
const MIC_PROBE: Duration = Duration::from_secs(5);

/// Opens the microphone once and closes it: `Err` with why it does not
/// open. A device that takes longer than [`MIC_PROBE`] to answer is left to
/// the voice thread (which retries and says when it is lost).
///
/// # Errors
/// The device does not open.
pub fn probe_microphone(name: Option<&str>) -> Result<(), String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let name = name.map(str::to_owned);
    let spawned = std::thread::Builder::new()
        .name("tandem-mic-probe".into())
        .spawn(move || {
            let r = tandem_speech::listen::mic::Microphone::open(name.as_deref())
                .map(drop)
                .map_err(|e| e.to_string());
            let _ = tx.send(r);
        });
    if spawned.is_err() {
        return Ok(());
    }
    rx.recv_timeout(MIC_PROBE).unwrap_or(Ok(()))
}

/// Decides whether the game listens: the voice settings to start the
/// voice thread with (`None`: it does not listen) and what to say.
/// `lang` is the game's language; `probe` opens the microphone
/// ([`probe_microphone`]).
#[must_use]
pub fn decide(
    req: &VoiceRequest,
    lang: &str,
    probe: impl FnOnce(Option<&str>) -> Result<(), String>,
) -> (Option<VoiceConfig>, VoiceStatus) {
    if req.switch == VoiceSwitch::Off {
        return (None, VoiceStatus::Off);
    }
    if let Err(e) = tandem_speech::listen::vosk::library() {
        return (None, VoiceStatus::NoLibrary(e.to_string()));
    }
    let model = match &req.model {
        Some(m) => m.clone(),
        None => match models::find_model(lang) {
            Ok(m) => m,
            Err(searched) => {
                return (
                    None,
                    VoiceStatus::NoModel {
                        lang: lang.to_owned(),
                        searched,
                    },
                )
            }
        },
    };
    if let Err(e) = probe(req.mic.as_deref()) {
        return (None, VoiceStatus::NoMicrophone(e));
    }
    (Some(req.config(model.clone())), VoiceStatus::On(model))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sentence_names_its_fix_in_both_languages() {
        let statuses = [
            VoiceStatus::NoLibrary("x".into()),
            VoiceStatus::NoModel {
                lang: "pl".into(),
                searched: vec![],
            },
            VoiceStatus::NoMicrophone("no input device".into()),
        ];
        for lang in ["pl", "en", "ko"] {
            for s in &statuses {
                let t = s.text(lang);
                assert!(t.contains(&s.fix().unwrap()), "{lang}: {t}");
                assert!(!t.contains('{'), "{lang}: {t}");
            }
            assert!(!VoiceStatus::On("m".into()).text(lang).contains('{'));
            assert!(!VoiceStatus::Off.text(lang).is_empty());
            for c in [
                CheckSentence::LevelOk,
                CheckSentence::LevelSilent,
                CheckSentence::LevelLoud,
                CheckSentence::SayAMove,
                CheckSentence::NotUnderstood,
                CheckSentence::NothingHeard,
            ] {
                assert!(!check_text(lang, c).is_empty());
            }
            assert!(understood_text(lang, "32-28").contains("32-28"));
        }
        let pl = VoiceStatus::NoModel {
            lang: "pl".into(),
            searched: vec![],
        };
        assert_eq!(
            pl.text("pl"),
            "Sterowanie głosem nie działa: brak modelu mowy dla języka polskiego. \
             Zainstaluje go polecenie scripts/setup.sh --voice pl."
        );
        // Another language's model by its own name (its card's).
        assert!(pl.text("en").contains("no speech model for polski"));
        // A language of no pinned model is not sent to the setup script,
        // which would refuse it.
        let ko = VoiceStatus::NoModel {
            lang: "ko".into(),
            searched: vec![],
        };
        assert_eq!(
            ko.fix().as_deref(),
            Some("tandem play --voice-model FOLDER")
        );
        for lang in ["pl", "en"] {
            let t = ko.text(lang);
            assert!(t.contains("tandem play --voice-model FOLDER"), "{t}");
            assert!(!t.contains("setup.sh"), "{t}");
        }
        assert!(!ko.detail().contains("setup.sh"), "{}", ko.detail());
        assert!(pl
            .detail()
            .ends_with("install one with scripts/setup.sh --voice pl"));
    }

    #[test]
    fn voice_off_is_off_before_anything_is_looked_for() {
        let req = VoiceRequest {
            switch: VoiceSwitch::Off,
            model: Some("/nonexistent".into()),
            ..VoiceRequest::default()
        };
        let (cfg, status) = decide(&req, "pl", |_| panic!("no microphone is opened"));
        assert_eq!((cfg, status), (None, VoiceStatus::Off));
    }
}
