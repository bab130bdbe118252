//! What a test of a real component (BRLTTY, speech-dispatcher, espeak-ng,
//! sox, Vosk and its model, a tmpfs mount) does when that component is
//! missing, the same way in every crate:
//!
//! - by default it fails, naming the component and how to get it;
//! - with `TANDEM_SKIP_REAL` set to a non-empty value it returns early
//!   instead, after saying loudly on stderr (past the test harness's output
//!   capture) which test did not run and what was missing;
//! - with `TANDEM_SKIP_REAL` set while `CI` is set (non-empty) it fails: CI
//!   runs every real-component test, so a skip there would be an "ok" that
//!   checked nothing. `scripts/test.sh` refuses the combination too.
//!
//! A test that finds its component present runs whatever `TANDEM_SKIP_REAL`
//! says: the variable only excuses what is missing.

use std::ffi::OsStr;
use std::fmt::Display;
use std::io::Write;

/// The variable that lets tests of missing real components skip.
pub const SKIP_VAR: &str = "TANDEM_SKIP_REAL";

/// What the environment allows a test whose real component is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Fail (the default).
    Fail,
    /// Skip, saying so (`TANDEM_SKIP_REAL` set and non-empty, outside CI).
    Skip,
    /// `TANDEM_SKIP_REAL` is set while `CI` is set: refused.
    RefusedInCi,
}

/// The policy for the values of `TANDEM_SKIP_REAL` and `CI` (unset and
/// empty mean the same).
#[must_use]
pub fn policy_for(skip_real: Option<&OsStr>, ci: Option<&OsStr>) -> Policy {
    let set = |v: Option<&OsStr>| v.is_some_and(|v| !v.is_empty());
    match (set(skip_real), set(ci)) {
        (false, _) => Policy::Fail,
        (true, false) => Policy::Skip,
        (true, true) => Policy::RefusedInCi,
    }
}

/// The policy of this process's environment.
#[must_use]
pub fn policy() -> Policy {
    policy_for(
        std::env::var_os(SKIP_VAR).as_deref(),
        std::env::var_os("CI").as_deref(),
    )
}

/// The running test's name (libtest names each test's thread after it),
/// with the test binary's name.
fn test_name() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|s| match s.rsplit_once('-') {
            // cargo names test binaries NAME-HASH
            Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.to_owned(),
            _ => s,
        })
        .unwrap_or_else(|| "?".to_owned());
    let thread = std::thread::current();
    match thread.name() {
        Some(name) if name != "main" => format!("{exe}::{name}"),
        _ => exe,
    }
}

/// A real component this test needs is missing: `component` says what it
/// is and how to get it (`"BRLTTY (apt-get install brltty)"`), `why` what
/// went wrong. Returns, so that the test returns early having checked
/// nothing, only when `TANDEM_SKIP_REAL` is set (non-empty) outside CI,
/// after writing a `SKIPPED` line to stderr that names the test and the
/// component.
///
/// # Panics
/// Otherwise: the component is needed (default), or `TANDEM_SKIP_REAL` is
/// set while `CI` is set.
#[track_caller]
pub fn missing(component: &str, why: impl Display) {
    let test = test_name();
    match policy() {
        Policy::Skip => {
            // Straight to the process's stderr, not through eprintln!, which
            // the test harness captures and hides for a passing test.
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED {test}: {component} is missing ({why}); {SKIP_VAR} is set, \
                 so this test checked nothing ***"
            );
        }
        Policy::Fail => panic!(
            "{test} needs {component}: {why} (outside CI, set {SKIP_VAR}=1 to skip the tests \
             whose real component is missing)"
        ),
        Policy::RefusedInCi => panic!(
            "{test} needs {component}: {why}; {SKIP_VAR} is set but CI is set too, and CI must \
             run every test of a real component: unset {SKIP_VAR}"
        ),
    }
}

/// `Some(v)` for `Ok(v)`; for `Err(e)`, [`missing`]`(component, e)` and `None`
/// (the test then returns early).
///
/// # Panics
/// As [`missing`].
#[track_caller]
pub fn require<T, E: Display>(component: &str, found: Result<T, E>) -> Option<T> {
    match found {
        Ok(v) => Some(v),
        Err(e) => {
            missing(component, e);
            None
        }
    }
}

/// Whether `program` runs (`program ARGS` exits, whatever its status); else
/// [`missing`]`(component, …)` and `false`.
///
/// # Panics
/// As [`missing`].
#[track_caller]
pub fn require_program(program: &str, args: &[&str], component: &str) -> bool {
    let ran = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"));
    require(component, ran).is_some()
}

/// Where the tests' Python packages are (python-chess, installed by
/// `scripts/setup.sh --test`): `$TANDEM_PYTHONPATH`, else
/// `$TANDEM_HOME/python`, else `/opt/tandem/python`.
#[must_use]
pub fn python_path() -> String {
    std::env::var("TANDEM_PYTHONPATH")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| {
            let home = std::env::var("TANDEM_HOME").unwrap_or_else(|_| "/opt/tandem".into());
            format!("{home}/python")
        })
}

