//! What the one-shot commands ask of backgammon (`crate::one_shot`): the
//! legal moves of a roll (`tandem moves`) and a move announced as the table
//! says it (`tandem say`).

use anyhow::{bail, Context as _};
use tandem_rules::backgammon::{legal_plays, notation, position_id, Dice, Match, MatchOptions};
use tandem_rules::{Color, GameOptions};

use super::{match_from_ids, BackgammonTable, DEFAULT_LENGTH};
use crate::one_shot::{said_at_the_table, MovesAsked, Said, SayAsked};

/// The ending of the record `export` writes: a gnubg `.mat` match file.
pub const RECORD_ENDING: &str = "mat";

/// `tandem moves --variant backgammon --position POSITION_ID --dice 31`:
/// every legal move of the roll, once each, written as GNU Backgammon
/// writes it (`8/5 6/5`, `bar/22`, `24/21*/20`, `6/off`, `8/4(2)`); the
/// starting position when `--position` is left out.
///
/// # Errors
/// No `--dice`, dice that do not read, or a Position ID that does not.
pub fn moves(asked: &MovesAsked) -> anyhow::Result<Vec<String>> {
    let Some(dice_text) = asked.dice else {
        bail!("--dice is needed: the two dice, such as 31");
    };
    // The larger die first, so that `31` and `13` list the moves in one order.
    let dice = Dice::parse(dice_text)
        .with_context(|| format!("--dice {dice_text:?}: two dice from 1 to 6, such as 31"))?
        .high_first();
    let id = asked.position.unwrap_or("4HPwATDgc/ABMA");
    // The colour does not matter: the Position ID is read from the side on roll.
    let board = position_id::decode(id, Color::White)
        .map_err(|e| anyhow::anyhow!("--position {id:?} is not a Position ID: {e}"))?;
    Ok(legal_plays(&board, dice)
        .iter()
        .map(|p| notation::write(&board, p))
        .collect())
}

/// `tandem say --variant backgammon --fen ID:MATCHID --dice 31 MOVE`:
/// through the game at the table, in its built-in words of `--lang`.
///
/// # Errors
/// A `--phrasebook` (backgammon speaks its built-in words) or a position
/// that does not read.
pub fn say(asked: &SayAsked) -> anyhow::Result<Said> {
    if asked.phrasebook.is_some() {
        bail!(
            "--phrasebook is for draughts and chess; backgammon speaks the built-in words of --lang"
        );
    }
    let start = match asked.fen {
        None => Match::new(MatchOptions {
            length: DEFAULT_LENGTH,
        }),
        Some(f) => match_from_ids(f)
            .map_err(|e| anyhow::anyhow!("position {f:?}: {e}"))
            .context("reading --fen (for backgammon: POSITION_ID:MATCH_ID)")?,
    };
    let fen = tandem_rules::TableGame::position_text(&start);
    let mut game = BackgammonTable::new(start, GameOptions::default(), asked.lang);
    said_at_the_table(&mut game, fen, asked)
}

/// `tandem perft --variant backgammon`: refused, with what to use instead.
///
/// # Errors
/// Always: a dice game has no tree of moves alone to count (chance nodes
/// between the plies would make the figure a different thing).
pub fn count_tree() -> anyhow::Result<crate::perft_count::TreeCount> {
    anyhow::bail!(
        "perft counts the move trees of games without dice; for backgammon, \
         `tandem moves --variant backgammon --position ID --dice 31` lists a roll's moves"
    )
}
