//! The desk's web server (axum): the page, the JSON API, the live stream
//! (server-sent events), the downloads and the arbiter's commands. The
//! public server (`--public`) serves a read-only subset: the games, not the
//! alerts, journals or commands.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::{view, Hall, Update};
use crate::game::GameKind;

const INDEX: &str = include_str!("assets/index.html");
const TABLE: &str = include_str!("assets/table.html");
const PUBLIC: &str = include_str!("assets/public.html");
const JS: &str = include_str!("assets/hall.js");
const CSS: &str = include_str!("assets/hall.css");

#[derive(Clone)]
struct App {
    hall: Arc<Hall>,
    public: bool,
}

impl App {
    /// Whether this server shows table `n` (the public one: only what the arbiter made public).
    fn shows(&self, n: u32) -> bool {
        !self.public || self.hall.is_public(n)
    }

    /// What this server shows, decided once (before the tables are locked:
    /// no lock is taken while another is held).
    fn shown(&self) -> Shown {
        Shown {
            public: self.public,
            now: self.hall.public_now(),
        }
    }
}

/// A copy of what is public, taken before the tables are locked.
struct Shown {
    public: bool,
    now: super::Public,
}

impl Shown {
    fn shows(&self, n: u32) -> bool {
        !self.public || self.now.shows(n)
    }
}

/// The arbiter's server; `session` goes at the end of its pages (with a
/// login: the certificate's fingerprint and the logout button).
pub fn desk(hall: Arc<Hall>, session: &str) -> Router {
    let app = App {
        hall,
        public: false,
    };
    let index = INDEX.replace("<!--session-->", session);
    let table = TABLE.replace("<!--session-->", session);
    common(Router::new())
        .route("/", get(move || std::future::ready(Html(index.clone()))))
        .route(
            "/tables/{n}",
            get(move || std::future::ready(Html(table.clone()))),
        )
        .route("/api/tables/{n}/journal", get(journal))
        .route("/api/tables/{n}/detail", get(detail))
        .route("/api/tables/{n}/reconcile", post(reconcile))
        .route("/api/command", post(command))
        .route("/api/public", post(publish))
        .route("/api/tables/{n}/acknowledge", post(acknowledge))
        .route("/api/stats", get(stats))
        .with_state(app)
}

/// The spectators' server: games only.
pub fn public(hall: Arc<Hall>) -> Router {
    let app = App { hall, public: true };
    common(Router::new())
        .route("/", get(|| async { Html(PUBLIC) }))
        .with_state(app)
}

/// The spectators' page and its script and style added to `routes`: with a
/// broadcast delay (`--public-delay`) every data route comes from the
/// delayed views (`hall/delay.rs`, whose routes the caller passes in).
pub fn public_page(routes: Router) -> Router {
    assets(routes.route("/", get(|| async { Html(PUBLIC) })))
}

/// The pages' script, style and the shared `/announce.js` (crate::http),
/// whatever state the routes hold.
fn assets<S: Clone + Send + Sync + 'static>(r: Router<S>) -> Router<S> {
    const JS_TYPE: [(header::HeaderName, &str); 1] =
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")];
    r.route("/hall.js", get(|| async { (JS_TYPE, JS) }))
        .route(
            "/announce.js",
            get(|| async { (JS_TYPE, crate::http::ANNOUNCE_JS) }),
        )
        .route(
            "/hall.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], CSS) }),
        )
}

fn common(r: Router<App>) -> Router<App> {
    data_routes!(assets(r))
}

fn not_found(n: u32) -> Response {
    (
        StatusCode::NOT_FOUND,
        format!("no table {n} in this event\n"),
    )
        .into_response()
}

/// A table's view for the public: the game only.
pub(super) fn public_view(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in ["alerts", "journal_lines", "chain_ok", "lacking", "public"] {
            o.remove(k);
        }
    }
    v
}

async fn tables(State(app): State<App>) -> Json<Value> {
    Json(Value::Array(api_views(&app)))
}

/// The `GET /api/tables` objects of the tables this server shows. The
/// desk's lock is taken for one table at a time: a thousand spectators
/// asking at once never hold the broker loop off for a whole list.
fn api_views(app: &App) -> Vec<Value> {
    let shown = app.shown();
    let numbers: Vec<u32> = app
        .hall
        .tables()
        .keys()
        .copied()
        .filter(|n| shown.shows(*n))
        .collect();
    numbers
        .into_iter()
        .filter_map(|n| {
            let v = view::api(app.hall.tables().get(&n)?, &app.hall.event);
            Some(if app.public { public_view(v) } else { v })
        })
        .collect()
}

