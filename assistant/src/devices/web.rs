//! The device pages and their API (exact contract, issue 33):
//!
//! - `POST /api/pair` `{"code": "123456"}`: 200 and the session cookie, 403
//!   otherwise (a wrong code answered after a second; after 10, every code
//!   until the operator makes a new one).
//! - With the cookie: `GET /api/state` (the `tandem ctl state` object and
//!   `"seat": SIDE`), `POST /api/move` `{"move": "32-28"}` and `POST
//!   /api/command` `{"command": "clock"}` (the table's typed commands): 200
//!   `{"ok": true, "said": [...]}` or 4xx `{"ok": false, "error": "..."}`;
//!   `GET /events`, server-sent events `said` (what this seat heard) and
//!   `state`.
//! - Without a valid cookie every route but the pairing page and
//!   `/api/pair` answers 401. `Host` must be the table's address, and
//!   `Origin`, when sent, the same.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tandem_rules::Color;
use tandem_speech::Utterance;
use tokio::sync::{broadcast, mpsc};

use super::pairing::{Pairing, Refusal};
use super::serve::Peer;
use super::view::{for_seat, page_words, Page};
use crate::journal::Source;
use crate::session::{Cmd, Notice, SessionHandle};

/// The cookie of a paired device.
pub const COOKIE: &str = "tandem_seat";
/// A request's body at most.
pub const MAX_BODY: usize = 4096;
/// Live streams (`/events`) of one session at once.
pub const STREAMS_PER_SESSION: usize = 4;

const PAIR_PAGE: &str = include_str!("pair.html");
const SEAT_PAGE: &str = include_str!("seat.html");
const SEAT_JS: &str = include_str!("seat.js");
const PAIR_JS: &str = include_str!("pair.js");
const BOARD_PAGE: &str = include_str!("board.html");
const BOARD_JS: &str = include_str!("board.js");
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// What the routes share.
#[derive(Clone)]
pub struct App {
    pairing: Arc<Pairing>,
    session: SessionHandle,
    /// The `Host` values this table answers to.
    hosts: Arc<Vec<String>>,
    streams: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    /// What each side's seat hears (white's, black's), as text.
    feeds: Arc<[broadcast::Sender<String>; 2]>,
    /// Served over TLS (the cookie `Secure`, the Origin `https://`).
    secure: bool,
    /// Any address of this machine at this port is the table's (bound to
    /// every address): a name other than `localhost` never is.
    any_ip_port: Option<u16>,
    /// The page each side's device opens once paired (white's, black's).
    pages: [Page; 2],
    /// Each side's language (white's, black's): its squares' words.
    langs: Arc<[String; 2]>,
}

/// A device seat's speech: the sender the session speaks to (as to any
/// seat's output), and the feed its devices' streams read.
#[must_use]
pub fn seat_feed() -> (mpsc::UnboundedSender<Utterance>, broadcast::Sender<String>) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Utterance>();
    let (feed, _) = broadcast::channel(256);
    let out = feed.clone();
    tokio::spawn(async move {
        while let Some(u) = rx.recv().await {
            // Nobody paired: nobody to tell.
            let _ = out.send(u.text());
        }
    });
    (tx, feed)
}

impl App {
    /// The routes for `session`, answering at `hosts` (`127.0.0.1:PORT`).
    #[must_use]
    pub fn new(
        pairing: Arc<Pairing>,
        session: SessionHandle,
        hosts: Vec<String>,
        feeds: [broadcast::Sender<String>; 2],
    ) -> App {
        App {
            pairing,
            session,
            hosts: Arc::new(hosts),
            streams: Arc::default(),
            feeds: Arc::new(feeds),
            secure: false,
            any_ip_port: None,
            pages: [Page::Blind; 2],
            langs: Arc::new(["en".to_owned(), "en".to_owned()]),
        }
    }

    /// Each side's language (white's, black's): the seat's `lang`, else
    /// the table's.
    #[must_use]
    pub fn langs(mut self, langs: [String; 2]) -> App {
        self.langs = Arc::new(langs);
        self
    }

    fn lang(&self, side: Color) -> &str {
        &self.langs[usize::from(side == Color::Black)]
    }

    /// The page each side's device opens once paired (white's, black's):
    /// the screen reader's for a blind seat, the drawn board for a sighted
    /// one (`--blind`); either page links to the other.
    #[must_use]
    pub fn pages(mut self, pages: [Page; 2]) -> App {
        self.pages = pages;
        self
    }

    /// Served over TLS.
    #[must_use]
    pub fn secure(mut self, secure: bool) -> App {
        self.secure = secure;
        self
    }

