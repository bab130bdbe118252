//! From the end of a spoken move to the first sound of tandem's read-back,
//! through the whole real path (issue 4, "Must show"; target <= 0.3 of the
//! utterance's length):
//!
//! ```text
//! test mouth ─fifo─▶ ALSA file plugin ─▶ cpal ─▶ tandem-voice (endpointer, Vosk, grammar)
//!   ─▶ session (journal `heard`, read-back queued) ─▶ espeak-ng ─▶ ALSA ─fifo─▶ test ear
//! ```
//!
//! The real `tandem play --voice-model` (the Korean Vosk model and its test
//! phrasebook, `--speech espeak`, `--confirm always`) runs with its own ALSA
//! configuration, as in `tests/voice_e2e.rs`: the microphone is a named pipe
//! read by ALSA's file plugin through cpal, the loudspeaker a named pipe the
//! bench reads at sound-card pace (espeak-ng's 22 050 Hz mono).
//!
//! The microphone is fed at the pace of speech, in whole blocks of what cpal
//! reads at a time ([`BLOCK`], 100 ms; a smaller write makes the file plugin
//! hand over a whole buffer padded with stale audio, and 20 ms of silence
//! would then be 100 ms for the recognizer). Each iteration says
//! "삼십삼 이십구" (33-29, `speech/tests/data/ko-33-29.wav`, without the
//! file's trailing silence), placed so that its last spoken sample ends a
//! block; then silence. The read-back ("삼십 삼 이십 구, 맞습니까?") leaves the
//! position as it was, and a move said while a read-back waits is read back
//! again (docs/voice.md), so every iteration takes the same path.
//!
//! - **End of the utterance**: the block holding the last spoken sample has
//!   been written and taken by the reader (FIONREAD on the pipe is 0).
//! - **Start of the read-back**: the first sample louder than
//!   [`VOICE_LEVEL`] in the speech stream, on the stream's sample clock
//!   (started when its first bytes arrive) or when it arrived, if later.
//!
//! Besides criterion's figure, it prints the median, p90 and worst, the
//! fraction of the utterance, and the stages: the endpointer's wait for
//! silence, recognition (Vosk's final decode and the grammar match, timed in
//! the voice thread and logged), the session (journal `heard`, read-back
//! queued: the `announced` line), and speech (espeak-ng started, first sound).
//!
//! `cargo bench -p tandem --bench voice_latency` (libvosk and the Korean
//! model where `scripts/setup.sh --test` puts them).
//!
//! `VOICE_LATENCY_SEATS=1` speaks into white's seat's own microphone
//! (`--seat white:speech=espeak,mic=seatw`); `VOICE_LATENCY_SEATS=2` adds
//! black's seat with a microphone of its own (`mic=seatb`, fed silence) and
//! its own recognizer listening all along (issue 37: the read-back with two
//! recognizers running is no later than with one).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};
use tandem_testkit::Killed;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use serde_json::Value;
use tandem_speech::listen::audio::{rms_db, VadConfig, FRAME};
use tandem_speech::listen::fixture::{
    alsa_pipe_config, korean_model, korean_phrasebook_path, MIC_BLOCK,
};
use tandem_speech::listen::{read_wav_16k, SAMPLE_RATE};

const TANDEM: &str = env!("CARGO_BIN_EXE_tandem");

/// espeak-ng's output rate.
const SPEAKER_RATE: u32 = 22_050;

/// A sample louder than this (about -36 dBFS) is the read-back's first sound.
const VOICE_LEVEL: i16 = 500;

/// Instants and the wall clock (the daemon's journal and log) on one line.
#[derive(Clone, Copy)]
struct Clock {
    inst: Instant,
    wall: SystemTime,
}

impl Clock {
    fn now() -> Clock {
        Clock {
            inst: Instant::now(),
            wall: SystemTime::now(),
        }
    }

    fn at(&self, wall: SystemTime) -> Instant {
        match wall.duration_since(self.wall) {
            Ok(d) => self.inst + d,
            Err(e) => self.inst - e.duration(),
        }
    }

    fn parse(&self, text: &str) -> Option<Instant> {
        humantime::parse_rfc3339_weak(text.trim_end_matches('Z'))
            .ok()
            .map(|w| self.at(w))
    }
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().expect("mkfifo runs");
    assert!(st.success(), "mkfifo {}", p.display());
}

