//! A real braille display through BRLTTY's BrlAPI (the `brlapi` crate).
//!
//! A worker thread owns the BrlAPI connection. It connects, enters tty mode
//! and then writes whatever line is newest and passes keys back; when BRLTTY
//! goes away (restart, crash, display unplugged) the session ends, the
//! worker retries every [`BrlApiSettings::retry`], and on reconnection it
//! writes the last line again. The game never waits for it: [`write`] only
//! hands the line over, and reports [`DisplayError::Disconnected`] while
//! there is no display so the daemon can say so once.
//!
//! Text cells are written with BrlAPI's text call so the user's own braille
//! table applies; graphic cells as dots (`write_dots`); a line with both
//! (the graphic view) in one `brlapi__write` whose `orMask` adds the dots.
//!
//! [`write`]: BrailleDisplay::write

use std::collections::VecDeque;
use std::ffi::{c_int, c_void, CString};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use brlapi::settings::ConnectionSettings;
use brlapi::text::CursorPosition;
use brlapi::{Connection, TtyMode};

use crate::display::{BrailleDisplay, DisplayError, Geometry};
use crate::keymap;
use crate::line::{BrailleLine, CellKind};
use crate::ui::Key;

/// How to reach BRLTTY.
#[derive(Debug, Clone)]
pub struct BrlApiSettings {
    /// BrlAPI host, e.g. `:0` or `:47` (socket `/var/lib/BrlAPI/47`); `None`
    /// uses `BRLAPI_HOST` or BrlAPI's default.
    pub host: Option<String>,
    /// BrlAPI auth, e.g. `keyfile:/etc/brlapi.key` or `none`; `None` is the default.
    pub auth: Option<String>,
    /// Wait between reconnection attempts.
    pub retry: Duration,
    /// How long one connection attempt may take.
    pub connect_timeout: Duration,
    /// The tty to attach to; `None` lets BrlAPI choose (the root of the tty
    /// tree when tandem is not on a virtual console).
    pub tty: Option<i32>,
}

impl Default for BrlApiSettings {
    fn default() -> BrlApiSettings {
        BrlApiSettings {
            host: None,
            auth: None,
            retry: Duration::from_millis(250),
            connect_timeout: Duration::from_secs(2),
            tty: None,
        }
    }
}

