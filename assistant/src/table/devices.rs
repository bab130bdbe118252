//! The device seats' server as a part (`--seats ADDR`, docs/devices.md): a
//! phone or laptop paired with `tandem ctl pair SIDE` becomes that side's
//! seat. Bound before the journal is touched; beyond loopback over TLS with
//! the table's own certificate; bound to every address (`0.0.0.0:P`), the
//! address it names (printed and QR-encoded) is the table's first one that
//! other machines reach.

use std::io::Write as _;
use std::net::IpAddr;
use std::sync::Arc;

use anyhow::Context;
use tandem_rules::Color;

use super::{Input, Opens, Part, Running, Table};
use crate::config::Config;

/// The address other machines reach the table at, for a server bound to
/// `unspecified` (`0.0.0.0` or `::`): the first of the interfaces'
/// addresses that is neither loopback nor link-local, an IPv4 one first
/// (for `::`, an IPv6 one when there is no IPv4 one); `None` when there is
/// none.
#[must_use]
pub fn reachable_address(unspecified: IpAddr, interfaces: &[IpAddr]) -> Option<IpAddr> {
    let usable = |ip: &&IpAddr| {
        !ip.is_loopback()
            && !ip.is_unspecified()
            && match ip {
                IpAddr::V4(v4) => !v4.is_link_local(),
                // fe80::/10: needs a zone a page's address cannot carry.
                IpAddr::V6(v6) => (v6.segments()[0] & 0xffc0) != 0xfe80,
            }
    };
    let v4 = interfaces.iter().filter(usable).find(|ip| ip.is_ipv4());
    match unspecified {
        IpAddr::V4(_) => v4.copied(),
        IpAddr::V6(_) => v4
            .or_else(|| interfaces.iter().filter(usable).find(|ip| ip.is_ipv6()))
            .copied(),
    }
}

/// The addresses of this machine's network interfaces, in their order.
fn interface_addresses() -> Vec<IpAddr> {
    match if_addrs::get_if_addrs() {
        Ok(list) => list.into_iter().map(|i| i.ip()).collect(),
        Err(e) => {
            tracing::warn!("cannot read the network interfaces: {e}");
            Vec::new()
        }
    }
}

/// The device seats' listener, its pairings, the `Host` names it answers
/// to, and TLS beyond loopback.
struct Bound {
    pairing: Arc<crate::devices::Pairing>,
    listener: std::net::TcpListener,
    hosts: Vec<String>,
    tls: Option<crate::devices::tls::Tls>,
    /// Bound to every address: any of the machine's at this port.
    any_port: Option<u16>,
}

fn bind(addr: &str, cert: Option<(&std::path::Path, &std::path::Path)>) -> anyhow::Result<Bound> {
    let listener = std::net::TcpListener::bind(addr)
        .with_context(|| format!("--seats {addr}: cannot listen there"))?;
    let local = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let port = local.port();
    // Bound to every address: the one other machines reach, when there is one.
    let named = if local.ip().is_unspecified() {
        let ip = reachable_address(local.ip(), &interface_addresses());
        if ip.is_none() {
            let _ = writeln!(
                std::io::stderr(),
                "tandem: --seats {addr}: this table has no address other machines reach (only \
                 loopback), so a phone cannot open its pages; name the address they should use: \
                 --seats ADDR:{port}"
            );
        }
        ip
    } else {
        Some(local.ip())
    };
    // The named address first (the pairing page's address), then loopback's names.
    let mut hosts = Vec::new();
    if let Some(ip) = named {
        hosts.push(std::net::SocketAddr::new(ip, port).to_string());
    }
    for h in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        if !hosts.contains(&h) {
            hosts.push(h);
        }
    }
    // Beyond loopback, TLS with the table's own certificate.
    let tls = if local.ip().is_loopback() {
        None
    } else {
        let mut names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
        if let Some(ip) = named {
            names.push(ip.to_string());
        }
        Some(crate::devices::tls::load_or_make(
            cert,
            &crate::devices::tls::default_dir(),
            names,
        )?)
    };
    let scheme = if tls.is_some() { "https" } else { "http" };
    let url = format!("{scheme}://{}/", hosts[0]);
    let mut pairing = crate::devices::Pairing::new(url);
    if let Some(t) = &tls {
        pairing = pairing.with_fingerprint(t.fingerprint.clone());
    }
    Ok(Bound {
        pairing: Arc::new(pairing),
        listener,
        hosts,
        tls,
        any_port: local.ip().is_unspecified().then_some(port),
    })
}

