//! The display driver: a [`BrailleUi`] bound to a [`BrailleDisplay`].
//!
//! [`DisplayDriver`] is synchronous: the daemon calls
//! [`DisplayDriver::update_board`] (a [`Board`] of any game) when a move is
//! accepted and [`DisplayDriver::poll`] to take keys.
//! [`spawn`] runs one on its own thread, fed by a channel, so that a slow or
//! vanished display never holds up the game: display errors come back as
//! [`DriverEvent::Unavailable`] (once per outage) and the UI keeps its state;
//! the next successful write is reported as [`DriverEvent::Available`].

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::board::Board;
use crate::display::{BrailleDisplay, DisplayError};
use crate::ui::{Action, BrailleUi, Key};
use crate::view::{StatusInfo, View, Width};

/// A UI and the display it shows on.
#[derive(Debug)]
pub struct DisplayDriver<D: BrailleDisplay> {
    display: D,
    ui: BrailleUi,
}

impl<D: BrailleDisplay> DisplayDriver<D> {
    /// Binds a display showing `board` (a [`Board`] or a game's position);
    /// lines are rendered for its width (40 until it reports one).
    pub fn new(
        display: D,
        board: impl Into<Board>,
        status: StatusInfo,
        view: View,
    ) -> DisplayDriver<D> {
        DisplayDriver::with_board(display, board.into(), status, view)
    }

    /// Binds a display showing `board`; lines are rendered for its width
    /// (40 until it reports one).
    pub fn with_board(
        display: D,
        board: Board,
        status: StatusInfo,
        view: View,
    ) -> DisplayDriver<D> {
        let width = display
            .geometry()
            .map_or(Width::DEFAULT, |g| Width::clamped(g.width));
        DisplayDriver {
            display,
            ui: BrailleUi::with_board(board, status, view, width),
        }
    }

    /// The UI state.
    #[must_use]
    pub fn ui(&self) -> &BrailleUi {
        &self.ui
    }

    /// The display.
    #[must_use]
    pub fn display(&self) -> &D {
        &self.display
    }

    /// A move was accepted (or the clock or the boards changed): render and
    /// write `board` (a [`Board`] or a game's position).
    pub fn update(
        &mut self,
        board: impl Into<Board>,
        status: &StatusInfo,
    ) -> Result<(), DisplayError> {
        self.update_board(&board.into(), status)
    }

    /// As [`DisplayDriver::update`].
    pub fn update_board(&mut self, board: &Board, status: &StatusInfo) -> Result<(), DisplayError> {
        self.ui.update_board(board, status);
        self.redraw()
    }

    /// Shows a message until the next key.
    pub fn show_message(&mut self, text: &str) -> Result<(), DisplayError> {
        self.ui.show_message(text);
        self.redraw()
    }

    /// Writes the current line (after adapting to the display's width).
    pub fn redraw(&mut self) -> Result<(), DisplayError> {
        if let Ok(g) = self.display.geometry() {
            self.ui.set_width(Width::clamped(g.width));
        }
        self.display.write(&self.ui.current_line())
    }

    /// Handles a key as if pressed (and redraws if needed).
    pub fn press(&mut self, key: Key) -> Result<Vec<Action>, DisplayError> {
        let actions = self.ui.handle(key);
        if actions.contains(&Action::Redraw) {
            self.redraw()?;
        }
        Ok(actions)
    }

    /// Waits up to `timeout` for a key and handles it.
    pub fn poll(&mut self, timeout: Duration) -> Result<Vec<Action>, DisplayError> {
        match self.display.read_key(timeout)? {
            Some(k) => self.press(k),
            None => Ok(Vec::new()),
        }
    }
}

/// What the daemon sends to a spawned driver.
#[derive(Debug, Clone)]
pub enum DriverInput {
    /// A new board and status (a move accepted, a clock tick).
    Board {
        /// The board to show.
        board: Board,
        /// The status line's facts.
        status: StatusInfo,
    },
    /// The record and the review (issue 15): the moves in strict
    /// notation, whether black moved first, the review's ply (from 1) if open.
    Record {
        /// The moves, one a ply.
        moves: Vec<String>,
        /// The game's first move was black's.
        black_first: bool,
        /// The review's ply, if the review is open.
        review: Option<usize>,
    },
    /// A message to show until the next key.
    Message(String),
    /// The display has a key or changed (sent by the display itself, see
    /// [`BrailleDisplay::wake_on_change`]).
    Wake,
    /// Stop the driver thread.
    Shutdown,
}

