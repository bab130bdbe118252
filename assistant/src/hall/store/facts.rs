//! The game as the desk's own copy of a table's journal has it, replayed
//! line by line as the lines are taken (docs/hall.md, "Facts from the
//! journal"). Everything the desk and the public server show of a game —
//! the result, the players, the round, the moves, the clocks, the boards —
//! comes from here, never from what a table says of itself: a table's state
//! is only held against these facts ([`Facts::contradiction`]), and one that
//! contradicts them is an alert (`state-mismatch`), not a shown fact.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};
use tandem_rules::clock::GameTime;

use crate::journal::{Event, Record};
use crate::session::Table;

/// What [`Facts::view`] made: the whole view, and its part that lines
/// which change only the time (a tick, an announcement) leave as it is: a
/// tick remakes the clocks only.
#[derive(Debug, Default)]
struct Made {
    view: Option<Arc<Value>>,
    game: Option<Value>,
}

/// A table's game replayed from the desk's copy.
#[derive(Debug, Default)]
pub struct Facts {
    /// The game so far (none before line 1). In a mutex only to be shared
    /// (a game is not `Sync`): it is reached through `&mut self` alone.
    table: std::sync::Mutex<Option<Table>>,
    /// Records of the copy applied.
    applied: usize,
    /// The copy's first record (another first record: another game).
    first: Option<Arc<Record>>,
    /// Why the replay stopped at a line (a journal the desk cannot replay):
    /// the facts stay those of the lines before it.
    failed: Option<String>,
    /// The facts as the views read them, made when first asked for after
    /// a change (the views may not look).
    view: std::sync::Mutex<Made>,
    /// The game time of the last line applied.
    last_t: u64,
    /// When the last line was applied (desk time): the clock of the side
    /// to move runs on from there.
    taken: Option<Instant>,
}

impl Facts {
    /// Applies the copy's records not applied yet (all of them again when
    /// the copy is of another game, or shorter). Returns why the replay
    /// stopped, the first time it does.
    pub fn refresh(&mut self, records: &[Arc<Record>]) -> Option<String> {
        let same_game = match (&self.first, records.first()) {
            (Some(a), Some(b)) => a == b,
            (None, _) => true,
            (Some(_), None) => false,
        };
        if !same_game || records.len() < self.applied {
            *self = Facts::default();
        }
        if records.len() == self.applied {
            return None;
        }
        let mut stopped = None;
        let mut game_changed = false;
        let table = self
            .table
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for r in &records[self.applied..] {
            if self.failed.is_some() {
                break;
            }
            let at = GameTime::from_millis(r.t_ms);
            game_changed |= !Table::changes_only_time(&r.event);
            let done = match (&mut *table, &r.event) {
                (None, Event::Start(info)) => Table::new(info.clone()).map(|t| {
                    *table = Some(t);
                }),
                (None, _) => Err(anyhow::anyhow!(
                    "the journal does not begin with a game start"
                )),
                (Some(t), event) => t.apply(event, at),
            };
            if let Err(e) = done {
                let why = format!("line {}: {e:#}", r.seq);
                self.failed = Some(why.clone());
                stopped = Some(why);
            }
        }
        self.applied = records.len();
        self.first = records.first().cloned();
        self.taken = Some(Instant::now());
        self.last_t = records.last().map_or(0, |r| r.t_ms);
        let mut made = self.view_slot();
        made.view = None;
        if game_changed {
            made.game = None;
        }
        drop(made);
        stopped
    }

    /// Takes facts made elsewhere from the desk's lines (a delayed view,
    /// replayed to the delay's edge), as of now.
    pub fn set(&mut self, view: Value) {
        self.view_slot().view = Some(Arc::new(view));
        self.taken = Some(Instant::now());
    }