fn page_views(app: &App) -> Value {
    page_views_shown(app).0
}

/// The page's view, and the tables in it with their boards' keys
/// ([`view::board_key`]).
fn page_views_shown(app: &App) -> (Value, BTreeMap<u32, u64>) {
    let shown = app.shown();
    let t = app.hall.tables();
    let list: Vec<Value> = t
        .values()
        .filter(|t| shown.shows(t.table))
        .map(|t| {
            let mut v = view::page(t, &app.hall.event);
            v["public"] = json!(shown.now.shows(t.table));
            v
        })
        .collect();
    drop(t);
    let numbers: BTreeMap<u32, u64> = list
        .iter()
        .filter_map(|v| {
            Some((
                u32::try_from(v["table"].as_u64()?).ok()?,
                view::board_key(v),
            ))
        })
        .collect();
    let list: Vec<Value> = list
        .into_iter()
        .map(view::finish)
        .map(|v| if app.public { public_view(v) } else { v })
        .collect();
    let alerts: Vec<Value> = if app.public {
        Vec::new()
    } else {
        app.hall
            .alert_list()
            .into_iter()
            .map(|(n, a)| json!({"table": n, "alert": a}))
            .collect()
    };
    (
        json!({"event": app.hall.event, "tables": list, "alerts": alerts,
               "can_command": !app.public && app.hall.can_command()}),
        numbers,
    )
}

async fn views(State(app): State<App>) -> Json<Value> {
    Json(page_views(&app))
}

async fn journal(State(app): State<App>, Path(n): Path<u32>) -> Response {
    let file = match app.hall.tables().get(&n) {
        Some(t) => t.file().to_owned(),
        None => return not_found(n),
    };
    let bytes = tokio::fs::read(&file).await.unwrap_or_default();
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{}-table-{n}.jsonl\"", app.hall.event),
            ),
        ],
        bytes,
    )
        .into_response()
}

/// The ending of a table's record (`pdn`, `pgn`, `mat`: its game's).
fn ending_of(t: &super::store::TableCopy) -> &'static str {
    t.records
        .first()
        .and_then(|r| match &r.event {
            crate::journal::Event::Start(i) => i.variant.parse::<GameKind>().ok(),
            _ => None,
        })
        .map_or("pdn", GameKind::record_ending)
}

/// The game of a table as its record (PDN, PGN, `.mat`: the game's), from the
/// desk's journal copy, with the record's ending.
fn game_text(app: &App, n: u32) -> Result<(String, &'static str), (u16, String)> {
    if !app.shows(n) {
        return Err((404, format!("no table {n} in this event")));
    }
    let (file, ending, round) = match app.hall.tables().get(&n) {
        Some(t) => (
            t.file().to_owned(),
            ending_of(t),
            t.facts.view()["round"].as_str().map(str::to_owned),
        ),
        None => return Err((404, format!("no table {n} in this event"))),
    };
    let names = crate::export::Names {
        round,
        ..crate::export::Names::default()
    };
    crate::export::pdn_from_journal(&file, &names)
        .map(|t| (t, ending))
        .map_err(|e| (409, format!("table {n}: {e:#}")))
}

/// A heavy answer as a response: the text with its type and file name, or why not.
pub(super) fn heavy_response(
    built: super::heavy::Built,
    kind: &'static str,
    name: &str,
) -> Response {
    match built {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, kind.to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("inline; filename=\"{name}\""),
                ),
            ],
            bytes,
        )
            .into_response(),
        Err((status, why)) => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            format!("{why}\n"),
        )
            .into_response(),
    }
}

/// A record (a table's game, a round's games) as a heavy answer: plain text.
pub(super) fn record_response(built: super::heavy::Built, name: &str) -> Response {
    heavy_response(built, "text/plain; charset=utf-8", name)
}

/// `results.csv` as a heavy answer: a file to save.
pub(super) fn results_response(built: super::heavy::Built) -> Response {
    let mut r = heavy_response(built, "text/csv; charset=utf-8", "results.csv");
    r.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        header::HeaderValue::from_static("attachment; filename=\"results.csv\""),
    );
    r
}

/// The round's records: each game's record, a blank line after each.
pub(super) fn round_records(texts: impl IntoIterator<Item = String>) -> String {
    let mut out = String::new();
    for text in texts {
        out.push_str(text.trim_end());
        out.push_str("\n\n");
    }
    out
}

