//! Where `tandem play`'s log lines go. Never onto the screen: the sighted
//! side's screen is stdout, and stderr is the same terminal. By default they
//! go to a log file, `$XDG_STATE_HOME/tandem/tandem.log` (else
//! `~/.local/state/tandem/tandem.log`), appended to and named once at start
//! on stderr. `--log FILE` names another file; `--log -`, or `TANDEM_LOG`
//! set in the environment (the level filter, as for systemd's journal),
//! sends them to stderr. The level is `TANDEM_LOG`'s filter, else `warn`.
//!
//! The other commands set up no logging: what they have to say is their
//! output or their error on stderr.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where log lines go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogTarget {
    /// Standard error.
    Stderr,
    /// A file, appended to.
    File(PathBuf),
}

/// The target for `--log` (`-` or a file), whether `TANDEM_LOG` is set, and
/// the default file.
#[must_use]
pub fn target(flag: Option<&Path>, tandem_log_set: bool, default_file: PathBuf) -> LogTarget {
    match flag {
        Some(p) if p == Path::new("-") => LogTarget::Stderr,
        Some(p) => LogTarget::File(p.to_owned()),
        None if tandem_log_set => LogTarget::Stderr,
        None => LogTarget::File(default_file),
    }
}

/// `$XDG_STATE_HOME/tandem/tandem.log`, else `~/.local/state/tandem/tandem.log`
/// (else in the temporary folder).
#[must_use]
pub fn default_file() -> PathBuf {
    crate::paths::state_dir().join("tandem.log")
}

fn open(path: &Path) -> std::io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
}

/// Sets up `tandem play`'s logging for `--log` (see the module); says on
/// stderr which file the log lines go to. Returns that file, `None` when
/// they go to stderr (asked for, or the file cannot be opened: said too).
pub fn init(flag: Option<&Path>) -> Option<PathBuf> {
    let env = std::env::var_os("TANDEM_LOG").filter(|v| !v.is_empty());
    let filter = tracing_subscriber::EnvFilter::try_from_env("TANDEM_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        // A log line that cannot be written is dropped. With `true` (what
        // `fmt()` sets) the subscriber reports the failure with `eprintln!`,
        // which panics when stderr fails too, and it panics in whichever
        // task logged: a journal write failing with EFBIG under a file-size
        // limit logs an error, a log file past that same limit fails too,
        // and the session actor died mid-move ("the session stopped before
        // answering"). See RELIABILITY.md.
        .log_internal_errors(false);
    // Not `eprintln!` below: it panics when stderr cannot be written.
    let mut stderr = std::io::stderr();
    match target(flag, env.is_some(), default_file()) {
        LogTarget::Stderr => {
            let _ = builder.with_writer(std::io::stderr).try_init();
            None
        }
        LogTarget::File(path) => match open(&path) {
            Ok(f) => {
                let _ = builder
                    .with_ansi(false)
                    .with_writer(Mutex::new(f))
                    .try_init();
                let _ = writeln!(stderr, "tandem: log lines go to {}", path.display());
                Some(path)
            }
            Err(e) => {
                let _ = builder.with_writer(std::io::stderr).try_init();
                let _ = writeln!(
                    stderr,
                    "tandem: cannot open the log file {}: {e}; log lines go to stderr",
                    path.display()
                );
                None
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_unless_stderr_is_asked_for() {
        let d = PathBuf::from("/state/tandem/tandem.log");
        assert_eq!(target(None, false, d.clone()), LogTarget::File(d.clone()));
        assert_eq!(target(None, true, d.clone()), LogTarget::Stderr);
        assert_eq!(
            target(Some(Path::new("-")), false, d.clone()),
            LogTarget::Stderr
        );
        assert_eq!(
            target(Some(Path::new("x.log")), true, d),
            LogTarget::File("x.log".into()),
            "--log FILE wins over TANDEM_LOG (which still sets the level)"
        );
    }
}
