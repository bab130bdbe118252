//! `tandem pdn check [--json] [--pgn] FILE...`: replay every game and report the
//! first illegal move of each, and apart from failures the warnings of the
//! reader (text it skipped or repaired, with line and column). Files ending
//! in `.pgn` (or all files with `--pgn`) are chess games (PGN, FIDE Laws),
//! with the same output. Files are read as bytes: UTF-8, Windows-1252 or
//! Latin-1 line by line, UTF-16 with a byte-order mark.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::json;

use crate::game::GameKind;
use crate::one_shot::RecordReport;

/// `tandem pdn` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum PdnCommand {
    /// Replay every game in the files and report the first illegal move of
    /// each, and apart from failures what the reader skipped (warnings).
    Check {
        /// Print one JSON object per game (one a line) and a summary object.
        #[arg(long)]
        json: bool,
        /// Variant for games without a `[GameType]` tag.
        #[arg(long, default_value = "international", value_parser = GameKind::parse_pdn)]
        variant: GameKind,
        /// Read every file as PGN (chess), whatever its name.
        #[arg(long)]
        pgn: bool,
        /// PDN files (PGN for files ending in `.pgn`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write a game journal as PDN 3.0 (tags, result, clock times as comments).
    Export {
        /// The journal (from `tandem play`).
        journal: PathBuf,
        /// White's name (else the journal's).
        #[arg(long)]
        white: Option<String>,
        /// Black's name (else the journal's).
        #[arg(long)]
        black: Option<String>,
        /// The event (else the journal's).
        #[arg(long)]
        event: Option<String>,
    },
}

/// Runs `tandem pdn`.
pub fn run(c: PdnCommand) -> anyhow::Result<ExitCode> {
    match c {
        PdnCommand::Check {
            json,
            variant,
            pgn,
            files,
        } => check(&files, variant, pgn, json),
        PdnCommand::Export {
            journal,
            white,
            black,
            event,
        } => {
            let names = crate::export::Names {
                white,
                black,
                event,
                ..crate::export::Names::default()
            };
            print!("{}", crate::export::pdn_from_journal(&journal, &names)?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The game of a record file: `--pgn` or the file's ending (`GameKind::by_record_ending`),
/// else the PDN game of `--variant`.
fn game_of(file: &std::path::Path, pdn: GameKind, all_pgn: bool) -> GameKind {
    let ending = if all_pgn {
        Some("pgn")
    } else {
        file.extension().and_then(|e| e.to_str())
    };
    ending.and_then(GameKind::by_record_ending).unwrap_or(pdn)
}

fn check(
    files: &[PathBuf],
    variant: GameKind,
    all_pgn: bool,
    as_json: bool,
) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut sum = Summary::default();
    for file in files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let reports = game_of(file, variant, all_pgn).check_records(&bytes)?;
        for r in reports {
            sum.report(file, r, as_json, &mut out)?;
        }
    }
    let failed = sum.total - sum.ok;
    if as_json {
        writeln!(
            out,
            "{}",
            json!({"games": sum.total, "ok": sum.ok, "failed": failed, "warnings": sum.warnings})
        )?;
    } else {
        if sum.warnings > 0 {
            writeln!(
                out,
                "{} warnings: text skipped or repaired (lines above)",
                sum.warnings
            )?;
        }
        writeln!(out, "{} games, {} ok, {failed} failed", sum.total, sum.ok)?;
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[derive(Default)]
struct Summary {
    total: usize,
    ok: usize,
    warnings: usize,
}

impl Summary {
    fn report(
        &mut self,
        file: &std::path::Path,
        r: RecordReport,
        as_json: bool,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        self.total += 1;
        self.ok += usize::from(r.ok);
        self.warnings += r.warnings.len();
        let name = file.display().to_string();
        if as_json {
            let mut obj = serde_json::Map::new();
            obj.insert("index".into(), json!(self.total));
            obj.insert("file".into(), json!(name));
            obj.insert("line".into(), json!(r.line));
            obj.insert("players".into(), json!(r.players));
            obj.extend(r.fields);
            obj.insert("warnings".into(), json!(r.warnings.len()));
            obj.insert(
                "warning_details".into(),
                r.warnings
                    .iter()
                    .map(|w| json!({"line": w.line, "column": w.column, "message": w.message}))
                    .collect(),
            );
            writeln!(out, "{}", serde_json::Value::Object(obj))?;
        } else {
            let n = r.warnings.len();
            let tail = match n {
                0 => String::new(),
                1 => ", 1 warning".to_owned(),
                n => format!(", {n} warnings"),
            };
            writeln!(
                out,
                "{name}:{}: game {} ({}): {}{tail}",
                r.line, self.total, r.players, r.text
            )?;
            for w in &r.warnings {
                writeln!(
                    out,
                    "{name}:{}:{}: warning: {}",
                    w.line, w.column, w.message
                )?;
            }
        }
        Ok(())
    }
}
