//! The languages of the tests of issue 43, never a list written here: the
//! stems of `speech/phrasebooks/*.toml` (`pl.toml`, `en.toml`, and every
//! language whose data files are added: `nl.toml`, `ru.toml`, …), and the
//! data files of each (the layout of `docs/languages.md`), for the tests
//! that walk every language (`lang_*.rs`).

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
