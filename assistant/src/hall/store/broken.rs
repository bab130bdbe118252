//! A break in a table's chain (an edit, a removal, a reordering): kept on
//! disk (`table-N.jsonl.broken`) until the arbiter acknowledges it, so
//! `chain_ok` stays false across new games and restarts of the desk.

use std::path::PathBuf;

use super::TableCopy;
use crate::relay::proto::Alert;

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

    pub(super) fn chain_alert(&mut self, text: String) {
        if self.chain_ok {
            // The first break is kept on disk until the arbiter acknowledges it.
            let f = self.broken_file();
            if let Err(e) = std::fs::write(&f, text.as_bytes()) {
                tracing::error!("hall: cannot write {}: {e}", f.display());
            }
        }
        self.chain_ok = false;
        self.raise(Alert {
            kind: "chain".into(),
            text,
            seq: None,
            wall: crate::journal::wall_now(),
        });
    }
}
