//! The words of the tournament director's tools for backgammon
//! (`tandem arbiter reconcile|diff --variant backgammon`): what to change on
//! a board, and why an entry of a record cannot be played. Data in
//! `phrasebooks/backgammon/arbiter-{pl,en}.toml`; numbers and dice come
//! from the game's own phrasebook ([`crate::backgammon::BgPhrasebook`]).

use std::collections::BTreeMap;
use std::fmt;

use tandem_rules::Color;

/// The built-in Polish book.
pub const POLISH_TOML: &str = include_str!("../../phrasebooks/backgammon/arbiter-pl.toml");
/// The built-in English book.
pub const ENGLISH_TOML: &str = include_str!("../../phrasebooks/backgammon/arbiter-en.toml");

/// Every key a book must have, by section.
const KEYS: &[(&str, &[&str])] = &[
    (
        "sides",
        &[
            "white",
            "black",
            "white_numbering",
            "black_numbering",
            "none",
        ],
    ),
    (
        "board",
        &[
            "remove_point",
            "remove_bar",
            "put_point",
            "put_bar",
            "point_both",
            "dice",
            "no_dice",
            "cube_middle",
            "cube_owned",
            "score",
            "crawford",
            "not_crawford",
            "on_roll",
            "doubled",
            "not_doubled",
            "in_sync",
            "off_counts",
        ],
    ),
    (
        "report",
        &[
            "place",
            "need_side",
            "wrong_side",
            "game_end",
            "no_game_end",
            "unreadable",
        ],
    ),
];

/// A book that does not load: what is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BgArbiterBookError(pub String);

impl fmt::Display for BgArbiterBookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "backgammon arbiter phrasebook: {}", self.0)
    }
}

impl std::error::Error for BgArbiterBookError {}

/// The director's words in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BgArbiterBook {
    language: String,
    checker_forms: Vec<String>,
    templates: BTreeMap<String, String>,
}

impl BgArbiterBook {
    /// Loads a book from TOML text; every key must be there.
    ///
    /// # Errors
    /// The text is no TOML, or a key is missing (named).
    pub fn from_toml_str(text: &str) -> Result<BgArbiterBook, BgArbiterBookError> {
        let t: toml::Table = toml::from_str(text).map_err(|e| BgArbiterBookError(e.to_string()))?;
        let get = |section: &str, key: &str| {
            t.get(section)
                .and_then(|s| s.get(key))
                .and_then(|v| v.as_str())
                .map(str::to_owned)
                .ok_or_else(|| BgArbiterBookError(format!("{section}.{key}: missing")))
        };
        let mut templates = BTreeMap::new();
        for (section, keys) in KEYS {
            for k in *keys {
                templates.insert(format!("{section}.{k}"), get(section, k)?);
            }
        }
        let checker_forms: Vec<String> = t
            .get("meta")
            .and_then(|m| m.get("checker_forms"))
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if checker_forms.len() != 3 {
            return Err(BgArbiterBookError(
                "meta.checker_forms: needs 3 words (one, few, many)".to_owned(),
            ));
        }
        Ok(BgArbiterBook {
            language: get("meta", "language")?,
            checker_forms,
            templates,
        })
    }

    /// The built-in book of a language with data
    /// (`speech/phrasebooks/backgammon/arbiter-LANG.toml`); `None` for a
    /// language without it or whose file lacks a key of the English one.
    #[must_use]
    pub fn builtin(lang: &str) -> Option<BgArbiterBook> {
        let text = crate::languages::text(crate::languages::Book::BackgammonArbiter, lang).ok()?;
        BgArbiterBook::from_toml_str(text).ok()
    }

    /// The language tag.
    #[must_use]
    pub fn language(&self) -> &str {
        &self.language
    }

    /// A sentence (`"board.put_point"`), its `{name}`s filled in.
    #[must_use]
    pub fn phrase(&self, key: &str, args: &[(&str, &str)]) -> String {
        let mut s = self.templates.get(key).cloned().unwrap_or_default();
        for (name, value) in args {
            s = s.replace(&format!("{{{name}}}"), value);
        }
        s
    }

    /// "checker" or "checkers" for `n` (Polish: pion, piony, pionów).
    #[must_use]
    pub fn checkers(&self, n: u32) -> &str {
        let few = (2..=4).contains(&(n % 10)) && !(12..=14).contains(&(n % 100));
        let i = if n == 1 {
            0
        } else if few {
            1
        } else {
            2
        };
        &self.checker_forms[i]
    }

    /// A side as the owner of checkers ("white", "białych").
    #[must_use]
    pub fn side(&self, c: Color) -> String {
        self.phrase(
            match c {
                Color::White => "sides.white",
                Color::Black => "sides.black",
            },
            &[],
        )
    }

    /// A side's numbering before a point ("black's", "u czarnych").
    #[must_use]
    pub fn numbering(&self, c: Color) -> String {
        self.phrase(
            match c {
                Color::White => "sides.white_numbering",
                Color::Black => "sides.black_numbering",
            },
            &[],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_books_load_with_every_key() {
        for lang in ["pl", "en"] {
            let b = BgArbiterBook::builtin(lang).unwrap();
            assert_eq!(b.language(), lang);
            for (section, keys) in KEYS {
                for k in *keys {
                    assert!(!b.phrase(&format!("{section}.{k}"), &[]).is_empty());
                }
            }
        }
        let pl = BgArbiterBook::builtin("pl").unwrap();
        assert_eq!(pl.checkers(2), "piony");
        assert_eq!(pl.checkers(5), "pionów");
        assert!(BgArbiterBook::from_toml_str("[meta]\nlanguage = \"x\"").is_err());
    }
}
