//! Pairing a device to a seat: a one-time code of 6 digits, valid 2
//! minutes, made by the operator (`tandem ctl pair SIDE`); a device that
//! gives it gets a session (a random 128-bit token) that stays that side's
//! seat until the operator unpairs it or the daemon stops.
//!
//! Guessing is bounded for the whole table and for each peer (an IPv4
//! address, an IPv6 /64), and no peer can keep the player from pairing
//! (docs/devices.md, "Pairing codes"):
//! - every code given is checked in turn, one at a time, one code of a
//!   peer at a time (a peer sending many waits behind itself), the peers
//!   with the fewest wrong codes since the daemon started first, else in
//!   the order they came: the player, who has sent none, waits for the code
//!   being checked at most, whatever the others send;
//! - the table checks [`BURST`] codes at once and then one every [`PACE`]:
//!   at most 30 + 120 / 2 = 90 checks in a code's life of 120 s, so a
//!   guesser's chance at a code is below 90 in 10^6, under 1 in 10,000;
//! - after [`MAX_WRONG`] wrong codes from one peer, that peer's codes are
//!   refused unchecked until the operator makes a new code (which starts
//!   every peer's count again); another peer's are checked as before.

use std::collections::{BTreeSet, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use serde::Serialize;
use tandem_rules::Color;

use crate::http::serve::Peer;

/// How long a code is good for.
pub const CODE_LIFE: Duration = Duration::from_secs(120);

/// Wrong codes from one peer before its codes are refused until a new code.
pub const MAX_WRONG: u32 = 10;

/// Codes the table checks at once before it checks one every [`PACE`].
pub const BURST: u32 = 30;

/// Time between two codes checked once [`BURST`] are spent.
pub const PACE: Duration = Duration::from_secs(2);

/// Time a code may wait for its turn (then: busy, try again; not counted).
pub const TURN_WAIT: Duration = Duration::from_secs(6);

/// Sessions at most (each pairing makes one; unpairing ends its side's).
pub const MAX_SESSIONS: usize = 16;

/// Peers whose wrong codes are counted apart; beyond, they count as one.
const MAX_PEERS: usize = 1024;

/// What `tandem ctl pair SIDE --json` prints (exact).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairCode {
    /// Six digits.
    pub code: String,
    /// The page to open on the device.
    pub url: String,
    /// How long the code is good for, in milliseconds.
    pub expires_ms: u64,
}

/// A paired device's session.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Session {
    /// The seat it is.
    side: Color,
    /// The address it paired from.
    address: IpAddr,
    /// When it paired.
    since: SystemTime,
}

#[derive(Debug)]
struct Pending {
    code: String,
    side: Color,
    until: Instant,
}

#[derive(Debug)]
struct State {
    pending: Vec<Pending>,
    /// Wrong codes per peer since the last new code.
    wrong: HashMap<Peer, u32>,
    /// Wrong codes per peer since the daemon started: whose code goes first.
    tried: HashMap<Peer, u32>,
    sessions: HashMap<String, Session>,
    /// Where each session's device paired from, and when (`paired_from`).
    seen: HashMap<String, Device>,
    /// Checks the table may make now (at most [`BURST`], one more every [`PACE`]).
    checks: f64,
    counted: Instant,
}

/// Why a code was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a pending code (or expired).
    Wrong,
    /// Too many wrong codes from this peer: the operator must make a new one.
    Locked,
    /// No turn to check it in time (not counted as wrong): try again.
    Busy,
}

/// The table's pairings.
#[derive(Debug)]
pub struct Pairing {
    state: Mutex<State>,
    /// Whose code is checked now, and whose next.
    turns: Turns,
    /// Each waiting peer's own turn: one code of a peer at a time.
    peers: Mutex<HashMap<Peer, Arc<tokio::sync::Mutex<()>>>>,
    url: String,
    fingerprint: Option<String>,
    life: Duration,
    /// Where each pairing and unpairing is told ([`tell_session`]).
    hook: Mutex<Option<tokio::sync::mpsc::UnboundedSender<DeviceChange>>>,
}

