//! `tandem arbiter reconcile` and `diff` for draughts (001 ch. VIII 3.1):
//! PDN FEN, the 10x10 or 8x8 diagram, the braille list view and the
//! draughts phrasebook's words. The logic is in [`tandem_rules::draughts::arbiter`].

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde::Serialize;
use serde_json::json;
use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::draughts::arbiter::{diff_positions, Fix, PositionDiff};
use tandem_rules::draughts::game::PlayError;
use tandem_rules::draughts::{Game, Move, Piece, Position, Role, Variant};
use tandem_rules::Color;
use tandem_speech::draughts::DraughtsBook;
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook, SquareStyle, Value};

use crate::arbiter::records::{is_journal, journal_record, LoadedRecord, RecordFormat};
use crate::arbiter::{
    capitalize, compare_records, print_diff, ArbiterGame, DiffArgs, DiffOutput, ReconcileArgs,
    Registry, ReportGame, Words,
};
use crate::journal::Journal;
use crate::kind::GameKind;
use tandem_rules::draughts::pdn::parse_pdn;

/// Draughts (international and 64-square) at `tandem arbiter`.
pub struct DraughtsArbiter;

impl ArbiterGame for DraughtsArbiter {
    fn claims_record(&self, _path: &Path, _table: &str) -> anyhow::Result<bool> {
        // Draughts is what is left when no other game claims the records.
        Ok(false)
    }

    fn claims_position(&self, _text: &str) -> bool {
        false
    }

    fn reconcile(
        &self,
        args: &ReconcileArgs,
        kind: GameKind,
        reg: &Registry,
    ) -> anyhow::Result<ExitCode> {
        run_reconcile(args, kind, reg)
    }

    fn diff(&self, args: &DiffArgs, kind: GameKind) -> anyhow::Result<ExitCode> {
        run_diff(args, kind)
    }
}

