//! Who may use the desk's servers: the Host and Origin of every request
//! checked (a page on another site, or a name rebound to the hall's address,
//! gets nothing), the headers that keep the pages out of other sites' frames
//! and scripts, and the arbiter's login on a desk reachable beyond loopback.
//!
//! On a loopback `--listen` (and without `--login`) the desk works as it
//! always did for the arbiter's own machine: no login; the page's requests
//! and `POST /api/...` with the header `x-tandem-desk: 1`. Beyond loopback
//! every desk route but the login page needs the session cookie that the
//! login sets once the arbiter's secret was given (`hall/login.rs`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;

use super::login::{self, Login};
use super::serve::{refuse, Arbiter};

/// The Content-Security-Policy of every page: its own scripts and styles only, in no frame.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// What a server lets in.
#[derive(Clone)]
pub struct Guard {
    /// Host names besides IP addresses and `localhost` (`--allow-host`).
    hosts: Arc<Vec<String>>,
    /// The login, where one is needed.
    login: Option<Arc<Login>>,
}

impl Guard {
    /// A guard that lets in `hosts` (and any IP address, and `localhost`)
    /// and, with `login`, asks for the arbiter's login.
    #[must_use]
    pub fn new(hosts: Vec<String>, login: Option<Arc<Login>>) -> Guard {
        Guard {
            hosts: Arc::new(hosts.into_iter().map(|h| h.to_ascii_lowercase()).collect()),
            login,
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
        self.login.as_ref().map_or(true, |l| l.logged_in(h))
    }
}

/// The host part of a Host header (`[::1]:8080` → `::1`, `desk:80` → `desk`).
fn host_name(host: &str) -> &str {
    if let Some(v6) = host.strip_prefix('[') {
        return v6.split(']').next().unwrap_or_default();
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
}

/// Adds the guard to a server: the checks before every route, the headers after.
pub fn guarded(r: Router, guard: Guard) -> Router {
    let r = match &guard.login {
        Some(l) => r.merge(
            Router::new()
                .route("/login", get(login::page).post(login::login))
                .route("/logout", post(login::logout))
                .with_state(l.clone()),
        ),
        None => r,
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
    let stream = path == "/events";
    let h = stream.then(|| req.headers().clone());
    let r = next.run(req).await;
    // The live stream ends with its session.
    let r = match (&g.login, h) {
        (Some(l), Some(h)) => l.until_logout(&h, r),
        _ => r,
    };
    with_headers(r)
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
    // No referrer to other sites; to its own, the origin a browser then
    // sends with a form's POST (`/login`, `/logout`): under `no-referrer` it
    // sends `Origin: null`, which the origin check refuses.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    r
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
