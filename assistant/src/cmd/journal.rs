//! `tandem journal verify JOURNAL [--json] [--desk-key desk.pub]
//! [--require-witness]`: checks a game journal's hash chain and names the
//! first bad line (exit 1), or reports it good (exit 0); with the desk's
//! public key, also every `witness` line (the desk's signature of a line's
//! hash: docs/protocol.md, "Witnesses"). A torn last line (an incomplete
//! write after a power loss) is reported but is not tampering: the exit
//! stays 0.

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
    /// Check the hash chain (and, with --desk-key, the hall desk's witness
    /// lines); exit 1 and name the first bad line if any.
    Verify {
        /// The journal file (JSON lines).
        journal: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// The hall desk's public key (`desk.pub`): check every witness line
        /// with it (without it they are counted, not checked).
        #[arg(long, value_name = "FILE")]
        desk_key: Option<PathBuf>,
        /// Fail (exit 1) unless at least one witness line holds under
        /// `--desk-key` (a journal whose witness lines were all removed and
        /// its chain computed again is refused, not found merely "intact").
        #[arg(long, requires = "desk_key")]
        require_witness: bool,
    },
}

/// Runs `tandem journal`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        JournalCommand::Verify {
            journal,
            json,
            desk_key,
            require_witness,
        } => {
            let key = desk_key
                .as_deref()
                .map(crate::desk_key::DeskKey::load)
                .transpose()?;
            verify(&journal, json, key.as_ref(), require_witness)
        }
    }
}

fn verify(
    path: &std::path::Path,
    json: bool,
    key: Option<&crate::desk_key::DeskKey>,
    require_witness: bool,
) -> anyhow::Result<ExitCode> {
    let j = Journal::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let w = crate::journal::witness::check(&j, key);
    let missing = require_witness && w.checked == 0;
    let reports = crate::journal::reports::Reports::of(&j);
    let ok = j.bad.is_none() && w.bad.is_none() && !missing;
    let mut out = std::io::stdout().lock();
    if json {
        let v = serde_json::json!({
            "ok": ok,
            "lines": j.records.len(),
            "head": j.head,
            "bad": j.bad,
            "torn": j.torn,
            "witnesses": w,
            "reports": reports,
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
        write_witnesses(&mut out, path, &w, key.is_some(), j.records.len())?;
        for line in reports.text() {
            writeln!(out, "{}: {line}", path.display())?;
        }
        if missing {
            writeln!(
                out,
                "{}: no witness line holds: --require-witness refuses it",
                path.display()
            )?;
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What the witness lines say, in words.
fn write_witnesses(
    out: &mut impl Write,
    path: &std::path::Path,
    w: &crate::journal::witness::WitnessReport,
    keyed: bool,
    lines: usize,
) -> std::io::Result<()> {
    let p = path.display();
    if let Some(b) = &w.bad {
        return writeln!(
            out,
            "{p}: witness line {} (of line {}): {}",
            b.witness_line, b.line, b.reason
        );
    }
    match (keyed, w.lines, w.witnessed_to) {
        // As before witnesses: nothing more to say.
        (false, 0, _) => Ok(()),
        (false, n, _) => writeln!(
            out,
            "{p}: {n} witness line(s) NOT checked: give --desk-key desk.pub to check them"
        ),
        (true, 0, _) | (true, _, None) => writeln!(
            out,
            "{p}: no witness line: nothing in it is witnessed by the desk (only chained)"
        ),
        (true, n, Some(to)) => writeln!(
            out,
            "{p}: {n} witness line(s) hold: lines 1 to {to} are as the desk held them when it \
             witnessed them; {} line(s) after line {to} are only chained",
            (lines as u64).saturating_sub(to)
        ),
    }
}
