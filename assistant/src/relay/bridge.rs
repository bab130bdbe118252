//! The relay's side of the control socket, as `tandem ctl events`, `state`
//! and `tandem ctl pause` use it (through [`crate::client::Client`]): it
//! needs nothing from the session's insides.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::client::Client;

/// Follows the daemon's events on a thread of its own (the client is
/// blocking): each event line is sent on; after (re)connecting, the current
/// state first. Ends when the receiver is gone.
pub fn follow(socket: PathBuf, tx: mpsc::UnboundedSender<Value>) {
    let spawned = std::thread::Builder::new()
        .name("tandem-relay-events".into())
        .spawn(move || loop {
            if let Ok(mut c) = Client::connect(&socket) {
                let _ = c.set_timeout(None);
                if c.subscribe().is_ok() {
                    if let Ok(v) = c.request("state", None) {
                        if let Some(Value::Object(mut st)) = v.get("state").cloned() {
                            st.insert("event".into(), json!("state"));
                            if tx.send(Value::Object(st)).is_err() {
                                return;
                            }
                        }
                    }
                    while let Ok(v) = c.next_line() {
                        if tx.send(v).is_err() {
                            return;
                        }
                    }
                }
            }
            if tx.is_closed() {
                return;
            }
            // The daemon is starting, or dropped us as a slow reader: again.
            std::thread::sleep(Duration::from_millis(300));
        });
    if let Err(e) = spawned {
        tracing::error!("relay: cannot follow the table's events: {e}");
    }
}

/// What became of a command sent to the daemon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The daemon answered `ok`.
    Done,
    /// The daemon answered and refused.
    Refused,
    /// No answer (the connection failed or closed first): it may or may not
    /// have been done.
    Unconfirmed,
    /// The daemon answered `ok` but the change is not yet safe on the
    /// table's disk (its journal cannot be written: the reply's `unsaved`).
    Unsaved,
}

/// Sends one command to the daemon as a control client would and returns
/// what became of it and what it said (blocking: call on a blocking thread).
/// Done only when the daemon answered `ok` and the change is on its disk.
#[must_use]
pub fn act(socket: &Path, cmd: &str, arg: Option<&str>) -> (Outcome, String) {
    act_with(socket, cmd, arg, None)
}

/// [`act`], with `secret` (the relay's token) for the arbiter's acts
/// (`takeback`, `clock set`) of a desk command whose signature was checked.
#[must_use]
pub fn act_with(
    socket: &Path,
    cmd: &str,
    arg: Option<&str>,
    secret: Option<&str>,
) -> (Outcome, String) {
    let result = Client::connect(socket).and_then(|mut c| {
        c.set_timeout(Some(Duration::from_secs(10)))?;
        match secret {
            Some(s) => c.request_with_secret(cmd, arg, s),
            None => c.request(cmd, arg),
        }
    });
    match result {
        Ok(v) => {
            let ok = v["ok"] == true;
            let said: Vec<&str> = v["said"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let text = match (ok, v["error"].as_str()) {
                (false, Some(e)) => e.to_owned(),
                _ => said.join(" "),
            };
            if ok && v["unsaved"].is_object() {
                let why = crate::client::unsaved_text(&v["unsaved"]);
                return (
                    Outcome::Unsaved,
                    format!("not confirmed: at the table: {why} ({text})"),
                );
            }
            (if ok { Outcome::Done } else { Outcome::Refused }, text)
        }
        Err(e) if e.downcast_ref::<crate::client::NoReply>().is_some() => (
            Outcome::Unconfirmed,
            format!(
                "not confirmed: the table's daemon did not answer ({e:#}); \
                 the table's state shows whether it was done"
            ),
        ),
        // Not connected: nothing was sent, so nothing was done.
        Err(e) => (
            Outcome::Refused,
            format!("not done: the table's daemon cannot be reached: {e:#}"),
        ),
    }
}
