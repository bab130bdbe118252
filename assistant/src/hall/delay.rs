//! The broadcast delay (`tandem hall --public ADDR --public-delay 15m`): the
//! spectators' server shows every table as it was that long ago.
//!
//! The desk keeps, beside its copies, each line of each table with the
//! moment the desk took it. A spectator sees a table's game replayed from
//! the lines the desk has held for at least the delay, and nothing else: not
//! the table's live state (its clocks, boards and result come from that
//! replay, the clock run on to the moment the delay reaches), not when the
//! table was last heard from. The moment counted is the desk's own (a
//! table's clock cannot make a line public early), so a line is shown the
//! delay after it reached the desk, which is after it was played. Lines a
//! desk read back from its folder at start count from that start.
//!
//! Every route of the public server (page data, `GET /api/tables`,
//! `/events`, `/api/tables/N/game`, `/api/round.pgn`, `/api/round.pdn`,
//! `/api/results.csv`) reads only these delayed views, and only of the
//! tables the arbiter has made public at the time of the request (hiding
//! takes effect at once). The arbiter's own desk is never delayed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;

use super::store::TableCopy;
use super::{view, Hall, Update};
use crate::journal::Record;

/// How often the delay's edge is moved on (a line becomes public at most this late).
const STEP: Duration = Duration::from_millis(250);

/// One game at a table: its lines, each with when the desk took it.
#[derive(Debug, Default)]
struct GameLines {
    /// Which game of the table this is (counted by the desk from 1).
    number: u64,
    /// The desk's own records, shared: a line is held once, by the desk's
    /// copy and the delay alike.
    lines: Vec<(Instant, Arc<Record>)>,
}

/// A table's lines as the delay keeps them.
#[derive(Debug, Default)]
struct Lines {
    /// The table's games, oldest first: an earlier game stays until a line
    /// of the next one is old enough to be shown.
    games: Vec<GameLines>,
}

/// What a spectator may see of a table now: which game, how many lines.
type Key = (u64, usize);

/// A table as a spectator sees it: a copy made of the delayed lines only.
struct Seen {
    key: Key,
    copy: TableCopy,
    /// Its record's ending (`pgn`, `pdn`, `mat`): which round file holds it.
    ending: &'static str,
    round: Value,
}

