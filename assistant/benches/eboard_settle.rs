//! A seat's ChessLink e-board (issue 42): from the piece settling on the
//! board (the status report that completes white's move written to the
//! board's line) to the move's announcement queued on the table's speech,
//! less the settle time (the debounce). The real reader on a
//! pseudo-terminal, the real watch, session and journal; black's replies are
//! made at the table and shown on the board, untimed. A knight's dance
//! (Nf3 Nf6 Ng1 Ng8), a new table before its fifth repetition.

mod support;

use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use tandem::eboard::{EboardPart, RunningEboard, Timing};
use tandem::game::AnyPosition;
use tandem::journal::Source;
use tandem::messages::Messages;
use tandem::seat::{BoardProtocol, BoardSpec, SeatSpec};
use tandem::session::{Blind, Cmd, Outputs, Session, SessionHandle};
use tandem_rules::Color;
use tokio::sync::{broadcast, mpsc};

const SETTLE: Duration = Duration::from_millis(40);
const START: &str = "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR";

fn index(sq: &str) -> usize {
    let b = sq.as_bytes();
    usize::from(b'8' - b[1]) * 8 + usize::from(b[0] - b'a')
}

fn moved(p: &str, from: &str, to: &str) -> String {
    let mut b = p.as_bytes().to_vec();
    b[index(to)] = b[index(from)];
    b[index(from)] = b'.';
    String::from_utf8(b).expect("ascii")
}

fn status(p: &str) -> Vec<u8> {
    let body = format!("s{p}");
    let x = body.bytes().fold(0u8, |a, b| a ^ b);
    format!("{body}{x:02X}").into_bytes()
}

struct Table {
    _dir: tempfile::TempDir,
    master: OwnedFd,
    handle: SessionHandle,
    speech: mpsc::UnboundedReceiver<tandem_speech::Utterance>,
    board: Option<RunningEboard>,
    ply: usize,
}

fn drain(master: &OwnedFd) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = rustix::io::read(master, &mut buf) {
        if n == 0 {
            break;
        }
    }
}

fn table(rt: &tokio::runtime::Runtime) -> Table {
    use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
    let dir = tempfile::tempdir().expect("temp dir");
    let master =
        openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).expect("pty");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    rustix::fs::fcntl_setfl(&master, rustix::fs::OFlags::NONBLOCK).expect("nonblocking");
    let slave = PathBuf::from(
        ptsname(&master, Vec::new())
            .expect("ptsname")
            .to_str()
            .expect("name"),
    );
    let (tx, mut speech) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(1024);
    let _g = rt.enter();
    let setup = support::setup(
        AnyPosition::Chess(Box::new(tandem_rules::chess::start())),
        Blind::Black,
        "en",
    );
    let out = Outputs::new(tx, None, notices);
    let session = Session::start(&setup, &dir.path().join("g.jsonl"), out).expect("session");
    let (handle, _task) = session.spawn();
    let mut seat = SeatSpec::new(Color::White);
    seat.board = Some(BoardSpec {
        protocol: BoardProtocol::ChessLink,
        path: slave,
    });
    let part = EboardPart::from_seat(&seat)
        .expect("a board")
        .with_timing(Timing {
            settle: SETTLE,
            mismatch_after: Duration::from_secs(5),
        });
    let msgs = Messages::new(tandem_speech::Phrasebook::english());
    let board = Some(part.start(handle.clone(), msgs).expect("board"));
    // The start said; the board shows the start.
    speech.blocking_recv().expect("the start");
    std::thread::sleep(Duration::from_millis(200));
    drain(&master);
    rustix::io::write(&master, &status(START)).expect("status");
    std::thread::sleep(SETTLE * 3);
    while speech.try_recv().is_ok() {}
    Table {
        _dir: dir,
        master,
        handle,
        speech,
        board,
        ply: 0,
    }
}

/// The dance's positions: after ply 0, 1, 2, 3 (then the start again).
fn dance() -> [String; 4] {
    let p1 = moved(START, "g1", "f3");
    let p2 = moved(&p1, "g8", "f6");
    let p3 = moved(&p2, "f3", "g1");
    [START.to_owned(), p1, p2, p3]
}

const REPLIES: [&str; 2] = ["Nf6", "Ng8"];

/// White's move settling on the board: the time to its announcement
/// beyond the settle time.
fn settle_once(t: &mut Table, rt: &tokio::runtime::Runtime, pos: &[String; 4]) -> Duration {
    if t.ply >= 12 {
        if let Some(b) = t.board.take() {
            b.stop();
        }
        *t = table(rt);
    }
    let white = &pos[(t.ply + 1) % 4];
    drain(&t.master);
    rustix::io::write(&t.master, &status(white)).expect("status");
    let t0 = Instant::now();
    let u = t.speech.blocking_recv().expect("the move announced");
    let beyond = t0.elapsed().saturating_sub(SETTLE);
    assert!(u.text().to_lowercase().contains("knight"), "{}", u.text());
    // Black's reply at the table, made on the board (not timed).
    let h = t.handle.clone();
    let reply = REPLIES[(t.ply / 2) % 2];
    let r = rt
        .block_on(h.request(Cmd::Move(reply.into()), Source::Typed))
        .expect("black's move");
    assert!(r.ok, "{r:?}");
    rustix::io::write(&t.master, &status(&pos[(t.ply + 2) % 4])).expect("status");
    // The board shows black's move: "Both boards agree."
    while !t
        .speech
        .blocking_recv()
        .expect("the boards' sync")
        .text()
        .contains("agree")
    {}
    while t.speech.try_recv().is_ok() {}
    t.ply += 2;
    beyond
}

fn bench(c: &mut Criterion) {
    let rt = support::runtime_two_workers();
    let pos = dance();
    let mut t = table(&rt);
    let mut v = Vec::new();
    for _ in 0..200 {
        v.push(settle_once(&mut t, &rt, &pos));
    }
    println!(
        "e-board: the piece settled to the move announced, beyond the {SETTLE:?} settle time: p50 {:?}  p90 {:?}  p99 {:?}  max {:?}",
        support::pct(&mut v, 0.5),
        support::pct(&mut v, 0.9),
        support::pct(&mut v, 0.99),
        support::pct(&mut v, 1.0)
    );
    let mut g = c.benchmark_group("eboard");
    g.sample_size(20);
    g.bench_function("settled to announced, beyond the settle time", |b| {
        b.iter_custom(|n| (0..n).map(|_| settle_once(&mut t, &rt, &pos)).sum())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
