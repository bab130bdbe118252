//! Who a server answers, and the headers of every answer: the `Host` of a
//! request must be one of the server's own (a name rebound to its address
//! by another site, DNS rebinding, gets nothing: an IP address needs no
//! name, so it is the server itself), its `Origin`, when sent, the same
//! site (a page of another site gets nothing); every answer keeps the pages
//! out of other sites' frames and scripts, sniffs nothing, and sends no
//! referrer to another site.

use axum::http::{header, HeaderMap, HeaderValue};

/// The IP addresses a `Host` may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addresses {
    /// Any IP address, at any port (the hall).
    Any,
    /// Any IP address at this port (a table bound to every address).
    AtPort(u16),
    /// Only those listed.
    Listed,
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denied {
    /// Its `Host` is not one of the server's.
    Host,
    /// Its `Origin` is another site.
    Origin,
}

/// The headers of every answer.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// The Content-Security-Policy.
    pub csp: &'static str,
    /// The Referrer-Policy.
    pub referrer: &'static str,
    /// Kept by no cache (`Cache-Control: no-store`).
    pub no_store: bool,
}

/// What a server lets in, and what it says with every answer.
#[derive(Debug, Clone)]
pub struct Site {
    /// `Host` values (lower case): `name` at any port, `name:port` at that one.
    hosts: Vec<String>,
    addresses: Addresses,
    /// The scheme an `Origin` must have (`None`: `http` or `https`).
    scheme: Option<&'static str>,
    policy: Policy,
}

/// The host part of a Host header (`[::1]:8080` → `::1`, `desk:80` → `desk`).
#[must_use]
pub fn host_name(host: &str) -> &str {
    if let Some(v6) = host.strip_prefix('[') {
        return v6.split(']').next().unwrap_or_default();
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
}

impl Site {
    /// A site answering for `hosts` and `addresses`, its `Origin` of
    /// `scheme` (any of `http`, `https` when `None`), its answers with `policy`.
    #[must_use]
    pub fn new(
        hosts: Vec<String>,
        addresses: Addresses,
        scheme: Option<&'static str>,
        policy: Policy,
    ) -> Site {
        Site {
            hosts: hosts.into_iter().map(|h| h.to_ascii_lowercase()).collect(),
            addresses,
            scheme,
            policy,
        }
    }

    fn host_ok(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        let name = host_name(&host);
        // `name:port` at that port, `name` (no port) at any.
        if self
            .hosts
            .iter()
            .any(|h| *h == host || (!h.contains(':') && h == name))
        {
            return true;
        }
        match self.addresses {
            Addresses::Any => name.parse::<std::net::IpAddr>().is_ok(),
            Addresses::AtPort(port) => host
                .parse::<std::net::SocketAddr>()
                .is_ok_and(|a| a.port() == port),
            Addresses::Listed => false,
        }
    }

    fn origin_ok(&self, origin: &str, host: &str) -> bool {
        let rest = match self.scheme {
            Some(s) => origin.strip_prefix(s).and_then(|o| o.strip_prefix("://")),
            None => origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://")),
        };
        rest.is_some_and(|r| r.eq_ignore_ascii_case(host))
    }

    /// Whether a request with these headers is let in.
    ///
    /// # Errors
    /// Another `Host`, or an `Origin` of another site.
    pub fn check(&self, h: &HeaderMap) -> Result<(), Denied> {
        let host = h.get(header::HOST).and_then(|v| v.to_str().ok());
        let Some(host) = host.filter(|host| self.host_ok(host)) else {
            return Err(Denied::Host);
        };
        match h.get(header::ORIGIN).map(|o| o.to_str().ok()) {
            None => Ok(()),
            Some(Some(o)) if self.origin_ok(o, host) => Ok(()),
            Some(_) => Err(Denied::Origin),
        }
    }

    /// The headers of every answer, set on `h`.
    pub fn headers(&self, h: &mut HeaderMap) {
        let p = self.policy;
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(p.csp),
        );
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static(p.referrer),
        );
        if p.no_store {
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: Policy = Policy {
        csp: "default-src 'self'",
        referrer: "no-referrer",
        no_store: false,
    };

    fn with(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn host_names_of_host_headers() {
        assert_eq!(host_name("[::1]:8080"), "::1");
        assert_eq!(host_name("desk.hall:80"), "desk.hall");
        assert_eq!(host_name("desk.hall"), "desk.hall");
    }

    #[test]
    fn a_hall_answers_any_address_and_its_names_at_any_port() {
        let s = Site::new(
            vec!["localhost".into(), "Desk.Hall".into()],
            Addresses::Any,
            None,
            POLICY,
        );
        for (host, ok) in [
            ("127.0.0.1:8080", true),
            ("[::1]:8080", true),
            ("localhost:8080", true),
            ("desk.hall:8080", true),
            ("evil.example:8080", false),
        ] {
            assert_eq!(s.check(&with(host, None)).is_ok(), ok, "{host}");
        }
        let h = "127.0.0.1:8080";
        assert!(s.check(&with(h, Some("http://127.0.0.1:8080"))).is_ok());
        assert!(s.check(&with(h, Some("https://127.0.0.1:8080"))).is_ok());
        assert_eq!(
            s.check(&with(h, Some("http://evil.example"))),
            Err(Denied::Origin)
        );
    }

    #[test]
    fn a_table_answers_its_own_address_and_port_and_its_scheme() {
        let s = Site::new(
            vec!["127.0.0.1:8080".into(), "localhost:8080".into()],
            Addresses::Listed,
            Some("https"),
            POLICY,
        );
        assert!(s.check(&with("127.0.0.1:8080", None)).is_ok());
        assert_eq!(s.check(&with("127.0.0.1:9", None)), Err(Denied::Host));
        assert_eq!(s.check(&with("10.0.0.1:8080", None)), Err(Denied::Host));
        assert_eq!(s.check(&with("localhost", None)), Err(Denied::Host));
        let h = "127.0.0.1:8080";
        assert!(s.check(&with(h, Some("https://127.0.0.1:8080"))).is_ok());
        assert_eq!(
            s.check(&with(h, Some("http://127.0.0.1:8080"))),
            Err(Denied::Origin)
        );
        let any = Site::new(vec![], Addresses::AtPort(8080), Some("https"), POLICY);
        assert!(any.check(&with("10.0.0.1:8080", None)).is_ok());
        assert!(any.check(&with("[fe80::1]:8080", None)).is_ok());
        assert_eq!(any.check(&with("10.0.0.1:9", None)), Err(Denied::Host));
        assert_eq!(any.check(&with("table.lan:8080", None)), Err(Denied::Host));
    }
}
