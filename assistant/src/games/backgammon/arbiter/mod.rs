//! `tandem arbiter reconcile` and `diff` for backgammon (004 3.8, 4.2 (iii),
//! 4.3 (ii) c)): records are a tandem journal, a Jellyfish `.mat` file (as
//! tandem exports it and gnubg writes it) or a sheet typed from paper or
//! braille, compared turn by turn; positions are gnubg's Position ID with
//! its Match ID. The same report, JSON fields and exit codes as the other
//! games, with backgammon's fields beside them. The logic is in
//! [`tandem_rules::backgammon::arbiter`], the words in
//! `speech/phrasebooks/backgammon/arbiter-{pl,en}.toml`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde_json::{json, Map, Value as Json};
use tandem_rules::backgammon::arbiter::{
    after_roll, entry_parts, entry_place, fill_sides, from_match, is_mat, looks_like_backgammon,
    read_list, read_mat, settle, turn_text, BgRecord, BgRecordGame, Turn, TurnError,
};
use tandem_rules::backgammon::Match;
use tandem_rules::reconcile::Difference;
use tandem_rules::{Color, GameOptions, TableGame};
use tandem_speech::backgammon::arbiter::BgArbiterBook;
use tandem_speech::backgammon::{BgAnnouncer, BgPhrasebook, Numbering};

use crate::arbiter::records::{is_journal, journal_notes, ClockTimes, LoadedRecord, RecordFormat};
use crate::arbiter::{
    compare_records, ArbiterGame, DiffArgs, ReconcileArgs, Registry, ReportGame, Words,
};
use crate::games::Game as _;
use crate::journal::{Event, Journal};
use crate::kind::GameKind;
use crate::lang::Lang;

mod diff;

pub use crate::arbiter::DiffNumbering;

/// Backgammon at `tandem arbiter`.
pub struct BackgammonArbiter;

/// An entry's side, dice and the rest, as written ([`entry_parts`]).
type EntryParts = (Option<Color>, Option<(u8, u8)>, String);

impl ArbiterGame for BackgammonArbiter {
    /// A journal of a backgammon match, a `.mat` file, or a sheet of
    /// backgammon entries (`52: 13/8 13/11`).
    fn claims_record(&self, path: &Path, _table: &str) -> anyhow::Result<bool> {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("mat"))
        {
            return Ok(true);
        }
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let text = tandem_rules::record::decode_text(&bytes);
        if is_journal(&text) {
            let j = Journal::parse(&bytes);
            return Ok(j.start().is_some_and(|s| {
                s.variant.parse::<GameKind>().ok() == Some(GameKind::Backgammon)
            }));
        }
        Ok(looks_like_backgammon(&text))
    }

    /// A Position ID (fourteen base64 characters), with or without its Match ID.
    fn claims_position(&self, text: &str) -> bool {
        let t = text.trim();
        let pid = t.split(':').next().unwrap_or(t).trim();
        pid.chars().count() == 14
            && pid
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
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
        diff::run_diff(args)
    }
}

fn books(lang: Lang) -> anyhow::Result<(BgArbiterBook, BgPhrasebook)> {
    let tag = lang.as_str();
    Ok((
        BgArbiterBook::builtin(tag).context("the backgammon arbiter phrasebook does not load")?,
        BgPhrasebook::builtin(tag).context("the backgammon phrasebook does not load")?,
    ))
}

// ---------------------------------------------------------------- records

/// A backgammon record read from a file.
struct BgLoaded {
    rec: BgRecord,
    loaded: LoadedRecord,
    /// The match a journal starts from.
    start: Option<Match>,
}

