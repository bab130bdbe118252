//! `tandem braille render [--variant V] [--fen FEN] [--view list|rows|graphic|status] [--width N] [--json]`
//!
//! Prints a braille view of a position: each line as Unicode braille (padded
//! to the width with blank cells) followed by its text; with `--json`, one
//! object `{"lines": [{"text", "cells", "squares"}]}` where `squares` gives
//! for each cell the number of the square it shows, or null.
//!
//! `--variant chess` renders a chess position (FEN) with the chess views;
//! `squares` then numbers the chess squares 1-64 (`a1` = 1, `h8` = 64).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use tandem_braille::display::terminal::TerminalDisplay;
use tandem_braille::{BrailleRenderer, StandardRenderer, StatusInfo, View, Width};
use tandem_rules::Position;

use crate::cmd::perft::GameKind;

/// `tandem braille` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum BrailleCommand {
    /// Print a braille view of a position.
    Render(RenderArgs),
}

/// Arguments of `tandem braille render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// international, sixty-four or chess.
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// The position as PDN FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// list, rows, graphic or status.
    #[arg(long, default_value = "list")]
    pub view: View,
    /// Display width in cells (14 to 80).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u16).range(i64::from(Width::MIN)..=i64::from(Width::MAX)))]
    pub width: u16,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tandem braille`.
pub fn run(c: BrailleCommand) -> anyhow::Result<ExitCode> {
    match c {
        BrailleCommand::Render(args) => render(&args),
    }
}

fn render(args: &RenderArgs) -> anyhow::Result<ExitCode> {
    let variant = match args.variant {
        GameKind::Draughts(v) => v,
        GameKind::Chess => return render_chess(args),
        GameKind::Backgammon => anyhow::bail!("tandem braille does not serve backgammon yet"),
    };
    let pos = match &args.fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    let width = Width::new(args.width)?;
    let lines =
        StandardRenderer::default().render(&pos, &StatusInfo::new(pos.turn()), args.view, width);
    let stdout = std::io::stdout().lock();
    if args.json {
        let lines: Vec<serde_json::Value> = lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "text": l.text(),
                    "cells": l.cells_string(),
                    "squares": l.squares().iter().map(|s| s.map(|s| s.number())).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut out = stdout;
        writeln!(out, "{}", serde_json::json!({ "lines": lines }))?;
        out.flush()?;
    } else {
        let mut term = TerminalDisplay::new(stdout, width.get());
        for l in &lines {
            term.write_line(l)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `tandem braille render --variant chess`: the same output; squares 1-64.
fn render_chess(args: &RenderArgs) -> anyhow::Result<ExitCode> {
    use tandem_braille::chess::ChessRenderer;
    use tandem_rules::chess;
    use tandem_rules::chess::shakmaty::{Color as ShColor, Position as _};
    let pos = match &args.fen {
        Some(f) => chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?,
        None => chess::start(),
    };
    let width = Width::new(args.width)?;
    let turn = match pos.turn() {
        ShColor::White => tandem_rules::Color::White,
        ShColor::Black => tandem_rules::Color::Black,
    };
    let lines = ChessRenderer::default().render(&pos, &StatusInfo::new(turn), args.view, width);
    let stdout = std::io::stdout().lock();
    if args.json {
        let lines: Vec<serde_json::Value> = lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "text": l.text(),
                    "cells": l.line.cells_string(),
                    "squares": l.squares(),
                })
            })
            .collect();
        let mut out = stdout;
        writeln!(out, "{}", serde_json::json!({ "lines": lines }))?;
        out.flush()?;
    } else {
        let mut term = TerminalDisplay::new(stdout, width.get());
        for l in &lines {
            term.write_line(&l.line)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
