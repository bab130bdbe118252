//! The real `tandem play --headless` with voice input: the Korean Vosk model (the one model a package ships here) and a
//! Korean test phrasebook, a microphone that is ALSA reading a named pipe
//! through cpal (as `speech/tests/listen_mic.rs` does) fed recordings in
//! real time, in whole blocks of what cpal reads at a time ([`MIC_BLOCK`]),
//! and a loudspeaker that is a named pipe ALSA plays into.
//!
//! The daemon gets its own ALSA configuration through `ALSA_CONFIG_PATH` in
//! its environment only. The tests run one at a time ([`serial`]: each
//! loads the model).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tandem_speech::listen::fixture::{alsa_pipe_config, korean_model, mic_blocks, MIC_BLOCK};
use tandem_speech::listen::{read_wav_16k, SAMPLE_RATE};

use super::{ctl, verify_ok, Daemon, Play};

/// One test at a time: each daemon loads a 250 MB model, and the mute test
/// depends on timing.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A file of `speech/tests/data`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../speech/tests/data")
        .join(name)
}

/// A recording of `speech/tests/data`, at 16 kHz.
pub fn wav(name: &str) -> Vec<i16> {
    read_wav_16k(&data(name)).unwrap()
}

/// espeak-ng's Korean for `text`, at 16 kHz (written to `dir/NAME.wav`).
pub fn espeak(dir: &Path, name: &str, text: &str) -> Vec<i16> {
    let out = dir.join(format!("{name}.wav"));
    tandem_speech::listen::fixture::espeak_korean(&out, text);
    read_wav_16k(&out).unwrap()
}

/// One [`MIC_BLOCK`]: 100 ms.
pub const BLOCK_TIME: Duration =
    Duration::from_millis((MIC_BLOCK as u64 * 1000) / SAMPLE_RATE as u64);

/// The microphone: a named pipe ALSA captures from (16 kHz mono S16_LE), fed
/// one block of [`MIC_BLOCK`] frames every 100 ms (the pace of a sound card;
/// a smaller write would be padded with stale audio by ALSA's file plugin):
/// silence, or the next block of a queued utterance; and nothing at all on
/// demand (a microphone that hangs or is pulled out: the capture stream
/// stops delivering audio).
pub struct Mic {
    queue: Arc<Mutex<VecDeque<Vec<u8>>>>,
    connected: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Mic {
    /// Feeds the pipe `fifo` from a thread of its own.
    pub fn start(fifo: PathBuf) -> Mic {
        let queue: Arc<Mutex<VecDeque<Vec<u8>>>> = Arc::default();
        let connected = Arc::new(AtomicBool::new(true));
        let stop = Arc::new(AtomicBool::new(false));
        let (q, c, s) = (queue.clone(), connected.clone(), stop.clone());
        // Not joined: it may wait in open() for a reader that never comes.
        std::thread::spawn(move || {
            let silence = vec![0u8; MIC_BLOCK * 2];
            while !s.load(Ordering::SeqCst) {
                let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) else {
                    return;
                };
                let mut next = Instant::now();
                while !s.load(Ordering::SeqCst) {
                    if !c.load(Ordering::SeqCst) {
                        // Unplugged: the pipe stays open and silent (closing it
                        // would make ALSA's file plugin repeat its buffer).
                        std::thread::sleep(BLOCK_TIME);
                        next = Instant::now();
                        continue;
                    }
                    let chunk = q.lock().unwrap().pop_front();
                    let r = match &chunk {
                        Some(u) => f.write_all(u),
                        None => f.write_all(&silence),
                    };
                    if r.is_err() {
                        break; // the reader went away (a device probe): reopen
                    }
                    next += BLOCK_TIME;
                    std::thread::sleep(next.saturating_duration_since(Instant::now()));
                }
            }
        });
        Mic {
            queue,
            connected,
            stop,
        }
    }

    /// Queues `audio`; it is said from the next block on, in real time:
    /// returns how long that takes.
    pub fn say(&self, audio: &[i16]) -> Duration {
        let blocks = mic_blocks(audio);
        let n = blocks.len() as u32;
        self.queue.lock().unwrap().extend(blocks);
        BLOCK_TIME * n
    }

    /// Queues `d` of silence (whole blocks, at least one).
    pub fn silence(&self, d: Duration) -> Duration {
        let n = (d.as_millis() / BLOCK_TIME.as_millis()).max(1) as usize;
        self.say(&vec![0i16; n * MIC_BLOCK])
    }

    /// Waits until everything queued has been written into the pipe (at
    /// most `limit`). What ALSA and the daemon have not read yet is then at
    /// most the pipe's buffer (64 KiB: 2 s of audio) and ALSA's: queue
    /// [`Mic::silence`] after an utterance to be sure it was all taken.
    pub fn wait_fed(&self, limit: Duration) {
        let t0 = Instant::now();
        while !self.queue.lock().unwrap().is_empty() {
            assert!(
                t0.elapsed() < limit,
                "the microphone was not read for {limit:?}"
            );
            std::thread::sleep(BLOCK_TIME / 4);
        }
    }

