//! A break in a table's chain (an edit, a removal, a reordering): kept on
//! disk (`table-N.jsonl.broken`) until the arbiter acknowledges it, so
//! `chain_ok` stays false across new games and restarts of the desk. A
//! break found in the desk's own copy when it starts is kept too: the whole
//! copy moved aside (`table-N.jsonl.broken-K`, never over another), the
//! lines before the break but the last (which may be the line edited) kept
//! as the copy (the table is asked for the rest, as after any restart).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::{cut, TableCopy, MAX_ALERT_TEXT};
use crate::journal::BadLine;
use crate::relay::proto::Alert;

/// `FILE.broken-K`, the first such name (from 1) that is free.
fn free_aside(file: &Path) -> PathBuf {
    let mut k = 1u32;
    loop {
        let mut name = file.file_name().unwrap_or_default().to_owned();
        name.push(format!(".broken-{k}"));
        let p = file.with_file_name(name);
        if !p.exists() {
            return p;
        }
        k += 1;
    }
}

impl TableCopy {
    /// `table-N.jsonl.broken`: the first break of the chain, kept until the arbiter acknowledges it.
    pub(super) fn broken_file(&self) -> PathBuf {
        let mut name = self.file.file_name().unwrap_or_default().to_owned();
        name.push(".broken");
        self.file.with_file_name(name)
    }

    /// The arbiter has seen the broken chain: `chain_ok` is true again (the
    /// alerts stay in the list).
    ///
    /// # Errors
    /// The mark on disk cannot be removed.
    pub fn acknowledge(&mut self) -> std::io::Result<()> {
        match std::fs::remove_file(self.broken_file()) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        self.chain_ok = true;
        Ok(())
    }

    /// The copy read at start (`bytes`) breaks at `bad`; its first `good`
    /// bytes hold the `lines` lines kept: the whole copy is moved aside, the
    /// lines kept written back as the copy, and the break marked on disk
    /// first (unless an earlier one is marked and not yet acknowledged) and raised.
    ///
    /// # Errors
    /// The copy cannot be moved aside or written back: nothing is lost, and
    /// the desk says so.
    pub(super) fn keep_broken_at_start(
        &mut self,
        bytes: &[u8],
        good: usize,
        bad: &BadLine,
        lines: usize,
    ) -> std::io::Result<()> {
        let aside = free_aside(&self.file);
        let why = |what: &str, e: std::io::Error| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "the desk's copy {} is broken at line {}, and cannot be {what}: {e}",
                    self.file.display(),
                    bad.line
                ),
            )
        };
        let text = cut(
            &format!(
                "The desk's copy of table {} was broken at line {}: {}. The whole copy is kept as {}; \
                 the desk keeps its first {lines} lines and asks the table for the rest.",
                self.table,
                bad.line,
                bad.reason,
                aside.file_name().unwrap_or_default().to_string_lossy()
            ),
            MAX_ALERT_TEXT,
        );
        // The mark first: a desk stopped before the copy is written back
        // still finds the break at its next start.
        let marked = self.broken_file();
        if !marked.exists() {
            std::fs::write(&marked, text.as_bytes()).map_err(|e| why("marked as broken", e))?;
        }
        std::fs::rename(&self.file, &aside).map_err(|e| why("moved aside", e))?;
        let mut f = std::fs::File::create(&self.file)
            .map_err(|e| why("started again from its good lines", e))?;
        f.write_all(&bytes[..good])
            .and_then(|()| f.sync_all())
            .map_err(|e| why("started again from its good lines", e))?;
        self.chain_broken(text);
        Ok(())
    }

    pub(super) fn chain_alert(&mut self, text: String) {
        if self.chain_ok {
            // The first break is kept on disk until the arbiter acknowledges it.
            let f = self.broken_file();
            if let Err(e) = std::fs::write(&f, text.as_bytes()) {
                tracing::error!("hall: cannot write {}: {e}", f.display());
            }
        }
        self.chain_broken(text);
    }

    /// The copy's chain no longer holds: the arbiter is told `text`.
    fn chain_broken(&mut self, text: String) {
        self.chain_ok = false;
        self.raise(Alert {
            kind: "chain".into(),
            text,
            seq: None,
            wall: crate::journal::wall_now(),
        });
    }
}
