//! The voice thread: it opens the microphone and the recognizer, listens
//! through the game's listener (which the registry of games gives it,
//! `AnyPosition::listener` in `crate::game`), and sends what it
//! heard to whoever started it ([`VoiceSink`]: the session's handle). It
//! names no game and knows no session: an adapter on the floor above the
//! registry. What it hears is decided by the session (`crate::voice`'s
//! types, `docs/voice.md`).

use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use tandem_speech::listen::audio::{Mode, PushToTalk, VadConfig};
use tandem_speech::listen::mic::Microphone;
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};

use crate::voice::{
    GameListener, SpeakingState, VoiceCtl, VoiceInput, VoiceSetup, VoiceSink, ECHO_TAIL, RETRY,
    SILENT_LIMIT,
};

/// Starts the voice thread. It loads the model (a second or two), then
/// listens until the session stops.
///
/// # Errors
/// The thread cannot be started.
pub fn spawn(
    setup: VoiceSetup,
    session: Box<VoiceSink>,
    ctl: Receiver<VoiceCtl>,
    speaking: SpeakingState,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("tandem-voice".into())
        .spawn(move || run(setup, &*session, &ctl, &speaking))
}

/// An open microphone and when it last gave audio.
struct Mic {
    mic: Microphone,
    last: Instant,
}

enum Lost {
    No,
    Yes(String),
}

impl Mic {
    /// Waits for a frame; `Lost::Yes` when the device looks gone.
    fn next(&mut self, wait: Duration) -> (Option<Vec<i16>>, Lost) {
        match self.mic.frames.recv_timeout(wait) {
            Ok(f) => {
                self.last = Instant::now();
                (Some(f), Lost::No)
            }
            Err(RecvTimeoutError::Timeout) if self.last.elapsed() > SILENT_LIMIT => (
                None,
                Lost::Yes(format!(
                    "no audio from the microphone for {} s",
                    SILENT_LIMIT.as_secs()
                )),
            ),
            Err(RecvTimeoutError::Timeout) => (None, Lost::No),
            Err(RecvTimeoutError::Disconnected) => {
                (None, Lost::Yes("the microphone stream stopped".into()))
            }
        }
    }
}

/// What the session is told of the microphone: working (`None`), or why not.
fn microphone(error: Option<String>) -> VoiceInput {
    VoiceInput::Microphone {
        ok: error.is_none(),
        error: error.unwrap_or_default(),
    }
}

fn open(name: Option<&str>) -> Result<Mic, String> {
    let mic = Microphone::open(name).map_err(|e| e.to_string())?;
    Ok(Mic {
        mic,
        last: Instant::now(),
    })
}

fn run(setup: VoiceSetup, session: &VoiceSink, ctl: &Receiver<VoiceCtl>, speaking: &SpeakingState) {
    let cfg = &setup.config;
    set_log_level(-1);
    let started = Instant::now();
    let rec = match VoskRecognizer::new(&cfg.model, &[]) {
        Ok(r) => Box::new(r),
        Err(e) => {
            let _ = session(VoiceInput::Failed(e.to_string()));
            return;
        }
    };
    let key = PushToTalk::default();
    let mode = if cfg.push_to_talk {
        Mode::PushToTalk(key.clone())
    } else {
        Mode::Voice(VadConfig::default())
    };
    let policy = cfg.confirm.policy();
    // The game's listener, from the registry: this thread names no game.
    let listening = setup
        .pos
        .clone()
        .listener(rec, &setup, policy, mode)
        .map(|l| listen(l, &setup, &key, started, session, ctl, speaking));
    if let Err(e) = listening {
        let _ = session(VoiceInput::Failed(e.to_string()));
    }
}

/// Listens with `listener` (the game at the table's) until the session stops.
fn listen(
    mut listener: Box<dyn GameListener>,
    setup: &VoiceSetup,
    key: &PushToTalk,
    started: Instant,
    session: &VoiceSink,
    ctl: &Receiver<VoiceCtl>,
    speaking: &SpeakingState,
) {
    let cfg = &setup.config;
    if !listener.missing_words().is_empty() {
        use std::io::Write as _;
        // Not `eprintln!`: it panics when stderr cannot be written, and
        // this thread is the voice input.
        let _ = writeln!(
            std::io::stderr(),
            "tandem: the voice model does not know these words, which cannot be heard: {}",
            listener.missing_words().join(" ")
        );
    }
    tracing::info!("voice: model loaded in {:?}", started.elapsed());
    let mute = listener.mute_switch();
    let mut ply = setup.ply;
    let mut paused = false;
    let mut mic: Option<Mic> = None;
    let mut lost: Option<String> = None;
    let mut next_try = Instant::now();
    loop {
        // The session's messages first: a new position must be listened in at once.
        loop {
            match ctl.try_recv() {
                Ok(VoiceCtl::Position { ply: p, pos }) => {
                    if let Err(e) = listener.set_position(pos) {
                        tracing::error!("voice: grammar: {e}");
                    }
                    ply = p;
                }
                Ok(VoiceCtl::Listen(on)) if cfg.push_to_talk => {
                    if on {
                        key.press();
                    } else {
                        key.release();
                    }
                }
                Ok(VoiceCtl::Listen(on)) => paused = !on,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        let Some(m) = mic.as_mut() else {
            if Instant::now() < next_try {
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
            match open(cfg.mic.as_deref()) {
                Ok(m) => {
                    mic = Some(m);
                    lost = None;
                    tracing::info!("voice: listening");
                    if session(microphone(None)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    next_try = Instant::now() + RETRY;
                    if lost.is_none() {
                        tracing::warn!("voice: {e}");
                        lost = Some(e.clone());
                        if session(microphone(Some(e))).is_err() {
                            return;
                        }
                    }
                }
            }
            continue;
        };
        let (frame, gone) = m.next(Duration::from_millis(100));
        if let Lost::Yes(why) = gone {
            tracing::warn!("voice: {why}");
            lost = Some(why.clone());
            // Told first: closing a hung device may wait for it.
            if session(microphone(Some(why))).is_err() {
                return;
            }
            mic = None;
            next_try = Instant::now() + RETRY;
            continue;
        }
        let Some(frame) = frame else { continue };
        // tandem must not hear itself (and nothing while listening is off).
        if paused || speaking.busy(ECHO_TAIL) {
            mute.mute();
        } else {
            mute.unmute();
        }
        match listener.push_frame(&frame, ply) {
            Ok(None) => {}
            Ok(Some(heard)) => {
                if session(heard).is_err() {
                    return;
                }
            }
            Err(e) => tracing::error!("voice: recognizer: {e}"),
        }
    }
}
