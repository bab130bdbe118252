//! A seat's electronic board (issue 42, `docs/eboards.md`): the sighted
//! player's own board, whose moves are read and played for that seat, and
//! whose lights show the other side's moves until the board shows them.
//!
//! Three layers, none of which knows the game:
//! - a protocol behind [`EBoard`] (one implementation a protocol:
//!   [`chesslink`], the Millennium ChessLink on a serial line): it opens the
//!   board, reads its squares and sets its lights;
//! - [`watch`]: a reading held against what the game says of its
//!   positions ([`crate::interface::BoardSight`], from the session's state);
//! - [`EboardPart`]: the part of `tandem play` that runs both for one seat,
//!   a thread on the line and a task that asks the session, with the
//!   seat's name and [`Source::Eboard`].

pub mod chesslink;
pub mod watch;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tandem_rules::Color;
use tokio::sync::{broadcast, mpsc};

use crate::journal::Source;
use crate::messages::{Messages, Msg};
use crate::request::Cmd;
use crate::seat::{BoardProtocol, BoardSpec, SeatSpec};
use crate::session::{Notice, SessionHandle, StateView};
use watch::{Act, GameNow, Watch};

/// One protocol's board: opened, read, lit.
pub trait EBoard: Send + std::fmt::Debug {
    /// Opens the board (again) and asks it to report its squares.
    ///
    /// # Errors
    /// The device cannot be opened or set up.
    fn open(&mut self) -> io::Result<()>;
    /// The next reading of its 64 squares (a8 … h1, FEN letters, `.`), if
    /// one comes within `wait`.
    ///
    /// # Errors
    /// The line is gone (the board pulled out).
    fn read(&mut self, wait: Duration) -> io::Result<Option<String>>;
    /// Shows a move's squares (from, to) on its lights; none: all out.
    ///
    /// # Errors
    /// The line is gone.
    fn light(&mut self, squares: &[String]) -> io::Result<()>;
    /// Closes the line.
    fn close(&mut self);
    /// The device it opens.
    fn opens(&self) -> &Path;
}

/// The board a seat's spec names.
#[must_use]
pub fn board_for(spec: &BoardSpec) -> Box<dyn EBoard> {
    match spec.protocol {
        BoardProtocol::ChessLink => Box::new(chesslink::ChessLink::new(&spec.path)),
    }
}

/// How long a reading must stand still to count, and a wrong one before it
/// is a mismatch (docs/eboards.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// A reading counts after this, unchanged (the debounce).
    pub settle: Duration,
    /// A wrong reading is a mismatch after this, unchanged.
    pub mismatch_after: Duration,
}

/// The settle time (the debounce) when no test knob sets it.
pub const SETTLE: Duration = Duration::from_millis(600);
/// A wrong placement is a mismatch after this (issue 42: a second or more).
pub const MISMATCH_AFTER: Duration = Duration::from_secs(1);

impl Timing {
    /// [`SETTLE`] and [`MISMATCH_AFTER`], or the test knobs
    /// `TANDEM_EBOARD_SETTLE_MS` and `TANDEM_EBOARD_MISMATCH_MS` (tests
    /// only: a board at a table keeps the defaults).
    #[must_use]
    pub fn from_env() -> Timing {
        let ms = |k: &str| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
                .map(Duration::from_millis)
        };
        Timing {
            settle: ms("TANDEM_EBOARD_SETTLE_MS").unwrap_or(SETTLE),
            mismatch_after: ms("TANDEM_EBOARD_MISMATCH_MS").unwrap_or(MISMATCH_AFTER),
        }
    }
}

/// What the line tells the seat's task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEvent {
    /// The board is open and set up.
    Connected,
    /// The board cannot be opened or is gone: why.
    Lost(String),
    /// Its squares.
    Reading(String),
}

