//! Which build each table runs (issue 41; FIDE Laws 11.3.2.1): the
//! table's `report` journal line names its binary's SHA-256 and whether
//! the game is rated. `/api/tables` shows them, and a `build` alert is
//! raised when a table's report changes during its game (a resume by
//! another binary, or a rated game resumed unrated) or when the tables of
//! the event run different binaries.

use std::collections::BTreeMap;

use super::store::reports::short;
pub use super::store::reports::{changed, latest};
use super::store::TableCopy;
use crate::journal::Event;
use crate::relay::proto::Alert;

/// The `build` alert of table `n` when its binary is not every other
/// table's (the tables of one event should run one build): `None` when
/// they agree, or `n` has no report yet.
#[must_use]
pub fn unlike_others(tables: &BTreeMap<u32, TableCopy>, n: u32) -> Option<Alert> {
    let mine = &latest(&tables.get(&n)?.records)?.binary_sha256;
    let others: Vec<String> = tables
        .iter()
        .filter(|(k, _)| **k != n)
        .filter_map(|(k, t)| {
            let h = &latest(&t.records)?.binary_sha256;
            (h != mine).then(|| format!("table {k} runs {}", short(h)))
        })
        .collect();
    if others.is_empty() {
        return None;
    }
    Some(Alert {
        kind: "build".into(),
        text: format!(
            "Table {n} runs binary {}, unlike the other tables: {}. Compare each table's \
             `tandem report` with the published build.",
            short(mine),
            others.join(", ")
        ),
        seq: None,
        wall: crate::journal::wall_now(),
    })
}

/// After table `n` took lines (its records from `from` on): when one is a
/// report, its `build` alert if its binary is not the others'
/// ([`unlike_others`]), raised on the table and returned.
pub fn after_lines(tables: &mut BTreeMap<u32, TableCopy>, n: u32, from: usize) -> Option<Alert> {
    let t = tables.get(&n)?;
    let new_report = t.records[t.records.len().min(from)..]
        .iter()
        .any(|r| matches!(r.event, Event::Report(_)));
    if !new_report {
        return None;
    }
    let a = unlike_others(tables, n)?;
    tables.get_mut(&n)?.raise(a.clone()).then_some(a)
}
