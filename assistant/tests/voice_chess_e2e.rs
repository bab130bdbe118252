//! End to end, chess by voice: the real `tandem play --variant chess
//! --headless` with the Korean Vosk model (the one model a package ships
//! here) and the Korean CHESS test phrasebook (`speech/tests/data/chess-ko.toml`:
//! files and ranks are the Sino-Korean numbers, so "e2 e4" is "오 이 오 사"),
//! a microphone that is ALSA reading a named pipe through cpal, and
//! espeak-ng's Korean for the moves (made by the test) and the checked-in
//! "네" (yes), written into the pipe in real time in whole [`MIC_BLOCK`]s.
//!
//! The chess grammar of the position's legal moves and the book's commands
//! is what Vosk listens with in the daemon; a move is read back in the chess
//! book's words and played on "네"; an illegal one is refused with the
//! reason and never played. Without the model the tests fail with a
//! message, unless `TANDEM_SKIP_REAL=1`; espeak-ng must be installed.
#![cfg(feature = "vosk")]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tandem::client::Client;
use tandem_speech::listen::fixture::{korean_model, mic_blocks, MIC_BLOCK};
use tandem_speech::listen::{read_wav_16k, SAMPLE_RATE};

const TANDEM: &str = env!("CARGO_BIN_EXE_tandem");

/// One test at a time: each daemon loads the model.
static SERIAL: Mutex<()> = Mutex::new(());

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../speech/tests/data")
        .join(name)
}

/// espeak-ng's Korean for `text`, at 16 kHz.
fn espeak(dir: &Path, name: &str, text: &str) -> Vec<i16> {
    let out = dir.join(format!("{name}.wav"));
    let st = Command::new("espeak-ng")
        .args(["-v", "ko", "-w"])
        .arg(&out)
        .arg(text)
        .status()
        .expect("espeak-ng must be installed (apt-get install espeak-ng) for the voice tests");
    assert!(st.success(), "espeak-ng failed for {text:?}");
    read_wav_16k(&out).unwrap()
}

/// One [`MIC_BLOCK`]: 100 ms.
const BLOCK_TIME: Duration = Duration::from_millis((MIC_BLOCK as u64 * 1000) / SAMPLE_RATE as u64);

/// The microphone: a named pipe ALSA captures from (16 kHz mono S16_LE), fed
/// one whole block every 100 ms: silence, or the next block of a queued
/// utterance (as in `voice_e2e.rs`).
struct Mic {
    queue: Arc<Mutex<VecDeque<Vec<u8>>>>,
    stop: Arc<AtomicBool>,
}

