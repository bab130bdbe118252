//! `tandem arbiter announcements`: how often each side's input was refused
//! (001 ch. VIII 3.2), for any game: the journal is replayed through the
//! game registry, so the side charged is the side to act at that moment.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde::Serialize;
use tandem_rules::Color;

use super::{side_word, AnnouncementsArgs, Registry, Words};
use crate::journal::{Event, Journal, Source};

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
    /// Who heard what (001 ch. VIII 3.2; `tandem play --seat`): every
    /// announcement with the seats whose outputs got it.
    pub heard: Vec<HeardEntry>,
}

/// One announcement and who heard it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeardEntry {
    /// The journal line.
    pub line: u64,
    /// `move`, `clock`, `rejection`, …
    pub kind: String,
    /// The words.
    pub text: String,
    /// The seats that heard it (white, black); empty: no seat's output
    /// (no speech, or a journal from before seats).
    pub to: Vec<Color>,
}

/// Counts refused inputs per side: a `rejected` event is charged to the side
/// to act at that moment (the journal is replayed through the game, so in
/// backgammon the side that must answer a double is charged for a refused
/// answer); also counts moves, `mismatch` reports and the arbiter's
/// corrections (each move taken back is charged to the side that played
/// it). Inputs from the control socket (`tandem ctl`, the assistant or
/// arbiter) are listed but not charged.
#[must_use]
pub fn announcement_stats(j: &Journal, reg: &Registry) -> AnnouncementStats {
    let mut st = AnnouncementStats::default();
    // The game itself, to know whose turn it is; a journal that does not
    // replay (another program's) falls back to sides taking turns.
    let mut game = j
        .start()
        .and_then(|s| (reg.from_journal)(&s.variant, &s.fen, s.options, "en").ok());
    let mut turn = game.as_ref().map_or(Color::White, |g| g.turn());
    // Who made each ply, and whether it was a move (not a roll or a cube action).
    let mut plies: Vec<(Color, bool)> = Vec::new();
    for r in &j.records {
        match &r.event {
            Event::Move { side, text, .. } => {
                side_stats(&mut st, *side).moves += 1;
                let before = game.as_ref().map_or(plies.len(), |g| g.ply());
                if game.as_mut().is_some_and(|g| g.play_text(text).is_err()) {
                    game = None;
                }
                let after = game.as_ref().map_or(before + 1, |g| g.ply());
                for _ in before..after {
                    plies.push((*side, true));
                }
                turn = game.as_ref().map_or(side.other(), |g| g.turn());
            }
            Event::Action { side, text, .. } => {
                let Some(g) = game.as_mut() else { continue };
                let before = g.ply();
                if g.play_action(text).is_err() {
                    game = None;
                    continue;
                }
                let after = g.ply();
                plies.truncate(after.min(plies.len()));
                for _ in before..after {
                    plies.push((*side, false));
                }
                turn = g.turn();
            }
            Event::Announced { kind, text, to, .. } => st.heard.push(HeardEntry {
                line: r.seq,
                kind: kind.clone(),
                text: text.clone(),
                to: to.clone(),
            }),
            Event::Rejected {
                source,
                input,
                reason,
                seat,
            } => {
                // A seat's input is its own side's (a seat that spoke on the
                // other side's turn is charged, not the side to move).
                let turn = seat.unwrap_or(turn);
                st.refused.push(RefusedInput {
                    line: r.seq,
                    ply: plies.len(),
                    side: turn,
                    source: *source,
                    input: input.clone(),
                    reason: reason.clone(),
                });
                if *source == Source::Control {
                    continue;
                }
                let s = side_stats(&mut st, turn);
                s.refused += 1;
                if *source == Source::Spoken {
                    s.spoken += 1;
                } else {
                    s.typed += 1;
                }
            }
            Event::Mismatch { .. } => st.mismatches += 1,
            Event::Correction {
                plies: n,
                undone,
                reason,
                ..
            } => {
                for _ in 0..*n {
                    if let Some((side, true)) = plies.pop() {
                        side_stats(&mut st, side).taken_back += 1;
                    }
                    if let Some(g) = game.as_mut() {
                        g.undo();
                    }
                }
                turn = match &game {
                    Some(g) => g.turn(),
                    // Sides taking turns from the first mover.
                    None => plies.last().map_or(turn, |(side, _)| side.other()),
                };
                st.corrections.push(CorrectionEntry {
                    line: r.seq,
                    plies: *n,
                    undone: undone.clone(),
                    reason: reason.clone(),
                });
            }
            _ => {}
        }
    }
    st
}