    /// The microphone stops delivering audio.
    pub fn unplug(&self) {
        self.connected.store(false, Ordering::SeqCst);
    }

    /// It delivers audio again.
    pub fn plug(&self) {
        self.connected.store(true, Ordering::SeqCst);
    }
}

impl Drop for Mic {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// The loudspeaker: reads what ALSA plays (espeak-ng's 22 050 Hz mono
/// S16_LE) from a named pipe at the pace a sound card would, so speech takes
/// as long as it would in the room. Records when sound was playing.
pub struct Speaker {
    /// When each utterance played (start, end), once it has ended.
    pub playing: Arc<Mutex<Vec<(Instant, Instant)>>>,
    /// When each utterance started (the device opened).
    pub started: Arc<Mutex<Vec<Instant>>>,
}

impl Speaker {
    /// Reads the pipe `fifo` from a thread of its own.
    pub fn start(fifo: PathBuf) -> Speaker {
        let playing: Arc<Mutex<Vec<(Instant, Instant)>>> = Arc::default();
        let started: Arc<Mutex<Vec<Instant>>> = Arc::default();
        let (p, s) = (playing.clone(), started.clone());
        std::thread::spawn(move || loop {
            // Each utterance is one espeak-ng process opening the device.
            let Ok(mut f) = std::fs::File::open(&fifo) else {
                return;
            };
            let start = Instant::now();
            s.lock().unwrap().push(start);
            let mut buf = [0u8; 882]; // 20 ms
            let mut next = start;
            loop {
                match f.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                next += Duration::from_millis(20);
                std::thread::sleep(next.saturating_duration_since(Instant::now()));
            }
            p.lock().unwrap().push((start, Instant::now()));
        });
        Speaker { playing, started }
    }
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().expect("mkfifo runs");
    assert!(st.success());
}

/// A private folder with the test microphone and loudspeaker, and the ALSA
/// configuration that makes them the default devices.
pub struct Room {
    /// The folder (socket, journal, pipes, recordings).
    pub dir: tempfile::TempDir,
    /// The microphone.
    pub mic: Mic,
    conf: PathBuf,
    /// The loudspeaker's pipe (read it with [`Speaker::start`]).
    pub spk_fifo: PathBuf,
    /// The other voice tests wait until this room is dropped (after the
    /// daemons made in it).
    _serial: MutexGuard<'static, ()>,
}

impl Room {
    /// The Korean Vosk model and a new room, once the other voice tests of
    /// this binary are done ([`serial`]); `None` without the model when
    /// `TANDEM_SKIP_REAL` is set outside CI (else [`korean_model`] fails saying
    /// what is missing).
    pub fn with_model() -> Option<(Room, PathBuf)> {
        let model = korean_model()?;
        Some((Room::with_devices(serial()), model))
    }

    /// The pipes and the ALSA configuration in a new folder.
    fn with_devices(serial: MutexGuard<'static, ()>) -> Room {
        let dir = tempfile::tempdir().unwrap();
        let mic_fifo = dir.path().join("mic.fifo");
        let spk_fifo = dir.path().join("speaker.fifo");
        mkfifo(&mic_fifo);
        mkfifo(&spk_fifo);
        let conf = dir.path().join("asound.conf");
        std::fs::write(&conf, alsa_pipe_config(&mic_fifo, Some(&spk_fifo))).unwrap();
        Room {
            mic: Mic::start(mic_fifo),
            dir,
            conf,
            spk_fifo,
            _serial: serial,
        }
    }

    /// `tandem play --headless --braille none --voice-model MODEL
    /// --phrasebook PHRASEBOOK --confirm always EXTRA…` (`--speech text`
    /// unless EXTRA says otherwise) listening through the test microphone,
    /// logging at `info`; waits until its socket answers.
    pub fn play(&self, model: &Path, phrasebook: &Path, extra: &[&str]) -> VoiceDaemon {
        let play = Play::in_dir(self.dir.path())
            .arg("--voice-model")
            .arg(model)
            .arg("--phrasebook")
            .arg(phrasebook);
        self.start(play, extra)
    }

    /// `ALSA_CONFIG_PATH` for a process that should use this room's
    /// microphone and loudspeaker.
    pub fn alsa_config_path(&self) -> String {
        format!("/usr/share/alsa/alsa.conf:{}", self.conf.display())
    }

    /// [`Room::play`] without `--voice-model` or `--phrasebook`: the model is
    /// the one tandem finds for `--lang` (the user's model folder is
    /// `DATA/tandem/models`, `XDG_DATA_HOME` being `data`).
    pub fn play_finding(&self, data: &Path, extra: &[&str]) -> VoiceDaemon {
        let play = Play::in_dir(self.dir.path()).env("XDG_DATA_HOME", data);
        self.start(play, extra)
    }

