//! The table's `report` lines in a journal (issue 41): which binary wrote
//! it, whether the game was rated, whether the report came before the
//! first move and whether the binary changed on the way (a resume by
//! another build). Shown by `tandem journal verify` and `tandem arbiter
//! report`.

use serde::Serialize;

use super::{Event, Journal};
use crate::report::Report;

/// One `report` line.
#[derive(Debug, Clone, Serialize)]
pub struct ReportAt {
    /// Its line number.
    pub line: u64,
    /// Whether no move (or game action) came before it.
    pub before_first_move: bool,
    /// The report.
    pub report: Report,
}

/// What a journal's report lines say.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Reports {
    /// Every report line, in order.
    pub lines: Vec<ReportAt>,
    /// Whether two report lines name different binaries.
    pub binary_changed: bool,
    /// Whether the game is rated (its first report says so).
    pub rated: bool,
}

impl Reports {
    /// The report lines of `j`.
    #[must_use]
    pub fn of(j: &Journal) -> Reports {
        let mut moved = false;
        let mut lines = Vec::new();
        for r in &j.records {
            match &r.event {
                Event::Move { .. } | Event::Action { .. } => moved = true,
                Event::Report(rep) => lines.push(ReportAt {
                    line: r.seq,
                    before_first_move: !moved,
                    report: (**rep).clone(),
                }),
                _ => {}
            }
        }
        let binary_changed = lines
            .windows(2)
            .any(|w| w[0].report.binary_sha256 != w[1].report.binary_sha256);
        let rated = lines.first().is_some_and(|l| l.report.rated);
        Reports {
            lines,
            binary_changed,
            rated,
        }
    }

    /// In words, one line each, for the arbiter.
    #[must_use]
    pub fn text(&self) -> Vec<String> {
        if self.lines.is_empty() {
            return vec![
                "no report line: the table's binary is not recorded (a journal of a tandem \
                 before issue 41)"
                    .to_owned(),
            ];
        }
        let mut out: Vec<String> = self
            .lines
            .iter()
            .map(|l| {
                let when = if l.before_first_move {
                    ""
                } else {
                    " (after the first move: a resume)"
                };
                format!("line {}: {}{when}", l.line, l.report.summary())
            })
            .collect();
        if self.binary_changed {
            out.push("the binary CHANGED during the game: compare the hashes above".to_owned());
        }
        if self.rated && !self.lines[0].before_first_move {
            out.push("rated, but the first report line comes after a move".to_owned());
        }
        out
    }
}