/// What the capture side reads at a time ([`MIC_BLOCK`], 100 ms: a smaller
/// write would be padded with stale audio by ALSA's file plugin). The mouth
/// writes one whole block every 100 ms: the recognizer gets real audio at
/// the real pace, in 100 ms steps.
const BLOCK: usize = MIC_BLOCK;

/// When the block holding the utterance's last sample had gone to the reader.
struct Said {
    drained: Instant,
}

/// The mouth: silence, and an utterance when asked, at the pace of speech.
struct Mouth {
    say: Sender<Vec<i16>>,
    said: Receiver<Said>,
}

fn block_bytes(samples: &[i16]) -> Vec<u8> {
    samples.iter().flat_map(|s| s.to_le_bytes()).collect()
}

impl Mouth {
    fn start(fifo: PathBuf) -> Mouth {
        let (say, utterances) = channel::<Vec<i16>>();
        let (said_tx, said) = channel();
        let period = Duration::from_secs_f64(BLOCK as f64 / f64::from(SAMPLE_RATE));
        // Not joined: it may wait in open() for a reader that never comes.
        std::thread::spawn(move || {
            let silence = vec![0u8; BLOCK * 2];
            let mut queue: std::collections::VecDeque<Vec<u8>> = Default::default();
            loop {
                let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) else {
                    return;
                };
                // Block k holds what is said during the k-th 100 ms and is
                // written at its end, as a sound card delivers it.
                let mut next = Instant::now() + period;
                loop {
                    std::thread::sleep(next.saturating_duration_since(Instant::now()));
                    next += period;
                    if queue.is_empty() {
                        match utterances.try_recv() {
                            Ok(u) => {
                                // Silence before it, so that its last sample
                                // ends a block: no wait for a half-full one.
                                let pad = (BLOCK - u.len() % BLOCK) % BLOCK;
                                let audio: Vec<i16> =
                                    std::iter::repeat(0).take(pad).chain(u).collect();
                                queue.extend(audio.chunks(BLOCK).map(block_bytes));
                            }
                            Err(std::sync::mpsc::TryRecvError::Empty) => {}
                            Err(std::sync::mpsc::TryRecvError::Disconnected) => return,
                        }
                    }
                    let block = queue.pop_front();
                    let last = block.is_some() && queue.is_empty();
                    if f.write_all(block.as_deref().unwrap_or(&silence)).is_err() {
                        break; // the reader went away (a device probe): reopen
                    }
                    if last {
                        let limit = Instant::now() + period;
                        while rustix::io::ioctl_fionread(&f).unwrap_or(0) > 0
                            && Instant::now() < limit
                        {
                            std::thread::sleep(Duration::from_micros(100));
                        }
                        if said_tx
                            .send(Said {
                                drained: Instant::now(),
                            })
                            .is_err()
                        {
                            return;
                        }
                    }
                }
            }
        });
        Mouth { say, said }
    }
}

/// One stream espeak-ng played.
#[derive(Debug, Clone, Copy)]
struct Played {
    /// Its first bytes arrived.
    first_bytes: Instant,
    /// Its first sample above [`VOICE_LEVEL`] played.
    voice: Option<Instant>,
}

/// The ear: reads what ALSA plays at the pace of a sound card.
struct Ear {
    played: Receiver<Played>,
    busy: Arc<Mutex<Option<Instant>>>,
}

impl Ear {
    fn start(fifo: PathBuf) -> Ear {
        let (tx, played) = channel();
        let busy: Arc<Mutex<Option<Instant>>> = Arc::default();
        let b = busy.clone();
        std::thread::spawn(move || loop {
            // Each utterance is one espeak-ng process opening the device.
            let Ok(mut f) = std::fs::File::open(&fifo) else {
                return;
            };
            let mut buf = [0u8; 882]; // 20 ms at 22 050 Hz
            let mut t0: Option<Instant> = None;
            let mut voice = None;
            let mut bytes = 0usize;
            let mut next = Instant::now();
            loop {
                let n = match f.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                let arrived = Instant::now();
                let start = *t0.get_or_insert_with(|| {
                    *b.lock().unwrap() = Some(arrived);
                    next = arrived;
                    arrived
                });
                if voice.is_none() {
                    // Sample indices of this read (an odd byte count
                    // splits a sample: it is whole in the next read).
                    let first = bytes.div_ceil(2);
                    let skip = first * 2 - bytes;
                    let loud = buf[skip.min(n)..n].chunks_exact(2).position(|s| {
                        i16::from_le_bytes([s[0], s[1]]).unsigned_abs() > VOICE_LEVEL as u16
                    });
                    if let Some(i) = loud {
                        let on_clock = start
                            + Duration::from_secs_f64((first + i) as f64 / f64::from(SPEAKER_RATE));
                        voice = Some(on_clock.max(arrived));
                    }
                }
                bytes += n;
                next += Duration::from_secs_f64(n as f64 / 2.0 / f64::from(SPEAKER_RATE));
                std::thread::sleep(next.saturating_duration_since(Instant::now()));
            }
            *b.lock().unwrap() = None;
            if let Some(first_bytes) = t0 {
                let _ = tx.send(Played { first_bytes, voice });
            }
        });
        Ear { played, busy }
    }