/// What a table's game and the round's records are made of: for each table
/// shown, its game, its lines and its round (`heavy.rs`).
fn record_key(app: &App, only: Option<u32>) -> (super::heavy::KeyOf, Vec<u32>) {
    let shown = app.shown();
    let mut key = super::heavy::KeyOf::default();
    let mut numbers = Vec::new();
    for (n, t) in app.hall.tables().iter() {
        if !shown.shows(*n) || only.is_some_and(|o| o != *n) {
            continue;
        }
        numbers.push(*n);
        let facts = t.facts.view();
        key.part(n.to_le_bytes())
            .part(t.game().unwrap_or_default())
            .part(t.len().to_le_bytes())
            .part(facts["round"].as_str().unwrap_or_default());
    }
    (key, numbers)
}

async fn game(State(app): State<App>, Path(n): Path<u32>) -> Response {
    let (key, numbers) = record_key(&app, Some(n));
    let ending = app.hall.tables().get(&n).map(ending_of);
    let (Some(ending), false) = (ending, numbers.is_empty()) else {
        return not_found(n);
    };
    let hall = app.hall.clone();
    let built = hall
        .heavy
        .get(super::heavy::Route::Game(n), app.public, key, move || {
            // Replaying a journal is work: off the threads that serve and follow the broker.
            game_text(&app, n).map(|(text, _)| text.into())
        })
        .await;
    record_response(built, &format!("table-{n}.{ending}"))
}

async fn round(State(app): State<App>, ending: &'static str) -> Response {
    let (key, numbers) = record_key(&app, None);
    let hall = app.hall.clone();
    let built = hall
        .heavy
        .get(
            super::heavy::Route::Round(ending),
            app.public,
            key,
            move || {
                // Every journal replayed: on a blocking thread, not the server's or the broker's.
                let texts = numbers
                    .into_iter()
                    .filter_map(|n| game_text(&app, n).ok())
                    .filter(|(_, its)| *its == ending)
                    .map(|(text, _)| text);
                Ok(round_records(texts).into())
            },
        )
        .await;
    record_response(built, &format!("round.{ending}"))
}

