//! The languages of the tests of issue 43, never a list written here: the
//! stems of `speech/phrasebooks/*.toml` (`pl.toml`, `en.toml`, and every
//! language whose data files are added: `nl.toml`, `ru.toml`, …), and the
//! data files of each (the layout of `docs/languages.md`), for the tests
//! that walk every language (`tests/languages/`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `speech/phrasebooks`.
pub fn phrasebooks() -> PathBuf {
    root().join("speech/phrasebooks")
}

/// Every language tandem has data files for: the stems of
/// `speech/phrasebooks/*.toml`, sorted (pl and en among them).
pub fn languages() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(phrasebooks())
        .expect("speech/phrasebooks")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_owned())
        .collect();
    out.sort();
    assert!(
        out.iter().any(|l| l == "pl") && out.iter().any(|l| l == "en"),
        "speech/phrasebooks has pl.toml and en.toml: {out:?}"
    );
    out
}

/// The languages other than Polish and English (the translations).
pub fn translations() -> Vec<String> {
    languages()
        .into_iter()
        .filter(|l| l != "pl" && l != "en")
        .collect()
}

/// Whether `speech/phrasebooks/LANG.toml` exists.
pub fn has(lang: &str) -> bool {
    phrasebooks().join(format!("{lang}.toml")).is_file()
}

/// The phrasebook files of one language, each game's family: the table's
/// (draughts) `LANG.toml`, `chess/LANG.toml`, `backgammon/LANG.toml`,
/// `backgammon/arbiter-LANG.toml` (those that exist).
pub fn phrasebook_files(lang: &str) -> Vec<PathBuf> {
    let p = phrasebooks();
    [
        p.join(format!("{lang}.toml")),
        p.join(format!("chess/{lang}.toml")),
        p.join(format!("backgammon/{lang}.toml")),
        p.join(format!("backgammon/arbiter-{lang}.toml")),
    ]
    .into_iter()
    .filter(|f| f.is_file())
    .collect()
}

/// A TOML file, parsed.
pub fn read_toml(path: &Path) -> toml::Table {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The string at a dotted key (`move.check`) of a TOML table.
pub fn string_at<'a>(t: &'a toml::Table, key: &str) -> Option<&'a str> {
    let mut parts = key.split('.');
    let mut v = t.get(parts.next()?)?;
    for p in parts {
        v = v.get(p)?;
    }
    v.as_str()
}

/// The daemon's sentence families where each is one file with a table a
/// language (before they became `assistant/data/FAMILY/LANG.toml`).
const SINGLE_FILES: [(&str, &str); 5] = [
    ("messages", "assistant/data/messages.toml"),
    ("voice-status", "assistant/data/voice-status.toml"),
    ("page", "assistant/src/devices/page.toml"),
    ("pairing", "assistant/src/devices/pairing.toml"),
    ("squares", "assistant/src/devices/squares.toml"),
];

/// Whether the value at `key` (a dotted path) is a code, not words: a
/// book's BCP 47 tag and espeak-ng voice (`meta.language`,
/// `meta.espeak_voice`, a card's `espeak_voice`), a noun's grammatical
/// gender (`nouns.hour.gender`). The braille table, the model's name and
/// hash have digits or dots, which are no words either ([`words`]).
fn is_code(key: &str) -> bool {
    matches!(key, "meta.language" | "meta.espeak_voice" | "espeak_voice")
        || key.ends_with(".gender")
}

/// Every family of one language: its name and its table.
pub fn families(lang: &str) -> Vec<(String, toml::Table)> {
    let root = root();
    let mut out: Vec<(String, toml::Table)> = phrasebook_files(lang)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(phrasebooks()).unwrap();
            let family = rel
                .to_str()
                .unwrap()
                .replace(&format!("{lang}.toml"), "LANG.toml");
            (format!("speech/phrasebooks/{family}"), read_toml(&f))
        })
        .collect();
    // Every folder of assistant/data with a file of the language: the
    // daemon's messages, voice status, device pages, pairing, squares, the
    // arbiter's and the record's words, the language's card.
    let data = root.join("assistant/data");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&data)
        .expect("assistant/data")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for dir in &folders {
        let own = dir.join(format!("{lang}.toml"));
        if own.is_file() {
            let family = dir.file_name().unwrap().to_str().unwrap();
            out.push((format!("assistant/data/{family}"), read_toml(&own)));
        }
    }
    for (family, single) in SINGLE_FILES {
        if data.join(family).is_dir() || !root.join(single).is_file() {
            continue;
        }
        let t = read_toml(&root.join(single));
        if let Some(toml::Value::Table(mine)) = t.get(lang) {
            out.push((format!("assistant/data/{family}"), mine.clone()));
        }
    }
    out
}

/// Every string of a table by its dotted key (a list's items as `key[i]`).
pub fn strings(prefix: &str, v: &toml::Value, out: &mut BTreeMap<String, String>) {
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
pub fn keys(prefix: &str, t: &toml::Table, out: &mut BTreeSet<String>) {
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

/// The words of a phrase, in small letters: placeholders (`{side}`),
/// options (`--voice`), file endings (`.mat`) and tokens with a digit, a dot, a slash or an
/// underscore (`e4`, `32-28`, a file name) left out, hyphenated words
/// split.
pub fn words(phrase: &str) -> Vec<String> {
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
        // A command line's option (`--voice`) and a file's ending (`.mat`)
        // are not words.
        let bare = token.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != '-');
        if bare.starts_with("--") || bare.starts_with('.') {
            continue;
        }
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
pub fn words_of(lang: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (family, table) in families(lang) {
        let mut all = BTreeMap::new();
        strings("", &toml::Value::Table(table), &mut all);
        for (key, phrase) in all {
            if is_code(&key) {
                continue;
            }
            for w in words(&phrase) {
                out.entry(w).or_default().push(format!("{family} {key}"));
            }
        }
    }
    out
}
