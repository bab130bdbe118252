//! Move generator speed: bulk-counted perft and `legal_moves` on capture-rich
//! middlegames. Figures and the comparison with Scan 3.1 are in
//! `docs/bench/scan-comparison.md`.
//!
//! Kept short (sample size 10, 2 s measurement) so that a full
//! `cargo bench -p tandem-rules` stays under about two minutes on two cores.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tandem_rules::draughts::{perft, Position, Variant};

/// Woldouby's position, the standard check of capture generation.
const WOLDOUBY: &str = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38";

/// Middlegames where the side to move must capture (several routes, kings).
const CAPTURE_POSITIONS: &[(&str, &str)] = &[
    // A king that can take 21, 23 and then 33 or 39: two moves 16x1.
    ("king two routes", "W:WK16:B21,23,33,39"),
    // Real game (rules/tests/data/pdn/schildpad.pdn, game 3, ply 69): a king
    // reaches 16 by two routes taking different men.
    ("schildpad king", "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"),
    // Same file, game 7, ply 111: 4x24 by two routes.
    ("schildpad endgame", "W:WK4,20,39,44:B12,18,28,29,37"),
    // Opening exchange: 32-28 19-23 28x19, black recaptures with 13 or 14.
    ("opening exchange", "B:W19,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20"),
    // Kings and men mixed, captures compulsory for white.
    ("kings and men", "W:WK3,K46,28,33,38,39,42:BK49,12,17,19,22,23,24,29,34"),
];

fn perft_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));

    let start = Position::start(Variant::International);
    for (depth, nodes) in [(6u32, 167_140u64), (7, 1_049_442)] {
        g.throughput(Throughput::Elements(nodes));
        g.bench_with_input(
            BenchmarkId::new("international start", depth),
            &depth,
            |b, &d| {
                b.iter(|| black_box(perft(black_box(&start), d)));
            },
        );
    }

    let sf = Position::start(Variant::SixtyFour);
    g.throughput(Throughput::Elements(907_830));
    g.bench_with_input(BenchmarkId::new("sixty-four start", 8), &8u32, |b, &d| {
        b.iter(|| black_box(perft(black_box(&sf), d)));
    });

    // Position::from_fen is the tested FEN reader; this constant is known good.
    let wold = Position::from_fen(Variant::International, WOLDOUBY).expect("Woldouby FEN is valid");
    g.throughput(Throughput::Elements(6_269));
    g.bench_with_input(BenchmarkId::new("woldouby", 8), &8u32, |b, &d| {
        b.iter(|| black_box(perft(black_box(&wold), d)));
    });
    g.finish();
}

fn legal_moves_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_moves");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    for (name, fen) in CAPTURE_POSITIONS {
        let pos =
            Position::from_fen(Variant::International, fen).expect("benchmark FENs are valid");
        assert!(
            pos.legal_moves().iter().all(|m| m.is_capture()),
            "{name}: the benchmark position must be one where a capture is compulsory"
        );
        g.bench_function(*name, |b| {
            b.iter(|| black_box(black_box(&pos).legal_moves()))
        });
    }
    g.finish();
}

criterion_group!(benches, perft_benches, legal_moves_benches);
criterion_main!(benches);
