//! A table's `report` lines in its copy (issue 41): the latest one, and
//! the `build` alert of a report unlike the game's earlier one. The
//! event's other tables are compared in `hall::build`.

use std::sync::Arc;

use crate::journal::{Event, Record};
use crate::relay::proto::Alert;
use crate::report::Report;

/// The latest report of a table's current game.
#[must_use]
pub fn latest(records: &[Arc<Record>]) -> Option<&Report> {
    records.iter().rev().find_map(|r| match &r.event {
        Event::Report(rep) => Some(&**rep),
        _ => None,
    })
}

/// The first 16 hex digits of a hash (as the desk's page and the report's
/// PDF group them: two groups of eight).
pub(crate) fn short(hash: &str) -> &str {
    hash.get(..16).unwrap_or(hash)
}

/// The `build` alert of `new`, a line taken after `held` in a table's
/// copy: a report unlike the game's earlier one.
#[must_use]
pub fn changed(held: &[Arc<Record>], new: &Record, table: u32) -> Option<Alert> {
    let Event::Report(now) = &new.event else {
        return None;
    };
    let before = latest(held)?;
    let what = if before.binary_sha256 != now.binary_sha256 {
        format!(
            "its binary changed from {} to {}",
            short(&before.binary_sha256),
            short(&now.binary_sha256)
        )
    } else if before.rated != now.rated {
        format!(
            "it is {} now",
            if now.rated { "rated" } else { "NOT rated" }
        )
    } else if before.listens != now.listens
        || before.connects != now.connects
        || before.inputs != now.inputs
        || before.allow != now.allow
    {
        "what it opens changed (inputs, listens, connects or --allow)".to_owned()
    } else {
        return None;
    };
    Some(Alert {
        kind: "build".into(),
        text: format!(
            "Table {table}'s report changed during the game at line {}: {what}.",
            new.seq
        ),
        seq: Some(new.seq),
        wall: crate::journal::wall_now(),
    })
}