    /// Bound to every address of the machine at `port`: a request to any of
    /// its IP addresses at that port is the table's (a phone knows the
    /// table by its address on the table's network).
    #[must_use]
    pub fn any_address(mut self, port: u16) -> App {
        self.any_ip_port = Some(port);
        self
    }

    fn is_host(&self, host: &str) -> bool {
        if self.hosts.iter().any(|h| h == host) {
            return true;
        }
        // An IP literal (never a name: a rebound name carries its own) at our port.
        self.any_ip_port.is_some_and(|port| {
            host.parse::<std::net::SocketAddr>()
                .is_ok_and(|a| a.port() == port)
        })
    }
}

/// The router: pages, API, checks.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(|| async { page(PAIR_PAGE) }))
        .route("/seat", get(seat_page))
        .route("/seat.js", get(script))
        .route("/board", get(board_page))
        .route("/board.js", get(board_script))
        .route("/pair.js", get(|| async { js(PAIR_JS) }))
        .route("/api/pair", post(pair))
        .route("/api/state", get(state))
        .route("/api/move", post(play))
        .route("/api/command", post(command))
        .route("/events", get(events))
        .layer(axum::middleware::from_fn_with_state(app.clone(), checked))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

fn page(html: &'static str) -> Response {
    let mut r = Html(html).into_response();
    headers(r.headers_mut());
    r
}

