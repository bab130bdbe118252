//! `tandem say` (being built).

use std::process::ExitCode;

/// Arguments of `tandem say`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `tandem say`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("say is not built yet")
}
