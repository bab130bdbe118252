//! A table is a list of parts (issue 47). `tandem play` is the config, the
//! list of [`parts`], and [`run`]: the session in the middle, every adapter
//! around it a [`Part`] that is built from the [`Config`], opens what it
//! needs, hands the session what it sends to, starts once the session
//! runs, and stops in a known order ([`Stage`]).
//!
//! What a part opens ([`Part::opens`]: the sockets it listens on, the
//! addresses it connects to, the devices it uses, the kind of input it gives
//! the players) is answered from the config alone, before anything starts:
//! [`opens`] is what the whole table would open, read from the same list that
//! `tandem play` runs.
//!
//! A new adapter is one new part (a type implementing [`Part`], in a file of
//! this folder) and one line in [`parts`].

mod devices;
mod eboard;
mod inputs;
mod outputs;
mod relay;
mod report;
mod seats;

use std::future::Future;
use std::io::Write as _;
use std::path::PathBuf;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Serialize;
use tandem_rules::Color;
use tokio::sync::{broadcast, mpsc};

use crate::config::Config;
use crate::control::server::ArbiterSecret;
use crate::game::GameKind;
use crate::game_book::GameBook;
use crate::messages::Messages;
use crate::session::{Notice, Outputs, Session, SessionHandle};

pub use devices::{reachable_address, DevicesPart};
pub use eboard::EboardsPart;
pub use inputs::{ControlPart, ScreenPart, TableVoicePart};
pub use outputs::{BraillePart, SpeechFallbackPart, SpeechPart};
pub use relay::RelayPart;
pub use report::{refusal, report};
pub use seats::SeatsPart;

/// The parts of a table, in the order they start. Each line gives a part,
/// or nothing when the config leaves it out.
#[must_use]
pub fn parts(config: &Config) -> Vec<Box<dyn Part>> {
    [
        SpeechPart::of(config),
        TableVoicePart::of(config),
        SeatsPart::of(config),
        EboardsPart::of(config),
        BraillePart::of(config),
        SpeechFallbackPart::of(config),
        RelayPart::of(config),
        ScreenPart::of(config),
        DevicesPart::of(config),
        ControlPart::of(config),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// What the table of `config` would open, from its parts, without starting
/// anything.
#[must_use]
pub fn opens(config: &Config) -> Opens {
    parts(config)
        .iter()
        .fold(Opens::default(), |all, p| all.and(p.opens()))
}

/// A kind of input a part gives the players (the exact words of
/// `tandem report`'s `inputs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Input {
    /// Typed at the table's screen, or lines on stdin.
    Keyboard,
    /// `tandem ctl` and the relay, through the control socket.
    ControlSocket,
    /// A microphone.
    Voice,
    /// A braille display's keys.
    Braille,
    /// A paired phone or laptop (`--seats`).
    Device,
    /// An electronic board.
    Eboard,
}

impl Input {
    /// The word `tandem report` prints.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Input::Keyboard => "keyboard",
            Input::ControlSocket => "control-socket",
            Input::Voice => "voice",
            Input::Braille => "braille",
            Input::Device => "device",
            Input::Eboard => "eboard",
        }
    }
}

/// What a part opens (or may open: `auto` choices list what they try).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Opens {
    /// The kinds of input it gives the players.
    pub inputs: Vec<Input>,
    /// Every address (`HOST:PORT`) or Unix socket path it listens on.
    pub listens: Vec<String>,
    /// Every address (`HOST:PORT`) or Unix socket path it connects to.
    pub connects: Vec<String>,
    /// The devices and files it reads or writes besides the journal
    /// (a microphone, a sound card, a serial port, the terminal).
    pub devices: Vec<String>,
}

impl Opens {
    /// Nothing.
    #[must_use]
    pub fn none() -> Opens {
        Opens::default()
    }

    /// With an input.
    #[must_use]
    pub fn input(mut self, i: Input) -> Opens {
        if !self.inputs.contains(&i) {
            self.inputs.push(i);
        }
        self
    }

    /// With an address or socket listened on.
    #[must_use]
    pub fn listen(mut self, at: impl Into<String>) -> Opens {
        push_new(&mut self.listens, at.into());
        self
    }