/// The delayed views of the hall's tables.
pub struct Delayed {
    hall: Arc<Hall>,
    delay: Duration,
    tables: Mutex<BTreeMap<u32, Lines>>,
    seen: Mutex<HashMap<u32, Arc<Seen>>>,
    /// A table's delayed view changed (or whether it is public).
    changed: broadcast::Sender<u32>,
    games: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Delayed {
    /// The delayed views of `hall`'s tables, `delay` behind.
    #[must_use]
    pub fn new(hall: Arc<Hall>, delay: Duration) -> Arc<Delayed> {
        Arc::new(Delayed {
            hall,
            delay,
            tables: Mutex::new(BTreeMap::new()),
            seen: Mutex::new(HashMap::new()),
            changed: broadcast::channel(4096).0,
            games: AtomicU64::new(0),
        })
    }

    /// The delay.
    #[must_use]
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Takes what is new at table `n` from the desk's copy. The desk's lock
    /// is held only while the new lines are copied out, and never with this
    /// module's own.
    fn sync(&self, n: u32) {
        let (have, first) = {
            let tables = lock(&self.tables);
            match tables.get(&n).and_then(|l| l.games.last()) {
                Some(g) => (g.lines.len(), g.lines.first().map(|(_, r)| r.clone())),
                None => (0, None),
            }
        };
        let (new_game, fresh) = {
            let tables = self.hall.tables();
            let Some(t) = tables.get(&n) else { return };
            let same = match (&first, t.records.first()) {
                (Some(a), Some(b)) => a == b,
                (None, _) => true,
                (Some(_), None) => false,
            };
            if same && t.records.len() >= have {
                (false, t.records[have..].to_vec())
            } else {
                (true, t.records.clone())
            }
        };
        let now = Instant::now();
        let mut tables = lock(&self.tables);
        let lines = tables.entry(n).or_default();
        if new_game || lines.games.is_empty() {
            if fresh.is_empty() {
                return;
            }
            lines.games.push(GameLines {
                number: self.games.fetch_add(1, Ordering::Relaxed) + 1,
                lines: Vec::new(),
            });
        }
        if let Some(g) = lines.games.last_mut() {
            g.lines.extend(fresh.into_iter().map(|r| (now, r)));
        }
    }

    /// The latest moment a line may have been taken to be shown now.
    fn edge(&self) -> Option<Instant> {
        Instant::now().checked_sub(self.delay)
    }

    /// What of table `n` may be shown now.
    fn key(&self, n: u32) -> Option<Key> {
        let edge = self.edge()?;
        let mut tables = lock(&self.tables);
        let lines = tables.get_mut(&n)?;
        // The newest game with a line old enough; the earlier ones are done with.
        let i = lines
            .games
            .iter()
            .rposition(|g| g.lines.first().is_some_and(|(at, _)| *at <= edge))?;
        lines.games.drain(..i);
        let g = &lines.games[0];
        let k = g.lines.partition_point(|(at, _)| *at <= edge);
        Some((g.number, k))
    }

    /// Table `n` as a spectator sees it now (`None`: nothing old enough yet).
    fn seen(&self, n: u32) -> Option<Arc<Seen>> {
        let key = self.key(n)?;
        if let Some(s) = lock(&self.seen).get(&n).filter(|s| s.key == key) {
            return Some(s.clone());
        }
        let edge = self.edge()?;
        let (records, taken, next_t) = {
            let tables = lock(&self.tables);
            let lines = tables.get(&n)?;
            let g = lines.games.iter().find(|g| g.number == key.0)?;
            let shown = &g.lines[..key.1];
            let taken = shown.last()?.0;
            (
                shown.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>(),
                taken,
                g.lines.get(key.1).map(|(_, r)| r.t_ms),
            )
        };
        let table = crate::session::Table::replay(&records).ok()?;
        // The game's time at the delay's edge, never past the next line (not shown yet).
        let last_t = records.last().map_or(0, |r| r.t_ms);
        let since = u64::try_from(edge.saturating_duration_since(taken).as_millis()).unwrap_or(0);
        let mut at = last_t.saturating_add(since);
        if let Some(next) = next_t {
            at = at.min(next.max(last_t));
        }
        let file = PathBuf::from(format!("/nonexistent/tandem-delayed/table-{n}.jsonl"));
        // Everything shown, the round and the players included, is of the
        // lines replayed: nothing of the table's live state.
        let facts = super::store::facts::facts_of(&table, at);
        let round = facts["round"].clone();
        let mut copy = TableCopy::open(n, &file).ok()?;
        copy.records = records;
        copy.set_state(json!({"clocks": {"running": facts["clocks"]["running"]}}));
        copy.facts.set(facts);
        copy.seen = Some(taken + self.delay);
        let ending = table.game.kind().record_ending();
        let s = Arc::new(Seen {
            key,
            copy,
            ending,
            round,
        });
        lock(&self.seen).insert(n, s.clone());
        Some(s)
    }

    /// The public tables with something to show, and their views.
    fn shown(&self) -> Vec<(u32, Arc<Seen>)> {
        let numbers: Vec<u32> = lock(&self.tables).keys().copied().collect();
        numbers
            .into_iter()
            .filter(|n| self.hall.is_public(*n))
            .filter_map(|n| self.seen(n).map(|s| (n, s)))
            .collect()
    }

    /// Follows the desk for ever: takes each table's new lines as they come
    /// and says which tables' delayed views changed.
    pub async fn run(self: Arc<Self>) {
        let mut updates = self.hall.updates.subscribe();
        let numbers: Vec<u32> = self.hall.tables().keys().copied().collect();
        for n in numbers {
            self.sync(n);
        }
        let mut last: HashMap<u32, (Option<Key>, bool)> = HashMap::new();
        let mut step = tokio::time::interval(STEP);
        let mut full = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                u = updates.recv() => match u {
                    Ok(Update::Table { table }) => self.sync(table),
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => {
                        let numbers: Vec<u32> = self.hall.tables().keys().copied().collect();
                        for n in numbers { self.sync(n); }
                    }
                    Err(RecvError::Closed) => return,
                },
                _ = full.tick() => {
                    let numbers: Vec<u32> = self.hall.tables().keys().copied().collect();
                    for n in numbers { self.sync(n); }
                }
                _ = step.tick() => {
                    let numbers: Vec<u32> = lock(&self.tables).keys().copied().collect();
                    for n in numbers {
                        let now = (self.key(n), self.hall.is_public(n));
                        if last.get(&n) != Some(&now) {
                            last.insert(n, now);
                            let _ = self.changed.send(n);
                        }
                    }
                }
            }
        }
    }

    fn names(&self, s: &Seen) -> crate::export::Names {
        crate::export::Names {
            round: s.round.as_str().map(str::to_owned),
            ..crate::export::Names::default()
        }
    }

    fn game_text(&self, s: &Seen) -> Option<String> {
        crate::export::pdn_from_records(&s.copy.records, &self.names(s)).ok()
    }
}

