//! A journal's chain as docs/protocol.md describes it, computed here with
//! sha2 (not with tandem's code): to rewrite a line and chain the lines
//! after it again, as whoever edits a journal would, and `tandem journal
//! verify` to judge it.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The journal's lines with `prev` of every line from `from` (1-based) on
/// set to the SHA-256 of the line before it, as written (docs/protocol.md:
/// "`prev` is the lowercase hex SHA-256 of the previous line's bytes").
pub fn rechain(lines: &mut [String], from: usize) {
    for i in from.max(2)..=lines.len() {
        let prev = sha256_hex(lines[i - 2].as_bytes());
        let v: Value = serde_json::from_str(&lines[i - 1]).unwrap();
        let old = v["prev"].as_str().unwrap().to_owned();
        lines[i - 1] = lines[i - 1].replacen(
            &format!("\"prev\":\"{old}\""),
            &format!("\"prev\":\"{prev}\""),
            1,
        );
    }
}

/// `tandem journal verify ARGS… --json JOURNAL`: exit status and report.
pub fn verify(journal: &Path, args: &[&str]) -> (bool, Value) {
    let out = Command::new(crate::support::TANDEM)
        .args(["journal", "verify", "--json"])
        .args(args)
        .arg(journal)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("verify printed no JSON ({e}): {out:?}"));
    (out.status.success(), v)
}

/// The lines of the journal at `path`.
pub fn lines_of(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A witness (not signed yet) by the desk of `event` of table `table`'s
/// line `line` among `lines`, the game being the hash of its line 1.
pub fn witness_of_line(
    event: &str,
    table: u32,
    lines: &[String],
    line: u64,
) -> tandem::journal::witness::Witness {
    let at = usize::try_from(line).unwrap() - 1;
    tandem::journal::witness::Witness {
        event: event.into(),
        table,
        game: sha256_hex(lines[0].as_bytes()),
        line,
        hash: sha256_hex(lines[at].as_bytes()),
        sig: String::new(),
    }
}
