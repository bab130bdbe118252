//! `tandem braille render` (being built).

use std::process::ExitCode;

/// `tandem braille` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum BrailleCommand {
    /// Print a braille view of a position.
    Render(RenderArgs),
}

/// Arguments of `tandem braille render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {}

/// Runs `tandem braille`.
pub fn run(_c: BrailleCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("braille is not built yet")
}