/// Reads a record file: a journal, PDN, a plain move list, or a BRF file
/// (back-translated through the liblouis table `table`).
///
/// # Errors
/// The file cannot be read, holds no moves, or holds several games.
pub fn load_record(
    path: &Path,
    variant_hint: Variant,
    table: &str,
) -> anyhow::Result<LoadedRecord> {
    let bytes = crate::brf_read::record_bytes(path, table)?;
    let text = tandem_rules::record::decode_text(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    if is_journal(text) {
        return journal_record(path, Journal::parse(&bytes));
    }
    let has_tags = text.lines().any(|l| l.trim_start().starts_with('['));
    let (format, source) = if crate::brf_read::is_brf(path) {
        (RecordFormat::Brf, join_spaced_squares(text, variant_hint))
    } else if has_tags {
        (RecordFormat::Pdn, text.to_owned())
    } else {
        (RecordFormat::List, join_spaced_squares(text, variant_hint))
    };
    let games = parse_pdn(&source);
    let games: Vec<_> = games
        .into_iter()
        .filter(|g| !g.moves.is_empty() || g.error.is_some())
        .collect();
    let game = crate::arbiter::records::the_one_game(&games, path)?;
    if let Some(e) = &game.error {
        bail!("{}: {e}", path.display());
    }
    let variant = match game.tag("GameType") {
        Some(_) => Some(
            game.variant(variant_hint)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    let fen = game
        .tag("FEN")
        .filter(|f| !f.trim().is_empty())
        .map(str::to_owned);
    Ok(LoadedRecord {
        path: path.to_owned(),
        format,
        texts: game.moves.iter().map(|m| m.text.clone()).collect(),
        variant: variant.map(GameKind::Draughts),
        fen,
        journal: None,
        notes: Vec::new(),
    })
}

/// In a typed move list, `32 28` (two squares with a space) is one move: joins
/// runs of bare squares pairwise with `-`, line by line.
fn join_spaced_squares(text: &str, variant: Variant) -> String {
    let is_square = |t: &str| {
        t.len() <= 3
            && (variant.parse_square(t).is_some() || Variant::SixtyFour.parse_square(t).is_some())
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let mut i = 0;
        let mut words: Vec<String> = Vec::new();
        while i < toks.len() {
            let run = toks[i..].iter().take_while(|t| is_square(t)).count();
            if run >= 2 && run % 2 == 0 {
                for pair in toks[i..i + run].chunks(2) {
                    words.push(format!("{}-{}", pair[0], pair[1]));
                }
                i += run;
            } else {
                words.push(toks[i].to_owned());
                i += 1;
            }
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

fn run_reconcile(args: &ReconcileArgs, kind: GameKind, reg: &Registry) -> anyhow::Result<ExitCode> {
    let given = match kind {
        GameKind::Draughts(v) if args.variant.is_some() => Some(v),
        _ => None,
    };
    let hint = given.unwrap_or(Variant::International);
    let a = load_record(&args.a, hint, &args.braille_table())?;
    let b = load_record(&args.b, hint, &args.braille_table())?;
    let draughts = |k: Option<GameKind>| match k {
        Some(GameKind::Draughts(v)) => Some(v),
        _ => None,
    };
    let variant = match (given, draughts(a.variant), draughts(b.variant)) {
        (Some(v), _, _) => v,
        (None, Some(x), Some(y)) if x != y => bail!(
            "the records are of different variants: {} is {}, {} is {} (give --variant)",
            a.path.display(),
            x.name(),
            b.path.display(),
            y.name()
        ),
        (None, x, y) => x.or(y).unwrap_or(Variant::International),
    };
    let start = match (&args.fen, &a.fen, &b.fen) {
        (Some(f), _, _) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        (None, fa, fb) => {
            let pa = fa
                .as_deref()
                .map(|f| Position::from_fen(variant, f))
                .transpose()
                .with_context(|| format!("{}: start FEN", a.path.display()))?;
            let pb = fb
                .as_deref()
                .map(|f| Position::from_fen(variant, f))
                .transpose()
                .with_context(|| format!("{}: start FEN", b.path.display()))?;
            match (pa, pb) {
                (Some(x), Some(y)) if x != y => bail!(
                    "the records start from different positions: {} from {}, {} from {} (give --fen)",
                    a.path.display(),
                    x.to_fen(),
                    b.path.display(),
                    y.to_fen()
                ),
                (x, y) => x.or(y).unwrap_or_else(|| Position::start(variant)),
            }
        }
    };
    let w = Words::new(args.lang);
    let ann = Announcer::new(w.book(), AnnounceOptions::default());
    compare_records::<Game>(args, &start, &a, &b, w, &ann, reg)
}

impl ReportGame for Game {
    type Announcer = Announcer;

    fn variant_name(start: &Position) -> &'static str {
        start.variant().name()
    }

    fn fen(pos: &Position) -> String {
        pos.to_fen()
    }

    fn turn(pos: &Position) -> Color {
        pos.turn()
    }

    fn move_label(start: &Position, _before: &Position, ply: usize, _w: Words) -> String {
        let k = ply - 1 + usize::from(start.turn() == Color::Black);
        if k % 2 == 0 {
            format!("{}.", k / 2 + 1)
        } else {
            format!("{}...", k / 2 + 1)
        }
    }

    fn strict_text(pos: &Position, m: &Move) -> String {
        tandem_rules::draughts::notation::write_move(pos, m)
    }

    fn reason(ann: &Announcer, pos: &Position, text: &str, e: &PlayError) -> String {
        match e {
            PlayError::Resolve(re) => ann.on_rejected(pos, text, re).text(),
            PlayError::GameOver(_) => ann.game_over_refusal().text(),
        }
    }

    fn diagram(pos: &Position) -> Vec<String> {
        diagram(pos)
    }

    fn list_text(pos: &Position) -> String {
        list_text(pos)
    }

    fn braille_list(pos: &Position) -> (Vec<String>, Vec<String>) {
        let braille = StandardRenderer::default().render(
            pos,
            &StatusInfo::new(pos.turn()),
            View::List,
            Width::DEFAULT,
        );
        (
            braille.iter().map(|l| l.text()).collect(),
            braille.iter().map(|l| l.cells_string()).collect(),
        )
    }

    fn refused_cite(w: Words) -> String {
        format!(" (001 {} VIII 3.2)", w.s("ch"))
    }

    fn set_clocks(w: Words) -> &'static str {
        w.s("set_the_clocks_to_these_times_001_ch_vii")
    }
}

/// `W 31 32 K45 | B 1 2`: the pieces by square (kings marked `K`).
#[must_use]
pub fn list_text(pos: &Position) -> String {
    let v = pos.variant();
    let mut s = String::new();
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        s.push_str(if i == 0 { "W" } else { " | B" });
        let mut any = false;
        for (sq, p) in pos.pieces().filter(|(_, p)| p.color == color) {
            any = true;
            s.push(' ');
            if p.role == Role::King {
                s.push('K');
            }
            s.push_str(&v.square_name(sq));
        }
        if !any {
            s.push_str(" -");
        }
    }
    s
}

fn piece_char(p: Option<Piece>) -> char {
    p.map_or('.', Piece::letter)
}

/// A text diagram, black's side on top: `w`/`b` men, `W`/`B` kings, `.` an
/// empty dark square; each row ends with its square numbers (in 64-square
/// draughts also the rank, and files below).
#[must_use]
pub fn diagram(pos: &Position) -> Vec<String> {
    let v = pos.variant();
    let n = v.size();
    let mut lines = Vec::new();
    let border = format!("  +{}+", "-".repeat(usize::from(n) * 2 + 1));
    lines.push(border.clone());
    for row in 0..n {
        let mut l = String::from("  |");
        let mut squares = Vec::new();
        for col in 0..n {
            match v.square_at(row, col) {
                Some(sq) => {
                    l.push(' ');
                    l.push(piece_char(pos.piece_at(sq)));
                    squares.push(sq.number());
                }
                None => l.push_str("  "),
            }
        }
        l.push_str(" |");
        let (first, last) = (
            squares.first().copied().unwrap_or(0),
            squares.last().copied().unwrap_or(0),
        );
        if v.algebraic_notation() {
            let _ = write!(l, " {} {first:>2}-{last:>2}", n - row);
        } else {
            let _ = write!(l, " {first:>2}-{last:>2}");
        }
        lines.push(l);
    }
    lines.push(border);
    if v.algebraic_notation() {
        let files: String = (0..n).map(|c| format!(" {}", (b'a' + c) as char)).collect();
        lines.push(format!("   {files}"));
    }
    lines
}

// ------------------------------------------------------------------ diff

/// One differing square in `tandem arbiter diff --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffEntry {
    /// The square number.
    pub square: u8,
    /// The algebraic name (64-square draughts only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What stands there in the first position: `"white man"`, ... or null.
    pub a: Option<&'static str>,
    /// What stands there on the second board.
    pub b: Option<&'static str>,
}

/// The instructions to make the second board equal the first, one sentence
/// each, in the phrasebook's language. `spoken` picks number words for
/// squares (for speech) over digits (for the screen).
#[must_use]
pub fn fix_sentences(
    book: &Phrasebook,
    variant: Variant,
    d: &PositionDiff,
    spoken: bool,
) -> Vec<String> {
    let square = |sq| {
        if spoken {
            Value::Square(book.square_words(variant, sq, SquareStyle::default()))
        } else {
            Value::Text(variant.square_name(sq))
        }
    };
    let sentence = |key: &str, sq, piece: Piece| {
        capitalize(&book.render(
            key,
            &[
                ("square", square(sq)),
                ("piece", Value::Text(book.piece(Some(piece)).to_owned())),
            ],
        ))
    };
    let mut out = Vec::new();
    for c in &d.changes {
        match c.fix() {
            Some(Fix::Remove { square, piece }) => {
                out.push(sentence("sync.fix_remove", square, piece))
            }
            Some(Fix::Put { square, piece }) => out.push(sentence("sync.fix_put", square, piece)),
            Some(Fix::Replace {
                square,
                remove,
                put,
            }) => {
                out.push(sentence("sync.fix_remove", square, remove));
                out.push(sentence("sync.fix_put", square, put));
            }
            None => {}
        }
    }
    if let Some((want, _)) = d.turn {
        out.push(capitalize(
            &book.render("turn.to_move", &[("side", Value::Side(want))]),
        ));
    }
    out
}

fn run_diff(args: &DiffArgs, kind: GameKind) -> anyhow::Result<ExitCode> {
    let v = match kind {
        GameKind::Draughts(v) => v,
        _ => Variant::International,
    };
    let a =
        Position::from_fen(v, &args.a).with_context(|| format!("reading FEN_A {:?}", args.a))?;
    let b =
        Position::from_fen(v, &args.b).with_context(|| format!("reading FEN_B {:?}", args.b))?;
    // Both were read for the same variant.
    let d = diff_positions(&a, &b).context("comparing the positions")?;
    let w = Words::new(args.lang);
    let book = w.book();
    let instructions = fix_sentences(&book, v, &d, false);
    let spoken = fix_sentences(&book, v, &d, true);
    let entries: Vec<DiffEntry> = d
        .changes
        .iter()
        .map(|c| DiffEntry {
            square: c.square.number(),
            name: v.algebraic_notation().then(|| v.square_name(c.square)),
            a: c.a.map(Piece::name),
            b: c.b.map(Piece::name),
        })
        .collect();
    print_diff(
        args.json,
        w,
        &DiffOutput {
            variant: v.name(),
            lang: book.language().to_owned(),
            differences: json!(entries),
            squares: d
                .changes
                .iter()
                .map(|c| {
                    (
                        format!("{:>3}", v.square_name(c.square)),
                        book.piece(c.a).to_owned(),
                        book.piece(c.b).to_owned(),
                    )
                })
                .collect(),
            turn: d.turn,
            instructions,
            spoken,
            in_sync: capitalize(&book.render("sync.in_sync", &[])),
            game: "draughts",
            extra: serde_json::Map::new(),
            extra_lines: Vec::new(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaced_squares_join_into_moves() {
        let s = join_spaced_squares(
            "1. 32 28 19 23\r\n2. 28x19 14 x 23\n05 10\n",
            Variant::International,
        );
        assert_eq!(s, "1. 32-28 19-23\n2. 28x19 14 x 23\n05-10\n");
    }

    #[test]
    fn diagram_marks_pieces_and_rows() {
        let p = Position::from_fen(Variant::International, "W:W46,K5:B1").unwrap();
        let d = diagram(&p);
        assert_eq!(d[1], "  |   b   .   .   .   W |  1- 5");
        assert_eq!(d[10], "  | w   .   .   .   .   | 46-50");
    }
}
