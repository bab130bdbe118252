//! `tandem perft [--variant V] [--fen FEN] [--divide] [--json] DEPTH`
//!
//! `--variant chess` counts chess nodes (through shakmaty; `--fen` is chess FEN).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use tandem_rules::draughts::{perft, perft_divide, Position};

use tandem_rules::draughts::notation::write_move as notation_of;

pub use crate::game::{GameKind, ParseGameKindError};

/// Arguments of `tandem perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// international, sixty-four or chess.
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// Start from this PDN FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Plies to search.
    pub depth: u32,
}

/// Runs `tandem perft`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let variant = match args.variant {
        GameKind::Draughts(v) => v,
        GameKind::Chess => return run_chess(&args),
        // A dice game has no tree of moves alone to count: chance nodes
        // between the plies would make the figure a different thing.
        GameKind::Backgammon => anyhow::bail!(
            "perft counts the move trees of games without dice; for backgammon, \
             `tandem moves --variant backgammon --position ID --dice 31` lists a roll's moves"
        ),
    };
    let pos = match &args.fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    let t = Instant::now();
    let (nodes, divide) = if args.divide {
        let d = perft_divide(&pos, args.depth);
        (d.iter().map(|(_, n)| n).sum::<u64>(), Some(d))
    } else {
        (perft(&pos, args.depth), None)
    };
    let secs = t.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut obj = serde_json::json!({
            "variant": variant.name(),
            "fen": pos.to_fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": secs,
            "nodes_per_second": if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
        });
        if let Some(d) = &divide {
            obj["divide"] = d
                .iter()
                .map(|(m, n)| serde_json::json!({"move": notation_of(&pos, m), "nodes": n}))
                .collect();
        }
        writeln!(out, "{obj}")?;
    } else {
        if let Some(d) = &divide {
            for (m, n) in d {
                writeln!(out, "{} {n}", notation_of(&pos, m))?;
            }
        }
        writeln!(out, "depth {} nodes {nodes} time {secs:.3}s", args.depth)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `tandem perft --variant chess`: the same output, moves in SAN.
fn run_chess(args: &Args) -> anyhow::Result<ExitCode> {
    use tandem_rules::chess;
    let pos = match &args.fen {
        Some(f) => chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?,
        None => chess::start(),
    };
    let t = Instant::now();
    let (nodes, divide) = if args.divide {
        let d = chess::perft_divide(&pos, args.depth);
        (d.iter().map(|(_, n)| n).sum::<u64>(), Some(d))
    } else {
        (chess::perft(&pos, args.depth), None)
    };
    let secs = t.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut obj = serde_json::json!({
            "variant": "chess",
            "fen": chess::to_fen(&pos),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": secs,
            "nodes_per_second": if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
        });
        if let Some(d) = &divide {
            obj["divide"] = d
                .iter()
                .map(|(m, n)| serde_json::json!({"move": chess::san(&pos, m), "uci": m.uci(), "nodes": n}))
                .collect();
        }
        writeln!(out, "{obj}")?;
    } else {
        if let Some(d) = &divide {
            for (m, n) in d {
                writeln!(out, "{} {n}", chess::san(&pos, m))?;
            }
        }
        writeln!(out, "depth {} nodes {nodes} time {secs:.3}s", args.depth)?;
    }
    Ok(ExitCode::SUCCESS)
}
