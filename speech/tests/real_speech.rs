//! Real speech out: a private speech-dispatcher with espeak-ng writing its
//! audio to a file through ALSA, and espeak-ng run directly. The tests check
//! that real speech came out (length and energy measured with sox), in
//! Polish and in English.
//!
//! Needs the Debian packages speech-dispatcher, speech-dispatcher-espeak-ng,
//! espeak-ng and sox; fails with a message naming them when they are
//! missing, unless `TANDEM_SKIP_REAL` is set outside CI (`tandem-testkit`).

use std::time::Duration;

use tandem_rules::draughts::notation::resolve;
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::output::espeak::{synthesize_wav, EspeakOutput};
use tandem_speech::output::worker::SpeechWorker;
use tandem_speech::output::{SpeechOutput, VoiceParams};
use tandem_speech::testing::{raw_stats, wav_stats, AudioStats};
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook, Utterance};

/// espeak-ng and sox, or (skipping allowed) `false` after saying which is missing.
fn espeak_and_sox() -> bool {
    tandem_testkit::require_program(
        "espeak-ng",
        &["--version"],
        "espeak-ng (apt-get install espeak-ng)",
    ) && tandem_testkit::require_program("sox", &["--version"], "sox (apt-get install sox)")
}

fn capture_announcement(book: Phrasebook) -> Utterance {
    let p = Position::from_fen(Variant::International, "W:W32:B27,17,8").unwrap();
    let m = resolve(&p, "32x3").unwrap();
    Announcer::new(book, AnnounceOptions::default()).on_move(&p, &m)
}

/// Speech, not silence or a click: long enough for the sentence and loud enough.
fn assert_speech(what: &str, s: AudioStats, min_seconds: f64) {
    assert!(
        s.seconds >= min_seconds,
        "{what}: only {:.2} s of audio ({s:?})",
        s.seconds
    );
    assert!(s.rms > 0.02, "{what}: audio too quiet to be speech ({s:?})");
    assert!(s.max > 0.2, "{what}: no loud samples ({s:?})");
}

#[test]
fn espeak_ng_wav_in_polish_and_english() {
    if !espeak_and_sox() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (book, min) in [(Phrasebook::polish(), 4.0), (Phrasebook::english(), 3.0)] {
        let u = capture_announcement(book.clone());
        let out = dir.path().join(format!("{}.wav", book.language()));
        let params = VoiceParams {
            voice: Some(book.espeak_voice().into()),
            ..VoiceParams::for_language(book.language())
        };
        synthesize_wav(&u.text(), &params, &out)
            .unwrap_or_else(|e| panic!("{e} (install espeak-ng)"));
        assert_speech(book.language(), wav_stats(&out).unwrap(), min);
    }
}

#[test]
fn espeak_ng_rate_changes_the_length() {
    if !espeak_and_sox() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let text = capture_announcement(Phrasebook::polish()).text();
    let mut lengths = Vec::new();
    for rate in [-50i8, 0, 80] {
        let out = dir.path().join(format!("r{rate}.wav"));
        let params = VoiceParams {
            rate,
            ..VoiceParams::for_language("pl")
        };
        synthesize_wav(&text, &params, &out).unwrap();
        lengths.push(wav_stats(&out).unwrap().seconds);
    }
    assert!(
        lengths[0] > lengths[1] && lengths[1] > lengths[2],
        "slower must be longer: {lengths:?}"
    );
}

#[test]
fn espeak_ng_backend_speaks_through_alsa() {
    if !espeak_and_sox() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("asound.conf");
    std::fs::write(
        &conf,
        format!(
            "pcm.!default {{ type file; slave.pcm \"null\"; file \"{}/out_%r_%c_%b.raw\"; format \"raw\"; truncate false }}\n",
            dir.path().display()
        ),
    )
    .unwrap();
    let alsa = format!("/usr/share/alsa/alsa.conf:{}", conf.display());
    let mut backend =
        EspeakOutput::new(VoiceParams::for_language("en")).env("ALSA_CONFIG_PATH", alsa);
    backend
        .speak(&capture_announcement(Phrasebook::english()))
        .unwrap_or_else(|e| panic!("{e}"));
    let t = std::time::Instant::now();
    while backend.is_speaking() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "espeak-ng never finished"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let raw = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "raw")
                && std::fs::metadata(p).is_ok_and(|m| m.len() > 0)
        })
        .expect("espeak-ng wrote no audio through ALSA");
    assert_speech("espeak-ng backend", raw_stats(&raw, 22050, 1).unwrap(), 3.0);
}

#[cfg(feature = "speechd")]
#[test]
fn speech_dispatcher_speaks_polish_and_english() {
    use tandem_speech::output::speechd::SpeechdOutput;
    use tandem_speech::testing::PrivateSpeechd;
    let Some(sd) = tandem_testkit::require(
        "speech-dispatcher with espeak-ng (apt-get install speech-dispatcher speech-dispatcher-espeak-ng)",
        PrivateSpeechd::start("pl"),
    ) else {
        return;
    };
    if !espeak_and_sox() {
        return;
    }
    // The only test in this binary that talks to speech-dispatcher, so setting
    // the process environment here races with nothing that reads it.
    std::env::set_var("SPEECHD_ADDRESS", sd.address());
    // The server offers a Polish and an English voice (what set_params picks from).
    let probe =
        SpeechdOutput::new(&VoiceParams::for_language("pl")).unwrap_or_else(|e| panic!("{e}"));
    let voices = probe.voices().unwrap();
    for lang in ["pl", "en"] {
        assert!(
            voices
                .iter()
                .any(|(_, l)| l.split('-').next() == Some(lang)),
            "no {lang} voice in {voices:?}"
        );
    }
    drop(probe);
    let worker = SpeechWorker::spawn(|| {
        SpeechdOutput::new(&VoiceParams::for_language("pl"))
            .map(|b| Box::new(b) as Box<dyn SpeechOutput>)
    })
    .unwrap_or_else(|e| panic!("{e}; log in {}", sd.log_dir().display()));
    assert_eq!(worker.backend_name(), "speechd");

    for (book, min) in [(Phrasebook::polish(), 4.0), (Phrasebook::english(), 3.0)] {
        worker
            .set_params(VoiceParams::for_language(book.language()))
            .unwrap();
        let mark = sd.audio_mark();
        let t = std::time::Instant::now();
        worker.say(capture_announcement(book.clone())).unwrap();
        // End-of-speech events arrive: the worker becomes idle.
        assert!(
            worker.wait_idle(Duration::from_secs(30)),
            "{}: speech never ended",
            book.language()
        );
        eprintln!("speechd {}: spoken in {:?}", book.language(), t.elapsed());
        let stats = sd
            .wait_audio_since(mark, Duration::from_millis(300), Duration::from_secs(20))
            .unwrap_or_else(|e| panic!("{}: {e}", book.language()));
        eprintln!("speechd {}: {stats:?}", book.language());
        assert_speech(&format!("speechd {}", book.language()), stats, min);
    }
    assert_eq!(worker.take_errors(), []);
}
