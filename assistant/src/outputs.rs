//! The output side of `tandem play`: the speech task (a [`SpeechWorker`]
//! with fallback: speech-dispatcher, espeak-ng, text) and the braille driver
//! thread (BrlAPI or the terminal view), both fed through channels by the
//! session so that neither can hold up the clock.

use std::io::Write;
use std::time::Duration;

use tokio::sync::mpsc;

use tandem_braille::driver::{self, DisplayDriver, DriverEvent, DriverHandle};
use tandem_braille::{Action, BrailleDisplay, StatusInfo, View};
use tandem_speech::output::text::TextOutput;
use tandem_speech::output::worker::SpeechWorker;
use tandem_speech::output::{SpeechError, SpeechOutput, VoiceParams};
use tandem_speech::{Kind, Priority, Utterance};

use crate::journal::Source;
use crate::messages::{Messages, Msg};
use crate::session::{Cmd, SessionHandle};
use crate::voice::SpeakingState;

/// Speech backends: the table's and each seat's, one type.
pub use crate::seat::SpeechChoice;

/// Braille backends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrailleChoice {
    /// BrlAPI if BRLTTY answers, else the terminal view.
    #[default]
    Auto,
    /// A display through BRLTTY.
    Brlapi,
    /// Unicode braille on the terminal.
    Terminal,
    /// No braille.
    None,
}

/// The backends tried, in order, for a choice.
/// One speech backend a speech task may try.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Backend {
    Speechd,
    Espeak,
    Text,
    /// espeak-ng through `aplay` on one channel of a device, or on a device
    /// of a seat's own (`--seat SIDE:speech=left|right|alsa:DEVICE`).
    Channel {
        device: Option<String>,
        ear: Option<tandem_speech::output::channel::Ear>,
    },
}

/// The backends of a choice. A seat's own channel never falls back to the
/// table's loudspeaker (its words are its player's): to text.
fn chain(choice: &SpeechChoice) -> Vec<Backend> {
    use tandem_speech::output::channel::Ear;
    match choice {
        SpeechChoice::Auto | SpeechChoice::Speechd => {
            vec![Backend::Speechd, Backend::Espeak, Backend::Text]
        }
        SpeechChoice::Espeak => vec![Backend::Espeak, Backend::Text],
        SpeechChoice::Text => vec![Backend::Text],
        SpeechChoice::None => vec![],
        SpeechChoice::Left | SpeechChoice::Right => vec![
            Backend::Channel {
                device: None,
                ear: Some(if *choice == SpeechChoice::Left {
                    Ear::Left
                } else {
                    Ear::Right
                }),
            },
            Backend::Text,
        ],
        SpeechChoice::Alsa(d) => vec![
            Backend::Channel {
                device: Some(d.clone()),
                ear: None,
            },
            Backend::Text,
        ],
    }
}

/// Where speech-dispatcher listens: `SPEECHD_ADDRESS` as given (its Unix
/// socket's path for `unix_socket:PATH`), else its socket under
/// `XDG_RUNTIME_DIR`; `None` when there is neither.
#[must_use]
pub fn speechd_address() -> Option<String> {
    if let Some(addr) = std::env::var_os("SPEECHD_ADDRESS") {
        let a = addr.to_string_lossy().into_owned();
        return Some(
            a.strip_prefix("unix_socket:")
                .map_or(a.clone(), str::to_owned),
        );
    }
    let run = std::env::var_os("XDG_RUNTIME_DIR")?;
    let sock = std::path::Path::new(&run)
        .join("speech-dispatcher")
        .join("speechd.sock");
    Some(sock.display().to_string())
}

/// The BRLTTY a BrlAPI host names (`brlapi::1`; `BRLAPI_HOST` or BRLTTY's
/// default `:0` without one), as `tandem report` lists it.
#[must_use]
pub fn brlapi_address(host: Option<&str>) -> String {
    let host = host
        .map(str::to_owned)
        .or_else(|| std::env::var("BRLAPI_HOST").ok())
        .unwrap_or_else(|| ":0".into());
    format!("brlapi:{host}")
}

