//! The table's own inputs as parts: its screen (full, plain, or lines on
//! stdin), its control socket (`tandem ctl`, the relay), and its microphone.

use std::io::Write as _;

use super::{Game, Input, Opens, Part, Running, Stage, Stopping, Table};
use crate::config::Config;
use crate::control::server::{ArbiterSecret, ControlSocket};
use crate::journal::Source;
use crate::screen::Mode;
use crate::session::Cmd;
use crate::voice_start::{VoiceRequest, VoiceStatus, VoiceSwitch};

/// The terminal: the full screen with its input line, else typed lines
/// from stdin (with the plain screen's lines, `--screen plain`).
pub struct ScreenPart {
    mode: Mode,
    ascii: bool,
    full_notices: Option<tokio::sync::broadcast::Receiver<crate::session::Notice>>,
    plain: Option<tokio::task::JoinHandle<()>>,
    full: Option<crate::screen::FullScreen>,
}

impl ScreenPart {
    /// The screen, always there (`--screen none` still reads stdin).
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        Some(Box::new(ScreenPart {
            mode: crate::screen::mode(config.screen),
            ascii: config.ascii,
            full_notices: None,
            plain: None,
            full: None,
        }))
    }
}

impl Part for ScreenPart {
    fn name(&self) -> &'static str {
        "screen"
    }

    fn opens(&self) -> Opens {
        let o = Opens::none().input(Input::Keyboard);
        match self.mode {
            Mode::Full => o.device("the terminal"),
            Mode::Plain | Mode::None => o.device("stdin"),
        }
    }

    fn prepare(&mut self, table: &mut Table) -> anyhow::Result<()> {
        match self.mode {
            Mode::Full => self.full_notices = Some(table.notices.subscribe()),
            Mode::Plain => {
                self.plain = Some(tokio::spawn(crate::screen::run_plain(
                    table.notices.subscribe(),
                    table.typed.clone(),
                )));
            }
            Mode::None => {}
        }
        Ok(())
    }

    fn start(&mut self, table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        let (journal, socket) = (run.facts.journal.display(), table.socket.display());
        if let Some(rx) = self.full_notices.take() {
            let header =
                format!("tandem · quit or Ctrl-C stops · journal {journal} · socket {socket}");
            match crate::screen::spawn_full(
                rx,
                (run.handle.clone(), table.pairing.clone()),
                header,
                table.quit.clone(),
                crate::screen::Look::from_env(self.ascii),
            ) {
                Ok(f) => self.full = Some(f),
                Err(e) => {
                    anyhow::bail!(
                        "--screen full: cannot use the terminal ({e}); try --screen plain"
                    )
                }
            }
        } else {
            let (h, q, t) = (run.handle.clone(), table.quit.clone(), table.typed.clone());
            let p = table.pairing.clone();
            std::thread::Builder::new()
                .name("tandem-stdin".into())
                .spawn(move || crate::screen::read_stdin(&h, p.as_deref(), &q, &t))?;
            // Not `eprintln!`: it panics when stderr cannot be written (a closed
            // pipe, a full disk, a file-size limit), and a game must not stop for that.
            let _ = writeln!(
                std::io::stderr(),
                "tandem: journal {journal}, control socket {socket}"
            );
        }
        Ok(())
    }

    fn stage(&self) -> Stage {
        Stage::Screens
    }

    fn stop(self: Box<Self>) -> Stopping {
        if let Some(s) = self.plain {
            s.abort();
        }
        // The terminal put back.
        drop(self.full);
        Box::pin(async {})
    }
}

/// The control socket (`tandem ctl`, the relay's way in): bound first, so
/// that a second daemon on the same table never touches the journal; the
/// first part to stop.
pub struct ControlPart {
    path: std::path::PathBuf,
    socket: Option<ControlSocket>,
    server: Option<(
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    )>,
}

impl ControlPart {
    /// The control socket, always there.
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        Some(Box::new(ControlPart {
            path: config.socket.clone(),
            socket: None,
            server: None,
        }))
    }
}

