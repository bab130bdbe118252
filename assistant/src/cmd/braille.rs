//! `tandem braille render [--variant V] [--fen FEN] [--view list|rows|graphic|status] [--width N] [--json]`
//!
//! Prints a braille view of a position: each line as Unicode braille (padded
//! to the width with blank cells) followed by its text; with `--json`, one
//! object `{"lines": [{"text", "cells", "squares"}]}` where `squares` gives
//! for each cell the number of the square it shows, or null.
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

use anyhow::Context;
use tandem_braille::display::terminal::TerminalDisplay;
use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::draughts::Position;

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
    let variant = match args.variant {
        GameKind::Draughts(v) => v,
        GameKind::Chess => return render_chess(args),
        GameKind::Backgammon => return render_backgammon(args),
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

/// `tandem braille render --variant backgammon`: the board line's windows
/// and the status line, as the display at the table shows them.
fn render_backgammon(args: &RenderArgs) -> anyhow::Result<ExitCode> {
    use tandem_braille::backgammon::{board_line, status_line, BgSpot};
    use tandem_braille::BrailleLine;
    use tandem_rules::backgammon::position_id;
    // `ID:MATCHID`: the match (dice, cube, score: the status line too); a
    // bare Position ID: the board only, read from the side of the player
    // on roll (the viewer, or white).
    let text = args.fen.as_deref().unwrap_or("4HPwATDgc/ABMA:cAkAAAAAAAAA");
    let (board, m) = if text.contains(':') {
        let m = crate::games::backgammon::match_from_ids(text)
            .map_err(|e| anyhow::anyhow!("--fen {text:?}: {e}"))?;
        (*m.board(), Some(m))
    } else {
        let on_roll = args.viewer.unwrap_or(tandem_rules::Color::White);
        let b = position_id::decode(text.trim(), on_roll)
            .map_err(|e| anyhow::anyhow!("--fen {text:?} is not a Position ID: {e}"))?;
        (b, None)
    };
    let width = Width::new(args.width)?;
    let viewer = args.viewer.unwrap_or_else(|| board.turn());
    let number = |s: Option<BgSpot>| match s {
        Some(BgSpot::Point(p)) => Some(p),
        Some(BgSpot::Bar) => Some(25),
        Some(BgSpot::Off) => Some(0),
        None => None,
    };
    let word = |s: Option<BgSpot>| match s {
        Some(BgSpot::Point(p)) => p.to_string(),
        Some(BgSpot::Bar) => "bar".to_owned(),
        Some(BgSpot::Off) => "off".to_owned(),
        None => "_".to_owned(),
    };
    // (cells, text, what each cell shows)
    let mut lines: Vec<(BrailleLine, String, Vec<Option<u8>>)> = board_line(&board, viewer)
        .windows(width)
        .into_iter()
        .map(|w| {
            let mut line = BrailleLine::new();
            for c in &w.cells {
                line.push_graphic(*c, ' ', None);
            }
            let text = w
                .spots
                .iter()
                .map(|s| word(*s))
                .collect::<Vec<_>>()
                .join(" ");
            (line, text, w.spots.iter().map(|s| number(*s)).collect())
        })
        .collect();
    if let Some(m) = &m {
        let status = status_line(m, viewer);
        let line = BrailleLine::from_text(&status);
        let n = line.len();
        lines.push((line, status, vec![None; n]));
    }
    let stdout = std::io::stdout().lock();
    if args.json {
        let lines: Vec<serde_json::Value> = lines
            .iter()
            .map(|(line, text, spots)| {
                serde_json::json!({
                    "text": text,
                    "cells": line.cells_string(),
                    "squares": spots,
                })
            })
            .collect();
        let mut out = stdout;
        writeln!(out, "{}", serde_json::json!({ "lines": lines }))?;
        out.flush()?;
    } else {
        let mut out = stdout;
        for (line, text, _) in &lines {
            let cells: String = line
                .cells_padded(width.get())
                .iter()
                .map(|c| c.to_char())
                .collect();
            writeln!(out, "{cells}")?;
            writeln!(out, "{text}")?;
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
