//! One web server for the table's device seats (`devices`) and the hall's
//! desk and public pages (`hall`), on a floor below both:
//!
//! - [`serve`]: the accept loop, bounded: connections in all and per peer
//!   (an IPv4 address, an IPv6 /64), room kept for the requests that must
//!   get in (the arbiter's session, a paired device), the time for a
//!   request's headers and for its body, a live stream that reads nothing,
//!   the size of a body; TLS only where TLS is given.
//! - [`guard`]: the `Host` and `Origin` checks and the security headers of
//!   every answer.
//! - [`tls`]: the certificate beyond loopback (given, or made at first
//!   start and kept private) and its fingerprint.
//! - [`ANNOUNCE_JS`]: how every page of both servers speaks to a screen
//!   reader (`/announce.js`, one source: docs/devices.md, "Heard once").

pub mod guard;
pub mod serve;
pub mod tls;

/// The pages' one way to announce (`announce.js`): live regions filled by
/// inserted lines, a repeat made distinct, alerts inserted; served as
/// `/announce.js` by the table's device server and by the hall's desk and
/// public servers.
pub const ANNOUNCE_JS: &str = include_str!("announce.js");
