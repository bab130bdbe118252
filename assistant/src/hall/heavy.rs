//! The heavy routes (`/api/round.pdn`, `/api/round.pgn`, `/api/results.csv`,
//! a table's `/api/tables/N/game`), built once per change and served from
//! that: every request asks for its route with a key that names what the
//! answer is made of (the tables shown, their games, lines and round);
//! requests with the key last built get that text (the same bytes, not a
//! copy); the first request with a new key builds it while the others with
//! that key wait for it; and at most [`builds`] are built at a time, on
//! blocking threads. A thousand spectators asking at once cost one build and
//! one copy of the answer, not a thousand.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::Bytes;
use sha2::{Digest, Sha256};
use tokio::sync::{OnceCell, Semaphore};

/// Which heavy route, and for which server (the public one shows fewer tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// `/api/round.pdn` or `/api/round.pgn` (the ending).
    Round(&'static str),
    /// `/api/results.csv`.
    Results,
    /// `/api/tables/N/game`.
    Game(u32),
}

/// What a build gives: the text, or why there is none (a status and words).
pub type Built = Result<Bytes, (u16, String)>;

/// One route's last build.
struct Slot {
    key: [u8; 32],
    cell: Arc<OnceCell<Built>>,
    used: Instant,
}

/// Routes kept built, at most (the least recently used goes first): a
/// table's game for each of that many tables.
const KEPT: usize = 256;

/// How many heavy answers may be built at once (`TANDEM_HALL_BUILDS`, default 2).
#[must_use]
pub fn builds() -> usize {
    std::env::var("TANDEM_HALL_BUILDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n: &usize| *n > 0)
        .unwrap_or(2)
}

/// The heavy routes' builds and what they built.
pub struct Heavy {
    building: Arc<Semaphore>,
    kept: Mutex<HashMap<(Route, bool), Slot>>,
    /// Answers built so far (`heavy_builds` in `GET /api/stats`).
    made: std::sync::atomic::AtomicU64,
}

impl Default for Heavy {
    fn default() -> Heavy {
        Heavy {
            building: Arc::new(Semaphore::new(builds())),
            kept: Mutex::new(HashMap::new()),
            made: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

/// A key made of what an answer is built from.
#[derive(Default)]
pub struct KeyOf(Sha256);

impl KeyOf {
    /// Adds a part (each part is framed by its length: parts never run together).
    pub fn part(&mut self, b: impl AsRef<[u8]>) -> &mut KeyOf {
        let b = b.as_ref();
        self.0.update((b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }

    fn done(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

impl Heavy {
    /// Answers built so far.
    #[must_use]
    pub fn made(&self) -> u64 {
        self.made.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The answer of `route` on the public server or not (`public`) for
    /// `key`: the one built for that key, or built now by `build` (on a
    /// blocking thread, at most [`builds`] at a time) while every other
    /// request for it waits.
    pub async fn get(
        &self,
        route: Route,
        public: bool,
        key: KeyOf,
        build: impl FnOnce() -> Built + Send + 'static,
    ) -> Built {
        let key = key.done();
        let cell = {
            let mut kept = self
                .kept
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let now = Instant::now();
            let slot = kept.entry((route, public)).or_insert_with(|| Slot {
                key,
                cell: Arc::new(OnceCell::new()),
                used: now,
            });
            if slot.key != key {
                // Changed: the old answer goes once its last reader has it.
                slot.key = key;
                slot.cell = Arc::new(OnceCell::new());
            }
            slot.used = now;
            let cell = slot.cell.clone();
            if kept.len() > KEPT {
                if let Some(oldest) = kept
                    .iter()
                    .filter(|(r, _)| **r != (route, public))
                    .min_by_key(|(_, s)| s.used)
                    .map(|(r, _)| *r)
                {
                    kept.remove(&oldest);
                }
            }
            cell
        };
        let building = self.building.clone();
        cell.get_or_init(|| async move {
            // The semaphore is never closed: a permit always comes.
            let Ok(_permit) = building.acquire_owned().await else {
                return Err((503, "the desk is stopping".to_owned()));
            };
            self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tokio::task::spawn_blocking(build)
                .await
                .unwrap_or_else(|e| Err((500, format!("the build failed: {e}"))))
        })
        .await
        .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_build_per_key_however_many_ask() {
        let heavy = Arc::new(Heavy::default());
        let built = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut asks = Vec::new();
        for _ in 0..50 {
            let (heavy, built) = (heavy.clone(), built.clone());
            asks.push(tokio::spawn(async move {
                let mut k = KeyOf::default();
                k.part("v1");
                heavy
                    .get(Route::Results, false, k, move || {
                        built.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        Ok(Bytes::from_static(b"text"))
                    })
                    .await
            }));
        }
        for a in asks {
            assert_eq!(a.await.unwrap().unwrap(), "text");
        }
        assert_eq!(built.load(std::sync::atomic::Ordering::SeqCst), 1);
        // A new key: built again; the public server's answer is its own.
        for public in [false, true] {
            let mut k = KeyOf::default();
            k.part("v2");
            heavy
                .get(Route::Results, public, k, || Ok(Bytes::new()))
                .await
                .unwrap();
        }
        assert_eq!(heavy.made(), 3);
    }
}