#[cfg(feature = "speechd")]
/// Whether speech-dispatcher looks reachable without letting libspeechd
/// start a server with the stock config (which never reports the end of
/// speech where there is no sound server).
fn speechd_reachable() -> bool {
    if let Some(addr) = std::env::var_os("SPEECHD_ADDRESS") {
        let a = addr.to_string_lossy().into_owned();
        return match a.strip_prefix("unix_socket:") {
            Some(p) => std::os::unix::net::UnixStream::connect(p).is_ok(),
            None => true,
        };
    }
    speechd_address().is_some_and(|sock| std::os::unix::net::UnixStream::connect(sock).is_ok())
}

fn make(
    choice: &Backend,
    lang: &str,
    headless: bool,
    explicit: bool,
    speaking: Option<SpeakingState>,
) -> Result<SpeechWorker, SpeechError> {
    let params = VoiceParams::for_language(lang);
    // With voice input, the backend tells the microphone when it speaks.
    let wrap = move |o: Box<dyn SpeechOutput>| crate::voice::muting(o, speaking);
    match choice {
        Backend::Channel { device, ear } => {
            let (device, ear) = (device.clone(), *ear);
            SpeechWorker::spawn(move || {
                tandem_speech::output::channel::ChannelOutput::new(params, device, ear)
                    .map(|o| wrap(Box::new(o) as Box<dyn SpeechOutput>))
            })
        }
        Backend::Speechd => {
            #[cfg(feature = "speechd")]
            {
                if !explicit && !speechd_reachable() {
                    return Err(SpeechError::Unavailable(
                        "speech-dispatcher is not running".into(),
                    ));
                }
                SpeechWorker::spawn(move || {
                    tandem_speech::output::speechd::SpeechdOutput::new(&params)
                        .map(|o| wrap(Box::new(o) as Box<dyn SpeechOutput>))
                })
            }
            #[cfg(not(feature = "speechd"))]
            {
                let _ = (params, explicit, wrap);
                Err(SpeechError::Unavailable(
                    "built without the speechd feature".into(),
                ))
            }
        }
        Backend::Espeak => {
            if !tandem_speech::output::espeak::EspeakOutput::available() {
                return Err(SpeechError::Unavailable(
                    "espeak-ng is not installed".into(),
                ));
            }
            SpeechWorker::spawn(move || {
                Ok(wrap(
                    Box::new(tandem_speech::output::espeak::EspeakOutput::new(params))
                        as Box<dyn SpeechOutput>,
                ))
            })
        }
        Backend::Text => {
            SpeechWorker::spawn(move || {
                // Headless: speech as tagged lines on stdout; with the screen,
                // the screen's speech log shows it.
                let out: Box<dyn Write + Send> = if headless {
                    Box::new(std::io::stdout())
                } else {
                    Box::new(std::io::sink())
                };
                Ok(wrap(
                    Box::new(TextOutput::tagged(out)) as Box<dyn SpeechOutput>
                ))
            })
        }
    }
}

/// Runs the speech task: speaks every utterance the session sends, and when
/// the backend reports errors moves to the next one and says so: through
/// `switched` (the backend's name) when given, so that the session announces
/// it to everyone and journals it, else by itself (a seat's, on its own
/// channel). With `speaking` (voice input on), every backend marks when it
/// speaks, so the microphone is muted meanwhile.
pub async fn speech_task(
    rx: mpsc::UnboundedReceiver<Utterance>,
    choice: SpeechChoice,
    lang: String,
    headless: bool,
    msgs: Messages,
    switched: Option<mpsc::UnboundedSender<String>>,
    speaking: Option<SpeakingState>,
) {
    let explicit = choice == SpeechChoice::Speechd;
    let backends = chain(&choice);
    speak_through(
        rx, backends, explicit, lang, headless, msgs, switched, speaking,
    )
    .await;
}