    fn view_slot(&self) -> std::sync::MutexGuard<'_, Made> {
        self.view
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn game(&self) -> std::sync::MutexGuard<'_, Option<Table>> {
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The facts, as a `tandem ctl state` object with `players` and
    /// `round` (`Value::Null` before line 1). The two locks are the facts'
    /// own, taken one inside the other and nothing else inside them.
    #[must_use]
    pub fn view(&self) -> Arc<Value> {
        let mut made = self.view_slot();
        if let Some(v) = &made.view {
            return v.clone();
        }
        let game = self.game();
        let Some(t) = game.as_ref() else {
            return Arc::new(Value::Null);
        };
        let mut v = match &made.game {
            Some(g) => {
                // Only the time moved on: the clocks again, the rest as made.
                let mut v = g.clone();
                let at = GameTime::from_millis(self.last_t);
                v["clocks"] = serde_json::to_value(t.clocks_view(at)).unwrap_or(Value::Null);
                v
            }
            None => {
                let v = facts_of(t, self.last_t);
                made.game = Some(v.clone());
                v
            }
        };
        v["t_ms"] = json!(self.last_t);
        let v = Arc::new(v);
        made.view = Some(v.clone());
        v
    }

    /// Milliseconds since the last line was applied.
    #[must_use]
    pub fn age_ms(&self) -> u64 {
        self.taken.map_or(0, |t| {
            u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX)
        })
    }

    /// Lines applied.
    #[must_use]
    pub fn lines(&self) -> u64 {
        self.applied as u64
    }

    /// What in a table's `state` contradicts these facts, when the state
    /// says it follows from as many lines as were applied (`journal_seq`):
    /// `(what, the table's, the journal's)`. A state of other lines (older,
    /// or of lines still on their way) is held against nothing.
    #[must_use]
    pub fn contradiction(&self, state: &Value) -> Option<(&'static str, String, String)> {
        if self.failed.is_some() || state["journal_seq"].as_u64() != Some(self.lines()) {
            return None;
        }
        // What is held against the state, read off the game (not its whole view).
        let facts = {
            let game = self.game();
            let t = game.as_ref()?;
            let outcome = t.game.outcome();
            json!({"result": outcome.map(|o| t.game.result_text(Some(o))),
                   "fen": t.game.fen(), "ply": t.game.ply(),
                   "players": {"white": t.info.white, "black": t.info.black},
                   "round": t.info.round})
        };
        let said = |v: &Value| match v {
            Value::Null => "none".to_owned(),
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let mut pairs: Vec<(&'static str, &Value, &Value)> = vec![
            ("result", &state["result"], &facts["result"]),
            ("position", &state["fen"], &facts["fen"]),
            ("ply", &state["ply"], &facts["ply"]),
            (
                "white",
                &state["players"]["white"],
                &facts["players"]["white"],
            ),
            (
                "black",
                &state["players"]["black"],
                &facts["players"]["black"],
            ),
        ];
        // The round is in line 1 only of journals since it was (old ones
        // have none: nothing to hold the table's against).
        if !facts["round"].is_null() {
            pairs.push(("round", &state["round"], &facts["round"]));
        }
        pairs
            .into_iter()
            .find(|(_, s, f)| s != f)
            .map(|(what, s, f)| (what, crate::hall::store::cut(&said(s), 80), said(f)))
    }
}