fn random_bytes(n: usize) -> std::io::Result<Vec<u8>> {
    crate::random::bytes(n)
}

/// Six decimal digits, uniform (a draw past the last whole million is drawn again).
fn six_digits() -> std::io::Result<String> {
    loop {
        let b = random_bytes(4)?;
        let n = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if n < 4_294_000_000 {
            return Ok(format!("{:06}", n % 1_000_000));
        }
    }
}

impl State {
    /// One check taken: how long to wait for it.
    fn take_check(&mut self, now: Instant) -> Duration {
        let earned = now.duration_since(self.counted).as_secs_f64() / PACE.as_secs_f64();
        self.checks = (self.checks + earned).min(f64::from(BURST)) - 1.0;
        self.counted = now;
        if self.checks >= 0.0 {
            Duration::ZERO
        } else {
            PACE.mul_f64(-self.checks)
        }
    }
}

/// A check taken from the table's; given back unless used.
struct Reserved<'a>(&'a Pairing, bool);

impl Drop for Reserved<'_> {
    fn drop(&mut self) {
        if self.1 {
            self.0.state().checks += 1.0;
        }
    }
}

/// The turns to have a code checked: one at a time, the fewest wrong codes
/// first, else the first come.
#[derive(Debug, Default)]
struct Turns {
    state: Mutex<TurnState>,
    changed: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct TurnState {
    busy: bool,
    /// (wrong codes, arrival) of each waiting code.
    waiting: BTreeSet<(u32, u64)>,
    arrived: u64,
}

/// A turn held; the next one's when dropped.
struct Turn<'a>(&'a Turns);

/// A place in the queue; given up when dropped (a code that found no turn in time).
struct Waiting<'a>(&'a Turns, (u32, u64));

impl Turns {
    fn lock(&self) -> std::sync::MutexGuard<'_, TurnState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The turn of a code whose peer has sent `rank` wrong ones.
    async fn take(&self, rank: u32) -> Turn<'_> {
        let me = {
            let mut s = self.lock();
            s.arrived += 1;
            let me = (rank, s.arrived);
            s.waiting.insert(me);
            me
        };
        let _place = Waiting(self, me);
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            {
                let mut s = self.lock();
                if !s.busy && s.waiting.first() == Some(&me) {
                    s.busy = true;
                    return Turn(self);
                }
            }
            changed.await;
        }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.lock().waiting.remove(&self.1);
        self.0.changed.notify_waiters();
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.0.lock().busy = false;
        self.0.changed.notify_waiters();
    }
}

impl Pairing {
    /// Pairings for the pages at `url`. The tests may shorten a code's life
    /// (`TANDEM_SEATS_CODE_LIFE_MS`), never lengthen it.
    #[must_use]
    pub fn new(url: String) -> Pairing {
        let life = crate::http::serve::ms("TANDEM_SEATS_CODE_LIFE_MS", 120_000).min(CODE_LIFE);
        Pairing {
            state: Mutex::new(State {
                pending: Vec::new(),
                wrong: HashMap::new(),
                tried: HashMap::new(),
                sessions: HashMap::new(),
                seen: HashMap::new(),
                checks: f64::from(BURST),
                counted: Instant::now(),
            }),
            turns: Turns::default(),
            peers: Mutex::default(),
            url,
            fingerprint: None,
            life,
            hook: Mutex::new(None),
        }
    }

    /// Pages served over TLS with this certificate (its SHA-256).
    #[must_use]
    pub fn with_fingerprint(mut self, fingerprint: String) -> Pairing {
        self.fingerprint = Some(fingerprint);
        self
    }