    /// With an address or socket connected to.
    #[must_use]
    pub fn connect(mut self, to: impl Into<String>) -> Opens {
        push_new(&mut self.connects, to.into());
        self
    }

    /// With a device or file.
    #[must_use]
    pub fn device(mut self, d: impl Into<String>) -> Opens {
        push_new(&mut self.devices, d.into());
        self
    }

    /// Both, each thing once; inputs in their order.
    #[must_use]
    pub fn and(mut self, other: Opens) -> Opens {
        for i in other.inputs {
            self = self.input(i);
        }
        self.inputs.sort();
        for l in other.listens {
            push_new(&mut self.listens, l);
        }
        for c in other.connects {
            push_new(&mut self.connects, c);
        }
        for d in other.devices {
            push_new(&mut self.devices, d);
        }
        self
    }
}

fn push_new(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// When a part stops, relative to the others. The session stops after the
/// first stage; the rest follow in this order, each stage's parts in the
/// list's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Takes no more requests (the control socket): before the session ends.
    Inputs,
    /// Sends the journal's last lines (the relay), once the session ended.
    Hall,
    /// Says what is left to say.
    Speech,
    /// The screens: the terminal put back.
    Screens,
    /// The braille displays, and whatever has nothing to finish.
    Displays,
}

/// What a part's stop waits for.
pub type Stopping = Pin<Box<dyn Future<Output = ()>>>;

/// One adapter of the table. Every step has a default that does nothing,
/// so that a part says only what it does.
pub trait Part {
    /// Its name (for the log and the tests).
    fn name(&self) -> &'static str;

    /// What it opens, answered from the config alone, before anything starts.
    fn opens(&self) -> Opens;

    /// Opens what must fail before the journal is touched (sockets, listeners).
    ///
    /// # Errors
    /// It cannot open: tandem does not start.
    fn open(&mut self, _table: &mut Table) -> anyhow::Result<()> {
        Ok(())
    }

    /// Before the session: starts its outputs and gives the session what it
    /// sends to ([`Table::out`]).
    ///
    /// # Errors
    /// It cannot start.
    fn prepare(&mut self, _table: &mut Table) -> anyhow::Result<()> {
        Ok(())
    }

    /// The session made, not yet running: tells it what it must know.
    ///
    /// # Errors
    /// What it needs of the game does not read.
    fn attach(&mut self, _table: &mut Table, _game: &mut Game<'_>) -> anyhow::Result<()> {
        Ok(())
    }

    /// The session running: its threads and tasks.
    ///
    /// # Errors
    /// A thread cannot be started.
    fn start(&mut self, _table: &mut Table, _run: &Running<'_>) -> anyhow::Result<()> {
        Ok(())
    }

    /// When it stops.
    fn stage(&self) -> Stage {
        Stage::Displays
    }

    /// Stops it; what it holds is dropped at the end at the latest.
    fn stop(self: Box<Self>) -> Stopping {
        Box::pin(async {})
    }
}

/// What the parts hand each other and the session, filled as they open and
/// prepare.
pub struct Table {
    /// No terminal screen: text lines on stdout.
    pub headless: bool,
    /// The screen's mode, decided at start.
    pub mode: crate::screen::Mode,
    /// The local arbiter's secret (`--arbiter-secret-file`), until the
    /// control socket takes it (the relay drops it in a hall).
    pub arbiter: Option<ArbiterSecret>,
    /// The token only the relay and the control socket know (`--relay`).
    pub relay_token: Option<String>,
    /// Said at start, once everything opened (warnings, on stderr and the log).
    pub notes: Vec<String>,
    /// The device seats' pairings (`--seats`).
    pub pairing: Option<Arc<crate::devices::Pairing>>,
    /// The control socket's path.
    pub socket: PathBuf,
    /// The session's notices.
    pub notices: broadcast::Sender<Notice>,
    /// Where the session's outputs go, until the session takes them.
    pub out: Outputs,
    /// `quit` typed, or Ctrl-C on the full screen: the end, as on SIGINT.
    pub quit: mpsc::UnboundedSender<()>,
    /// The prompt's line ended by a typed line (the plain screen).
    pub typed: Arc<AtomicBool>,
    /// A speech backend that died: its successor's name, told to everyone.
    pub speech_switched: Option<mpsc::UnboundedSender<String>>,
    /// The table's microphone's mute while the table's speech speaks.
    pub table_speaking: Option<crate::voice::SpeakingState>,
}