/// The device seats' server (`--seats ADDR`).
pub struct DevicesPart {
    addr: String,
    cert: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// Each side's seat's language (`--seat SIDE:lang=…`), white first.
    langs: [Option<String>; 2],
    bound: Option<Bound>,
    feeds: Option<[tokio::sync::broadcast::Sender<String>; 2]>,
}

impl DevicesPart {
    /// The server, with `--seats`.
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        let lang = |side: Color| {
            config
                .seats
                .iter()
                .find(|s| s.side == side)
                .and_then(|s| s.lang.clone())
        };
        config.devices.clone().map(|addr| {
            Box::new(DevicesPart {
                addr,
                cert: config.devices_cert.clone(),
                langs: [lang(Color::White), lang(Color::Black)],
                bound: None,
                feeds: None,
            }) as Box<dyn Part>
        })
    }
}

impl Part for DevicesPart {
    fn name(&self) -> &'static str {
        "device seats"
    }

    fn opens(&self) -> Opens {
        Opens::none().input(Input::Device).listen(self.addr.clone())
    }

    fn open(&mut self, table: &mut Table) -> anyhow::Result<()> {
        let cert = self.cert.as_ref().map(|(c, k)| (c.as_path(), k.as_path()));
        let bound = bind(&self.addr, cert)?;
        // The pairings reach the control socket (`tandem ctl pair`) and the
        // table's own input line (`pair SIDE` typed).
        table.pairing = Some(bound.pairing.clone());
        self.bound = Some(bound);
        Ok(())
    }

    /// A device is a seat: what each side's seat hears also goes to that
    /// side's paired devices.
    fn prepare(&mut self, table: &mut Table) -> anyhow::Result<()> {
        let feeds = [Color::White, Color::Black].map(|side| {
            let (tx, feed) = crate::devices::web::seat_feed();
            table.out.seats.push(crate::session::SeatOutput {
                side,
                speech: Some(tx),
                braille: None,
                lang: self.langs[side_index(side)].clone(),
            });
            feed
        });
        self.feeds = Some(feeds);
        Ok(())
    }

    fn start(&mut self, _table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        let (Some(dev), Some(feeds)) = (self.bound.take(), self.feeds.take()) else {
            return Ok(());
        };
        let cert = dev
            .tls
            .as_ref()
            .map(|t| format!(", certificate SHA-256 {}", t.fingerprint))
            .unwrap_or_default();
        let _ = writeln!(
            std::io::stderr(),
            "tandem: device seats at {}{cert} (pair one: tandem ctl pair white|black)",
            dev.pairing.url()
        );
        // The device seats' words: a seat's own language, else the table's.
        let langs = self
            .langs
            .clone()
            .map(|l| l.unwrap_or_else(|| run.facts.lang.clone()));
        let mut app =
            crate::devices::web::App::new(dev.pairing, run.handle.clone(), dev.hosts, feeds)
                .secure(dev.tls.is_some())
                .pages(run.facts.pages)
                .langs(langs);
        if let Some(port) = dev.any_port {
            app = app.any_address(port);
        }
        let listener = tokio::net::TcpListener::from_std(dev.listener)?;
        tokio::spawn(crate::devices::serve::serve(
            listener,
            crate::devices::web::router(app),
            dev.tls.map(|t| t.acceptor),
        ));
        Ok(())
    }
}

fn side_index(side: Color) -> usize {
    match side {
        Color::White => 0,
        Color::Black => 1,
    }
}
