//! `tandem play` (being built).

use std::process::ExitCode;

/// Arguments of `tandem play`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `tandem play`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("play is not built yet")
}
