//! The report of `tandem arbiter reconcile`, text and JSON, one code for
//! every game: a game brings its parts through [`ReportGame`].

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{json, Value as Json};
use tandem_rules::reconcile::{
    Difference as GenericDifference, Reconciliation as GenericReconciliation, RecordReplay,
    RecordedGame,
};
use tandem_rules::reconcile::{Finding, Side};
use tandem_rules::Color;

use super::announcements::{announcement_stats, announcements_text, AnnouncementStats};
use super::records::read_journal;
use super::records::{clocks_at, ClockTimes, LoadedRecord, RecordFormat};
use super::{side_word, ReconcileArgs, Registry, Words};
use crate::journal::Journal;

/// The rest of `tandem arbiter reconcile` for either game, once the records
/// and the start are read: the clock journal (`--journal`, else A or B if
/// one is a journal), the comparison (001 ch. VIII 3.1; 002 E.7-E.8) and its
/// report. Exit status 0 when the records agree, 1 when they differ.
pub(crate) fn compare_records<G: ReportGame>(
    args: &ReconcileArgs,
    start: &G::Position,
    a: &LoadedRecord,
    b: &LoadedRecord,
    w: Words,
    ann: &G::Announcer,
    reg: &Registry,
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
    if let Some(path) = &args.svg {
        let agreed = r.agreed_plies;
        let next = |game: &RecordReplay<G>| game.game.position_after(agreed + 1).map(G::fen);
        let variant = G::variant_name(start);
        super::svg::write_reconcile(
            path,
            &|fen| (reg.picture_of_text)(variant, fen),
            agreed,
            &G::fen(r.agreed_position()),
            next(&r.a),
            next(&r.b),
            w,
        )?;
    }
    let report = reconcile_report(&r, a, b, journal, w, ann, reg);
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

pub(crate) struct ReconcileReport {
    json: Json,
    text: String,
}

/// The per-game parts of `tandem arbiter reconcile`'s report; the rest
/// (wording, JSON fields, their order) is one code for every game.
pub(crate) trait ReportGame: RecordedGame<Error: std::fmt::Display> {
    /// Words the reason a move is refused.
    type Announcer;
    /// The game's name in JSON (`international`, `chess`).
    fn variant_name(start: &Self::Position) -> &'static str;
    /// A position as FEN (PDN FEN for draughts).
    fn fen(pos: &Self::Position) -> String;
    /// The side to move.
    fn turn(pos: &Self::Position) -> Color;
    /// "12." for white's 12th move, "12..." for black's; `before` is the
    /// position before ply `ply` (a backgammon match counts its games and
    /// turns from it).
    fn move_label(start: &Self::Position, before: &Self::Position, ply: usize, w: Words) -> String;
    /// The side that plays ply `ply` (1-based) from `start`, `before` the
    /// position before it: by default the sides alternate.
    fn mover(start: &Self::Position, before: &Self::Position, ply: usize) -> Color {
        let _ = before;
        let c = Self::turn(start);
        if (ply - 1) % 2 == 0 {
            c
        } else {
            c.other()
        }
    }
    /// The clock times after ply `ply`, from a journal of this game.
    fn clocks(j: &Journal, ply: usize) -> Option<ClockTimes> {
        clocks_at(j, ply)
    }
    /// Fields a game adds to `first_difference` (backgammon: `game`, `roll`).
    fn difference_extra(
        before: &Self::Position,
        d: &GenericDifference<Self::Move, Self::Error>,
    ) -> serde_json::Map<String, Json> {
        let _ = (before, d);
        serde_json::Map::new()
    }
    /// Fields a game adds to the report about the position to go back to.
    fn position_extra(pos: &Self::Position) -> serde_json::Map<String, Json> {
        let _ = pos;
        serde_json::Map::new()
    }
    /// The report's text in the game's own words (backgammon says
    /// "entry" where the others say "ply").
    fn wording(text: String, w: Words) -> String {
        let _ = w;
        text
    }
    /// What the position text is called in the report (`FEN`, `ID`).
    fn fen_label() -> &'static str {
        "FEN"
    }
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

/// The report of `tandem arbiter reconcile`, text and JSON, for either game.
pub(crate) fn reconcile_report<G: ReportGame>(
    r: &GenericReconciliation<G>,
    a: &LoadedRecord,
    b: &LoadedRecord,
    journal: Option<(PathBuf, &Journal)>,
    w: Words,
    ann: &G::Announcer,
    reg: &Registry,
) -> ReconcileReport {
    let start = r.start().clone();
    let pos = r.agreed_position().clone();
    let mut rep = Report {
        r,
        start: &start,
        pos: &pos,
        w,
        ann,
        t: String::new(),
    };
    let mut notes: Vec<String> = a.notes.iter().chain(&b.notes).cloned().collect();
    rep.records(a, b);
    rep.agreement();
    let diff_json = rep.first_difference();
    let finding = finding_text(&r.finding, &r.a.texts, &r.b.texts, w).map(|f| G::wording(f, w));
    if let Some(f) = &finding {
        let _ = writeln!(rep.t, "{}: {f}", w.s("looks_like"));
    }
    let illegal_all = rep.illegal_moves();
    let transposition = rep.transposition();
    let agreed = r.agreed_plies;
    let diagram = G::diagram(&pos);
    let list = G::list_text(&pos);
    let (braille_text, braille_cells) = G::braille_list(&pos);
    rep.position(&diagram, &list, &braille_text, &braille_cells);
    let clocks = rep.clocks(journal.as_ref(), &mut notes);
    let trans_clocks = match (&journal, &r.transposition) {
        (Some((_, j)), Some(tr)) => G::clocks(j, tr.last_common_ply()),
        _ => None,
    };
    // Announcements (001 ch. VIII 3.2).
    let announcements = journal.as_ref().map(|(_, j)| announcement_stats(j, reg));
    if let Some(st) = &announcements {
        rep.announcements(st);
    }
    let mut t = rep.t;
    for n in &notes {
        let _ = writeln!(t, "{}: {n}", w.s("note"));
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
        "next_move": G::move_label(&start, &pos, agreed + 1, w),
        "diagram": diagram,
        "list": list,
        "braille_list": braille_text,
        "braille_cells": braille_cells,
        "clocks": clocks,
        "clocks_source": journal.as_ref().map(|(p, _)| p.display().to_string()),
        "transposition_clocks": trans_clocks,
        "announcements": announcements,
        "notes": notes,
        "lang": w.lang.as_str(),
    });
    let mut json = json;
    if let Some(obj) = json.as_object_mut() {
        obj.extend(G::position_extra(&pos));
    }
    ReconcileReport {
        json,
        text: G::wording(t, w),
    }
}

