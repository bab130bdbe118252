//! `tandem ctl` (being built).

use std::process::ExitCode;

/// Arguments of `tandem ctl`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `tandem ctl`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("ctl is not built yet")
}