    /// The certificate's SHA-256 fingerprint, over TLS.
    #[must_use]
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_deref()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new code for `side` (an earlier one of that side is void); every
    /// peer's count of wrong codes starts again.
    ///
    /// # Errors
    /// No randomness from the kernel.
    pub fn pair(&self, side: Color) -> std::io::Result<PairCode> {
        let code = six_digits()?;
        let mut st = self.state();
        st.pending.retain(|p| p.side != side);
        st.pending.push(Pending {
            code: code.clone(),
            side,
            until: Instant::now() + self.life,
        });
        st.wrong.clear();
        Ok(PairCode {
            code,
            url: self.url.clone(),
            expires_ms: u64::try_from(self.life.as_millis()).unwrap_or(u64::MAX),
        })
    }

    /// Ends `side`'s sessions and its pending code (each device's end told
    /// through the hook: [`tell_session`]).
    pub fn unpair(&self, side: Color) {
        let mut st = self.state();
        st.pending.retain(|p| p.side != side);
        st.sessions.retain(|_, d| d.side != side);
        let State { sessions, seen, .. } = &mut *st;
        let mut ended: Vec<Device> = Vec::new();
        seen.retain(|token, d| {
            let live = sessions.contains_key(token);
            if !live {
                ended.push(d.clone());
            }
            live
        });
        drop(st);
        for d in ended {
            self.tell(DeviceChange {
                side: d.seat,
                address: d.address,
                paired: false,
            });
        }
    }

    /// A device's code from `address`: its side and a new session token,
    /// once; checked in its turn (see the module's words).
    ///
    /// # Errors
    /// A wrong or expired code, this peer locked after too many, or no turn in time.
    pub async fn redeem_from(
        &self,
        address: IpAddr,
        code: &str,
    ) -> Result<(Color, String), Refusal> {
        let peer = crate::http::serve::peer_of(address);
        let mine = {
            let mut p = self
                .peers
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            p.entry(peer).or_default().clone()
        };
        // The peer's own turn, then the table's, within one wait.
        let turn = async {
            let mine = mine.lock().await;
            if self.locked(peer) {
                return Err(Refusal::Locked);
            }
            let rank = self.state().tried.get(&peer).copied().unwrap_or(0);
            Ok((mine, self.turns.take(rank).await))
        };
        let answer = match tokio::time::timeout(TURN_WAIT, turn).await {
            Err(_) => Err(Refusal::Busy),
            Ok(Err(why)) => Err(why),
            Ok(Ok(_turns)) if self.locked(peer) => Err(Refusal::Locked),
            Ok(Ok(_turns)) => {
                let wait = self.state().take_check(Instant::now());
                // A check given back if this code goes before it is checked
                // (its client gone): no check, no count.
                let mut reserved = Reserved(self, true);
                tokio::time::sleep(wait).await;
                reserved.1 = false;
                self.check(peer, address, code)
            }
        };
        let mut p = self
            .peers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // The map's and ours: nobody else waits for this peer's turn.
        if Arc::strong_count(&mine) == 2 {
            p.remove(&peer);
        }
        answer
    }

    fn locked(&self, peer: Peer) -> bool {
        self.state().wrong.get(&peer).copied().unwrap_or(0) >= MAX_WRONG
    }

