//! One bounded web server, for the device seats (`devices`) and the hall's
//! desk and public pages (`hall`): how many connections it holds at once
//! and how many of them one peer may hold (an IPv4 address, or an IPv6 /64
//! network: one host is given a whole /64), room kept for the requests that
//! must always get in (the arbiter's session at the desk, a paired device at
//! a table), how long a client may take to send a request's headers (a
//! slowloris, an idle keep-alive socket), how long a request may take to be
//! read, body included, and answered (all but the live stream), how long a
//! client may leave what it was sent unread (a live stream that fell
//! silent), and how large a body may be. With TLS (beyond loopback) the
//! server speaks TLS only (the handshake within the time for a request's
//! headers); a plain HTTP request to it is answered in plain words that it
//! needs `https://`, and closed.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;

/// What one server lets its clients hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once (more are closed as they come).
    pub connections: usize,
    /// Connections one peer may hold of them.
    pub per_peer: usize,
    /// Connections kept beyond `connections` for the requests that must
    /// always get in: a request on one of them is served only when the
    /// server's [`reserved_for`] check admits it (0: no room kept).
    pub reserve: usize,
    /// Time to send a request's headers, also between two requests on one connection.
    pub header_timeout: Duration,
    /// Time to send a request's body and be answered (not the live stream).
    pub request_timeout: Duration,
    /// Time a client may leave what it was sent unread (then it is closed).
    pub stall: Duration,
    /// The largest request body.
    pub max_body: usize,
}

/// Reserved connections one peer may hold.
pub const RESERVE_PER_PEER: usize = 4;

/// Time to send a request's headers on a reserved connection.
pub const RESERVE_HEADER_TIMEOUT: Duration = Duration::from_secs(2);

/// The path of the live stream (server-sent events) on every server: not
/// bounded by [`Limits::request_timeout`], only by [`Limits::stall`].
pub const STREAM: &str = "/events";

/// A time in milliseconds from the environment variable `var` (the tests
/// shorten the bounds with it), else `default`.
#[must_use]
pub fn ms(var: &str, default: u64) -> Duration {
    Duration::from_millis(
        std::env::var(var)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default),
    )
}

