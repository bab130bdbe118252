//! `tandem hear` (being built).

use std::process::ExitCode;

/// Arguments of `tandem hear`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `tandem hear`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("hear is not built yet")
}
