//! Two seats at one table (issue 37): how far apart a move's announcement
//! reaches the two seats' speech, and what a second language costs a move.
//!
//! Each seat's speech channel is read by a thread of its own (as each
//! seat's speech task reads it), which notes when the move's words arrive.
//! A real game (dutch96h.pdn) is played move after move through the
//! session, typed from white's and black's seats in turn; one table speaks
//! Polish to both seats, the other Polish to white and English to black
//! (every announcement made once per language, `session/tongues.rs`).

mod support;

use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use tandem::game::AnyPosition;
use tandem::journal::Source;
use tandem::session::{Blind, Cmd, Outputs, Session};
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;
use tokio::sync::{broadcast, mpsc};

struct Table {
    _dir: tempfile::TempDir,
    session: Session,
    /// When each seat's reader got words, white's then black's.
    heard: [std_mpsc::Receiver<Instant>; 2],
    next: usize,
    english_black: bool,
}

/// A seat's reader: notes when each utterance arrives.
fn reader(
    mut rx: mpsc::UnboundedReceiver<tandem_speech::Utterance>,
) -> std_mpsc::Receiver<Instant> {
    let (tx, heard) = std_mpsc::channel();
    std::thread::spawn(move || {
        while rx.blocking_recv().is_some() {
            if tx.send(Instant::now()).is_err() {
                return;
            }
        }
    });
    heard
}

fn table(english_black: bool) -> Table {
    let dir = tempfile::tempdir().expect("temp dir");
    let (tx, _table_speech) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(1024);
    let (w, wr) = mpsc::unbounded_channel();
    let (b, br) = mpsc::unbounded_channel();
    let mut out = Outputs::new(tx, None, notices);
    out.table_speaks = false;
    out.seats = vec![
        support::seat(Color::White, w, None),
        support::seat(Color::Black, b, english_black.then(|| "en".to_owned())),
    ];
    let start = AnyPosition::Draughts(Position::start(Variant::International));
    let setup = support::setup(start, Blind::Both, "pl");
    let session = Session::start(&setup, &dir.path().join("g.jsonl"), out).expect("session");
    let t = Table {
        _dir: dir,
        session,
        heard: [reader(wr), reader(br)],
        next: 0,
        english_black,
    };
    // The start ("White to move") reached both.
    for h in &t.heard {
        h.recv().expect("the start");
    }
    t
}

/// Plays the next move from its side's seat; returns the time from the
/// request to the later seat's words, and how far apart the two seats got them.
fn one_move(t: &mut Table, moves: &[String]) -> (Duration, Duration) {
    if t.next == moves.len() {
        *t = table(t.english_black);
    }
    let seat = if t.next % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let t0 = Instant::now();
    let r = t
        .session
        .handle_as(Cmd::Move(moves[t.next].clone()), Source::Typed, Some(seat));
    assert!(r.ok, "{r:?}");
    let w = t.heard[0].recv().expect("white's words");
    let b = t.heard[1].recv().expect("black's words");
    // A capture may be followed by more words (none in draughts today):
    // whatever else came is not this move's start.
    for h in &t.heard {
        while h.try_recv().is_ok() {}
    }
    t.next += 1;
    (w.max(b) - t0, if w > b { w - b } else { b - w })
}

fn bench(c: &mut Criterion) {
    let rt = support::runtime();
    let _g = rt.enter();
    let moves = support::draughts_moves();
    for english_black in [false, true] {
        let name = if english_black {
            "two seats, Polish and English"
        } else {
            "two seats, one language"
        };
        let mut t = table(english_black);
        let stages = ["move to both seats' words", "between the two seats"];
        support::sample2_printed(name, stages, 1000, || one_move(&mut t, &moves));
        c.bench_function(&format!("{name}: move to both seats' words"), |bch| {
            bch.iter(|| one_move(&mut t, &moves).0)
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
