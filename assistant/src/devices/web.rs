//! The device pages and their API (exact contract, issue 33):
//!
//! - `POST /api/pair` `{"code": "123456"}`: 200 and the session cookie, 403
//!   otherwise (a wrong code answered after a second; after 10 from one
//!   peer, every code from that peer until the operator makes a new one),
//!   503 when the code found no turn to be checked in time (try again: it
//!   was not counted; `devices::pairing`).
//! - With the cookie: `GET /api/state` (the `tandem ctl state` object and
//!   `"seat": SIDE`), `POST /api/move` `{"move": "32-28"}` and `POST
//!   /api/command` `{"command": "clock"}` (the table's typed commands): 200
//!   `{"ok": true, "said": [...]}` or 4xx `{"ok": false, "error": "..."}`;
//!   `GET /events`, server-sent events `said` (what this seat heard) and
//!   `state`.
//! - Without a valid cookie every route but the pairing page and
//!   `/api/pair` answers 401. `Host` must be the table's address, and
//!   `Origin`, when sent, the same (`crate::http::guard`); on a connection
//!   kept for paired devices (the server full) only a paired device's
//!   requests are served.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Extension, Request, State};
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
use super::view::{for_seat, page_words, Page};
use crate::http::guard::{Addresses, Denied, Policy, Site};
use crate::http::serve::{reserved_for, Remote};
use crate::http::ANNOUNCE_JS;
use crate::journal::Source;
use crate::session::{Cmd, Notice, SessionHandle};

/// The cookie of a paired device.
pub const COOKIE: &str = "tandem_seat";
/// A request's body at most.
pub const MAX_BODY: usize = 4096;
/// Live streams (`/events`) of one session at once.
pub const STREAMS_PER_SESSION: usize = 4;
/// A live stream's comment when nothing else is sent: a client gone is
/// noticed by the next write at the latest.
const KEEP_ALIVE: Duration = Duration::from_secs(5);

const PAIR_PAGE: &str = include_str!("pair.html");
const SEAT_PAGE: &str = include_str!("seat.html");
const SEAT_JS: &str = include_str!("seat.js");
const PAIR_JS: &str = include_str!("pair.js");
const BOARD_PAGE: &str = include_str!("board.html");
const BOARD_JS: &str = include_str!("board.js");
const STREAM_JS: &str = include_str!("stream.js");
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/// The headers of every answer: nothing from elsewhere, no referrer, no cache.
const POLICY: Policy = Policy {
    csp: CSP,
    referrer: "no-referrer",
    no_store: true,
};
/// What the connections kept for paired devices tell any other request.
const FULL: &str = "the table's server is full: only paired devices get in now";

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

    /// Who the pages answer: the table's own addresses (any IP address at
    /// its port when bound to every address), an `Origin` of its scheme.
    fn site(&self) -> Site {
        let addresses = self
            .any_ip_port
            .map_or(Addresses::Listed, Addresses::AtPort);
        let scheme = if self.secure { "https" } else { "http" };
        Site::new(self.hosts.to_vec(), addresses, Some(scheme), POLICY)
    }
}

/// The router: pages, API, checks.
pub fn router(app: App) -> Router {
    let site = Arc::new(app.site());
    let paired = app.clone();
    let r = Router::new()
        .route("/", get(|| async { page(PAIR_PAGE) }))
        .route("/seat", get(seat_page))
        .route("/seat.js", get(script))
        .route("/board", get(board_page))
        .route("/board.js", get(board_script))
        .route("/stream.js", get(stream_script))
        .route("/pair.js", get(|| async { js(PAIR_JS) }))
        .route("/announce.js", get(|| async { js(ANNOUNCE_JS) }))
        .route("/api/pair", post(pair))
        .route("/api/state", get(state))
        .route("/api/move", post(play))
        .route("/api/command", post(command))
        .route("/events", get(events))
        .layer(axum::middleware::from_fn_with_state(site, checked))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app);
    reserved_for(
        r,
        Arc::new(move |h: &HeaderMap| seat(&paired, h).is_some()),
        FULL,
    )
}

fn page(html: &'static str) -> Response {
    Html(html).into_response()
}

fn refused(status: StatusCode, why: &str) -> Response {
    (status, Json(json!({"ok": false, "error": why}))).into_response()
}

/// `Host` the table's own, `Origin` (if sent) the same site: a page on
/// another site, or a name rebound to the table's address, gets nothing;
/// every answer with the security headers.
async fn checked(State(site): State<Arc<Site>>, req: Request, next: Next) -> Response {
    let mut r = match site.check(req.headers()) {
        Ok(()) => next.run(req).await,
        Err(Denied::Host) => refused(StatusCode::FORBIDDEN, "not this table's address"),
        Err(Denied::Origin) => refused(StatusCode::FORBIDDEN, "a request from another site"),
    };
    site.headers(r.headers_mut());
    r
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
    paired_js(&app, &h, BOARD_JS)
}

async fn stream_script(State(app): State<App>, h: HeaderMap) -> Response {
    paired_js(&app, &h, STREAM_JS)
}

async fn script(State(app): State<App>, h: HeaderMap) -> Response {
    paired_js(&app, &h, SEAT_JS)
}