    /// A code checked now (its turn taken).
    fn check(&self, peer: Peer, address: IpAddr, code: &str) -> Result<(Color, String), Refusal> {
        let token = random_bytes(16)
            .map(|b| b.iter().map(|x| format!("{x:02x}")).collect::<String>())
            .map_err(|_| Refusal::Wrong)?;
        let mut st = self.state();
        let now = Instant::now();
        st.pending.retain(|p| p.until > now);
        let Some(i) = st.pending.iter().position(|p| p.code == code.trim()) else {
            let crowd = Peer(IpAddr::from([0u8; 16]));
            let key = if st.wrong.len() >= MAX_PEERS && !st.wrong.contains_key(&peer) {
                crowd
            } else {
                peer
            };
            let tried = if st.tried.len() >= MAX_PEERS && !st.tried.contains_key(&peer) {
                crowd
            } else {
                peer
            };
            *st.tried.entry(tried).or_default() += 1;
            let n = st.wrong.entry(key).or_default();
            *n += 1;
            return Err(if *n >= MAX_WRONG {
                Refusal::Locked
            } else {
                Refusal::Wrong
            });
        };
        let side = st.pending.remove(i).side;
        if st.sessions.len() >= MAX_SESSIONS {
            // The oldest of this side's go first; else the oldest.
            let old = st
                .sessions
                .iter()
                .filter(|(_, d)| d.side == side)
                .min_by_key(|(_, d)| d.since)
                .or_else(|| st.sessions.iter().min_by_key(|(_, d)| d.since))
                .map(|(t, _)| t.clone());
            if let Some(t) = old {
                st.sessions.remove(&t);
            }
        }
        let device = Session {
            side,
            address,
            since: SystemTime::now(),
        };
        st.sessions.insert(token.clone(), device);
        Ok((side, token))
    }

    /// The side of a session token.
    #[must_use]
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        self.state().sessions.get(token).map(|d| d.side)
    }

    /// The pages' address.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }
}

// --- Who is paired: the hook the session journals and says each pairing
// and unpairing through, and `tandem ctl devices` (issue 45). Apart from
// the codes' checking above.

/// A paired device: `tandem ctl devices --json` lists these (exact).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Device {
    /// Whose seat it is.
    pub seat: Color,
    /// Its address as the table saw it when it paired (IP and port).
    pub address: String,
    /// When it paired (UTC, RFC 3339).
    pub since: String,
}

/// Each seat's devices, as `tandem ctl devices --json` prints them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BySeat {
    /// White's devices, oldest first.
    pub white: Vec<Device>,
    /// Black's.
    pub black: Vec<Device>,
}

/// `list` by seat.
#[must_use]
pub fn by_seat(list: &[Device]) -> BySeat {
    let of = |side: Color| list.iter().filter(|d| d.seat == side).cloned().collect();
    BySeat {
        white: of(Color::White),
        black: of(Color::Black),
    }
}

/// Tells `session` every pairing and unpairing from now on, as tandem's
/// own [`Cmd::Device`](crate::session::Cmd::Device): journaled (`paired`,
/// `unpaired`), said to that seat, shown on the screen. Spawns a task on
/// the current tokio runtime.
pub fn tell_session(pairing: &Pairing, session: crate::session::SessionHandle) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<DeviceChange>();
    *pairing
        .hook
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tx);
    tokio::spawn(async move {
        while let Some(change) = rx.recv().await {
            let cmd = crate::session::Cmd::Device(change);
            if session
                .request(cmd, crate::journal::Source::Tandem)
                .await
                .is_err()
            {
                return;
            }
        }
    });
}

use crate::session::DeviceChange;

impl Pairing {
    fn tell(&self, change: DeviceChange) {
        let hook = self
            .hook
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(tx) = hook.as_ref() {
            let _ = tx.send(change);
        }
    }

    /// The session `token` (just redeemed) is a device at `address`: kept
    /// for `tandem ctl devices` and told through the hook.
    pub fn paired_from(&self, token: &str, address: String) {
        let mut st = self.state();
        let Some(seat) = st.sessions.get(token).map(|d| d.side) else {
            return;
        };
        // Sessions pushed out by a newer one (`MAX_SESSIONS`) are gone too.
        let State { sessions, seen, .. } = &mut *st;
        seen.retain(|t, _| sessions.contains_key(t));
        let d = Device {
            seat,
            address: address.clone(),
            since: crate::journal::wall_now(),
        };
        st.seen.insert(token.to_owned(), d);
        drop(st);
        self.tell(DeviceChange {
            side: seat,
            address,
            paired: true,
        });
    }