/// The reconcile report's text being written, section by section, with
/// what every section reads.
struct Report<'a, G: ReportGame> {
    r: &'a GenericReconciliation<G>,
    start: &'a G::Position,
    /// The agreed position: the one to go back to.
    pos: &'a G::Position,
    w: Words,
    ann: &'a G::Announcer,
    t: String,
}

impl<G: ReportGame> Report<'_, G> {
    /// The two records: path, format and how many plies each has.
    fn records(&mut self, a: &LoadedRecord, b: &LoadedRecord) {
        let w = self.w;
        let fmt_name = |f: RecordFormat| match f {
            RecordFormat::Pdn => "PDN",
            RecordFormat::Pgn => "PGN",
            RecordFormat::Journal => w.s("journal"),
            RecordFormat::List => w.s("move_list"),
            RecordFormat::Brf => w.s("braille_record_brf"),
            RecordFormat::Mat => w.s("jellyfish_mat_match"),
        };
        for (label, rec, rr) in [("A", a, &self.r.a), ("B", b, &self.r.b)] {
            let _ = writeln!(
                self.t,
                "{} {label}: {} ({}, {} {})",
                w.s("record"),
                rec.path.display(),
                fmt_name(rec.format),
                rr.written(),
                w.s("plies")
            );
        }
    }

    /// Whether the records agree, else how far and on which last move.
    fn agreement(&mut self) {
        let (r, w) = (self.r, self.w);
        let agreed = r.agreed_plies;
        if r.agree() {
            let _ = writeln!(
                self.t,
                "{} {agreed} {}.",
                w.s("the_records_agree_on_all"),
                w.s("plies_2")
            );
            return;
        }
        let last = if agreed == 0 {
            w.s("none_back_to_the_start_position").to_owned()
        } else {
            let m = r.agreed_moves();
            let before =
                r.a.game
                    .position_after(agreed - 1)
                    .unwrap_or_else(|| r.a.game.current_position());
            format!(
                "{} {}",
                G::move_label(self.start, before, agreed, w),
                m[agreed - 1]
            )
        };
        let _ = writeln!(
            self.t,
            "{}: {agreed} ({} {last})",
            w.s("agreed_plies"),
            w.s("last_agreed")
        );
    }

    /// The first ply the records differ on, each record's move and whether
    /// it is legal; its JSON.
    fn first_difference(&mut self) -> Option<Json> {
        let (start, pos, w) = (self.start, self.pos, self.w);
        let d = self.r.first_difference.as_ref()?;
        let json = difference_json::<G>(d, start, pos, self.ann, w);
        let _ = writeln!(
            self.t,
            "{}: {} {} ({} {}, {})",
            w.s("first_difference"),
            w.s("ply"),
            d.ply,
            G::move_label(start, pos, d.ply, w),
            side_word(G::mover(start, pos, d.ply), w).to_lowercase(),
            w.s("in_the_position_below")
        );
        for side in [Side::A, Side::B] {
            let line = match (d.text(side), d.result(side)) {
                (None, _) | (_, None) => w.s("no_move_the_record_ends").to_owned(),
                (Some(txt), Some(Ok(_))) => format!("{txt} ({})", w.s("legal")),
                (Some(txt), Some(Err(e))) => {
                    format!(
                        "{txt} ({}: {})",
                        w.s("illegal"),
                        G::reason(self.ann, pos, txt, e)
                    )
                }
            };
            let _ = writeln!(self.t, "  {side}: {line}");
        }
        Some(json)
    }

    /// Each record's illegal move, if it has one; their JSON by ply.
    fn illegal_moves(&mut self) -> Vec<Json> {
        let w = self.w;
        let mut illegal_all = Vec::new();
        for side in [Side::A, Side::B] {
            let Some(il) = self.r.illegal(side) else {
                continue;
            };
            let rec = self.r.record(side);
            let before = rec
                .game
                .position_after(il.ply - 1)
                .unwrap_or_else(|| rec.game.current_position());
            let reason = G::reason(self.ann, before, &il.text, &il.reason);
            let _ = writeln!(
                self.t,
                "{} {side}: {} {} ({} {}): {}",
                w.s("illegal_move_in_record"),
                w.s("ply"),
                il.ply,
                G::move_label(self.start, before, il.ply, w),
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
        illegal_all.sort_by_key(|v| v["ply"].as_u64().unwrap_or(u64::MAX));
        illegal_all
    }

    /// Records that differ in order but reach the same position; its JSON.
    fn transposition(&mut self) -> Option<Json> {
        let w = self.w;
        let tr = self.r.transposition.as_ref()?;
        let _ = writeln!(
            self.t,
            "{}: {} {} {} {}; {} {} ({} {}).",
            w.s("transposition"),
            w.s("the_records_differ_in_order_from_ply"),
            tr.from_ply,
            w.s("but_reach_the_same_position_after_ply"),
            tr.same_after,
            w.s("they_agree_again_up_to_ply"),
            tr.last_common_ply(),
            w.s("last_common_position"),
            G::fen(&tr.last_common)
        );
        Some(json!({
            "from_ply": tr.from_ply,
            "same_position_after": tr.same_after,
            "agree_again": tr.agree_again,
            "last_common_ply": tr.last_common_ply(),
            "fen": G::fen(&tr.last_common),
        }))
    }

    /// The position to go back to: FEN, diagram, list and braille list.
    fn position(
        &mut self,
        diagram: &[String],
        list: &str,
        braille_text: &[String],
        braille_cells: &[String],
    ) {
        let (pos, w) = (self.pos, self.w);
        let agreed = self.r.agreed_plies;
        let t = &mut self.t;
        let _ = writeln!(
            t,
            "\n{} {agreed} ({} {}; {} {}):",
            w.s("position_after_ply"),
            w.s("to_move_2"),
            side_word(G::turn(pos), w).to_lowercase(),
            w.s("next_move"),
            G::move_label(self.start, pos, agreed + 1, w)
        );
        let _ = writeln!(t, "{} {}", G::fen_label(), G::fen(pos));
        for l in diagram {
            let _ = writeln!(t, "{l}");
        }
        let _ = writeln!(t, "{}: {list}", w.s("list"));
        let _ = writeln!(t, "{}:", w.s("braille_list_view_40_cells"));
        for (cells, text) in braille_cells.iter().zip(braille_text) {
            let _ = writeln!(t, "  {cells}   {text}");
        }
    }

    /// The clocks at the agreed ply from the journal (a note where it has
    /// none), and the arbiter told to set them where the records differ.
    fn clocks(
        &mut self,
        journal: Option<&(PathBuf, &Journal)>,
        notes: &mut Vec<String>,
    ) -> Option<ClockTimes> {
        let (r, w) = (self.r, self.w);
        let agreed = r.agreed_plies;
        let (p, j) = journal?;
        let Some(c) = G::clocks(j, agreed) else {
            notes.push(format!(
                "{}: {} {agreed}",
                p.display(),
                w.s("the_journal_has_no_clock_times_for_ply")
            ));
            return None;
        };
        let _ = writeln!(
            self.t,
            "\n{} {agreed} ({} {}): {} {} {}, {} {}; {} {} {}, {} {}.",
            w.s("clocks_at_ply"),
            w.s("from"),
            p.display(),
            side_word(Color::White, w),
            clock(c.white_remaining),
            w.s("left"),
            clock(c.white_used),
            w.s("used"),
            side_word(Color::Black, w).to_lowercase(),
            clock(c.black_remaining),
            w.s("left"),
            clock(c.black_used),
            w.s("used"),
        );
        if !r.agree() {
            let _ = writeln!(self.t, "{}", G::set_clocks(w));
        }
        Some(c)
    }

    /// The refused inputs of the journal (001 ch. VIII 3.2), three lines.
    fn announcements(&mut self, st: &AnnouncementStats) {
        let w = self.w;
        let _ = writeln!(
            self.t,
            "\n{}{}:",
            w.s("refused_inputs_2"),
            G::refused_cite(w)
        );
        for l in announcements_text(st, w).lines().take(3) {
            let _ = writeln!(self.t, "  {l}");
        }
    }
}

pub(crate) fn record_json<G: RecordedGame>(rec: &LoadedRecord, rr: &RecordReplay<G>) -> Json {
    json!({
        "path": rec.path.display().to_string(),
        "format": rec.format,
        "plies": rr.written(),
        "legal_plies": rr.legal(),
    })
}

pub(crate) fn difference_json<G: ReportGame>(
    d: &GenericDifference<G::Move, G::Error>,
    start: &G::Position,
    pos: &G::Position,
    ann: &G::Announcer,
    w: Words,
) -> Json {
    let reason = |side: Side| match (d.text(side), d.result(side)) {
        (Some(txt), Some(Err(e))) => Some(G::reason(ann, pos, txt, e)),
        _ => None,
    };
    let strict = |side: Side| match d.result(side) {
        Some(Ok(m)) => Some(G::strict_text(pos, m)),
        _ => None,
    };
    let mut v = json!({
        "ply": d.ply,
        "move_number": G::move_label(start, pos, d.ply, w),
        "side": G::mover(start, pos, d.ply).name(),
        "a": d.a,
        "b": d.b,
        "a_legal": d.a_legal(),
        "b_legal": d.b_legal(),
        "a_move": strict(Side::A),
        "b_move": strict(Side::B),
        "a_reason": reason(Side::A),
        "b_reason": reason(Side::B),
    });
    if let Some(obj) = v.as_object_mut() {
        obj.extend(G::difference_extra(pos, d));
    }
    v
}

pub(crate) fn finding_json(f: &Finding) -> Json {
    serde_json::to_value(f).unwrap_or(Json::Null)
}

pub(crate) fn finding_text(f: &Finding, a: &[String], b: &[String], w: Words) -> Option<String> {
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
            w.s("record_2"),
            w.s("ends_after_ply"),
            w.s("record_2"),
            shorter.other(),
            w.s("goes_on")
        ),
        Finding::WrongMove { ply } => format!(
            "{} {ply} ({} {}, {} {}); {}.",
            w.s("a_different_move_at_ply"),
            "A",
            text_at(Side::A, ply),
            "B",
            text_at(Side::B, ply),
            w.s("the_moves_after_it_are_the_same")
        ),
        Finding::MissingPly { record, ply } => format!(
            "{} {record} {} {ply} ({}); {}.",
            w.s("record_3"),
            w.s("lacks_ply"),
            text_at(record.other(), ply),
            w.s("its_later_moves_match_the_other_record_o")
        ),
        Finding::Swapped { first, second } => format!(
            "{} {first} {} {second} {}.",
            w.s("plies_3"),
            w.s("and"),
            w.s("are_written_in_the_other_order")
        ),
        Finding::SameIllegal { ply } => format!(
            "{} {ply} {}.",
            w.s("both_records_have_the_same_move_at_ply"),
            w.s("and_it_is_illegal_there")
        ),
        Finding::Differ { ply } => format!(
            "{} {ply} {}.",
            w.s("the_records_differ_from_ply"),
            w.s("on_in_no_simple_pattern")
        ),
    })
}

pub(crate) fn clock(secs: f64) -> String {
    tandem_braille::view::format_clock(Some(Duration::from_secs_f64(secs.max(0.0))))
}
