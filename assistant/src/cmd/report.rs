//! `tandem report [the options of tandem play…] [--json] [--pdf FILE]`:
//! what `tandem play` with the same options and config file would run,
//! without starting it (issue 41; docs/tournament.md): the report is made
//! by [`crate::table::report`] from the table's list of parts.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `tandem report`: those of `tandem play`, and how to print.
#[derive(Debug, clap::Args)]
#[group(id = "report")]
pub struct Args {
    #[command(flatten)]
    pub play: super::play::Args,
    /// One JSON object (the fields of docs/tournament.md).
    #[arg(long)]
    pub json: bool,
    /// One page for the arbiter to sign, with the binary's hash as text
    /// and as a QR code.
    #[arg(long, value_name = "FILE")]
    pub pdf: Option<PathBuf>,
}

/// Runs `tandem report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = super::play::config(&args.play)?;
    let report = crate::table::report(&config, None);
    if let Some(p) = &args.pdf {
        let bytes = crate::export::report_pdf(&report)?;
        std::fs::write(p, bytes)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?;
    }
    let mut out = std::io::stdout().lock();
    use std::io::Write as _;
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report.text())?;
        if let Some(why) = crate::table::refusal(&config, &report) {
            writeln!(out, "tandem play would refuse to start: {why}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
