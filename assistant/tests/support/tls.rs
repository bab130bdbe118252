//! HTTPS to a server of ours with its own certificate (the device pages',
//! the desk's): the certificate it serves, read in a handshake, and
//! requests pinned to that certificate, the only one trusted, as a phone or
//! an arbiter that compared the fingerprint would.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer as Der, ServerName, UnixTime};
use rustls::DigitallySignedStruct as Dss;

type Signed = Result<HandshakeSignatureValid, rustls::Error>;

/// Trusts the one certificate `pinned` (DER), or none (`None`: it only
/// looks), and keeps the certificate it was shown.
#[derive(Debug)]
struct Pinned {
    pinned: Option<Vec<u8>>,
    shown: Mutex<Option<Vec<u8>>>,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &Der<'_>,
        _intermediates: &[Der<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        *self.shown.lock().unwrap() = Some(end_entity.as_ref().to_vec());
        match &self.pinned {
            Some(p) if end_entity.as_ref() == p.as_slice() => Ok(ServerCertVerified::assertion()),
            Some(_) => Err(rustls::Error::General("not the pinned certificate".into())),
            None => Err(rustls::Error::General("only looked at".into())),
        }
    }
    fn verify_tls12_signature(&self, m: &[u8], c: &Der<'_>, d: &Dss) -> Signed {
        rustls::crypto::verify_tls12_signature(
            m,
            c,
            d,
            &self.provider.signature_verification_algorithms,
        )
    }
    fn verify_tls13_signature(&self, m: &[u8], c: &Der<'_>, d: &Dss) -> Signed {
        rustls::crypto::verify_tls13_signature(
            m,
            c,
            d,
            &self.provider.signature_verification_algorithms,
        )
    }
    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// A verifier trusting `cert` (DER) alone, or nothing (`None`).
fn verifier(cert: Option<&[u8]>) -> Arc<Pinned> {
    Arc::new(Pinned {
        pinned: cert.map(<[u8]>::to_vec),
        shown: Mutex::new(None),
        provider: Arc::new(rustls::crypto::ring::default_provider()),
    })
}

/// A client configuration trusting the one certificate `cert` (DER).
pub fn pinned_config(cert: &[u8]) -> Arc<rustls::ClientConfig> {
    config(verifier(Some(cert)))
}

fn config(verifier: Arc<Pinned>) -> Arc<rustls::ClientConfig> {
    let provider = verifier.provider.clone();
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Arc::new(config)
}

fn client(verifier: Arc<Pinned>) -> rustls::ClientConnection {
    let name = ServerName::try_from("localhost").unwrap();
    rustls::ClientConnection::new(config(verifier), name).unwrap()
}

/// The certificate (DER) the server on 127.0.0.1:`port` shows in a TLS
/// handshake, trusted or not; `None` if it shows none.
pub fn served_certificate(port: u16) -> Option<Vec<u8>> {
    let shown = verifier(None);
    let mut conn = client(shown.clone());
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).ok()?;
    tcp.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
    while conn.is_handshaking() {
        if conn.complete_io(&mut tcp).is_err() {
            break;
        }
    }
    let der = shown.shown.lock().unwrap().take();
    der
}
/// One HTTPS request to 127.0.0.1:`port`, pinned to `cert` (DER): the
/// status and the raw response.
pub fn https(port: u16, cert: &[u8], req: &str) -> (u16, String) {
    https_on(TcpStream::connect(("127.0.0.1", port)).unwrap(), cert, req)
}

/// [`https`] on a connection already made (from another local address).
pub fn https_on(tcp: TcpStream, cert: &[u8], req: &str) -> (u16, String) {
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let conn = client(verifier(Some(cert)));
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    if tls.write_all(req.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut raw = Vec::new();
    let _ = tls.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw).into_owned();
    (status_of(&raw), raw)
}

/// The status of a raw HTTP response (0: none).
pub fn status_of(raw: &str) -> u16 {
    raw.lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// The value of the header `name` in a raw HTTP response.
pub fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.split("\r\n\r\n")
        .next()?
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}
