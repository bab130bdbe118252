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

/// How often a spawned driver looks for keys between updates.
pub const KEY_POLL: Duration = Duration::from_millis(10);

/// Runs `driver` on its own thread. Updates are written as soon as they
/// arrive; keys are polled every [`KEY_POLL`].
pub fn spawn<D: BrailleDisplay + 'static>(
    mut driver: DisplayDriver<D>,
) -> std::io::Result<DriverHandle> {
    let (in_tx, in_rx) = mpsc::channel::<DriverInput>();
    let (ev_tx, ev_rx) = mpsc::channel::<DriverEvent>();
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
                match in_rx.recv_timeout(KEY_POLL) {
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
                    Err(RecvTimeoutError::Timeout) => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::display::memory::MemoryDisplay;
    use crate::table::text_cells;
    use tandem_rules::draughts::{Position, Square, Variant};
    use tandem_rules::Color;

    #[test]
    fn update_writes_the_view_at_the_display_width() {
        let (d, h) = MemoryDisplay::new(20);
        let pos = Position::start(Variant::International);
        let mut drv = DisplayDriver::new(d, pos, StatusInfo::new(Color::White), View::Graphic);
        drv.update(pos, &StatusInfo::new(Color::White)).unwrap();
        let mut want = text_cells("1 ");
        want.extend([crate::draughts::GraphicPatterns::default().black_man; 5]);
        want.resize(20, crate::Cell::BLANK);
        assert_eq!(h.cells().unwrap(), want);
    }

    #[test]
    fn an_unplugged_display_is_reported_once_and_the_game_goes_on() {
        let (d, h) = MemoryDisplay::new(40);
        let pos = Position::start(Variant::International);
        let drv = DisplayDriver::new(d, pos, StatusInfo::new(Color::White), View::Rows);
        let handle = spawn(drv).unwrap();
        h.set_unplugged(true);
        // A clock tick: same position, new status.
        let pos2 = pos;
        handle
            .input
            .send(DriverInput::Board {
                board: pos2.into(),
                status: StatusInfo::new(Color::Black),
            })
            .unwrap();
        let ev = handle.events.recv_timeout(Duration::from_secs(20)).unwrap();
        assert!(
            matches!(ev, DriverEvent::Unavailable(DisplayError::Disconnected(_))),
            "{ev:?}"
        );
        h.set_unplugged(false);
        handle
            .input
            .send(DriverInput::Board {
                board: pos2.into(),
                status: StatusInfo::new(Color::Black),
            })
            .unwrap();
        assert_eq!(
            handle.events.recv_timeout(Duration::from_secs(20)).unwrap(),
            DriverEvent::Available
        );
        // Keys still work: two routing presses give a move request.
        for _ in 0..6 {
            h.press(Key::LineDown);
        }
        // Wait for the six presses to be handled (the display shows row 31-35).
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !h.text().is_some_and(|t| t.starts_with("31:w")) {
            assert!(
                std::time::Instant::now() < deadline,
                "the line keys were not handled: {:?}",
                h.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        h.press(Key::Routing(5)); // over "32:w"
        h.press(Key::LineUp);
        h.press(Key::Routing(10)); // over "28:-" on the row above
        let mut got = Vec::new();
        while let Ok(DriverEvent::Action(a)) = handle.events.recv_timeout(Duration::from_secs(20)) {
            let done = matches!(a, Action::MoveRequest { .. });
            got.push(a);
            if done {
                break;
            }
        }
        let sq = |n| crate::draughts::keys::target(Square::new(n).unwrap());
        assert!(
            got.contains(&Action::MoveRequest {
                from: sq(32),
                to: sq(28)
            }),
            "{got:?}"
        );
        handle.shutdown();
    }

    #[test]
    fn a_spawned_driver_shows_chess_and_enters_a_move_by_routing() {
        use tandem_rules::chess::{self, shakmaty::Position as _};
        let (d, h) = MemoryDisplay::new(40);
        let drv = DisplayDriver::with_board(
            d,
            Board::from(chess::start()),
            StatusInfo::new(Color::White),
            View::Graphic,
        );
        let handle = spawn(drv).unwrap();
        // The graphic rank as the renderer draws it, padded to the display.
        let rank = |pos: &chess::shakmaty::Chess, r: usize| {
            let lines = crate::chess::ChessRenderer::default().render(
                pos,
                &StatusInfo::new(Color::White),
                View::Graphic,
                Width::DEFAULT,
            );
            let mut cells = lines[8 - r].line.cells().to_vec();
            cells.resize(40, crate::Cell::BLANK);
            cells
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let wait_for = |want: Vec<crate::Cell>| {
            while h.cells().as_ref() != Some(&want) {
                assert!(std::time::Instant::now() < deadline, "{:?}", h.text());
                std::thread::sleep(Duration::from_millis(10));
            }
        };
        h.press(Key::Bottom);
        wait_for(rank(&chess::start(), 1));
        assert!(h.text().unwrap().starts_with("1 "));
        h.press(Key::Routing(8)); // g1
        h.press(Key::LineUp);
        h.press(Key::LineUp);
        h.press(Key::Routing(7)); // f3
        let mut got = Vec::new();
        while let Ok(DriverEvent::Action(a)) = handle.events.recv_timeout(Duration::from_secs(20)) {
            let done = matches!(a, Action::MoveText(_));
            got.push(a);
            if done {
                break;
            }
        }
        assert_eq!(
            got,
            vec![
                Action::SelectedSquare("g1".into()),
                Action::MoveText("g1f3".into())
            ]
        );
        // The daemon accepts Nf3 and sends the new board: rank 3 shows the knight.
        let m = chess::resolve(&chess::start(), "g1f3").unwrap();
        let mut pos = chess::start();
        pos.play_unchecked(&m.to_shakmaty());
        handle
            .input
            .send(DriverInput::Board {
                board: Board::Chess(pos.clone()),
                status: StatusInfo::new(Color::Black),
            })
            .unwrap();
        let want = rank(&pos, 3);
        assert_ne!(want, rank(&chess::start(), 3));
        wait_for(want);
        handle.shutdown();
    }
}
