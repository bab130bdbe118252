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
use tandem_rules::draughts::pdn::{read_pdn, replay, Replay, Warning};
use tandem_rules::draughts::Variant;

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
        #[arg(long, default_value = "international")]
        variant: Variant,
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

fn is_pgn(file: &std::path::Path) -> bool {
    file.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

fn check(
    files: &[PathBuf],
    variant: Variant,
    all_pgn: bool,
    as_json: bool,
) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut sum = Summary::default();
    for file in files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let reports = if all_pgn || is_pgn(file) {
            pgn_reports(&bytes)
        } else {
            pdn_reports(&bytes, variant)
        };
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

/// One game's outcome, whatever the format.
struct Report {
    line: usize,
    players: String,
    /// The status fields of the JSON object (`status`, `plies`, `ply`, `move`, ...).
    fields: serde_json::Map<String, serde_json::Value>,
    ok: bool,
    /// `ok (N plies)`, `illegal move ...`, `unreadable: ...`.
    text: String,
    warnings: Vec<Warning>,
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
        r: Report,
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

fn fields(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    match v {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

/// A file with no game: one unreadable report carrying the file's warnings.
fn no_game(warnings: Vec<Warning>) -> Report {
    let why = "no game found in the file";
    Report {
        line: 1,
        players: "? - ?".into(),
        fields: fields(json!({"status": "unreadable", "ply": null, "move": null, "reason": why})),
        ok: false,
        text: format!("unreadable: {why}"),
        warnings,
    }
}

fn players(white: Option<&str>, black: Option<&str>) -> String {
    format!("{} - {}", white.unwrap_or("?"), black.unwrap_or("?"))
}

fn pdn_reports(bytes: &[u8], variant: Variant) -> Vec<Report> {
    let file = read_pdn(bytes);
    if file.games.is_empty() {
        return vec![no_game(file.warnings)];
    }
    file.games
        .into_iter()
        .map(|g| {
            let r = replay(&g, variant);
            let v = match &r {
                Replay::Ok(game) => {
                    json!({"status": "ok", "plies": game.ply(), "ply": null, "move": null, "reason": null})
                }
                Replay::Illegal {
                    ply,
                    text,
                    reason,
                    game,
                } => json!({
                    "status": "illegal", "ply": ply, "move": text, "reason": reason.to_string(),
                    "fen": game.position().to_fen(), "move_line": g.moves[ply - 1].line,
                }),
                Replay::Unreadable(why) => {
                    json!({"status": "unreadable", "ply": null, "move": null, "reason": why})
                }
            };
            Report {
                line: g.line,
                players: players(g.tag("White"), g.tag("Black")),
                fields: fields(v),
                ok: matches!(r, Replay::Ok(_)),
                text: r.to_string(),
                warnings: g.warnings,
            }
        })
        .collect()
}

/// A PGN file: the same lines and JSON objects as for PDN; `fen` is chess FEN.
fn pgn_reports(bytes: &[u8]) -> Vec<Report> {
    use tandem_rules::chess::pgn::{read_pgn, replay as replay_pgn, Replay as R};
    let file = read_pgn(bytes);
    if file.games.is_empty() {
        return vec![no_game(file.warnings)];
    }
    file.games
        .into_iter()
        .map(|g| {
            let r = replay_pgn(&g);
            let v = match &r {
                R::Ok(game) => {
                    json!({"status": "ok", "plies": game.ply(), "ply": null, "move": null, "reason": null})
                }
                R::Illegal {
                    ply,
                    text,
                    reason,
                    game,
                } => json!({
                    "status": "illegal", "ply": ply, "move": text, "reason": reason.to_string(),
                    "fen": tandem_rules::chess::to_fen(game.position()), "move_line": g.moves[ply - 1].line,
                }),
                R::Unreadable(why) => {
                    json!({"status": "unreadable", "ply": null, "move": null, "reason": why})
                }
            };
            Report {
                line: g.line,
                players: players(g.tag("White"), g.tag("Black")),
                fields: fields(v),
                ok: matches!(r, R::Ok(_)),
                text: r.to_string(),
                warnings: g.warnings,
            }
        })
        .collect()
}
