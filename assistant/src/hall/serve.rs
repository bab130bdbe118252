//! The desk's two web servers, bounded: how many connections each holds at
//! once, how long a client may take to send a request's headers (a
//! slowloris, an idle keep-alive socket), how long a request may take to be
//! read and answered (all but the live stream), and how large a body may be.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// What one server lets its clients hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once (more are closed as they come).
    pub connections: usize,
    /// Time to send a request's headers, also between two requests on one connection.
    pub header_timeout: Duration,
    /// Time to send a request's body and be answered (not the live stream).
    pub request_timeout: Duration,
}

/// The largest request body (a record to reconcile, a command).
pub const MAX_BODY: usize = 256 << 10;

impl Limits {
    /// The arbiter's server: a few browsers.
    #[must_use]
    pub fn desk() -> Limits {
        Limits {
            connections: 256,
            ..Limits::public()
        }
    }

    /// The spectators' server: many readers of the live stream.
    #[must_use]
    pub fn public() -> Limits {
        let ms = |var: &str, default: u64| {
            Duration::from_millis(
                std::env::var(var)
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(default),
            )
        };
        Limits {
            connections: 4096,
            header_timeout: ms("TANDEM_HALL_HEADER_TIMEOUT_MS", 10_000),
            request_timeout: ms("TANDEM_HALL_REQUEST_TIMEOUT_MS", 30_000),
        }
    }
}

/// Bounds every request but the live stream (`/events`) in time, and every body in size.
pub fn bounded(r: Router, limits: Limits) -> Router {
    r.layer(axum::middleware::from_fn(
        move |req: Request, next: Next| {
            let stream = req.uri().path() == "/events";
            async move {
                if stream {
                    return next.run(req).await;
                }
                match tokio::time::timeout(limits.request_timeout, next.run(req)).await {
                    Ok(r) => r,
                    Err(_) => {
                        (StatusCode::REQUEST_TIMEOUT, "the request took too long\n").into_response()
                    }
                }
            }
        },
    ))
    .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// Serves `app` on `listener` for ever within `limits`.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits) {
    let slots = Arc::new(Semaphore::new(limits.connections));
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors, most likely: wait, then go on.
                tracing::warn!("hall: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            // Full: closed at once (the client may try again).
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let svc = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .max_buf_size(64 << 10)
                .serve_connection(TokioIo::new(stream), svc);
            let _ = conn.await;
            drop(slot);
        });
    }
}

/// The response to a request refused: a status and a reason in words.
pub fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{why}\n")).into_response()
}
