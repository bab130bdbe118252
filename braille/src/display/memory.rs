//! An in-memory display for unit tests: records what is written, plays back
//! keys, and can be "unplugged" to test that the game goes on.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::cell::Cell;
use crate::display::{BrailleDisplay, DisplayError, Geometry};
use crate::line::BrailleLine;
use crate::ui::Key;

#[derive(Default)]
struct State {
    writes: Vec<Vec<Cell>>,
    text: Vec<String>,
    keys: VecDeque<Key>,
    unplugged: bool,
    /// Its driver's, told of every key pressed and every (un)plugging.
    wake: Option<crate::display::Wake>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("writes", &self.writes.len())
            .field("keys", &self.keys)
            .field("unplugged", &self.unplugged)
            .finish_non_exhaustive()
    }
}

/// Tells the driver, outside the lock.
fn wake(m: &Mutex<State>) {
    let w = lock(m).wake.clone();
    if let Some(w) = w {
        w();
    }
}

/// A display that keeps every write. Clone the [`MemoryHandle`] to inspect it
/// and press keys from another thread.
#[derive(Debug)]
pub struct MemoryDisplay {
    geometry: Geometry,
    state: Arc<Mutex<State>>,
}

/// The test's side of a [`MemoryDisplay`].
#[derive(Debug, Clone)]
pub struct MemoryHandle {
    state: Arc<Mutex<State>>,
    width: usize,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    // A panic while holding the lock can only come from a failing test; the
    // state is plain data and still usable.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl MemoryDisplay {
    /// A one-line display `width` cells wide, and its handle.
    #[must_use]
    pub fn new(width: usize) -> (MemoryDisplay, MemoryHandle) {
        let state = Arc::new(Mutex::new(State::default()));
        (
            MemoryDisplay {
                geometry: Geometry { width, height: 1 },
                state: Arc::clone(&state),
            },
            MemoryHandle { state, width },
        )
    }
}

impl MemoryHandle {
    /// Queues a key press.
    pub fn press(&self, key: Key) {
        lock(&self.state).keys.push_back(key);
        wake(&self.state);
    }

    /// The cells written last (padded to the width), if any.
    #[must_use]
    pub fn cells(&self) -> Option<Vec<Cell>> {
        lock(&self.state).writes.last().cloned()
    }

    /// The text written last (padded), if any.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        lock(&self.state).text.last().cloned()
    }

    /// How many writes succeeded.
    #[must_use]
    pub fn write_count(&self) -> usize {
        lock(&self.state).writes.len()
    }

    /// Simulates a display that vanished (`true`) or came back (`false`).
    pub fn set_unplugged(&self, unplugged: bool) {
        lock(&self.state).unplugged = unplugged;
        wake(&self.state);
    }

    /// The display's width.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }
}

impl BrailleDisplay for MemoryDisplay {
    fn geometry(&self) -> Result<Geometry, DisplayError> {
        if lock(&self.state).unplugged {
            return Err(DisplayError::Disconnected(
                "memory display unplugged".into(),
            ));
        }
        Ok(self.geometry)
    }

    fn write(&mut self, line: &BrailleLine) -> Result<(), DisplayError> {
        let mut s = lock(&self.state);
        if s.unplugged {
            return Err(DisplayError::Disconnected(
                "memory display unplugged".into(),
            ));
        }
        s.writes.push(line.cells_padded(self.geometry.width));
        s.text.push(line.text_padded(self.geometry.width));
        Ok(())
    }

    fn read_key(&mut self, timeout: Duration) -> Result<Option<Key>, DisplayError> {
        {
            let mut s = lock(&self.state);
            if s.unplugged {
                return Err(DisplayError::Disconnected(
                    "memory display unplugged".into(),
                ));
            }
            if let Some(k) = s.keys.pop_front() {
                return Ok(Some(k));
            }
        }
        // Keys are pushed by the test; a short sleep stands for the wait.
        std::thread::sleep(timeout.min(Duration::from_millis(1)));
        Ok(lock(&self.state).keys.pop_front())
    }

    fn wake_on_change(&mut self, wake: crate::display::Wake) -> bool {
        lock(&self.state).wake = Some(wake);
        true
    }
}
