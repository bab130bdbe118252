//! End to end: the real `tandem play --headless` with voice input: the
//! Korean Vosk model (the one model a package ships here) and the Korean test
//! phrasebook, a microphone that is ALSA reading a named pipe through cpal
//! (as `speech/tests/listen_mic.rs` does), and espeak-ng's recordings of
//! "삼십삼 이십구" (33-29) and "네" (yes) written into it in real time, in
//! whole blocks of what cpal reads at a time ([`MIC_BLOCK`]).
//!
//! The daemon gets its own ALSA configuration through `ALSA_CONFIG_PATH` in
//! its environment only. The tests run one at a time (each loads the model).
//! Without the model they fail with a message, unless `TANDEM_SKIP_REAL=1`.
#![cfg(feature = "vosk")]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tandem::client::Client;
use tandem_speech::listen::fixture::{korean_model, korean_phrasebook_path, mic_blocks, MIC_BLOCK};
use tandem_speech::listen::{read_wav_16k, SAMPLE_RATE};

const TANDEM: &str = env!("CARGO_BIN_EXE_tandem");

/// One test at a time: each daemon loads a 250 MB model, and the mute test
/// depends on timing.
static SERIAL: Mutex<()> = Mutex::new(());

fn wav(name: &str) -> Vec<i16> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../speech/tests/data")
        .join(name);
    read_wav_16k(&p).unwrap()
}

/// One [`MIC_BLOCK`]: 100 ms.
const BLOCK_TIME: Duration = Duration::from_millis((MIC_BLOCK as u64 * 1000) / SAMPLE_RATE as u64);

