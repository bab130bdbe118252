use criterion::{criterion_group, criterion_main, Criterion};
use tandem_rules::{perft, Position, Variant};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let start = Position::start(Variant::International);
    g.bench_function("international start depth 6", |b| b.iter(|| perft(&start, 6)));
    let sf = Position::start(Variant::SixtyFour);
    g.bench_function("sixty-four start depth 7", |b| b.iter(|| perft(&sf, 7)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