/// The spectators' view of a table as the page shows it.
fn page_view(hall: &Hall, s: &Seen) -> Value {
    page_view_for(hall, s, None).0
}

/// [`page_view`] for a stream that last sent this table's board with the
/// key `board` ([`view::finish_for`]): the board only when it changed.
fn page_view_for(hall: &Hall, s: &Seen, board: Option<u64>) -> (Value, u64) {
    let (mut v, key) = view::finish_for(view::page(&s.copy, &hall.event), board);
    v["public"] = json!(true);
    v["online"] = Value::Null;
    (super::web::public_view(v), key)
}

/// The data routes of the public server with a delay.
pub fn routes(d: Arc<Delayed>) -> Router {
    Router::new()
        .route("/api/tables", get(tables))
        .route("/api/view", get(views))
        .route("/api/tables/{n}/game", get(game))
        .route("/api/round.pdn", get(|s| round(s, "pdn")))
        .route("/api/round.pgn", get(|s| round(s, "pgn")))
        .route("/api/results.csv", get(results))
        .route("/events", get(events))
        .with_state(d)
}

async fn tables(State(d): State<Arc<Delayed>>) -> Json<Value> {
    let list: Vec<Value> = d
        .shown()
        .iter()
        .map(|(_, s)| super::web::public_view(view::api(&s.copy, &d.hall.event)))
        .collect();
    Json(Value::Array(list))
}

fn snapshot(d: &Delayed) -> Value {
    let list: Vec<Value> = d
        .shown()
        .iter()
        .map(|(_, s)| page_view(&d.hall, s))
        .collect();
    json!({"event": d.hall.event, "tables": list, "alerts": [], "can_command": false,
           "delay_s": d.delay.as_secs()})
}

async fn views(State(d): State<Arc<Delayed>>) -> Json<Value> {
    Json(snapshot(&d))
}

/// What delayed answers are made of: each table shown, which game and how
/// many of its lines (`heavy.rs`: built once per change).
fn key_of(shown: &[(u32, Arc<Seen>)]) -> super::heavy::KeyOf {
    let mut key = super::heavy::KeyOf::default();
    key.part("delayed");
    for (n, s) in shown {
        key.part(n.to_le_bytes())
            .part(s.key.0.to_le_bytes())
            .part((s.key.1 as u64).to_le_bytes());
    }
    key
}

async fn game(State(d): State<Arc<Delayed>>, Path(n): Path<u32>) -> Response {
    let s = if d.hall.is_public(n) { d.seen(n) } else { None };
    let Some(s) = s else {
        return (
            StatusCode::NOT_FOUND,
            format!("no table {n} in this event\n"),
        )
            .into_response();
    };
    let ending = s.ending;
    let built = build(
        &d,
        super::heavy::Route::Game(n),
        vec![(n, s)],
        move |d, s| {
            s.first()
                .and_then(|(_, s)| d.game_text(s))
                .map(Into::into)
                .ok_or((404, format!("no table {n} in this event")))
        },
    )
    .await;
    super::web::record_response(built, &format!("table-{n}.{ending}"))
}

/// What `route` answers, built from the tables `shown` (by `make`, on a
/// blocking thread) or kept from the last time they were the same.
async fn build(
    d: &Arc<Delayed>,
    route: super::heavy::Route,
    shown: Vec<(u32, Arc<Seen>)>,
    make: impl FnOnce(&Delayed, Vec<(u32, Arc<Seen>)>) -> super::heavy::Built + Send + 'static,
) -> super::heavy::Built {
    let key = key_of(&shown);
    let d2 = d.clone();
    d.hall
        .heavy
        .get(route, true, key, move || make(&d2, shown))
        .await
}

async fn round(State(d): State<Arc<Delayed>>, ending: &'static str) -> Response {
    let route = super::heavy::Route::Round(ending);
    let built = build(&d, route, d.shown(), move |d, shown| {
        let texts = shown
            .into_iter()
            .filter(|(_, s)| s.ending == ending)
            .filter_map(|(_, s)| d.game_text(&s));
        Ok(super::web::round_records(texts).into())
    })
    .await;
    super::web::record_response(built, &format!("round.{ending}"))
}

async fn results(State(d): State<Arc<Delayed>>) -> Response {
    let built = build(&d, super::heavy::Route::Results, d.shown(), |d, shown| {
        let rows: Vec<Value> = shown
            .iter()
            .map(|(_, s)| view::api(&s.copy, &d.hall.event))
            .collect();
        Ok(super::web::results_csv(&rows).into())
    })
    .await;
    super::web::results_response(built)
}