/// What the worker and the game share.
#[derive(Debug, Default)]
struct State {
    /// The newest line and whether the display still lacks it.
    frame: Option<BrailleLine>,
    dirty: bool,
    geometry: Option<Geometry>,
    last_error: Option<String>,
    keys: VecDeque<Key>,
    shutdown: bool,
    /// Completed connections (1 after the first, 2 after one reconnection…).
    connections: u64,
    /// Lines written to BRLTTY.
    writes: u64,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when a frame is queued, a key arrives, or the state changes.
    cv: Condvar,
    /// The driver's, told when a key arrives or the display comes or goes.
    wake: Mutex<Option<crate::display::Wake>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl Shared {
    /// Tells the driver (a key came, the display came or went).
    fn wake_driver(&self) {
        let w = self
            .wake
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        if let Some(w) = w {
            w();
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The worker holds the lock only for plain field updates; a poisoned
        // lock still holds consistent data.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A braille display behind BRLTTY, reconnecting by itself.
#[derive(Debug)]
pub struct BrlApiDisplay {
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
}

/// Counts BrlAPI exceptions (asynchronous errors the server reports). The
/// default handler would abort the process; ours counts, and the session
/// that saw one reconnects.
static EXCEPTIONS: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" fn on_exception(
    _handle: *mut brlapi_sys::brlapi_handle_t,
    _error: c_int,
    _type: brlapi_sys::brlapi_packetType_t,
    _packet: *const c_void,
    _size: usize,
) {
    EXCEPTIONS.fetch_add(1, Ordering::SeqCst);
}

impl BrlApiDisplay {
    /// Starts the worker. It returns at once: the display may come later
    /// (BRLTTY still starting) and may go and come back at any time.
    #[must_use]
    pub fn start(settings: BrlApiSettings) -> BrlApiDisplay {
        let shared = Arc::new(Shared::default());
        let s2 = Arc::clone(&shared);
        let worker = std::thread::Builder::new()
            .name("tandem-brlapi".into())
            .spawn(move || worker(&s2, &settings))
            .map_err(|e| tracing::error!("cannot start the BrlAPI thread: {e}"))
            .ok();
        BrlApiDisplay { shared, worker }
    }

    /// Waits until a display is connected (for start-up and tests).
    pub fn wait_connected(&self, timeout: Duration) -> Result<Geometry, DisplayError> {
        let deadline = Instant::now() + timeout;
        let mut st = self.shared.lock();
        loop {
            if let Some(g) = st.geometry {
                return Ok(g);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(DisplayError::Disconnected(
                    st.last_error.clone().unwrap_or_else(|| "timed out".into()),
                ));
            }
            st = self
                .shared
                .cv
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Connections made so far (a reconnection makes it grow).
    #[must_use]
    pub fn connections(&self) -> u64 {
        self.shared.lock().connections
    }

    /// Lines written to BRLTTY so far.
    #[must_use]
    pub fn writes(&self) -> u64 {
        self.shared.lock().writes
    }

    /// Waits until the current line has been written to BRLTTY.
    pub fn flush(&self, timeout: Duration) -> Result<(), DisplayError> {
        let deadline = Instant::now() + timeout;
        let mut st = self.shared.lock();
        while st.dirty {
            let now = Instant::now();
            if now >= deadline {
                return Err(DisplayError::Disconnected(
                    st.last_error.clone().unwrap_or_else(|| "timed out".into()),
                ));
            }
            st = self
                .shared
                .cv
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        Ok(())
    }
}

impl Drop for BrlApiDisplay {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.cv.notify_all();
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

impl BrailleDisplay for BrlApiDisplay {
    fn geometry(&self) -> Result<Geometry, DisplayError> {
        let st = self.shared.lock();
        st.geometry
            .ok_or_else(|| DisplayError::Disconnected(st.last_error.clone().unwrap_or_default()))
    }

    fn write(&mut self, line: &BrailleLine) -> Result<(), DisplayError> {
        let mut st = self.shared.lock();
        if st.shutdown {
            return Err(DisplayError::Closed);
        }
        st.frame = Some(line.clone());
        st.dirty = true;
        let connected = st.geometry.is_some();
        let why = st.last_error.clone().unwrap_or_default();
        drop(st);
        self.shared.cv.notify_all();
        if connected {
            Ok(())
        } else {
            // Kept: it is written as soon as the display is back.
            Err(DisplayError::Disconnected(why))
        }
    }

    fn read_key(&mut self, timeout: Duration) -> Result<Option<Key>, DisplayError> {
        let deadline = Instant::now() + timeout;
        let mut st = self.shared.lock();
        loop {
            if let Some(k) = st.keys.pop_front() {
                return Ok(Some(k));
            }
            if st.shutdown {
                return Err(DisplayError::Closed);
            }
            let now = Instant::now();
            if now >= deadline {
                return if st.geometry.is_some() {
                    Ok(None)
                } else {
                    Err(DisplayError::Disconnected(
                        st.last_error.clone().unwrap_or_default(),
                    ))
                };
            }
            st = self
                .shared
                .cv
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn wake_on_change(&mut self, wake: crate::display::Wake) -> bool {
        *self
            .shared
            .wake
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(wake);
        true
    }
}

fn worker(shared: &Shared, settings: &BrlApiSettings) {
    loop {
        if shared.lock().shutdown {
            return;
        }
        let err = match session(shared, settings) {
            Ok(()) => return, // shut down
            Err(e) => e,
        };
        {
            let mut st = shared.lock();
            if st.geometry.take().is_some() {
                tracing::warn!("braille display lost: {err}");
            }
            st.last_error = Some(err);
            shared.cv.notify_all();
        }
        shared.wake_driver();
        let st = shared.lock();
        if st.shutdown {
            return;
        }
        // Sleep for the retry delay, waking early on shutdown.
        let _ = shared
            .cv
            .wait_timeout_while(st, settings.retry, |s| !s.shutdown);
    }
}

/// One connection's life: `Ok` on shutdown, `Err` when it broke.
fn session(shared: &Shared, settings: &BrlApiSettings) -> Result<(), String> {
    let mut cs = ConnectionSettings::new();
    if let Some(h) = &settings.host {
        cs.set_host(h.clone());
    }
    if let Some(a) = &settings.auth {
        cs.set_auth(a.clone());
    }
    cs.set_timeout(settings.connect_timeout);
    let conn = Connection::open_with_settings(Some(&cs))
        .map_err(|e| format!("connecting to BRLTTY: {e}"))?;
    // SAFETY: the handle is valid while `conn` lives, which outlives every use
    // here; the handler only touches an atomic counter and never unwinds.
    unsafe {
        brlapi_sys::brlapi__setExceptionHandler(conn.handle_ptr(), Some(on_exception));
    }
    let exceptions_before = EXCEPTIONS.load(Ordering::SeqCst);
    let (w, h) = conn
        .display_size()
        .map_err(|e| format!("reading the display size: {e}"))?;
    let geometry = Geometry {
        width: w as usize,
        height: (h as usize).max(1),
    };
    if geometry.width == 0 {
        return Err("BRLTTY has no display yet".into());
    }
    let tty = match settings.tty {
        Some(n) => TtyMode::with_tty(&conn, Some(n), None),
        None => TtyMode::with_path(&conn, &[], None),
    }
    .map_err(|e| format!("entering tty mode: {e}"))?;

    {
        let mut st = shared.lock();
        st.geometry = Some(geometry);
        st.connections += 1;
        st.last_error = None;
        // Whatever was shown before the break is shown again.
        st.dirty = st.frame.is_some();
        shared.cv.notify_all();
    }
    shared.wake_driver();
    tracing::info!(
        "braille display connected: {}x{} cells",
        geometry.width,
        geometry.height
    );

    let broken = AtomicBool::new(false);
    let why = Mutex::new(String::new());
    let fail = |msg: String| {
        if !broken.swap(true, Ordering::SeqCst) {
            *why.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = msg;
        }
        shared.cv.notify_all();
    };
    let result = std::thread::scope(|scope| {
        scope.spawn(|| read_keys(shared, &tty, &broken, &fail));
        loop {
            let mut st = shared.lock();
            while !st.dirty && !st.shutdown && !broken.load(Ordering::SeqCst) {
                st = shared
                    .cv
                    .wait_timeout(st, Duration::from_millis(200))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if EXCEPTIONS.load(Ordering::SeqCst) != exceptions_before {
                    break;
                }
            }
            if st.shutdown {
                broken.store(true, Ordering::SeqCst);
                return Ok(());
            }
            if broken.load(Ordering::SeqCst) {
                return Err(());
            }
            if EXCEPTIONS.load(Ordering::SeqCst) != exceptions_before {
                drop(st);
                fail("BrlAPI reported an error".into());
                return Err(());
            }
            let Some(frame) = st.frame.clone() else {
                st.dirty = false;
                continue;
            };
            drop(st);
            match write_line(&tty, &frame, geometry) {
                Ok(()) => {
                    let mut st = shared.lock();
                    if st.frame.as_ref() == Some(&frame) {
                        st.dirty = false;
                    }
                    st.writes += 1;
                    shared.cv.notify_all();
                }
                Err(e) => {
                    fail(format!("writing: {e}"));
                    return Err(());
                }
            }
        }
    });
    match result {
        Ok(()) => Ok(()),
        Err(()) => Err(why
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)),
    }
}

fn read_keys(shared: &Shared, tty: &TtyMode<'_>, broken: &AtomicBool, fail: &dyn Fn(String)) {
    while !broken.load(Ordering::SeqCst) {
        let mut code: brlapi_sys::brlapi_keyCode_t = 0;
        // SAFETY: the handle is valid for the whole session (the scope ends
        // before `tty` and the connection drop); `code` is a valid out pointer.
        // (`KeyReader::read_key_timeout` in brlapi 0.4.1 calls the global
        // function, which fails on a handle-based connection.)
        let r = unsafe {
            brlapi_sys::brlapi__readKeyWithTimeout(tty.connection().handle_ptr(), 100, &mut code)
        };
        match r {
            1 => {
                if let Some(k) = keymap::from_brlapi(code) {
                    shared.lock().keys.push_back(k);
                    shared.cv.notify_all();
                    shared.wake_driver();
                } else {
                    tracing::debug!("ignored braille key {code:#x}");
                }
            }
            0 => {}
            _ => {
                fail(format!(
                    "reading keys: {}",
                    brlapi::BrlApiError::from_brlapi_error()
                ));
                return;
            }
        }
    }
}

fn write_line(tty: &TtyMode<'_>, line: &BrailleLine, g: Geometry) -> Result<(), String> {
    let size = g.width * g.height;
    let all_graphic = !line.is_empty() && line.kinds().iter().all(|k| *k == CellKind::Graphic);
    if all_graphic {
        // write_dots needs exactly width x height cells.
        let dots: Vec<u8> = line.cells_padded(size).iter().map(|c| c.mask()).collect();
        return tty.writer().write_dots(&dots).map_err(|e| e.to_string());
    }
    let text = line.text_padded(size);
    if !line.has_overlay() {
        return tty
            .writer()
            .write_with_cursor(&text, CursorPosition::Off)
            .map_err(|e| e.to_string());
    }
    // Text and dots together: the text call with an orMask.
    let mut or_mask: Vec<u8> = line.overlay().iter().map(|c| c.mask()).collect();
    or_mask.resize(size, 0);
    or_mask.truncate(size);
    let c_text = CString::new(text.as_bytes()).map_err(|e| e.to_string())?;
    let charset = c"UTF-8";
    let args = brlapi_sys::brlapi_writeArguments_t {
        displayNumber: brlapi_sys::BRLAPI_DISPLAY_DEFAULT,
        regionBegin: 1,
        regionSize: c_int::try_from(size).map_err(|e| e.to_string())?,
        text: c_text.as_ptr(),
        textSize: c_int::try_from(text.len()).map_err(|e| e.to_string())?,
        andMask: std::ptr::null(),
        orMask: or_mask.as_ptr(),
        cursor: brlapi_sys::BRLAPI_CURSOR_OFF as c_int,
        charset: charset.as_ptr(),
    };
    // SAFETY: every pointer in `args` points into live buffers (`c_text`,
    // `or_mask`, a static C string) for the duration of the call; `text` has
    // `size` characters and `or_mask` `size` bytes, as regionSize says.
    let r = unsafe { brlapi_sys::brlapi__write(tty.connection().handle_ptr(), &args) };
    if r < 0 {
        return Err(brlapi::BrlApiError::from_brlapi_error().to_string());
    }
    Ok(())
}
