//! Issue 43: every language says nothing but its own words. The walk goes
//! over every phrase of every phrasebook family of every language (the
//! stems of `speech/phrasebooks/*.toml`): the table's, chess's,
//! backgammon's and its arbiter's phrasebooks, and the daemon's own words
//! in every folder of `assistant/data` with a file of the language
//! (messages, voice status, the device pages, pairing, squares, the
//! arbiter's and the record's words, the language's card), or the `[LANG]`
//! table of the single files they were before.
//!
//! - Every language has every key English has, in every family.
//! - No word of a language other than English and Polish is a word of the
//!   English or Polish files, unless `tests/data/languages/allowed-words/`
//!   lists it with the reason (`common.toml` for all, `LANG.toml` for one).
//!   Codes (a language's tag, its espeak-ng voice) are not words.

use crate::support::langs::{self, families, keys, words_of};
use std::collections::{BTreeMap, BTreeSet};

/// The words `allowed-words/NAME.toml` allows (none without the file), each
/// entry with its reason.
fn allowed(name: &str) -> BTreeSet<String> {
    let path = langs::root().join(format!(
        "assistant/tests/data/languages/allowed-words/{name}.toml"
    ));
    if !path.is_file() {
        return BTreeSet::new();
    }
    let t = langs::read_toml(&path);
    let mut out = BTreeSet::new();
    for e in t["allow"].as_array().expect("[[allow]] entries") {
        let reason = e.get("reason").and_then(toml::Value::as_str).unwrap_or("");
        assert!(
            reason.len() > 15,
            "{}: every entry gives its reason: {e}",
            path.display()
        );
        for w in e["words"].as_array().unwrap() {
            let w = w.as_str().unwrap();
            assert_eq!(
                w,
                w.to_lowercase(),
                "{}: words in small letters",
                path.display()
            );
            out.insert(w.to_owned());
        }
    }
    out
}

#[test]
fn every_language_has_every_key_english_has() {
    let english: BTreeMap<String, BTreeSet<String>> = families("en")
        .into_iter()
        .map(|(f, t)| {
            let mut k = BTreeSet::new();
            keys("", &t, &mut k);
            (f, k)
        })
        .collect();
    assert!(
        english.len() >= 9,
        "English's families: {:?}",
        english.keys()
    );
    let mut missing = Vec::new();
    for lang in langs::languages() {
        let mine: BTreeMap<String, toml::Table> = families(&lang).into_iter().collect();
        for (family, en_keys) in &english {
            let Some(t) = mine.get(family) else {
                missing.push(format!("{lang}: no {family}"));
                continue;
            };
            let mut k = BTreeSet::new();
            keys("", t, &mut k);
            for key in en_keys.difference(&k) {
                missing.push(format!("{lang} {family}: {key}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys English has and these languages lack:\n{}",
        missing.join("\n")
    );
}

#[test]
fn no_language_says_an_english_or_polish_word() {
    let mut foreign: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for source in ["en", "pl"] {
        for (w, at) in words_of(source) {
            foreign
                .entry(w)
                .or_default()
                .push(format!("{source} {}", at[0]));
        }
    }
    assert!(
        foreign.contains_key("move") && foreign.contains_key("ruch"),
        "the English and Polish words were read"
    );
    let common = allowed("common");
    let mut found = Vec::new();
    for lang in langs::translations() {
        let own = allowed(&lang);
        let mine = words_of(&lang);
        assert!(mine.len() > 200, "{lang}: only {} words read", mine.len());
        for (w, at) in mine {
            if common.contains(&w) || own.contains(&w) {
                continue;
            }
            if let Some(from) = foreign.get(&w) {
                found.push(format!(
                    "{lang}: {w:?} at {} is {}",
                    at.join(", "),
                    from.join(", ")
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "words of English or Polish in another language (a word that really is the same \
         goes in tests/data/languages/allowed-words/LANG.toml with the reason):\n{}",
        found.join("\n")
    );
}
