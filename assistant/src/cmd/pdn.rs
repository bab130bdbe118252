//! `tandem pdn check|export` (being built).

use std::process::ExitCode;

/// `tandem pdn` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum PdnCommand {
    /// Replay every game in the files and report the first illegal move of each.
    Check {
        /// Print one JSON object per game and a summary object.
        #[arg(long)]
        json: bool,
        /// PDN files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

/// Runs `tandem pdn`.
pub fn run(_c: PdnCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("pdn check is not built yet")
}
