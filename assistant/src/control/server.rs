//! The accept loop: one task per connection, all stopped by one shutdown
//! signal (mini-redis `server.rs`: the trigger is a parameter, so tests pass
//! a oneshot and the daemon passes SIGTERM).

use std::future::Future;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use tokio::net::UnixListener;
use tokio::sync::{broadcast, watch};

use super::cmd::to_cmd;
use super::connection::{Connection, Line};
use super::frame::{error, Request, Response};
use crate::journal::Source;
use crate::session::SessionHandle;

/// A bound control socket; the file is removed when this is dropped.
#[derive(Debug)]
pub struct ControlSocket {
    listener: UnixListener,
    path: PathBuf,
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
        }
        if path.exists() {
            if std::os::unix::net::UnixStream::connect(path).is_ok() {
                anyhow::bail!("another tandem is listening on {}", path.display());
            }
            std::fs::remove_file(path)
                .with_context(|| format!("cannot remove the stale socket {}", path.display()))?;
        }
        let listener = UnixListener::bind(path)
            .with_context(|| format!("cannot listen on {}", path.display()))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
        Ok(ControlSocket {
            listener,
            path: path.to_owned(),
        })
    }

    /// The socket's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Serves connections until `shutdown` completes; then stops every
    /// connection task and returns.
    pub async fn serve(self, session: SessionHandle, shutdown: impl Future<Output = ()>) {
        let (stop_tx, stop_rx) = watch::channel(false);
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        let session = session.clone();
                        let stop = stop_rx.clone();
                        tokio::spawn(async move {
                            let (r, w) = stream.into_split();
                            if let Err(e) = handle(Connection::new(r, w), session, stop).await {
                                tracing::debug!("control connection: {e}");
                            }
                        });
                    }
                    Err(e) => tracing::warn!("control socket accept: {e}"),
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

/// Serves one connection: each line is a request; after `subscribe`,
/// notices are written as they come, between replies.
async fn handle<R, W>(
    mut conn: Connection<R, W>,
    session: SessionHandle,
    mut stop: watch::Receiver<bool>,
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
                let text = match line? {
                    Line::Text(t) => t,
                    Line::Closed => return Ok(()),
                    Line::TooLong => {
                        // Only this connection is closed; the session is untouched.
                        let _ = conn.write_json(&error(None, format!("request longer than {} bytes: closing", super::MAX_LINE))).await;
                        return Ok(());
                    }
                    Line::NotText => {
                        conn.write_json(&error(None, "request is not UTF-8")).await?;
                        continue;
                    }
                };
                if text.trim().is_empty() {
                    continue;
                }
                let req: Request = match serde_json::from_str(&text) {
                    Ok(r) => r,
                    Err(e) => {
                        conn.write_json(&error(None, format!("malformed request: {e}"))).await?;
                        continue;
                    }
                };
                if req.cmd == "subscribe" {
                    events = Some(session.subscribe());
                    let mut ok = error(req.id, "");
                    ok.reply.ok = true;
                    ok.reply.error = None;
                    conn.write_json(&ok).await?;
                    continue;
                }
                let resp = match to_cmd(&req.cmd, req.arg.as_deref()) {
                    Ok(cmd) => match session.request(cmd, Source::Control).await {
                        Ok(reply) => Response { id: req.id, reply },
                        Err(e) => error(req.id, e.to_string()),
                    },
                    Err(why) => error(req.id, why),
                };
                conn.write_json(&resp).await?;
            }
            ev = next_event => match ev {
                Ok(n) => conn.write_json(&n).await?,
                Err(broadcast::error::RecvError::Lagged(k)) => {
                    conn.write_json(&serde_json::json!({"event": "lagged", "missed": k})).await?;
                }
                Err(broadcast::error::RecvError::Closed) => return Ok(()),
            },
            _ = stop.changed() => return Ok(()),
        }
    }
}
