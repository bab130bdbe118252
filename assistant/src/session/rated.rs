//! A rated table (issue 41; FIDE Laws 11.3.2.1): the table's report as a
//! journal line before the first move, and refused moves without hints.

use crate::journal::Event;
use crate::report::Report;

use super::Session;

impl Session {
    /// Journals the table's report (a `report` line: after `start`, before
    /// the first move; after `resumed` on a resume) and words the game's
    /// refusals as it says: without the pieces or squares that could move
    /// in a rated game unless `--allow hints`. The session never asks
    /// which game it is: the game words its own refusals.
    ///
    /// # Errors
    /// The journal cannot be written.
    pub fn report(&mut self, report: Report) -> anyhow::Result<()> {
        self.table.game.set_hints(report.hints());
        self.record(Event::Report(Box::new(report)))?;
        Ok(())
    }
}
