//! `tandem journal verify JOURNAL [--json]`: checks a game journal's hash
//! chain and names the first bad line (exit 1), or reports it good (exit 0).
//! A torn last line (an incomplete write after a power loss) is reported but
//! is not tampering: the exit stays 0.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::journal::Journal;

/// Arguments of `tandem journal`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: JournalCommand,
}

/// `tandem journal` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum JournalCommand {
    /// Check the hash chain; exit 1 and name the first bad line if any.
    Verify {
        /// The journal file (JSON lines).
        journal: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `tandem journal`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        JournalCommand::Verify { journal, json } => verify(&journal, json),
    }
}

fn verify(path: &std::path::Path, json: bool) -> anyhow::Result<ExitCode> {
    let j = Journal::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let ok = j.bad.is_none();
    let mut out = std::io::stdout().lock();
    if json {
        let v = serde_json::json!({
            "ok": ok,
            "lines": j.records.len(),
            "head": j.head,
            "bad": j.bad,
            "torn": j.torn,
        });
        writeln!(out, "{v}")?;
    } else {
        if let Some(t) = &j.torn {
            writeln!(
                out,
                "{}: line {}: torn ({}), dropped",
                path.display(),
                t.line,
                t.reason
            )?;
        }
        match &j.bad {
            Some(b) => writeln!(out, "{}: line {}: {}", path.display(), b.line, b.reason)?,
            None => writeln!(
                out,
                "{}: {} lines, chain intact, head {}",
                path.display(),
                j.records.len(),
                j.head
            )?,
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
