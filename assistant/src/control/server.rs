//! The accept loop: one task per connection, all stopped by one shutdown
//! signal (mini-redis `server.rs`: the trigger is a parameter, so tests pass
//! a oneshot and the daemon passes SIGTERM).

use std::future::Future;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use sha2::{Digest, Sha256};
use tokio::net::UnixListener;
use tokio::sync::{broadcast, watch, Semaphore};
use tokio::time::timeout;

use super::cmd::is_arbiter;
use super::connection::{Connection, Line};
use super::frame::{error, Response};
use super::{parse_request, Parsed, MAX_CONNECTIONS};
use crate::journal::Source;
use crate::session::{Cmd, SessionHandle};

/// The arbiter's secret (`tandem play --arbiter-secret-file`,
/// `TANDEM_ARBITER_SECRET`). Only its SHA-256 is kept; requests are compared
/// in constant time.
#[derive(Clone)]
pub struct ArbiterSecret([u8; 32]);

impl std::fmt::Debug for ArbiterSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ArbiterSecret(…)")
    }
}

impl ArbiterSecret {
    /// The secret (surrounding white space, such as a file's last newline, is not part of it).
    ///
    /// # Errors
    /// An empty secret.
    pub fn new(secret: &str) -> anyhow::Result<ArbiterSecret> {
        let s = secret.trim();
        anyhow::ensure!(!s.is_empty(), "the arbiter secret is empty");
        Ok(ArbiterSecret(Sha256::digest(s.as_bytes()).into()))
    }

    /// Whether `given` is the secret. Both are hashed first, so the time
    /// taken depends neither on where they differ nor on their lengths.
    #[must_use]
    pub fn matches(&self, given: &str) -> bool {
        let h: [u8; 32] = Sha256::digest(given.trim().as_bytes()).into();
        let diff = self
            .0
            .iter()
            .zip(h.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        std::hint::black_box(diff) == 0
    }
}

/// A bound control socket; the file is removed when this is dropped.
#[derive(Debug)]
pub struct ControlSocket {
    listener: UnixListener,
    path: PathBuf,
    arbiter: Option<ArbiterSecret>,
    /// A table in a hall: the arbiter's actions come only from the desk,
    /// through the relay, which alone knows `arbiter` (a token made at start).
    hall: bool,
    devices: Option<Arc<crate::devices::Pairing>>,
}

impl ControlSocket {
    /// Binds `path` with mode 0600, creating its folder with mode 0700. A
    /// stale socket (nobody listening) is replaced; a live one is an error.
    ///
    /// # Errors
    /// Another daemon listens there, or the socket cannot be made.
    pub fn bind(path: &Path) -> anyhow::Result<ControlSocket> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.exists() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
            }
            if dir.starts_with("/tmp") {
                // A shared folder: anyone may have made it first.
                super::check_private_dir(dir)?;
            }
        }
        if path.exists() {
            if std::os::unix::net::UnixStream::connect(path).is_ok() {
                anyhow::bail!("another tandem is listening on {}", path.display());
            }
            std::fs::remove_file(path)
                .with_context(|| format!("cannot remove the stale socket {}", path.display()))?;
        }
        // No window in which the socket exists with looser permissions.
        let old = rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o177));
        let bound = UnixListener::bind(path);
        rustix::process::umask(old);
        let listener = bound.with_context(|| format!("cannot listen on {}", path.display()))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
        Ok(ControlSocket {
            listener,
            path: path.to_owned(),
            arbiter: None,
            hall: false,
            devices: None,
        })
    }

    /// Accepts arbiter actions from requests that carry this secret (without
    /// one, every arbiter action is refused).
    #[must_use]
    pub fn with_arbiter(mut self, secret: Option<ArbiterSecret>) -> ControlSocket {
        self.arbiter = secret;
        self
    }

    /// A table in a hall (`tandem play --relay`): arbiter actions only with
    /// `relay_token`, the secret the table's own relay was given at start
    /// and sends with the desk's signed commands it checked; any other
    /// secret (the local `--arbiter-secret-file`) is refused, saying why.
    #[must_use]
    pub fn in_hall(mut self, relay_token: ArbiterSecret) -> ControlSocket {
        self.arbiter = Some(relay_token);
        self.hall = true;
        self
    }

    /// Pairs devices as seats (`pair SIDE`, `unpair SIDE`; `tandem play --seats`).
    #[must_use]
    pub fn with_devices(mut self, pairing: Option<Arc<crate::devices::Pairing>>) -> ControlSocket {
        self.devices = pairing;
        self
    }

    /// The socket's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Serves connections until `shutdown` completes; then stops every
    /// connection task and returns. At most [`MAX_CONNECTIONS`] at once.
    pub async fn serve(self, session: SessionHandle, shutdown: impl Future<Output = ()>) {
        if let Some(p) = &self.devices {
            // Every pairing and unpairing is the session's to journal and say.
            crate::devices::pairing::tell_session(p, session.clone());
        }
        let (stop_tx, stop_rx) = watch::channel(false);
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let arbiter = Arc::new(self.arbiter.clone());
        let hall = self.hall;
        let devices = self.devices.clone();
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        let session = session.clone();
                        let stop = stop_rx.clone();
                        let arbiter = Arc::clone(&arbiter);
                        let devices = devices.clone();
                        let slot = Arc::clone(&slots).try_acquire_owned();
                        tokio::spawn(async move {
                            let (r, w) = stream.into_split();
                            let mut conn = Connection::new(r, w);
                            let Ok(_slot) = slot else {
                                let why = format!("too many connections (at most {MAX_CONNECTIONS})");
                                let _ = timeout(WRITE_TIMEOUT, conn.write_json(&error(None, why))).await;
                                return;
                            };
                            if let Err(e) = handle(conn, session, stop, (&arbiter, hall), devices.as_deref()).await {
                                tracing::debug!("control connection: {e}");
                            }
                        });
                    }
                    Err(e) => {
                        tracing::warn!("control socket accept: {e}");
                        // E.g. out of file descriptors: do not spin.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                () = &mut shutdown => break,
            }
        }
        let _ = stop_tx.send(true);
    }
}

