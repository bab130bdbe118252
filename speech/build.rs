//! The languages' registry (docs/languages.md): every phrasebook file in
//! `phrasebooks/` embedded, so that a language is its files. Writes
//! `$OUT_DIR/phrasebooks.rs`, a table of (book, language, path, text), read
//! by `src/languages.rs`. The folders are watched: a file added, changed or
//! removed builds the crate again.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A book's folder and how its files are named: (book, folder, prefix).
const BOOKS: [(&str, &str, &str); 4] = [
    ("draughts", "phrasebooks", ""),
    ("chess", "phrasebooks/chess", ""),
    ("backgammon", "phrasebooks/backgammon", ""),
    ("backgammon-arbiter", "phrasebooks/backgammon", "arbiter-"),
];

/// The language of `name` in a folder of `prefix` files (`nl.toml`,
/// `arbiter-nl.toml`): a tag of letters, digits and `-`, never another
/// book's prefix.
fn language<'a>(name: &'a str, prefix: &str) -> Option<&'a str> {
    let lang = name.strip_suffix(".toml")?.strip_prefix(prefix)?;
    let ok = !lang.is_empty()
        && lang.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && (!prefix.is_empty() || !lang.contains('-'));
    ok.then_some(lang)
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut out = String::from("&[\n");
    for (book, folder, prefix) in BOOKS {
        let dir = root.join(folder);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let lang = language(&name, prefix)?.to_owned();
                Some((lang, e.path()))
            })
            .collect();
        files.sort();
        for (lang, path) in files {
            println!("cargo:rerun-if-changed={}", path.display());
            let rel = path
                .strip_prefix(root.parent().unwrap_or(Path::new("/")))
                .unwrap_or(&path);
            writeln!(
                out,
                "    ({book:?}, {lang:?}, {:?}, include_str!({:?})),",
                rel.display().to_string(),
                path.display().to_string()
            )
            .expect("writing to a string");
        }
    }
    out.push(']');
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("phrasebooks.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}
