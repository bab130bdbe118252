//! The table's own outputs as parts: its speech, the notice that speech
//! moved to another backend, and its braille display with its keys.

use tokio::sync::mpsc;

use super::{Opens, Part, Running, Stage, Stopping, Table};
use crate::config::{BrailleChoice, Config, SpeechChoice};
use crate::journal::Source;
use crate::session::Cmd;

/// What a speech choice may connect to (speech-dispatcher for `auto` and
/// `speechd`) and the sound device it uses.
pub(super) fn speech_opens(choice: &SpeechChoice) -> Opens {
    let o = Opens::none();
    match choice {
        SpeechChoice::Auto | SpeechChoice::Speechd => {
            let o = o.device("the default sound output");
            match crate::outputs::speechd_address() {
                Some(a) => o.connect(a),
                None => o,
            }
        }
        SpeechChoice::Espeak | SpeechChoice::Left | SpeechChoice::Right => {
            o.device("the default sound output")
        }
        SpeechChoice::Alsa(d) => o.device(format!("alsa:{d}")),
        SpeechChoice::Text | SpeechChoice::None => o,
    }
}

/// What a braille choice connects to (BRLTTY) and whether its keys are an input.
pub(super) fn braille_opens(choice: BrailleChoice, host: Option<&str>) -> Opens {
    match choice {
        BrailleChoice::Auto | BrailleChoice::Brlapi => Opens::none()
            .input(super::Input::Braille)
            .connect(crate::outputs::brlapi_address(host)),
        // The terminal view has no keys.
        BrailleChoice::Terminal | BrailleChoice::None => Opens::none(),
    }
}

/// The table's speech (`--speech`): the speech task the session speaks
/// through, with its fallback from backend to backend.
pub struct SpeechPart {
    choice: SpeechChoice,
    rx: Option<mpsc::UnboundedReceiver<tandem_speech::Utterance>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl SpeechPart {
    /// The table's speech, always there (`none` drains what it is sent).
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        Some(Box::new(SpeechPart {
            choice: config.speech.clone(),
            rx: None,
            task: None,
        }))
    }
}

impl Part for SpeechPart {
    fn name(&self) -> &'static str {
        "speech"
    }

    fn opens(&self) -> Opens {
        speech_opens(&self.choice)
    }

    fn prepare(&mut self, table: &mut Table) -> anyhow::Result<()> {
        let (tx, rx) = mpsc::unbounded_channel();
        table.out.speech = tx;
        table.out.table_speaks = self.choice != SpeechChoice::None;
        self.rx = Some(rx);
        Ok(())
    }

    fn start(&mut self, table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        let rx = self
            .rx
            .take()
            .ok_or_else(|| anyhow::anyhow!("speech: started before it was prepared"))?;
        self.task = Some(tokio::spawn(crate::outputs::speech_task(
            rx,
            self.choice.clone(),
            run.facts.lang.clone(),
            table.headless,
            run.facts.msgs.clone(),
            table.speech_switched.take(),
            table.table_speaking.clone(),
        )));
        Ok(())
    }

    fn stage(&self) -> Stage {
        Stage::Speech
    }

    fn stop(self: Box<Self>) -> Stopping {
        Box::pin(async move {
            if let Some(t) = self.task {
                let _ = t.await;
            }
        })
    }
}

/// A speech backend that died: everyone is told at once (and the journal
/// records it), in the new backend's voice.
pub struct SpeechFallbackPart {
    rx: Option<mpsc::UnboundedReceiver<String>>,
}

impl SpeechFallbackPart {
    /// The notice, always there.
    #[must_use]
    pub fn of(_config: &Config) -> Option<Box<dyn Part>> {
        Some(Box::new(SpeechFallbackPart { rx: None }))
    }
}

impl Part for SpeechFallbackPart {
    fn name(&self) -> &'static str {
        "speech fallback notice"
    }

    fn opens(&self) -> Opens {
        Opens::none()
    }

    fn prepare(&mut self, table: &mut Table) -> anyhow::Result<()> {
        let (tx, rx) = mpsc::unbounded_channel();
        table.speech_switched = Some(tx);
        self.rx = Some(rx);
        Ok(())
    }

    fn start(&mut self, table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        let Some(mut rx) = self.rx.take() else {
            return Ok(());
        };
        let (h, n, msgs) = (
            run.handle.clone(),
            table.notices.clone(),
            run.facts.msgs.clone(),
        );
        tokio::spawn(async move {
            while let Some(name) = rx.recv().await {
                let _ = n.send(crate::session::Notice::Device {
                    device: "speech".into(),
                    ok: true,
                    text: format!("speech failed; now through {name}"),
                });
                let text = msgs.text(&crate::messages::Msg::SpeechFallback(name));
                if h.request(Cmd::Say(text), Source::Tandem).await.is_err() {
                    return;
                }
            }
        });
        Ok(())
    }
}

/// The table's braille display (`--braille`) and the thread that hands its
/// keys to the session.
pub struct BraillePart {
    choice: BrailleChoice,
    host: Option<String>,
    /// Whose side the display shows the board from.
    seen_by: tandem_rules::Color,
    start: crate::kind::AnyPosition,
    driver: Option<tandem_braille::driver::DriverHandle>,
}

impl BraillePart {
    /// The table's display, unless `--braille none`.
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        (config.braille != BrailleChoice::None).then(|| {
            Box::new(BraillePart {
                choice: config.braille,
                host: config.brlapi_host.clone(),
                seen_by: match config.setup.blind {
                    crate::session::Blind::Black => tandem_rules::Color::Black,
                    _ => tandem_rules::Color::White,
                },
                start: config.setup.start.clone(),
                driver: None,
            }) as Box<dyn Part>
        })
    }
}

impl Part for BraillePart {
    fn name(&self) -> &'static str {
        "braille"
    }

    fn opens(&self) -> Opens {
        braille_opens(self.choice, self.host.as_deref())
    }

    fn prepare(&mut self, table: &mut Table) -> anyhow::Result<()> {
        self.driver = crate::outputs::braille(
            self.choice,
            self.host.clone(),
            table.headless,
            self.start.clone().braille_board(self.seen_by),
            tandem_braille::StatusInfo::new(self.start.turn()),
        );
        table.out.braille = self.driver.as_ref().map(|b| b.input.clone());
        Ok(())
    }

    fn start(&mut self, table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        if let Some(b) = self.driver.as_mut() {
            keys_thread(b, table, run, None)?;
        }
        Ok(())
    }

    fn stop(self: Box<Self>) -> Stopping {
        if let Some(b) = self.driver {
            b.shutdown();
        }
        Box::pin(async {})
    }
}

/// Starts the thread that hands a display's keys to the session (as
/// `seat`'s, for a seat's display).
pub(super) fn keys_thread(
    driver: &mut tandem_braille::driver::DriverHandle,
    table: &Table,
    run: &Running<'_>,
    seat: Option<tandem_rules::Color>,
) -> anyhow::Result<()> {
    let events = std::mem::replace(&mut driver.events, std::sync::mpsc::channel().1);
    let (h, n, m) = (
        run.handle.clone(),
        table.notices.clone(),
        run.facts.msgs.clone(),
    );
    let (blind, kind) = (run.facts.blind_side, run.facts.kind);
    let name = match seat {
        Some(side) => format!("tandem-keys-{side}"),
        None => "tandem-keys".into(),
    };
    std::thread::Builder::new()
        .name(name)
        .spawn(move || crate::outputs::forward_keys(events, h, n, &m, blind, kind, seat))?;
    Ok(())
}
