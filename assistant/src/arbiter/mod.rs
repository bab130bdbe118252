//! The arbiter's tools that every game shares: the request (`tandem arbiter
//! reconcile|diff|announcements` arguments), the [`ArbiterGame`] interface
//! each game implements in its folder (`crate::games::<game>::arbiter`, listed
//! by the registry, `GameKind::arbiter`), reading records and journals
//! ([`records`]), the reconciliation report ([`report`]), the printed diff
//! ([`diff`]) and the announcement statistics ([`announcements`]). The pure
//! logic is in the rules crate; `crate::cmd::arbiter` only parses and runs.
//!
//! (001 ch. VIII 3.1; 002 annex E.7-E.8; 004 3.8, 4.2 (iii)) and when
//! announcements go wrong too often (001 ch. VIII 3.2).
//!
//! - `tandem arbiter reconcile A B [--variant V] [--fen FEN] [--match N] [--journal J] [--lang pl|en] [--json]`:
//!   compares two records of one game (PDN, PGN, a tandem journal, a
//!   backgammon `.mat` file, or a move list typed from a paper or braille
//!   scoresheet). Exit status 0 when the records agree move for move, 1
//!   when they differ (or one holds an illegal move), 2 when a record
//!   cannot be read.
//! - `tandem arbiter diff A B [--variant V] [--lang pl|en] [--json]`: the
//!   squares (points) where two positions (FEN, backgammon Position ID with
//!   its Match ID) differ and what to do on the second board to make it
//!   equal the first. Exit status 0 when they are the same, 1 when they
//!   differ, 2 on a bad position.
//! - `tandem arbiter announcements JOURNAL [--json]`: how often each side's
//!   input was refused (an illegal or misheard move, an unknown command).
//!
//! Each game brings its part through `ArbiterGame` (`arbiter_for` is the
//! one place that lists them); the logic is pure, in the rules crate
//! (each game's `arbiter` module, all on [`tandem_rules::reconcile`]);
//! this module reads files and presents the results (see `docs/arbiter.md`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use tandem_rules::Color;
use tandem_speech::Phrasebook;

use crate::interface::Game;
use crate::kind::GameKind;
use crate::lang::Lang;
use crate::picture::BoardPicture;
use tandem_rules::GameOptions;

pub mod announcements;
pub mod diff;
pub mod records;
pub mod report;
pub(crate) mod svg;

pub use announcements::{
    announcement_stats, AnnouncementStats, CorrectionEntry, RefusedInput, SideAnnouncements,
};
pub use records::{clocks_at, is_journal, journal_moves, ClockTimes, LoadedRecord, RecordFormat};

pub(crate) use diff::{print_diff, DiffOutput};
pub(crate) use records::journal_notes;
pub(crate) use report::{compare_records, ReportGame};

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
    /// The table's report lines in a journal: the binary (its SHA-256),
    /// whether the game was rated, what the table opened (issue 41).
    Report(JournalReportArgs),
}

