//! The languages tandem speaks, as data (docs/languages.md): a language is
//! its files, the phrasebooks of `speech/phrasebooks/` and the words of
//! `assistant/data/FOLDER/LANG.toml` (every one embedded by `build.rs`).
//! A plain word at the bottom floor: `--lang`, a seat's `lang=` and a
//! configuration's `lang` are checked here, and the assistant's words and a
//! language's card are read here.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use tandem_speech::languages::{self as speech_languages, LanguageError};

/// Every embedded file of `assistant/data/`: (folder, language, path, text).
static FILES: &[(&str, &str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/languages.rs"));

/// A language with data, as the command line names it (`--lang nl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lang(&'static str);

impl Lang {
    /// Its tag (`pl`, `nl`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    /// A language with every file and every key (see [`check`]).
    fn from_str(s: &str) -> Result<Lang, String> {
        check(s).map_err(|e| e.to_string())?;
        let tag = speech_languages::known()
            .into_iter()
            .find(|k| *k == s)
            .ok_or_else(|| speech_languages::unknown(s).to_string())?;
        Ok(Lang(tag))
    }
}

/// For clap: `#[arg(value_parser = crate::lang::parse)]`.
///
/// # Errors
/// The language has no data, or its data lacks a file or a key.
pub fn parse(s: &str) -> Result<Lang, String> {
    s.parse()
}

/// The folders of `assistant/data/` (each a file a language).
#[must_use]
pub fn folders() -> Vec<&'static str> {
    let mut v: Vec<&str> = FILES.iter().map(|f| f.0).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The text of `assistant/data/FOLDER/LANG.toml`, once it is known to hold
/// every key of the folder's `en.toml`.
///
/// # Errors
/// The language is unknown, lacks the file or a key, or it is not TOML.
pub fn text(folder: &str, lang: &str) -> Result<&'static str, LanguageError> {
    if !speech_languages::known().contains(&lang) {
        return Err(speech_languages::unknown(lang));
    }
    let path = format!("assistant/data/{folder}/{lang}.toml");
    let file = |l: &str| {
        FILES
            .iter()
            .find(|f| f.0 == folder && f.1 == l)
            .map(|f| f.3)
    };
    let text = file(lang).ok_or_else(|| LanguageError::MissingFile {
        lang: lang.to_owned(),
        path: path.clone(),
    })?;
    speech_languages::check_keys(&path, file(speech_languages::REFERENCE).unwrap_or(""), text)?;
    Ok(text)
}

/// Whether `lang` can be spoken: it has data (a phrasebook), every file of
/// every phrasebook and of every folder of `assistant/data/`, each with
/// every key the English one has, and its card reads.
///
/// # Errors
/// The first thing missing, naming the file (and the key); an unknown
/// language lists the known ones.
pub fn check(lang: &str) -> Result<(), LanguageError> {
    static CHECKED: OnceLock<std::sync::Mutex<BTreeMap<String, Result<(), LanguageError>>>> =
        OnceLock::new();
    let cache = CHECKED.get_or_init(Default::default);
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cache
        .entry(lang.to_owned())
        .or_insert_with(|| {
            speech_languages::check(lang)?;
            for folder in folders() {
                text(folder, lang)?;
            }
            card(lang).map(|_| ())
        })
        .clone()
}

/// The languages with data, in alphabetical order.
#[must_use]
pub fn known() -> Vec<&'static str> {
    speech_languages::known()
}

