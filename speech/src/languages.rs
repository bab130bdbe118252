//! The languages tandem speaks: every phrasebook file `build.rs` found in
//! `speech/phrasebooks/` (docs/languages.md). A language is its files: the
//! known languages are those with a draughts phrasebook
//! (`phrasebooks/LANG.toml`), and a file is given out only when it holds
//! every key its English file holds, so a language never says an English
//! word in place of a missing one.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Every embedded phrasebook file: (book, language, path, text).
static FILES: &[(&str, &str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/phrasebooks.rs"));

/// The reference language: every other language's file holds its keys.
pub const REFERENCE: &str = "en";

/// A phrasebook of a language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Book {
    /// `phrasebooks/LANG.toml`: draughts and the table's general words.
    Draughts,
    /// `phrasebooks/chess/LANG.toml`.
    Chess,
    /// `phrasebooks/backgammon/LANG.toml`.
    Backgammon,
    /// `phrasebooks/backgammon/arbiter-LANG.toml`.
    BackgammonArbiter,
}

impl Book {
    /// Every book.
    pub const ALL: [Book; 4] = [
        Book::Draughts,
        Book::Chess,
        Book::Backgammon,
        Book::BackgammonArbiter,
    ];

    /// The book's name in the generated table.
    fn key(self) -> &'static str {
        match self {
            Book::Draughts => "draughts",
            Book::Chess => "chess",
            Book::Backgammon => "backgammon",
            Book::BackgammonArbiter => "backgammon-arbiter",
        }
    }

    /// Where a language's file of this book is (in the source tree).
    #[must_use]
    pub fn path(self, lang: &str) -> String {
        match self {
            Book::Draughts => format!("speech/phrasebooks/{lang}.toml"),
            Book::Chess => format!("speech/phrasebooks/chess/{lang}.toml"),
            Book::Backgammon => format!("speech/phrasebooks/backgammon/{lang}.toml"),
            Book::BackgammonArbiter => {
                format!("speech/phrasebooks/backgammon/arbiter-{lang}.toml")
            }
        }
    }
}

/// Why a language's file cannot be given out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LanguageError {
    /// No data for this language.
    #[error("unknown language {lang:?}: tandem speaks {}", known.join(", "))]
    Unknown {
        /// The language asked for.
        lang: String,
        /// The languages with data.
        known: Vec<String>,
    },
    /// One of the language's files is missing.
    #[error("language {lang:?} has no {path}")]
    MissingFile {
        /// The language.
        lang: String,
        /// The file it lacks.
        path: String,
    },
    /// A key of the English file is missing from the language's.
    #[error("{path} has no key `{key}` (every key of its en.toml must be there)")]
    MissingKey {
        /// The language's file.
        path: String,
        /// The dotted key.
        key: String,
    },
    /// The file is not TOML.
    #[error("{path}: {error}")]
    Parse {
        /// The file.
        path: String,
        /// What is wrong.
        error: String,
    },
}

/// The languages with data (a draughts phrasebook), in alphabetical order.
#[must_use]
pub fn known() -> Vec<&'static str> {
    let mut v: Vec<&str> = FILES
        .iter()
        .filter(|f| f.0 == Book::Draughts.key())
        .map(|f| f.1)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The error for a language without data.
#[must_use]
pub fn unknown(lang: &str) -> LanguageError {
    LanguageError::Unknown {
        lang: lang.to_owned(),
        known: known().into_iter().map(str::to_owned).collect(),
    }
}

/// The embedded file of `book` in `lang`, unchecked.
#[must_use]
pub fn raw(book: Book, lang: &str) -> Option<&'static str> {
    FILES
        .iter()
        .find(|f| f.0 == book.key() && f.1 == lang)
        .map(|f| f.3)
}

/// The text of `book` in `lang`, once it is known to hold every key the
/// English file holds.
///
/// # Errors
/// The language is unknown, lacks the file, a key, or the file is not TOML.
pub fn text(book: Book, lang: &str) -> Result<&'static str, LanguageError> {
    type Checked = Mutex<HashMap<(Book, String), Result<(), LanguageError>>>;
    static CHECKED: OnceLock<Checked> = OnceLock::new();
    if !known().contains(&lang) {
        return Err(unknown(lang));
    }
    let path = book.path(lang);
    let text = raw(book, lang).ok_or_else(|| LanguageError::MissingFile {
        lang: lang.to_owned(),
        path: path.clone(),
    })?;
    let cache = CHECKED.get_or_init(Mutex::default);
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let checked = cache
        .entry((book, lang.to_owned()))
        .or_insert_with(|| {
            let reference = raw(book, REFERENCE).unwrap_or_default();
            check_keys(&path, reference, text)
        })
        .clone();
    checked.map(|()| text)
}

/// Every file of `lang` there and holding every key: the language can be
/// used for any game.
///
/// # Errors
/// The first thing wrong, as [`text`] says it.
pub fn check(lang: &str) -> Result<(), LanguageError> {
    for book in Book::ALL {
        text(book, lang)?;
    }
    Ok(())
}

