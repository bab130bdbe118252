//! A blocking client for the control socket, used by `tandem ctl` and by the
//! integration tests.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use serde_json::Value;

use crate::control::frame::Request;

/// The arbiter's secret for an arbiter action (`clock set …`, `takeback …`,
/// and `pause`, `resume`, `say` sent by the arbiter), from
/// `TANDEM_ARBITER_SECRET` or the file named by `TANDEM_ARBITER_SECRET_FILE`;
/// never sent with other requests.
fn arbiter_secret(cmd: &str, arg: Option<&str>) -> Option<String> {
    // The clock's pause and resume and the words said are the arbiter's too
    // when the arbiter sends them (journaled `"source": "arbiter"`).
    let arbiter = matches!(cmd, "takeback" | "pause" | "resume" | "say")
        || (cmd == "clock" && arg.is_some_and(|a| !a.trim().is_empty()));
    if !arbiter {
        return None;
    }
    std::env::var("TANDEM_ARBITER_SECRET").ok().or_else(|| {
        let f = std::env::var_os("TANDEM_ARBITER_SECRET_FILE")?;
        std::fs::read_to_string(f).ok()
    })
}

/// A request whose reply never came: the connection failed or was closed
/// (the daemon died, was killed or restarted) between sending it and its
/// reply. The request may or may not have been carried out, so this is never
/// a success, and the message says how to find out (`tandem ctl state`).
///
/// `tandem` exits 2 with this message; the relay reports it to the desk as
/// not confirmed (neither done nor refused).
#[derive(Debug, thiserror::Error)]
#[error(
    "`{cmd}` got no reply from tandem at {socket} ({cause:#}): it may not have been \
     carried out; check with `tandem ctl{socket_arg} state`"
)]
pub struct NoReply {
    /// The request's command.
    pub cmd: String,
    /// The socket it was sent to.
    pub socket: String,
    /// ` --socket PATH` when the socket is not the default one, for the hint.
    socket_arg: String,
    /// What failed (in the message, not a source: a broken pipe here is the
    /// control socket's, never a closed stdout).
    pub cause: anyhow::Error,
}

/// A connection to a running daemon.
#[derive(Debug)]
pub struct Client {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    path: PathBuf,
}

impl Client {
    /// Connects to the socket at `path`.
    ///
    /// # Errors
    /// No daemon listens there.
    pub fn connect(path: &Path) -> anyhow::Result<Client> {
        let s = UnixStream::connect(path)
            .with_context(|| format!("cannot connect to tandem at {}", path.display()))?;
        let writer = s.try_clone()?;
        Ok(Client {
            reader: BufReader::new(s),
            writer,
            path: path.to_owned(),
        })
    }

    /// `cause`, as the failure of `cmd` before its reply.
    fn no_reply(&self, cmd: &str, cause: anyhow::Error) -> anyhow::Error {
        let default = self.path == crate::control::default_socket_path();
        NoReply {
            cmd: cmd.to_owned(),
            socket: self.path.display().to_string(),
            socket_arg: if default {
                String::new()
            } else {
                format!(" --socket {}", self.path.display())
            },
            cause,
        }
        .into()
    }

    /// Sets how long to wait for a reply or an event (`None`: forever).
    ///
    /// # Errors
    /// The socket refused the setting.
    pub fn set_timeout(&self, t: Option<Duration>) -> anyhow::Result<()> {
        self.writer.set_read_timeout(t)?;
        Ok(())
    }

    /// Sends a raw line (for tests of malformed input) and reads one line back.
    ///
    /// # Errors
    /// The connection failed or was closed ([`NoReply`]).
    pub fn raw(&mut self, line: &str) -> anyhow::Result<Value> {
        let sent = (|| -> anyhow::Result<Value> {
            self.writer.write_all(line.as_bytes())?;
            self.writer.write_all(b"\n")?;
            self.next_line()
        })();
        sent.map_err(|e| self.no_reply(line, e))
    }

