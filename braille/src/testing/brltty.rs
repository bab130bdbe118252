//! A private BRLTTY whose braille display is played by the test.
//!
//! BRLTTY's Virtual driver (`-b vr -d client:SOCKET`) connects as a client to
//! a Unix socket the fixture serves. The fixture tells it the display size
//! (`cells 40`), receives every update (`Visual "text"` and
//! `Braille "1245|36|…"`, the dots of each cell) and presses keys by writing
//! BRLTTY command names (`ROUTE 5`, `LNDN`, `FWINRT`, `KEY_ENTER`).
//!
//! Each instance gets a temp dir, its own BrlAPI socket (`host=:N`, socket
//! `/var/lib/BrlAPI/N`) with `auth=none`, and BRLTTY's `en-nabcc` text table,
//! so text written through BrlAPI shows exactly tandem's own NABCC cells.
//! Clients connect with [`VirtualBrltty::host`].
//!
//! ```no_run
//! use std::time::Duration;
//! use tandem_braille::testing::brltty::VirtualBrltty;
//! let mut b = VirtualBrltty::start(40).expect("brltty");
//! println!("BRLAPI_HOST={}", b.host());
//! b.press("ROUTE 3").unwrap();
//! b.restart().unwrap();
//! let shown = b.wait_for(Duration::from_secs(5), |s| s.text.starts_with("W ")).unwrap();
//! println!("{}", shown.text);
//! ```

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::cell::Cell;
use crate::keymap::brltty_command_name;
use crate::ui::Key;

/// Where BrlAPI puts its sockets (compiled into libbrlapi and BRLTTY).
pub const BRLAPI_SOCKET_DIR: &str = "/var/lib/BrlAPI";

/// What the virtual display shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VrState {
    /// The text BRLTTY reports (`Visual`), one character per cell.
    pub text: String,
    /// The dots of every cell (`Braille`).
    pub cells: Vec<Cell>,
    /// Updates received since the fixture started.
    pub updates: u64,
    /// Whether a BRLTTY is connected to the display socket.
    pub connected: bool,
}

/// Why the fixture failed.
#[derive(Debug)]
pub enum FixtureError {
    /// BRLTTY is not installed or did not start.
    Brltty(String),
    /// A socket or file operation failed.
    Io(std::io::Error),
    /// The display did not reach the awaited state.
    Timeout(String),
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixtureError::Brltty(m) => write!(f, "brltty: {m}"),
            FixtureError::Io(e) => write!(f, "virtual display: {e}"),
            FixtureError::Timeout(m) => write!(f, "timed out: {m}"),
        }
    }
}

impl std::error::Error for FixtureError {}

impl From<std::io::Error> for FixtureError {
    fn from(e: std::io::Error) -> FixtureError {
        FixtureError::Io(e)
    }
}

type Shared = Arc<(Mutex<VrState>, Condvar)>;

fn lock(s: &Shared) -> MutexGuard<'_, VrState> {
    s.0.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A running private BRLTTY with a virtual display of `cells` cells.
#[derive(Debug)]
pub struct VirtualBrltty {
    dir: tempfile::TempDir,
    api: u32,
    cells: usize,
    listener: UnixListener,
    child: Option<Child>,
    shared: Shared,
    stream: Option<UnixStream>,
    reader: Option<JoinHandle<()>>,
    last_press: Mutex<Option<Instant>>,
}

/// The time between two key presses sent to the `vr` driver.
pub const PRESS_GAP: Duration = Duration::from_millis(40);

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// The `brltty` binary: `$BRLTTY`, else the usual places, else `brltty` on PATH.
#[must_use]
pub fn brltty_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("BRLTTY") {
        return p.into();
    }
    for p in [
        "/usr/bin/brltty",
        "/usr/sbin/brltty",
        "/bin/brltty",
        "/sbin/brltty",
    ] {
        if Path::new(p).exists() {
            return p.into();
        }
    }
    "brltty".into()
}

/// A BrlAPI host number no other instance uses now.
fn free_api_number() -> u32 {
    let pid = std::process::id();
    loop {
        let k = COUNTER.fetch_add(1, Ordering::SeqCst);
        let n = 100 + (pid.wrapping_mul(7919).wrapping_add(k.wrapping_mul(104_729))) % 30_000;
        let sock = Path::new(BRLAPI_SOCKET_DIR).join(n.to_string());
        if !sock.exists() {
            return n;
        }
    }
}

