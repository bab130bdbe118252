//! The one-shot `tandem` command lines of the CLI tests (`tandem say`,
//! `hear`, `moves`, `perft`, `arbiter` …), run to their end, and the data
//! files of the rules crate they read.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use super::TANDEM;

/// `tandem ARGS…`: its exit code (-1 if a signal ended it), stdout and
/// stderr, each of which must be UTF-8.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = super::tandem(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// `tandem ARGS…` with the variables `set` set and `remove` removed: its
/// exit code (-1 if a signal ended it), stdout and stderr (lossy UTF-8).
pub fn run_in(args: &[&str], set: &[(&str, &Path)], remove: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(TANDEM);
    cmd.args(args);
    for (k, v) in set {
        cmd.env(k, v);
    }
    for k in remove {
        cmd.env_remove(k);
    }
    let out = cmd.output().expect("tandem runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`run_in`] with the environment as it is.
pub fn run_text(args: &[&str]) -> (i32, String, String) {
    run_in(args, &[], &[])
}

/// `tandem ARGS…`: its exit code (`None` if a signal ended it), stdout and
/// stderr (lossy UTF-8).
pub fn run_lossy(args: &[&str]) -> (Option<i32>, String, String) {
    let out = super::tandem(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The one JSON object a command printed (a panic showing its stdout and
/// stderr if there is none).
pub fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not one JSON object ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The path of `rules/tests/data/REL`.
pub fn rules_data(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../rules/tests/data")
        .join(rel)
        .display()
        .to_string()
}

/// The strings of the JSON array `v` (each item must be one).
pub fn strs(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}