    fn is_playing(&self) -> bool {
        self.busy.lock().unwrap().is_some()
    }
}

struct Daemon {
    _dir: tempfile::TempDir,
    /// Black's seat's microphone, fed silence (`VOICE_LATENCY_SEATS=2`).
    _second: Option<Mouth>,
    _child: Killed,
    journal: PathBuf,
    /// The daemon's log: (wall time the line says, the line).
    log: Arc<Mutex<Vec<String>>>,
    mouth: Mouth,
    ear: Ear,
    clock: Clock,
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut esc = false;
    for c in s.chars() {
        match (esc, c) {
            (false, '\u{1b}') => esc = true,
            (false, c) => out.push(c),
            (true, c) if c.is_ascii_alphabetic() => esc = false,
            (true, _) => {}
        }
    }
    out
}

impl Daemon {
    fn start(model: &Path) -> Daemon {
        let dir = tempfile::tempdir().expect("temp dir");
        let mic = dir.path().join("mic.fifo");
        let spk = dir.path().join("speaker.fifo");
        mkfifo(&mic);
        mkfifo(&spk);
        let conf = dir.path().join("asound.conf");
        let seats: u32 = std::env::var("VOICE_LATENCY_SEATS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut alsa = alsa_pipe_config(&mic, Some(&spk));
        // The seats' microphones by name (ALSA's hints list them for cpal):
        // white's is the test microphone, black's a pipe of its own.
        let black_mic = dir.path().join("black.fifo");
        if seats > 0 {
            alsa.push_str(
                "pcm.seatw { type plug; slave.pcm \"testmic\"; hint { show on; description \"white\" } }\n",
            );
        }
        if seats > 1 {
            mkfifo(&black_mic);
            alsa.push_str(&format!(
                "pcm.seatb_file {{ type file; slave.pcm \"null\"; file \"/dev/null\"; format \"raw\"; infile \"{}\" }}\n\
                 pcm.seatb {{ type plug; slave {{ pcm \"seatb_file\"; format S16_LE; rate 16000; channels 1 }}; hint {{ show on; description \"black\" }} }}\n",
                black_mic.display()
            ));
        }
        std::fs::write(&conf, alsa).expect("ALSA configuration written");
        let mouth = Mouth::start(mic);
        let second = (seats > 1).then(|| Mouth::start(black_mic));
        let seat_args: Vec<&str> = match seats {
            0 => vec![],
            1 => vec!["--seat", "white:speech=espeak,mic=seatw"],
            _ => vec![
                "--blind",
                "both",
                "--seat",
                "white:speech=espeak,mic=seatw",
                "--seat",
                "black:speech=none,mic=seatb",
            ],
        };
        let microphones = seats.max(1) as usize;
        let ear = Ear::start(spk);
        let journal = dir.path().join("game.jsonl");
        let mut child = Command::new(TANDEM)
            .args([
                "play",
                "--headless",
                "--braille",
                "none",
                "--speech",
                "espeak",
            ])
            .arg("--socket")
            .arg(dir.path().join("tandem.sock"))
            .arg("--journal")
            .arg(&journal)
            .arg("--voice-model")
            .arg(model)
            .arg("--phrasebook")
            .arg(korean_phrasebook_path())
            .args(["--confirm", "always"])
            .args(&seat_args)
            .env(
                "ALSA_CONFIG_PATH",
                format!("/usr/share/alsa/alsa.conf:{}", conf.display()),
            )
            .env("XDG_CONFIG_HOME", dir.path().join("noconfig"))
            .env("TANDEM_LOG", "tandem=info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tandem play");
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        {
            let err = child.stderr.take().expect("piped stderr");
            let log = log.clone();
            std::thread::spawn(move || {
                for l in BufReader::new(err).lines().map_while(Result::ok) {
                    log.lock().unwrap().push(strip_ansi(&l));
                }
            });
        }
        let d = Daemon {
            _dir: dir,
            _second: second,
            _child: Killed(child),
            journal,
            log,
            mouth,
            ear,
            clock: Clock::now(),
        };
        let t0 = Instant::now();
        while d
            .events("microphone")
            .iter()
            .filter(|(_, e)| e["ok"] == true)
            .count()
            < microphones
        {
            assert!(
                t0.elapsed() < Duration::from_secs(120),
                "the daemon did not open the microphone; its log:\n{}",
                d.log.lock().unwrap().join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        d
    }

    /// The journal's events of a type, with their wall-clock time.
    fn events(&self, ty: &str) -> Vec<(Option<Instant>, Value)> {
        std::fs::read_to_string(&self.journal)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["event"]["type"] == ty)
            .map(|v| {
                let at = v["wall"].as_str().and_then(|w| self.clock.parse(w));
                (at, v["event"].clone())
            })
            .collect()
    }

    /// The voice thread's "heard" log lines: when, and the recognition time.
    fn heard_log(&self) -> Vec<(Instant, Duration)> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains("voice: heard"))
            .filter_map(|l| {
                let at = self.clock.parse(l.split_whitespace().next()?)?;
                let us = l
                    .rsplit_once("recognized in ")?
                    .1
                    .split(|c: char| !c.is_ascii_digit())
                    .next()?
                    .parse()
                    .ok()?;
                Some((at, Duration::from_micros(us)))
            })
            .collect()
    }

