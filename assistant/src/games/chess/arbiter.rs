//! `tandem arbiter reconcile` and `tandem arbiter diff` for chess (002
//! annex E.7-E.8, art. 7.4-7.5): the same report, JSON fields and exit
//! codes as for draughts, with chess records (PGN, SAN or UCI move lists, a
//! tandem chess journal), chess FEN, an 8x8 diagram, the braille list view
//! and the chess phrasebook's words. The logic is in
//! [`tandem_rules::chess::arbiter`].

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde_json::{json, Value as Json};
use tandem_braille::chess::ChessRenderer;
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::chess::arbiter::{diff_boards, ChessSquareChange};
use tandem_rules::chess::pgn::parse_pgn;
use tandem_rules::chess::shakmaty::fen::Fen;
use tandem_rules::chess::shakmaty::{
    Board, Chess, Color as ShColor, Piece, Position as _, Rank, Role, Square,
};
use tandem_rules::chess::{from_fen, san, square_number, to_fen, ChessError, ChessGame, ChessMove};
use tandem_rules::Color;
use tandem_speech::chess::{ChessAnnouncer, ChessPhrasebook, FileStyle};

use crate::arbiter::{
    compare_records, is_journal, journal_moves, journal_notes, print_diff, ArbiterGame, DiffArgs,
    DiffOutput, Files, LoadedRecord, ReconcileArgs, RecordFormat, Registry, Words,
};
use crate::journal::Journal;
use crate::kind::GameKind;

/// Chess at `tandem arbiter`.
pub struct ChessArbiter;

impl ArbiterGame for ChessArbiter {
    fn claims_record(&self, path: &Path, table: &str) -> anyhow::Result<bool> {
        is_chess_record(path, table)
    }

    fn claims_position(&self, text: &str) -> bool {
        is_chess_fen(text)
    }

    fn reconcile(
        &self,
        args: &ReconcileArgs,
        _kind: GameKind,
        reg: &Registry,
    ) -> anyhow::Result<ExitCode> {
        run_reconcile(args, reg)
    }

    fn diff(&self, args: &DiffArgs, _kind: GameKind) -> anyhow::Result<ExitCode> {
        run_diff(args)
    }
}

/// The chess file names `--files` asks for.
fn file_style(files: Files) -> FileStyle {
    match files {
        Files::Names => FileStyle::Names,
        Files::Letters => FileStyle::Letters,
    }
}

fn announcer(w: Words, files: Files) -> ChessAnnouncer {
    let book = ChessPhrasebook::builtin(w.lang.as_str()).unwrap_or_else(ChessPhrasebook::english);
    ChessAnnouncer::new(book, file_style(files))
}

// ---------------------------------------------------------------- detect

/// Whether a text looks like chess: a FEN with ranks (`rnbqkbnr/pppp…`).
#[must_use]
pub fn is_chess_fen(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|b| b.matches('/').count() == 7)
}

/// One move token of a chess record: SAN (`e4`, `Nf3`, `exd5`, `O-O`,
/// `e8=Q+`) or UCI (`e2e4`, `e7e8q`); not draughts (`32-28`, `c3-d4`).
fn is_chess_token(t: &str) -> bool {
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    if matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let b = t.as_bytes();
    let sq = |i: usize| {
        b.len() >= i + 2 && (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1])
    };
    match b.first() {
        // A piece move: Nf3, Nbd2, Rxe1, Qh4xe1.
        Some(b'K' | b'Q' | b'R' | b'B' | b'N') => t.len() >= 3 && sq(t.len() - 2),
        // A pawn move (e4, exd5, e8=Q) or UCI (e2e4, e7e8q).
        Some(b'a'..=b'h') => {
            let core = t.split('=').next().unwrap_or(t);
            let core = core.as_bytes();
            (core.len() == 2 && sq(0))
                || (core.len() == 4 && core[1] == b'x' && sq(2))
                || ((4..=5).contains(&core.len()) && sq(0) && sq(2))
        }
        _ => false,
    }
}

