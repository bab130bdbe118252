//! Move accepted -> display cells written (target <= 20 ms).
//!
//! - `memory/<view>`: render the new position and write it to the in-memory
//!   display (the pure part of the path).
//! - `brlapi/written/<view>` (feature `brlapi`): render and hand the line to a
//!   real BRLTTY through BrlAPI, until libbrlapi's write call returned.
//! - `brlapi/shown/<view>` (feature `brlapi`): the same until the cells arrive
//!   on BRLTTY's Virtual display (read back from the `vr` socket), i.e. what
//!   the player's fingers would meet.
//!
//! Run: `cargo bench -p tandem-braille --features brlapi --bench display_latency`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use tandem_braille::display::memory::MemoryDisplay;
use tandem_braille::driver::DisplayDriver;
use tandem_braille::{StatusInfo, View};
use tandem_rules::draughts::{Position, Square, Variant};
use tandem_rules::Color;

/// Two positions a move apart, so every update changes the display.
fn positions() -> [(Position, StatusInfo); 2] {
    let a = Position::start(Variant::International);
    let mut b = a;
    let sq = |n| Square::new(n).expect("1..=50");
    let m = a
        .legal_moves()
        .into_iter()
        .find(|m| m.from() == sq(32) && m.to() == sq(28))
        .expect("32-28 is legal");
    b.play_unchecked(&m);
    let mut sb = StatusInfo::new(Color::Black);
    sb.last_move = Some("32-28".into());
    sb.white_clock = Some(Duration::from_secs(299));
    sb.black_clock = Some(Duration::from_secs(300));
    sb.black_behind = 1;
    [(a, StatusInfo::new(Color::White)), (b, sb)]
}

/// Moves to a line that 32-28 changes: the first line of the list and
/// status views, the row 26-30 of the rows and graphic views.
fn show_changing_line<D: tandem_braille::BrailleDisplay>(drv: &mut DisplayDriver<D>, view: View) {
    if matches!(view, View::Rows | View::Graphic) {
        for _ in 0..5 {
            let _ = drv.press(tandem_braille::Key::LineDown);
        }
    }
}

fn memory(c: &mut Criterion) {
    let ps = positions();
    let mut g = c.benchmark_group("memory");
    for view in View::ALL {
        let (d, _h) = MemoryDisplay::new(40);
        let mut drv = DisplayDriver::new(d, ps[0].0, ps[0].1.clone(), view);
        show_changing_line(&mut drv, view);
        let mut i = 0usize;
        g.bench_function(view.name(), |b| {
            b.iter(|| {
                i += 1;
                let (p, s) = &ps[i % 2];
                drv.update(p, s).expect("memory display is plugged in");
            });
        });
    }
    g.finish();
}

#[cfg(feature = "brlapi")]
fn brlapi(c: &mut Criterion) {
    use std::time::Instant;
    use tandem_braille::display::brlapi::{BrlApiDisplay, BrlApiSettings};
    use tandem_braille::testing::brltty::VirtualBrltty;

    let b = match VirtualBrltty::start(40) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("\n*** brlapi benchmarks NOT RUN: cannot start BRLTTY: {e}\n");
            return;
        }
    };
    let ps = positions();
    for view in View::ALL {
        let d = BrlApiDisplay::start(BrlApiSettings {
            host: Some(b.host()),
            auth: Some("none".into()),
            ..BrlApiSettings::default()
        });
        if let Err(e) = d.wait_connected(Duration::from_secs(10)) {
            eprintln!("\n*** brlapi benchmarks NOT RUN: {e}\n");
            return;
        }
        let mut drv = DisplayDriver::new(d, ps[0].0, ps[0].1.clone(), view);
        show_changing_line(&mut drv, view);
        let mut i = 0usize;
        c.benchmark_group("brlapi/written")
            .bench_function(view.name(), |bch| {
                bch.iter(|| {
                    i += 1;
                    let (p, s) = &ps[i % 2];
                    drv.update(p, s).expect("connected");
                    drv.display()
                        .flush(Duration::from_secs(5))
                        .expect("written");
                });
            });
        let mut g = c.benchmark_group("brlapi/shown");
        g.sample_size(20).measurement_time(Duration::from_secs(4));
        g.bench_function(view.name(), |bch| {
            bch.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    i += 1;
                    let (p, s) = &ps[i % 2];
                    let t = Instant::now();
                    drv.update(p, s).expect("connected");
                    let want = drv.ui().current_line();
                    b.wait_for_cells(want.cells(), Duration::from_secs(5))
                        .expect("cells shown");
                    total += t.elapsed();
                }
                total
            });
        });
        g.finish();
    }
}

#[cfg(not(feature = "brlapi"))]
fn brlapi(_c: &mut Criterion) {
    eprintln!("\n*** brlapi benchmarks NOT RUN: build with --features brlapi\n");
}

criterion_group!(benches, memory, brlapi);
criterion_main!(benches);
