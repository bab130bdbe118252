//! What the one-shot commands ask of draughts (`crate::one_shot`): its
//! legal moves (`tandem moves`), a move announced (`tandem say`), its PDN
//! records checked (`tandem pdn check`).

use anyhow::Context as _;
use tandem_rules::draughts::notation::{resolve, write_move};
use tandem_rules::draughts::pdn::{read_pdn, replay};
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook};

use crate::one_shot::{MovesAsked, RecordReport, Replayed, Said, SayAsked};

/// The ending of the record `export` writes: PDN (Portable Draughts Notation).
pub const RECORD_ENDING: &str = "pdn";

/// `--fen` read as PDN FEN of `variant` (the start when left out).
fn position(variant: Variant, fen: Option<&str>) -> anyhow::Result<Position> {
    Ok(match fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    })
}

/// `tandem moves --variant international|sixty-four [--fen FEN]`: the legal
/// moves in draughts notation.
///
/// # Errors
/// The FEN does not read.
pub fn moves(variant: Variant, asked: &MovesAsked) -> anyhow::Result<Vec<String>> {
    let pos = position(variant, asked.fen)?;
    Ok(pos
        .legal_moves()
        .iter()
        .map(|m| write_move(&pos, m))
        .collect())
}

/// `tandem say MOVE [--variant international|sixty-four]`: the move's
/// announcement with the draughts phrasebook (001 ch. VIII 2.2).
///
/// # Errors
/// The phrasebook file or the FEN does not read.
pub fn say(variant: Variant, asked: &SayAsked) -> anyhow::Result<Said> {
    let book = match asked.phrasebook {
        Some(path) => Phrasebook::from_file(path)
            .with_context(|| format!("loading the phrasebook {}", path.display()))?,
        None => Phrasebook::builtin(asked.lang)
            .with_context(|| crate::lang::no_builtin(asked.lang, "words"))?,
    };
    let pos = position(variant, asked.fen)?;
    let announcer = Announcer::new(book, AnnounceOptions::default());
    let (utterance, played, error) = match resolve(&pos, asked.mv) {
        Ok(m) => (
            announcer.on_move(&pos, &m),
            Some(write_move(&pos, &m)),
            None,
        ),
        Err(e) => (
            announcer.on_rejected(&pos, asked.mv, &e),
            None,
            Some(e.to_string()),
        ),
    };
    let book = announcer.phrasebook();
    Ok(Said::new(
        variant.name(),
        pos.to_fen(),
        (utterance, played, error),
        (book.language(), book.espeak_voice()),
    ))
}

/// `tandem pdn check`: every game of a PDN file replayed in `variant`
/// (for games without a `[GameType]` tag).
#[must_use]
pub fn check_records(variant: Variant, bytes: &[u8]) -> Vec<RecordReport> {
    RecordReport::each(read_pdn(bytes), |mut g| {
        let r = replay(&g, variant);
        let warnings = std::mem::take(&mut g.warnings);
        let replayed = Replayed::of(&r, |ply| g.moves[ply - 1].line);
        RecordReport::new(
            g.line,
            (g.tag("White"), g.tag("Black")),
            &replayed,
            r.to_string(),
            warnings,
        )
    })
}

/// `tandem perft` for draughts: the leaf nodes of the move tree from `fen`
/// (the start position when `None`) to `depth`.
///
/// # Errors
/// The FEN does not read.
pub fn count_tree(
    variant: Variant,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
) -> anyhow::Result<crate::perft_count::TreeCount> {
    use crate::perft_count::{DividedMove, TreeCount};
    use anyhow::Context as _;
    let pos = match fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    let (nodes, divide) = if divide {
        let d = tandem_rules::draughts::perft_divide(&pos, depth);
        let moves: Vec<DividedMove> = d
            .iter()
            .map(|(m, n)| DividedMove {
                text: write_move(&pos, m),
                uci: None,
                nodes: *n,
            })
            .collect();
        (moves.iter().map(|m| m.nodes).sum(), Some(moves))
    } else {
        (tandem_rules::draughts::perft(&pos, depth), None)
    };
    Ok(TreeCount {
        variant: variant.name(),
        fen: pos.to_fen(),
        nodes,
        divide,
    })
}