/// `text` (the file at `path`) holds every key `reference` holds.
///
/// # Errors
/// [`LanguageError::MissingKey`] naming the first key missing (in the
/// reference's order), or [`LanguageError::Parse`].
pub fn check_keys(path: &str, reference: &str, text: &str) -> Result<(), LanguageError> {
    let parse = |path: &str, t: &str| {
        t.parse::<toml::Table>().map_err(|e| LanguageError::Parse {
            path: path.to_owned(),
            error: e.to_string(),
        })
    };
    let reference = parse("its en.toml", reference)?;
    let table = parse(path, text)?;
    match missing_key(&reference, &table, "") {
        Some(key) => Err(LanguageError::MissingKey {
            path: path.to_owned(),
            key,
        }),
        None => Ok(()),
    }
}

/// The first key of `reference` (dotted) that `table` lacks.
fn missing_key(reference: &toml::Table, table: &toml::Table, prefix: &str) -> Option<String> {
    for (k, v) in reference {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match (v, table.get(k)) {
            (_, None) => return Some(key),
            (toml::Value::Table(r), Some(toml::Value::Table(t))) => {
                if let Some(m) = missing_key(r, t, &key) {
                    return Some(m);
                }
            }
            _ => {}
        }
    }
    None
}

/// espeak-ng's voice for `lang`: its phrasebook's `[meta] espeak_voice`
/// (the tag itself for a language without data).
#[must_use]
pub fn espeak_voice(lang: &str) -> String {
    raw(Book::Draughts, lang)
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| {
            t.get("meta")?
                .get("espeak_voice")?
                .as_str()
                .map(str::to_owned)
        })
        .unwrap_or_else(|| lang.to_owned())
}

/// A value made once per language (a parsed phrasebook), kept for the
/// process: `make` runs the first time `lang` is asked.
pub fn once_per_language<T: Clone + Send + 'static>(
    cache: &'static OnceLock<Mutex<HashMap<String, T>>>,
    lang: &str,
    make: impl FnOnce() -> Option<T>,
) -> Option<T> {
    let cache = cache.get_or_init(Mutex::default);
    if let Some(v) = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(lang)
    {
        return Some(v.clone());
    }
    let v = make()?;
    cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(lang.to_owned(), v.clone());
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_languages_are_those_with_a_phrasebook_file() {
        let k = known();
        assert!(k.contains(&"pl") && k.contains(&"en"), "{k:?}");
        for lang in &k {
            let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("phrasebooks")
                .join(format!("{lang}.toml"));
            assert!(p.is_file(), "{}", p.display());
        }
        // Every .toml in the folder is a language.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("phrasebooks");
        let on_disk = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".toml"))
            .count();
        assert_eq!(on_disk, k.len());
    }

    #[test]
    fn every_known_language_has_every_book_with_every_key() {
        for lang in known() {
            check(lang).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn an_unknown_language_is_refused_with_the_known_ones() {
        let e = text(Book::Chess, "xx").unwrap_err().to_string();
        assert!(e.contains("unknown language \"xx\""), "{e}");
        for lang in known() {
            assert!(e.contains(lang), "{e}");
        }
    }

    #[test]
    fn a_missing_key_is_refused_with_the_file_and_the_key() {
        let en = raw(Book::Draughts, "en").unwrap();
        // The Polish file with its clock's `running` sentence taken out.
        let pl = raw(Book::Draughts, "pl").unwrap();
        let mut t: toml::Table = pl.parse().unwrap();
        let clock = t.get_mut("clock").unwrap().as_table_mut().unwrap();
        let (key, _) = clock
            .iter()
            .next()
            .map(|(k, v)| (k.clone(), v.clone()))
            .unwrap();
        clock.remove(&key);
        let e = check_keys("speech/phrasebooks/pl.toml", en, &t.to_string()).unwrap_err();
        assert_eq!(
            e,
            LanguageError::MissingKey {
                path: "speech/phrasebooks/pl.toml".into(),
                key: format!("clock.{key}"),
            }
        );
        assert!(e
            .to_string()
            .contains("speech/phrasebooks/pl.toml has no key `clock."));
        // A whole table missing is named by the table.
        let e = check_keys("x.toml", en, "[meta]\nlanguage = \"xx\"\n").unwrap_err();
        assert!(matches!(e, LanguageError::MissingKey { .. }), "{e}");
        assert!(check_keys("pl.toml", en, pl).is_ok());
    }

    #[test]
    fn cldr_has_the_plural_rules_of_every_language_tandem_speaks() {
        use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
        for (tag, few) in [
            ("pl", true),
            ("en", false),
            ("nl", false),
            ("fr", false),
            ("de", false),
            ("es", false),
            ("ru", true),
            ("uk", true),
        ] {
            let id: unic_langid::LanguageIdentifier = tag.parse().unwrap();
            let r = PluralRules::create(id, PluralRuleType::CARDINAL).unwrap();
            assert_eq!(r.select(1), Ok(PluralCategory::ONE), "{tag}");
            let three = if few {
                PluralCategory::FEW
            } else {
                PluralCategory::OTHER
            };
            assert_eq!(r.select(3), Ok(three), "{tag}");
        }
    }

    #[test]
    fn espeak_voices_come_from_the_phrasebooks() {
        assert_eq!(espeak_voice("pl"), "pl");
        assert_eq!(espeak_voice("xx"), "xx");
    }
}