/// What a spawned driver reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DriverEvent {
    /// A key gave an action (a move request, a command…).
    Action(Action),
    /// The display failed; reported once until it works again. The game goes on.
    Unavailable(DisplayError),
    /// The display works again after [`DriverEvent::Unavailable`].
    Available,
}

/// A running driver thread.
#[derive(Debug)]
pub struct DriverHandle {
    /// Send updates here.
    pub input: Sender<DriverInput>,
    /// Receive actions and display state changes here.
    pub events: Receiver<DriverEvent>,
    thread: Option<JoinHandle<()>>,
}

impl DriverHandle {
    /// Stops the thread and waits for it.
    pub fn shutdown(mut self) {
        let _ = self.input.send(DriverInput::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for DriverHandle {
    fn drop(&mut self) {
        let _ = self.input.send(DriverInput::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// How often a spawned driver looks for keys between updates, on a display
/// that cannot wake it ([`BrailleDisplay::wake_on_change`]).
pub const KEY_POLL: Duration = Duration::from_millis(10);

/// Runs `driver` on its own thread. Updates are written as soon as they
/// arrive; keys are taken when the display says it has one (it wakes the
/// thread), else looked for every [`KEY_POLL`]. With nothing to do, the
/// thread waits and never wakes.
pub fn spawn<D: BrailleDisplay + 'static>(
    mut driver: DisplayDriver<D>,
) -> std::io::Result<DriverHandle> {
    let (in_tx, in_rx) = mpsc::channel::<DriverInput>();
    let (ev_tx, ev_rx) = mpsc::channel::<DriverEvent>();
    let waker = in_tx.clone();
    let waits = driver.display.wake_on_change(std::sync::Arc::new(move || {
        let _ = waker.send(DriverInput::Wake);
    }));
    if waits {
        // A key pressed before the driver listened is taken at once.
        let _ = in_tx.send(DriverInput::Wake);
    }
    let thread = std::thread::Builder::new()
        .name("tandem-braille".into())
        .spawn(move || {
            let mut down = false;
            let mut report = |r: Result<(), DisplayError>, tx: &Sender<DriverEvent>| match r {
                Ok(()) if down => {
                    down = false;
                    let _ = tx.send(DriverEvent::Available);
                }
                Ok(()) => {}
                Err(e) if !down => {
                    down = true;
                    tracing::warn!("{e}");
                    let _ = tx.send(DriverEvent::Unavailable(e));
                }
                Err(_) => {}
            };
            let first = driver.redraw();
            report(first, &ev_tx);
            let mut geometry = driver.display.geometry().ok();
            loop {
                // A display that (re)appeared, perhaps with another width: redraw for it.
                let now = driver.display.geometry().ok();
                if now.is_some() && now != geometry {
                    let r = driver.redraw();
                    report(r, &ev_tx);
                }
                geometry = now;
                let next = if waits {
                    in_rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
                } else {
                    in_rx.recv_timeout(KEY_POLL)
                };
                match next {
                    Ok(DriverInput::Board { board, status }) => {
                        let r = driver.update_board(&board, &status);
                        report(r, &ev_tx);
                    }
                    Ok(DriverInput::Record {
                        moves,
                        black_first,
                        review,
                    }) => {
                        driver.ui.set_record(moves, black_first, review);
                        let r = driver.redraw();
                        report(r, &ev_tx);
                    }
                    Ok(DriverInput::Message(m)) => {
                        let r = driver.show_message(&m);
                        report(r, &ev_tx);
                    }
                    Ok(DriverInput::Shutdown) | Err(RecvTimeoutError::Disconnected) => return,
                    Ok(DriverInput::Wake) | Err(RecvTimeoutError::Timeout) => {}
                }
                match driver.poll(Duration::ZERO) {
                    Ok(actions) => {
                        report(Ok(()), &ev_tx);
                        for a in actions {
                            if a != Action::Redraw && ev_tx.send(DriverEvent::Action(a)).is_err() {
                                return;
                            }
                        }
                    }
                    Err(DisplayError::Closed) => return,
                    Err(e) => report(Err(e), &ev_tx),
                }
            }
        })?;
    Ok(DriverHandle {
        input: in_tx,
        events: ev_rx,
        thread: Some(thread),
    })
}
