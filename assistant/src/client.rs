//! A blocking client for the control socket, used by `tandem ctl` and by the
//! integration tests.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use serde_json::Value;

use crate::control::frame::Request;

/// The arbiter's secret for an arbiter action (`clock set …`, `takeback …`),
/// from `TANDEM_ARBITER_SECRET` or the file named by `TANDEM_ARBITER_SECRET_FILE`;
/// never sent with other requests.
fn arbiter_secret(cmd: &str, arg: Option<&str>) -> Option<String> {
    let arbiter =
        cmd == "takeback" || (cmd == "clock" && arg.is_some_and(|a| !a.trim().is_empty()));
    if !arbiter {
        return None;
    }
    std::env::var("TANDEM_ARBITER_SECRET").ok().or_else(|| {
        let f = std::env::var_os("TANDEM_ARBITER_SECRET_FILE")?;
        std::fs::read_to_string(f).ok()
    })
}

/// A connection to a running daemon.
#[derive(Debug)]
pub struct Client {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
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
        })
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
    /// The connection failed or was closed.
    pub fn raw(&mut self, line: &str) -> anyhow::Result<Value> {
        self.writer.write_all(line.as_bytes())?;
        self.writer.write_all(b"\n")?;
        self.next_line()
    }

    /// Sends one request and returns its reply (events that arrive first are skipped).
    ///
    /// # Errors
    /// The connection failed or was closed.
    pub fn request(&mut self, cmd: &str, arg: Option<&str>) -> anyhow::Result<Value> {
        let req = Request {
            cmd: cmd.to_owned(),
            arg: arg.map(str::to_owned),
            id: None,
            secret: arbiter_secret(cmd, arg),
        };
        let mut line = serde_json::to_vec(&req)?;
        line.push(b'\n');
        self.writer.write_all(&line)?;
        loop {
            let v = self.next_line()?;
            if v.get("event").is_none() {
                return Ok(v);
            }
        }
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