/// Whether a record file is chess: a `.pgn` file, a tandem journal of a
/// chess game, or moves that can only be chess (SAN such as `e4`, `Nf3`,
/// `O-O`; UCI such as `e2e4`).
///
/// # Errors
/// The file cannot be read.
pub fn is_chess_record(path: &Path, table: &str) -> anyhow::Result<bool> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        return Ok(true);
    }
    let bytes = crate::brf_read::record_bytes(path, table)?;
    let text = tandem_rules::record::decode_text(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    if is_journal(text) {
        return Ok(Journal::parse(&bytes)
            .start()
            .is_some_and(|s| s.variant.eq_ignore_ascii_case("chess")));
    }
    let games = parse_pgn(text);
    let Some(g) = games.iter().find(|g| !g.moves.is_empty()) else {
        return Ok(false);
    };
    if g.tag("GameType").is_some() {
        return Ok(false); // PDN: draughts.
    }
    if g.tag("FEN").is_some_and(is_chess_fen) {
        return Ok(true);
    }
    // `c3-d4` is 64-square draughts as well as chess: a chess record needs
    // a move only chess writes.
    let chess = g.moves.iter().filter(|m| is_chess_token(&m.text)).count();
    let draughts_like = g
        .moves
        .iter()
        .filter(|m| m.text.bytes().next().is_some_and(|c| c.is_ascii_digit()))
        .count();
    Ok(chess > 0 && draughts_like == 0)
}

// ---------------------------------------------------------------- records

/// Reads a chess record: a tandem journal, PGN or a move list.
fn load(path: &Path, table: &str) -> anyhow::Result<LoadedRecord> {
    let bytes = crate::brf_read::record_bytes(path, table)?;
    let text = tandem_rules::record::decode_text(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    if is_journal(text) {
        let j = Journal::parse(&bytes);
        let Some(start) = j.start() else {
            bail!(
                "{}: not a tandem journal (no game start on line 1)",
                path.display()
            );
        };
        if !start.variant.eq_ignore_ascii_case("chess") {
            bail!(
                "{}: a journal of {}, not of chess (give --variant)",
                path.display(),
                start.variant
            );
        }
        let notes = journal_notes(path, &j);
        return Ok(LoadedRecord {
            path: path.to_owned(),
            format: RecordFormat::Journal,
            texts: journal_moves(&j),
            variant: None,
            fen: Some(start.fen.clone()),
            journal: Some(j),
            notes,
        });
    }
    let has_tags = text.lines().any(|l| l.trim_start().starts_with('['));
    let games: Vec<_> = parse_pgn(text)
        .into_iter()
        .filter(|g| !g.moves.is_empty())
        .collect();
    let game = crate::arbiter::records::the_one_game(&games, path)?;
    // Standard chess or Chess960 (whose start is its FEN): another variant
    // is refused with the reason.
    if let Err(why) = game.start() {
        bail!("{}: {why}", path.display());
    }
    Ok(LoadedRecord {
        path: path.to_owned(),
        format: if crate::brf_read::is_brf(path) {
            RecordFormat::Brf
        } else if has_tags {
            RecordFormat::Pgn
        } else {
            RecordFormat::List
        },
        texts: game.moves.iter().map(|m| m.text.clone()).collect(),
        variant: None,
        fen: game
            .tag("FEN")
            .filter(|f| !f.trim().is_empty())
            .map(str::to_owned),
        journal: None,
        notes: Vec::new(),
    })
}

/// A record's start position from FEN: standard chess, or Chess960 where
/// the castling rights name rooks standard castling cannot use (a Chess960
/// start; where both read, their castling is the same).
fn start_fen(f: &str) -> Result<Chess, tandem_rules::chess::ChessError> {
    from_fen(f).or_else(|e| tandem_rules::chess::from_fen_in(f, true).map_err(|_| e))
}

/// `tandem arbiter reconcile` for chess.
///
/// # Errors
/// A record, FEN or journal that cannot be read (exit status 2).
pub fn run_reconcile(args: &ReconcileArgs, reg: &Registry) -> anyhow::Result<ExitCode> {
    let a = load(&args.a, &args.braille_table())?;
    let b = load(&args.b, &args.braille_table())?;
    let start = match (&args.fen, &a.fen, &b.fen) {
        (Some(f), _, _) => start_fen(f).with_context(|| format!("reading --fen {f:?}"))?,
        (None, fa, fb) => {
            let read = |f: &Option<String>, rec: &LoadedRecord| {
                f.as_deref()
                    .map(start_fen)
                    .transpose()
                    .with_context(|| format!("{}: start FEN", rec.path.display()))
            };
            match (read(fa, &a)?, read(fb, &b)?) {
                (Some(x), Some(y)) if x != y => bail!(
                    "the records start from different positions: {} from {}, {} from {} (give --fen)",
                    a.path.display(),
                    to_fen(&x),
                    b.path.display(),
                    to_fen(&y)
                ),
                (x, y) => x.or(y).unwrap_or_default(),
            }
        }
    };
    let w = Words::new(args.lang);
    compare_records::<ChessGame>(args, &start, &a, &b, w, &announcer(w, args.files), reg)
}

impl crate::arbiter::ReportGame for ChessGame {
    type Announcer = ChessAnnouncer;

    fn variant_name(_start: &Chess) -> &'static str {
        "chess"
    }

    fn fen(pos: &Chess) -> String {
        to_fen(pos)
    }

    fn turn(pos: &Chess) -> Color {
        Color::from(pos.turn())
    }

    /// The start's move number counts.
    fn move_label(start: &Chess, _before: &Chess, ply: usize, _w: Words) -> String {
        let first = usize::try_from(start.fullmoves().get()).unwrap_or(1);
        let k = ply - 1 + usize::from(start.turn() == ShColor::Black);
        if k % 2 == 0 {
            format!("{}.", first + k / 2)
        } else {
            format!("{}...", first + k / 2)
        }
    }

    /// SAN.
    fn strict_text(pos: &Chess, m: &ChessMove) -> String {
        san(pos, m)
    }

    fn reason(ann: &ChessAnnouncer, _pos: &Chess, text: &str, e: &ChessError) -> String {
        ann.on_rejected(text, e).text()
    }

    fn diagram(pos: &Chess) -> Vec<String> {
        diagram(pos.board())
    }

    fn list_text(pos: &Chess) -> String {
        list_text(pos)
    }

    fn braille_list(pos: &Chess) -> (Vec<String>, Vec<String>) {
        let braille = ChessRenderer::default().render(
            pos,
            &StatusInfo::new(Color::from(pos.turn())),
            View::List,
            Width::DEFAULT,
        );
        (
            braille.iter().map(|l| l.text()).collect(),
            braille.iter().map(|l| l.line.cells_string()).collect(),
        )
    }

    fn refused_cite(_w: Words) -> String {
        String::new()
    }

    fn set_clocks(w: Words) -> &'static str {
        // 002 E.8: the arbiter corrects both clocks.
        w.s("set_the_clocks_to_these_times_002_e_8")
    }
}

