//! `tandem export JOURNAL [--format record|brf|pdf|audio]`: the blind
//! player's record in their own medium (001 ch. VIII 2.4; 002 annex E):
//! the game's own record (PDN, PGN), Braille Ready Format for an embosser or
//! a notetaker, the scoresheet as a PDF for the arbiter to sign, or the
//! record read aloud as one WAV file. See `docs/record.md`.

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use crate::export::record::Heading;
use crate::export::{DocOptions, Format};
use crate::lang::Lang;

/// Arguments of `tandem export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The journal (from `tandem play`).
    pub journal: PathBuf,
    /// What to write: the game's own record (PDN for draughts, PGN for
    /// chess), BRF (braille), PDF (the scoresheet) or audio (a WAV file).
    #[arg(long, value_enum, default_value = "record")]
    pub format: Format,
    /// The document's language (default: the game's).
    #[arg(long, value_parser = crate::lang::parse)]
    pub lang: Option<Lang>,
    /// BRF: any liblouis table by name (default: the language card's,
    /// assistant/data/language/LANG.toml: Pl-Pl-g1.utb for pl, en-ueb-g1.ctb
    /// for en); the display table en-us-brf.dis comes first.
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
    /// BRF: cells a line.
    #[arg(long, default_value_t = tandem_braille::brf::DEFAULT_WIDTH)]
    pub width: usize,
    /// BRF: lines a page.
    #[arg(long, default_value_t = tandem_braille::brf::DEFAULT_LINES)]
    pub lines: usize,
    /// White's name (else the journal's).
    #[arg(long)]
    pub white: Option<String>,
    /// Black's name (else the journal's).
    #[arg(long)]
    pub black: Option<String>,
    /// The event (else the journal's).
    #[arg(long)]
    pub event: Option<String>,
    /// The round, for the heading.
    #[arg(long)]
    pub round: Option<String>,
    /// The table (board) number, for the heading.
    #[arg(long, value_name = "N")]
    pub board: Option<String>,
}

/// Runs `tandem export`.
///
/// # Errors
/// The journal cannot be read or the document made (exit status 2).
pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let binary = matches!(a.format, Format::Pdf | Format::Audio);
    if binary && std::io::stdout().is_terminal() {
        bail!(
            "--format {} writes binary data: redirect it to a file (> game.{})",
            if a.format == Format::Pdf {
                "pdf"
            } else {
                "audio"
            },
            if a.format == Format::Pdf {
                "pdf"
            } else {
                "wav"
            }
        );
    }
    let heading = Heading {
        event: a.event,
        round: a.round,
        table: a.board,
        white: a.white,
        black: a.black,
    };
    let o = DocOptions {
        lang: a.lang.map(|l| l.as_str().to_owned()),
        table: a.table,
        width: a.width,
        lines: a.lines,
    };
    let bytes = crate::export::export(&a.journal, a.format, &heading, &o)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
