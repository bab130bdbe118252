//! `tandem arbiter reconcile` and `diff` for backgammon.

use std::path::Path;
use std::process::ExitCode;

use super::{ArbiterGame, DiffArgs, ReconcileArgs};
use crate::game::GameKind;

/// Backgammon at `tandem arbiter`.
pub struct BackgammonArbiter;

impl ArbiterGame for BackgammonArbiter {
    fn claims_record(&self, _path: &Path, _table: &str) -> anyhow::Result<bool> {
        Ok(false)
    }

    fn claims_position(&self, _text: &str) -> bool {
        false
    }

    fn reconcile(&self, _args: &ReconcileArgs, _kind: GameKind) -> anyhow::Result<ExitCode> {
        anyhow::bail!("not yet")
    }

    fn diff(&self, _args: &DiffArgs, _kind: GameKind) -> anyhow::Result<ExitCode> {
        anyhow::bail!("not yet")
    }
}