/// The start match of a backgammon journal and the actions it replays to,
/// each with the clock times after it (`None` for actions that did not
/// press the clock: a roll). A reroll takes the roll back, a correction
/// the plies it names.
fn journal_match(j: &Journal) -> anyhow::Result<JournalMatch> {
    let Some(start) = j.start() else {
        bail!("not a tandem journal (no game start on line 1)");
    };
    let start_match = super::match_from_ids(&start.fen)
        .map_err(|e| anyhow::anyhow!("position {:?}: {e}", start.fen))?;
    let mut actions: Vec<(String, Option<Snap>)> = Vec::new();
    for r in &j.records {
        match &r.event {
            Event::Move {
                text,
                side,
                move_ms,
                white_ms,
                black_ms,
                ..
            } => actions.push((
                format!("move {text}"),
                Some(Snap {
                    side: *side,
                    move_ms: *move_ms,
                    white_ms: *white_ms,
                    black_ms: *black_ms,
                }),
            )),
            // 004 4.2: the roll is made again; the one taken back is no action.
            Event::Action { text, .. } if text.trim() == "reroll" => {
                actions.pop();
            }
            Event::Action {
                text,
                side,
                white_ms,
                black_ms,
                ..
            } => {
                let is_roll = text.trim_start().starts_with("roll");
                actions.push((
                    text.clone(),
                    (!is_roll).then_some(Snap {
                        side: *side,
                        move_ms: 0,
                        white_ms: *white_ms,
                        black_ms: *black_ms,
                    }),
                ));
            }
            Event::Correction { plies, .. } => {
                let keep = actions.len().saturating_sub(*plies as usize);
                actions.truncate(keep);
            }
            _ => {}
        }
    }
    let mut m = start_match.clone();
    let mut notes = Vec::new();
    let mut snaps = Vec::new();
    for (k, (text, snap)) in actions.iter().enumerate() {
        if let Err(e) = m.act_text(text) {
            notes.push(format!(
                "the journal's action {} ({text:?}) does not replay ({e}); read up to it",
                k + 1
            ));
            break;
        }
        snaps.push(snap.clone());
    }
    Ok(JournalMatch {
        start: start_match,
        now: m,
        snaps,
        notes,
    })
}

/// A backgammon journal replayed.
struct JournalMatch {
    /// The match it starts from.
    start: Match,
    /// The match after its last action.
    now: Match,
    /// Each action's clock times (`None`: it did not press the clock).
    snaps: Vec<Option<Snap>>,
    /// What did not replay.
    notes: Vec<String>,
}

/// Clock times after one action, from the journal.
#[derive(Debug, Clone)]
struct Snap {
    side: Color,
    move_ms: u64,
    white_ms: u64,
    black_ms: u64,
}