    /// Waits until the loudspeaker has been quiet for a second (the start
    /// announcement, the last read-back, and the microphone's echo tail).
    fn wait_quiet(&self) {
        let mut quiet_since = Instant::now();
        loop {
            while self.ear.played.try_recv().is_ok() {}
            if self.ear.is_playing() {
                quiet_since = Instant::now();
            } else if quiet_since.elapsed() > Duration::from_secs(1) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One spoken move and its read-back.
#[derive(Debug, Clone, Copy)]
struct Sample {
    /// End of the utterance to the read-back's first sound.
    total: Duration,
    /// End of the utterance to the endpointer's decision (100 ms of silence
    /// after a whole phrase, 600 ms otherwise, by design).
    endpoint: Duration,
    /// Vosk's final result and the grammar match.
    recognition: Duration,
    /// Voice thread to the session, journal `heard`, read-back queued (`announced`).
    session: Duration,
    /// Read-back queued to espeak-ng's first audio bytes.
    speech_start: Duration,
    /// espeak-ng's first bytes to its first sound.
    lead_in: Duration,
}

fn utterance() -> (Vec<i16>, Duration, Duration) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../speech/tests/data/ko-33-29.wav");
    let audio = read_wav_16k(&p).expect("ko-33-29.wav");
    let vad = VadConfig::default();
    let frames: Vec<&[i16]> = audio.chunks(FRAME).collect();
    let first = frames
        .iter()
        .position(|f| rms_db(f) > vad.start_db)
        .expect("the recording has speech");
    let last = frames
        .iter()
        .rposition(|f| rms_db(f) > vad.end_db)
        .expect("the recording has speech");
    let rate = f64::from(SAMPLE_RATE);
    let spoken = Duration::from_secs_f64(((last + 1 - first) * FRAME) as f64 / rate);
    let file = Duration::from_secs_f64(audio.len() as f64 / rate);
    // The words and what comes before them; the silence after them is the
    // mouth's, at the real pace.
    let words = audio[..((last + 1) * FRAME).min(audio.len())].to_vec();
    (words, spoken, file)
}

fn measure(d: &Daemon, audio: &[i16]) -> Sample {
    d.wait_quiet();
    let heard_before = d.events("heard").len();
    let logged_before = d.heard_log().len();
    d.mouth.say.send(audio.to_vec()).expect("the mouth runs");
    let end = d
        .mouth
        .said
        .recv_timeout(Duration::from_secs(20))
        .expect("the microphone pipe took the utterance")
        .drained;
    let played = loop {
        match d.ear.played.recv_timeout(Duration::from_secs(30)) {
            Ok(p) if p.first_bytes > end => break p,
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => panic!(
                "no read-back played within 30 s; journal heard: {:?}; log:\n{}",
                d.events("heard"),
                d.log.lock().unwrap().join("\n")
            ),
        }
    };
    let voice = played.voice.expect("the read-back made a sound");
    let heard = d.events("heard");
    assert_eq!(
        heard.len(),
        heard_before + 1,
        "one utterance heard: {heard:?}"
    );
    let h = &heard[heard_before].1;
    assert!(
        h["text"] == "33-29" && h["decision"] == "read-back",
        "33-29 read back: {h}; log:\n{}",
        d.log.lock().unwrap().join("\n")
    );
    let announced = d.events("announced");
    let (queued, a) = announced
        .iter()
        .rev()
        .find(|(_, e)| e["text"].as_str().is_some_and(|t| t.contains("맞습니까")))
        .expect("the read-back on record");
    let queued = queued.unwrap_or_else(|| panic!("no wall time on {a}"));
    let logged = d.heard_log();
    assert_eq!(
        logged.len(),
        logged_before + 1,
        "the voice thread logs each utterance with its recognition time"
    );
    let (recognized, recognition) = logged[logged_before];
    let endpointed = recognized - recognition;
    Sample {
        total: voice - end,
        endpoint: endpointed.saturating_duration_since(end),
        recognition,
        session: queued.saturating_duration_since(recognized),
        speech_start: played.first_bytes.saturating_duration_since(queued),
        lead_in: voice - played.first_bytes,
    }
}

fn pct(v: &[Duration], p: f64) -> Duration {
    let mut s = v.to_vec();
    s.sort();
    let i = ((s.len() as f64 - 1.0) * p).round() as usize;
    s[i.min(s.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

fn bench(c: &mut Criterion) {
    let Some(model) = korean_model() else { return };
    let (audio, spoken, file) = utterance();
    let d = Daemon::start(&model);
    // An untimed first utterance: espeak-ng's voice files into the cache.
    let first = measure(&d, &audio);
    println!(
        "voice_latency: first (untimed) read-back {}",
        ms(first.total)
    );

    let samples: Arc<Mutex<Vec<Sample>>> = Arc::default();
    let mut group = c.benchmark_group("voice");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_millis(1));
    group.bench_function("end_of_utterance_to_read_back", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let s = measure(&d, &audio);
                samples.lock().unwrap().push(s);
                total += s.total;
            }
            total
        });
    });
    group.finish();