/// The microphone: a named pipe ALSA captures from (16 kHz mono S16_LE), fed
/// one block of [`MIC_BLOCK`] frames every 100 ms (the pace of a sound card;
/// a smaller write would be padded with stale audio by ALSA's file plugin):
/// silence, or the next block of a queued utterance; and nothing at all on
/// demand (a microphone that hangs or is pulled out: the capture stream
/// stops delivering audio).
struct Mic {
    queue: Arc<Mutex<VecDeque<Vec<u8>>>>,
    connected: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Mic {
    fn start(fifo: PathBuf) -> Mic {
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
    fn say(&self, audio: &[i16]) -> Duration {
        let blocks = mic_blocks(audio);
        let n = blocks.len() as u32;
        self.queue.lock().unwrap().extend(blocks);
        BLOCK_TIME * n
    }

    fn unplug(&self) {
        self.connected.store(false, Ordering::SeqCst);
    }

    fn plug(&self) {
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
struct Speaker {
    playing: Arc<Mutex<Vec<(Instant, Instant)>>>,
}

impl Speaker {
    fn start(fifo: PathBuf) -> Speaker {
        let playing: Arc<Mutex<Vec<(Instant, Instant)>>> = Arc::default();
        let p = playing.clone();
        std::thread::spawn(move || loop {
            // Each utterance is one espeak-ng process opening the device.
            let Ok(mut f) = std::fs::File::open(&fifo) else {
                return;
            };
            let start = Instant::now();
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
        Speaker { playing }
    }
}

struct Table {
    dir: tempfile::TempDir,
    mic: Mic,
    conf: PathBuf,
    spk_fifo: PathBuf,
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().expect("mkfifo runs");
    assert!(st.success());
}

impl Table {
    fn new() -> Table {
        let dir = tempfile::tempdir().unwrap();
        let mic_fifo = dir.path().join("mic.fifo");
        let spk_fifo = dir.path().join("speaker.fifo");
        mkfifo(&mic_fifo);
        mkfifo(&spk_fifo);
        let conf = dir.path().join("asound.conf");
        std::fs::write(
            &conf,
            format!(
                "pcm.testmic_file {{ type file; slave.pcm \"null\"; file \"/dev/null\"; format \"raw\"\n\
                 infile \"{}\" }}\n\
                 pcm.testmic {{ type plug; slave {{ pcm \"testmic_file\"; format S16_LE; rate 16000; channels 1 }} }}\n\
                 pcm.testspk {{ type file; slave.pcm \"null\"; file \"{}\"; format \"raw\" }}\n\
                 pcm.!default {{ type asym; playback.pcm \"testspk\"; capture.pcm \"testmic\" }}\n",
                mic_fifo.display(),
                spk_fifo.display()
            ),
        )
        .unwrap();
        Table {
            mic: Mic::start(mic_fifo),
            dir,
            conf,
            spk_fifo,
        }
    }

    fn play(&self, model: &Path, extra: &[&str]) -> Daemon {
        let socket = self.dir.path().join("tandem.sock");
        let journal = self.dir.path().join("game.jsonl");
        let mut cmd = Command::new(TANDEM);
        cmd.args(["play", "--headless", "--braille", "none"])
            .arg("--socket")
            .arg(&socket)
            .arg("--journal")
            .arg(&journal)
            .arg("--voice-model")
            .arg(model)
            .arg("--phrasebook")
            .arg(korean_phrasebook_path())
            .args(["--confirm", "always"])
            .args(extra)
            .env(
                "ALSA_CONFIG_PATH",
                format!("/usr/share/alsa/alsa.conf:{}", self.conf.display()),
            )
            .env("XDG_CONFIG_HOME", self.dir.path().join("noconfig"))
            .env("TANDEM_LOG", "tandem=info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if !extra.contains(&"--speech") {
            cmd.args(["--speech", "text"]);
        }
        let mut child = cmd.spawn().expect("start tandem play");
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
        d
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

    /// The journal's events.
    fn events(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.journal)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|v| v["event"].clone())
            .collect()
    }

    fn events_of(&self, ty: &str) -> Vec<Value> {
        self.events()
            .into_iter()
            .filter(|e| e["type"] == ty)
            .collect()
    }

    fn said(&self) -> Vec<String> {
        self.events_of("announced")
            .iter()
            .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Waits until the model is loaded and the microphone open.
    fn wait_listening(&self) {
        self.wait_for(
            "the microphone to open (model loaded)",
            Duration::from_secs(90),
            || self.events_of("microphone").iter().any(|e| e["ok"] == true),
        );
        // The first frames, so an utterance is not cut by the opening.
        std::thread::sleep(Duration::from_millis(500));
    }

    fn ctl(&self, args: &[&str]) -> (bool, String) {
        let out = Command::new(TANDEM)
            .arg("ctl")
            .arg("--socket")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tandem ctl runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    fn state(&self) -> Value {
        let (ok, out) = self.ctl(&["state"]);
        assert!(ok, "tandem ctl state failed: {out}");
        serde_json::from_str(&out).unwrap()
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
}

#[test]
fn a_spoken_move_is_read_back_and_played_on_yes() {
    let Some(model) = korean_model() else { return };
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let t = Table::new();
    let d = t.play(&model, &[]);
    d.wait_listening();

    t.mic.say(&wav("ko-33-29.wav"));
    // The heard line, the read-back's announced line and its text on stdout
    // are written one after the other: wait for all three.
    d.wait_for("the read-back of 33-29", Duration::from_secs(30), || {
        d.events_of("heard")
            .iter()
            .any(|e| e["decision"] == "read-back")
            && d.said().iter().any(|s| s.contains("맞습니까"))
            && d.stdout
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.contains("맞습니까"))
    });
    let heard = d.events_of("heard");
    let h = heard.last().unwrap();
    assert_eq!(h["kind"], "move", "{h}");
    assert_eq!(h["text"], "33-29", "{h}");
    assert_eq!(h["ply"], 0);
    assert!(!h["transcript"].as_str().unwrap().is_empty(), "{h}");
    assert!(h["confidence_pct"].as_u64().unwrap() > 0, "{h}");
    // Read back in the phrasebook's words ("{move}, 맞습니까?"), not played.
    let said = d.said();
    assert!(
        said.iter().any(|s| s.contains("맞습니까")),
        "no read-back said: {said:?}"
    );
    assert!(
        d.stdout
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("맞습니까")),
        "the read-back was not spoken (text speech on stdout)"
    );
    assert_eq!(d.state()["ply"], 0, "nothing is played before yes");

    // After the read-back has been spoken (the echo tail), "yes".
    std::thread::sleep(Duration::from_millis(600));
    t.mic.say(&wav("ko-yes.wav"));
    d.wait_for("the move after yes", Duration::from_secs(30), || {
        d.state()["ply"] == 1
    });
    let st = d.state();
    assert_eq!(st["moves"][0], "33-29", "{st}");
    assert_eq!(st["turn"], "black");
    let heard = d.events_of("heard");
    assert!(
        heard
            .iter()
            .any(|e| e["kind"] == "command" && e["text"] == "yes" && e["decision"] == "play"),
        "{heard:?}"
    );
    let moves = d.events_of("move");
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0]["source"], "spoken");
    assert_eq!(moves[0]["text"], "33-29");
    // Announced like a typed move, after the journal line.
    let (ok, out) = d.ctl(&["last"]);
    assert!(ok, "{out}");
    // `listen` turns listening off: "yes" is not heard; on again, it is.
    let n = d.events_of("heard").len();
    let (ok, out) = d.ctl(&["listen"]);
    assert!(ok && out.contains("Not listening"), "{out}");
    std::thread::sleep(Duration::from_millis(600));
    t.mic.say(&wav("ko-yes.wav"));
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(d.events_of("heard").len(), n, "heard while not listening");
    let (ok, out) = d.ctl(&["listen"]);
    assert!(ok && out.contains("Listening"), "{out}");
    std::thread::sleep(Duration::from_millis(600));
    t.mic.say(&wav("ko-yes.wav"));
    d.wait_for("yes heard again", Duration::from_secs(30), || {
        d.events_of("heard").len() > n
    });
    let h = d.events_of("heard");
    assert_eq!(h[n]["text"], "yes", "{h:?}");
    assert_eq!(h[n]["decision"], "command", "{h:?}");
    assert!(
        d.said().last().unwrap().contains("nothing to confirm"),
        "a bare yes confirms nothing: {:?}",
        d.said()
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

#[test]
fn while_tandem_speaks_through_real_espeak_paced_by_a_test_speaker_nothing_is_heard() {
    let Some(model) = korean_model() else { return };
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let t = Table::new();
    let speaker = Speaker::start(t.spk_fifo.clone());
    let d = t.play(&model, &["--speech", "espeak"]);
    d.wait_listening();
    // Let the start announcement ("백 차례") finish playing.
    std::thread::sleep(Duration::from_secs(3));
    let before = speaker.playing.lock().unwrap().len();

    // A long sentence: several seconds through the speaker.
    let long = "삼십 삼 이십 구 삼십 이 이십 팔 삼십 일 이십 칠 삼십 사 이십 구 \
                삼십 삼 이십 구 삼십 이 이십 팔 삼십 일 이십 칠 삼십 사 이십 구";
    let (ok, out) = d.ctl(&["say", long]);
    assert!(ok, "{out}");
    std::thread::sleep(Duration::from_millis(700));
    let injected = Instant::now();
    // The whole file, its silences too, from the next block on.
    let utterance_end = injected + t.mic.say(&wav("ko-33-29.wav")) + BLOCK_TIME;
    // Wait until the speaker has played it all.
    d.wait_for("the sentence to be played", Duration::from_secs(60), || {
        speaker.playing.lock().unwrap().len() > before
    });
    let (start, end) = *speaker.playing.lock().unwrap().last().unwrap();
    assert!(
        start < injected && end > utterance_end,
        "the utterance was not said while tandem spoke: speech {:?}..{:?} after start, utterance at {:?}",
        Duration::ZERO,
        end - start,
        injected - start
    );
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        d.events_of("heard").is_empty(),
        "tandem heard something while it spoke: {:?}",
        d.events_of("heard")
    );

    // The same utterance when tandem is quiet is heard: the microphone worked.
    t.mic.say(&wav("ko-33-29.wav"));
    d.wait_for(
        "the utterance said in quiet",
        Duration::from_secs(30),
        || {
            d.events_of("heard")
                .iter()
                .any(|e| e["text"] == "33-29" && e["decision"] == "read-back")
        },
    );
}

#[test]
fn a_vanished_microphone_is_announced_typed_moves_go_on_and_its_return_is_told() {
    let Some(model) = korean_model() else { return };
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let t = Table::new();
    let mut d = t.play(&model, &[]);
    d.wait_listening();

    t.mic.unplug();
    d.wait_for("the microphone loss", Duration::from_secs(30), || {
        d.events_of("microphone").iter().any(|e| e["ok"] == false)
    });
    d.wait_for("the loss announced", Duration::from_secs(5), || {
        d.said()
            .iter()
            .any(|s| s.contains("The microphone stopped"))
    });
    let lost = d.events_of("announced");
    let lost = lost
        .iter()
        .find(|e| e["text"].as_str().unwrap().contains("microphone stopped"))
        .unwrap();
    assert_eq!(lost["priority"], "now", "a lost microphone is urgent");

    // The game goes on with typed input.
    d.type_line("31-26");
    d.wait_for("the typed move", Duration::from_secs(10), || {
        d.state()["ply"] == 1
    });
    let (ok, out) = d.ctl(&["move", "20-24"]);
    assert!(ok, "{out}");

    t.mic.plug();
    d.wait_for("the microphone back", Duration::from_secs(30), || {
        d.said().iter().any(|s| s.contains("works again"))
    });
    std::thread::sleep(Duration::from_millis(800));
    // It listens in the new position (the grammar followed the moves).
    t.mic.say(&wav("ko-33-29.wav"));
    d.wait_for(
        "33-29 heard after the return",
        Duration::from_secs(30),
        || {
            d.events_of("heard")
                .iter()
                .any(|e| e["text"] == "33-29" && e["decision"] == "read-back" && e["ply"] == 2)
        },
    );
}

#[test]
fn a_missing_microphone_device_is_announced_and_typed_moves_work() {
    let Some(model) = korean_model() else { return };
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let t = Table::new();
    let mut d = t.play(&model, &["--mic", "no-such-microphone"]);
    // The microphone line and the announcement's line are written one after
    // the other: wait for both.
    d.wait_for("the missing microphone", Duration::from_secs(90), || {
        d.events_of("microphone").iter().any(|e| e["ok"] == false)
            && d.said()
                .iter()
                .any(|s| s.contains("The microphone stopped"))
    });
    let m = d.events_of("microphone");
    assert!(
        m[0]["error"]
            .as_str()
            .unwrap()
            .contains("no input device named \"no-such-microphone\""),
        "{m:?}"
    );
    assert!(d
        .said()
        .iter()
        .any(|s| s.contains("The microphone stopped")));
    d.type_line("32-28");
    d.wait_for("the typed move", Duration::from_secs(10), || {
        d.state()["ply"] == 1
    });
    assert_eq!(d.events_of("move")[0]["source"], "typed");
}

#[test]
fn voice_model_must_name_a_model_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(TANDEM)
        .args(["play", "--headless", "--voice-model"])
        .arg(dir.path().join("nothing"))
        .env("XDG_CONFIG_HOME", dir.path().join("noconfig"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no such folder"), "{err}");
}
