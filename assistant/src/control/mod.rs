//! The control socket: a Unix socket (mode 0600) speaking JSON lines, one
//! request a line and one reply a line, plus an optional event stream. Split
//! like mini-redis: [`frame`] (the JSON shapes), [`connection`] (reading
//! bounded lines), [`cmd`] (requests to session commands) and [`server`]
//! (the accept loop with an injected shutdown). The protocol is documented in
//! `docs/protocol.md`.

pub mod cmd;
pub mod connection;
pub mod frame;
pub mod server;

use std::path::PathBuf;

/// The longest request line accepted; a longer one closes that connection.
pub const MAX_LINE: usize = 64 * 1024;

/// The default socket: `$XDG_RUNTIME_DIR/tandem/tandem.sock`, or
/// `/tmp/tandem-$UID/tandem.sock` without a runtime dir.
#[must_use]
pub fn default_socket_path() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir).join("tandem").join("tandem.sock"),
        None => PathBuf::from(format!(
            "/tmp/tandem-{}",
            rustix::process::getuid().as_raw()
        ))
        .join("tandem.sock"),
    }
}