/// A page's script, to a paired device only.
fn paired_js(app: &App, h: &HeaderMap, text: &'static str) -> Response {
    match seat(app, h) {
        Some(_) => js(text),
        None => unpaired(),
    }
}

fn js(text: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        text,
    )
        .into_response()
}

#[derive(Deserialize)]
struct PairBody {
    code: String,
}

async fn pair(
    State(app): State<App>,
    remote: Option<Extension<Remote>>,
    body: axum::body::Bytes,
) -> Response {
    let Ok(b) = serde_json::from_slice::<PairBody>(&body) else {
        return refused(StatusCode::BAD_REQUEST, "expected {\"code\": \"123456\"}");
    };
    let remote = remote.map(|Extension(Remote(a))| a);
    let from = remote.map_or(std::net::Ipv4Addr::LOCALHOST.into(), |a| a.ip());
    match app.pairing.redeem_from(from, &b.code).await {
        Ok((side, token)) => {
            // Journaled, said to the seat and shown (issue 45): who paired, from where.
            let at = remote.map_or_else(|| "unknown".to_owned(), |a| a.to_string());
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
        Err(Refusal::Busy) => refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "the table is checking other codes: send yours again",
        ),
        Err(why) => {
            // A wrong code waits a second (guessing is slow), without a lock held.
            tokio::time::sleep(Duration::from_secs(1)).await;
            let text = match why {
                Refusal::Locked => "too many wrong codes: ask the table for a new one",
                _ => "wrong or expired code",
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

/// A paired seat's request and its JSON body: the seat's side and the body,
/// or the answer refusing it (no pairing; a body not like `expected`).
fn seated<T: serde::de::DeserializeOwned>(
    app: &App,
    h: &HeaderMap,
    body: &[u8],
    expected: &str,
) -> Result<(Color, T), Box<Response>> {
    let Some((side, _)) = seat(app, h) else {
        return Err(Box::new(unpaired()));
    };
    let b = serde_json::from_slice::<T>(body).map_err(|_| {
        Box::new(refused(
            StatusCode::BAD_REQUEST,
            &format!("expected {expected}"),
        ))
    })?;
    Ok((side, b))
}
#[derive(Deserialize)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

async fn play(State(app): State<App>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    let (side, b) = match seated::<MoveBody>(&app, &h, &body, "{\"move\": \"32-28\"}") {
        Ok(sb) => sb,
        Err(r) => return *r,
    };
    as_seat(&app, side, Cmd::Move(b.mv)).await
}

#[derive(Deserialize)]
struct CommandBody {
    command: String,
}

async fn command(State(app): State<App>, h: HeaderMap, body: axum::body::Bytes) -> Response {
    let (side, b) = match seated::<CommandBody>(&app, &h, &body, "{\"command\": \"clock\"}") {
        Ok(sb) => sb,
        Err(r) => return *r,
    };
    let cmd = Cmd::parse_line(&b.command);
    // The arbiter's actions are the arbiter's, never a device's.
    if cmd.is_arbiters() {
        return refused(StatusCode::FORBIDDEN, "an arbiter's action");
    }
    as_seat(&app, side, cmd).await
}

/// A live stream's slot among its session's [`STREAMS_PER_SESSION`]: given
/// back when the stream ends, whichever side ends it.
struct Slot {
    streams: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    token: String,
}

impl Slot {
    fn take(app: &App, token: &str) -> Option<Slot> {
        let mut s = app
            .streams
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = s.entry(token.to_owned()).or_default();
        if *n >= STREAMS_PER_SESSION {
            return None;
        }
        *n += 1;
        Some(Slot {
            streams: app.streams.clone(),
            token: token.to_owned(),
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut s = self
            .streams
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = s.get_mut(&self.token) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                s.remove(&self.token);
            }
        }
    }
}

/// Server-sent events: `said` (what this seat heard, as the journal's
/// `to` says) and `state`, from now on. The stream's slot is given back as
/// soon as its client goes (its connection closed), events or none.
async fn events(State(app): State<App>, h: HeaderMap) -> Response {
    let Some((side, token)) = seat(&app, &h) else {
        return unpaired();
    };
    let Some(slot) = Slot::take(&app, &token) else {
        return refused(
            StatusCode::TOO_MANY_REQUESTS,
            "too many live streams for this device",
        );
    };
    let mut notices = app.session.subscribe();
    let mut heard = app.feeds[usize::from(side == Color::Black)].subscribe();
    let (tx, rx) = mpsc::channel::<Result<SseEvent, Infallible>>(64);
    let lang = app.lang(side).to_owned();
    let pairing = app.pairing.clone();
    tokio::spawn(async move {
        let _slot = slot;
        loop {
            let notice = tokio::select! {
                // The client went: its stream was dropped with its connection.
                () = tx.closed() => break,
                said = heard.recv() => match said {
                    // What this seat heard (its own answers, every move).
                    Ok(text) => {
                        // Unpaired: the device hears nothing more.
                        if pairing.seat_of(&token) != Some(side)
                            || tx.try_send(Ok(SseEvent::default().event("said").data(text))).is_err()
                        {
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
            // Unpaired, or a device that does not read (dropped, never waited for).
            if pairing.seat_of(&token) != Some(side) || tx.try_send(Ok(ev)).is_err() {
                break;
            }
        }
    });
    Sse::new(tokio_stream::wrappers::ReceiverStream::new(rx))
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}