/// Parses a quoted `vr` value: `"text"` with `\` escapes.
fn unquote(s: &str) -> String {
    let s = s.trim();
    let s = s.strip_prefix('"').unwrap_or(s);
    let s = s.strip_suffix('"').unwrap_or(s);
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses `1245|36| |…` into cells.
#[must_use]
pub fn parse_braille(s: &str) -> Vec<Cell> {
    unquote(s)
        .split('|')
        .map(|part| {
            Cell::from_dots(
                &part
                    .bytes()
                    .filter(u8::is_ascii_digit)
                    .map(|b| b - b'0')
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

impl VirtualBrltty {
    /// Starts BRLTTY with a virtual display `cells` wide and waits until its
    /// BrlAPI socket accepts clients.
    pub fn start(cells: usize) -> Result<VirtualBrltty, FixtureError> {
        let dir = tempfile::Builder::new()
            .prefix("tandem-brltty-")
            .tempdir()?;
        let listener = UnixListener::bind(dir.path().join("vr.sock"))?;
        let mut b = VirtualBrltty {
            dir,
            api: free_api_number(),
            cells,
            listener,
            child: None,
            shared: Arc::new((Mutex::new(VrState::default()), Condvar::new())),
            stream: None,
            reader: None,
            last_press: Mutex::new(None),
        };
        b.launch()?;
        Ok(b)
    }

    /// The BrlAPI host to connect to (`:N`), as `BRLAPI_HOST` takes it.
    #[must_use]
    pub fn host(&self) -> String {
        format!(":{}", self.api)
    }

    /// The BrlAPI socket of this instance.
    #[must_use]
    pub fn api_socket(&self) -> PathBuf {
        Path::new(BRLAPI_SOCKET_DIR).join(self.api.to_string())
    }

    /// The display's width.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// BRLTTY's log (stdout and stderr).
    #[must_use]
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("brltty.log")).unwrap_or_default()
    }

    /// Whether BRLTTY is running.
    #[must_use]
    pub fn is_running(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }

    /// What the display shows now.
    #[must_use]
    pub fn snapshot(&self) -> VrState {
        lock(&self.shared).clone()
    }

    /// Waits until `pred` holds for the display, and returns that state.
    pub fn wait_for(
        &self,
        timeout: Duration,
        pred: impl Fn(&VrState) -> bool,
    ) -> Result<VrState, FixtureError> {
        let deadline = Instant::now() + timeout;
        let mut st = lock(&self.shared);
        loop {
            if pred(&st) {
                return Ok(st.clone());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(FixtureError::Timeout(format!(
                    "display shows {:?} ({} updates); brltty log:\n{}",
                    st.text,
                    st.updates,
                    self.log()
                )));
            }
            st = self
                .shared
                .1
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Waits until the display shows exactly `cells` (padded with blanks).
    pub fn wait_for_cells(
        &self,
        cells: &[Cell],
        timeout: Duration,
    ) -> Result<VrState, FixtureError> {
        let mut want = cells.to_vec();
        want.resize(self.cells, Cell::BLANK);
        self.wait_for(timeout, |s| s.cells == want)
    }

    /// Presses a key by its BRLTTY command name (`ROUTE 5`, `LNDN`, `FWINRT`,
    /// `DISPMD`, `KEY_ENTER`…).
    ///
    /// Presses are paced [`PRESS_GAP`] apart: the `vr` driver takes one
    /// command per read, so lines sent together would be lost.
    pub fn press(&self, command: &str) -> Result<(), FixtureError> {
        let mut last = self
            .last_press
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(t) = *last {
            let since = t.elapsed();
            if since < PRESS_GAP {
                std::thread::sleep(PRESS_GAP - since);
            }
        }
        let mut s = self
            .stream
            .as_ref()
            .ok_or_else(|| FixtureError::Brltty("not connected".into()))?;
        s.write_all(format!("{command}\n").as_bytes())?;
        *last = Some(Instant::now());
        Ok(())
    }

    /// Presses the display key BRLTTY maps to `key` (see [`crate::keymap`]).
    pub fn press_key(&self, key: Key) -> Result<(), FixtureError> {
        match key {
            Key::Routing(n) => self.route(n.into()),
            k => self.press(&brltty_command_name(k)),
        }
    }

    /// Presses the routing key over cell `n` (0-based, as BrlAPI reports it).
    ///
    /// BRLTTY 6.5's `vr` driver passes the number through unchanged but
    /// rejects 0 ("Number out of range"), so the key over the first cell
    /// cannot be pressed through it: that is an error here, not a silent no-op.
    pub fn route(&self, n: usize) -> Result<(), FixtureError> {
        if n == 0 {
            return Err(FixtureError::Brltty(
                "the vr driver cannot press the routing key over cell 0".into(),
            ));
        }
        self.press(&format!("ROUTE {n}"))
    }

    /// Kills BRLTTY (SIGKILL) and removes its stale sockets, as after a crash.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(s) = self.stream.take() {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        self.remove_sockets();
    }

    /// Kills BRLTTY if it runs and starts it again on the same BrlAPI host.
    pub fn restart(&mut self) -> Result<(), FixtureError> {
        self.kill();
        self.launch()
    }

    fn remove_sockets(&self) {
        let _ = std::fs::remove_file(self.api_socket());
        let _ = std::fs::remove_file(Path::new(BRLAPI_SOCKET_DIR).join(format!(".{}", self.api)));
    }

    fn launch(&mut self) -> Result<(), FixtureError> {
        self.remove_sockets();
        std::fs::create_dir_all(BRLAPI_SOCKET_DIR)
            .map_err(|e| FixtureError::Brltty(format!("cannot create {BRLAPI_SOCKET_DIR}: {e}")))?;
        let d = self.dir.path();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(d.join("brltty.log"))?;
        let bin = brltty_binary();
        // The display side listens first: brltty ignores SIGTERM until a
        // display has connected. auth=none avoids polkit, which loops here.
        let child = Command::new(&bin)
            .args(["-n", "-e", "-q", "-f", "/dev/null"])
            .arg("-F")
            .arg(d.join("brltty.prefs"))
            .arg("-W")
            .arg(d)
            .arg("-U")
            .arg(d)
            .arg("-P")
            .arg(d.join("brltty.pid"))
            .args(["-b", "vr", "-d"])
            .arg(format!("client:{}", d.join("vr.sock").display()))
            .args(["-x", "no", "-s", "no", "-t", "en-nabcc", "-A"])
            .arg(format!("auth=none,host=:{}", self.api))
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .map_err(|e| {
                FixtureError::Brltty(format!(
                    "cannot run {}: {e} (install the Debian package brltty, or set BRLTTY=/path/to/brltty)",
                    bin.display()
                ))
            })?;
        self.child = Some(child);
        let stream = self.accept(Duration::from_secs(10))?;
        let mut w = stream.try_clone()?;
        w.write_all(format!("cells {}\n", self.cells).as_bytes())?;
        let reader_stream = stream.try_clone()?;
        self.stream = Some(stream);
        let shared = Arc::clone(&self.shared);
        lock(&shared).connected = true;
        self.reader = Some(std::thread::spawn(move || {
            read_updates(reader_stream, &shared)
        }));
        // Clients can connect once the BrlAPI socket exists.
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.api_socket().exists() {
            if Instant::now() >= deadline || !self.is_running() {
                return Err(FixtureError::Brltty(format!(
                    "BrlAPI socket {} did not appear; log:\n{}",
                    self.api_socket().display(),
                    self.log()
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    fn accept(&mut self, timeout: Duration) -> Result<UnixStream, FixtureError> {
        self.listener.set_nonblocking(true)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.listener.accept() {
                Ok((s, _)) => {
                    s.set_nonblocking(false)?;
                    return Ok(s);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if !self.is_running() {
                        return Err(FixtureError::Brltty(format!(
                            "brltty exited; log:\n{}",
                            self.log()
                        )));
                    }
                    if Instant::now() >= deadline {
                        return Err(FixtureError::Brltty(format!(
                            "brltty's vr driver did not connect; log:\n{}",
                            self.log()
                        )));
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
}

fn read_updates(stream: UnixStream, shared: &Shared) {
    let reader = BufReader::new(stream);
    // The driver sends `Visual` then `Braille` for each update: the state
    // changes once both are in, so text and cells always belong together.
    let mut visual = String::new();
    for line in reader.lines() {
        let Ok(line) = line else { break };
        if let Some(rest) = line.strip_prefix("Visual ") {
            visual = unquote(rest);
        } else if let Some(rest) = line.strip_prefix("Braille ") {
            let mut st = lock(shared);
            st.cells = parse_braille(rest);
            st.text = std::mem::take(&mut visual);
            st.updates += 1;
            drop(st);
            shared.1.notify_all();
        }
    }
    lock(shared).connected = false;
    shared.1.notify_all();
}

impl Drop for VirtualBrltty {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_vr_lines() {
        assert_eq!(
            parse_braille("\"1|12| |\""),
            vec![Cell(1), Cell(3), Cell(0), Cell(0)]
        );
        assert_eq!(unquote("\"a \\\"b\\\"\""), "a \"b\"");
    }
}
