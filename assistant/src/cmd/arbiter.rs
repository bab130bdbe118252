//! `tandem arbiter` (being built).

use std::process::ExitCode;

/// Arguments of `tandem arbiter`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `tandem arbiter`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("arbiter is not built yet")
}
