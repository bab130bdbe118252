//! The device pages' bounds (served by [`crate::http::serve`]): 64
//! connections at once, 8 per peer (an IPv4 address or an IPv6 /64), 16
//! more kept for paired devices (a request on one of them is served only
//! with a paired device's cookie), a request's headers within 10 s and its
//! body within 10 s of them (then answered 408 and closed), a live stream
//! that reads nothing for 30 s closed, a body of 4 KiB at most
//! (docs/devices.md, "What a peer can make the table hold").

use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;

use crate::http::serve::{bounded, ms, Limits};

/// Connections at once, in all.
pub const MAX_CONNECTIONS: usize = 64;
/// Connections at once from one peer.
pub const PER_PEER: usize = 8;
/// Connections kept for paired devices beyond [`MAX_CONNECTIONS`].
pub const RESERVE: usize = 16;
/// Time for a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Time for a request's body to come, and its answer (not the live stream).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a live stream may leave what it was sent unread.
pub const STALL: Duration = Duration::from_secs(30);

/// What the device pages' server lets its clients hold. The tests may
/// shorten the time for a body (`TANDEM_SEATS_BODY_TIMEOUT_MS`), never
/// lengthen it.
#[must_use]
pub fn limits() -> Limits {
    let body = ms("TANDEM_SEATS_BODY_TIMEOUT_MS", 10_000).min(BODY_TIMEOUT);
    Limits {
        connections: MAX_CONNECTIONS,
        per_peer: PER_PEER,
        reserve: RESERVE,
        header_timeout: HEADER_TIMEOUT,
        request_timeout: body,
        stall: STALL,
        max_body: super::web::MAX_BODY,
    }
}

/// Serves the pages' `app` (`devices::web::router`) on `listener` until the
/// task is dropped, within [`limits`], over TLS when `tls` is given.
pub async fn serve(listener: TcpListener, app: Router, tls: Option<tokio_rustls::TlsAcceptor>) {
    let limits = limits();
    crate::http::serve::serve("devices", listener, bounded(app, limits), limits, tls).await;
}
