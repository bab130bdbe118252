//! The device pages' server: every connection bounded in number, in all
//! ([`MAX_CONNECTIONS`]) and per peer address ([`PER_PEER`]), so that one
//! host with a thousand idle sockets cannot lock a paired device out; a
//! request's headers must come within [`HEADER_TIMEOUT`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// Connections at once, in all.
pub const MAX_CONNECTIONS: usize = 64;
/// Connections at once from one address.
pub const PER_PEER: usize = 8;
/// Time for a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The peer's address, in every request's extensions (who paired: issue 45).
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub std::net::SocketAddr);

/// Serves `app` on `listener` until the task is dropped, over TLS when
/// `tls` is given (the handshake within [`HEADER_TIMEOUT`] too).
pub async fn serve(listener: TcpListener, app: Router, tls: Option<tokio_rustls::TlsAcceptor>) {
    let open: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("devices: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let ip = peer.ip();
        {
            let mut o = open
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let all: usize = o.values().sum();
            let mine = o.entry(ip).or_default();
            if all >= MAX_CONNECTIONS || *mine >= PER_PEER {
                // Full: closed at once (the client may try again).
                drop(stream);
                continue;
            }
            *mine += 1;
        }
        let _ = stream.set_nodelay(true);
        let svc = TowerToHyperService::new(app.clone().layer(axum::Extension(Peer(peer))));
        let open = open.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            let http = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(64 << 10)
                .clone();
            match tls {
                Some(acceptor) => {
                    if let Ok(Ok(s)) =
                        tokio::time::timeout(HEADER_TIMEOUT, acceptor.accept(stream)).await
                    {
                        let _ = http.serve_connection(TokioIo::new(s), svc).await;
                    }
                }
                None => {
                    let _ = http.serve_connection(TokioIo::new(stream), svc).await;
                }
            }
            let mut o = open
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(n) = o.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    o.remove(&ip);
                }
            }
        });
    }
}