/// A TCP port free on loopback now (bound to port 0 and let go), for a
/// server a test starts: tests running at the same time never share one.
#[must_use]
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port on 127.0.0.1")
        .port()
}

/// A child process killed (and waited for) when dropped, however the test
/// or bench that started it ends.
#[derive(Debug)]
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A small seeded generator (xorshift64*) for the tests that play at
/// random: a fixed seed, so a failing run can be replayed.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// An index below `n` (0 when `n` is 0).
    pub fn index(&mut self, n: usize) -> usize {
        usize::try_from(self.below(n as u64)).expect("below a usize")
    }

    /// A die: 1 to 6.
    pub fn die(&mut self) -> u8 {
        u8::try_from(self.below(6) + 1).expect("1 to 6")
    }
}

/// GNU Backgammon, the backgammon tests' oracle (Debian's `gnubg`, which
/// installs it outside root's PATH).
pub mod gnubg {
    use std::path::Path;
    use std::process::Command;

    /// Where Debian installs it.
    pub const BINARY: &str = "/usr/games/gnubg";

    /// Whether gnubg is installed; when it is not, [`crate::require`]'s
    /// rule (fail, or skip saying so where `TANDEM_SKIP_REAL` allows).
    ///
    /// # Panics
    /// As [`crate::missing`].
    #[track_caller]
    #[must_use]
    pub fn present() -> bool {
        let found = if Path::new(BINARY).exists() {
            Ok(())
        } else {
            Err(format!("{BINARY} is not installed"))
        };
        crate::require(
            "GNU Backgammon (Debian package gnubg; scripts/setup.sh --test installs it)",
            found,
        )
        .is_some()
    }

    /// The oracle script of the rules' tests (`rules/tests/data/gnubg_oracle.py`:
    /// every legal move of a position, the IDs of an imported .mat file).
    #[must_use]
    pub fn oracle() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/tests/data/gnubg_oracle.py")
    }

    /// The folder of `tandem_gnubg.py`, the module the scripts share.
    pub const PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/python");

    /// Runs the Python `script` inside one headless gnubg (`gnubg -t -q -r
    /// -p`) over `questions`, written to `dir/in.txt` (`TANDEM_GNUBG_IN`),
    /// with [`PYTHON`] first on its `PYTHONPATH`; the answers it wrote to
    /// `dir/out.txt` (`TANDEM_GNUBG_OUT`) and gnubg's stderr, for a
    /// failing test to show.
    ///
    /// # Panics
    /// `dir` cannot be written, or gnubg cannot be started.
    #[must_use]
    pub fn ask(script: &Path, dir: &Path, questions: &str) -> (String, String) {
        let input = dir.join("in.txt");
        let output = dir.join("out.txt");
        std::fs::write(&input, questions).expect("the questions are written");
        let mut path = std::ffi::OsString::from(PYTHON);
        if let Some(more) = std::env::var_os("PYTHONPATH") {
            path.push(":");
            path.push(more);
        }
        let run = Command::new(BINARY)
            .args(["-t", "-q", "-r", "-p"])
            .arg(script)
            .env("TANDEM_GNUBG_IN", &input)
            .env("TANDEM_GNUBG_OUT", &output)
            .env("PYTHONPATH", path)
            .env("HOME", dir)
            .output()
            .expect("gnubg runs");
        (
            std::fs::read_to_string(&output).unwrap_or_default(),
            String::from_utf8_lossy(&run.stderr).into_owned(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(skip: Option<&str>, ci: Option<&str>) -> Policy {
        policy_for(skip.map(OsStr::new), ci.map(OsStr::new))
    }

    #[test]
    fn set_and_non_empty_skips_outside_ci_only() {
        assert_eq!(p(None, None), Policy::Fail);
        assert_eq!(
            p(Some(""), None),
            Policy::Fail,
            "an empty value skips nothing"
        );
        assert_eq!(p(Some("1"), None), Policy::Skip);
        assert_eq!(p(Some("yes"), None), Policy::Skip);
        assert_eq!(p(Some("1"), Some("")), Policy::Skip, "an empty CI is no CI");
        assert_eq!(p(Some("1"), Some("true")), Policy::RefusedInCi);
        assert_eq!(p(Some(""), Some("true")), Policy::Fail);
        assert_eq!(p(None, Some("1")), Policy::Fail);
    }

    #[test]
    fn a_present_component_is_never_skipped() {
        // Whatever the environment says, Ok goes through.
        assert_eq!(require::<_, String>("nothing", Ok(7)), Some(7));
        assert!(require_program("true", &[], "coreutils"));
    }

    #[test]
    fn a_skip_names_the_test() {
        let name = test_name();
        assert!(name.starts_with("tandem_testkit"), "{name}");
        assert!(name.ends_with("a_skip_names_the_test"), "{name}");
    }
}