fn load(path: &Path, table: &str) -> anyhow::Result<BgLoaded> {
    let bytes = crate::brf_read::record_bytes(path, table)?;
    let text = tandem_rules::record::decode_text(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    if is_journal(text) {
        let j = Journal::parse(&bytes);
        let JournalMatch {
            start, now, notes, ..
        } = journal_match(&j).with_context(|| format!("{}", path.display()))?;
        let mut rec = from_match(&now);
        rec.notes.extend(notes);
        let mut all_notes = journal_notes(path, &j);
        all_notes.extend(rec.notes.iter().map(|n| format!("{}: {n}", path.display())));
        let fen = start.position_text();
        return Ok(BgLoaded {
            loaded: LoadedRecord {
                path: path.to_owned(),
                format: RecordFormat::Journal,
                texts: Vec::new(),
                variant: None,
                fen: Some(fen),
                journal: Some(j),
                notes: all_notes,
            },
            rec,
            start: Some(start),
        });
    }
    let mat_named = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mat"));
    let (format, read) = if is_mat(text) || mat_named {
        (RecordFormat::Mat, read_mat(text))
    } else if crate::brf_read::is_brf(path) {
        (RecordFormat::Brf, read_list(text))
    } else {
        (RecordFormat::List, read_list(text))
    };
    let rec = read.map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if rec.entries.is_empty() {
        bail!("{}: no rolls, moves or cube actions found", path.display());
    }
    let notes = rec
        .notes
        .iter()
        .map(|n| format!("{}: {n}", path.display()))
        .collect();
    Ok(BgLoaded {
        loaded: LoadedRecord {
            path: path.to_owned(),
            format,
            texts: Vec::new(),
            variant: None,
            fen: None,
            journal: None,
            notes,
        },
        rec,
        start: None,
    })
}

/// Compares two backgammon records (004 3.8; 4.2 (iii)).
///
/// # Errors
/// A record cannot be read, or the records are of matches of different lengths.
pub fn run_reconcile(args: &ReconcileArgs, reg: &Registry) -> anyhow::Result<ExitCode> {
    let table = args.braille_table();
    let mut a = load(&args.a, &table)?;
    let mut b = load(&args.b, &table)?;
    // The match length: given, else from the records.
    let length = match (args.match_length, a.rec.length, b.rec.length) {
        (Some(n), _, _) => n,
        (None, Some(x), Some(y)) if x != y => bail!(
            "the records are of different matches: {} is to {x} points, {} to {y} (give --match)",
            a.loaded.path.display(),
            b.loaded.path.display()
        ),
        (None, x, y) => match x.or(y) {
            Some(n) => n,
            None => bail!(
                "neither record gives the match length: give --match N (the Crawford game and the cube depend on it)"
            ),
        },
    };
    if !(1..=64).contains(&length) {
        bail!("--match {length}: a match is 1 to 64 points");
    }
    a.rec.length = Some(length);
    b.rec.length = Some(length);
    let (ra, rb) = (a.rec.clone(), b.rec.clone());
    fill_sides(&mut a.rec, &rb);
    fill_sides(&mut b.rec, &ra);
    settle(&mut a.rec);
    settle(&mut b.rec);
    a.loaded.texts = a.rec.texts();
    b.loaded.texts = b.rec.texts();
    let start = a
        .start
        .clone()
        .or_else(|| b.start.clone())
        .filter(|m| m.options().length == length)
        .unwrap_or_else(|| {
            // A `.mat` file that continues a match starts at its score.
            let from = if a.rec.start_score.is_some() {
                &a.rec
            } else {
                &b.rec
            };
            from.start(length)
        });
    let w = Words::new(args.lang);
    let (book, bg) = books(args.lang)?;
    let ann = BgWords {
        book,
        ann: BgAnnouncer::new(bg, Numbering::Mover, Color::White),
        lang: args.lang.as_str(),
    };
    compare_records::<BgRecordGame>(args, &start, &a.loaded, &b.loaded, w, &ann, reg)
}

/// What the report says with: the director's book, the game's words, and
/// the language of the table's own refusals.
pub(crate) struct BgWords {
    book: BgArbiterBook,
    ann: BgAnnouncer,
    lang: &'static str,
}

/// The table's own words for a refused action on `m` (the same words the
/// players hear at the table), through the game registry.
fn table_refusal(m: &Match, lang: &str, input: &str, is_move: bool) -> Option<String> {
    let options = GameOptions {
        match_length: m.options().length,
        ..GameOptions::default()
    };
    let game = super::BackgammonTable::new(m.clone(), options, lang);
    let refused = if is_move {
        game.prepare(input).err()
    } else {
        match game.action(input) {
            Some(Err(r)) => Some(r),
            _ => None,
        }
    };
    refused.map(|r| r.say.text())
}

impl ReportGame for BgRecordGame {
    type Announcer = BgWords;

    fn variant_name(_start: &Match) -> &'static str {
        "backgammon"
    }

    /// gnubg's full ID, `POSITION_ID:MATCH_ID`.
    fn fen(pos: &Match) -> String {
        pos.position_text()
    }

    fn turn(pos: &Match) -> Color {
        pos.to_act().unwrap_or(pos.board().turn())
    }

    /// `game 2, line 5`: the game and the line of the `.mat` record.
    fn move_label(_start: &Match, before: &Match, _ply: usize, w: Words) -> String {
        let side = Self::turn(before);
        let (game, row) = entry_place(before, side);
        let (game, row) = (game.to_string(), row.to_string());
        BgArbiterBook::builtin(w.lang.as_str()).map_or_else(
            || format!("{game}/{row}"),
            |b| b.phrase("report.place", &[("game", &game), ("row", &row)]),
        )
    }

    fn mover(_start: &Match, before: &Match, _ply: usize) -> Color {
        Self::turn(before)
    }

    fn clocks(j: &Journal, ply: usize) -> Option<ClockTimes> {
        bg_clocks(j, ply)
    }

    /// `white 52: 13/8 13/11`, as the `.mat` record writes it, with the side.
    fn strict_text(pos: &Match, m: &Turn) -> String {
        format!("{} {}", m.side().name(), turn_text(pos, m))
    }

    fn reason(ann: &BgWords, pos: &Match, text: &str, e: &TurnError) -> String {
        let b = &ann.book;
        let side = |c: Color| ann.ann.side_name(c).to_owned();
        let fallback = e.to_string();
        match e {
            TurnError::Unreadable(_) => b.phrase("report.unreadable", &[]),
            TurnError::NeedSide => b.phrase("report.need_side", &[]),
            TurnError::WrongSide { written, to_act } => b.phrase(
                "report.wrong_side",
                &[("written", &side(*written)), ("to_act", &side(*to_act))],
            ),
            TurnError::GameEnd {
                written, actual, ..
            } => match actual {
                Some((winner, n)) => b.phrase(
                    "report.game_end",
                    &[
                        ("side", &side(*winner)),
                        ("points", &n.to_string()),
                        ("written", &written.to_string()),
                    ],
                ),
                None => b.phrase("report.no_game_end", &[("written", &written.to_string())]),
            },
            TurnError::Move { .. } => after_roll(pos, text)
                .and_then(|(m, mv)| table_refusal(&m, ann.lang, &mv, true))
                .unwrap_or(fallback),
            TurnError::Roll(_) => {
                let (_, dice, _) = entry_parts(text);
                dice.and_then(|(x, y)| {
                    table_refusal(pos, ann.lang, &format!("roll {x} {y}"), false)
                })
                .unwrap_or(fallback)
            }
            TurnError::Action(_) => {
                let (_, _, rest) = entry_parts(text);
                let word = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_lowercase();
                let input = match word.as_str() {
                    "doubles" | "double" => "double".to_owned(),
                    "takes" | "take" | "accept" | "accepts" => "take".to_owned(),
                    "drops" | "drop" | "reject" | "rejects" => "pass".to_owned(),
                    _ => rest.to_ascii_lowercase(),
                };
                table_refusal(pos, ann.lang, &input, false).unwrap_or(fallback)
            }
            _ => fallback,
        }
    }

    fn diagram(pos: &Match) -> Vec<String> {
        crate::games::backgammon::diagram(pos.board())
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The board with exact counts (white's numbering, `x` white, `o`
    /// black) and the status line (dice, pips, cube, score).
    fn list_text(pos: &Match) -> String {
        format!(
            "{} | {}",
            tandem_braille::backgammon::text_line(pos.board(), Color::White),
            tandem_braille::backgammon::status_line(pos, Color::White)
        )
    }

    /// The board line the display shows (a cell a point), white's view.
    fn braille_list(pos: &Match) -> (Vec<String>, Vec<String>) {
        let line = tandem_braille::backgammon::board_line(pos.board(), Color::White);
        (
            vec![tandem_braille::backgammon::text_line(
                pos.board(),
                Color::White,
            )],
            vec![line.text()],
        )
    }

    fn refused_cite(_w: Words) -> String {
        " (004 4.2 (iii) d))".to_owned()
    }

    fn set_clocks(w: Words) -> &'static str {
        w.s("set_the_clocks_to_these_times_004_4_3_ii")
    }

    fn fen_label() -> &'static str {
        "ID"
    }

    /// A ply of the report is an entry of the record (a turn or a cube action).
    fn wording(text: String, w: Words) -> String {
        entry_words(&text, w)
    }

    /// `game`, `line`, each record's `a_side`/`b_side` and `a_roll`/`b_roll`
    /// as written, and `differs`: `side`, `roll`, `move`, `action` or `ends`.
    fn difference_extra(before: &Match, d: &Difference<Turn, TurnError>) -> Map<String, Json> {
        let side = Self::turn(before);
        let (game, row) = entry_place(before, side);
        let parts = |t: Option<&String>| t.map(|t| entry_parts(t));
        let (pa, pb) = (parts(d.a.as_ref()), parts(d.b.as_ref()));
        let side_of = |p: &Option<EntryParts>, r: Option<&Result<Turn, TurnError>>| match r {
            Some(Ok(t)) => Some(t.side().name()),
            _ => p.as_ref().and_then(|x| x.0).map(Color::name),
        };
        let roll_of = |p: &Option<EntryParts>| {
            p.as_ref()
                .and_then(|x| x.1)
                .map(|(x, y)| format!("{}{}", x.max(y), x.min(y)))
        };
        let mut m = Map::new();
        m.insert("game".into(), json!(game));
        m.insert("line".into(), json!(row));
        m.insert("a_side".into(), json!(side_of(&pa, d.a_result.as_ref())));
        m.insert("b_side".into(), json!(side_of(&pb, d.b_result.as_ref())));
        m.insert("a_roll".into(), json!(roll_of(&pa)));
        m.insert("b_roll".into(), json!(roll_of(&pb)));
        // What of the entry differs: the side, the roll, the move, or the
        // kind of entry (a roll against a cube action; one record ends).
        let differs = match (&pa, &pb) {
            (Some(x), Some(y)) => {
                let sx = side_of(&pa, d.a_result.as_ref());
                let sy = side_of(&pb, d.b_result.as_ref());
                if sx.is_some() && sy.is_some() && sx != sy {
                    "side"
                } else if x.1.is_some() && y.1.is_some() {
                    if roll_of(&pa) == roll_of(&pb) {
                        "move"
                    } else {
                        "roll"
                    }
                } else {
                    "action"
                }
            }
            _ => "ends",
        };
        m.insert("differs".into(), json!(differs));
        m
    }

    /// `position_id`, `match_id`, `dice`, `cube`, `score`, `pips` as
    /// `tandem ctl state` gives them.
    fn position_extra(pos: &Match) -> Map<String, Json> {
        super::match_fields(pos)
    }
}

