//! A turn entered on the braille display a checker step at a time: what one
//! routing key costs (`check_from` for a pick, `check_steps` for a step,
//! each against the roll's legal moves), on the start and on the worst
//! position of `benches/backgammon.rs` (one or two checkers on each of
//! white's 1..12, doubles: hundreds of distinct moves). Figures in
//! BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use tandem_rules::backgammon::{check_from, check_steps, legal_plays, Board, Dice, Step};
use tandem_rules::Color;

fn spread() -> Board {
    let mut w = [0u8; 25];
    for (i, n) in [2, 1, 1, 2, 1, 1, 2, 1, 1, 1, 1, 1].iter().enumerate() {
        w[i] = *n;
    }
    let mut b = [0u8; 25];
    b[..5].fill(3);
    Board::from_sides(w, b, Color::White).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("backgammon_routing_key");
    let start = Board::start(Color::White);
    let spread = spread();
    for (name, board, dice) in [
        ("start 31", start, Dice(3, 1)),
        ("start 66", start, Dice(6, 6)),
        ("spread 11", spread, Dice(1, 1)),
        ("spread 22", spread, Dice(2, 2)),
    ] {
        // The first legal move, entered a die at a time: the last step's
        // pick and the step itself, the dearest keys of the turn.
        let play = legal_plays(&board, dice)[0];
        let steps: Vec<Step> = play.steps().to_vec();
        let (before, last) = steps.split_at(steps.len() - 1);
        g.bench_function(format!("{name}: pick"), |b| {
            b.iter(|| check_from(black_box(&board), dice, before, last[0].from));
        });
        g.bench_function(format!("{name}: step"), |b| {
            b.iter(|| check_steps(black_box(&board), dice, &steps));
        });
    }
    // A pick refused (no checker on white's 24): every destination is tried.
    g.bench_function("spread 11: refused pick", |b| {
        b.iter(|| check_from(black_box(&spread), Dice(1, 1), &[], 24));
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