impl Mic {
    fn start(fifo: PathBuf) -> Mic {
        let queue: Arc<Mutex<VecDeque<Vec<u8>>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (q, s) = (queue.clone(), stop.clone());
        // Not joined: it may wait in open() for a reader that never comes.
        std::thread::spawn(move || {
            let silence = vec![0u8; MIC_BLOCK * 2];
            while !s.load(Ordering::SeqCst) {
                let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) else {
                    return;
                };
                let mut next = Instant::now();
                while !s.load(Ordering::SeqCst) {
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
        Mic { queue, stop }
    }

    /// Queues `audio`, said from the next block on in real time.
    fn say(&self, audio: &[i16]) {
        self.queue.lock().unwrap().extend(mic_blocks(audio));
    }
}

impl Drop for Mic {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

struct Daemon {
    child: Child,
    socket: PathBuf,
    journal: PathBuf,
    stdout: Arc<Mutex<Vec<String>>>,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().expect("mkfifo runs");
    assert!(st.success());
}

/// `tandem play --variant chess` listening through the test microphone.
fn play(dir: &Path, model: &Path) -> (Daemon, Mic) {
    let mic_fifo = dir.join("mic.fifo");
    mkfifo(&mic_fifo);
    let conf = dir.join("asound.conf");
    std::fs::write(
        &conf,
        format!(
            "pcm.testmic_file {{ type file; slave.pcm \"null\"; file \"/dev/null\"; format \"raw\"\n\
             infile \"{}\" }}\n\
             pcm.testmic {{ type plug; slave {{ pcm \"testmic_file\"; format S16_LE; rate 16000; channels 1 }} }}\n\
             pcm.!default {{ type asym; playback.pcm \"null\"; capture.pcm \"testmic\" }}\n",
            mic_fifo.display(),
        ),
    )
    .unwrap();
    let mic = Mic::start(mic_fifo);
    let socket = dir.join("tandem.sock");
    let journal = dir.join("game.jsonl");
    let mut child = Command::new(TANDEM)
        .args([
            "play",
            "--headless",
            "--braille",
            "none",
            "--speech",
            "text",
        ])
        .args(["--variant", "chess", "--lang", "en", "--confirm", "always"])
        .arg("--socket")
        .arg(&socket)
        .arg("--journal")
        .arg(&journal)
        .arg("--voice-model")
        .arg(model)
        .arg("--phrasebook")
        .arg(data("chess-ko.toml"))
        .env(
            "ALSA_CONFIG_PATH",
            format!("/usr/share/alsa/alsa.conf:{}", conf.display()),
        )
        .env("XDG_CONFIG_HOME", dir.join("noconfig"))
        .env("TANDEM_LOG", "tandem=info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start tandem play");
    let stdout: Arc<Mutex<Vec<String>>> = Arc::default();
    {
        let out = child.stdout.take().unwrap();
        let lines = stdout.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(l);
            }
        });
    }
    let d = Daemon {
        child,
        socket,
        journal,
        stdout,
    };
    d.wait_for("the control socket", Duration::from_secs(20), || {
        Client::connect(&d.socket).is_ok()
    });
    (d, mic)
}

impl Daemon {
    fn wait_for(&self, what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
        let t0 = Instant::now();
        while !ok() {
            assert!(
                t0.elapsed() < limit,
                "waited {limit:?} for {what}\njournal:\n{}\nstdout:\n{}",
                std::fs::read_to_string(&self.journal).unwrap_or_default(),
                self.stdout.lock().unwrap().join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn events_of(&self, ty: &str) -> Vec<Value> {
        std::fs::read_to_string(&self.journal)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|v| v["event"].clone())
            .filter(|e| e["type"] == ty)
            .collect()
    }

    fn said(&self) -> Vec<String> {
        self.events_of("announced")
            .iter()
            .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    fn wait_listening(&self) {
        self.wait_for(
            "the microphone to open (model loaded)",
            Duration::from_secs(90),
            || self.events_of("microphone").iter().any(|e| e["ok"] == true),
        );
        // The first frames, so an utterance is not cut by the opening.
        std::thread::sleep(Duration::from_millis(500));
    }

    fn state(&self) -> Value {
        let out = Command::new(TANDEM)
            .arg("ctl")
            .arg("--socket")
            .arg(&self.socket)
            .arg("state")
            .output()
            .expect("tandem ctl runs");
        assert!(out.status.success(), "tandem ctl state failed");
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

#[test]
fn a_spoken_chess_move_is_read_back_and_played_on_yes_an_illegal_one_is_refused() {
    let Some(model) = korean_model() else { return };
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    // Said with commas: espeak-ng runs bare syllables together.
    let e2e5 = espeak(dir.path(), "e2e5", "오, 이, 오, 오");
    let e2e4 = espeak(dir.path(), "e2e4", "오, 이, 오, 사");
    let yes = read_wav_16k(&data("ko-yes.wav")).unwrap();
    let (d, mic) = play(dir.path(), &model);
    d.wait_listening();

    // e2-e5: no pawn goes there. Refused with the reason, never played.
    mic.say(&e2e5);
    d.wait_for("the refusal of e2e5", Duration::from_secs(30), || {
        !d.events_of("rejected").is_empty()
    });
    let h = d.events_of("heard");
    let h = h.last().unwrap();
    assert_eq!(
        (&h["kind"], &h["text"], &h["decision"]),
        (&"illegal".into(), &"e2e5".into(), &"refused".into()),
        "{h}"
    );
    let r = &d.events_of("rejected")[0];
    assert_eq!(
        (&r["source"], &r["input"]),
        (&"spoken".into(), &"e2e5".into())
    );
    // The reason in the chess book's words: "오 이 폰는 오 오에 갈 수 없습니다."
    assert!(
        d.said().iter().any(|s| s.contains("갈 수 없습니다")),
        "{:?}",
        d.said()
    );
    assert_eq!(d.state()["ply"], 0, "an illegal move is never played");

    // e2-e4: read back in the chess book's words, played only on "네".
    std::thread::sleep(Duration::from_millis(600));
    mic.say(&e2e4);
    d.wait_for("the read-back of e4", Duration::from_secs(30), || {
        d.events_of("heard")
            .iter()
            .any(|e| e["decision"] == "read-back")
    });
    let h = d.events_of("heard");
    let h = h.last().unwrap();
    assert_eq!(
        (&h["kind"], &h["text"]),
        (&"move".into(), &"e4".into()),
        "{h}"
    );
    assert_eq!(h["ply"], 0);
    assert!(h["confidence_pct"].as_u64().unwrap() > 0, "{h}");
    d.wait_for("the read-back said", Duration::from_secs(10), || {
        d.said().iter().any(|s| s.contains("폰 오 이 오 사"))
    });
    assert_eq!(d.state()["ply"], 0, "nothing is played before yes");

    std::thread::sleep(Duration::from_millis(600));
    mic.say(&yes);
    d.wait_for("the move after yes", Duration::from_secs(30), || {
        d.state()["ply"] == 1
    });
    let st = d.state();
    assert_eq!(st["moves"][0], "e4", "{st}");
    assert_eq!(st["turn"], "black", "{st}");
    let heard = d.events_of("heard");
    assert!(
        heard
            .iter()
            .any(|e| e["kind"] == "command" && e["text"] == "yes" && e["decision"] == "play"),
        "{heard:?}"
    );
    let moves = d.events_of("move");
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(
        (&moves[0]["source"], &moves[0]["text"]),
        (&"spoken".into(), &"e4".into())
    );
    // The journal is intact with the new events in it.
    let v = Command::new(TANDEM)
        .args(["journal", "verify"])
        .arg(&d.journal)
        .output()
        .unwrap();
    assert!(
        v.status.success(),
        "journal verify: {}",
        String::from_utf8_lossy(&v.stderr)
    );
}