/// `W Ke1 Qd1 Ra1 … a2 b2 | B Ke8 …`: each side's pieces by kind, pawns by
/// square (the braille list view's order).
#[must_use]
pub fn list_text(pos: &Chess) -> String {
    let board = pos.board();
    let mut s = String::new();
    for (i, c) in [ShColor::White, ShColor::Black].into_iter().enumerate() {
        s.push_str(if i == 0 { "W" } else { " | B" });
        let mut any = false;
        for role in tandem_rules::chess::ROLES {
            for sq in board.by_color(c) & board.by_role(role) {
                any = true;
                s.push(' ');
                if role != Role::Pawn {
                    s.push(role.upper_char());
                }
                let _ = write!(s, "{sq}");
            }
        }
        if !any {
            s.push_str(" -");
        }
    }
    s
}

/// An 8x8 diagram, white at the bottom: FEN letters (upper case white,
/// lower case black), `.` an empty square, ranks on the left, files below.
#[must_use]
pub fn diagram(board: &Board) -> Vec<String> {
    let mut lines = vec!["  +-----------------+".to_owned()];
    for r in (0..8u32).rev() {
        let rank = Rank::new(r);
        let mut l = format!("{} |", r + 1);
        for sq in Square::ALL.iter().filter(|s| s.rank() == rank) {
            l.push(' ');
            l.push(board.piece_at(*sq).map_or('.', Piece::char));
        }
        l.push_str(" |");
        lines.push(l);
    }
    lines.push("  +-----------------+".to_owned());
    lines.push("    a b c d e f g h".to_owned());
    lines
}