/// The report's "ply" as backgammon's "entry" ("wpis"), word by word, in
/// the case the Polish preposition asks for.
/// The report's words about plies as words about a record's entries: the
/// arbiter words' `backgammon_entries`, pairs `PLY WORDS=ENTRY WORDS`
/// between `;`, tried in their order.
fn entry_words(text: &str, w: Words) -> String {
    let mut out = text.to_owned();
    for pair in w.s("backgammon_entries").split(';') {
        if let Some((from, to)) = pair.split_once('=') {
            out = replace_words(&out, from.trim(), to.trim());
        }
    }
    out
}

/// Replaces `from` where it stands as whole words.
fn replace_words(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        let edge = |c: Option<char>| c.map_or(true, |c| !c.is_alphanumeric());
        out.push_str(&rest[..i]);
        out.push_str(if edge(before) && edge(after) {
            to
        } else {
            from
        });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// The clock times after `ply` entries of a backgammon journal (0: the
/// start): time left as recorded after the entry's press; time used as the
/// sum of the side's move times (cube actions add none).
fn bg_clocks(j: &Journal, ply: usize) -> Option<ClockTimes> {
    let snaps = journal_match(j).ok()?.snaps;
    // An entry ends with a move or a cube action: the actions that pressed.
    let entries: Vec<Snap> = snaps.into_iter().flatten().collect();
    let plies: Vec<(Color, u64, u64, u64)> = entries
        .iter()
        .map(|s| (s.side, s.move_ms, s.white_ms, s.black_ms))
        .collect();
    crate::arbiter::records::clocks_after(j, ply, &plies)
}
