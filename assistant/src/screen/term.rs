//! The terminal under the full screen: raw mode and the alternate screen
//! on, and off again whatever happens (the end of the game, `quit`,
//! Ctrl-C, SIGTERM, a panic: the panic hook restores it before the panic
//! is reported). While the screen is up (from before the devices start,
//! whose warnings would land under the screen), whatever is written to
//! stderr (log lines, a library's own messages) goes to
//! `$XDG_STATE_HOME/tandem/tandem.log` instead of onto the terminal.

use std::io::Write as _;
use std::os::fd::{AsFd as _, OwnedFd};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};

use crossterm::{cursor, execute, terminal};

/// Whether the terminal is in the screen's mode now.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// stderr as it was (a terminal), while the screen is up.
static SAVED_STDERR: Mutex<Option<OwnedFd>> = Mutex::new(None);
static HOOK: Once = Once::new();

/// Where stderr goes while the screen is up.
#[must_use]
pub fn stderr_file() -> PathBuf {
    crate::paths::state_dir().join("tandem.log")
}

/// Raw mode, the alternate screen, the cursor hidden until drawn; the panic
/// hook that undoes it.
///
/// # Errors
/// The terminal refuses.
pub fn enter() -> std::io::Result<()> {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    if let Err(e) = execute!(std::io::stdout(), terminal::EnterAlternateScreen) {
        restore();
        return Err(e);
    }
    Ok(())
}

/// Leaves the screen's mode (at most once: the panic hook and the end of
/// the screen may both call it).
pub fn restore() {
    undivert_stderr();
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = std::io::stdout();
    let _ = execute!(out, terminal::LeaveAlternateScreen, cursor::Show);
    let _ = terminal::disable_raw_mode();
    let _ = out.flush();
}

/// stderr to the log file while it is the terminal the screen is on.
pub fn divert_stderr() {
    use std::io::IsTerminal as _;
    if !std::io::stderr().is_terminal() {
        return;
    }
    let path = stderr_file();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    else {
        return;
    };
    let Ok(saved) = rustix::io::dup(std::io::stderr().as_fd()) else {
        return;
    };
    if rustix::stdio::dup2_stderr(&file).is_ok() {
        if let Ok(mut s) = SAVED_STDERR.lock() {
            *s = Some(saved);
        }
    }
}

/// stderr back to the terminal (if it was diverted).
pub fn undivert_stderr() {
    let saved = SAVED_STDERR.lock().ok().and_then(|mut s| s.take());
    if let Some(fd) = saved {
        let _ = rustix::stdio::dup2_stderr(&fd);
    }
}
