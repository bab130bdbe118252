//! The terminal screen of `tandem play` (`--screen full|plain|none|auto`):
//!
//! - `full`: a full-screen interface for the sighted side of the table
//!   (`layout`: what is drawn where; `state`: what the screen knows, the
//!   clocks ticking between the session's notices; `input`: the input
//!   line with history and completion; `term`: the terminal's modes, put
//!   back on every way out);
//! - `plain`: lines only, for a screen reader (`plain`);
//! - `none`: nothing (speech and braille as text lines on stdout).
//!
//! The session does not know which: it sends [`Notice`]s to all
//! subscribers, and typed lines reach it as `Source::Typed` requests.
//! `pair SIDE` and `unpair SIDE` typed on either input line go to the
//! table's device pairings (`devices::at_table`, `tandem play --seats`).

mod board;
mod input;
mod layout;
mod plain;
pub mod qr;
mod state;
mod term;

use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc as std_mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use tokio::sync::broadcast::{self, error::TryRecvError};
use tokio::sync::mpsc::UnboundedSender;

pub use board::Look;
pub use layout::PROMPT;
pub use state::ScreenState;

use crate::devices::{at_table, Pairing};
use crate::journal::Source;
use crate::session::{Cmd, Notice, SessionHandle};

/// The table's device pairings (`tandem play --seats`; `None`: none).
pub type Pairings = Option<Arc<Pairing>>;

/// What the terminal shows (`tandem play --screen`, `screen = "..."`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScreenChoice {
    /// Full screen on a terminal, plain otherwise.
    #[default]
    Auto,
    /// The full-screen interface (board, clocks, moves, alerts, input line).
    Full,
    /// One line per thing said (`» `) or changed, and the prompt: for a screen reader.
    Plain,
    /// No screen: speech and braille as text lines on stdout (`--headless`).
    None,
}

/// The screen `tandem play` shows, `auto` decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The full-screen interface.
    Full,
    /// Lines for a screen reader.
    Plain,
    /// No screen.
    None,
}

/// The screen for a choice: `auto` is full on a terminal, plain otherwise.
#[must_use]
pub fn mode(choice: ScreenChoice) -> Mode {
    match choice {
        ScreenChoice::Full => Mode::Full,
        ScreenChoice::Plain => Mode::Plain,
        ScreenChoice::None => Mode::None,
        ScreenChoice::Auto if std::io::stdout().is_terminal() => Mode::Full,
        ScreenChoice::Auto => Mode::Plain,
    }
}

/// Whether a typed line asks tandem to stop.
fn is_quit(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("quit")
}

/// Sends typed lines to the session in order, from a thread of its own (a
/// request waits for the session's answer; the screen must not).
fn forward_lines(
    session: SessionHandle,
    pairing: Pairings,
) -> std::io::Result<std_mpsc::Sender<String>> {
    let (tx, rx) = std_mpsc::channel::<String>();
    std::thread::Builder::new()
        .name("tandem-typed".into())
        .spawn(move || {
            while let Ok(line) = rx.recv() {
                if typed_line(&session, pairing.as_deref(), &line).is_err() {
                    return;
                }
            }
        })?;
    Ok(tx)
}

/// One typed line to the session: a pairing asked for to the table's
/// pairings (which the session then says), anything else as a command.
fn typed_line(
    session: &SessionHandle,
    pairing: Option<&Pairing>,
    line: &str,
) -> anyhow::Result<crate::session::Reply> {
    at_table::typed(session, pairing, line)
        .unwrap_or_else(|| session.blocking_request(Cmd::parse_line(line), Source::Typed))
}

/// The longest typed line taken (the control socket's limit): a longer one
/// (a pasted file, a stuck key, a pipe of zeros) is refused, not buffered.
const MAX_TYPED_LINE: usize = crate::control::MAX_LINE;

/// One line of `input` without its end, holding at most `max` bytes of it:
/// `None` at the end of input; `Some(Err(n))` for a line of `n` bytes over
/// the limit (read to its end and dropped). Bytes that are not UTF-8 (a
/// terminal in another encoding) become U+FFFD instead of ending the input.
fn read_typed_line(
    input: &mut impl std::io::BufRead,
    max: usize,
) -> std::io::Result<Option<Result<String, usize>>> {
    let mut line = Vec::new();
    // The line's length without its end, and whether anything was read.
    let mut len = 0usize;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..end.unwrap_or(buf.len())];
        len += chunk.len();
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = end.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    if len > max {
        return Ok(Some(Err(len)));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&line).into_owned())))
}

