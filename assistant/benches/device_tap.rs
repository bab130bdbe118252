//! A seat on the player's own device (issue 33): from a move sent by the
//! paired device (`POST /api/move`, on loopback, one kept-alive HTTP/1.1
//! connection, the session cookie) to the move's announcement queued on the
//! table's own speech output, and to the device's answer. The real router,
//! connection bounds, pairing and session; a real game (dutch96h.pdn)
//! played move after move, white's from the device, black's at the table.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use tandem::devices::web::{router, seat_feed, App};
use tandem::devices::Pairing;
use tandem::game::AnyPosition;
use tandem::journal::Source;
use tandem::session::{Blind, Cmd, Outputs, Session, SessionHandle};
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;
use tokio::sync::{broadcast, mpsc};

struct Table {
    _dir: tempfile::TempDir,
    handle: SessionHandle,
    speech: mpsc::UnboundedReceiver<tandem_speech::Utterance>,
    conn: BufReader<TcpStream>,
    addr: String,
    cookie: String,
    next: usize,
}

fn table(rt: &tokio::runtime::Runtime) -> Table {
    let dir = tempfile::tempdir().expect("temp dir");
    let (tx, speech) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(1024);
    let _g = rt.enter();
    let mut out = Outputs::new(tx, None, notices);
    let feeds = [Color::White, Color::Black].map(|side| {
        let (tx, feed) = seat_feed();
        out.seats.push(support::seat(side, tx, None));
        feed
    });
    let start = AnyPosition::Draughts(Position::start(Variant::International));
    let setup = support::setup(start, Blind::White, "en");
    let session = Session::start(&setup, &dir.path().join("g.jsonl"), out).expect("session");
    let (handle, _task) = session.spawn();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let addr = listener.local_addr().expect("address").to_string();
    listener.set_nonblocking(true).expect("nonblocking");
    let pairing = Arc::new(Pairing::new(format!("http://{addr}/")));
    let code = pairing.pair(Color::White).expect("code").code;
    let from = std::net::Ipv4Addr::LOCALHOST.into();
    let (_, token) = rt
        .block_on(pairing.redeem_from(from, &code))
        .expect("paired");
    let app = App::new(pairing, handle.clone(), vec![addr.clone()], feeds);
    let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
    rt.spawn(tandem::devices::serve::serve(listener, router(app), None));
    let conn = BufReader::new(TcpStream::connect(&addr).expect("connect"));
    conn.get_ref().set_nodelay(true).expect("nodelay");
    let mut t = Table {
        _dir: dir,
        handle,
        speech,
        conn,
        addr,
        cookie: format!("tandem_seat={token}"),
        next: 0,
    };
    // "White to move."
    t.speech.blocking_recv().expect("the start");
    t
}

/// Sends the request on the kept-alive connection; returns the body.
fn post(t: &mut Table, path: &str, body: &str) -> String {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        t.addr,
        t.cookie,
        body.len()
    );
    t.conn.get_mut().write_all(req.as_bytes()).expect("request");
    let mut len = 0usize;
    loop {
        let mut line = String::new();
        t.conn.read_line(&mut line).expect("response");
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
            len = v.trim().parse().expect("length");
        }
    }
    let mut b = vec![0u8; len];
    t.conn.read_exact(&mut b).expect("body");
    String::from_utf8_lossy(&b).into_owned()
}

/// White's move from the device: (to the announcement at the table, to the answer).
fn tap(t: &mut Table, rt: &tokio::runtime::Runtime, moves: &[String]) -> (Duration, Duration) {
    if t.next + 1 >= moves.len() {
        *t = table(rt);
    }
    let body = format!("{{\"move\": \"{}\"}}", moves[t.next]);
    let t0 = Instant::now();
    let answer = post(t, "/api/move", &body);
    let answered = t0.elapsed();
    assert!(answer.contains("\"ok\":true"), "{answer}");
    // Queued before the answer was sent: the first utterance is the move's.
    t.speech
        .try_recv()
        .expect("the move announced at the table");
    let announced = answered;
    while t.speech.try_recv().is_ok() {}
    // Black's reply at the table (not timed).
    let h = t.handle.clone();
    let m = moves[t.next + 1].clone();
    let r = rt
        .block_on(h.request(Cmd::Move(m), Source::Typed))
        .expect("black's move");
    assert!(r.ok, "{r:?}");
    while t.speech.try_recv().is_ok() {}
    t.next += 2;
    (announced, answered)
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let moves = support::draughts_moves();
    let mut t = table(&rt);
    let mut v = Vec::new();
    for _ in 0..500 {
        v.push(tap(&mut t, &rt, &moves).1);
    }
    support::print_pcts(
        "device tap to the move announced at the table (and answered)",
        &mut v,
    );
    c.bench_function("device: tap to the move announced", |b| {
        b.iter(|| tap(&mut t, &rt, &moves).0)
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
