//! End to end: a spoken legal move goes through cpal (ALSA reading a named
//! pipe, as a microphone would deliver it, in real time: whole blocks of
//! what cpal reads at a time, [`MIC_BLOCK`]), the endpointer and
//! Vosk with the legal-move grammar, and tandem returns that move.
//!
//! The utterance is espeak-ng's Korean "삼십삼 이십구" (33-29), checked once to
//! be recognized (see tests/data/README.md). One test in this file: it sets
//! ALSA's configuration through the process environment.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::{understand, DraughtsWords, Grammar, Heard};
use tandem_speech::listen::audio::{Gate, Mode, MuteSwitch, VadConfig};
use tandem_speech::listen::fixture::{
    alsa_pipe_config, korean_model, korean_phrasebook_path, mic_blocks, MIC_BLOCK,
};
use tandem_speech::listen::mic::{listen_once, Microphone};
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};
use tandem_speech::listen::{read_wav_16k, Lexicon, SAMPLE_RATE};

/// Writes one block of [`MIC_BLOCK`] frames every 100 ms into the pipe, at
/// the pace of a sound card: silence, and the utterance's blocks once
/// `inject` is set. Reopens the pipe when ALSA closes it (device probes open
/// and close it).
fn writer(
    fifo: std::path::PathBuf,
    utterance: Vec<i16>,
    inject: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
) {
    let silence = vec![0u8; MIC_BLOCK * 2];
    let mut blocks = mic_blocks(&utterance).into_iter();
    let period = Duration::from_secs_f64(MIC_BLOCK as f64 / f64::from(SAMPLE_RATE));
    while !stop.load(Ordering::SeqCst) {
        let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) else {
            return;
        };
        let mut next = Instant::now();
        loop {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            let block = if inject.load(Ordering::SeqCst) {
                blocks.next()
            } else {
                None
            };
            if f.write_all(block.as_deref().unwrap_or(&silence)).is_err() {
                break; // the reader went away: reopen
            }
            next += period;
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
        }
    }
}

#[test]
fn a_spoken_move_through_alsa_cpal_and_vosk_is_that_move() {
    let Some(model) = korean_model() else { return };
    set_log_level(-1);
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("mic.fifo");
    let st = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(st.success());
    let conf = dir.path().join("test-asound.conf");
    std::fs::write(&conf, alsa_pipe_config(&fifo, None)).unwrap();
    // SAFETY (edition 2021: safe call): set before any thread reads the
    // environment; this file holds a single test.
    std::env::set_var(
        "ALSA_CONFIG_PATH",
        format!("/usr/share/alsa/alsa.conf:{}", conf.display()),
    );

    let utterance = read_wav_16k(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ko-33-29.wav"),
    )
    .unwrap();
    let inject = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let w = {
        let (fifo, inject, stop) = (fifo.clone(), inject.clone(), stop.clone());
        std::thread::spawn(move || writer(fifo, utterance, inject, stop))
    };

    let lex = Lexicon::draughts_file(&korean_phrasebook_path()).unwrap();
    let pos = Position::start(Variant::International);
    let g = Grammar::build(&pos, &lex);
    let mut rec = VoskRecognizer::new(&model, &g.recognizer_phrases()).unwrap();

    let mic =
        Microphone::open_default().expect("cpal opens ALSA's default capture device (the pipe)");
    std::thread::sleep(Duration::from_millis(500));
    inject.store(true, Ordering::SeqCst);
    let mut gate = Gate::new(Mode::Voice(VadConfig::default()), MuteSwitch::default());
    let (t, timing) =
        listen_once(&mut rec, &mic.frames, &mut gate, Duration::from_secs(20)).unwrap();
    stop.store(true, Ordering::SeqCst);
    drop(mic);
    let _ = w.join();

    let timing = timing.expect("an utterance was heard");
    assert!(timing.audio > Duration::from_millis(800), "{timing:?}");
    let h = understand(&pos, &g, &lex, &t);
    assert!(
        matches!(&h, Heard::Move { notation, .. } if notation == "33-29"),
        "{t:?} -> {h:?}"
    );
}
