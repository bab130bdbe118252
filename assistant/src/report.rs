//! A table's report (`tandem report`, issue 41; FIDE Laws 11.3.2.1: the
//! arbiter approves every electronic device in the venue): what the binary
//! is (its version, source commit and SHA-256), what `tandem play` with the
//! same options would run (its inputs, what it listens on and connects to),
//! the machine's radios, and what a player can ask of it. The same object
//! is printed by `tandem report --json`, written as the journal's `report`
//! line before the first move, and reaches the hall's desk.
//!
//! What is computed from the options lives in `cmd/report.rs` (the wiring
//! reads the config); here are the data, the binary's hash and the words.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::radios::Radio;

/// What `--allow` may grant a rated table (`tandem play --rated --allow …`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    clap::ValueEnum,
    Serialize,
    Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Allow {
    /// Start while a Wi-Fi or Bluetooth radio is up.
    Radio,
    /// Serve the device seats' pages (`--seats`).
    Devices,
    /// Refused moves name the pieces or squares that could move.
    Hints,
}

impl Allow {
    /// The word of `--allow`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Allow::Radio => "radio",
            Allow::Devices => "devices",
            Allow::Hints => "hints",
        }
    }
}

/// A table's report (the `report` journal line, `tandem report --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// tandem's version (`Cargo.toml`).
    pub version: String,
    /// The source commit the binary was built from (`unknown` without git).
    pub commit: String,
    /// The SHA-256 of the running binary, lowercase hex.
    pub binary_sha256: String,
    /// The game (`international`, `chess`, `backgammon`…).
    pub variant: String,
    /// `tandem play --rated`.
    pub rated: bool,
    /// What `--allow` granted (`radio`, `devices`, `hints`).
    #[serde(default)]
    pub allow: Vec<String>,
    /// The inputs moves and requests may come from (`keyboard`,
    /// `control-socket`, `voice`, `braille`, `device`, `eboard`: the table's
    /// parts', [`crate::table::Input`]).
    pub inputs: Vec<String>,
    /// Every address (`HOST:PORT`) or Unix socket (its path) it listens on.
    pub listens: Vec<String>,
    /// Every address it connects to: the hall's broker (`HOST:PORT`),
    /// speech-dispatcher's socket, BRLTTY (`brlapi:HOST`) when it would use them.
    pub connects: Vec<String>,
    /// The devices it uses besides the network (a microphone, a sound
    /// output, the terminal).
    #[serde(default)]
    pub devices: Vec<String>,
    /// The machine's radios when the report was made.
    pub radios: Vec<Radio>,
    /// Always `false`: tandem never evaluates a position or suggests a move.
    pub engine: bool,
    /// What a player can ask of it, in words.
    pub assistance: Vec<String>,
    /// Where the journals go.
    pub journal_dir: String,
}

/// The version, commit and hash of this binary: (version, commit, sha256).
#[must_use]
pub fn binary() -> (String, String, String) {
    static HASH: OnceLock<String> = OnceLock::new();
    let hash = HASH.get_or_init(|| {
        std::env::current_exe()
            .and_then(|p| file_sha256(&p))
            .unwrap_or_else(|e| format!("unknown ({e})"))
    });
    (
        env!("CARGO_PKG_VERSION").to_owned(),
        env!("TANDEM_COMMIT").to_owned(),
        hash.clone(),
    )
}

/// The SHA-256 of a file, lowercase hex, read in pieces (ring's digest:
/// its assembly is as fast in a debug build, where the binary is largest).
///
/// # Errors
/// The file cannot be read.
pub fn file_sha256(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let mut f = std::fs::File::open(path)?;
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        ctx.update(&buf[..n]);
    }
    Ok(ctx
        .finish()
        .as_ref()
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect())
}

/// What a player can ask of a table, in words: all of it is what the rules
/// let a blind player have (001 ch. VIII; FIDE annex E), none of it advice.
#[must_use]
pub fn assistance(hints: bool) -> Vec<String> {
    let mut v: Vec<String> = [
        "moves announced aloud (and on braille) as they are played",
        "the clock on request: time used and left by both sides",
        "the record read back, move by move",
        "the position read out, square by square",
        "what a sighted player sees at a glance (material, a file, a point)",
        "draw claims checked against the rules",
    ]
    .map(str::to_owned)
    .into();
    v.push(if hints {
        "a refused move names the rule and the pieces or squares that could move".to_owned()
    } else {
        "a refused move names the rule it breaks, never the pieces or squares that could move"
            .to_owned()
    });
    v.push("no engine: it never evaluates a position or suggests a move".to_owned());
    v
}

impl Report {
    /// Whether `--allow hints` was given (rated tables only hold back hints).
    #[must_use]
    pub fn hints(&self) -> bool {
        !self.rated || self.allow.iter().any(|a| a == "hints")
    }

    /// The report for a person to read (`tandem report` without `--json`).
    #[must_use]
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_owned()
            } else {
                v.join(", ")
            }
        };
        let mut s = String::new();
        let _ = writeln!(s, "tandem {} (commit {})", self.version, self.commit);
        let _ = writeln!(s, "binary SHA-256: {}", self.binary_sha256);
        let rated = match (self.rated, self.allow.is_empty()) {
            (false, _) => "no".to_owned(),
            (true, true) => "yes".to_owned(),
            (true, false) => format!("yes, allowing {}", self.allow.join(", ")),
        };
        let _ = writeln!(s, "game: {}; rated: {rated}", self.variant);
        let _ = writeln!(s, "inputs: {}", list(&self.inputs));
        let _ = writeln!(s, "listens on: {}", list(&self.listens));
        let _ = writeln!(s, "connects to: {}", list(&self.connects));
        let _ = writeln!(s, "uses: {}", list(&self.devices));
        let radios: Vec<String> = self
            .radios
            .iter()
            .map(|r| {
                let up = if r.up { "UP" } else { "down" };
                format!("{} {} {up}", r.kind.name(), r.name)
            })
            .collect();
        let _ = writeln!(s, "radios: {}", list(&radios));
        let _ = writeln!(s, "engine: {}", if self.engine { "yes" } else { "none" });
        let _ = writeln!(s, "a player can ask for:");
        for a in &self.assistance {
            let _ = writeln!(s, "  - {a}");
        }
        let _ = writeln!(s, "journals: {}", self.journal_dir);
        s
    }

    /// One line for the arbiter's tools (`tandem arbiter`, `journal verify`).
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "report: tandem {} commit {} binary SHA-256 {}{}",
            self.version,
            self.commit,
            self.binary_sha256,
            if self.rated { ", rated" } else { ", not rated" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_hash_is_the_running_files() {
        let (_, _, h) = binary();
        let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        use sha2::Digest as _;
        let want: String = sha2::Sha256::digest(exe)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(h, want);
    }

    #[test]
    fn rated_without_hints_says_so() {
        assert!(assistance(false)
            .iter()
            .any(|a| a.contains("never the pieces")));
        assert!(assistance(true)
            .iter()
            .all(|a| !a.contains("never the pieces")));
    }
}