pub(crate) fn side_stats(st: &mut AnnouncementStats, side: Color) -> &mut SideAnnouncements {
    match side {
        Color::White => &mut st.white,
        Color::Black => &mut st.black,
    }
}

pub(crate) fn run_announcements(
    args: &AnnouncementsArgs,
    reg: &Registry,
) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.journal)
        .with_context(|| format!("reading {}", args.journal.display()))?;
    let j = Journal::parse(&bytes);
    if j.start().is_none() {
        bail!(
            "{}: not a tandem journal (no game start on line 1)",
            args.journal.display()
        );
    }
    let st = announcement_stats(&j, reg);
    let w = Words::new(args.lang);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&st)?)?;
    } else {
        write!(out, "{}", announcements_text(&st, w))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn announcements_text(st: &AnnouncementStats, w: Words) -> String {
    let mut s = String::new();
    for (c, a) in [(Color::White, &st.white), (Color::Black, &st.black)] {
        let side = side_word(c, w);
        let _ = writeln!(
            s,
            "{side}: {} {} ({} {}, {} {}), {} {}, {} {}",
            a.refused,
            w.s("refused_inputs"),
            a.spoken,
            w.s("spoken"),
            a.typed,
            w.s("typed"),
            a.moves,
            w.s("moves_played"),
            a.taken_back,
            w.s("taken_back_by_the_arbiter"),
        );
    }
    let _ = writeln!(s, "{}: {}", w.s("boards_reported_different"), st.mismatches);
    for c in &st.corrections {
        let _ = writeln!(
            s,
            "  {} {}: {} {}: {} {}",
            w.s("line"),
            c.line,
            w.s("the_arbiter_took_back"),
            c.undone.join(" "),
            w.s("reason"),
            c.reason
        );
    }
    heard_text(&mut s, st, w);
    for r in &st.refused {
        let _ = writeln!(
            s,
            "  {} {}, {} {}, {} ({}): {:?}: {}",
            w.s("line"),
            r.line,
            w.s("after_ply"),
            r.ply,
            side_word(r.side, w),
            source_word(r.source, w),
            r.input,
            r.reason
        );
    }
    s
}

/// Who heard what, when seats had outputs of their own: how many
/// announcements each seat alone heard and both heard, and each one a seat
/// alone heard (its own answers: the clock, a refusal).
fn heard_text(s: &mut String, st: &AnnouncementStats, w: Words) {
    if st.heard.iter().all(|h| h.to.is_empty()) {
        return;
    }
    let alone = |c: Color| st.heard.iter().filter(|h| h.to == [c]).count();
    let both = st.heard.iter().filter(|h| h.to.len() == 2).count();
    let _ = writeln!(
        s,
        "{}: {} {}, {} {}, {} {}",
        w.s("heard_alone"),
        side_word(Color::White, w),
        alone(Color::White),
        side_word(Color::Black, w),
        alone(Color::Black),
        w.s("by_both"),
        both,
    );
    for h in st.heard.iter().filter(|h| h.to.len() == 1) {
        let _ = writeln!(
            s,
            "  {} {}, {} {}: {}",
            w.s("line"),
            h.line,
            w.s("heard_by"),
            side_word(h.to[0], w),
            h.text
        );
    }
}

pub(crate) fn source_word(s: Source, w: Words) -> &'static str {
    match s {
        Source::Typed => w.s("typed_2"),
        Source::Spoken => w.s("spoken"),
        Source::Keys => w.s("keys"),
        Source::Control => w.s("control_not_charged"),
        Source::Tandem => "tandem",
        Source::Arbiter => w.s("arbiter"),
        Source::Device => w.s("device"),
        Source::Eboard => w.s("e_board"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{JournalWriter, StartInfo};
    use crate::kind::GameKind;
    use tandem_rules::GameOptions;

    /// The start position text of the game named `variant` (the registry's).
    fn start_fen(variant: &str) -> String {
        let kind: GameKind = variant.parse().unwrap();
        kind.position(None).unwrap().to_fen()
    }

    fn start(variant: &str, fen: String, options: GameOptions) -> Event {
        Event::Start(StartInfo {
            variant: variant.into(),
            fen,
            options,
            ..StartInfo::for_tests()
        })
    }

    fn mv(ply: u32, side: Color, text: &str) -> Event {
        Event::Move {
            ply,
            side,
            text: text.into(),
            input: text.into(),
            source: Source::Typed,
            move_ms: 1000,
            white_ms: 1,
            black_ms: 1,
            seat: None,
        }
    }

    fn act(ply: u32, side: Color, text: &str, press: bool) -> Event {
        Event::Action {
            ply,
            side,
            text: text.into(),
            input: text.into(),
            source: Source::Typed,
            press,
            white_ms: 1,
            black_ms: 1,
            seat: None,
        }
    }

    fn refused(input: &str) -> Event {
        Event::Rejected {
            source: Source::Typed,
            input: input.into(),
            reason: "no".into(),
            seat: None,
        }
    }

    fn undo(plies: u32) -> Event {
        Event::Correction {
            plies,
            undone: Vec::new(),
            source: Source::Arbiter,
            reason: "boards differed".into(),
        }
    }

    fn journal(events: Vec<Event>) -> Journal {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut w = JournalWriter::create(&path).unwrap();
        for (i, e) in events.into_iter().enumerate() {
            w.append(i as u64 * 1000, e).unwrap();
        }
        Journal::read(&path).unwrap()
    }

    #[test]
    fn backgammon_refusals_go_to_the_side_to_act_and_corrections_to_the_movers() {
        let options = GameOptions {
            match_length: 3,
            ..GameOptions::default()
        };
        let kind: GameKind = "backgammon".parse().unwrap();
        let fen = kind.position(None).unwrap().for_match(3).to_fen();
        let j = journal(vec![
            start("backgammon", fen, options),
            act(0, Color::White, "roll 52", false),
            mv(2, Color::White, "13/11 13/8"),
            act(2, Color::Black, "roll 64", false),
            refused("24/10"),
            mv(4, Color::Black, "24/14*"),
            act(4, Color::White, "double", true),
            // The double waits for black's answer: black's refusal.
            refused("roll 31"),
            act(5, Color::Black, "take", true),
            // The arbiter takes back the take and the double: white to act.
            undo(2),
            refused("take"),
        ]);
        let st = announcement_stats(&j, &crate::game::arbiter_registry());
        assert_eq!((st.white.refused, st.black.refused), (1, 2), "{st:?}");
        let sides: Vec<Color> = st.refused.iter().map(|r| r.side).collect();
        assert_eq!(sides, [Color::Black, Color::Black, Color::White]);
        assert_eq!(st.refused[2].ply, 4);
        // Cube actions are no moves: nothing of a move was taken back.
        assert_eq!((st.white.taken_back, st.black.taken_back), (0, 0));
        assert_eq!((st.white.moves, st.black.moves), (1, 1));
        assert_eq!(st.corrections.len(), 1);
    }

    #[test]
    fn a_draughts_move_taken_back_is_charged_to_its_mover() {
        let j = journal(vec![
            start(
                "international",
                start_fen("international"),
                GameOptions::default(),
            ),
            mv(1, Color::White, "32-28"),
            mv(2, Color::Black, "19-23"),
            undo(1),
            refused("19-24x"),
        ]);
        let st = announcement_stats(&j, &crate::game::arbiter_registry());
        assert_eq!((st.white.taken_back, st.black.taken_back), (0, 1));
        assert_eq!(st.refused[0].side, Color::Black);
        assert_eq!(st.refused[0].ply, 1);
    }
}
