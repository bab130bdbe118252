//! `tandem pdn check [--json] [--pgn] FILE...`: replay every game and report the
//! first illegal move of each. Files ending in `.pgn` (or all files with
//! `--pgn`) are chess games (PGN, FIDE Laws), with the same output.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::json;
use tandem_rules::pdn::{parse_pdn, replay, PdnGame, Replay};
use tandem_rules::Variant;

/// `tandem pdn` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum PdnCommand {
    /// Replay every game in the files and report the first illegal move of each.
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
    let (mut total, mut ok) = (0usize, 0usize);
    for file in files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        if all_pgn || is_pgn(file) {
            check_pgn(file, &text, as_json, &mut out, &mut total, &mut ok)?;
            continue;
        }
        let mut games = parse_pdn(&text);
        if games.is_empty() {
            games.push(PdnGame {
                line: 1,
                error: Some("no game found in the file".into()),
                ..PdnGame::default()
            });
        }
        for g in &games {
            total += 1;
            let r = replay(g, variant);
            let players = format!(
                "{} - {}",
                g.tag("White").unwrap_or("?"),
                g.tag("Black").unwrap_or("?")
            );
            let obj = match &r {
                Replay::Ok(game) => {
                    ok += 1;
                    json!({"index": total, "file": file.display().to_string(), "line": g.line, "players": players,
                           "status": "ok", "plies": game.ply(), "ply": null, "move": null, "reason": null})
                }
                Replay::Illegal {
                    ply,
                    text,
                    reason,
                    game,
                } => json!({
                    "index": total, "file": file.display().to_string(), "line": g.line, "players": players,
                    "status": "illegal", "ply": ply, "move": text, "reason": reason.to_string(),
                    "fen": game.position().to_fen(), "move_line": g.moves[ply - 1].line,
                }),
                Replay::Unreadable(why) => json!({
                    "index": total, "file": file.display().to_string(), "line": g.line, "players": players,
                    "status": "unreadable", "ply": null, "move": null, "reason": why,
                }),
            };
            if as_json {
                writeln!(out, "{obj}")?;
            } else {
                writeln!(
                    out,
                    "{}:{}: game {total} ({players}): {r}",
                    file.display(),
                    g.line
                )?;
            }
        }
    }
    let failed = total - ok;
    if as_json {
        writeln!(
            out,
            "{}",
            json!({"games": total, "ok": ok, "failed": failed})
        )?;
    } else {
        writeln!(out, "{total} games, {ok} ok, {failed} failed")?;
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One PGN file: the same lines and JSON objects as for PDN; `fen` is chess FEN.
fn check_pgn(
    file: &std::path::Path,
    text: &str,
    as_json: bool,
    out: &mut impl Write,
    total: &mut usize,
    ok: &mut usize,
) -> anyhow::Result<()> {
    use tandem_rules::chess::pgn::{parse_pgn as parse, replay as replay_pgn, Replay as R};
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let games = parse(text);
    if games.is_empty() {
        *total += 1;
        let why = "no game found in the file";
        if as_json {
            writeln!(
                out,
                "{}",
                json!({"index": *total, "file": file.display().to_string(), "line": 1, "players": "? - ?",
                       "status": "unreadable", "ply": null, "move": null, "reason": why})
            )?;
        } else {
            writeln!(
                out,
                "{}:1: game {} (? - ?): unreadable: {why}",
                file.display(),
                *total
            )?;
        }
        return Ok(());
    }
    for g in &games {
        *total += 1;
        let r = replay_pgn(g);
        let players = format!(
            "{} - {}",
            g.tag("White").unwrap_or("?"),
            g.tag("Black").unwrap_or("?")
        );
        let obj = match &r {
            R::Ok(game) => {
                *ok += 1;
                json!({"index": *total, "file": file.display().to_string(), "line": g.line, "players": players,
                       "status": "ok", "plies": game.ply(), "ply": null, "move": null, "reason": null})
            }
            R::Illegal {
                ply,
                text,
                reason,
                game,
            } => json!({
                "index": *total, "file": file.display().to_string(), "line": g.line, "players": players,
                "status": "illegal", "ply": ply, "move": text, "reason": reason.to_string(),
                "fen": tandem_rules::chess::to_fen(game.position()), "move_line": g.moves[ply - 1].line,
            }),
            R::Unreadable(why) => json!({
                "index": *total, "file": file.display().to_string(), "line": g.line, "players": players,
                "status": "unreadable", "ply": null, "move": null, "reason": why,
            }),
        };
        if as_json {
            writeln!(out, "{obj}")?;
        } else {
            writeln!(
                out,
                "{}:{}: game {} ({players}): {r}",
                file.display(),
                g.line,
                *total
            )?;
        }
    }
    Ok(())
}
