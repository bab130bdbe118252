//! The arbiter's login on the desk: the secret (at least [`MIN_SECRET`]
//! characters, compared in constant time), the sessions it opens (each
//! ends after a time without a request, or at `POST /logout`; an open live
//! stream ends with its session), and one limit on wrong secrets for the
//! whole desk, whatever address they come from, whose wait doubles with
//! every wrong secret.
//!
//! A wrong secret is answered at once and every try during the wait after
//! it is refused unread (`429`, `Retry-After`): the wait holds no
//! connection. The wait is the desk's, not an address's: a thousand
//! addresses guessing at once get one guess looked at per wait, as one
//! address does.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, BodyDataStream, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::serve::{refuse, Peer};

/// The session cookie's name.
pub const COOKIE: &str = "tandem_desk_session";

/// The shortest secret the login takes (characters, once trimmed).
pub const MIN_SECRET: usize = 16;

/// The wait after the first wrong secret (`TANDEM_HALL_LOGIN_WAIT_MS`); it
/// doubles with each wrong secret after it.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(1);

/// The longest wait after a wrong secret (or the first wait, if longer).
const WAIT_CAP: Duration = Duration::from_secs(60);

/// Wrong secrets are forgotten after this long without one.
const FORGET: Duration = Duration::from_secs(15 * 60);

/// Sessions kept at once (the oldest is logged out).
const MAX_SESSIONS: usize = 32;

/// How often an open live stream checks that its session still holds.
const STREAM_CHECK: Duration = Duration::from_secs(1);

const LOGIN: &str = include_str!("assets/login.html");

/// How the desk's login is set up.
#[derive(Debug, Clone)]
pub struct Setup {
    /// A session ends after this long without a request.
    pub idle: Duration,
    /// The wait after the first wrong secret.
    pub wait: Duration,
    /// The server speaks TLS: the cookie is `Secure`.
    pub secure: bool,
    /// The SHA-256 fingerprint of the server's certificate, shown on the pages.
    pub fingerprint: Option<String>,
}

/// The arbiter's login: the secret, the sessions it opened, the wrong secrets.
pub struct Login {
    digest: [u8; 32],
    setup: Setup,
    /// The login page, with the certificate's fingerprint.
    page: String,
    sessions: Mutex<VecDeque<Session>>,
    throttle: Mutex<Throttle>,
}

/// A session: the SHA-256 of its token (the token itself is kept only by
/// the browser) and when it was last used.
struct Session {
    digest: [u8; 32],
    last: Instant,
}

/// The desk's one limit on wrong secrets.
#[derive(Debug)]
pub struct Throttle {
    first: Duration,
    wrong: u32,
    last_wrong: Option<Instant>,
    until: Option<Instant>,
}

impl Throttle {
    /// No wrong secret yet; the first costs `first`.
    #[must_use]
    pub fn new(first: Duration) -> Throttle {
        Throttle {
            first,
            wrong: 0,
            last_wrong: None,
            until: None,
        }
    }

    /// The time left before a secret is looked at again (`None`: now).
    #[must_use]
    pub fn locked(&self, now: Instant) -> Option<Duration> {
        self.until
            .map(|u| u.saturating_duration_since(now))
            .filter(|d| !d.is_zero())
    }

    /// Counts a wrong secret given at `now`; the wait it sets: the first
    /// wait, doubled for each wrong secret before it (since the last
    /// quarter of an hour without one), at most a minute.
    pub fn wrong(&mut self, now: Instant) -> Duration {
        if self
            .last_wrong
            .is_some_and(|l| now.saturating_duration_since(l) >= FORGET)
        {
            self.wrong = 0;
        }
        self.wrong = self.wrong.saturating_add(1);
        self.last_wrong = Some(now);
        let wait = self
            .first
            .saturating_mul(1 << (self.wrong - 1).min(16))
            .min(WAIT_CAP.max(self.first));
        self.until = Some(now + wait);
        wait
    }
}

