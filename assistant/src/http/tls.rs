//! TLS beyond loopback, for the device pages: the table's own certificate,
//! given (`--seats-cert`, `--seats-key`) or made at first start and kept in
//! a private folder (`$XDG_STATE_HOME/tandem/seats/`), and its SHA-256
//! fingerprint, which the table shows and says so that a phone can trust
//! it once. The hall's desk serves its page beyond loopback the same way
//! (`hall`, its certificate in its data folder).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use sha2::{Digest, Sha256};
use tokio_rustls::rustls;
use tokio_rustls::TlsAcceptor;

/// The acceptor and the certificate's fingerprint.
#[derive(Clone)]
pub struct Tls {
    /// Wraps each accepted connection.
    pub acceptor: TlsAcceptor,
    /// SHA-256 of the certificate (DER), `AB:CD:…`.
    pub fingerprint: String,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

/// Where a made certificate is kept.
#[must_use]
pub fn default_dir() -> PathBuf {
    crate::paths::state_dir().join("seats")
}

/// The fingerprint of a certificate (DER): SHA-256, upper-case hex pairs.
#[must_use]
pub fn fingerprint(der: &[u8]) -> String {
    Sha256::digest(der)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// The certificate and key given, else the ones kept in `dir` (made there,
/// for `names`, the first time).
///
/// # Errors
/// The files cannot be read, made or parsed.
pub fn load_or_make(
    given: Option<(&Path, &Path)>,
    dir: &Path,
    names: Vec<String>,
) -> anyhow::Result<Tls> {
    let (cert_path, key_path) = match given {
        Some((c, k)) => (c.to_owned(), k.to_owned()),
        None => {
            crate::journal::private_folder(dir)
                .with_context(|| format!("the certificate's folder {}", dir.display()))?;
            let (c, k) = (dir.join("cert.pem"), dir.join("key.pem"));
            if !c.exists() || !k.exists() {
                let made =
                    rcgen::generate_simple_self_signed(names).context("making a certificate")?;
                std::fs::write(&c, made.cert.pem())?;
                write_private(&k, made.signing_key.serialize_pem().as_bytes())?;
            }
            (c, k)
        }
    };
    let certs: Vec<rustls::pki_types::CertificateDer<'static>> =
        rustls_pemfile::certs(&mut std::io::BufReader::new(
            std::fs::File::open(&cert_path)
                .with_context(|| format!("reading {}", cert_path.display()))?,
        ))
        .collect::<Result<_, _>>()
        .with_context(|| format!("{}: not a PEM certificate", cert_path.display()))?;
    let key = rustls_pemfile::private_key(&mut std::io::BufReader::new(
        std::fs::File::open(&key_path)
            .with_context(|| format!("reading {}", key_path.display()))?,
    ))
    .with_context(|| format!("{}: not a PEM key", key_path.display()))?
    .with_context(|| format!("{}: no key in it", key_path.display()))?;
    let first = certs
        .first()
        .with_context(|| format!("{}: no certificate in it", cert_path.display()))?;
    let fingerprint = fingerprint(first.as_ref());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()?
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .context("the certificate and the key do not go together")?;
    Ok(Tls {
        acceptor: TlsAcceptor::from(Arc::new(config)),
        fingerprint,
    })
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}
