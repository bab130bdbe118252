//! Backgammon move generation: every legal move of a roll (each position
//! once, gnubg's order), on the worst positions (doubles with checkers spread
//! over many open points give hundreds of distinct moves) and on the start.
//! Figures in BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tandem_rules::backgammon::{legal_plays, notation, position_id, Board, Dice};
use tandem_rules::Color;

fn spread() -> Board {
    // White spread one or two a point over its 1..12, black far away on its
    // own home board: every 1-1 / 2-2 sub-move is open.
    let mut w = [0u8; 25];
    for (i, n) in [2, 1, 1, 2, 1, 1, 2, 1, 1, 1, 1, 1].iter().enumerate() {
        w[i] = *n;
    }
    let mut b = [0u8; 25];
    b[0] = 3;
    b[1] = 3;
    b[2] = 3;
    b[3] = 3;
    b[4] = 3;
    Board::from_sides(w, b, Color::White).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("backgammon_legal_plays");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    let start = Board::start(Color::White);
    let spread = spread();
    let cases: Vec<(&str, Board, Dice)> = vec![
        ("start 31", start, Dice(3, 1)),
        ("start 11", start, Dice(1, 1)),
        ("start 66", start, Dice(6, 6)),
        ("spread 11", spread, Dice(1, 1)),
        ("spread 22", spread, Dice(2, 2)),
        ("spread 33", spread, Dice(3, 3)),
        ("spread 21", spread, Dice(2, 1)),
    ];
    for (name, board, dice) in &cases {
        let n = legal_plays(board, *dice).len();
        g.bench_with_input(
            BenchmarkId::new("moves", format!("{name} ({n} moves)")),
            board,
            |b, board| {
                b.iter(|| legal_plays(black_box(board), black_box(*dice)));
            },
        );
    }
    // With the texts, as `tandem moves` prints them.
    g.bench_function("spread 11 with gnubg texts", |b| {
        b.iter(|| {
            legal_plays(&spread, Dice(1, 1))
                .iter()
                .map(|p| notation::write(&spread, p))
                .collect::<Vec<_>>()
        });
    });
    g.finish();
    // For the record: the worst position's ID.
    let _ = position_id::encode(&spread);
}

criterion_group!(benches, bench);
criterion_main!(benches);