    /// The paired devices, white's first, each seat's oldest first.
    #[must_use]
    pub fn devices(&self) -> Vec<Device> {
        let st = self.state();
        let mut v: Vec<Device> = st
            .seen
            .iter()
            .filter(|(t, _)| st.sessions.contains_key(*t))
            .map(|(_, d)| d.clone())
            .collect();
        v.sort_by(|a, b| {
            (a.seat == Color::Black, &a.since).cmp(&(b.seat == Color::Black, &b.since))
        });
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[tokio::test]
    async fn each_pairing_and_unpairing_is_told_and_listed_with_its_address() {
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        *p.hook.lock().unwrap() = Some(tx);
        let code = p.pair(Color::Black).unwrap().code;
        let (_, token) = p.redeem_from(ip("10.0.0.7"), &code).await.unwrap();
        p.paired_from(&token, "10.0.0.7:5123".into());
        let told = rx.try_recv().unwrap();
        assert_eq!(
            (told.side, told.address.as_str(), told.paired),
            (Color::Black, "10.0.0.7:5123", true)
        );
        let list = p.devices();
        assert_eq!(list.len(), 1);
        assert_eq!(
            (list[0].seat, list[0].address.as_str()),
            (Color::Black, "10.0.0.7:5123")
        );
        // Unpairing the other side ends nothing and tells nothing.
        p.unpair(Color::White);
        assert!(rx.try_recv().is_err());
        p.unpair(Color::Black);
        let told = rx.try_recv().unwrap();
        assert_eq!(
            (told.address.as_str(), told.paired),
            ("10.0.0.7:5123", false)
        );
        assert!(p.devices().is_empty());
        assert_eq!(p.seat_of(&token), None);
    }

    #[tokio::test]
    async fn a_code_pairs_once_for_its_side() {
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let w = p.pair(Color::White).unwrap();
        assert_eq!(w.code.len(), 6);
        assert!(w.code.bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(w.expires_ms, 120_000);
        let me = ip("10.0.0.2");
        let (side, token) = p.redeem_from(me, &w.code).await.unwrap();
        assert_eq!(side, Color::White);
        assert_eq!(token.len(), 32, "128 bits in hex");
        assert_eq!(p.seat_of(&token), Some(Color::White));
        let again = p.redeem_from(me, &w.code).await;
        assert_eq!(again, Err(Refusal::Wrong), "used once");
        p.unpair(Color::White);
        assert_eq!(p.seat_of(&token), None);
        assert!(p.devices().is_empty());
    }

    /// docs/devices.md: a peer is refused after 10 wrong codes, the 10th
    /// answered so; not after 9; another peer is not.
    #[tokio::test]
    async fn a_peer_is_locked_at_its_tenth_wrong_code_and_only_that_peer() {
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let (a, b) = (ip("10.0.0.2"), ip("10.0.0.3"));
        let code = p.pair(Color::Black).unwrap().code;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for i in 1..=9 {
            assert_eq!(p.redeem_from(a, wrong).await, Err(Refusal::Wrong), "{i}");
        }
        assert_eq!(p.redeem_from(a, wrong).await, Err(Refusal::Locked));
        assert_eq!(
            p.redeem_from(a, &code).await,
            Err(Refusal::Locked),
            "even the right one"
        );
        assert_eq!(p.redeem_from(b, &code).await.unwrap().0, Color::Black);
        // A new code starts every count again: nine wrong ones lock nothing.
        let code = p.pair(Color::Black).unwrap().code;
        for _ in 0..9 {
            assert_eq!(p.redeem_from(a, wrong).await, Err(Refusal::Wrong));
        }
        assert_eq!(p.redeem_from(a, &code).await.unwrap().0, Color::Black);
    }

    #[tokio::test]
    async fn an_ipv6_64_network_is_one_peer() {
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let code = p.pair(Color::White).unwrap().code;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for i in 1..=10 {
            let from = ip(&format!("2001:db8:1:2:{i:x}::1"));
            assert_ne!(
                p.redeem_from(from, wrong).await,
                Ok((Color::White, String::new()))
            );
        }
        let same_64 = ip("2001:db8:1:2:ffff::9");
        assert_eq!(p.redeem_from(same_64, &code).await, Err(Refusal::Locked));
        let other_64 = ip("2001:db8:1:3::1");
        assert_eq!(
            p.redeem_from(other_64, &code).await.unwrap().0,
            Color::White
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_code_expires_after_its_two_minutes() {
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let code = p.pair(Color::White).unwrap().code;
        tokio::time::sleep(Duration::from_secs(119)).await;
        let code2 = p.pair(Color::Black).unwrap().code;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let me = ip("10.0.0.2");
        assert_eq!(
            p.redeem_from(me, &code).await,
            Err(Refusal::Wrong),
            "after 121 s"
        );
        assert_eq!(
            p.redeem_from(me, &code2).await.unwrap().0,
            Color::Black,
            "after 2 s"
        );
    }

    /// docs/devices.md: 30 checks at once, then one every 2 s: at most 90
    /// in a code's 120 s, a chance below 1 in 10,000 at a code of 10^6.
    #[tokio::test(start_paused = true)]
    async fn a_codes_life_holds_at_most_ninety_checks() {
        let p = Arc::new(Pairing::new("http://127.0.0.1:1/".into()));
        let code = p.pair(Color::White).unwrap().code;
        let t0 = tokio::time::Instant::now();
        let mut checked = 0u32;
        let mut n = 0u32;
        // Guessers on 1,000 addresses, ten codes each (the lock's count).
        'guess: for host in 0..1000u32 {
            let from = IpAddr::from([10, 1, (host >> 8) as u8, host as u8]);
            for _ in 0..10 {
                n = (n + 1) % 1_000_000;
                let guess = format!("{n:06}");
                if guess == code {
                    continue;
                }
                let _ = p.redeem_from(from, &guess).await;
                if t0.elapsed() > Duration::from_secs(120) {
                    break 'guess;
                }
                checked += 1;
            }
        }
        assert!(checked <= 90, "{checked} checks in a code's life");
        assert!(checked >= 85, "{checked}: the pace is 2 s");
        assert!(f64::from(checked) / 1e6 < 1.0 / 10_000.0);
    }

    /// Whoever else sends codes, the player's code (none wrong) waits for
    /// the code being checked at most, not for the others' waiting.
    #[tokio::test(start_paused = true)]
    async fn other_peers_codes_do_not_keep_the_player_from_pairing() {
        let p = Arc::new(Pairing::new("http://127.0.0.1:1/".into()));
        // Five hosts sending wrong codes without end, four at once each.
        let mut guessers = Vec::new();
        for host in 2..=6u8 {
            for k in 0..4u32 {
                let p = p.clone();
                guessers.push(tokio::spawn(async move {
                    let from = IpAddr::from([10, 0, 0, host]);
                    for i in 0..100_000u32 {
                        let _ = p
                            .redeem_from(from, &format!("{:06}", k * 100_000 + i))
                            .await;
                        // The page's answer to a wrong code waits a second.
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }));
            }
        }
        for _ in 0..3 {
            tokio::time::sleep(Duration::from_secs(5)).await;
            let code = p.pair(Color::White).unwrap().code;
            // The player types it while the others go on.
            tokio::time::sleep(Duration::from_secs(3)).await;
            let t = tokio::time::Instant::now();
            let r = p.redeem_from(ip("10.0.0.9"), &code).await;
            assert_eq!(r.map(|(s, _)| s), Ok(Color::White));
            // The code being checked, then the player's own.
            assert!(t.elapsed() <= PACE * 2, "{:?}", t.elapsed());
        }
        for g in guessers {
            g.abort();
        }
    }
}
