//! How long building an announcement takes (it must never lag behind the
//! move), and how long loading and checking a phrasebook takes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use tandem_rules::draughts::notation::resolve;
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::phrasebook::POLISH_TOML;
use tandem_speech::{AnnounceOptions, Announcer, ClockReport, Phrasebook, SideClock};

fn bench(c: &mut Criterion) {
    let a = Announcer::new(Phrasebook::polish(), AnnounceOptions::default());
    let start = Position::start(Variant::International);
    let quiet = resolve(&start, "32-28").unwrap();
    let p3 = Position::from_fen(Variant::International, "W:W32:B27,17,8").unwrap();
    let triple = resolve(&p3, "32x3").unwrap();
    let pc = Position::from_fen(Variant::International, "W:W33,40:B28").unwrap();
    let err = resolve(&pc, "40-34").unwrap_err();
    let clock = ClockReport {
        white: SideClock {
            used: Duration::from_secs(725),
            remaining: Duration::from_secs(2875),
        },
        black: SideClock {
            used: Duration::from_secs(61),
            remaining: Duration::from_secs(3539),
        },
        moves_made: 21,
        moves_to_control: Some(19),
    };
    c.bench_function("announce quiet move (pl)", |b| {
        b.iter(|| a.on_move(black_box(&start), black_box(&quiet)))
    });
    c.bench_function("announce triple capture + promotion (pl)", |b| {
        b.iter(|| a.on_move(black_box(&p3), black_box(&triple)))
    });
    c.bench_function("announce clock report (pl)", |b| {
        b.iter(|| a.on_clock(black_box(&clock)))
    });
    c.bench_function("announce rejection (pl)", |b| {
        b.iter(|| a.on_rejected(black_box(&pc), "40-34", black_box(&err)))
    });
    c.bench_function("load and check the Polish phrasebook", |b| {
        b.iter(|| Phrasebook::from_toml_str(black_box(POLISH_TOML)).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
