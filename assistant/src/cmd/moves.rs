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

use anyhow::{bail, Context};
use tandem_rules::backgammon::{legal_plays, notation, position_id, Dice};
use tandem_rules::Color;

use crate::game::GameKind;

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

/// Runs `tandem moves`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let moves = if matches!(
        args.variant.trim().to_ascii_lowercase().as_str(),
        "backgammon" | "tryktrak" | "bg"
    ) {
        backgammon_moves(&args)?
    } else {
        let kind: GameKind = args
            .variant
            .parse()
            .map_err(|e| anyhow::anyhow!("{e}: backgammon, international, sixty-four or chess"))?;
        other_moves(kind, args.fen.as_deref())?
    };
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

fn backgammon_moves(args: &Args) -> anyhow::Result<Vec<String>> {
    let Some(dice_text) = args.dice.as_deref() else {
        bail!("--dice is needed: the two dice, such as 31");
    };
    // The larger die first, so that `31` and `13` list the moves in one order.
    let dice = Dice::parse(dice_text)
        .with_context(|| format!("--dice {dice_text:?}: two dice from 1 to 6, such as 31"))?
        .high_first();
    let id = args.position.as_deref().unwrap_or("4HPwATDgc/ABMA");
    // The colour does not matter: the Position ID is read from the side on roll.
    let board = position_id::decode(id, Color::White)
        .map_err(|e| anyhow::anyhow!("--position {id:?} is not a Position ID: {e}"))?;
    Ok(legal_plays(&board, dice)
        .iter()
        .map(|p| notation::write(&board, p))
        .collect())
}

fn other_moves(kind: GameKind, fen: Option<&str>) -> anyhow::Result<Vec<String>> {
    Ok(match kind {
        GameKind::Draughts(v) => {
            let pos = match fen {
                Some(f) => tandem_rules::draughts::Position::from_fen(v, f)
                    .with_context(|| format!("reading --fen {f:?}"))?,
                None => tandem_rules::draughts::Position::start(v),
            };
            pos.legal_moves()
                .iter()
                .map(|m| tandem_rules::draughts::notation::write_move(&pos, m))
                .collect()
        }
        GameKind::Backgammon => anyhow::bail!("backgammon needs --position and --dice"),
        GameKind::Chess => {
            use tandem_rules::chess;
            let pos = match fen {
                Some(f) => chess::from_fen(f).map_err(|e| anyhow::anyhow!("--fen {f:?}: {e}"))?,
                None => chess::start(),
            };
            chess::perft_divide(&pos, 1)
                .iter()
                .map(|(m, _)| chess::san(&pos, m))
                .collect()
        }
    })
}