    /// [`Room::play_finding`] with `--lang pl` and the Korean phrasebook
    /// (the Korean model stands under the Polish model's name in `data`):
    /// voice input comes on, and a move said into the microphone is heard.
    pub fn finds_the_model_and_hears_a_move(&self, data: &Path) {
        let phrasebook = tandem_speech::listen::fixture::korean_phrasebook_path();
        let d = self.play_finding(
            data,
            &["--lang", "pl", "--phrasebook", phrasebook.to_str().unwrap()],
        );
        d.wait_for("voice input on", Duration::from_secs(30), || {
            d.said()
                .iter()
                .any(|s| s == "Voice input is on: say your moves.")
        });
        d.wait_listening();
        self.mic.say(&wav("ko-33-29.wav"));
        d.wait_for("the spoken move", Duration::from_secs(60), || {
            d.events_of("heard").iter().any(|e| e["text"] == "33-29")
        });
    }

    fn start(&self, play: Play, extra: &[&str]) -> VoiceDaemon {
        let journal = self.dir.path().join("game.jsonl");
        let mut play = play
            .args(["--braille", "none"])
            .arg("--journal")
            .arg(&journal)
            .args(["--confirm", "always"])
            .args(extra)
            .env(
                "ALSA_CONFIG_PATH",
                format!("/usr/share/alsa/alsa.conf:{}", self.conf.display()),
            )
            .env("TANDEM_LOG", "tandem=info")
            .stdout_lines();
        if !extra.contains(&"--speech") {
            play = play.args(["--speech", "text"]);
        }
        VoiceDaemon {
            daemon: play.start(),
            journal,
            stdout: RefCell::default(),
        }
    }
}

/// A running `tandem play` with voice input ([`Room::play`]), killed when
/// dropped.
pub struct VoiceDaemon {
    daemon: Daemon,
    /// Its journal.
    pub journal: PathBuf,
    stdout: RefCell<Vec<String>>,
}

impl VoiceDaemon {
    /// Waits until `ok`; after `limit`, fails showing the journal and stdout.
    pub fn wait_for(&self, what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
        let t0 = Instant::now();
        while !ok() {
            assert!(
                t0.elapsed() < limit,
                "waited {limit:?} for {what}\njournal:\n{}\nstdout:\n{}",
                std::fs::read_to_string(&self.journal).unwrap_or_default(),
                self.stdout().join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits (30 s at most) until a spoken input was read back (a `heard`
    /// event with the decision `read-back`): the last `heard` event then.
    pub fn wait_read_back(&self, what: &str) -> Value {
        self.wait_for(what, Duration::from_secs(30), || {
            self.events_of("heard")
                .iter()
                .any(|e| e["decision"] == "read-back")
        });
        self.events_of("heard").last().unwrap().clone()
    }

    /// Whether a spoken "yes" was heard and played what it confirmed.
    pub fn yes_played(&self) -> bool {
        self.events_of("heard")
            .iter()
            .any(|e| e["kind"] == "command" && e["text"] == "yes" && e["decision"] == "play")
    }

    /// Every line it wrote to stdout so far.
    pub fn stdout(&self) -> Vec<String> {
        let mut lines = self.stdout.borrow_mut();
        if let Some(rx) = &self.daemon.stdout {
            lines.extend(rx.try_iter());
        }
        lines.clone()
    }

    /// The journal's events.
    pub fn events(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.journal)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|v| v["event"].clone())
            .collect()
    }

    /// The journal's events of type `ty`.
    pub fn events_of(&self, ty: &str) -> Vec<Value> {
        self.events()
            .into_iter()
            .filter(|e| e["type"] == ty)
            .collect()
    }

    /// The texts announced, in the journal.
    pub fn said(&self) -> Vec<String> {
        self.events_of("announced")
            .iter()
            .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Waits until the model is loaded and the microphone open.
    pub fn wait_listening(&self) {
        self.wait_for(
            "the microphone to open (model loaded)",
            Duration::from_secs(90),
            || self.events_of("microphone").iter().any(|e| e["ok"] == true),
        );
        // The first frames, so an utterance is not cut by the opening.
        std::thread::sleep(Duration::from_millis(500));
    }

    /// Waits out the echo tail after tandem's last words that the test saw
    /// come out: the microphone is muted while tandem speaks and for
    /// `tandem::voice::ECHO_TAIL` after (a timer in the daemon, started
    /// when its speech thread sees the utterance end), so three times that.
    /// Only ever called after waiting for the words themselves.
    pub fn wait_echo_tail(&self) {
        std::thread::sleep(tandem::voice::ECHO_TAIL * 3);
    }

    /// `tandem ctl ARGS…`: whether it succeeded, and its stdout.
    pub fn ctl(&self, args: &[&str]) -> (bool, String) {
        let out = ctl(&self.daemon.socket, args);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    /// `tandem ctl state`.
    pub fn state(&self) -> Value {
        let (ok, out) = self.ctl(&["state"]);
        assert!(ok, "tandem ctl state failed: {out}");
        serde_json::from_str(&out).unwrap()
    }

    /// Types a line on its stdin.
    pub fn type_line(&mut self, line: &str) {
        self.daemon.type_line(line);
    }

    /// `tandem journal verify` passes on its journal.
    pub fn verify_journal(&self) {
        verify_ok(&self.journal);
    }
}
