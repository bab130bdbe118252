//! The desk's two servers' bounds (served by [`crate::http::serve`]): the
//! arbiter's desk for a few browsers, room kept for the arbiter's session;
//! the spectators' server for many readers, within the open files the
//! process may have (docs/hall.md, "What a peer can make the desk hold").

use crate::http::serve::{ms, Limits};

/// The largest request body (a record to reconcile, a command).
pub const MAX_BODY: usize = 256 << 10;

/// The public server's connections at most, whatever the file limit.
const PUBLIC_MAX: usize = 4096;

/// Files the desk keeps for itself beyond its two servers: the tables'
/// copies, the broker, its runtime (see [`public_for`]).
const FILES_KEPT: u64 = 512;

/// The arbiter's server: a few browsers; with a login, 64 connections kept
/// for the arbiter's session.
#[must_use]
pub fn desk(login: bool) -> Limits {
    Limits {
        connections: 256,
        per_peer: 64,
        reserve: if login { 64 } else { 0 },
        ..public_for(u64::MAX)
    }
}

/// The spectators' server: many readers of the live stream, within what a
/// process allowed `nofile` open files can hold with the desk's server and
/// the tables' files open: half of what is left once [`FILES_KEPT`] and the
/// desk's server are counted, 4,096 at most, 32 at least; one peer an
/// eighth of it (16 at least).
#[must_use]
pub fn public_for(nofile: u64) -> Limits {
    let desk = 256 + 64;
    let room = nofile.saturating_sub(FILES_KEPT + desk) / 2;
    let connections = usize::try_from(room)
        .unwrap_or(PUBLIC_MAX)
        .clamp(32, PUBLIC_MAX);
    Limits {
        connections,
        per_peer: (connections / 8).max(16),
        reserve: 0,
        header_timeout: ms("TANDEM_HALL_HEADER_TIMEOUT_MS", 10_000),
        request_timeout: ms("TANDEM_HALL_REQUEST_TIMEOUT_MS", 30_000),
        stall: ms("TANDEM_HALL_STALL_MS", 30_000),
        max_body: MAX_BODY,
    }
}

/// Raises this process's soft limit of open files to its hard limit; the
/// soft limit it then has.
#[must_use]
pub fn raise_file_limit() -> u64 {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let now = getrlimit(Resource::Nofile);
    let raised = Rlimit {
        current: now.maximum,
        maximum: now.maximum,
    };
    match setrlimit(Resource::Nofile, raised) {
        Ok(()) => now.maximum.unwrap_or(u64::MAX),
        Err(e) => {
            tracing::warn!("hall: cannot raise the limit of open files: {e}");
            now.current.unwrap_or(u64::MAX)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_cap_stays_below_the_file_limit() {
        assert_eq!(public_for(1_048_576).connections, 4096);
        assert_eq!(public_for(1_048_576).per_peer, 512);
        let l = public_for(1024);
        assert_eq!(l.connections, 96);
        assert_eq!(l.per_peer, 16);
        assert!(l.connections as u64 + 256 + 64 + FILES_KEPT <= 1024);
        assert_eq!(public_for(100).connections, 32);
    }
}
