//! `tandem journal` (being built).

use std::process::ExitCode;

/// Arguments of `tandem journal`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `tandem journal`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("journal is not built yet")
}
