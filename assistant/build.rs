//! Embeds the source commit the binary is built from (`tandem report`'s
//! `commit`): `TANDEM_COMMIT` when set (a release script, a tarball
//! without git), else `git rev-parse HEAD`, else `unknown`.
//!
//! And the languages' words (docs/languages.md): every `data/FOLDER/LANG.toml`
//! embedded in `$OUT_DIR/languages.rs`, a table of (folder, language, path,
//! text) read by `src/lang.rs`, so that a language is its files. The folders
//! are watched: a file added, changed or removed builds the crate again.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!s.is_empty()).then_some(s)
}

/// The files of `data/*/LANG.toml`: (folder, language, path).
fn data_files(data: &std::path::Path) -> Vec<(String, String, PathBuf)> {
    println!("cargo:rerun-if-changed={}", data.display());
    let entries = |dir: &std::path::Path| -> Vec<(String, PathBuf)> {
        let mut v: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
            .collect();
        v.sort();
        v
    };
    let mut files = Vec::new();
    for (folder, dir) in entries(data) {
        if !dir.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", dir.display());
        for (name, path) in entries(&dir) {
            let Some(lang) = name.strip_suffix(".toml") else {
                continue;
            };
            if lang.is_empty() || !lang.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            files.push((folder.clone(), lang.to_owned(), path));
        }
    }
    files
}

fn languages() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut out = String::from("&[\n");
    for (folder, lang, path) in data_files(&root.join("data")) {
        writeln!(
            out,
            "    ({folder:?}, {lang:?}, {:?}, include_str!({:?})),",
            format!("assistant/data/{folder}/{lang}.toml"),
            path.display().to_string()
        )
        .expect("writing to a string");
    }
    out.push(']');
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("languages.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}

fn main() {
    languages();
    println!("cargo:rerun-if-env-changed=TANDEM_COMMIT");
    let commit = std::env::var("TANDEM_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| git(&["rev-parse", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_owned());
    // Built again when the checked-out commit changes (only files that
    // exist: a missing one would run this script on every build).
    let mut watch = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    watch.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watch {
        if let Some(p) = git(&["rev-parse", "--git-path", &name]) {
            if std::path::Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    }
    println!("cargo:rustc-env=TANDEM_COMMIT={commit}");
}
