//! Where tandem keeps what it writes for itself: `$XDG_STATE_HOME/tandem`,
//! else `~/.local/state/tandem`, else `tandem` in the temporary folder (the
//! log, the journals, the desk's copies, the device pages' certificate).

use std::path::PathBuf;

/// tandem's state folder (not made here).
#[must_use]
pub fn state_dir() -> PathBuf {
    std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir)
        .join("tandem")
}
