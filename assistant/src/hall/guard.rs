//! Who may use the desk's servers: the Host and Origin of every request
//! checked (a page on another site, or a name rebound to the hall's address,
//! gets nothing), the headers that keep the pages out of other sites' frames
//! and scripts, and the arbiter's login on a desk reachable beyond loopback.
//!
//! On a loopback `--listen` (and without `--login`) the desk works as it
//! always did for the arbiter's own machine: no login; the page's requests
//! and `POST /api/...` with the header `x-tandem-desk: 1`. Beyond loopback
//! every desk route but the login page needs the session cookie that the
//! login sets once the arbiter's secret was given.

use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Form, Router};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::serve::{refuse, Arbiter, Peer};

/// The Content-Security-Policy of every page: its own scripts and styles only, in no frame.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The session cookie's name.
pub const COOKIE: &str = "tandem_desk_session";

/// Sessions kept at once (the oldest is logged out).
const MAX_SESSIONS: usize = 32;

/// After a wrong secret, the time before its address may try again (the
/// answer comes at once: the wait holds no connection).
const WRONG_WAIT: Duration = Duration::from_secs(1);

/// Addresses remembered for [`WRONG_WAIT`] at most (older ones are forgotten first).
const WRONG_KEPT: usize = 4096;

const LOGIN: &str = include_str!("assets/login.html");

/// What a server lets in.
#[derive(Clone)]
pub struct Guard {
    /// Host names besides IP addresses and `localhost` (`--allow-host`).
    hosts: Arc<Vec<String>>,
    /// The login, where one is needed.
    login: Option<Arc<Login>>,
}

/// The arbiter's login: the secret and the sessions it opened.
pub struct Login {
    digest: [u8; 32],
    sessions: Mutex<VecDeque<String>>,
    /// When each address last gave a wrong secret.
    wrong: Mutex<HashMap<IpAddr, Instant>>,
}

fn digest(s: &str) -> [u8; 32] {
    Sha256::digest(s.trim().as_bytes()).into()
}

impl Guard {
    /// A guard that lets in `hosts` (and any IP address, and `localhost`)
    /// and, with `secret`, asks for the login.
    #[must_use]
    pub fn new(hosts: Vec<String>, secret: Option<&str>) -> Guard {
        Guard {
            hosts: Arc::new(hosts.into_iter().map(|h| h.to_ascii_lowercase()).collect()),
            login: secret.map(|s| {
                Arc::new(Login {
                    digest: digest(s),
                    sessions: Mutex::new(VecDeque::new()),
                    wrong: Mutex::new(HashMap::new()),
                })
            }),
        }
    }

    fn host_ok(&self, h: &HeaderMap) -> bool {
        let Some(host) = h.get(header::HOST).and_then(|v| v.to_str().ok()) else {
            return false;
        };
        let name = host_name(host).to_ascii_lowercase();
        // DNS rebinding needs a name: an address is the server itself.
        name == "localhost"
            || name.parse::<std::net::IpAddr>().is_ok()
            || self.hosts.contains(&name)
    }

    fn origin_ok(h: &HeaderMap) -> bool {
        let Some(origin) = h.get(header::ORIGIN) else {
            return true;
        };
        let host = h.get(header::HOST).and_then(|v| v.to_str().ok());
        let origin = origin.to_str().ok();
        match (origin, host) {
            (Some(o), Some(host)) => o
                .strip_prefix("http://")
                .or_else(|| o.strip_prefix("https://"))
                .is_some_and(|rest| rest.eq_ignore_ascii_case(host)),
            _ => false,
        }
    }

    /// With a login: whether a request carries the arbiter's session (the
    /// server's reserved connections serve only such requests).
    #[must_use]
    pub fn arbiter(&self) -> Option<Arbiter> {
        let g = self.clone();
        self.login.as_ref()?;
        Some(Arc::new(move |h: &HeaderMap| g.logged_in(h)))
    }

    fn logged_in(&self, h: &HeaderMap) -> bool {
        let Some(login) = &self.login else {
            return true;
        };
        let Some(token) = cookie(h, COOKIE) else {
            return false;
        };
        let sessions = login
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        sessions.iter().any(|s| s.as_bytes() == token.as_bytes())
    }
}

