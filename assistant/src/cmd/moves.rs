//! `tandem moves --variant backgammon --position POSITION_ID --dice 31 [--json]`
//!
//! Every legal move of the roll, once each, written as GNU Backgammon writes
//! it (`8/5 6/5`, `bar/22`, `24/21*/20`, `6/off`, `8/4(2)`); `--json` prints
//! one object `{"moves": [...]}` (an empty list for a pass). The position is
//! a GNU Backgammon Position ID with the player on roll to move; the dice are
//! two digits, larger first or not. For draughts (`--fen`, PDN FEN) and chess
//! (`--fen`, FEN) it lists the legal moves of the position in their notation.

use std::io::Write;
use std::process::ExitCode;

use crate::game::GameKind;
use crate::one_shot::MovesAsked;

/// Arguments of `tandem moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// backgammon, international, sixty-four or chess.
    #[arg(long, default_value = "backgammon")]
    pub variant: String,
    /// Backgammon: the GNU Backgammon Position ID, player on roll to move
    /// (the starting position when left out).
    #[arg(long)]
    pub position: Option<String>,
    /// Backgammon: the two dice (`31`, `3 1`, `13`).
    #[arg(long)]
    pub dice: Option<String>,
    /// Draughts or chess: the position as FEN (the start when left out).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print one JSON object `{"moves": [...]}`.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tandem moves`: each game lists its own (`GameKind::list_moves`, the registry).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let kind: GameKind = args
        .variant
        .parse()
        .map_err(|e| anyhow::anyhow!("{e}: backgammon, international, sixty-four or chess"))?;
    let moves = kind.list_moves(&MovesAsked {
        fen: args.fen.as_deref(),
        position: args.position.as_deref(),
        dice: args.dice.as_deref(),
    })?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::json!({ "moves": moves }))?;
    } else if moves.is_empty() {
        writeln!(out, "no legal move")?;
    } else {
        for m in &moves {
            writeln!(out, "{m}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