fn csv_field(v: &Value) -> String {
    let s = match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    // A spreadsheet takes a cell starting with = + - @ (or a tab, a
    // carriage return) as a formula: such text gets a leading quote, and
    // so does each part after a `;` or a `,` (a spreadsheet set to split
    // on `;`, as a Polish one is, makes each part a cell of its own).
    const FORMULA: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];
    let s = if v.is_string() {
        let mut out = String::with_capacity(s.len() + 1);
        let mut at_start = true;
        for c in s.chars() {
            if at_start && FORMULA.contains(&c) {
                out.push('\'');
            }
            // Spaces after a separator still lead the next cell.
            at_start = c == ';' || c == ',' || (at_start && c == ' ');
            out.push(c);
        }
        out
    } else {
        s
    };
    if s.contains([',', ';', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// `results.csv` of these `GET /api/tables` objects.
pub(super) fn results_csv(rows: &[Value]) -> String {
    let mut out = String::from("table,white,black,variant,result,plies\n");
    for v in rows {
        let row: Vec<String> = ["table", "white", "black", "variant", "result", "ply"]
            .iter()
            .map(|k| csv_field(&v[*k]))
            .collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

async fn results(State(app): State<App>) -> Response {
    // What the rows are made of: each table shown, its game and lines (the
    // rows are the facts of the desk's copy, nothing of a table's state).
    let shown = app.shown();
    let mut key = super::heavy::KeyOf::default();
    for (n, t) in app.hall.tables().iter().filter(|(n, _)| shown.shows(**n)) {
        key.part(n.to_le_bytes())
            .part(t.game().unwrap_or_default())
            .part(t.len().to_le_bytes());
    }
    let hall = app.hall.clone();
    // What is public is read before the tables are locked: no lock is held
    // across another's.
    let built = hall
        .heavy
        .get(super::heavy::Route::Results, app.public, key, move || {
            Ok(results_csv(&api_views(&app)).into())
        })
        .await;
    results_response(built)
}

async fn detail(State(app): State<App>, Path(n): Path<u32>) -> Response {
    let (v, events, mismatch, file) = {
        let tables = app.hall.tables();
        let Some(t) = tables.get(&n) else {
            return not_found(n);
        };
        (
            view::page(t, &app.hall.event),
            view::events(t),
            view::last_mismatch(t),
            t.file().to_owned(),
        )
    };
    let diff = match mismatch {
        Some((variant, rec, board)) => {
            app.hall
                .tools
                .run(vec![
                    "diff".into(),
                    rec.into(),
                    board.into(),
                    "--variant".into(),
                    variant.into(),
                    "--lang".into(),
                    "en".into(),
                ])
                .await
        }
        None => String::new(),
    };
    let announcements = app
        .hall
        .tools
        .run(vec![
            "announcements".into(),
            file.into_os_string(),
            "--lang".into(),
            "en".into(),
        ])
        .await;
    let replies: Vec<Value> = app
        .hall
        .replies
        .lock()
        .map(|r| {
            r.iter()
                .filter(|(t, _)| *t == n)
                .map(|(_, r)| json!(r))
                .collect()
        })
        .unwrap_or_default();
    Json(
        json!({"table": view::finish(v), "events": events, "diff": diff, "announcements": announcements,
                "replies": replies, "can_command": app.hall.can_command()}),
    )
    .into_response()
}

/// A request from the page itself (not a form another site posts): the
/// header a cross-site form cannot set.
fn from_page(h: &HeaderMap) -> bool {
    h.get("x-tandem-desk").is_some_and(|v| v == "1")
}

/// The JSON refusal of a desk command not sent by the desk's page.
fn not_from_page() -> Response {
    (
        StatusCode::FORBIDDEN,
        Json(json!({"ok": false, "error": "from the desk's page only"})),
    )
        .into_response()
}

async fn reconcile(
    State(app): State<App>,
    Path(n): Path<u32>,
    h: HeaderMap,
    body: String,
) -> Response {
    if !from_page(&h) {
        return (StatusCode::FORBIDDEN, "from the desk's page only\n").into_response();
    }
    let Some(file) = app.hall.tables().get(&n).map(|t| t.file().to_owned()) else {
        return not_found(n);
    };
    let report = app.hall.tools.reconcile(&file, body.as_bytes()).await;
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        report,
    )
        .into_response()
}

#[derive(Debug, Deserialize)]
struct CommandBody {
    /// A table's number, or null for every table.
    table: Option<u32>,
    cmd: String,
    #[serde(default)]
    arg: String,
}

async fn command(State(app): State<App>, h: HeaderMap, Json(b): Json<CommandBody>) -> Response {
    if !from_page(&h) {
        return not_from_page();
    }
    if b.table.is_none() && b.cmd != "start" {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"ok": false, "error": "only start goes to every table"})),
        )
            .into_response();
    }
    match app.hall.command(b.table, &b.cmd, &b.arg) {
        Ok(c) => Json(json!({"ok": true, "counter": c.counter, "command": c})).into_response(),
        Err(e) => (
            StatusCode::BAD_REQUEST,
            Json(json!({"ok": false, "error": format!("{e:#}")})),
        )
            .into_response(),
    }
}

#[derive(Debug, Deserialize)]
struct PublicBody {
    /// A table's number, or null for every table.
    table: Option<u32>,
    on: bool,
}

/// Shows or hides a table (or every table) on the spectators' server.
async fn publish(State(app): State<App>, h: HeaderMap, Json(b): Json<PublicBody>) -> Response {
    if !from_page(&h) {
        return not_from_page();
    }
    match app.hall.set_public(b.table, b.on) {
        Ok(()) => Json(json!({"ok": true})).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"ok": false, "error": format!("{e:#}")})),
        )
            .into_response(),
    }
}

/// The arbiter has seen a table's broken chain: it shows as intact again
/// (the alerts stay).
async fn acknowledge(State(app): State<App>, Path(n): Path<u32>, h: HeaderMap) -> Response {
    if !from_page(&h) {
        return not_from_page();
    }
    match app.hall.acknowledge(n) {
        Ok(()) => Json(json!({"ok": true})).into_response(),
        Err(e) => (
            StatusCode::NOT_FOUND,
            Json(json!({"ok": false, "error": format!("{e:#}")})),
        )
            .into_response(),
    }
}

