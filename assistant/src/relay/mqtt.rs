//! The MQTT connection options shared by the relay and the desk: the
//! broker's address, the credentials, TLS (`mqtts://`) through rustls with
//! the system's roots (plus `TANDEM_MQTT_CA`, a PEM file, for a private CA).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use rumqttc::{MqttOptions, TlsConfiguration, Transport};

use super::proto::BrokerUrl;

/// The environment variable naming a CA certificate (PEM) to trust for `mqtts://`.
pub const CA_ENV: &str = "TANDEM_MQTT_CA";

/// The largest message a desk or table takes (a journal line is at most 64 KiB in practice;
/// the broker's `max_packet_size`, docs/hall.md, is below it).
pub const MAX_PACKET: usize = 1 << 20;
/// The largest MQTT packet there is (its length field's limit, 256 MiB).
pub const MAX_EVER: usize = 268_435_455 + 5;

fn tls_config() -> anyhow::Result<Arc<rustls::ClientConfig>> {
    let mut roots = rustls::RootCertStore::empty();
    let native = rustls_native_certs::load_native_certs();
    for cert in native.certs {
        // A system certificate rustls cannot read is skipped, as browsers do.
        let _ = roots.add(cert);
    }
    if let Some(path) = std::env::var_os(CA_ENV) {
        let pem = std::fs::read(&path)
            .with_context(|| format!("{CA_ENV}: cannot read {}", path.to_string_lossy()))?;
        let mut n = 0;
        for cert in rustls_pemfile::certs(&mut pem.as_slice()) {
            let cert = cert.with_context(|| format!("{CA_ENV}: a bad PEM certificate"))?;
            roots
                .add(cert)
                .with_context(|| format!("{CA_ENV}: a certificate rustls refuses"))?;
            n += 1;
        }
        anyhow::ensure!(
            n > 0,
            "{CA_ENV}: no certificate in {}",
            path.to_string_lossy()
        );
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("TLS setup")?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The client id of a connection to `url`: its user name (the broker's
/// `use_username_as_clientid`, docs/hall.md, binds the id to the user
/// anyway), else `anonymous`.
#[must_use]
pub fn client_id(url: &BrokerUrl, anonymous: String) -> String {
    url.user.clone().unwrap_or(anonymous)
}

/// Options for one connection to `url` as `client_id`.
///
/// # Errors
/// TLS cannot be set up (a bad `TANDEM_MQTT_CA`).
pub fn options(url: &BrokerUrl, client_id: &str) -> anyhow::Result<MqttOptions> {
    let mut o = MqttOptions::new(client_id, url.host.clone(), url.port);
    o.set_keep_alive(Duration::from_secs(5))
        .set_clean_session(true)
        .set_max_packet_size(MAX_PACKET, MAX_PACKET);
    if let Some(user) = &url.user {
        o.set_credentials(user.clone(), url.password.clone().unwrap_or_default());
    }
    if url.tls {
        o.set_transport(Transport::tls_with_config(TlsConfiguration::Rustls(
            tls_config()?,
        )));
    }
    Ok(o)
}

/// A password from a file (`--relay-password-file`): its first line, trimmed.
///
/// # Errors
/// The file cannot be read or is empty.
pub fn password_from_file(path: &std::path::Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the password file {}", path.display()))?;
    let pw = text.lines().next().unwrap_or("").trim().to_owned();
    anyhow::ensure!(
        !pw.is_empty(),
        "the password file {} is empty",
        path.display()
    );
    Ok(pw)
}

/// Whether a connection error is the broker refusing us (wrong password, not
/// allowed): worth saying plainly, and retried only slowly.
#[must_use]
pub fn is_refusal(e: &rumqttc::ConnectionError) -> bool {
    matches!(e, rumqttc::ConnectionError::ConnectionRefused(_))
}