fn digest(s: &str) -> [u8; 32] {
    Sha256::digest(s.as_bytes()).into()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Login {
    /// The login for `secret` (trimmed).
    #[must_use]
    pub fn new(secret: &str, setup: Setup) -> Login {
        let page = LOGIN.replace("<!--certificate-->", &certificate_html(&setup));
        Login {
            digest: digest(secret.trim()),
            throttle: Mutex::new(Throttle::new(setup.wait)),
            setup,
            page,
            sessions: Mutex::new(VecDeque::new()),
        }
    }

    /// The part of the desk's pages about the session: the certificate's
    /// fingerprint and the logout button.
    #[must_use]
    pub fn bar(&self) -> String {
        format!(
            "<footer class=\"session\">{}<form method=\"post\" action=\"/logout\">\
             <button type=\"submit\">Log out</button></form></footer>",
            certificate_html(&self.setup)
        )
    }

    /// Whether `h` carries a session that holds; using it keeps it.
    #[must_use]
    pub fn logged_in(&self, h: &HeaderMap) -> bool {
        cookie(h, COOKIE).is_some_and(|t| self.holds(&digest(t), true))
    }

    /// Whether the session `d` holds now (ended ones are dropped); `touch`
    /// counts this as its use.
    fn holds(&self, d: &[u8; 32], touch: bool) -> bool {
        let now = Instant::now();
        let idle = self.setup.idle;
        let mut sessions = lock(&self.sessions);
        sessions.retain(|s| now.saturating_duration_since(s.last) < idle);
        // Every session compared, each in constant time.
        let mut found = None;
        for (i, s) in sessions.iter().enumerate() {
            if bool::from(s.digest.ct_eq(d)) {
                found = Some(i);
            }
        }
        match found {
            Some(i) => {
                if touch {
                    sessions[i].last = now;
                }
                true
            }
            None => false,
        }
    }

    fn cookie_header(&self, value: &str, end: bool) -> Option<HeaderValue> {
        let secure = if self.setup.secure { "; Secure" } else { "" };
        let end = if end { "; Max-Age=0" } else { "" };
        HeaderValue::from_str(&format!(
            "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict{secure}{end}"
        ))
        .ok()
    }
}

fn certificate_html(setup: &Setup) -> String {
    setup.fingerprint.as_ref().map_or_else(String::new, |fp| {
        format!(
            "<p class=\"certificate\">This desk's certificate, SHA-256: <code>{fp}</code>. \
             Before you give the secret, check that your browser shows the same (the \
             certificate's details) and that it is the one the desk printed when it started.</p>"
        )
    })
}

fn cookie<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// `GET /login`.
pub async fn page(State(l): State<Arc<Login>>) -> Html<String> {
    Html(l.page.clone())
}

#[derive(Deserialize)]
pub struct LoginForm {
    secret: String,
}

/// What became of a secret given.
enum Tried {
    /// The right one.
    Right,
    /// Not looked at: the desk waits this long after a wrong one.
    Waiting(Duration),
    /// Wrong: the next is looked at after this wait.
    Wrong(Duration),
}

/// `POST /login`: the secret, looked at unless the desk waits after a wrong one.
pub async fn login(
    State(l): State<Arc<Login>>,
    peer: Option<axum::Extension<Peer>>,
    Form(f): Form<LoginForm>,
) -> Response {
    let given = digest(f.secret.trim());
    let now = Instant::now();
    let tried = {
        // Looked at, and counted when wrong, under one lock: of many tries
        // at once, one is looked at per wait.
        let mut t = lock(&l.throttle);
        if let Some(left) = t.locked(now) {
            Tried::Waiting(left)
        } else if bool::from(given.ct_eq(&l.digest)) {
            Tried::Right
        } else {
            Tried::Wrong(t.wrong(now))
        }
    };
    match tried {
        Tried::Waiting(left) => {
            return wait_answer(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many wrong secrets: the desk takes no login for now.",
                left,
            )
        }
        Tried::Wrong(wait) => {
            let from = peer.map_or_else(|| "?".to_owned(), |p| p.0 .0.to_string());
            tracing::warn!("hall: a wrong arbiter's secret from {from}: no login for {wait:?}");
            return wait_answer(
                StatusCode::UNAUTHORIZED,
                "That is not the arbiter's secret.",
                wait,
            );
        }
        Tried::Right => {}
    }
    let token = match new_token() {
        Ok(t) => t,
        Err(e) => {
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("no randomness: {e}"),
            )
        }
    };
    {
        let mut s = lock(&l.sessions);
        s.push_back(Session {
            digest: digest(&token),
            last: now,
        });
        while s.len() > MAX_SESSIONS {
            s.pop_front();
        }
    }
    let mut r = Redirect::to("/").into_response();
    if let Some(v) = l.cookie_header(&token, false) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// `POST /logout`: the session ends (its live stream too); the browser
/// forgets the cookie.
pub async fn logout(State(l): State<Arc<Login>>, h: HeaderMap) -> Response {
    if let Some(t) = cookie(&h, COOKIE) {
        let d = digest(t);
        lock(&l.sessions).retain(|s| !bool::from(s.digest.ct_eq(&d)));
    }
    let mut r = Redirect::to("/login").into_response();
    if let Some(v) = l.cookie_header("", true) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

impl Login {
    /// `r` (the live stream's answer to `h`) ending once the session of
    /// `h` ends: logged out, or unused for the idle time.
    #[must_use]
    pub fn until_logout(self: &Arc<Self>, h: &HeaderMap, r: Response) -> Response {
        let Some(session) = cookie(h, COOKIE).map(digest) else {
            return r;
        };
        let (parts, body) = r.into_parts();
        let start = tokio::time::Instant::now() + STREAM_CHECK;
        let mut check = tokio::time::interval_at(start, STREAM_CHECK);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let stream = UntilLogout {
            inner: body.into_data_stream(),
            login: self.clone(),
            session,
            check,
        };
        Response::from_parts(parts, Body::from_stream(stream))
    }
}

/// A body that ends when its session does.
struct UntilLogout {
    inner: BodyDataStream,
    login: Arc<Login>,
    session: [u8; 32],
    check: tokio::time::Interval,
}

impl tokio_stream::Stream for UntilLogout {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        while self.check.poll_tick(cx).is_ready() {
            if !self.login.holds(&self.session, false) {
                return Poll::Ready(None);
            }
        }
        Pin::new(&mut self.inner).poll_next(cx)
    }
}

/// 32 random bytes from the kernel, in hex.
fn new_token() -> std::io::Result<String> {
    let b = crate::random::bytes(32)?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// A `429` or `401` with the seconds to wait.
fn wait_answer(status: StatusCode, text: &str, wait: Duration) -> Response {
    let mut r = (
        status,
        Html(format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not logged in</title></head>\
             <body><main><h1 role=\"alert\">{text}</h1><p>Wait {} seconds, then <a href=\"/login\">try again</a>.</p></main></body></html>",
            secs(wait)
        )),
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&secs(wait).to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

/// Whole seconds, rounded up.
fn secs(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(idle: Duration) -> Setup {
        Setup {
            idle,
            wait: DEFAULT_WAIT,
            secure: true,
            fingerprint: Some("AB:CD".into()),
        }
    }

    #[test]
    fn each_wrong_secret_doubles_the_wait_up_to_a_minute_and_quiet_forgets_them() {
        let t0 = Instant::now();
        let mut t = Throttle::new(Duration::from_secs(1));
        assert_eq!(t.locked(t0), None);
        let waits: Vec<u64> = (0..9)
            .map(|i| t.wrong(t0 + Duration::from_secs(100 * i)).as_secs())
            .collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        let last = t0 + Duration::from_secs(800);
        assert_eq!(t.locked(last), Some(Duration::from_secs(60)));
        assert_eq!(
            t.locked(last + Duration::from_secs(59)),
            Some(Duration::from_secs(1))
        );
        assert_eq!(t.locked(last + Duration::from_secs(60)), None);
        // A quarter of an hour without a wrong secret: back to the first wait.
        assert_eq!(t.wrong(last + FORGET).as_secs(), 1);
    }

    #[test]
    fn a_session_ends_when_unused_for_the_idle_time_or_logged_out() {
        let l = Login::new(" a-secret-of-sixteen ", setup(Duration::from_secs(60)));
        assert!(bool::from(digest("a-secret-of-sixteen").ct_eq(&l.digest)));
        let (fresh, stale) = (digest("fresh"), digest("stale"));
        let now = Instant::now();
        lock(&l.sessions).extend([
            Session {
                digest: fresh,
                last: now,
            },
            Session {
                digest: stale,
                last: now.checked_sub(Duration::from_secs(61)).unwrap_or(now),
            },
        ]);
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("tandem_desk_session=fresh"),
        );
        assert!(l.logged_in(&h));
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("tandem_desk_session=stale"),
        );
        assert!(!l.logged_in(&h), "unused for longer than the idle time");
        assert_eq!(lock(&l.sessions).len(), 1, "and forgotten");
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("tandem_desk_session=other"),
        );
        assert!(!l.logged_in(&h));
        // Secure over TLS; ended by Max-Age=0 at logout.
        let set = l.cookie_header("x", false).unwrap();
        assert_eq!(
            set.to_str().unwrap(),
            "tandem_desk_session=x; Path=/; HttpOnly; SameSite=Strict; Secure"
        );
        assert!(l
            .cookie_header("", true)
            .unwrap()
            .to_str()
            .unwrap()
            .ends_with("; Max-Age=0"));
        assert!(l.page.contains("AB:CD") && l.bar().contains("/logout"));
    }
}