async fn stats(State(app): State<App>) -> Json<Value> {
    let lag = app.hall.lag.lock().map(|l| {
        (
            l.recent.iter().copied().collect::<Vec<u64>>(),
            l.lines,
            l.messages,
            l.sse_lagged,
        )
    });
    let (mut v, lines, messages, sse_lagged) = lag.unwrap_or_default();
    v.sort_unstable();
    let pct = |p: f64| -> Value {
        if v.is_empty() {
            return Value::Null;
        }
        let i = ((v.len() as f64 - 1.0) * p).round() as usize;
        json!(v[i.min(v.len() - 1)])
    };
    let (started, most) = app.hall.tools.counts();
    Json(
        json!({"lines": lines, "messages": messages, "tables": app.hall.tables().len(),
                "sse_lagged": sse_lagged, "heavy_builds": app.hall.heavy.made(),
                "arbiters": {"started": started, "most_at_once": most},
                "lag_ms": {"p50": pct(0.5), "p99": pct(0.99), "max": v.last()}}),
    )
}

/// The live stream. Every table event is checked against what is public
/// when it is sent (not when it was queued), also after the subscriber
/// lagged: a spectator never gets a hidden table, and a `hide` only names a
/// table this subscriber was shown.
async fn events(State(app): State<App>) -> impl IntoResponse {
    // A few events per subscriber: a spectator who does not read holds
    // little, lags, and is then sent what is public when it reads again.
    let (tx, rx) = mpsc::channel::<Result<SseEvent, Infallible>>(16);
    let mut sub = app.hall.updates.subscribe();
    tokio::spawn(async move {
        let (snap, mut sent) = page_views_shown(&app);
        let first = SseEvent::default().event("snapshot").data(snap.to_string());
        if tx.send(Ok(first)).await.is_err() {
            return;
        }
        let mut dirty = BTreeSet::new();
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        loop {
            tokio::select! {
                u = sub.recv() => match u {
                    Ok(Update::Table { table }) => { dirty.insert(table); }
                    Ok(Update::Alert { table, alert }) if !app.public => {
                        let e = SseEvent::default().event("alert").data(json!({"table": table, "alert": alert}).to_string());
                        if tx.send(Ok(e)).await.is_err() { return; }
                    }
                    Ok(Update::Reply { table, reply }) if !app.public => {
                        let e = SseEvent::default().event("reply").data(json!({"table": table, "reply": reply}).to_string());
                        if tx.send(Ok(e)).await.is_err() { return; }
                    }
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => {
                        app.hall.lag.lock().map(|mut l| l.sse_lagged += 1).unwrap_or_default();
                        // Everything again, each checked as it goes out.
                        let known: Vec<u32> = app.hall.tables().keys().copied().collect();
                        dirty.extend(known);
                        dirty.extend(sent.keys().copied());
                    }
                    Err(RecvError::Closed) => return,
                },
                _ = tick.tick() => {
                    for n in std::mem::take(&mut dirty) {
                        if !app.shows(n) {
                            // Hidden now: only a table this page showed is taken off it.
                            if sent.remove(&n).is_some() {
                                let e = SseEvent::default().event("hide").data(json!({"table": n}).to_string());
                                if tx.send(Ok(e)).await.is_err() { return; }
                            }
                            continue;
                        }
                        let v = app.hall.tables().get(&n).map(|t| view::page(t, &app.hall.event));
                        let Some(v) = v else { continue };
                        // The board only when it changed since this page got it.
                        let (mut v, board) = view::finish_for(v, sent.get(&n).copied());
                        v["public"] = json!(app.hall.is_public(n));
                        // Hidden while the view was made: not sent.
                        if !app.shows(n) {
                            dirty.insert(n);
                            continue;
                        }
                        let v = if app.public { public_view(v) } else { v };
                        sent.insert(n, board);
                        let e = SseEvent::default().event("table").data(v.to_string());
                        if tx.send(Ok(e)).await.is_err() { return; }
                    }
                }
            }
        }
    });
    Sse::new(tokio_stream::wrappers::ReceiverStream::new(rx)).keep_alive(KeepAlive::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_cannot_become_a_formula_in_any_spreadsheet_cell() {
        let f = |s: &str| csv_field(&Value::String(s.into()));
        assert_eq!(f("Kowalski"), "Kowalski");
        assert_eq!(f("=1+1"), "'=1+1");
        // Split on `;` (a Polish spreadsheet), each part is a cell: guarded, and quoted.
        assert_eq!(f("Nowak;=HYPERLINK(1)"), "\"Nowak;'=HYPERLINK(1)\"");
        assert_eq!(f("a,@b"), "\"a,'@b\"");
        assert_eq!(f("van der Zee; -3"), "\"van der Zee; '-3\"");
        assert_eq!(f(" +1"), " '+1");
        assert_eq!(
            csv_field(&serde_json::json!(-3)),
            "-3",
            "numbers stay numbers"
        );
    }
}