/// A file of `folder` in `lang` read into `T` and kept for the process;
/// English's for a language without data (only a phrasebook file of one's
/// own, `--phrasebook`, speaks one: the command line, the seats and the
/// configuration refuse the others, see [`check`]); `None` when the file
/// does not read (a known language's files are checked by [`check`]).
pub fn words<T: serde::de::DeserializeOwned + Send + Sync + 'static>(
    cache: &'static Cache<T>,
    folder: &str,
    lang: &str,
) -> Option<&'static T> {
    let key = format!("{folder}/{lang}");
    let cache = cache.get_or_init(Default::default);
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(t) = cache.get(&key) {
        return Some(t);
    }
    // A phrasebook file of the user's own for a language without data
    // (`--phrasebook`): the daemon's words in English.
    let from = if speech_languages::known().contains(&lang) {
        lang
    } else {
        speech_languages::REFERENCE
    };
    let t: T = toml::from_str(text(folder, from).ok()?).ok()?;
    // Kept for the process: one value a language and folder.
    let t: &'static T = Box::leak(Box::new(t));
    cache.insert(key, t);
    Some(t)
}

/// What [`words`] keeps its files in (`FOLDER/LANG` each).
pub type Cache<T> = OnceLock<std::sync::Mutex<BTreeMap<String, &'static T>>>;

/// A folder's file of plain sentences (`key = "text"`) in `lang`, read by
/// [`words`]; empty when it does not read (a known language's files are
/// checked by [`check`] and by the tests).
#[must_use]
pub fn sentences(folder: &str, lang: &str) -> &'static BTreeMap<String, String> {
    static ALL: Cache<BTreeMap<String, String>> = OnceLock::new();
    static NONE: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    words(&ALL, folder, lang).unwrap_or_else(|| NONE.get_or_init(BTreeMap::new))
}

/// A language's card (`assistant/data/language/LANG.toml`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// The language's name in itself.
    pub name: String,
    /// espeak-ng's voice (the phrasebook's `[meta] espeak_voice` too).
    pub espeak_voice: String,
    /// Its braille code.
    pub braille: Braille,
    /// Its Vosk model.
    pub vosk: Vosk,
}

/// A language's braille code.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Braille {
    /// The liblouis table (BRF export, a BRF record read back).
    pub table: String,
    /// Chess's `=` and `+` written in the cells of `(` and `!`.
    pub shared_cells: bool,
}

/// A language's published small Vosk model, pinned.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vosk {
    /// The model's folder (and the archive's name without `.zip`).
    pub model: String,
    /// The archive's size.
    pub bytes: u64,
    /// The archive's SHA-256.
    pub sha256: String,
}

/// The card of `lang`.
///
/// # Errors
/// The language has no card, or it lacks a key.
pub fn card(lang: &str) -> Result<&'static Card, LanguageError> {
    static CARDS: Cache<Card> = OnceLock::new();
    let text = text("language", lang)?;
    let path = format!("assistant/data/language/{lang}.toml");
    toml::from_str::<Card>(text).map_err(|e| LanguageError::Parse {
        path,
        error: e.to_string(),
    })?;
    Ok(words(&CARDS, "language", lang).expect("the card was just read"))
}

/// Why the built-in `what` of `lang` is not there, for `--lang`: the
/// language is unknown (the known ones listed), or a file or a key of it
/// is missing (named); or, with its data whole, `what` does not load.
#[must_use]
pub fn no_builtin(lang: &str, what: &str) -> String {
    match check(lang) {
        Err(e) => format!("--lang {lang:?}: {e} (or give --phrasebook)"),
        Ok(()) => format!("--lang {lang:?}: the built-in {what} do not load"),
    }
}

/// The command that installs the Vosk model of `lang` (an `en-US` tag is
/// read as `en`): `scripts/setup.sh --voice LANG` for a language whose card
/// pins one (`scripts/voice-model.sh` reads the pin from the card), `None`
/// for another (then `tandem play --voice-model FOLDER` with a model
/// unzipped by hand, [`tandem_speech::listen::models::OWN_MODEL_COMMAND`]).
#[must_use]
pub fn install_command(lang: &str) -> Option<String> {
    let base = lang
        .split(['-', '_'])
        .next()
        .unwrap_or(lang)
        .to_ascii_lowercase();
    card(&base)
        .is_ok()
        .then(|| format!("scripts/setup.sh --voice {base}"))
}