impl Part for ControlPart {
    fn name(&self) -> &'static str {
        "control socket"
    }

    fn opens(&self) -> Opens {
        Opens::none()
            .input(Input::ControlSocket)
            .listen(self.path.display().to_string())
    }

    fn open(&mut self, table: &mut Table) -> anyhow::Result<()> {
        // The pairings reach the control socket (`tandem ctl pair`).
        let mut socket = ControlSocket::bind(&self.path)?
            .with_arbiter(table.arbiter.take())
            .with_devices(table.pairing.clone());
        if let Some(t) = &table.relay_token {
            socket = socket.in_hall(ArbiterSecret::new(t)?);
        }
        table.socket = socket.path().to_owned();
        self.socket = Some(socket);
        Ok(())
    }

    fn start(&mut self, _table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        if let Some(socket) = self.socket.take() {
            let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
            let server = tokio::spawn(socket.serve(run.handle.clone(), async move {
                let _ = stop_rx.await;
            }));
            self.server = Some((stop_tx, server));
        }
        Ok(())
    }

    fn stage(&self) -> Stage {
        Stage::Inputs
    }

    fn stop(self: Box<Self>) -> Stopping {
        Box::pin(async move {
            if let Some((stop, server)) = self.server {
                let _ = stop.send(());
                let _ = server.await;
            }
        })
    }
}

/// The table's microphone (`--voice`): on when libvosk, a model for the
/// game's language (or `--voice-model`) and the microphone are there;
/// said at start either way. Beside seats of their own, voice input is
/// each seat's microphone (`--seat SIDE:mic=…`), not the table's.
pub struct TableVoicePart {
    request: VoiceRequest,
    /// Whether the table has seats of its own (then it says nothing at start).
    seats: bool,
    status: Option<VoiceStatus>,
    listening: Option<(
        crate::voice::VoiceSetup,
        std::sync::mpsc::Receiver<crate::voice::VoiceCtl>,
    )>,
    speaking: Option<crate::voice::SpeakingState>,
}

impl TableVoicePart {
    /// The table's microphone, always there: `--voice off` says so at start.
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        let mut request = config.voice_input.clone();
        if !config.seats.is_empty() {
            request.switch = VoiceSwitch::Off;
        }
        Some(Box::new(TableVoicePart {
            request,
            seats: !config.seats.is_empty(),
            status: None,
            listening: None,
            speaking: None,
        }))
    }
}

/// What a microphone opens when voice input may listen.
pub(super) fn mic_opens(switch: VoiceSwitch, mic: Option<&str>) -> Opens {
    if switch == VoiceSwitch::Off {
        return Opens::none();
    }
    Opens::none().input(Input::Voice).device(match mic {
        Some(m) => format!("microphone {m}"),
        None => "the default microphone".to_owned(),
    })
}

impl Part for TableVoicePart {
    fn name(&self) -> &'static str {
        "voice"
    }

    fn opens(&self) -> Opens {
        mic_opens(self.request.switch, self.request.mic.as_deref())
    }

    fn attach(&mut self, table: &mut Table, game: &mut Game<'_>) -> anyhow::Result<()> {
        let (voice, status) = crate::voice_start::decide(
            &self.request,
            &game.facts.table_lang,
            crate::voice_start::probe_microphone,
        );
        self.status = Some(status);
        let Some(v) = voice else { return Ok(()) };
        // tandem must not hear itself: the speech output marks when it speaks.
        let speaking = crate::voice::SpeakingState::default();
        table.table_speaking = Some(speaking.clone());
        self.speaking = Some(speaking);
        let (tx, rx) = std::sync::mpsc::channel();
        let session = &mut *game.session;
        session.set_voice(crate::voice::VoiceLink::new(tx, v.push_to_talk));
        let lang = session.table().info.lang.clone();
        let draughts_book = game.book.cloned().unwrap_or_else(|| {
            tandem_speech::Phrasebook::builtin(&lang)
                .unwrap_or_else(tandem_speech::Phrasebook::english)
        });
        let g = &session.table().game;
        let words = g.kind().voice_words(game.books, &draughts_book, &lang)?;
        let setup = crate::voice::VoiceSetup {
            config: v,
            book: draughts_book,
            words,
            ply: g.ply() as u32,
            pos: g.position(),
        };
        self.listening = Some((setup, rx));
        Ok(())
    }

    fn start(&mut self, _table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        if let (Some((setup, rx)), Some(sp)) = (self.listening.take(), self.speaking.take()) {
            // Not joined: it may wait on a microphone that is gone; it ends
            // when the session does.
            let to_session = run.handle.clone();
            crate::voice_thread::spawn(
                setup,
                Box::new(move |heard| to_session.blocking_voice(heard)),
                rx,
                sp,
            )?;
        }
        if let (false, Some(status)) = (self.seats, self.status.take()) {
            // Said once, at start: whether tandem listens, else why not and
            // the one command that fixes it (journaled as a `say` line).
            let _ = writeln!(std::io::stderr(), "tandem: {}", status.detail());
            let text = status.text(&run.facts.lang);
            let h = run.handle.clone();
            tokio::spawn(async move {
                let _ = h.request(Cmd::Say(text), Source::Tandem).await;
            });
        }
        Ok(())
    }
}