/// The live stream of the delayed views: a table's view when what may be
/// shown of it changes; `hide` only for a table this spectator was shown.
async fn events(State(d): State<Arc<Delayed>>) -> impl IntoResponse {
    let (tx, rx) = mpsc::channel::<Result<SseEvent, Infallible>>(64);
    let mut changed = d.changed.subscribe();
    tokio::spawn(async move {
        let first = snapshot(&d);
        let mut sent: HashMap<u32, Key> = HashMap::new();
        if let Some(list) = first["tables"].as_array() {
            for v in list {
                if let Some(n) = v["table"].as_u64().and_then(|n| u32::try_from(n).ok()) {
                    if let Some(s) = d.seen(n) {
                        sent.insert(n, s.key);
                    }
                }
            }
        }
        // The board each table was last sent with (none yet: the snapshot's are not keyed).
        let mut boards: HashMap<u32, u64> = HashMap::new();
        let first = SseEvent::default()
            .event("snapshot")
            .data(first.to_string());
        if tx.send(Ok(first)).await.is_err() {
            return;
        }
        loop {
            let todo: BTreeSet<u32> = match changed.recv().await {
                Ok(n) => BTreeSet::from([n]),
                // Behind: every table is looked at again, by the same rule.
                Err(RecvError::Lagged(_)) => lock(&d.tables).keys().copied().collect(),
                Err(RecvError::Closed) => return,
            };
            for n in todo {
                let now = if d.hall.is_public(n) { d.seen(n) } else { None };
                let e = match now {
                    Some(s) if sent.get(&n) != Some(&s.key) => {
                        sent.insert(n, s.key);
                        let (v, board) = page_view_for(&d.hall, &s, boards.get(&n).copied());
                        boards.insert(n, board);
                        SseEvent::default().event("table").data(v.to_string())
                    }
                    Some(_) => continue,
                    None if sent.remove(&n).is_some() => {
                        boards.remove(&n);
                        SseEvent::default()
                            .event("hide")
                            .data(json!({"table": n}).to_string())
                    }
                    None => continue,
                };
                if tx.send(Ok(e)).await.is_err() {
                    return;
                }
            }
        }
    });
    Sse::new(tokio_stream::wrappers::ReceiverStream::new(rx)).keep_alive(KeepAlive::default())
}

/// `--public-delay`: `30s`, `15m`, `1h 30m`.
///
/// # Errors
/// Not a duration.
pub fn parse(text: &str) -> anyhow::Result<Duration> {
    humantime::parse_duration(text.trim())
        .map_err(|e| anyhow::anyhow!("--public-delay {text:?}: {e} (write it like 30s, 15m or 1h)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_read_as_written() {
        assert_eq!(parse("30s").unwrap(), Duration::from_secs(30));
        assert_eq!(parse("15m").unwrap(), Duration::from_secs(900));
        assert!(parse("soon").unwrap_err().to_string().contains("15m"));
    }

    /// A desk with one table whose journal is taken, and its delayed view.
    fn desk(delay: Duration) -> (tempfile::TempDir, Arc<Hall>, Arc<Delayed>) {
        let dir = tempfile::tempdir().unwrap();
        let (hall, _out) = Hall::new("ev", dir.path().to_owned(), None, None).unwrap();
        for l in crate::hall::store::journal_lines(Some("Kowalski"), "90m") {
            let payload = serde_json::to_vec(&l).unwrap();
            hall.on_message("tandem/ev/table/4/journal", &payload);
        }
        hall.set_public(None, true).unwrap();
        let d = Delayed::new(hall.clone(), delay);
        (dir, hall, d)
    }

    #[test]
    fn nothing_is_shown_before_it_is_as_old_as_the_delay() {
        let (_dir, _hall, d) = desk(Duration::from_millis(300));
        d.sync(4);
        assert!(d.shown().is_empty(), "shown at once");
        std::thread::sleep(Duration::from_millis(350));
        let shown = d.shown();
        assert_eq!(shown.len(), 1);
        let v = view::api(&shown[0].1.copy, "ev");
        assert_eq!(v["white"], "Kowalski", "{v}");
        // White's clock runs on from the start line to the delay's edge, no further.
        let white = v["clocks"]["white_remaining_ms"].as_u64().unwrap();
        assert!(
            white <= 90 * 60 * 1000 && white > 90 * 60 * 1000 - 1000,
            "{v}"
        );
    }

    #[test]
    fn a_hidden_table_is_never_shown() {
        let (_dir, hall, d) = desk(Duration::ZERO);
        d.sync(4);
        assert_eq!(d.shown().len(), 1);
        hall.set_public(Some(4), false).unwrap();
        assert!(d.shown().is_empty());
    }
}