// ------------------------------------------------------------------ diff

/// A board (and the side to move, for a whole FEN) from FEN or its board part.
fn read_board(text: &str, which: &str) -> anyhow::Result<(Board, Option<Color>)> {
    let t = text.trim();
    if t.contains(char::is_whitespace) {
        let fen: Fen = t
            .parse()
            .map_err(|e| anyhow::anyhow!("reading {which} {t:?}: {e}"))?;
        let setup = fen.0;
        Ok((setup.board, Some(Color::from(setup.turn))))
    } else {
        let board: Board = t
            .parse()
            .map_err(|e| anyhow::anyhow!("reading {which} {t:?}: {e}"))?;
        Ok((board, None))
    }
}

fn piece_json(p: Option<Piece>) -> Option<String> {
    p.map(|p| {
        format!(
            "{} {}",
            Color::from(p.color).name(),
            tandem_speech::chess::role_key(p.role)
        )
    })
}

/// `tandem arbiter diff` for chess FENs (boards need not be legal positions:
/// a piece knocked off, art. 7.5).
///
/// # Errors
/// A FEN that does not read (exit status 2).
pub fn run_diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let (a, ta) = read_board(&args.a, "FEN_A")?;
    let (b, tb) = read_board(&args.b, "FEN_B")?;
    let changes: Vec<ChessSquareChange> = diff_boards(&a, &b);
    let turn = match (ta, tb) {
        (Some(x), Some(y)) if x != y => Some((x, y)),
        _ => None,
    };
    let w = Words::new(args.lang);
    let ann = announcer(w, args.files);
    let book = ann.phrasebook();
    let turn_sentence = |c: Color| {
        book.sentence(
            match c {
                Color::White => "turn.white",
                Color::Black => "turn.black",
            },
            &[],
        )
    };
    let mut instructions = ann.fix_sentences(&changes, false);
    let mut spoken = ann.fix_sentences(&changes, true);
    if let Some((want, _)) = turn {
        instructions.push(turn_sentence(want));
        spoken.push(turn_sentence(want));
    }
    let entries: Vec<Json> = changes
        .iter()
        .map(|c| {
            json!({
                "square": square_number(c.square),
                "name": c.square.to_string(),
                "a": piece_json(c.a),
                "b": piece_json(c.b),
            })
        })
        .collect();
    print_diff(
        args.json,
        w,
        &DiffOutput {
            variant: "chess",
            lang: book.language().to_owned(),
            differences: json!(entries),
            squares: changes
                .iter()
                .map(|c| {
                    (
                        c.square.to_string(),
                        ann.piece_name(c.a).to_string(),
                        ann.piece_name(c.b).to_string(),
                    )
                })
                .collect(),
            turn,
            instructions,
            spoken,
            in_sync: book.sentence("table.in_sync", &[]),
            game: "chess",
            extra: serde_json::Map::new(),
            extra_lines: Vec::new(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_tokens_are_told_from_draughts() {
        for t in [
            "e4", "Nf3", "exd5", "O-O", "0-0-0", "e8=Q+", "e2e4", "e7e8q", "Qh4#", "Nbd2",
        ] {
            assert!(is_chess_token(t), "{t}");
        }
        for t in ["32-28", "28x19", "c3-d4", "c3xe5", "hello", "x", "K45"] {
            assert!(!is_chess_token(t), "{t}");
        }
        assert!(is_chess_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
        assert!(!is_chess_fen("W:W31,32:B1,2"));
    }

    #[test]
    fn diagram_puts_white_at_the_bottom() {
        let d = diagram(Chess::default().board());
        assert_eq!(d[1], "8 | r n b q k b n r |");
        assert_eq!(d[5], "4 | . . . . . . . . |");
        assert_eq!(d[8], "1 | R N B Q K B N R |");
        assert_eq!(d[10], "    a b c d e f g h");
    }

    #[test]
    fn list_names_pieces_by_kind() {
        let p = from_fen("4k3/8/8/8/8/8/4P3/R3K2N w Q - 0 1").unwrap();
        assert_eq!(list_text(&p), "W Ke1 Ra1 Nh1 e2 | B Ke8");
    }
}
