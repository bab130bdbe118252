//! Pairing a device to a seat: a one-time code of 6 digits, valid 2
//! minutes, made by the operator (`tandem ctl pair SIDE`); a device that
//! gives it gets a session (a random 128-bit token) that stays that side's
//! seat until the operator unpairs it or the daemon stops. Wrong codes are
//! counted: after [`MAX_WRONG`] every pending code is void until the
//! operator makes a new one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use tandem_rules::Color;

/// How long a code is good for.
pub const CODE_LIFE: Duration = Duration::from_secs(120);

/// Wrong codes before pairing is refused until a new code.
pub const MAX_WRONG: u32 = 10;

/// Sessions at most (each pairing makes one; unpairing ends its side's).
pub const MAX_SESSIONS: usize = 16;

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

#[derive(Debug)]
struct Pending {
    code: String,
    side: Color,
    until: Instant,
}

#[derive(Debug, Default)]
struct State {
    pending: Vec<Pending>,
    wrong: u32,
    sessions: HashMap<String, Color>,
}

/// Why a code was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a pending code (or expired).
    Wrong,
    /// Too many wrong codes: the operator must make a new one.
    Locked,
}

/// The table's pairings.
#[derive(Debug)]
pub struct Pairing {
    state: Mutex<State>,
    url: String,
    fingerprint: Option<String>,
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

impl Pairing {
    /// Pairings for the pages at `url`.
    #[must_use]
    pub fn new(url: String) -> Pairing {
        Pairing {
            state: Mutex::new(State::default()),
            url,
            fingerprint: None,
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

    /// A new code for `side` (an earlier one of that side is void); the
    /// count of wrong codes starts again.
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
            until: Instant::now() + CODE_LIFE,
        });
        st.wrong = 0;
        Ok(PairCode {
            code,
            url: self.url.clone(),
            expires_ms: CODE_LIFE.as_millis() as u64,
        })
    }

    /// Ends `side`'s sessions and its pending code.
    pub fn unpair(&self, side: Color) {
        let mut st = self.state();
        st.pending.retain(|p| p.side != side);
        st.sessions.retain(|_, s| *s != side);
    }

    /// A device's code: its side and a new session token, once.
    ///
    /// # Errors
    /// A wrong or expired code, or pairing locked after too many.
    pub fn redeem(&self, code: &str) -> Result<(Color, String), Refusal> {
        let token = random_bytes(16)
            .map(|b| b.iter().map(|x| format!("{x:02x}")).collect::<String>())
            .map_err(|_| Refusal::Wrong)?;
        let mut st = self.state();
        if st.wrong >= MAX_WRONG {
            return Err(Refusal::Locked);
        }
        let now = Instant::now();
        st.pending.retain(|p| p.until > now);
        let Some(i) = st.pending.iter().position(|p| p.code == code.trim()) else {
            st.wrong += 1;
            return Err(if st.wrong >= MAX_WRONG {
                Refusal::Locked
            } else {
                Refusal::Wrong
            });
        };
        let side = st.pending.remove(i).side;
        if st.sessions.len() >= MAX_SESSIONS {
            // The oldest of this side's go first; else any.
            let old = st
                .sessions
                .iter()
                .find(|(_, s)| **s == side)
                .or_else(|| st.sessions.iter().next())
                .map(|(t, _)| t.clone());
            if let Some(t) = old {
                st.sessions.remove(&t);
            }
        }
        st.sessions.insert(token.clone(), side);
        Ok((side, token))
    }

    /// The side of a session token.
    #[must_use]
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        self.state().sessions.get(token).copied()
    }

    /// The pages' address.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// How many wrong codes since the last new one.
    #[must_use]
    pub fn wrong(&self) -> u32 {
        self.state().wrong
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_pairs_once_for_its_side_and_wrong_ones_lock_it() {
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let w = p.pair(Color::White).unwrap();
        assert_eq!(w.code.len(), 6);
        assert!(w.code.bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(w.expires_ms, 120_000);
        let (side, token) = p.redeem(&w.code).unwrap();
        assert_eq!(side, Color::White);
        assert_eq!(token.len(), 32, "128 bits in hex");
        assert_eq!(p.seat_of(&token), Some(Color::White));
        assert_eq!(p.redeem(&w.code), Err(Refusal::Wrong), "used once");
        let b = p.pair(Color::Black).unwrap();
        for _ in 0..MAX_WRONG - 1 {
            assert_eq!(p.redeem("x"), Err(Refusal::Wrong));
        }
        assert_eq!(p.redeem("x"), Err(Refusal::Locked));
        assert_eq!(
            p.redeem(&b.code),
            Err(Refusal::Locked),
            "even the right one"
        );
        let b = p.pair(Color::Black).unwrap();
        assert_eq!(p.redeem(&b.code).unwrap().0, Color::Black);
        p.unpair(Color::White);
        assert_eq!(p.seat_of(&token), None);
    }
}
