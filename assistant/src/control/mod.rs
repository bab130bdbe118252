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
/// subscriber further behind is sent `lagged` and disconnected. 4096 notices
/// hold a whole long game (a few MB at most) for a client that reads late.
pub const EVENT_QUEUE: usize = 4096;

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
    // The id is echoed as sent: a string or a whole number (a float may not
    // survive the round trip: found by fuzzing, `control_request`).
    if let Some(id) = &request.id {
        if !(id.is_string() || id.is_u64() || id.is_i64() || id.is_null()) {
            return Parsed::Error(None, "id must be a string or a whole number".into());
        }
    }
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

/// Checks that `dir` (the socket's folder in a shared place such as `/tmp`)
/// is a real folder of this user that nobody else may write in: otherwise
/// another user who made it first could read or replace the socket.
///
/// # Errors
/// Why the folder is not private.
pub fn check_private_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(dir)
        .map_err(|e| anyhow::anyhow!("cannot check {}: {e}", dir.display()))?;
    let me = rustix::process::getuid().as_raw();
    anyhow::ensure!(
        m.file_type().is_dir(),
        "{} is not a folder (a link?): refusing to put the control socket there; remove it, or set XDG_RUNTIME_DIR",
        dir.display()
    );
    anyhow::ensure!(
        m.uid() == me,
        "{} belongs to another user (uid {}): refusing to put the control socket there; remove it, or set XDG_RUNTIME_DIR",
        dir.display(),
        m.uid()
    );
    anyhow::ensure!(
        m.mode() & 0o022 == 0,
        "{} is open to other users' writes (mode {:o}): refusing to put the control socket there; chmod 700 it, or set XDG_RUNTIME_DIR",
        dir.display(),
        m.mode() & 0o777
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_socket_folder_must_be_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("s");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(check_private_dir(&dir).is_ok());
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = check_private_dir(&dir).unwrap_err().to_string();
        assert!(e.contains("open to other users"), "{e}");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let link = d.path().join("l");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let e = check_private_dir(&link).unwrap_err().to_string();
        assert!(e.contains("not a folder"), "{e}");
    }

    #[test]
    fn request_lines_parse_as_the_server_reads_them() {
        assert_eq!(parse_request(b"  "), Parsed::Empty);
        assert!(matches!(parse_request(b"\xff\xfe"), Parsed::Error(None, _)));
        assert!(matches!(
            parse_request(b"{not json"),
            Parsed::Error(None, _)
        ));
        assert_eq!(
            parse_request(br#"{"cmd":"subscribe","id":3}"#),
            Parsed::Subscribe(Some(3.into()))
        );
        let Parsed::Cmd { request, cmd } =
            parse_request(br#"{"cmd":"takeback","arg":"1 x","secret":"s","id":"a"}"#)
        else {
            panic!()
        };
        assert_eq!(cmd, Cmd::Takeback(1, "x".into()));
        assert_eq!(request.secret.as_deref(), Some("s"));
        assert!(matches!(
            parse_request(br#"{"cmd":"done","arg":"green","id":5}"#),
            Parsed::Error(Some(_), _)
        ));
    }

    /// Fuzz find (control_request, crash-399393af): a 100-digit id became a
    /// float that did not echo back as sent. Ids are strings or whole numbers.
    #[test]
    fn regression_a_huge_numeric_id_is_refused_not_mangled() {
        let line = format!(
            r#"{{"cmd":"move","arg":"32-28","id":7{}}}"#,
            "3".repeat(100)
        );
        assert!(matches!(
            parse_request(line.as_bytes()),
            Parsed::Error(None, _)
        ));
        assert!(matches!(
            parse_request(br#"{"cmd":"move","arg":"32-28","id":1.5}"#),
            Parsed::Error(None, _)
        ));
        assert!(matches!(
            parse_request(br#"{"cmd":"move","arg":"32-28","id":-7}"#),
            Parsed::Cmd { .. }
        ));
    }
}