    /// Sends one request and returns its reply (events that arrive first are skipped).
    ///
    /// A reply is what the daemon said: whether it did the request is its
    /// `ok` field.
    ///
    /// # Errors
    /// The connection failed or was closed before the reply ([`NoReply`]:
    /// the request may or may not have been carried out).
    pub fn request(&mut self, cmd: &str, arg: Option<&str>) -> anyhow::Result<Value> {
        self.request_as(cmd, arg, None)
    }

    /// [`Client::request`] as a seat's (`tandem ctl --seat SIDE`): answered
    /// to that seat only.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub fn request_as(
        &mut self,
        cmd: &str,
        arg: Option<&str>,
        seat: Option<tandem_rules::Color>,
    ) -> anyhow::Result<Value> {
        let req = Request {
            cmd: cmd.to_owned(),
            arg: arg.map(str::to_owned),
            id: None,
            secret: arbiter_secret(cmd, arg),
            seat,
        };
        self.send(&req)
    }

    /// [`Client::request`] with the arbiter's authority given as `secret`
    /// (the table's relay carrying out a desk command it checked), not
    /// taken from the environment.
    ///
    /// # Errors
    /// As [`Client::request`].
    pub fn request_with_secret(
        &mut self,
        cmd: &str,
        arg: Option<&str>,
        secret: &str,
    ) -> anyhow::Result<Value> {
        self.send(&Request {
            cmd: cmd.to_owned(),
            arg: arg.map(str::to_owned),
            id: None,
            secret: Some(secret.to_owned()),
            seat: None,
        })
    }

    fn send(&mut self, req: &Request) -> anyhow::Result<Value> {
        let (cmd, arg) = (req.cmd.as_str(), req.arg.as_deref());
        let mut line = serde_json::to_vec(req)?;
        line.push(b'\n');
        let name = match arg {
            Some(a) => format!("{cmd} {a}"),
            None => cmd.to_owned(),
        };
        let reply = (|| -> anyhow::Result<Value> {
            self.writer.write_all(&line)?;
            loop {
                let v = self.next_line()?;
                if v.get("event").is_none() {
                    return Ok(v);
                }
            }
        })();
        reply.map_err(|e| self.no_reply(&name, e))
    }

    /// Subscribes this connection to the event stream.
    ///
    /// # Errors
    /// The connection failed.
    pub fn subscribe(&mut self) -> anyhow::Result<()> {
        let v = self.request("subscribe", None)?;
        anyhow::ensure!(v["ok"] == true, "subscribe refused: {v}");
        Ok(())
    }

    /// The next line (a reply or an event).
    ///
    /// # Errors
    /// The connection was closed, timed out, or sent something not JSON.
    pub fn next_line(&mut self) -> anyhow::Result<Value> {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line)?;
        anyhow::ensure!(n > 0, "tandem closed the connection");
        serde_json::from_str(&line).with_context(|| format!("tandem sent {line:?}"))
    }
}

/// The exit code of a request carried out but not yet safe on disk.
pub const UNSAVED: u8 = 3;

/// What `ctl` says of a request carried out whose journal line is not yet
/// in the journal file (the reply's `unsaved`, a `journal_health`).
#[must_use]
pub fn unsaved_text(h: &Value) -> String {
    let error = h["error"].as_str().unwrap_or("unknown error");
    let pending = h["pending"].as_u64().unwrap_or(0);
    let kept = match (h["fallback"].as_str(), h["fallback_ok"] == true) {
        (Some(f), true) => format!(
            "kept in memory and in the fallback copy {f} (if tandem stops before \
             the disk is fixed, resume that copy: `tandem play --resume {f}`)"
        ),
        _ => "kept in memory only (no copy could be written: if tandem stops \
              before the disk is fixed, they are lost)"
            .to_owned(),
    };
    format!(
        "carried out, but NOT yet safe on disk: the journal file cannot be \
         written ({error}); {pending} line(s) not in it are {kept}. tandem \
         writes them as soon as the file can be written again; free the disk and \
         call the arbiter; `tandem ctl state` shows `journal_health`"
    )
}
