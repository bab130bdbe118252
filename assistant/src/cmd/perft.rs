//! `tandem perft [--variant V] [--fen FEN] [--divide] [--json] DEPTH`
//!
//! Each game counts its own tree (`GameKind::count_tree`, the registry);
//! `--variant chess` counts chess nodes (through shakmaty; `--fen` is chess
//! FEN); backgammon is refused with what to use instead.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

pub use crate::game::{GameKind, ParseGameKindError};

/// Arguments of `tandem perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// international, sixty-four or chess.
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// Start from this PDN FEN (chess FEN for chess) instead of the initial position.
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
    let t = Instant::now();
    let count = args
        .variant
        .count_tree(args.fen.as_deref(), args.depth, args.divide)?;
    let secs = t.elapsed().as_secs_f64();
    let nodes = count.nodes;
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut obj = serde_json::json!({
            "variant": count.variant,
            "fen": count.fen,
            "depth": args.depth,
            "nodes": nodes,
            "seconds": secs,
            "nodes_per_second": if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
        });
        if let Some(d) = &count.divide {
            obj["divide"] = d
                .iter()
                .map(|m| match &m.uci {
                    Some(uci) => serde_json::json!({"move": m.text, "uci": uci, "nodes": m.nodes}),
                    None => serde_json::json!({"move": m.text, "nodes": m.nodes}),
                })
                .collect();
        }
        writeln!(out, "{obj}")?;
    } else {
        if let Some(d) = &count.divide {
            for m in d {
                writeln!(out, "{} {}", m.text, m.nodes)?;
            }
        }
        writeln!(out, "depth {} nodes {nodes} time {secs:.3}s", args.depth)?;
    }
    Ok(ExitCode::SUCCESS)
}