/// Typed input from stdin (plain screen, no screen): one move or command a
/// line; `quit` stops tandem. End of input only stops reading. `typed` is
/// set when a line typed on a terminal ended the plain screen's prompt line.
pub fn read_stdin(
    session: &SessionHandle,
    pairing: Option<&Pairing>,
    quit: &UnboundedSender<()>,
    typed: &AtomicBool,
) {
    let stdin = std::io::stdin();
    // A terminal echoes the line typed, which ends the prompt's line; a pipe does not.
    let echoed = stdin.is_terminal();
    let mut input = stdin.lock();
    loop {
        let line = match read_typed_line(&mut input, MAX_TYPED_LINE) {
            Ok(Some(line)) => line,
            Ok(None) | Err(_) => return,
        };
        typed.store(echoed, Ordering::SeqCst);
        let answered = match line {
            Ok(line) => {
                let text = line.trim();
                if text.is_empty() {
                    continue;
                }
                if is_quit(text) {
                    let _ = quit.send(());
                    return;
                }
                typed_line(session, pairing, text)
            }
            // Refused like any unknown input: said, and nothing changes.
            Err(n) => session.blocking_request(
                Cmd::Unknown(format!(
                    "a typed line of {n} bytes (at most {MAX_TYPED_LINE})"
                )),
                Source::Typed,
            ),
        };
        if answered.is_err() {
            return;
        }
    }
}

/// The plain screen: writes each notice's lines, then the prompt, until
/// the session ends. `typed` tells that the prompt's line was ended by a
/// typed line (else the first line written ends it).
pub async fn run_plain(mut notices: broadcast::Receiver<Notice>, typed: Arc<AtomicBool>) {
    let mut plain = plain::Plain::default();
    let write = |text: &str| {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    };
    write(PROMPT);
    typed.store(false, Ordering::SeqCst);
    loop {
        let first = match notices.recv().await {
            Ok(n) => n,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let mut lines = plain.lines(first);
        // Whatever else came at once, before the prompt is written again.
        loop {
            match notices.try_recv() {
                Ok(n) => lines.extend(plain.lines(n)),
                Err(TryRecvError::Lagged(_)) => {}
                Err(_) => break,
            }
        }
        if lines.is_empty() {
            continue;
        }
        let mut text = String::new();
        if !typed.swap(false, Ordering::SeqCst) {
            text.push('\n');
        }
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
        text.push_str(PROMPT);
        write(&text);
    }
}

/// While it lives, stderr (when it is a terminal) goes to
/// `$XDG_STATE_HOME/tandem/tandem.log`: for the full screen, from before
/// anything starts that may log, so no line lands under the screen. An
/// error that stops tandem is said on the terminal again once it is dropped.
pub struct StderrToLog(());

impl StderrToLog {
    /// Diverts stderr.
    #[must_use]
    pub fn start() -> StderrToLog {
        term::divert_stderr();
        StderrToLog(())
    }
}

impl Drop for StderrToLog {
    fn drop(&mut self) {
        term::undivert_stderr();
    }
}

/// The full screen, drawn by a thread of its own. Dropping it stops the
/// thread and puts the terminal back.
pub struct FullScreen {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        term::restore();
    }
}

/// Starts the full screen: `header` is its first line; typed lines go to
/// `session` (`pair SIDE`, `unpair SIDE` to `pairing`); `quit` (typed)
/// and Ctrl-C are sent to `quit`.
///
/// # Errors
/// The terminal cannot be put in raw mode or its thread cannot start.
pub fn spawn_full(
    notices: broadcast::Receiver<Notice>,
    (session, pairing): (SessionHandle, Pairings),
    header: String,
    quit: UnboundedSender<()>,
    look: Look,
) -> std::io::Result<FullScreen> {
    let lines = forward_lines(session, pairing)?;
    term::enter()?;
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    let thread = std::thread::Builder::new()
        .name("tandem-screen".into())
        .spawn(move || {
            if let Err(e) = run_full(notices, &lines, &quit, &s, header, look) {
                term::restore();
                tracing::error!("the screen stopped: {e}");
            }
        });
    match thread {
        Ok(t) => Ok(FullScreen {
            stop,
            thread: Some(t),
        }),
        Err(e) => {
            term::restore();
            Err(e)
        }
    }
}

