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
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;

use super::login::{self, Login};
use crate::http::guard::{Addresses, Denied, Policy, Site};
use crate::http::serve::{refuse, Admit};

/// The Content-Security-Policy of every page: its own scripts and styles only, in no frame.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers of every answer. No referrer to other sites; to its own,
/// the origin a browser then sends with a form's POST (`/login`,
/// `/logout`): under `no-referrer` it sends `Origin: null`, which the
/// origin check refuses.
const POLICY: Policy = Policy {
    csp: CSP,
    referrer: "same-origin",
    no_store: false,
};

/// What the desk's reserved connections tell any other request.
pub const FULL: &str = "the desk is full: only the arbiter's session gets in now";

/// What a server lets in.
#[derive(Clone)]
pub struct Guard {
    /// Any IP address, `localhost` and the names of `--allow-host`.
    site: Arc<Site>,
    /// The login, where one is needed.
    login: Option<Arc<Login>>,
}

impl Guard {
    /// A guard that lets in `hosts` (and any IP address, and `localhost`)
    /// and, with `login`, asks for the arbiter's login.
    #[must_use]
    pub fn new(hosts: Vec<String>, login: Option<Arc<Login>>) -> Guard {
        let mut names = vec!["localhost".to_owned()];
        names.extend(hosts);
        Guard {
            site: Arc::new(Site::new(names, Addresses::Any, None, POLICY)),
            login,
        }
    }

    /// With a login: whether a request carries the arbiter's session (the
    /// server's reserved connections serve only such requests).
    #[must_use]
    pub fn arbiter(&self) -> Option<Admit> {
        let g = self.clone();
        self.login.as_ref()?;
        Some(Arc::new(move |h: &HeaderMap| g.logged_in(h)))
    }

    fn logged_in(&self, h: &HeaderMap) -> bool {
        self.login.as_ref().map_or(true, |l| l.logged_in(h))
    }
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
    match g.site.check(h) {
        Ok(()) => {}
        Err(Denied::Host) => {
            return with_headers(&g, refuse(
                StatusCode::MISDIRECTED_REQUEST,
                "this server does not answer for that host name (tandem hall --allow-host NAME)",
            ));
        }
        Err(Denied::Origin) => {
            return with_headers(
                &g,
                refuse(StatusCode::FORBIDDEN, "a request from another site's page"),
            );
        }
    }
    let path = req.uri().path();
    let open = matches!(path, "/login" | "/hall.css");
    if !open && !g.logged_in(h) {
        let page = req.method() == axum::http::Method::GET
            && (path == "/" || path.starts_with("/tables/"));
        return with_headers(
            &g,
            if page {
                Redirect::to("/login").into_response()
            } else {
                refuse(StatusCode::UNAUTHORIZED, "log in first: /login")
            },
        );
    }
    let stream = path == "/events";
    let h = stream.then(|| req.headers().clone());
    let r = next.run(req).await;
    // The live stream ends with its session.
    let r = match (&g.login, h) {
        (Some(l), Some(h)) => l.until_logout(&h, r),
        _ => r,
    };
    with_headers(&g, r)
}

fn with_headers(g: &Guard, mut r: Response) -> Response {
    g.site.headers(r.headers_mut());
    r
}