#[allow(clippy::too_many_arguments)] // the task's settings, passed through once
async fn speak_through(
    mut rx: mpsc::UnboundedReceiver<Utterance>,
    all: Vec<Backend>,
    explicit: bool,
    lang: String,
    headless: bool,
    msgs: Messages,
    switched: Option<mpsc::UnboundedSender<String>>,
    speaking: Option<SpeakingState>,
) {
    let mut backends = all.clone().into_iter();
    let mut worker: Option<SpeechWorker> = None;
    // The backend's errors wake the task: nothing said, nothing failed, no wake-up.
    let failed_now = std::sync::Arc::new(tokio::sync::Notify::new());
    let alarm = failed_now.clone();
    let mut next_backend = |worker: &mut Option<SpeechWorker>| {
        for c in backends.by_ref() {
            match make(&c, &lang, headless, explicit, speaking.clone()) {
                Ok(w) => {
                    tracing::info!("speech: {}", w.backend_name());
                    let a = alarm.clone();
                    w.on_error(std::sync::Arc::new(move || a.notify_one()));
                    *worker = Some(w);
                    return true;
                }
                Err(e) => tracing::warn!("speech backend {c:?}: {e}"),
            }
        }
        // Every backend failed: keep the one there is (its errors may pass: a
        // full disk, a stalled pipe, a restarted speech server), and start
        // the chain from the top at the next failure. Speech never stops for
        // the rest of the game because of one bad moment.
        backends = all.clone().into_iter();
        false
    };
    if !next_backend(&mut worker) {
        // No speech (or none works): drain so the session never blocks.
        while rx.recv().await.is_some() {}
        return;
    }
    let mut last: Option<Utterance> = None;
    // Switching backends at most once in this long: while every backend
    // keeps failing (a closed stdout, a full disk), retrying at each failure
    // would feed itself (the "speech switched" message fails too).
    let backoff = Duration::from_secs(5);
    let mut last_switch: Option<std::time::Instant> = None;
    let mut may_switch = move || {
        let now = std::time::Instant::now();
        let ok = !last_switch.is_some_and(|t| now.duration_since(t) < backoff);
        if ok {
            last_switch = Some(now);
        }
        ok
    };
    loop {
        let got = tokio::select! {
            u = rx.recv() => Ok(u),
            () = failed_now.notified() => Err(()),
        };
        let Some(w) = worker.as_ref() else { break };
        let errors = w.take_errors();
        let failed = w.backend_name().to_owned();
        if !errors.is_empty() && may_switch() {
            tracing::error!(
                "speech failed: {}",
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            if next_backend(&mut worker) {
                if let Some(w) = worker.as_ref() {
                    let name = w.backend_name().to_owned();
                    // The same kind again (the chain started over): nothing to tell.
                    let told = name == failed
                        || switched
                            .as_ref()
                            .is_some_and(|t| t.send(name.clone()).is_ok());
                    if !told {
                        let _ = w.say(msgs.utter(
                            Priority::Now,
                            Kind::Help,
                            &Msg::SpeechFallback(name),
                        ));
                    }
                    // The utterance that may have been lost is said again.
                    if let Some(u) = last.clone() {
                        let _ = w.say(u);
                    }
                }
            }
        }
        match got {
            Ok(Some(u)) => {
                if let Some(w) = worker.as_ref() {
                    if w.say(u.clone()).is_err() && may_switch() && next_backend(&mut worker) {
                        if let Some(w) = worker.as_ref() {
                            let name = w.backend_name().to_owned();
                            if name != failed
                                && !switched
                                    .as_ref()
                                    .is_some_and(|t| t.send(name.clone()).is_ok())
                            {
                                let _ = w.say(msgs.utter(
                                    Priority::Now,
                                    Kind::Help,
                                    &Msg::SpeechFallback(name),
                                ));
                            }
                            let _ = w.say(u.clone());
                        }
                    }
                }
                last = Some(u);
            }
            Ok(None) => break,
            Err(_) => {}
        }
    }
    if let Some(w) = worker {
        let _ = w.wait_idle(Duration::from_secs(2));
    }
}

/// Starts the braille driver for a choice; `None` for no braille (or the
/// terminal view when the screen shows it).
#[must_use]
pub fn braille(
    choice: BrailleChoice,
    host: Option<String>,
    headless: bool,
    board: tandem_braille::Board,
    status: StatusInfo,
) -> Option<DriverHandle> {
    let display: Box<dyn BrailleDisplay> = match choice {
        BrailleChoice::None => return None,
        BrailleChoice::Brlapi | BrailleChoice::Auto => {
            match brlapi_display(host, choice == BrailleChoice::Brlapi) {
                Some(d) => d,
                None if headless => Box::new(
                    tandem_braille::display::terminal::TerminalDisplay::new(std::io::stdout(), 40),
                ),
                // The screen draws the braille line itself.
                None => return None,
            }
        }
        BrailleChoice::Terminal if headless => Box::new(
            tandem_braille::display::terminal::TerminalDisplay::new(std::io::stdout(), 40),
        ),
        BrailleChoice::Terminal => return None,
    };
    let drv = DisplayDriver::with_board(display, board, status, View::List);
    match driver::spawn(drv) {
        Ok(h) => Some(h),
        Err(e) => {
            tracing::error!("cannot start the braille thread: {e}");
            None
        }
    }
}

#[cfg(feature = "brlapi")]
fn brlapi_display(host: Option<String>, explicit: bool) -> Option<Box<dyn BrailleDisplay>> {
    use tandem_braille::display::brlapi::{BrlApiDisplay, BrlApiSettings};
    let host = host.or_else(|| std::env::var("BRLAPI_HOST").ok());
    let settings = BrlApiSettings {
        host,
        ..BrlApiSettings::default()
    };
    let d = BrlApiDisplay::start(settings);
    match d.wait_connected(Duration::from_secs(2)) {
        Ok(g) => {
            tracing::info!("braille: BrlAPI, {} cells", g.width);
            Some(Box::new(d))
        }
        // Asked for explicitly: keep it; it connects when BRLTTY comes.
        Err(e) if explicit => {
            tracing::warn!("braille: BRLTTY not there yet ({e}); waiting for it");
            Some(Box::new(d))
        }
        Err(e) => {
            tracing::info!("braille: no BRLTTY ({e}); terminal view");
            None
        }
    }
}

#[cfg(not(feature = "brlapi"))]
fn brlapi_display(_host: Option<String>, _explicit: bool) -> Option<Box<dyn BrailleDisplay>> {
    tracing::warn!("braille: built without the brlapi feature; terminal view");
    None
}

/// Feeds the braille keys' actions to the session (runs on its own thread).
pub fn forward_keys(
    events: std::sync::mpsc::Receiver<DriverEvent>,
    session: SessionHandle,
    notices: tokio::sync::broadcast::Sender<crate::session::Notice>,
    msgs: &crate::messages::Messages,
    blind: Option<tandem_rules::Color>,
    game: crate::game::GameKind,
    seat: Option<tandem_rules::Color>,
) {
    // A seat's display acts for its player's side.
    let blind = seat.or(blind);
    while let Ok(ev) = events.recv() {
        let cmd = match ev {
            // Two targets routed: the game's adapter names the move (`32 28`).
            DriverEvent::Action(Action::MoveRequest { from, to }) => {
                match game.routed_move(from, to) {
                    Some(text) => Cmd::Move(text),
                    None => continue,
                }
            }
            // A view that gives move text (the two squares, `e2e4`): the
            // game's rules check it and ask for what is missing (a promotion piece).
            DriverEvent::Action(Action::MoveText(text)) => Cmd::Move(text),
            DriverEvent::Action(Action::ClockReport) => Cmd::Clock,
            DriverEvent::Action(Action::LastMove) => Cmd::Last,
            DriverEvent::Action(Action::Done) => Cmd::Done(blind),
            // The record view (issue 15): a routed move opens the review; the
            // cancel key in review goes back to the live game.
            DriverEvent::Action(Action::Review(ply)) => {
                Cmd::ReviewPly(u32::try_from(ply).unwrap_or(u32::MAX))
            }
            DriverEvent::Action(Action::Live) => Cmd::Live,
            DriverEvent::Unavailable(e) => {
                tracing::warn!("braille display unavailable: {e}");
                let _ = notices.send(crate::session::Notice::Device {
                    device: "braille".into(),
                    ok: false,
                    text: format!("braille display lost: {e}"),
                });
                // Said to everyone and journaled (the hall raises it):
                // the blind player must know the display is gone.
                let say = Cmd::Say(msgs.text(&crate::messages::Msg::BrailleLost));
                if session.blocking_request(say, Source::Tandem).is_err() {
                    return;
                }
                continue;
            }
            DriverEvent::Available => {
                let _ = notices.send(crate::session::Notice::Device {
                    device: "braille".into(),
                    ok: true,
                    text: "braille display back".into(),
                });
                let say = Cmd::Say(msgs.text(&crate::messages::Msg::BrailleBack));
                if session.blocking_request(say, Source::Tandem).is_err() {
                    return;
                }
                continue;
            }
            _ => continue,
        };
        if session
            .blocking_request_as(cmd, Source::Keys, seat)
            .is_err()
        {
            return;
        }
    }
}

/// A seat's outputs, started: its own speech task and braille driver.
#[derive(Debug)]
pub struct SeatStarted {
    /// What the session sends to.
    pub output: crate::session::SeatOutput,
    /// The seat's speech task.
    pub speech: Option<tokio::task::JoinHandle<()>>,
    /// The seat's braille driver (its keys are forwarded as the seat's).
    pub braille: Option<DriverHandle>,
}

/// Starts a seat's outputs (`--seat`): speech in the seat's language
/// (`lang` when it has none), the board on its display from its side.
#[must_use]
pub fn start_seat(
    spec: &crate::seat::SeatSpec,
    lang: &str,
    headless: bool,
    board: tandem_braille::Board,
    status: StatusInfo,
    speaking: Option<SpeakingState>,
) -> SeatStarted {
    let lang = spec.lang.clone().unwrap_or_else(|| lang.to_owned());
    let (speech_tx, speech) = if spec.speech == SpeechChoice::None {
        (None, None)
    } else {
        let (tx, rx) = mpsc::unbounded_channel();
        let msgs = Messages::new(
            tandem_speech::Phrasebook::builtin(&lang)
                .unwrap_or_else(tandem_speech::Phrasebook::english),
        );
        let task = tokio::spawn(speech_task(
            rx,
            spec.speech.clone(),
            lang,
            headless,
            msgs,
            None,
            speaking,
        ));
        (Some(tx), Some(task))
    };
    let braille = match &spec.braille {
        crate::seat::SeatBraille::None => None,
        crate::seat::SeatBraille::Terminal => {
            braille(BrailleChoice::Terminal, None, headless, board, status)
        }
        crate::seat::SeatBraille::Brlapi(host) => braille(
            BrailleChoice::Brlapi,
            Some(host.clone()),
            headless,
            board,
            status,
        ),
    };
    SeatStarted {
        output: crate::session::SeatOutput {
            side: spec.side,
            speech: speech_tx,
            braille: braille.as_ref().map(|b| b.input.clone()),
            lang: spec.lang.clone(),
        },
        speech,
        braille,
    }
}

/// A speech worker for a one-off command (`tandem voice check`): the first
/// backend of `choice`'s chain that starts (text goes nowhere: the command
/// prints its sentences itself).
#[must_use]
pub fn one_off_speech(choice: &SpeechChoice, lang: &str) -> Option<SpeechWorker> {
    let explicit = *choice == SpeechChoice::Speechd;
    chain(choice)
        .into_iter()
        .find_map(|c| make(&c, lang, false, explicit, None).ok())
}