impl Drop for ControlSocket {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Why an arbiter action is refused at a table in a hall.
pub const IN_HALL: &str =
    "arbiter action refused: this table is in a hall (--relay): takeback and \
     clock set come only as commands signed by the arbiter's desk (tandem hall), never with a \
     local arbiter secret";

/// How long a client may take to accept a line before it is dropped (a
/// client that does not read must not keep its connection's memory forever).
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

async fn send<R, W, T>(conn: &mut Connection<R, W>, v: &T) -> anyhow::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
    T: serde::Serialize,
{
    timeout(WRITE_TIMEOUT, conn.write_json(v))
        .await
        .map_err(|_| anyhow::anyhow!("client not reading: dropped"))??;
    Ok(())
}

/// Serves one connection: each line is a request; after `subscribe`,
/// notices are written as they come, between replies.
async fn handle<R, W>(
    mut conn: Connection<R, W>,
    session: SessionHandle,
    mut stop: watch::Receiver<bool>,
    (arbiter, hall): (&Option<ArbiterSecret>, bool),
    devices: Option<&crate::devices::Pairing>,
) -> anyhow::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    let mut events: Option<broadcast::Receiver<crate::session::Notice>> = None;
    loop {
        let next_event = async {
            match events.as_mut() {
                Some(rx) => rx.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            line = conn.read_line() => {
                let bytes = match line? {
                    Line::Text(t) => t.into_bytes(),
                    Line::Closed => return Ok(()),
                    Line::TooLong => {
                        // Only this connection is closed; the session is untouched.
                        let _ = send(&mut conn, &error(None, format!("request longer than {} bytes: closing", super::MAX_LINE))).await;
                        return Ok(());
                    }
                    Line::NotText => b"\xff".to_vec(),
                };
                let resp = match parse_request(&bytes) {
                    Parsed::Empty => continue,
                    Parsed::Error(id, why) => error(id, why),
                    Parsed::Subscribe(id) => {
                        events = Some(session.subscribe());
                        let mut ok = error(id, "");
                        ok.reply.ok = true;
                        ok.reply.error = None;
                        ok
                    }
                    Parsed::Cmd { request, .. }
                        if matches!(request.cmd.trim().to_ascii_lowercase().as_str(), "pair" | "unpair") =>
                    {
                        pair_reply(devices, &request, &session).await
                    }
                    Parsed::Cmd { request, .. }
                        if request.cmd.trim().eq_ignore_ascii_case("devices") =>
                    {
                        devices_reply(devices, &request)
                    }
                    Parsed::Cmd { request, cmd } => {
                        // An arbiter action counts as the arbiter's only with the
                        // secret; with it, the clock's pause and resume and the
                        // words said are the arbiter's too (the desk's, through
                        // the relay: FIDE Laws 6.12).
                        let arbiters = is_arbiter(&cmd)
                            || matches!(cmd, Cmd::Pause | Cmd::Resume | Cmd::Say(_));
                        let source = match (arbiters, arbiter, request.secret.as_deref()) {
                            (true, Some(s), Some(given)) if s.matches(given) => Source::Arbiter,
                            _ => Source::Control,
                        };
                        let why_not = match (is_arbiter(&cmd), arbiter, source) {
                            (true, Some(_), Source::Control) if hall => Some(IN_HALL),
                            (true, None, _) => Some("arbiter actions are disabled: tandem play was started without --arbiter-secret-file or TANDEM_ARBITER_SECRET"),
                            (true, Some(_), Source::Control) => Some("arbiter action refused: missing or wrong arbiter secret"),
                            _ => None,
                        };
                        match session.request_as(cmd, source, request.seat).await {
                            Ok(mut reply) => {
                                if let (Some(w), false) = (why_not, reply.ok) {
                                    reply.error = Some(w.to_owned());
                                }
                                Response { id: request.id, reply }
                            }
                            Err(e) => error(request.id, e.to_string()),
                        }
                    }
                };
                send(&mut conn, &resp).await?;
            }
            ev = next_event => match ev {
                Ok(n) => send(&mut conn, &n).await?,
                Err(broadcast::error::RecvError::Lagged(k)) => {
                    // A subscriber this far behind is dropped; the session never waits for it.
                    let _ = send(&mut conn, &serde_json::json!({"event": "lagged", "missed": k})).await;
                    return Ok(());
                }
                Err(broadcast::error::RecvError::Closed) => return Ok(()),
            },
            _ = stop.changed() => return Ok(()),
        }
    }
}

/// `pair SIDE` (a new code for a device to become that side's seat) and
/// `unpair SIDE` (that side's devices are seats no more). Asked by a seat
/// (`tandem ctl --seat SIDE pair SIDE`), the table says it to that seat
/// alone, in its language, as it says the seat's other answers
/// (`devices::at_table`); else it is the operator's, answered here only.
async fn pair_reply(
    devices: Option<&crate::devices::Pairing>,
    request: &super::frame::Request,
    session: &SessionHandle,
) -> Response {
    if let Some(seat) = request.seat {
        use crate::devices::at_table;
        let line = format!(
            "{} {}",
            request.cmd.trim(),
            request.arg.as_deref().unwrap_or("")
        );
        let Some(ask) = at_table::PairAsk::parse(&line) else {
            return error(request.id.clone(), "expected pair or unpair");
        };
        let a = at_table::answer(devices, &ask, Some(seat));
        if let Some(n) = a.notice {
            session.notify(n);
        }
        return match session
            .request_as(a.tell, Source::Control, Some(seat))
            .await
        {
            Ok(mut reply) => {
                reply.pair = a.code.and_then(|c| serde_json::to_value(&c).ok());
                Response {
                    id: request.id.clone(),
                    reply,
                }
            }
            Err(e) => error(request.id.clone(), e.to_string()),
        };
    }
    let Some(p) = devices else {
        return error(
            request.id.clone(),
            "no device seats: tandem play was started without --seats",
        );
    };
    let side = match super::cmd::side(request.arg.as_deref()) {
        Ok(Some(side)) => side,
        Ok(None) => {
            return error(
                request.id.clone(),
                format!("{} needs white or black", request.cmd),
            )
        }
        Err(why) => return error(request.id.clone(), why),
    };
    let mut reply = crate::session::Reply {
        ok: true,
        ..crate::session::Reply::default()
    };
    if request.cmd.trim().eq_ignore_ascii_case("unpair") {
        p.unpair(side);
        reply.said = vec![format!("The {side} seat's devices are unpaired.")];
    } else {
        match p.pair(side) {
            Ok(code) => {
                let digits: Vec<String> = code.code.chars().map(String::from).collect();
                let cert = p
                    .fingerprint()
                    .map(|f| format!(", certificate SHA-256 {f}"))
                    .unwrap_or_default();
                reply.said = vec![format!(
                    "Pairing code for {side}: {}, for two minutes, at {}{cert}",
                    digits.join(" "),
                    code.url
                )];
                reply.pair = serde_json::to_value(&code).ok();
                // The table screen shows it, with its address as a QR code.
                session.notify(crate::session::Notice::Pairing {
                    side,
                    code: code.code.clone(),
                    url: code.url.clone(),
                    expires_ms: code.expires_ms,
                    fingerprint: p.fingerprint().map(str::to_owned),
                });
            }
            Err(e) => return error(request.id.clone(), format!("no pairing code: {e}")),
        }
    }
    Response {
        id: request.id.clone(),
        reply,
    }
}

/// `devices`: each seat's paired devices, their addresses and since when
/// (`tandem ctl devices [--json]`; the operator's, never a seat's).
fn devices_reply(
    devices: Option<&crate::devices::Pairing>,
    request: &super::frame::Request,
) -> Response {
    let Some(p) = devices else {
        return error(
            request.id.clone(),
            "no device seats: tandem play was started without --seats",
        );
    };
    if request.seat.is_some() {
        return error(
            request.id.clone(),
            "the devices are the operator's to list, not a seat's",
        );
    }
    let list = p.devices();
    let mut said = Vec::new();
    for side in [tandem_rules::Color::White, tandem_rules::Color::Black] {
        let mine: Vec<_> = list.iter().filter(|d| d.seat == side).collect();
        if mine.is_empty() {
            said.push(format!("{side}: no device"));
        }
        for d in mine {
            said.push(format!("{side}: {} since {}", d.address, d.since));
        }
    }
    Response {
        id: request.id.clone(),
        reply: crate::session::Reply {
            ok: true,
            said,
            devices: serde_json::to_value(crate::devices::pairing::by_seat(&list)).ok(),
            ..crate::session::Reply::default()
        },
    }
}