/// Bounds every request but the live stream (`/events`) in time, and every body in size.
pub fn bounded(r: Router, limits: Limits) -> Router {
    r.layer(axum::middleware::from_fn(
        move |req: Request, next: Next| {
            let stream = req.uri().path() == STREAM;
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
    .layer(DefaultBodyLimit::max(limits.max_body))
}

/// The peer a request came from: its IPv4 address or its IPv6 /64 network
/// (a request extension, for the desk's login wait and the table's pairing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Peer(pub IpAddr);

/// The address and port a request came from (a request extension).
#[derive(Debug, Clone, Copy)]
pub struct Remote(pub std::net::SocketAddr);

/// A request that came on a reserved connection (a request extension):
/// served only when the server's [`reserved_for`] check admits it.
#[derive(Debug, Clone, Copy)]
pub struct OnReserve;

/// The peer an address is counted as: an IPv4 address (an IPv4-mapped IPv6
/// address is its IPv4 address), or the /64 network of an IPv6 address
/// (one host is given a whole /64).
#[must_use]
pub fn peer_of(ip: IpAddr) -> Peer {
    let ip = ip.to_canonical();
    Peer(match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let mut o = v6.octets();
            o[8..].fill(0);
            IpAddr::from(o)
        }
    })
}

/// Whether a request may be served on a reserved connection (the arbiter's
/// session at the desk, a paired device at a table).
pub type Admit = Arc<dyn Fn(&HeaderMap) -> bool + Send + Sync>;

/// The server's reserved connections serve only what `admit` lets in; any
/// other request on one is told `full` (503) and its connection closed. The
/// outermost layer, before any other check.
pub fn reserved_for(r: Router, admit: Admit, full: &'static str) -> Router {
    r.layer(axum::middleware::from_fn(
        move |req: Request, next: Next| {
            let refused = req.extensions().get::<OnReserve>().is_some() && !admit(req.headers());
            async move {
                if !refused {
                    return next.run(req).await;
                }
                let mut r = refuse(StatusCode::SERVICE_UNAVAILABLE, full);
                r.headers_mut().insert(
                    header::CONNECTION,
                    header::HeaderValue::from_static("close"),
                );
                r
            }
        },
    ))
}

/// How many connections each peer address holds, in the pool and in the reserve.
#[derive(Default)]
struct Peers(Mutex<HashMap<Peer, (usize, usize)>>);

/// A peer's connection counted; uncounted when dropped.
struct Counted {
    peers: Arc<Peers>,
    ip: Peer,
    reserved: bool,
}

impl Peers {
    fn take(self: &Arc<Self>, ip: Peer, reserved: bool, max: usize) -> Option<Counted> {
        let mut all = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let c = all.entry(ip).or_default();
        let n = if reserved { &mut c.1 } else { &mut c.0 };
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(Counted {
            peers: self.clone(),
            ip,
            reserved,
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut all = self
            .peers
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(c) = all.get_mut(&self.ip) {
            let n = if self.reserved { &mut c.1 } else { &mut c.0 };
            *n = n.saturating_sub(1);
            if *c == (0, 0) {
                all.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener` for ever within `limits` (a request on one
/// of the `limits.reserve` connections carries [`OnReserve`], for
/// [`reserved_for`]); with `tls`, over TLS only. `name` names the server in
/// the log.
pub async fn serve(
    name: &'static str,
    listener: TcpListener,
    app: Router,
    limits: Limits,
    tls: Option<TlsAcceptor>,
) {
    let pool = Arc::new(Semaphore::new(limits.connections));
    let reserve = Arc::new(Semaphore::new(limits.reserve));
    let peers = Arc::new(Peers::default());
    loop {
        let (stream, addr) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors, most likely: wait, then go on.
                tracing::warn!("{name}: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let peer = peer_of(addr.ip());
        // The pool, within the peer's share; else the reserve.
        let slot = peers
            .take(peer, false, limits.per_peer)
            .and_then(|c| Some((pool.clone().try_acquire_owned().ok()?, c, false)))
            .or_else(|| {
                let c = peers.take(peer, true, RESERVE_PER_PEER)?;
                Some((reserve.clone().try_acquire_owned().ok()?, c, true))
            });
        let Some((permit, counted, reserved)) = slot else {
            // Full: closed at once (the client may try again).
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let svc = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            req.extensions_mut().insert(peer);
            req.extensions_mut().insert(Remote(addr));
            if reserved {
                req.extensions_mut().insert(OnReserve);
            }
            let svc = TowerToHyperService::new(app.clone());
            async move { hyper::service::Service::call(&svc, req).await }
        });
        let header_timeout = if reserved {
            limits.header_timeout.min(RESERVE_HEADER_TIMEOUT)
        } else {
            limits.header_timeout
        };
        let tls = tls.clone();
        tokio::spawn(async move {
            let http = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(64 << 10)
                .clone();
            let stall = limits.stall;
            match tls {
                None => {
                    let io = Stall::new(stream, stall);
                    let _ = http.serve_connection(TokioIo::new(io), svc).await;
                }
                Some(acceptor) => {
                    // The handshake within the time for the headers.
                    if let Ok(Some(s)) =
                        tokio::time::timeout(header_timeout, handshake(&acceptor, stream)).await
                    {
                        let io = Stall::new(s, stall);
                        let _ = http.serve_connection(TokioIo::new(io), svc).await;
                    }
                }
            }
            drop((permit, counted));
        });
    }
}

/// What a plain HTTP request to the TLS port is told before it is closed.
const HTTPS_ONLY: &str = "This server answers only over TLS: open it with https://\n";

/// The TLS stream of `stream`, or nothing: a client that does not begin
/// with a TLS handshake is told, in plain HTTP, to use `https://`, and closed.
async fn handshake(
    acceptor: &TlsAcceptor,
    mut stream: TcpStream,
) -> Option<tokio_rustls::server::TlsStream<TcpStream>> {
    let mut first = [0u8; 1];
    if stream.peek(&mut first).await.ok()? == 0 {
        return None;
    }
    // Every TLS connection opens with a handshake record (content type 22).
    if first[0] != 0x16 {
        let answer = format!(
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{HTTPS_ONLY}",
            HTTPS_ONLY.len()
        );
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
        return None;
    }
    acceptor.accept(stream).await.ok()
}

/// A connection whose writes fail once the peer has left what it was sent
/// unread for `limit`: a live stream that fell silent is closed.
struct Stall<T> {
    io: T,
    limit: Duration,
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stall<T> {
    fn new(io: T, limit: Duration) -> Stall<T> {
        Stall {
            io,
            limit,
            timer: None,
        }
    }

    fn watch<R>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        if r.is_ready() {
            self.timer = None;
            return r;
        }
        let limit = self.limit;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if timer.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the peer reads nothing",
            )));
        }
        Poll::Pending
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Stall<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stall<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, r)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watch(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let r = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, r)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// The response to a request refused: a status and a reason in words.
pub fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{why}\n")).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_peer_is_its_64_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::7".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(peer_of(a), peer_of(b));
        assert_ne!(peer_of(a), peer_of(c));
        let v4: IpAddr = "10.0.0.7".parse().unwrap();
        assert_eq!(peer_of(v4), Peer(v4));
        let mapped: IpAddr = "::ffff:10.0.0.7".parse().unwrap();
        assert_eq!(
            peer_of(mapped),
            Peer(v4),
            "an IPv4-mapped address is its IPv4 address"
        );
    }

    #[test]
    fn a_peer_holds_its_share_and_no_more() {
        let peers = Arc::new(Peers::default());
        let ip = Peer("10.0.0.7".parse().unwrap());
        let held: Vec<Counted> = (0..3).filter_map(|_| peers.take(ip, false, 3)).collect();
        assert_eq!(held.len(), 3);
        assert!(peers.take(ip, false, 3).is_none());
        assert!(peers
            .take(Peer("10.0.0.8".parse().unwrap()), false, 3)
            .is_some());
        assert!(peers.take(ip, true, 1).is_some(), "the reserve is apart");
        drop(held);
        assert!(peers.take(ip, false, 3).is_some());
    }
}