/// The facts of a replayed game at game time `at_ms`: its report, the
/// players and the round of line 1, and the last move's marks of its
/// picture (the desk draws the pieces itself from the position).
#[must_use]
pub fn facts_of(t: &Table, at_ms: u64) -> Value {
    let report = t.report(GameTime::from_millis(at_ms), Path::new(""));
    let mut v = serde_json::to_value(&report).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("journal");
        o.remove("journal_health");
        o.remove("journal_seq");
    }
    v["board"] = json!({"fen": report.fen, "last": report.board.last,
                        "captured": report.board.captured});
    v["players"] = json!({"white": t.info.white, "black": t.info.black});
    v["round"] = json!(t.info.round);
    v["event"] = json!(t.info.event);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{JournalWriter, StartInfo};
    use tandem_rules::Color;

    fn records(round: Option<&str>, moves: &[&str]) -> Vec<Arc<Record>> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j.jsonl");
        let mut w = JournalWriter::create(&p).unwrap();
        w.append(
            0,
            Event::Start(StartInfo {
                white: Some("Anna".into()),
                black: Some("Bolek".into()),
                round: round.map(str::to_owned),
                ..StartInfo::for_tests()
            }),
        )
        .unwrap();
        for (i, m) in moves.iter().enumerate() {
            let side = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            w.append(
                1000 * (i as u64 + 1),
                Event::Move {
                    ply: i as u32 + 1,
                    side,
                    text: (*m).into(),
                    input: (*m).into(),
                    source: crate::journal::Source::Typed,
                    move_ms: 1000,
                    white_ms: 90 * 60_000,
                    black_ms: 90 * 60_000,
                    seat: None,
                },
            )
            .unwrap();
        }
        drop(w);
        crate::journal::Journal::parse(&std::fs::read(&p).unwrap())
            .records
            .into_iter()
            .map(Arc::new)
            .collect()
    }

    #[test]
    fn the_facts_follow_the_copy_line_by_line_and_start_again_for_another_game() {
        let all = records(Some("3"), &["32-28", "19-23", "28x19"]);
        let mut f = Facts::default();
        assert!(f.refresh(&all[..2]).is_none());
        let v = f.view();
        assert_eq!(v["moves"], json!(["32-28"]), "{v}");
        assert_eq!(v["players"], json!({"white": "Anna", "black": "Bolek"}));
        assert_eq!(v["round"], "3");
        assert!(f.refresh(&all).is_none());
        let v = f.view();
        assert_eq!(v["moves"], json!(["32-28", "19-23", "28x19"]), "{v}");
        assert_eq!(v["ply"], 3);
        assert_eq!(v["turn"], "black");
        // Another game's lines: replayed from its line 1.
        let other = records(None, &["31-27"]);
        assert!(f.refresh(&other).is_none());
        assert_eq!(f.view()["moves"], json!(["31-27"]));
        assert_eq!(f.view()["round"], Value::Null);
    }

    #[test]
    fn a_tick_moves_the_clocks_on_and_leaves_the_game() {
        let mut all = records(None, &["32-28"]);
        let mut f = Facts::default();
        f.refresh(&all);
        let before = f.view();
        assert_eq!(before["clocks"]["black"]["remaining_ms"], 90 * 60_000);
        // Ten seconds later, black to move: a tick line.
        let mut tick = (*all[1]).clone();
        tick.seq = 3;
        tick.t_ms = 11_000;
        tick.event = Event::Tick;
        all.push(Arc::new(tick));
        f.refresh(&all);
        let after = f.view();
        assert_eq!(
            after["clocks"]["black"]["remaining_ms"],
            90 * 60_000 - 10_000,
            "{after}"
        );
        assert_eq!(after["clocks"]["white"], before["clocks"]["white"]);
        assert_eq!(after["moves"], before["moves"]);
        assert_eq!(after["t_ms"], 11_000);
        assert!(Arc::ptr_eq(&after, &f.view()), "made once");
    }

    #[test]
    fn a_line_the_desk_cannot_replay_stops_the_facts_before_it_once() {
        let mut all = records(None, &["32-28", "19-23"]);
        // A move out of turn (a journal not written by tandem): white again.
        let mut bad = (*all[2]).clone();
        bad.seq = 4;
        if let Event::Move { side, .. } = &mut bad.event {
            *side = Color::White;
        }
        all.push(Arc::new(bad));
        let mut f = Facts::default();
        let why = f.refresh(&all).expect("the replay stops");
        assert!(why.starts_with("line 4:"), "{why}");
        assert_eq!(f.view()["ply"], 2, "the lines before it");
        assert!(f.refresh(&all).is_none(), "said once");
    }

    #[test]
    fn a_state_of_the_same_lines_is_held_against_the_facts() {
        let all = records(Some("3"), &["32-28"]);
        let mut f = Facts::default();
        f.refresh(&all);
        let facts = f.view();
        let mut state = json!({"journal_seq": 2, "result": null, "fen": facts["fen"], "ply": 1,
                               "players": {"white": "Anna", "black": "Bolek"}, "round": "3"});
        assert_eq!(f.contradiction(&state), None);
        state["result"] = json!("0-2");
        assert_eq!(
            f.contradiction(&state),
            Some(("result", "0-2".to_owned(), "none".to_owned()))
        );
        // Of other lines: held against nothing.
        state["journal_seq"] = json!(3);
        assert_eq!(f.contradiction(&state), None);
        state["journal_seq"] = json!(2);
        state["result"] = Value::Null;
        state["players"]["black"] = json!("Someone else");
        assert_eq!(f.contradiction(&state).map(|c| c.0), Some("black"));
        state["players"]["black"] = json!("Bolek");
        state["round"] = json!("4");
        assert_eq!(f.contradiction(&state).map(|c| c.0), Some("round"));
    }
}
