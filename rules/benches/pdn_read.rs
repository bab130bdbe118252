//! Reading messy PDN exports (issue 14): the corpus of `tests/data/messy/`
//! (every kind of defect: escapes written out as text, broken tags, junk,
//! Windows-1252 names, mixed line ends), repeated to a file of about 1 MB,
//! read from bytes and then replayed. Figures are in BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tandem_rules::draughts::pdn::{read_pdn, replay, Replay};
use tandem_rules::draughts::Variant;

const CORPUS: [&[u8]; 7] = [
    include_bytes!("../tests/data/messy/escapes.pdn"),
    include_bytes!("../tests/data/messy/broken-tags.pdn"),
    include_bytes!("../tests/data/messy/no-blank-lines.pdn"),
    include_bytes!("../tests/data/messy/results.pdn"),
    include_bytes!("../tests/data/messy/encodings.pdn"),
    include_bytes!("../tests/data/messy/junk.pdn"),
    include_bytes!("../tests/data/messy/failures.pdn"),
];

/// The corpus repeated `times` times, one file after the other.
fn messy_file(times: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..times {
        for f in CORPUS {
            out.extend_from_slice(f);
            out.push(b'\n');
        }
    }
    out
}

fn pdn_benches(c: &mut Criterion) {
    let file = messy_file(180);
    let games = read_pdn(&file).games;
    assert_eq!(games.len(), 180 * 28);
    let mut g = c.benchmark_group("pdn");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Bytes(file.len() as u64));
    g.bench_function("read messy 1 MB", |b| {
        b.iter(|| read_pdn(black_box(&file)).games.len());
    });
    g.bench_function("read and replay messy 1 MB", |b| {
        b.iter(|| {
            read_pdn(black_box(&file))
                .games
                .iter()
                .filter(|g| matches!(replay(g, Variant::International), Replay::Ok(_)))
                .count()
        });
    });
    g.finish();
}

criterion_group!(benches, pdn_benches);
criterion_main!(benches);