/// A placement (64 squares, a8 … h1) as a FEN board (`rnbqkbnr/…`): what
/// a mismatch reports as the board read back.
#[must_use]
pub fn fen_board(placement: &str) -> String {
    let mut out = String::new();
    for (i, row) in placement.as_bytes().chunks(8).enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for &c in row {
            if c == b'.' {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(char::from(c));
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

/// How often the line's thread looks at its lights and its stop flag.
const TICK: Duration = Duration::from_millis(40);
/// How long a board that cannot be opened is left before the next try.
const RETRY: Duration = Duration::from_millis(300);

/// The line's thread: opens the board (again after it is lost, at the same
/// path), hands on its readings, sets its lights, until `stop`.
fn drive(
    mut board: Box<dyn EBoard>,
    events: &mpsc::UnboundedSender<LineEvent>,
    lights: &std::sync::mpsc::Receiver<Vec<String>>,
    stop: &AtomicBool,
) {
    let mut open = false;
    let mut lit: Vec<String> = Vec::new();
    let mut relight = false;
    let mut last_error = None;
    while !stop.load(Ordering::Relaxed) {
        while let Ok(l) = lights.try_recv() {
            lit = l;
            relight = true;
        }
        if !open {
            match board.open() {
                Ok(()) => {
                    open = true;
                    last_error = None;
                    relight = !lit.is_empty();
                    if events.send(LineEvent::Connected).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    let e = format!("{}: {e}", board.opens().display());
                    // Said once, not at every try.
                    if last_error.as_ref() != Some(&e) {
                        tracing::warn!("e-board {e}");
                        if events.send(LineEvent::Lost(e.clone())).is_err() {
                            break;
                        }
                        last_error = Some(e);
                    }
                    std::thread::sleep(RETRY);
                    continue;
                }
            }
        }
        let step = if relight {
            relight = false;
            board.light(&lit).map(|()| None)
        } else {
            board.read(TICK)
        };
        match step {
            Ok(Some(r)) => {
                if events.send(LineEvent::Reading(r)).is_err() {
                    break;
                }
            }
            Ok(None) => {}
            Err(e) => {
                board.close();
                open = false;
                let e = format!("{}: {e}", board.opens().display());
                tracing::warn!("e-board lost: {e}");
                if events.send(LineEvent::Lost(e.clone())).is_err() {
                    break;
                }
                last_error = Some(e);
            }
        }
    }
    board.close();
}

/// One seat's e-board, a part of `tandem play`: built from the seat's
/// config, started with the session's handle, stopped at the end; it opens
/// the board's serial device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EboardPart {
    side: Color,
    spec: BoardSpec,
    timing: Timing,
}

impl EboardPart {
    /// The part of a seat with a board (`board=chesslink:PATH`).
    #[must_use]
    pub fn from_seat(seat: &SeatSpec) -> Option<EboardPart> {
        Some(EboardPart {
            side: seat.side,
            spec: seat.board.clone()?,
            timing: Timing::from_env(),
        })
    }

    /// The same part with other settle times (the benches; a table takes
    /// [`Timing::from_env`]).
    #[must_use]
    pub fn with_timing(mut self, timing: Timing) -> EboardPart {
        self.timing = timing;
        self
    }

    /// What it opens: the board's device.
    #[must_use]
    pub fn opens(&self) -> Vec<PathBuf> {
        vec![self.spec.path.clone()]
    }

    /// Whose seat.
    #[must_use]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Starts the line's thread and the seat's task (on the current tokio
    /// runtime).
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn start(self, handle: SessionHandle, msgs: Messages) -> io::Result<RunningEboard> {
        let board = board_for(&self.spec);
        let stop = Arc::new(AtomicBool::new(false));
        let (events_tx, events) = mpsc::unbounded_channel();
        let (lights, lights_rx) = std::sync::mpsc::channel();
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name(format!("tandem-eboard-{}", self.side))
                .spawn(move || drive(board, &events_tx, &lights_rx, &stop))?
        };
        let seat = Seat {
            side: self.side,
            handle,
            msgs,
            lights,
            watch: Watch::new(self.side, self.timing.settle, self.timing.mismatch_after),
        };
        let task = tokio::spawn(seat.follow(events));
        Ok(RunningEboard {
            stop,
            thread: Some(thread),
            task,
        })
    }
}

/// A started [`EboardPart`].
#[derive(Debug)]
pub struct RunningEboard {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl RunningEboard {
    /// Stops the task and the line's thread (the board's line closed).
    pub fn stop(mut self) {
        self.task.abort();
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The seat's task: the board's readings and the session's state into
/// the watch, the watch's acts into the session and the lights.
struct Seat {
    side: Color,
    handle: SessionHandle,
    msgs: Messages,
    lights: std::sync::mpsc::Sender<Vec<String>>,
    watch: Watch,
}

/// The game as a seat's board follows it, from the session's state.
#[must_use]
pub fn game_now(v: &StateView, side: Color) -> GameNow {
    let behind = match side {
        Color::White => v.boards.white.behind,
        Color::Black => v.boards.black.behind,
    };
    let over = v.outcome.is_some();
    GameNow {
        sight: if over { None } else { v.sight.clone() },
        turn: (!over).then_some(v.turn),
        behind: behind > 0,
    }
}

impl Seat {
    async fn follow(mut self, mut events: mpsc::UnboundedReceiver<LineEvent>) {
        let mut notices = self.handle.subscribe();
        if !self.refetch().await {
            return;
        }
        // Whether the board was connected (unknown before the first word).
        let mut connected: Option<bool> = None;
        loop {
            let deadline = self.watch.deadline();
            let sleep = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(tokio::time::Instant::from_std(d)).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                ev = events.recv() => match ev {
                    None => return,
                    Some(LineEvent::Reading(r)) => self.watch.reading(r, Instant::now()),
                    Some(LineEvent::Connected) => {
                        if connected == Some(false) {
                            self.tell(true, "connected again").await;
                        }
                        connected = Some(true);
                    }
                    Some(LineEvent::Lost(e)) => {
                        if connected != Some(false) {
                            self.tell(false, &e).await;
                        }
                        connected = Some(false);
                        self.watch.lost();
                    }
                },
                n = notices.recv() => match n {
                    Ok(Notice::State(v)) => self.watch.game(game_now(&v, self.side)),
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        if !self.refetch().await {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                () = sleep => {}
            }
            for act in self.watch.decide(Instant::now()) {
                if !self.act(act).await {
                    return;
                }
            }
        }
    }

    /// The session's state asked again; `false`: the session is gone.
    async fn refetch(&mut self) -> bool {
        match self.handle.request(Cmd::State, Source::Eboard).await {
            Ok(r) => {
                if let Some(v) = r.state {
                    self.watch.game(game_now(&v, self.side));
                }
                true
            }
            Err(_) => false,
        }
    }

    /// The board lost or back: shown on the screen, said to everyone (and
    /// journaled as said, as a braille display's is).
    async fn tell(&self, ok: bool, why: &str) {
        let side = self.side;
        self.handle.notify(Notice::Device {
            device: format!("eboard {side}"),
            ok,
            text: if ok {
                format!("{side} e-board connected again")
            } else {
                format!("{side} e-board not connected ({why}); {side} moves are typed")
            },
        });
        let m = if ok {
            Msg::EboardBack(side)
        } else {
            Msg::EboardLost(side)
        };
        let _ = self
            .handle
            .request(Cmd::Say(self.msgs.text(&m)), Source::Tandem)
            .await;
    }

    /// Carries out one act; `false`: the session is gone.
    async fn act(&self, act: Act) -> bool {
        let cmd = match act {
            Act::Lights(l) => {
                let _ = self.lights.send(l);
                return true;
            }
            Act::Play(text) => Cmd::Move(text),
            Act::Done => Cmd::Done(Some(self.side)),
            Act::Mismatch(p) => Cmd::Mismatch(Some(fen_board(&p))),
        };
        match self
            .handle
            .request_as(cmd, Source::Eboard, Some(self.side))
            .await
        {
            Ok(r) => {
                if !r.ok {
                    tracing::info!("e-board {}: {:?}", self.side, r.error);
                }
                true
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_reads_as_a_fen_board() {
        assert_eq!(
            fen_board("rnbqkbnrpppppppp....................P...........PPPP.PPPRNBQKBNR"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
        );
    }
}
