//! What the one-shot commands ask of chess (`crate::one_shot`): its legal
//! moves in SAN (`tandem moves`), a move announced after FIDE annex E
//! (`tandem say`), its PGN records checked (`tandem pdn check`).

use anyhow::Context as _;
use serde_json::json;
use tandem_rules::chess::pgn::{read_pgn, replay, replay_warnings, Replay};
use tandem_rules::chess::{self, shakmaty::Chess};
use tandem_speech::chess::{ChessAnnouncer, ChessPhrasebook, FileStyle};

use crate::one_shot::{MovesAsked, RecordReport, Replayed, Said, SayAsked};

/// The ending of the record `export` writes: PGN, with `[%clk]` after each move.
pub const RECORD_ENDING: &str = "pgn";

/// `tandem moves --variant chess [--fen FEN]`: the legal moves in SAN.
///
/// # Errors
/// The FEN does not read.
pub fn moves(asked: &MovesAsked) -> anyhow::Result<Vec<String>> {
    let pos = match asked.fen {
        Some(f) => chess::from_fen(f).map_err(|e| anyhow::anyhow!("--fen {f:?}: {e}"))?,
        None => chess::start(),
    };
    Ok(chess::perft_divide(&pos, 1)
        .iter()
        .map(|(m, _)| chess::san(&pos, m))
        .collect())
}

/// `tandem say --variant chess MOVE`: the move (SAN, UCI or `e2-e4`)
/// announced after FIDE annex E with the chess phrasebook, files named
/// Anna … Hektor, or letters with `--files letters`; `uci` among the JSON
/// fields.
///
/// # Errors
/// The phrasebook file or the FEN does not read.
pub fn say(asked: &SayAsked) -> anyhow::Result<Said> {
    let book = match asked.phrasebook {
        Some(path) => ChessPhrasebook::from_file(path)
            .with_context(|| format!("loading the chess phrasebook {}", path.display()))?,
        None => ChessPhrasebook::builtin(asked.lang)
            .with_context(|| crate::lang::no_builtin(asked.lang, "chess words"))?,
    };
    let pos: Chess = match asked.fen {
        Some(f) => chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?,
        None => chess::start(),
    };
    let style = if asked.letters {
        FileStyle::Letters
    } else {
        FileStyle::Names
    };
    let announcer = ChessAnnouncer::new(book, style);
    let (utterance, played, uci, error) = match chess::resolve(&pos, asked.mv) {
        Ok(m) => (
            announcer.on_move(&pos, &m),
            Some(chess::san(&pos, &m)),
            Some(m.uci()),
            None,
        ),
        Err(e) => (
            announcer.on_rejected(asked.mv, &e),
            None,
            None,
            Some(e.to_string()),
        ),
    };
    let book = announcer.phrasebook();
    let mut said = Said::new(
        "chess",
        chess::to_fen(&pos),
        (utterance, played, error),
        (book.language(), book.espeak_voice()),
    );
    said.extra.insert("uci".into(), json!(uci));
    Ok(said)
}

/// `tandem pdn check` of a PGN file: the same lines and JSON objects as
/// for PDN; `fen` is chess FEN (also of a game that replays, its last
/// position), `result` the result the record gives (`null` for none), and
/// the warnings include a move recorded after a dead position (FIDE Laws
/// 5.2.2). Chess960 games (`[Variant "Chess960"]`) replay by their rules.
#[must_use]
pub fn check_records(bytes: &[u8]) -> Vec<RecordReport> {
    RecordReport::each(read_pgn(bytes), |mut g| {
        let r = replay(&g);
        let mut warnings = std::mem::take(&mut g.warnings);
        warnings.extend(replay_warnings(&g, &r));
        warnings.sort_by_key(|w| (w.line, w.column));
        let replayed = Replayed::of(&r, |ply| g.moves[ply - 1].line);
        let mut report = RecordReport::new(
            g.line,
            (g.tag("White"), g.tag("Black")),
            &replayed,
            r.to_string(),
            warnings,
        );
        if let Replay::Ok(game) = &r {
            report
                .fields
                .insert("fen".into(), json!(chess::to_fen(game.position())));
        }
        report.fields.insert("result".into(), json!(g.result));
        report
            .fields
            .insert("chess960".into(), json!(g.is_chess960()));
        report
    })
}

/// `tandem perft --variant chess`: the leaf nodes of the move tree from
/// `fen` (the start position when `None`) to `depth`, through shakmaty.
///
/// # Errors
/// The FEN does not read.
pub fn count_tree(
    fen: Option<&str>,
    depth: u32,
    divide: bool,
) -> anyhow::Result<crate::perft_count::TreeCount> {
    use crate::perft_count::{DividedMove, TreeCount};
    use anyhow::Context as _;
    let pos = match fen {
        Some(f) => chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?,
        None => chess::start(),
    };
    let (nodes, divide) = if divide {
        let d = chess::perft_divide(&pos, depth);
        let moves: Vec<DividedMove> = d
            .iter()
            .map(|(m, n)| DividedMove {
                text: chess::san(&pos, m),
                uci: Some(m.uci().to_string()),
                nodes: *n,
            })
            .collect();
        (moves.iter().map(|m| m.nodes).sum(), Some(moves))
    } else {
        (chess::perft(&pos, depth), None)
    };
    Ok(TreeCount {
        variant: "chess",
        fen: chess::to_fen(&pos),
        nodes,
        divide,
    })
}