/// The game as the session starts it, for the parts to attach to.
pub struct Game<'a> {
    /// The session, not yet running.
    pub session: &'a mut Session,
    /// `--phrasebook`, read for the game played.
    pub books: &'a GameBook,
    /// The table's phrasebook, if one was given.
    pub book: Option<&'a tandem_speech::Phrasebook>,
    /// What every part may know of the game.
    pub facts: &'a Facts,
}

/// The session running, for the parts to start with.
pub struct Running<'a> {
    /// The session's handle.
    pub handle: &'a SessionHandle,
    /// What every part may know of the game.
    pub facts: &'a Facts,
}

/// What the parts know of the game once the session is made.
pub struct Facts {
    /// The language the table speaks (the phrasebook's, else the game's).
    pub lang: String,
    /// The game's own language (`--lang`, or the resumed journal's).
    pub table_lang: String,
    /// The game played.
    pub kind: GameKind,
    /// The blind side, if one.
    pub blind_side: Option<Color>,
    /// The page each side's device opens (docs/devices.md).
    pub pages: [crate::devices::view::Page; 2],
    /// The journal written.
    pub journal: PathBuf,
    /// The table's own sentences, in `lang`.
    pub msgs: Messages,
}

impl Facts {
    fn of(session: &Session, books: &GameBook) -> Facts {
        let info = &session.table().info;
        let lang = match (&books.table, &books.language) {
            (Some(b), _) => b.language().to_owned(),
            (None, Some(l)) => l.clone(),
            (None, None) => info.lang.clone(),
        };
        let blind_side = match info.blind.as_str() {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        };
        // A blind side's device opens the screen reader's page, a sighted
        // side's the drawn board (docs/devices.md).
        let page = |side: &str| match info.blind.as_str() {
            b if b == side || b == "both" => crate::devices::view::Page::Blind,
            _ => crate::devices::view::Page::Board,
        };
        let msgs = Messages::new(
            tandem_speech::Phrasebook::builtin(&lang)
                .unwrap_or_else(tandem_speech::Phrasebook::english),
        );
        Facts {
            table_lang: info.lang.clone(),
            kind: session.table().game.kind(),
            blind_side,
            pages: [page("white"), page("black")],
            journal: session.view().journal,
            msgs,
            lang,
        }
    }
}

/// Runs the table of `config` until `until` completes, `quit` is typed, or
/// the session ends by itself (exit 3: resume from the journal).
///
/// # Errors
/// A part cannot open or start; the journal cannot be written or resumed.
pub async fn run(
    config: Config,
    resume: Option<PathBuf>,
    arbiter: Option<ArbiterSecret>,
    until: impl Future<Output = ()>,
) -> anyhow::Result<ExitCode> {
    ignore_sigxfsz();
    let mode = crate::screen::mode(config.screen);
    // Log lines never under the full screen (dropped last: an error that
    // ends tandem is said on the terminal).
    let _quiet = (mode == crate::screen::Mode::Full).then(crate::screen::StderrToLog::start);
    let mut parts = parts(&config);
    let (quit, mut quit_rx) = mpsc::unbounded_channel::<()>();
    let (notices, _) = broadcast::channel(crate::control::EVENT_QUEUE);
    let mut table = Table {
        headless: mode == crate::screen::Mode::None,
        mode,
        arbiter,
        relay_token: None,
        notes: Vec::new(),
        pairing: None,
        socket: config.socket.clone(),
        out: Outputs::new(mpsc::unbounded_channel().0, None, notices.clone()),
        notices,
        quit,
        typed: Arc::new(AtomicBool::new(false)),
        speech_switched: None,
        table_speaking: None,
    };
    // The sockets first: a second daemon on the same table must not touch the journal.
    for p in &mut parts {
        p.open(&mut table)?;
    }
    for note in &table.notes {
        tracing::warn!("{note}");
        let _ = writeln!(std::io::stderr(), "tandem: {note}");
    }
    for p in &mut parts {
        p.prepare(&mut table)?;
    }
    let out = std::mem::replace(
        &mut table.out,
        Outputs::new(mpsc::unbounded_channel().0, None, table.notices.clone()),
    );
    let (mut session, books) = make_session(&config, resume, out)?;
    let facts = Facts::of(&session, &books);
    let mut game = Game {
        session: &mut session,
        books: &books,
        book: books.table.as_ref(),
        facts: &facts,
    };
    for p in &mut parts {
        p.attach(&mut table, &mut game)?;
    }
    let (handle, mut actor) = session.spawn();
    let running = Running {
        handle: &handle,
        facts: &facts,
    };
    for p in &mut parts {
        p.start(&mut table, &running)?;
    }
    let (first, mut rest): (Vec<_>, Vec<_>) =
        parts.into_iter().partition(|p| p.stage() == Stage::Inputs);
    // The session actor ends only when told to. If it ever ends by itself (a
    // bug), a daemon that still answers but can no longer play is the worst
    // outcome at the table: exit non-zero instead, so systemd (Restart=on-failure)
    // or the assistant restarts it and the game resumes from the journal.
    tokio::select! {
        () = until => {}
        _ = quit_rx.recv() => {}
        r = &mut actor => {
            let why = match r {
                Err(e) if e.is_panic() => "it panicked",
                _ => "it ended",
            };
            let journal = facts.journal.display();
            tracing::error!("the game session stopped unexpectedly ({why}); resume with --resume {journal}");
            // Said on stderr too: the log may be a file, and tandem exits.
            let _ = writeln!(std::io::stderr(), "tandem: the game session stopped unexpectedly ({why}); resume with --resume {journal}");
            stop_all(first).await;
            return Ok(ExitCode::from(3));
        }
    }
    stop_all(first).await;
    handle.shutdown().await;
    let _ = actor.await;
    drop(handle);
    rest.sort_by_key(|p| p.stage());
    stop_all(rest).await;
    Ok(ExitCode::SUCCESS)
}