fn headers(h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

fn refused(status: StatusCode, why: &str) -> Response {
    (status, Json(json!({"ok": false, "error": why}))).into_response()
}

/// `Host` the table's own, `Origin` (if sent) the same site: a page on
/// another site, or a name rebound to the table's address, gets nothing.
async fn checked(State(app): State<App>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !app.is_host(host) {
        return refused(StatusCode::FORBIDDEN, "not this table's address");
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let scheme = if app.secure { "https" } else { "http" };
        let want = format!("{scheme}://{host}");
        if origin.to_str().ok() != Some(want.as_str()) {
            return refused(StatusCode::FORBIDDEN, "a request from another site");
        }
    }
    next.run(req).await
}

/// The paired side of a request's cookie.
fn seat(app: &App, h: &HeaderMap) -> Option<(Color, String)> {
    let cookies = h.get(header::COOKIE)?.to_str().ok()?;
    cookies.split(';').find_map(|c| {
        let (k, v) = c.trim().split_once('=')?;
        (k == COOKIE)
            .then(|| app.pairing.seat_of(v).map(|s| (s, v.to_owned())))
            .flatten()
    })
}

fn unpaired() -> Response {
    refused(
        StatusCode::UNAUTHORIZED,
        "this device is not paired: enter the table's code",
    )
}

async fn seat_page(State(app): State<App>, h: HeaderMap) -> Response {
    match seat(&app, &h) {
        Some(_) => page(SEAT_PAGE),
        None => unpaired(),
    }
}

async fn board_page(State(app): State<App>, h: HeaderMap) -> Response {
    match seat(&app, &h) {
        Some(_) => page(BOARD_PAGE),
        None => unpaired(),
    }
}

async fn board_script(State(app): State<App>, h: HeaderMap) -> Response {
    if seat(&app, &h).is_none() {
        return unpaired();
    }
    js(BOARD_JS)
}

async fn script(State(app): State<App>, h: HeaderMap) -> Response {
    if seat(&app, &h).is_none() {
        return unpaired();
    }
    js(SEAT_JS)
}

fn js(text: &'static str) -> Response {
    let mut r = (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        text,
    )
        .into_response();
    headers(r.headers_mut());
    r
}

#[derive(Deserialize)]
struct PairBody {
    code: String,
}

async fn pair(
    State(app): State<App>,
    peer: Option<axum::Extension<Peer>>,
    body: axum::body::Bytes,
) -> Response {
    let Ok(b) = serde_json::from_slice::<PairBody>(&body) else {
        return refused(StatusCode::BAD_REQUEST, "expected {\"code\": \"123456\"}");
    };
    match app.pairing.redeem(&b.code) {
        Ok((side, token)) => {
            // Journaled, said to the seat and shown (issue 45): who paired, from where.
            let at = peer.map_or_else(|| "unknown".to_owned(), |p| p.0 .0.to_string());
            app.pairing.paired_from(&token, at);
            let secure = if app.secure { "; Secure" } else { "" };
            let cookie = format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/{secure}");
            let page = app.pages[usize::from(side == Color::Black)].path();
            let mut r = Json(json!({"ok": true, "seat": side, "page": page})).into_response();
            if let Ok(v) = HeaderValue::from_str(&cookie) {
                r.headers_mut().insert(header::SET_COOKIE, v);
            }
            r
        }
        Err(why) => {
            // A wrong code waits a second (guessing is slow), without a lock held.
            tokio::time::sleep(Duration::from_secs(1)).await;
            let text = match why {
                Refusal::Wrong => "wrong or expired code",
                Refusal::Locked => "too many wrong codes: ask the table for a new one",
            };
            refused(StatusCode::FORBIDDEN, text)
        }
    }
}

async fn state(State(app): State<App>, h: HeaderMap) -> Response {
    let Some((side, _)) = seat(&app, &h) else {
        return unpaired();
    };
    match app
        .session
        .request_as(Cmd::State, Source::Device, Some(side))
        .await
    {
        Ok(r) => match r.state {
            Some(st) => {
                // The page's own words, once: with the state it fetches first.
                let mut v = for_seat(&st, side, app.lang(side));
                v["ui"] = json!(page_words(app.lang(side)));
                Json(v).into_response()
            }
            None => refused(StatusCode::SERVICE_UNAVAILABLE, "no state"),
        },
        Err(e) => refused(StatusCode::SERVICE_UNAVAILABLE, &e.to_string()),
    }
}

/// A request as the device's seat: 200 with what the seat heard, or 409
/// with why not (refused aloud to that seat too).
async fn as_seat(app: &App, side: Color, cmd: Cmd) -> Response {
    match app
        .session
        .request_as(cmd, Source::Device, Some(side))
        .await
    {
        Ok(r) if r.ok => Json(json!({"ok": true, "said": r.said})).into_response(),
        Ok(r) => (
            StatusCode::CONFLICT,
            Json(json!({"ok": false, "error": r.error, "said": r.said})),
        )
            .into_response(),
        Err(e) => refused(StatusCode::SERVICE_UNAVAILABLE, &e.to_string()),
    }
}

#[derive(Deserialize)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

async fn play(State(app): State<App>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    let Some((side, _)) = seat(&app, &h) else {
        return unpaired();
    };
    let Ok(b) = serde_json::from_slice::<MoveBody>(&body) else {
        return refused(StatusCode::BAD_REQUEST, "expected {\"move\": \"32-28\"}");
    };
    as_seat(&app, side, Cmd::Move(b.mv)).await
}

#[derive(Deserialize)]
struct CommandBody {
    command: String,
}

async fn command(State(app): State<App>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    let Some((side, _)) = seat(&app, &h) else {
        return unpaired();
    };
    let Ok(b) = serde_json::from_slice::<CommandBody>(&body) else {
        return refused(StatusCode::BAD_REQUEST, "expected {\"command\": \"clock\"}");
    };
    let cmd = Cmd::parse_line(&b.command);
    // The arbiter's actions are the arbiter's, never a device's.
    if cmd.is_arbiters() {
        return refused(StatusCode::FORBIDDEN, "an arbiter's action");
    }
    as_seat(&app, side, cmd).await
}

/// Server-sent events: `said` (what this seat heard, as the journal's
/// `to` says) and `state`, from now on.
async fn events(State(app): State<App>, h: HeaderMap) -> Response {
    let Some((side, token)) = seat(&app, &h) else {
        return unpaired();
    };
    {
        let mut s = app
            .streams
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = s.entry(token.clone()).or_default();
        if *n >= STREAMS_PER_SESSION {
            return refused(
                StatusCode::TOO_MANY_REQUESTS,
                "too many live streams for this device",
            );
        }
        *n += 1;
    }
    let mut notices = app.session.subscribe();
    let mut heard = app.feeds[usize::from(side == Color::Black)].subscribe();
    let (tx, rx) = mpsc::channel::<Result<SseEvent, Infallible>>(64);
    let streams = app.streams.clone();
    let lang = app.lang(side).to_owned();
    let pairing = app.pairing.clone();
    tokio::spawn(async move {
        // Unpaired (`unpair SIDE`): its stream ends with its seat.
        let paired = || pairing.seat_of(&token) == Some(side);
        loop {
            let notice = tokio::select! {
                said = heard.recv() => match said {
                    // What this seat heard (its own answers, every move).
                    Ok(_) if !paired() => break,
                    Ok(text) => {
                        if tx.try_send(Ok(SseEvent::default().event("said").data(text))).is_err() {
                            break;
                        }
                        continue;
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => break,
                },
                n = notices.recv() => n,
            };
            let ev = match notice {
                Ok(Notice::State(st)) => SseEvent::default()
                    .event("state")
                    .data(for_seat(&st, side, &lang).to_string()),
                Ok(_) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(_) => break,
            };
            // A device that does not read is dropped, never waited for.
            if !paired() || tx.try_send(Ok(ev)).is_err() {
                break;
            }
        }
        let mut s = streams
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = s.get_mut(&token) {
            *n = n.saturating_sub(1);
        }
    });
    Sse::new(tokio_stream::wrappers::ReceiverStream::new(rx))
        .keep_alive(KeepAlive::default())
        .into_response()
}