/// The host part of a Host header (`[::1]:8080` → `::1`, `desk:80` → `desk`).
fn host_name(host: &str) -> &str {
    if let Some(v6) = host.strip_prefix('[') {
        return v6.split(']').next().unwrap_or_default();
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
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

/// Adds the guard to a server: the checks before every route, the headers after.
pub fn guarded(r: Router, guard: Guard) -> Router {
    let r = if guard.login.is_some() {
        r.route(
            "/login",
            get(login_page).post(login).with_state(guard.clone()),
        )
    } else {
        r
    };
    r.layer(axum::middleware::from_fn_with_state(guard.clone(), check))
}

async fn check(State(g): State<Guard>, req: Request, next: Next) -> Response {
    let h = req.headers();
    if !g.host_ok(h) {
        return with_headers(refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "this server does not answer for that host name (tandem hall --allow-host NAME)",
        ));
    }
    if !Guard::origin_ok(h) {
        return with_headers(refuse(
            StatusCode::FORBIDDEN,
            "a request from another site's page",
        ));
    }
    let path = req.uri().path();
    let open = matches!(path, "/login" | "/hall.css");
    if !open && !g.logged_in(h) {
        let page = req.method() == axum::http::Method::GET
            && (path == "/" || path.starts_with("/tables/"));
        return with_headers(if page {
            Redirect::to("/login").into_response()
        } else {
            refuse(StatusCode::UNAUTHORIZED, "log in first: /login")
        });
    }
    with_headers(next.run(req).await)
}

fn with_headers(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    r
}

async fn login_page() -> Html<&'static str> {
    Html(LOGIN)
}

#[derive(Deserialize)]
struct LoginForm {
    secret: String,
}

async fn login(
    State(g): State<Guard>,
    peer: Option<axum::Extension<Peer>>,
    Form(f): Form<LoginForm>,
) -> Response {
    let Some(l) = &g.login else {
        return Redirect::to("/").into_response();
    };
    let ip = peer.map_or(IpAddr::from([0, 0, 0, 0]), |p| p.0 .0);
    {
        // Slowly: an address that gave a wrong secret waits a second before
        // its next try is looked at. The answer comes at once: the wait
        // holds no connection.
        let mut wrong = l
            .wrong
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if wrong.get(&ip).is_some_and(|at| at.elapsed() < WRONG_WAIT) {
            let mut r = refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "a wrong secret came from this address a moment ago: try again in a second",
            );
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            return r;
        }
        if digest(&f.secret) != l.digest {
            if wrong.len() >= WRONG_KEPT {
                wrong.retain(|_, at| at.elapsed() < WRONG_WAIT);
            }
            if wrong.len() < WRONG_KEPT {
                wrong.insert(ip, Instant::now());
            }
            drop(wrong);
            let mut r = (
                StatusCode::UNAUTHORIZED,
                Html("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not logged in</title></head>\
                      <body><main><h1 role=\"alert\">That is not the arbiter's secret.</h1><p>Wait a second, then <a href=\"/login\">try again</a>.</p></main></body></html>"),
            )
                .into_response();
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            return r;
        }
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
        let mut s = l
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        s.push_back(token.clone());
        while s.len() > MAX_SESSIONS {
            s.pop_front();
        }
    }
    let mut r = Redirect::to("/").into_response();
    if let Ok(v) = HeaderValue::from_str(&format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
    )) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// 32 random bytes from the kernel, in hex.
fn new_token() -> std::io::Result<String> {
    let mut b = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut b)?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_of_host_headers() {
        assert_eq!(host_name("[::1]:8080"), "::1");
        assert_eq!(host_name("desk.hall:80"), "desk.hall");
        assert_eq!(host_name("desk.hall"), "desk.hall");
        let g = Guard::new(vec!["Desk.Hall".into()], None);
        let mut h = HeaderMap::new();
        for (host, ok) in [
            ("127.0.0.1:8080", true),
            ("[::1]:8080", true),
            ("localhost:8080", true),
            ("desk.hall:8080", true),
            ("evil.example:8080", false),
        ] {
            h.insert(header::HOST, HeaderValue::from_static(host));
            assert_eq!(g.host_ok(&h), ok, "{host}");
        }
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        assert!(Guard::origin_ok(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        assert!(!Guard::origin_ok(&h));
    }
}