/// Stops `parts` one after the other.
async fn stop_all(parts: Vec<Box<dyn Part>>) {
    for p in parts {
        tracing::debug!("stopping {}", p.name());
        p.stop().await;
    }
}

/// The session of a new game, or of the resumed journal, with the
/// phrasebook of `--phrasebook` read for the game played.
fn make_session(
    config: &Config,
    resume: Option<PathBuf>,
    out: Outputs,
) -> anyhow::Result<(Session, GameBook)> {
    // `--phrasebook`: the game's phrasebook (`GameKind::read_phrasebook`,
    // the registry). A new game's is read before its journal is created; a
    // resumed game's kind is known from its journal.
    let mut books = match &resume {
        Some(_) => None,
        None => Some(load_books(
            config.phrasebook.as_deref(),
            config.setup.start.kind(),
        )?),
    };
    let mut session = match &resume {
        Some(j) => Session::resume(j, out)?,
        None => Session::start(&config.setup, &config.journal, out)?,
    };
    let books = match books.take() {
        Some(b) => b,
        None => load_books(config.phrasebook.as_deref(), session.table().game.kind())?,
    };
    // The table's report, before the first move (issue 41): a resumed
    // journal's game, this binary.
    let variant = session.table().info.variant.clone();
    session.report(report(config, Some(&variant)))?;
    session.set_record_last(config.record_last);
    session.set_in_hall(config.relay.is_some());
    if let Some(b) = &books.table {
        session.set_phrasebook(b.clone());
    }
    if let Some(b) = &books.own {
        session.set_game_phrasebook(b.as_ref());
    }
    Ok((session, books))
}

/// The phrasebook of `--phrasebook`, read for the game played (none without one).
fn load_books(file: Option<&std::path::Path>, kind: GameKind) -> anyhow::Result<GameBook> {
    match file {
        Some(p) => kind.read_phrasebook(p),
        None => Ok(GameBook::default()),
    }
}

/// A file-size limit (`ulimit -f`) must make a journal write fail, which the
/// journal survives, not kill the daemon: SIGXFSZ gets a handler (tokio's,
/// which only records it; it stays installed for the life of the process).
fn ignore_sigxfsz() {
    use tokio::signal::unix::{signal, SignalKind};
    let xfsz = rustix::process::Signal::XFSZ.as_raw();
    if let Err(e) = signal(SignalKind::from_raw(xfsz)) {
        tracing::warn!("cannot catch SIGXFSZ: {e}");
    }
}

#[cfg(test)]
mod tests;
