//! The arbiter's tools run for the desk's pages (`/api/tables/N/detail`,
//! `/api/tables/N/reconcile`): `tandem arbiter …` (this binary) as a child
//! process, bounded: at most [`Tools::running`] at once (the others wait
//! their turn, within the time limit), each stopped (killed) when it runs
//! past the time limit, and a record to reconcile handed over in a private
//! temporary file (a random name made with `O_EXCL`, mode 0600, removed
//! after), never a name another user of the machine could guess.

use std::ffi::OsString;
use std::io::Write as _;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

/// The most a report may print that the desk keeps (the rest is cut).
const MAX_REPORT: usize = 1 << 20;

/// The desk's runner of `tandem arbiter`.
pub struct Tools {
    running: Arc<Semaphore>,
    /// Its children alive now, the most ever alive at once, and how many
    /// were started (`arbiters` in `GET /api/stats`).
    alive: Arc<Alive>,
    /// At once, at most.
    pub at_once: usize,
    /// Waiting for a turn and running, at most.
    pub limit: Duration,
}

impl Default for Tools {
    /// `TANDEM_HALL_ARBITERS` at once (default 2), each within
    /// `TANDEM_HALL_ARBITER_TIMEOUT_MS` (default 20,000).
    fn default() -> Tools {
        let var = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|n: &u64| *n > 0)
                .unwrap_or(default)
        };
        let at_once = usize::try_from(var("TANDEM_HALL_ARBITERS", 2)).unwrap_or(2);
        Tools {
            running: Arc::new(Semaphore::new(at_once)),
            alive: Arc::default(),
            at_once,
            limit: Duration::from_millis(var("TANDEM_HALL_ARBITER_TIMEOUT_MS", 20_000)),
        }
    }
}

/// The desk's `tandem arbiter` children: alive now, the most alive at once
/// so far, and started so far.
#[derive(Default)]
struct Alive {
    now: AtomicUsize,
    most: AtomicUsize,
    started: AtomicU64,
}

/// One child counted alive from its start until it is reaped (its output
/// taken) or, stopped, until it is dropped (killed).
struct Counted(Arc<Alive>);

impl Counted {
    fn new(alive: &Arc<Alive>) -> Counted {
        let now = alive.now.fetch_add(1, Ordering::SeqCst) + 1;
        alive.most.fetch_max(now, Ordering::SeqCst);
        alive.started.fetch_add(1, Ordering::SeqCst);
        Counted(alive.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Tools {
    /// The `tandem arbiter` children started so far, and the most alive at
    /// once so far (`arbiters` in `GET /api/stats`).
    #[must_use]
    pub fn counts(&self) -> (u64, usize) {
        (
            self.alive.started.load(Ordering::SeqCst),
            self.alive.most.load(Ordering::SeqCst),
        )
    }

    /// Runs `tandem arbiter ARGS…` and returns what it printed, or says why not.
    pub async fn run(&self, args: Vec<OsString>) -> String {
        let limit = self.limit;
        let Ok(Ok(_turn)) = tokio::time::timeout(limit, self.running.acquire()).await else {
            return format!(
                "The desk is busy with other reports (at most {} at once): none came free within {limit:?}; try again.",
                self.at_once
            );
        };
        let exe = std::env::current_exe().unwrap_or_else(|_| "tandem".into());
        let child = tokio::process::Command::new(exe)
            .arg("arbiter")
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Dropped on the time limit (or with the request): killed, and reaped by tokio.
            .kill_on_drop(true)
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => return format!("tandem arbiter could not run: {e}"),
        };
        // Dropped last, after the wait (and the child in it): counted alive
        // until it is reaped or killed.
        let _alive = Counted::new(&self.alive);
        match tokio::time::timeout(limit, child.wait_with_output()).await {
            Ok(Ok(o)) => {
                let mut s = String::from_utf8_lossy(&o.stdout).into_owned();
                s.push_str(&String::from_utf8_lossy(&o.stderr));
                if s.len() > MAX_REPORT {
                    s = super::store::cut(&s, MAX_REPORT);
                    s.push_str("\n(cut: the report is longer)\n");
                }
                s
            }
            Ok(Err(e)) => format!("tandem arbiter could not run: {e}"),
            Err(_) => format!("tandem arbiter took longer than {limit:?} and was stopped."),
        }
    }

    /// Runs `tandem arbiter reconcile JOURNAL RECORD --lang en` with
    /// `record` in a private temporary file (removed after).
    pub async fn reconcile(&self, journal: &std::path::Path, record: &[u8]) -> String {
        let file = tempfile::Builder::new()
            .prefix("tandem-hall-record-")
            .suffix(".txt")
            .tempfile()
            .and_then(|mut f| {
                f.write_all(record)?;
                f.flush()?;
                Ok(f)
            });
        let file = match file {
            Ok(f) => f,
            Err(e) => return format!("The desk cannot keep the record to compare: {e}"),
        };
        let report = self
            .run(vec![
                "reconcile".into(),
                journal.into(),
                file.path().into(),
                "--lang".into(),
                "en".into(),
            ])
            .await;
        drop(file);
        report
    }
}
