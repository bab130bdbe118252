//! `tandem braille render [--variant V] [--fen FEN] [--view list|rows|graphic|status] [--width N] [--json]`
//!
//! Prints a braille view of a position: each line as Unicode braille (padded
//! to the width with blank cells) followed by its text; with `--json`, one
//! object `{"lines": [{"text", "cells", "squares"}]}` where `squares` gives
//! for each cell the number of the square it shows, or null. Each game
//! renders its own (`GameKind::braille_render`, the registry; the game's
//! folder in `games/`); this file parses and prints.
//!
//! `--variant chess` renders a chess position (FEN) with the chess views;
//! `squares` then numbers the chess squares 1-64 (`a1` = 1, `h8` = 64).
//!
//! `--variant backgammon` takes a GNU Backgammon Position ID (`--fen ID`, the
//! board only, or `ID:MATCHID`) and prints what the display shows at the
//! table whatever `--view` says: the board line (cut into windows at its
//! gaps when it does not fit the width) and, with a Match ID, the status
//! line, for the player on roll (or `--viewer`). `squares` then numbers what each cell shows as GNU Backgammon
//! numbers it in that player's numbering: points 1-24, the bar 25, borne off 0.

use std::io::Write;
use std::process::ExitCode;

use tandem_braille::{View, Width};

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
    /// international, sixty-four, chess or backgammon (a Position ID in --fen).
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
    /// Backgammon: whose numbering and whose checkers first (default: the
    /// player on roll).
    #[arg(long, value_parser = parse_side)]
    pub viewer: Option<tandem_rules::Color>,
}

fn parse_side(s: &str) -> Result<tandem_rules::Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "white" | "biały" | "bialy" => Ok(tandem_rules::Color::White),
        "black" | "czarny" => Ok(tandem_rules::Color::Black),
        _ => Err(format!("{s:?}: white or black")),
    }
}

/// Runs `tandem braille`.
pub fn run(c: BrailleCommand) -> anyhow::Result<ExitCode> {
    match c {
        BrailleCommand::Render(args) => render(&args),
    }
}

fn render(args: &RenderArgs) -> anyhow::Result<ExitCode> {
    let width = Width::new(args.width)?;
    let lines = args
        .variant
        .braille_render(args.fen.as_deref(), args.view, width, args.viewer)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let lines: Vec<serde_json::Value> = lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "text": l.text,
                    "cells": l.cells,
                    "squares": l.squares,
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::json!({ "lines": lines }))?;
    } else {
        for l in &lines {
            writeln!(out, "{}", l.plain)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