fn run_full(
    mut notices: broadcast::Receiver<Notice>,
    lines: &std_mpsc::Sender<String>,
    quit: &UnboundedSender<()>,
    stop: &AtomicBool,
    header: String,
    look: Look,
) -> std::io::Result<()> {
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    terminal.clear()?;
    let mut st = ScreenState {
        header,
        ..ScreenState::default()
    };
    let mut line = input::LineEditor::default();
    let mut dirty = true;
    let mut shown = None;
    while !stop.load(Ordering::SeqCst) {
        loop {
            match notices.try_recv() {
                Ok(n) => dirty |= st.apply(n, Instant::now()),
                Err(TryRecvError::Lagged(_)) => {}
                Err(_) => break,
            }
        }
        let now = Instant::now();
        // Redrawn when something came, or when a clock shows another
        // second (or an alert expires); ratatui writes only the cells that
        // changed.
        let seconds = (
            st.clock_ms(tandem_rules::Color::White, now) / 1000,
            st.clock_ms(tandem_rules::Color::Black, now) / 1000,
            st.alerts(now).len(),
        );
        if dirty || shown != Some(seconds) {
            terminal.draw(|f| layout::draw(f, &st, &line, now, look))?;
            dirty = false;
            shown = Some(seconds);
        }
        if !event::poll(Duration::from_millis(50))? {
            continue;
        }
        match event::read()? {
            Event::Key(k) if k.kind != KeyEventKind::Release => {
                dirty = true;
                let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
                match k.code {
                    KeyCode::Char('c') if ctrl => {
                        let _ = quit.send(());
                    }
                    KeyCode::Char('u') if ctrl => line.clear(),
                    KeyCode::Char('a') if ctrl => line.home(),
                    KeyCode::Char('e') if ctrl => line.end(),
                    KeyCode::Char(_) if ctrl => {}
                    KeyCode::Char(c) => line.insert(c),
                    KeyCode::Backspace => line.backspace(),
                    KeyCode::Delete => line.delete(),
                    KeyCode::Left => line.left(),
                    KeyCode::Right => line.right(),
                    KeyCode::Home => line.home(),
                    KeyCode::End => line.end(),
                    KeyCode::Up => line.up(),
                    KeyCode::Down => line.down(),
                    KeyCode::Esc => line.clear(),
                    KeyCode::Tab => {
                        let legal = st
                            .state()
                            .map(|s| s.screen.legal.clone())
                            .unwrap_or_default();
                        line.complete(&legal);
                    }
                    KeyCode::Enter => {
                        if let Some(text) = line.enter() {
                            st.typed(&text);
                            if is_quit(&text) {
                                let _ = quit.send(());
                            } else {
                                let _ = lines.send(text);
                            }
                        }
                    }
                    _ => {}
                }
            }
            Event::Resize(..) => {
                terminal.autoresize()?;
                dirty = true;
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod typed_line_tests {
    use super::read_typed_line;

    fn lines(bytes: &[u8], max: usize) -> Vec<Result<String, usize>> {
        // A tiny buffer, so that lines straddle refills.
        let mut r = std::io::BufReader::with_capacity(3, bytes);
        std::iter::from_fn(|| read_typed_line(&mut r, max).unwrap()).collect()
    }

    #[test]
    fn lines_are_split_and_the_last_needs_no_end() {
        assert_eq!(
            lines(b"32-28\nroll 3 1\n\nquit", 64),
            vec![
                Ok("32-28".into()),
                Ok("roll 3 1".into()),
                Ok(String::new()),
                Ok("quit".into())
            ]
        );
    }

    #[test]
    fn a_line_over_the_limit_is_dropped_whole_and_the_next_is_read() {
        let mut input = vec![b'0'; 100];
        input.extend_from_slice(b"\n32-28\n");
        assert_eq!(lines(&input, 10), vec![Err(100), Ok("32-28".into())]);
        // Exactly the limit is taken.
        assert_eq!(lines(b"0123456789\n", 10), vec![Ok("0123456789".into())]);
    }

    #[test]
    fn bytes_that_are_not_utf8_do_not_end_the_input() {
        assert_eq!(
            lines(b"e\xe9\n32-28\n", 64),
            vec![Ok("e\u{fffd}".into()), Ok("32-28".into())]
        );
    }
}
