//! Issue 43: every language says nothing but its own words. The walk goes
//! over every phrase of every phrasebook family of every language (the
//! stems of `speech/phrasebooks/*.toml`): the table's, chess's,
//! backgammon's and its arbiter's phrasebooks, and the daemon's own
//! sentence files (`assistant/data/FAMILY/LANG.toml`, or the `[LANG]`
//! table of the single files they are today: messages, voice status, the
//! device pages, pairing, squares, the language's own file).
//!
//! - Every language has every key English has, in every family.
//! - No word of a language other than English and Polish is a word of the
//!   English or Polish files, unless `tests/data/languages/allowed-words/`
//!   lists it with the reason (`common.toml` for all, `LANG.toml` for one).

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use support::langs;

/// The daemon's sentence families, and where each is today as one file
/// with a table a language.
const SENTENCE_FAMILIES: [(&str, &str); 6] = [
    ("messages", "assistant/data/messages.toml"),
    ("voice-status", "assistant/data/voice-status.toml"),
    ("page", "assistant/src/devices/page.toml"),
    ("pairing", "assistant/src/devices/pairing.toml"),
    ("squares", "assistant/src/devices/squares.toml"),
    ("language", "assistant/data/language.toml"),
];

/// Keys whose values are codes (a BCP 47 tag, an espeak-ng voice, a
/// liblouis table), not words.
const CODE_KEYS: [&str; 8] = [
    "language",
    "espeak_voice",
    "voice",
    "code",
    "tag",
    "locale",
    "braille_table",
    "louis_table",
];

/// Every family of one language: its name and its table.
fn families(lang: &str) -> Vec<(String, toml::Table)> {
    let root = langs::root();
    let mut out: Vec<(String, toml::Table)> = langs::phrasebook_files(lang)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(langs::phrasebooks()).unwrap();
            let family = rel
                .to_str()
                .unwrap()
                .replace(&format!("{lang}.toml"), "LANG.toml");
            (format!("speech/phrasebooks/{family}"), langs::read_toml(&f))
        })
        .collect();
    for (family, single) in SENTENCE_FAMILIES {
        let own: PathBuf = root.join(format!("assistant/data/{family}/{lang}.toml"));
        if own.is_file() {
            out.push((family.to_owned(), langs::read_toml(&own)));
        } else if root.join(single).is_file() {
            let t = langs::read_toml(&root.join(single));
            if let Some(toml::Value::Table(mine)) = t.get(lang) {
                out.push((family.to_owned(), mine.clone()));
            }
        }
    }
    out
}

/// Every string of a table by its dotted key (a list's items as `key[i]`).
fn strings(prefix: &str, v: &toml::Value, out: &mut BTreeMap<String, String>) {
    match v {
        toml::Value::String(s) => {
            out.insert(prefix.to_owned(), s.clone());
        }
        toml::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                strings(&format!("{prefix}[{i}]"), x, out);
            }
        }
        toml::Value::Table(t) => {
            for (k, x) in t {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                strings(&key, x, out);
            }
        }
        _ => {}
    }
}

/// Every key path of a table, lists as a whole.
fn keys(prefix: &str, t: &toml::Table, out: &mut BTreeSet<String>) {
    for (k, v) in t {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(inner) => keys(&key, inner, out),
            _ => {
                out.insert(key);
            }
        }
    }
}

/// The words of a phrase, in small letters: placeholders (`{side}`) and
/// tokens with a digit or a dot inside (`e4`, `32-28`, a file name) left
/// out, hyphenated words split.
fn words(phrase: &str) -> Vec<String> {
    let mut text = String::new();
    let mut depth = 0;
    for c in phrase.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => text.push(c),
            _ => text.push(' '),
        }
    }
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        let t = token.trim_matches(|c: char| !c.is_alphanumeric());
        if t.chars()
            .any(|c| c.is_ascii_digit() || c == '.' || c == '/' || c == '_')
        {
            continue;
        }
        for w in t.split(|c: char| !(c.is_alphabetic() || c == '\'' || c == '’')) {
            let w = w.trim_matches(['\'', '’']).to_lowercase();
            if !w.is_empty() {
                out.push(w);
            }
        }
    }
    out
}

/// Where each word of a language's phrases is said: word → `family key`.
fn words_of(lang: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (family, table) in families(lang) {
        let mut all = BTreeMap::new();
        strings("", &toml::Value::Table(table), &mut all);
        for (key, phrase) in all {
            let last = key.rsplit('.').next().unwrap();
            let last = last.split('[').next().unwrap();
            if CODE_KEYS.contains(&last) {
                continue;
            }
            for w in words(&phrase) {
                out.entry(w).or_default().push(format!("{family} {key}"));
            }
        }
    }
    out
}

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
