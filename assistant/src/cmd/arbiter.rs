//! `tandem arbiter`: the arbiter's tools when the two boards differ
//! (001 ch. VIII 3.1; 002 annex E.7-E.8) and when announcements go wrong
//! too often (001 ch. VIII 3.2).
//!
//! - `tandem arbiter reconcile A B [--variant V] [--fen FEN] [--journal J] [--lang pl|en] [--json]`:
//!   compares two records of one game (PDN, a tandem journal, or a move list
//!   typed from a paper or braille scoresheet). Exit status 0 when the
//!   records agree move for move, 1 when they differ (or one holds an
//!   illegal move), 2 when a record cannot be read.
//! - `tandem arbiter diff FEN_A FEN_B [--variant V] [--lang pl|en] [--json]`:
//!   the squares where two positions differ and what to do on the second
//!   board to make it equal the first. Exit status 0 when they are the same,
//!   1 when they differ, 2 on a bad FEN.
//! - `tandem arbiter announcements JOURNAL [--json]`: how often each side's
//!   input was refused (an illegal or misheard move, an unknown command).
//!
//! The logic is in [`tandem_rules::arbiter`]; this module reads files and
//! presents the results (see `docs/arbiter.md`).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Subcommand;
use serde::Serialize;
use serde_json::{json, Value as Json};
use tandem_braille::{BrailleRenderer, StandardRenderer, StatusInfo, View, Width};
use tandem_rules::arbiter::{diff_positions, Finding, Fix, PositionDiff, Side};
use tandem_rules::game::PlayError;
use tandem_rules::pdn::parse_pdn;
use tandem_rules::reconcile::{
    Difference as GenericDifference, Reconciliation as GenericReconciliation, RecordReplay,
    RecordedGame,
};
use tandem_rules::{Color, Game, Move, Piece, Position, Role, TimeControl, Variant};
use tandem_speech::chess::FileStyle;
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook, SquareStyle, Value};

use crate::cmd::say::Lang;

pub mod chess_arbiter;
use crate::journal::{Event, Journal, Source};

/// Arguments of `tandem arbiter`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: ArbiterCommand,
}

/// The arbiter's subcommands.
#[derive(Debug, Subcommand)]
pub enum ArbiterCommand {
    /// Compare two records of one game: where they agree, where they differ,
    /// the position to go back to and the clock times there (exit 0: they
    /// agree; 1: they differ; 2: a record cannot be read).
    Reconcile(ReconcileArgs),
    /// The squares where two positions differ and what to do on the second
    /// board (exit 0: the same; 1: they differ).
    Diff(DiffArgs),
    /// How often each side's input was refused, from a journal (001 ch. VIII 3.2).
    Announcements(AnnouncementsArgs),
}

/// Arguments of `tandem arbiter reconcile`.
#[derive(Debug, clap::Args)]
pub struct ReconcileArgs {
    /// The first record: PDN, a tandem journal, a move list (`1. 32-28 19-23 ...`, or one move a line),
    /// or a braille record as a BRF file (`.brf`, read back with liblouis).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The second record, in any of the same forms.
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// international, sixty-four or chess (default: from the records: a
    /// `.pgn` file, a chess journal or SAN moves are chess; else international).
    #[arg(long)]
    pub variant: Option<GameArg>,
    /// The start position as PDN FEN (default: from the records, else the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// A tandem journal to take the clock times from (default: A or B if one is a journal).
    #[arg(long, value_name = "J")]
    pub journal: Option<PathBuf>,
    /// The language of the report and of the spoken reasons.
    #[arg(long, value_enum, default_value = "pl")]
    pub lang: Lang,
    /// Chess: how files are spoken (names: Anna … Hektor, 002 annex E.2.1; letters).
    #[arg(long, value_enum, default_value = "names")]
    pub files: Files,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The liblouis table a `.brf` record was written with (default:
    /// Pl-Pl-g1.utb for --lang pl, en-ueb-g1.ctb for en).
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
}

impl ReconcileArgs {
    /// The liblouis table for `.brf` records.
    fn braille_table(&self) -> String {
        self.table.clone().unwrap_or_else(|| {
            crate::export::brf::default_table(if self.lang == Lang::Pl { "pl" } else { "en" })
                .to_owned()
        })
    }
}

/// Arguments of `tandem arbiter diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The right position (the record's), as PDN FEN or chess FEN.
    #[arg(value_name = "FEN_A")]
    pub a: String,
    /// The board to correct, as PDN FEN or chess FEN (or only its board part).
    #[arg(value_name = "FEN_B")]
    pub b: String,
    /// international, sixty-four or chess (default: chess for a chess FEN,
    /// else international).
    #[arg(long)]
    pub variant: Option<GameArg>,
    /// The language of the instructions.
    #[arg(long, value_enum, default_value = "pl")]
    pub lang: Lang,
    /// Chess: how files are spoken (names: Anna … Hektor, 002 annex E.2.1; letters).
    #[arg(long, value_enum, default_value = "names")]
    pub files: Files,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The game a record or position is of: a draughts variant or chess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameArg {
    /// Draughts, in a variant.
    Draughts(Variant),
    /// Chess (002, FIDE Laws).
    Chess,
}

impl std::str::FromStr for GameArg {
    type Err = String;

