//! The control socket: a Unix socket (mode 0600) speaking JSON lines, one
//! request a line and one reply a line, plus an optional event stream. Split
//! like mini-redis: [`frame`] (the JSON shapes), [`connection`] (reading
//! bounded lines), [`cmd`] (requests to session commands) and [`server`]
//! (the accept loop with an injected shutdown). The protocol is documented in
//! `docs/protocol.md`.
//!
//! Limits (nothing a client sends can make the daemon grow without bound):
//! a request line is at most [`MAX_LINE`] bytes, at most [`MAX_CONNECTIONS`]
//! clients are served at once, and an event subscriber that falls more than
//! [`EVENT_QUEUE`] events behind is told so and dropped (the session never
//! waits for a subscriber).

pub mod cmd;
pub mod connection;
pub mod frame;
pub mod server;

use std::path::PathBuf;

use crate::session::Cmd;
use frame::Request;

/// The longest request line accepted; a longer one closes that connection.
pub const MAX_LINE: usize = 64 * 1024;

/// Clients served at once; one more is told so and closed.
pub const MAX_CONNECTIONS: usize = 32;

/// Events queued for the subscribers (the broadcast channel's capacity): a
/// subscriber further behind is sent `lagged` and disconnected.
pub const EVENT_QUEUE: usize = 256;

/// What one request line means, before it reaches the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// An empty line: ignored.
    Empty,
    /// `subscribe`: the event stream on this connection.
    Subscribe(Option<serde_json::Value>),
    /// A session command, with the request's id and the arbiter secret it carried.
    Cmd {
        /// The request (for its id and secret).
        request: Request,
        /// The command.
        cmd: Cmd,
    },
    /// An error reply (the id when the request could be read, and why).
    Error(Option<serde_json::Value>, String),
}

/// Parses one request line (its bytes without the newline), exactly as the
/// server does: UTF-8, JSON, the command word and its argument. Never panics
/// (fuzzed: `fuzz/fuzz_targets/control_request.rs`).
#[must_use]
pub fn parse_request(line: &[u8]) -> Parsed {
    let Ok(text) = std::str::from_utf8(line) else {
        return Parsed::Error(None, "request is not UTF-8".into());
    };
    if text.trim().is_empty() {
        return Parsed::Empty;
    }
    let request: Request = match serde_json::from_str(text) {
        Ok(r) => r,
        Err(e) => return Parsed::Error(None, format!("malformed request: {e}")),
    };
    if request.cmd == "subscribe" {
        return Parsed::Subscribe(request.id);
    }
    match cmd::to_cmd(&request.cmd, request.arg.as_deref()) {
        Ok(cmd) => Parsed::Cmd { request, cmd },
        Err(why) => Parsed::Error(request.id, why),
    }
}

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
