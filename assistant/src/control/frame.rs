//! The JSON shapes of the control protocol.

use serde::{Deserialize, Serialize};

use crate::session::{Notice, Reply};

/// One request line: `{"cmd":"move","arg":"32-28","id":7}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The command word (`move`, `done`, `clock`, `position`, `last`,
    /// `state`, `missing`, `mismatch`, `pause`, `resume`, `draw`, `resign`,
    /// `say`, `help`, `subscribe`, and the arbiter's `clock set`, `takeback`).
    pub cmd: String,
    /// Its argument, if any (`"32-28"`, `"white"`, `"offer black"`, a text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg: Option<String>,
    /// Echoed in the reply, to match answers to questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<serde_json::Value>,
    /// The arbiter's secret, for arbiter actions (`clock set`, `takeback`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// The seat that asks (`tandem ctl --seat white`): the answer goes to
    /// that seat's outputs only, and a move is taken only for its side.
    /// Absent: the table's own channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<tandem_rules::Color>,
}

/// One reply line: the session's [`Reply`] and the request's `id`.
#[derive(Debug, Clone, Serialize)]
pub struct Response {
    /// The request's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<serde_json::Value>,
    /// The answer.
    #[serde(flatten)]
    pub reply: Reply,
}

/// A line of the event stream after `subscribe`: a [`Notice`] (`{"event":"speech",…}`).
pub type EventLine = Notice;

/// An error reply for a request that could not be read or understood.
#[must_use]
pub fn error(id: Option<serde_json::Value>, why: impl Into<String>) -> Response {
    Response {
        id,
        reply: Reply {
            ok: false,
            error: Some(why.into()),
            ..Reply::default()
        },
    }
}
