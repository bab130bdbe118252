//! `tandem clock presets|replay` (being built).

use std::process::ExitCode;

/// `tandem clock` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum ClockCommand {
    /// List the time-control presets with their written form.
    Presets,
}

/// Runs `tandem clock`.
pub fn run(_c: ClockCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("clock is not built yet")
}