    let s = samples.lock().unwrap();
    let col = |f: fn(&Sample) -> Duration| s.iter().map(f).collect::<Vec<_>>();
    let total = col(|x| x.total);
    let no_tail = col(|x| x.total.saturating_sub(x.endpoint));
    println!(
        "voice_latency: {} utterances; the words last {:.2} s (the file {:.2} s with its padding)",
        s.len(),
        spoken.as_secs_f64(),
        file.as_secs_f64()
    );
    let frac = |d: Duration, of: Duration| d.as_secs_f64() / of.as_secs_f64();
    for (name, v) in [
        ("end of utterance -> read-back sound", &total),
        ("  the same without the endpointer's wait", &no_tail),
    ] {
        let (p50, p90, max) = (pct(v, 0.5), pct(v, 0.9), pct(v, 1.0));
        println!(
            "voice_latency: {name}: median {} p90 {} worst {}; median {:.2} / worst {:.2} of the words, {:.2} / {:.2} of the file (target <= 0.3)",
            ms(p50),
            ms(p90),
            ms(max),
            frac(p50, spoken),
            frac(max, spoken),
            frac(p50, file),
            frac(max, file)
        );
    }
    for (name, f) in [
        (
            "endpointer (silence after the words)",
            (|x: &Sample| x.endpoint) as fn(&Sample) -> Duration,
        ),
        ("recognition (Vosk final + grammar)", |x| x.recognition),
        ("session (journal heard, read-back queued)", |x| x.session),
        ("read-back queued -> espeak-ng's first bytes", |x| {
            x.speech_start
        }),
        ("espeak-ng's first bytes -> first sound", |x| x.lead_in),
    ] {
        let v = col(f);
        println!(
            "voice_latency:   {name}: median {} p90 {} worst {}",
            ms(pct(&v, 0.5)),
            ms(pct(&v, 0.9)),
            ms(pct(&v, 1.0))
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