/// The liblouis table of `lang`'s braille code (English's for a language
/// without a card).
#[must_use]
pub fn braille_table(lang: &str) -> String {
    card(lang)
        .or_else(|_| card(speech_languages::REFERENCE))
        .map(|c| c.braille.table.clone())
        .unwrap_or_else(|_| "en-ueb-g1.ctb".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_language_has_every_file_and_key() {
        for lang in known() {
            check(lang).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(lang.parse::<Lang>().unwrap().as_str(), lang);
        }
    }

    #[test]
    fn every_folder_has_english_and_polish() {
        let f = folders();
        for folder in [
            "language",
            "messages",
            "page",
            "pairing",
            "squares",
            "voice-status",
        ] {
            assert!(f.contains(&folder), "{f:?}");
        }
        for folder in f {
            for lang in ["en", "pl"] {
                text(folder, lang).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }

    #[test]
    fn an_unknown_language_names_the_known_ones() {
        let e = "xx".parse::<Lang>().unwrap_err();
        assert!(
            e.starts_with("unknown language \"xx\": tandem speaks "),
            "{e}"
        );
        for lang in known() {
            assert!(e.contains(lang), "{e}");
        }
    }

    #[test]
    fn a_file_without_a_key_of_english_names_the_file_and_the_key() {
        let en = text("messages", "en").unwrap();
        let pl = text("messages", "pl").unwrap();
        let without: String = pl
            .lines()
            .filter(|l| !l.starts_with("not_your_move ="))
            .map(|l| format!("{l}\n"))
            .collect();
        let e = speech_languages::check_keys("assistant/data/messages/pl.toml", en, &without)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "assistant/data/messages/pl.toml has no key `not_your_move` (every key of its en.toml must be there)"
        );
    }

    #[test]
    fn only_languages_of_a_pinned_model_are_given_the_setup_command() {
        assert_eq!(
            install_command("pl").as_deref(),
            Some("scripts/setup.sh --voice pl")
        );
        assert_eq!(
            install_command("en-US").as_deref(),
            Some("scripts/setup.sh --voice en")
        );
        assert_eq!(install_command("ko"), None);
        for lang in known() {
            assert_eq!(
                install_command(lang),
                Some(format!("scripts/setup.sh --voice {lang}"))
            );
        }
    }

    #[test]
    fn the_model_a_card_pins_is_the_one_tandem_finds_for_its_language() {
        // What `scripts/setup.sh --voice LANG` unpacks (the card's folder)
        // is what `tandem play --lang LANG` looks for, for every card.
        for (folder, lang, path, text) in FILES {
            if *folder != "language" {
                continue;
            }
            let c: Card = toml::from_str(text).unwrap();
            let t = tempfile::tempdir().unwrap();
            let m = t.path().join(&c.vosk.model);
            std::fs::create_dir_all(m.join("am")).unwrap();
            std::fs::create_dir_all(m.join("conf")).unwrap();
            assert_eq!(
                tandem_speech::listen::models::find_model_in(t.path(), lang),
                Some(m),
                "{path}"
            );
        }
    }

    #[test]
    fn every_card_reads_and_agrees_with_its_phrasebook() {
        // Every card there (also of a language whose phrasebooks are not yet).
        for (folder, lang, path, text) in FILES {
            if *folder != "language" {
                continue;
            }
            let c: Card = toml::from_str(text).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(c.vosk.sha256.len(), 64, "{path}");
            assert!(
                c.vosk.sha256.bytes().all(|b| b.is_ascii_hexdigit()),
                "{path}"
            );
            assert!(c.vosk.model.starts_with("vosk-model-small-"), "{path}");
            let table = std::path::Path::new("/usr/share/liblouis/tables").join(&c.braille.table);
            assert!(table.is_file(), "{path}: {}", table.display());
            if speech_languages::known().contains(lang) {
                assert_eq!(
                    c.espeak_voice,
                    speech_languages::espeak_voice(lang),
                    "{path}"
                );
            }
        }
    }
}
