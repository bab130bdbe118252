//! Typed move -> journal synced (fsync) -> announcement queued -> braille
//! written (the braille driver thread writing to a memory display), as
//! criterion's timing of the whole path plus percentiles of each stage.
//!
//! The same for a chess game (SAN, annex E words, the chess braille view).
//!
//! `cargo bench -p tandem --bench move_latency`

mod support;

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use tandem::game::AnyPosition;
use tandem::journal::Source;
use tandem::session::{Blind, Cmd, Outputs, Session};
use tandem_braille::display::memory::{MemoryDisplay, MemoryHandle};
use tandem_braille::driver::{self, DisplayDriver, DriverHandle};
use tandem_braille::{Board, StatusInfo, View};
use tandem_rules::draughts::{Position, Variant};
use tokio::sync::{broadcast, mpsc};

struct Table {
    _dir: tempfile::TempDir,
    session: Session,
    speech: mpsc::UnboundedReceiver<tandem_speech::Utterance>,
    display: MemoryHandle,
    _driver: DriverHandle,
    next: usize,
    chess: bool,
}

fn moves(chess: bool) -> Vec<String> {
    if chess {
        let path = format!(
            "{}/../rules/tests/data/chess/aronian-1993-2002.pgn",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).expect("test game");
        return match tandem_rules::chess::pgn::replay(
            &tandem_rules::chess::pgn::parse_pgn(&text)[0],
        ) {
            tandem_rules::chess::pgn::Replay::Ok(g) => g.sans().to_vec(),
            _ => panic!("the chess bench game does not replay"),
        };
    }
    support::draughts_moves()
}

fn table(chess: bool) -> Table {
    let dir = tempfile::tempdir().expect("temp dir");
    let (tx, speech) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(1024);
    let start = if chess {
        AnyPosition::Chess(Box::new(tandem_rules::chess::start()))
    } else {
        AnyPosition::Draughts(Position::start(Variant::International))
    };
    let board = match &start {
        AnyPosition::Draughts(p) => Board::Draughts(*p),
        AnyPosition::Chess(p) => Board::Chess((**p).clone()),
        AnyPosition::Backgammon(_) => unreachable!("this bench plays draughts and chess"),
    };
    let (d, display) = MemoryDisplay::new(40);
    let drv = driver::spawn(DisplayDriver::with_board(
        d,
        board,
        StatusInfo::new(start.turn()),
        View::List,
    ))
    .expect("driver");
    let out = Outputs::new(tx, Some(drv.input.clone()), notices);
    let setup = support::setup(start, Blind::White, "pl");
    let session = Session::start(&setup, &dir.path().join("g.jsonl"), out).expect("session");
    Table {
        _dir: dir,
        session,
        speech,
        display,
        _driver: drv,
        next: 0,
        chess,
    }
}

/// Plays the next move; returns the times to journal+apply (handle returns
/// after the fsync and the queueing), to the utterance being queued, and to
/// the braille line being written.
fn one_move(t: &mut Table, moves: &[String]) -> (Duration, Duration) {
    if t.next == moves.len() {
        *t = table(t.chess);
    }
    let writes = t.display.write_count();
    let t0 = Instant::now();
    let r = t
        .session
        .handle(Cmd::Move(moves[t.next].clone()), Source::Typed);
    let handled = t0.elapsed();
    assert!(r.ok);
    assert!(
        t.speech.try_recv().is_ok(),
        "the announcement is queued when handle returns"
    );
    while t.display.write_count() == writes {
        std::hint::spin_loop();
    }
    let braille = t0.elapsed();
    while t.speech.try_recv().is_ok() {}
    t.next += 1;
    (handled, braille)
}

fn bench(c: &mut Criterion) {
    let rt = support::runtime();
    let _g = rt.enter();
    for chess in [false, true] {
        let game = if chess { "chess" } else { "draughts" };
        let moves = moves(chess);
        let mut t = table(chess);
        // Percentiles of each stage over 1000 moves.
        let stages = ["journal synced + announcement queued", "braille written"];
        support::sample2_printed(&format!("{game} move latency"), stages, 1000, || {
            one_move(&mut t, &moves)
        });
        c.bench_function(&format!("{game}: typed move to braille written"), |bch| {
            bch.iter(|| one_move(&mut t, &moves))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
