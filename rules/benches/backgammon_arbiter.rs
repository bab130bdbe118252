//! The backgammon arbiter's comparison (`tandem arbiter reconcile`) on a
//! long match: a 25-point match played at random (seeded; about 1,800
//! entries in 21 games) compared with itself, and with one roll changed
//! half way. Figures in BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use tandem_rules::backgammon::arbiter::{from_match, reconcile_match};
use tandem_rules::backgammon::{Action, Dice, Match, MatchOptions, Phase, Play};

fn long_match(length: u32) -> Match {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut die = move || u8::try_from(next() % 6).unwrap_or(0) + 1;
    let mut m = Match::new(MatchOptions { length });
    loop {
        let a = match m.phase() {
            Phase::MatchOver => break,
            Phase::Opening => {
                let (a, b) = (die(), die());
                if a == b {
                    continue;
                }
                Action::Roll(Dice(a, b))
            }
            Phase::Roll => Action::Roll(Dice(die(), die())),
            Phase::DoubleOffered => Action::Take,
            Phase::Move => {
                let p = m.legal();
                let k = usize::from(die()) * 7919 % p.len().max(1);
                Action::Move(p.get(k).copied().unwrap_or(Play::PASS))
            }
        };
        m.act(a).expect("a legal action");
    }
    m
}

fn bench(c: &mut Criterion) {
    let m = long_match(25);
    let a = from_match(&m).texts();
    let mut b = a.clone();
    // Half way, a turn's roll misread as double sixes.
    let k = (a.len() / 2..a.len())
        .find(|&i| a[i].contains(':') && !a[i].contains(" 66:"))
        .unwrap_or(0);
    let (side, rest) = a[k].split_once(' ').unwrap_or(("white", ""));
    let mv = rest.split_once(':').map_or("", |(_, m)| m);
    b[k] = format!("{side} 66:{mv}");
    let mut g = c.benchmark_group("backgammon_reconcile");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    g.bench_function(
        format!("25-point match, {} entries, agree", a.len()),
        |bn| bn.iter(|| black_box(reconcile_match(25, &a, &a)).agreed_plies),
    );
    g.bench_function(
        format!("25-point match, a roll changed at entry {}", k + 1),
        |bn| bn.iter(|| black_box(reconcile_match(25, &a, &b)).agreed_plies),
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