    fn from_str(s: &str) -> Result<GameArg, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chess" | "szachy" | "standard" => Ok(GameArg::Chess),
            other => other
                .parse()
                .map(GameArg::Draughts)
                .map_err(|_| format!("{s:?} is not a game: international, sixty-four or chess")),
        }
    }
}

/// How chess files are spoken (`--files`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Files {
    /// Anna, Bella, Cesar, … (002 annex E.2.1).
    Names,
    /// a, b, c, …
    Letters,
}

impl Files {
    fn style(self) -> FileStyle {
        match self {
            Files::Names => FileStyle::Names,
            Files::Letters => FileStyle::Letters,
        }
    }
}

/// Arguments of `tandem arbiter announcements`.
#[derive(Debug, clap::Args)]
pub struct AnnouncementsArgs {
    /// A tandem journal.
    #[arg(value_name = "JOURNAL")]
    pub journal: PathBuf,
    /// The language of the report.
    #[arg(long, value_enum, default_value = "pl")]
    pub lang: Lang,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tandem arbiter`.
///
/// # Errors
/// A record, FEN or journal that cannot be read (exit status 2).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        ArbiterCommand::Reconcile(a) => run_reconcile(&a),
        ArbiterCommand::Diff(a) => run_diff(&a),
        ArbiterCommand::Announcements(a) => run_announcements(&a),
    }
}

/// Report wording in the chosen language (the spoken parts come from the phrasebook).
#[derive(Debug, Clone, Copy)]
struct Words {
    pl: bool,
}

impl Words {
    fn new(lang: Lang) -> Words {
        Words {
            pl: lang == Lang::Pl,
        }
    }
    fn s(self, en: &'static str, pl: &'static str) -> &'static str {
        if self.pl {
            pl
        } else {
            en
        }
    }
    fn book(self) -> Phrasebook {
        if self.pl {
            Phrasebook::polish()
        } else {
            Phrasebook::english()
        }
    }
}

// ---------------------------------------------------------------- records

/// How a record file was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// PDN with tags.
    Pdn,
    /// PGN with tags (chess).
    Pgn,
    /// A tandem journal (JSON lines).
    Journal,
    /// A plain move list.
    List,
    /// A braille record (Braille Ready Format), back-translated with liblouis.
    Brf,
}

/// A record read from a file.
#[derive(Debug, Clone)]
pub struct LoadedRecord {
    /// The file.
    pub path: PathBuf,
    /// Its form.
    pub format: RecordFormat,
    /// The moves as written.
    pub texts: Vec<String>,
    /// The variant it names (PDN `[GameType]`, the journal's start).
    pub variant: Option<Variant>,
    /// The start position it names (PDN `[FEN]`, the journal's start), as FEN.
    pub fen: Option<String>,
    /// The journal, if it is one.
    pub journal: Option<Journal>,
    /// Things the arbiter should know about how it was read.
    pub notes: Vec<String>,
}

/// Whether text is a tandem journal: its first non-blank line is a JSON object.
#[must_use]
pub fn is_journal(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| {
            l.starts_with('{') && serde_json::from_str::<serde_json::Map<String, Json>>(l).is_ok()
        })
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
    let bytes = crate::export::brf::record_bytes(path, table)?;
    let text = tandem_rules::record::decode_text(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    if is_journal(text) {
        return journal_record(path, Journal::parse(&bytes));
    }
    let has_tags = text.lines().any(|l| l.trim_start().starts_with('['));
    let (format, source) = if crate::export::brf::is_brf(path) {
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
    let game = match games.len() {
        0 => bail!("{}: no moves found", path.display()),
        1 => &games[0],
        n => bail!(
            "{}: holds {n} games; give each record as a file with one game",
            path.display()
        ),
    };
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
        variant,
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

/// What the arbiter should know about how a journal was read: a broken
/// chain (read up to it), a torn last line (dropped).
fn journal_notes(path: &Path, j: &Journal) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(bad) = &j.bad {
        notes.push(format!(
            "{}: journal chain broken at line {} ({}); read up to it",
            path.display(),
            bad.line,
            bad.reason
        ));
    }
    if let Some(t) = &j.torn {
        notes.push(format!(
            "{}: torn last line {} dropped ({})",
            path.display(),
            t.line,
            t.reason
        ));
    }
    notes
}

/// Reads a journal given with `--journal`.
fn read_journal(p: &Path) -> anyhow::Result<Journal> {
    let bytes = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
    if !is_journal(&String::from_utf8_lossy(&bytes)) {
        bail!(
            "{}: not a tandem journal (the first line is not a JSON object)",
            p.display()
        );
    }
    let j = Journal::parse(&bytes);
    if j.start().is_none() {
        bail!(
            "{}: not a tandem journal (no game start on line 1)",
            p.display()
        );
    }
    Ok(j)
}

fn journal_record(path: &Path, j: Journal) -> anyhow::Result<LoadedRecord> {
    let Some(start) = j.start() else {
        bail!(
            "{}: not a tandem journal (no game start on line 1)",
            path.display()
        );
    };
    let variant: Variant = start
        .variant
        .parse()
        .map_err(|e| anyhow::anyhow!("{}: journal start: {e}", path.display()))?;
    let notes = journal_notes(path, &j);
    Ok(LoadedRecord {
        path: path.to_owned(),
        format: RecordFormat::Journal,
        texts: journal_moves(&j),
        variant: Some(variant),
        fen: Some(start.fen.clone()),
        journal: Some(j),
        notes,
    })
}

/// The moves of a journal in order; a move event for a ply already played
/// (after a correction) replaces that ply and what followed.
#[must_use]
pub fn journal_moves(j: &Journal) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in &j.records {
        if let Event::Move { ply, text, .. } = &r.event {
            let k = (*ply as usize).saturating_sub(1);
            v.truncate(k);
            v.push(text.clone());
        }
    }
    v
}

/// Clock times at a ply, from a journal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClockTimes {
    /// The ply they belong to (0: the start).
    pub ply: usize,
    /// White's time left, seconds.
    pub white_remaining: f64,
    /// Black's time left, seconds.
    pub black_remaining: f64,
    /// White's time used, seconds.
    pub white_used: f64,
    /// Black's time used, seconds.
    pub black_used: f64,
}

fn secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// The clock times right after ply `ply` (0: the start of the game) as the
/// journal recorded them: time left after the press, time used as the sum of
/// each side's move times. `None` if the journal does not reach that ply.
#[must_use]
pub fn clocks_at(j: &Journal, ply: usize) -> Option<ClockTimes> {
    // (side, move_ms, white_ms, black_ms) per ply, later entries replacing earlier ones.
    let mut plies: Vec<(Color, u64, u64, u64)> = Vec::new();
    for r in &j.records {
        if let Event::Move {
            ply: p,
            side,
            move_ms,
            white_ms,
            black_ms,
            ..
        } = &r.event
        {
            let k = (*p as usize).saturating_sub(1);
            plies.truncate(k);
            plies.push((*side, *move_ms, *white_ms, *black_ms));
        }
    }
    let used = |c: Color| -> u64 {
        plies
            .iter()
            .take(ply)
            .filter(|p| p.0 == c)
            .map(|p| p.1)
            .sum()
    };
    let (white_ms, black_ms) = if ply == 0 {
        let initial = TimeControl::lookup(&j.start()?.control)
            .ok()?
            .initial_time();
        let ms = u64::try_from(initial.as_millis()).ok()?;
        (ms, ms)
    } else {
        let p = plies.get(ply - 1)?;
        (p.2, p.3)
    };
    Some(ClockTimes {
        ply,
        white_remaining: secs(white_ms),
        black_remaining: secs(black_ms),
        white_used: secs(used(Color::White)),
        black_used: secs(used(Color::Black)),
    })
}

// ---------------------------------------------------------- announcements

/// One refused input (001 ch. VIII 3.2: wrong announcements).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefusedInput {
    /// Journal line.
    pub line: u64,
    /// Plies played before it.
    pub ply: usize,
    /// The side to move when it was entered (who entered it).
    pub side: Color,
    /// Typed, spoken, keys, control.
    pub source: Source,
    /// What was entered.
    pub input: String,
    /// Why it was refused.
    pub reason: String,
}

/// Per side: how often input was refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SideAnnouncements {
    /// Refused inputs in all.
    pub refused: usize,
    /// Of those, spoken.
    pub spoken: usize,
    /// Of those, typed or keyed.
    pub typed: usize,
    /// Moves played.
    pub moves: usize,
    /// Of this side's moves, how many the arbiter took back (`correction`).
    pub taken_back: usize,
}

/// One correction: plies the arbiter took back after a mismatch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CorrectionEntry {
    /// Journal line.
    pub line: u64,
    /// Plies taken back.
    pub plies: u32,
    /// The moves taken back, in the order they were played.
    pub undone: Vec<String>,
    /// The arbiter's reason.
    pub reason: String,
}

/// Announcement statistics from a journal (001 ch. VIII 3.2).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AnnouncementStats {
    /// White's.
    pub white: SideAnnouncements,
    /// Black's.
    pub black: SideAnnouncements,
    /// Reports that the boards differ.
    pub mismatches: usize,
    /// Every refused input, in order.
    pub refused: Vec<RefusedInput>,
    /// The arbiter's corrections (moves taken back), in order.
    pub corrections: Vec<CorrectionEntry>,
}

/// Counts refused inputs per side: a `rejected` event is charged to the side
/// to move at that moment (moves are entered by the side to move); also
/// counts moves, `mismatch` reports and the arbiter's corrections (each move
/// taken back is charged to the side that played it). Inputs from the
/// control socket (`tandem ctl`, the assistant or arbiter) are listed but not
/// charged.
#[must_use]
pub fn announcement_stats(j: &Journal) -> AnnouncementStats {
    let mut st = AnnouncementStats::default();
    let mut turn = j
        .start()
        .and_then(|s| {
            if s.variant.eq_ignore_ascii_case("chess") {
                let p = tandem_rules::chess::from_fen(&s.fen).ok()?;
                return Some(tandem_rules::chess::shakmaty::Position::turn(&p).into());
            }
            let v: Variant = s.variant.parse().ok()?;
            Position::from_fen(v, &s.fen).ok().map(|p| p.turn())
        })
        .unwrap_or(Color::White);
    let first = turn;
    let mut ply = 0usize;
    for r in &j.records {
        match &r.event {
            Event::Move { ply: p, side, .. } => {
                ply = *p as usize;
                turn = side.other();
                let s = match side {
                    Color::White => &mut st.white,
                    Color::Black => &mut st.black,
                };
                s.moves += 1;
            }
            Event::Rejected {
                source,
                input,
                reason,
            } => {
                st.refused.push(RefusedInput {
                    line: r.seq,
                    ply,
                    side: turn,
                    source: *source,
                    input: input.clone(),
                    reason: reason.clone(),
                });
                if *source == Source::Control {
                    continue;
                }
                let s = match turn {
                    Color::White => &mut st.white,
                    Color::Black => &mut st.black,
                };
                s.refused += 1;
                if *source == Source::Spoken {
                    s.spoken += 1;
                } else {
                    s.typed += 1;
                }
            }
            Event::Mismatch { .. } => st.mismatches += 1,
            Event::Correction {
                plies,
                undone,
                reason,
                ..
            } => {
                // Ply k was played by the side that moved first when k is odd.
                for k in (ply + 1).saturating_sub(*plies as usize)..=ply {
                    let side = if k % 2 == 1 { first } else { first.other() };
                    match side {
                        Color::White => st.white.taken_back += 1,
                        Color::Black => st.black.taken_back += 1,
                    }
                }
                ply = ply.saturating_sub(*plies as usize);
                turn = if ply % 2 == 0 { first } else { first.other() };
                st.corrections.push(CorrectionEntry {
                    line: r.seq,
                    plies: *plies,
                    undone: undone.clone(),
                    reason: reason.clone(),
                });
            }
            _ => {}
        }
    }
    st
}

fn run_announcements(args: &AnnouncementsArgs) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.journal)
        .with_context(|| format!("reading {}", args.journal.display()))?;
    let j = Journal::parse(&bytes);
    if j.start().is_none() {
        bail!(
            "{}: not a tandem journal (no game start on line 1)",
            args.journal.display()
        );
    }
    let st = announcement_stats(&j);
    let w = Words::new(args.lang);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&st)?)?;
    } else {
        write!(out, "{}", announcements_text(&st, w))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn announcements_text(st: &AnnouncementStats, w: Words) -> String {
    let mut s = String::new();
    for (c, a) in [(Color::White, &st.white), (Color::Black, &st.black)] {
        let side = side_word(c, w);
        let _ = writeln!(
            s,
            "{side}: {} {} ({} {}, {} {}), {} {}, {} {}",
            a.refused,
            w.s("refused inputs", "odrzuconych zapowiedzi"),
            a.spoken,
            w.s("spoken", "głosem"),
            a.typed,
            w.s("typed", "wpisanych"),
            a.moves,
            w.s("moves played", "wykonanych posunięć"),
            a.taken_back,
            w.s("taken back by the arbiter", "cofniętych przez sędziego"),
        );
    }
    let _ = writeln!(
        s,
        "{}: {}",
        w.s("Boards reported different", "Zgłoszenia różnych pozycji"),
        st.mismatches
    );
    for c in &st.corrections {
        let _ = writeln!(
            s,
            "  {} {}: {} {}: {} {}",
            w.s("line", "wiersz"),
            c.line,
            w.s("the arbiter took back", "sędzia cofnął"),
            c.undone.join(" "),
            w.s("reason", "powód"),
            c.reason
        );
    }
    for r in &st.refused {
        let _ = writeln!(
            s,
            "  {} {}, {} {}, {} ({}): {:?}: {}",
            w.s("line", "wiersz"),
            r.line,
            w.s("after ply", "po półruchu"),
            r.ply,
            side_word(r.side, w),
            source_word(r.source, w),
            r.input,
            r.reason
        );
    }
    s
}

fn source_word(s: Source, w: Words) -> &'static str {
    match s {
        Source::Typed => w.s("typed", "wpisane"),
        Source::Spoken => w.s("spoken", "głosem"),
        Source::Keys => w.s("keys", "klawisze"),
        Source::Control => w.s("control, not charged", "sterowanie, nie liczone"),
        Source::Tandem => "tandem",
        Source::Arbiter => w.s("arbiter", "sędzia"),
    }
}

fn side_word(c: Color, w: Words) -> &'static str {
    match c {
        Color::White => w.s("White", "Białe"),
        Color::Black => w.s("Black", "Czarne"),
    }
}

// ------------------------------------------------------------- reconcile

fn run_reconcile(args: &ReconcileArgs) -> anyhow::Result<ExitCode> {
    let chess = match args.variant {
        Some(GameArg::Chess) => true,
        Some(GameArg::Draughts(_)) => false,
        None => {
            let t = args.braille_table();
            chess_arbiter::is_chess_record(&args.a, &t)?
                || chess_arbiter::is_chess_record(&args.b, &t)?
        }
    };
    if chess {
        return chess_arbiter::run_reconcile(args);
    }
    let hint = match args.variant {
        Some(GameArg::Draughts(v)) => v,
        _ => Variant::International,
    };
    let a = load_record(&args.a, hint, &args.braille_table())?;
    let b = load_record(&args.b, hint, &args.braille_table())?;
    let variant = match (args.variant, a.variant, b.variant) {
        (Some(GameArg::Draughts(v)), _, _) => v,
        (None, Some(x), Some(y)) if x != y => bail!(
            "the records are of different variants: {} is {}, {} is {} (give --variant)",
            a.path.display(),
            x.name(),
            b.path.display(),
            y.name()
        ),
        (Some(GameArg::Chess) | None, x, y) => x.or(y).unwrap_or(Variant::International),
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
    compare_records::<Game>(args, &start, &a, &b, w, &ann)
}

/// The rest of `tandem arbiter reconcile` for either game, once the records
/// and the start are read: the clock journal (`--journal`, else A or B if
/// one is a journal), the comparison (001 ch. VIII 3.1; 002 E.7-E.8) and its
/// report. Exit status 0 when the records agree, 1 when they differ.
fn compare_records<G: ReportGame>(
    args: &ReconcileArgs,
    start: &G::Position,
    a: &LoadedRecord,
    b: &LoadedRecord,
    w: Words,
    ann: &G::Announcer,
) -> anyhow::Result<ExitCode> {
    let extra = match &args.journal {
        Some(p) => Some((p.clone(), read_journal(p)?)),
        None => None,
    };
    let r = tandem_rules::reconcile::reconcile::<G, _, _>(start, &a.texts, &b.texts);
    let journal: Option<(PathBuf, &Journal)> = match &extra {
        Some((p, j)) => Some((p.clone(), j)),
        None => a
            .journal
            .as_ref()
            .map(|j| (a.path.clone(), j))
            .or_else(|| b.journal.as_ref().map(|j| (b.path.clone(), j))),
    };
    let report = reconcile_report(&r, a, b, journal, w, ann);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", report.json)?;
    } else {
        write!(out, "{}", report.text)?;
    }
    Ok(if r.agree() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

struct ReconcileReport {
    json: Json,
    text: String,
}

/// The per-game parts of `tandem arbiter reconcile`'s report; the rest
/// (wording, JSON fields, their order) is one code for draughts and chess.
trait ReportGame: RecordedGame<Error: std::fmt::Display> {
    /// Words the reason a move is refused.
    type Announcer;
    /// The game's name in JSON (`international`, `chess`).
    fn variant_name(start: &Self::Position) -> &'static str;
    /// A position as FEN (PDN FEN for draughts).
    fn fen(pos: &Self::Position) -> String;
    /// The side to move.
    fn turn(pos: &Self::Position) -> Color;
    /// "12." for white's 12th move, "12..." for black's.
    fn move_label(start: &Self::Position, ply: usize) -> String;
    /// A legal move in the game's strict notation, played in `pos`.
    fn strict_text(pos: &Self::Position, m: &Self::Move) -> String;
    /// Why `text` cannot be played in `pos`, in the phrasebook's words.
    fn reason(ann: &Self::Announcer, pos: &Self::Position, text: &str, e: &Self::Error) -> String;
    /// A text diagram of the position.
    fn diagram(pos: &Self::Position) -> Vec<String>;
    /// The pieces as one line of text.
    fn list_text(pos: &Self::Position) -> String;
    /// The braille list view (40 cells): each line's text and its cells.
    fn braille_list(pos: &Self::Position) -> (Vec<String>, Vec<String>);
    /// The rule cited after "Refused inputs" (may be empty).
    fn refused_cite(w: Words) -> String;
    /// Telling the arbiter to set the clocks, citing the rule.
    fn set_clocks(w: Words) -> &'static str;
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

    fn move_label(start: &Position, ply: usize) -> String {
        let k = ply - 1 + usize::from(start.turn() == Color::Black);
        if k % 2 == 0 {
            format!("{}.", k / 2 + 1)
        } else {
            format!("{}...", k / 2 + 1)
        }
    }

    fn strict_text(pos: &Position, m: &Move) -> String {
        tandem_rules::notation::write_move(pos, m)
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
        format!(" (001 {} VIII 3.2)", w.s("ch.", "rozdz."))
    }

    fn set_clocks(w: Words) -> &'static str {
        w.s(
            "Set the clocks to these times (001 ch. VIII 3.1.2; 002 E.8).",
            "Ustaw zegary na te czasy (001 rozdz. VIII 3.1.2; 002 E.8).",
        )
    }
}

/// The side that plays ply `ply` (1-based) from `start`.
fn mover<G: ReportGame>(start: &G::Position, ply: usize) -> Color {
    let c = G::turn(start);
    if (ply - 1) % 2 == 0 {
        c
    } else {
        c.other()
    }
}

/// The report of `tandem arbiter reconcile`, text and JSON, for either game.
fn reconcile_report<G: ReportGame>(
    r: &GenericReconciliation<G>,
    a: &LoadedRecord,
    b: &LoadedRecord,
    journal: Option<(PathBuf, &Journal)>,
    w: Words,
    ann: &G::Announcer,
) -> ReconcileReport {
    let start = r.start().clone();
    let pos = r.agreed_position().clone();
    let mut t = String::new();
    let mut notes: Vec<String> = a.notes.iter().chain(&b.notes).cloned().collect();

    // Records.
    let fmt_name = |f: RecordFormat| match f {
        RecordFormat::Pdn => "PDN",
        RecordFormat::Pgn => "PGN",
        RecordFormat::Journal => w.s("journal", "dziennik"),
        RecordFormat::List => w.s("move list", "lista posunięć"),
        RecordFormat::Brf => w.s("braille record (BRF)", "zapis brajlowski (BRF)"),
    };
    for (label, rec, rr) in [("A", a, &r.a), ("B", b, &r.b)] {
        let _ = writeln!(
            t,
            "{} {label}: {} ({}, {} {})",
            w.s("Record", "Zapis"),
            rec.path.display(),
            fmt_name(rec.format),
            rr.written(),
            w.s("plies", "półruchów")
        );
    }

    // Agreement.
    let agreed = r.agreed_plies;
    if r.agree() {
        let _ = writeln!(
            t,
            "{} {agreed} {}.",
            w.s("The records agree on all", "Zapisy są zgodne we wszystkich"),
            w.s("plies", "półruchach")
        );
    } else {
        let last = if agreed == 0 {
            w.s(
                "none: back to the start position",
                "żadnym: powrót do pozycji początkowej",
            )
            .to_owned()
        } else {
            let m = r.agreed_moves();
            format!("{} {}", G::move_label(&start, agreed), m[agreed - 1])
        };
        let _ = writeln!(
            t,
            "{}: {agreed} ({} {last})",
            w.s("Agreed plies", "Zgodne półruchy"),
            w.s("last agreed:", "ostatni zgodny:")
        );
    }

    // First difference.
    let diff_json = r
        .first_difference
        .as_ref()
        .map(|d| difference_json::<G>(d, &start, &pos, ann));
    if let Some(d) = &r.first_difference {
        let _ = writeln!(
            t,
            "{}: {} {} ({} {}, {})",
            w.s("First difference", "Pierwsza różnica"),
            w.s("ply", "półruch"),
            d.ply,
            G::move_label(&start, d.ply),
            side_word(mover::<G>(&start, d.ply), w).to_lowercase(),
            w.s("in the position below", "w pozycji poniżej")
        );
        for side in [Side::A, Side::B] {
            let line = match (d.text(side), d.result(side)) {
                (None, _) | (_, None) => w
                    .s(
                        "(no move: the record ends)",
                        "(brak posunięcia: zapis się kończy)",
                    )
                    .to_owned(),
                (Some(txt), Some(Ok(_))) => format!("{txt} ({})", w.s("legal", "prawidłowe")),
                (Some(txt), Some(Err(e))) => {
                    format!(
                        "{txt} ({}: {})",
                        w.s("illegal", "nieprawidłowe"),
                        G::reason(ann, &pos, txt, e)
                    )
                }
            };
            let _ = writeln!(t, "  {side}: {line}");
        }
    }

    // Finding.
    let finding = finding_text(&r.finding, &r.a.texts, &r.b.texts, w);
    if let Some(f) = &finding {
        let _ = writeln!(t, "{}: {f}", w.s("Looks like", "Wygląda na"));
    }

    // Illegal moves.
    let mut illegal_all = Vec::new();
    for side in [Side::A, Side::B] {
        if let Some(il) = r.illegal(side) {
            let rec = r.record(side);
            let before = rec
                .game
                .position_after(il.ply - 1)
                .unwrap_or_else(|| rec.game.current_position());
            let reason = G::reason(ann, before, &il.text, &il.reason);
            let _ = writeln!(
                t,
                "{} {side}: {} {} ({} {}): {}",
                w.s(
                    "Illegal move in record",
                    "Nieprawidłowe posunięcie w zapisie"
                ),
                w.s("ply", "półruch"),
                il.ply,
                G::move_label(&start, il.ply),
                il.text,
                reason
            );
            illegal_all.push(json!({
                "record": side.name(),
                "ply": il.ply,
                "move": il.text,
                "reason": reason,
                "reason_log": il.reason.to_string(),
            }));
        }
    }
    illegal_all.sort_by_key(|v| v["ply"].as_u64().unwrap_or(u64::MAX));

    // Transposition.
    let transposition = r.transposition.as_ref().map(|tr| {
        let _ = writeln!(
            t,
            "{}: {} {} {} {}; {} {} ({} {}).",
            w.s("Transposition", "Przestawienie posunięć"),
            w.s(
                "the records differ in order from ply",
                "zapisy różnią się kolejnością od półruchu"
            ),
            tr.from_ply,
            w.s(
                "but reach the same position after ply",
                "ale dochodzą do tej samej pozycji po półruchu"
            ),
            tr.same_after,
            w.s(
                "they agree again up to ply",
                "dalej znów są zgodne do półruchu"
            ),
            tr.last_common_ply(),
            w.s("last common position:", "ostatnia wspólna pozycja:"),
            G::fen(&tr.last_common)
        );
        json!({
            "from_ply": tr.from_ply,
            "same_position_after": tr.same_after,
            "agree_again": tr.agree_again,
            "last_common_ply": tr.last_common_ply(),
            "fen": G::fen(&tr.last_common),
        })
    });

    // The position to go back to.
    let diagram = G::diagram(&pos);
    let list = G::list_text(&pos);
    let (braille_text, braille_cells) = G::braille_list(&pos);
    let _ = writeln!(
        t,
        "\n{} {agreed} ({} {}; {} {}):",
        w.s("Position after ply", "Pozycja po półruchu"),
        w.s("to move:", "na posunięciu:"),
        side_word(G::turn(&pos), w).to_lowercase(),
        w.s("next move", "następne posunięcie"),
        G::move_label(&start, agreed + 1)
    );
    let _ = writeln!(t, "FEN {}", G::fen(&pos));
    for l in &diagram {
        let _ = writeln!(t, "{l}");
    }
    let _ = writeln!(t, "{}: {list}", w.s("List", "Lista"));
    let _ = writeln!(
        t,
        "{}:",
        w.s(
            "Braille list view (40 cells)",
            "Widok listy w brajlu (40 znaków)"
        )
    );
    for (cells, text) in braille_cells.iter().zip(&braille_text) {
        let _ = writeln!(t, "  {cells}   {text}");
    }

    // Clocks.
    let clocks = journal.as_ref().and_then(|(_, j)| clocks_at(j, agreed));
    match (&journal, &clocks) {
        (Some((p, _)), Some(c)) => {
            let _ = writeln!(
                t,
                "\n{} {agreed} ({} {}): {} {} {}, {} {}; {} {} {}, {} {}.",
                w.s("Clocks at ply", "Zegary po półruchu"),
                w.s("from", "z"),
                p.display(),
                side_word(Color::White, w),
                clock(c.white_remaining),
                w.s("left", "pozostało"),
                clock(c.white_used),
                w.s("used", "zużyte"),
                side_word(Color::Black, w).to_lowercase(),
                clock(c.black_remaining),
                w.s("left", "pozostało"),
                clock(c.black_used),
                w.s("used", "zużyte"),
            );
            if !r.agree() {
                let _ = writeln!(t, "{}", G::set_clocks(w));
            }
        }
        (Some((p, _)), None) => notes.push(format!(
            "{}: {} {agreed}",
            p.display(),
            w.s(
                "the journal has no clock times for ply",
                "dziennik nie ma czasów zegara dla półruchu"
            )
        )),
        (None, _) => {}
    }
    let trans_clocks = match (&journal, &r.transposition) {
        (Some((_, j)), Some(tr)) => clocks_at(j, tr.last_common_ply()),
        _ => None,
    };

    // Announcements (001 ch. VIII 3.2).
    let announcements = journal.as_ref().map(|(_, j)| announcement_stats(j));
    if let Some(st) = &announcements {
        let _ = writeln!(
            t,
            "\n{}{}:",
            w.s("Refused inputs", "Odrzucone zapowiedzi"),
            G::refused_cite(w)
        );
        for l in announcements_text(st, w).lines().take(3) {
            let _ = writeln!(t, "  {l}");
        }
    }
    for n in &notes {
        let _ = writeln!(t, "{}: {n}", w.s("Note", "Uwaga"));
    }

    let first_illegal = illegal_all.first().cloned().unwrap_or(Json::Null);
    let json = json!({
        "agree": r.agree(),
        "variant": G::variant_name(&start),
        "start_fen": G::fen(&start),
        "records": {
            "a": record_json(a, &r.a),
            "b": record_json(b, &r.b),
        },
        "agreed_plies": agreed,
        "agreed_moves": r.agreed_moves(),
        "first_difference": diff_json,
        "finding": finding_json(&r.finding),
        "finding_text": finding,
        "illegal": first_illegal,
        "illegal_all": illegal_all,
        "transposition": transposition,
        "fen": G::fen(&pos),
        "to_move": G::turn(&pos).name(),
        "next_move": G::move_label(&start, agreed + 1),
        "diagram": diagram,
        "list": list,
        "braille_list": braille_text,
        "braille_cells": braille_cells,
        "clocks": clocks,
        "clocks_source": journal.as_ref().map(|(p, _)| p.display().to_string()),
        "transposition_clocks": trans_clocks,
        "announcements": announcements,
        "notes": notes,
        "lang": if w.pl { "pl" } else { "en" },
    });
    ReconcileReport { json, text: t }
}

fn record_json<G: RecordedGame>(rec: &LoadedRecord, rr: &RecordReplay<G>) -> Json {
    json!({
        "path": rec.path.display().to_string(),
        "format": rec.format,
        "plies": rr.written(),
        "legal_plies": rr.legal(),
    })
}

fn difference_json<G: ReportGame>(
    d: &GenericDifference<G::Move, G::Error>,
    start: &G::Position,
    pos: &G::Position,
    ann: &G::Announcer,
) -> Json {
    let reason = |side: Side| match (d.text(side), d.result(side)) {
        (Some(txt), Some(Err(e))) => Some(G::reason(ann, pos, txt, e)),
        _ => None,
    };
    let strict = |side: Side| match d.result(side) {
        Some(Ok(m)) => Some(G::strict_text(pos, m)),
        _ => None,
    };
    json!({
        "ply": d.ply,
        "move_number": G::move_label(start, d.ply),
        "side": mover::<G>(start, d.ply).name(),
        "a": d.a,
        "b": d.b,
        "a_legal": d.a_legal(),
        "b_legal": d.b_legal(),
        "a_move": strict(Side::A),
        "b_move": strict(Side::B),
        "a_reason": reason(Side::A),
        "b_reason": reason(Side::B),
    })
}

fn finding_json(f: &Finding) -> Json {
    serde_json::to_value(f).unwrap_or(Json::Null)
}

fn finding_text(f: &Finding, a: &[String], b: &[String], w: Words) -> Option<String> {
    let text_at = |side: Side, ply: usize| {
        match side {
            Side::A => a,
            Side::B => b,
        }
        .get(ply - 1)
        .cloned()
        .unwrap_or_default()
    };
    Some(match *f {
        Finding::Agree => return None,
        Finding::Ends { shorter, plies } => format!(
            "{} {shorter} {} {plies}; {} {} {}.",
            w.s("record", "zapis"),
            w.s("ends after ply", "kończy się po półruchu"),
            w.s("record", "zapis"),
            shorter.other(),
            w.s("goes on", "biegnie dalej")
        ),
        Finding::WrongMove { ply } => format!(
            "{} {ply} ({} {}, {} {}); {}.",
            w.s("a different move at ply", "inne posunięcie w półruchu"),
            "A",
            text_at(Side::A, ply),
            "B",
            text_at(Side::B, ply),
            w.s(
                "the moves after it are the same",
                "dalsze posunięcia są takie same"
            )
        ),
        Finding::MissingPly { record, ply } => format!(
            "{} {record} {} {ply} ({}); {}.",
            w.s("record", "w zapisie"),
            w.s("lacks ply", "brakuje półruchu"),
            text_at(record.other(), ply),
            w.s(
                "its later moves match the other record one ply later",
                "dalsze posunięcia zgadzają się z drugim zapisem przesunięte o jeden półruch"
            )
        ),
        Finding::Swapped { first, second } => format!(
            "{} {first} {} {second} {}.",
            w.s("plies", "półruchy"),
            w.s("and", "i"),
            w.s(
                "are written in the other order",
                "są zapisane w odwrotnej kolejności"
            )
        ),
        Finding::SameIllegal { ply } => format!(
            "{} {ply} {}.",
            w.s(
                "both records have the same move at ply",
                "oba zapisy mają to samo posunięcie w półruchu"
            ),
            w.s("and it is illegal there", "i jest ono tam nieprawidłowe")
        ),
        Finding::Differ { ply } => format!(
            "{} {ply} {}.",
            w.s(
                "the records differ from ply",
                "zapisy różnią się od półruchu"
            ),
            w.s("on, in no simple pattern", "w sposób nieoczywisty")
        ),
    })
}

fn clock(secs: f64) -> String {
    tandem_braille::render::format_clock(Some(Duration::from_secs_f64(secs.max(0.0))))
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

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn run_diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let v = match args.variant {
        Some(GameArg::Draughts(v)) => v,
        Some(GameArg::Chess) => return chess_arbiter::run_diff(args),
        None if chess_arbiter::is_chess_fen(&args.a) || chess_arbiter::is_chess_fen(&args.b) => {
            return chess_arbiter::run_diff(args)
        }
        None => Variant::International,
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
            board: "warcabnica",
        },
    )
}

/// What `tandem arbiter diff` reports, for either game.
struct DiffOutput {
    /// The game's name in JSON.
    variant: &'static str,
    /// The phrasebook's language.
    lang: String,
    /// The differing squares as JSON (per game: square numbers and names).
    differences: Json,
    /// Each differing square: its name (padded as the game shows it), what
    /// stands there in A and in B, in words.
    squares: Vec<(String, String, String)>,
    /// The sides to move in A and in B, if they differ.
    turn: Option<(Color, Color)>,
    /// What to do on board B, one sentence each, for the screen.
    instructions: Vec<String>,
    /// The same for speech.
    spoken: Vec<String>,
    /// The sentence for boards that are the same.
    in_sync: String,
    /// The Polish word for the board ("warcabnica", "szachownica").
    board: &'static str,
}

/// Prints the diff as JSON or text (001 ch. VIII 3.1.1; 002 E.7: what to
/// do on the board to correct); exit status 0 when the boards are the same,
/// 1 when they differ.
fn print_diff(json: bool, w: Words, d: &DiffOutput) -> anyhow::Result<ExitCode> {
    let same = d.squares.is_empty() && d.turn.is_none();
    let mut out = std::io::stdout().lock();
    if json {
        let obj = json!({
            "variant": d.variant,
            "same": same,
            "differences": d.differences,
            "turn": d.turn.map(|(x, y)| json!({"a": x.name(), "b": y.name()})),
            "instructions": d.instructions,
            "spoken": d.spoken.join(" "),
            "lang": d.lang,
        });
        writeln!(out, "{obj}")?;
    } else if same {
        writeln!(out, "{}", d.in_sync)?;
    } else {
        writeln!(
            out,
            "{}:",
            if w.pl {
                format!(
                    "Różne pola (A = pierwsza pozycja, B = {} do poprawienia)",
                    d.board
                )
            } else {
                "Squares that differ (A = first position, B = board to correct)".to_owned()
            }
        )?;
        for (square, a, b) in &d.squares {
            writeln!(out, "  {square}: A {a}, B {b}")?;
        }
        if let Some((x, y)) = d.turn {
            writeln!(
                out,
                "  {}: A {}, B {}",
                w.s("to move", "na posunięciu"),
                side_word(x, w).to_lowercase(),
                side_word(y, w).to_lowercase()
            )?;
        }
        writeln!(
            out,
            "{}:",
            if w.pl {
                format!("Aby {} B była jak A", d.board)
            } else {
                "To make board B equal A".to_owned()
            }
        )?;
        for s in &d.instructions {
            writeln!(out, "  {s}")?;
        }
        writeln!(
            out,
            "{}: {}",
            w.s("Spoken", "Do powiedzenia"),
            d.spoken.join(" ")
        )?;
    }
    Ok(if same {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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
    fn journal_detection_needs_an_object_on_the_first_line() {
        assert!(is_journal("\n{\"seq\":1}\n"));
        assert!(!is_journal("[Event \"x\"]\n1. 32-28"));
        assert!(!is_journal("{not json"));
    }

    #[test]
    fn diagram_marks_pieces_and_rows() {
        let p = Position::from_fen(Variant::International, "W:W46,K5:B1").unwrap();
        let d = diagram(&p);
        assert_eq!(d[1], "  |   b   .   .   .   W |  1- 5");
        assert_eq!(d[10], "  | w   .   .   .   .   | 46-50");
    }
}