/// Arguments of `tandem arbiter report`.
#[derive(Debug, clap::Args)]
pub struct JournalReportArgs {
    /// A tandem journal.
    #[arg(value_name = "JOURNAL")]
    pub journal: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `tandem arbiter reconcile`.
#[derive(Debug, clap::Args)]
pub struct ReconcileArgs {
    /// The first record: PDN, a tandem journal, a move list (`1. 32-28 19-23 ...`, or one move a line),
    /// or a braille record as a BRF file (`.brf`, read back with liblouis); backgammon: a Jellyfish
    /// `.mat` file or a sheet of entries (`W 52: 13/11 13/8`, `B doubles`).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The second record, in any of the same forms.
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// international, sixty-four, chess or backgammon (default: from the
    /// records: a journal names its game; a `.mat` file or `52: 13/8 13/11`
    /// entries are backgammon; a `.pgn` file or SAN moves are chess; else
    /// international).
    #[arg(long, value_parser = parse_game)]
    pub variant: Option<GameKind>,
    /// The start position as PDN FEN (default: from the records, else the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// A tandem journal to take the clock times from (default: A or B if one is a journal).
    #[arg(long, value_name = "J")]
    pub journal: Option<PathBuf>,
    /// The language of the report and of the spoken reasons.
    #[arg(long, value_parser = crate::lang::parse, default_value = "pl")]
    pub lang: Lang,
    /// Chess: how files are spoken (names: Anna … Hektor, 002 annex E.2.1; letters).
    #[arg(long, value_enum, default_value = "names")]
    pub files: Files,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Backgammon: the match length in points, when no record gives it (a
    /// journal and a `.mat` file do).
    #[arg(long = "match", value_name = "N")]
    pub match_length: Option<u32>,
    /// The liblouis table a `.brf` record was written with (default: the
    /// `--lang` card's, assistant/data/language/LANG.toml: Pl-Pl-g1.utb for
    /// pl, en-ueb-g1.ctb for en).
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
    /// Also draw the position at the last agreement and each record's next
    /// position, the squares where they differ marked, as SVG in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

impl ReconcileArgs {
    /// The liblouis table for `.brf` records.
    pub(crate) fn braille_table(&self) -> String {
        self.table
            .clone()
            .unwrap_or_else(|| crate::lang::braille_table(self.lang.as_str()))
    }
}

/// Arguments of `tandem arbiter diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The right position (the record's), as PDN FEN, chess FEN or a
    /// backgammon Position ID (`POSITION_ID[:MATCH_ID]`).
    #[arg(value_name = "FEN_A")]
    pub a: String,
    /// The board to correct, in the same form (chess: or only its board part).
    #[arg(value_name = "FEN_B")]
    pub b: String,
    /// international, sixty-four, chess or backgammon (default: chess for a
    /// chess FEN, backgammon for a Position ID, else international).
    #[arg(long, value_parser = parse_game)]
    pub variant: Option<GameKind>,
    /// The language of the instructions.
    #[arg(long, value_parser = crate::lang::parse, default_value = "pl")]
    pub lang: Lang,
    /// Chess: how files are spoken (names: Anna … Hektor, 002 annex E.2.1; letters).
    #[arg(long, value_enum, default_value = "names")]
    pub files: Files,
    /// Backgammon: the side on roll for a Position ID given without its
    /// Match ID (gnubg writes the ID from the side on roll; default white).
    #[arg(long, value_enum, value_name = "SIDE")]
    pub on_roll: Option<Side>,
    /// Backgammon: the blind player, whose point numbers the spoken
    /// instructions use (default white).
    #[arg(long, value_enum, value_name = "SIDE")]
    pub blind: Option<Side>,
    /// Backgammon: `listener` (the blind player's numbers, the default) or
    /// `both` (theirs, then the opponent's) in the spoken instructions; the
    /// screen always gives both.
    #[arg(long, value_enum)]
    pub numbering: Option<DiffNumbering>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also draw both positions side by side, the differing squares marked
    /// (`data-differs="true"`), as SVG in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Reads `--variant`: a name of the game registry ([`GameKind`]:
/// `international`, `sixty-four`, `chess`, `backgammon`), or `standard` for chess.
pub(crate) fn parse_game(s: &str) -> Result<GameKind, String> {
    if s.trim().eq_ignore_ascii_case("standard") {
        return Ok(GameKind::Chess);
    }
    s.parse::<GameKind>().map_err(|e| e.to_string())
}

/// A side on the command line (`--on-roll`, `--blind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// White (gnubg's player 0).
    White,
    /// Black (gnubg's player 1).
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
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

/// Whose point numbers the spoken instructions use (`--numbering`,
/// backgammon).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiffNumbering {
    /// The blind player's (`--blind`) numbers only.
    #[default]
    Listener,
    /// The blind player's, then the opponent's: "thirteen, black's twelve".
    Both,
}

/// Arguments of `tandem arbiter announcements`.
#[derive(Debug, clap::Args)]
pub struct AnnouncementsArgs {
    /// A tandem journal.
    #[arg(value_name = "JOURNAL")]
    pub journal: PathBuf,
    /// The language of the report.
    #[arg(long, value_parser = crate::lang::parse, default_value = "pl")]
    pub lang: Lang,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A game from its journal start: variant, position text, options, language.
pub type FromJournal = fn(&str, &str, GameOptions, &str) -> anyhow::Result<Box<dyn Game>>;

/// What the arbiter's tools take from the registry of games
/// ([`crate::game`]): it sits on the floor above the games, and so above
/// this module, which the games build on. The command
/// (`crate::cmd::arbiter`) hands its functions down
/// (`crate::game::arbiter_registry`).
#[derive(Debug, Clone, Copy)]
pub struct Registry {
    /// A game from its journal start: variant, position text, options,
    /// language (`crate::game::from_journal`).
    pub from_journal: FromJournal,
    /// The picture of a position given by its game's name and position
    /// text (`crate::game::picture_of_text`).
    pub picture_of_text: fn(&str, &str) -> anyhow::Result<BoardPicture>,
    /// The arbiter's tools of a game (`GameKind::arbiter`).
    pub arbiter: fn(GameKind) -> &'static dyn ArbiterGame,
}

/// What one game brings to `tandem arbiter`: recognising its records and
/// positions, and the two comparisons. The logic of each is pure, in the
/// rules crate (each game's `arbiter` module); the words in the phrasebooks.
pub trait ArbiterGame {
    /// Whether a record file is of this game (without `--variant`).
    ///
    /// # Errors
    /// The file cannot be read.
    fn claims_record(&self, path: &Path, table: &str) -> anyhow::Result<bool>;
    /// Whether a position text is of this game (without `--variant`).
    fn claims_position(&self, text: &str) -> bool;
    /// `tandem arbiter reconcile` for this game.
    ///
    /// # Errors
    /// A record cannot be read (exit status 2).
    fn reconcile(
        &self,
        args: &ReconcileArgs,
        kind: GameKind,
        reg: &Registry,
    ) -> anyhow::Result<ExitCode>;
    /// `tandem arbiter diff` for this game.
    ///
    /// # Errors
    /// A position cannot be read (exit status 2).
    fn diff(&self, args: &DiffArgs, kind: GameKind) -> anyhow::Result<ExitCode>;
}

/// Report wording in the chosen language (`assistant/data/arbiter/LANG.toml`;
/// the spoken parts come from the phrasebooks).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Words {
    /// The language.
    pub(crate) lang: Lang,
    words: &'static std::collections::BTreeMap<String, String>,
}

impl Words {
    pub(crate) fn new(lang: Lang) -> Words {
        Words {
            lang,
            words: crate::lang::sentences("arbiter", lang.as_str()),
        }
    }
    /// The word of `key` (the key itself where a file lacks it: the tests
    /// check every language has every key).
    pub(crate) fn s(self, key: &'static str) -> &'static str {
        self.words.get(key).map_or(key, String::as_str)
    }
    /// The word of a key made at run time (`diff_differ_chess`).
    pub(crate) fn get(self, key: &str) -> String {
        self.words
            .get(key)
            .cloned()
            .unwrap_or_else(|| key.to_owned())
    }
    pub(crate) fn book(self) -> Phrasebook {
        Phrasebook::builtin(self.lang.as_str()).unwrap_or_else(Phrasebook::english)
    }
}

pub(crate) fn side_word(c: Color, w: Words) -> &'static str {
    match c {
        Color::White => w.s("white"),
        Color::Black => w.s("black"),
    }
}

pub(crate) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
