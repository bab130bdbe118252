//! The seat server (`tandem play --seats`) against a hostile peer on the
//! venue's network (issue 45), through the real daemon and real HTTP, the
//! other hosts played from other loopback addresses (127.0.0.2..): bodies
//! that never come neither keep a paired device out nor stay held beyond
//! their time; a stream's slot comes back when its client goes; wrong codes
//! from other hosts never keep the player from pairing with the code just
//! made; a code expires; a peer is locked at its tenth wrong code, not
//! before; the seat's pages and scripts go to paired devices only; a side's
//! device never hears the other side's stream; the pages say in their log
//! when they cannot reach the table, and when it is back (real Chromium).

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::devices::{
    connect_from, head, http, http_from, pair_from, pair_tls, read_answer, Table,
};

/// Polls `f` until it gives something, for `within` at most.
fn until<T>(what: &str, within: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let t0 = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(t0.elapsed() < within, "{what}: not within {within:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `POST /api/move` whose headers say 100 bytes of body and which sends
/// none, from `from`: the open connection.
fn slow_body(from: &str, addr: &str, cookie: Option<&str>) -> Option<TcpStream> {
    let mut s = connect_from(from, addr).ok()?;
    let cookie: Vec<(&str, &str)> = cookie.map(|c| ("Cookie", c)).into_iter().collect();
    s.write_all(head(addr, "POST", "/api/move", &cookie, 100).as_bytes())
        .ok()?;
    Some(s)
}

/// 64 POSTs whose body never comes, 8 from each of 8 other addresses (each
/// address's share, and every connection of the pool), do not keep the
/// paired device from being answered: the connections kept for paired
/// devices serve it; a browser without a pairing is told the server is full.
#[test]
fn bodies_that_never_come_do_not_keep_the_paired_device_out() {
    let t = Table::start(&[]);
    let me = t.paired("white");
    let held: Vec<TcpStream> = (2..10)
        .flat_map(|host| {
            let from = format!("127.0.0.{host}");
            let addr = t.addr.clone();
            (0..8).filter_map(move |_| slow_body(&from, &addr, None))
        })
        .collect();
    assert_eq!(held.len(), 64);
    std::thread::sleep(Duration::from_millis(300));
    let cookie = [("Cookie", me.as_str())];
    let st = http(&t.addr, "GET", "/api/state", &cookie, None);
    assert_eq!(st.status, 200, "the paired device's state: {st:?}");
    assert_eq!(st.json()["seat"], "white");
    let mv = http(
        &t.addr,
        "POST",
        "/api/move",
        &cookie,
        Some(&json!({"move": "32-28"})),
    );
    assert_eq!(mv.status, 200, "the paired device's move: {mv:?}");
    let stranger = http(&t.addr, "GET", "/", &[], None);
    assert_ne!(stranger.status, 200, "{stranger:?}");
    drop(held);
}

/// Beyond loopback (`--seats 0.0.0.0:PORT`, over TLS, reached through
/// 127.0.0.1 here): 64 connections from 8 other addresses that never begin
/// their TLS handshake do not keep the paired device from being answered
/// over TLS.
#[test]
fn over_tls_handshakes_that_never_come_do_not_keep_the_paired_device_out() {
    use support::tls::{header, https, served_certificate};
    let state = tempfile::tempdir().unwrap();
    let env = [("XDG_STATE_HOME", state.path().to_str().unwrap().to_owned())];
    // Port 0: the OS's pick, said back by the table.
    let t = Table::start_at("0.0.0.0:0", &env);
    let port: u16 = t.addr.rsplit_once(':').unwrap().1.parse().unwrap();
    let der = until("the table's TLS", Duration::from_secs(20), || {
        served_certificate(port)
    });
    let here = format!("127.0.0.1:{port}");
    let code = t.code("white")["code"].as_str().unwrap().to_owned();
    let (st, raw) = pair_tls(port, &der, &code);
    assert_eq!(st, 200, "{raw}");
    let cookie = header(&raw, "set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let held: Vec<TcpStream> = (2..10)
        .flat_map(|host| {
            let (from, here) = (format!("127.0.0.{host}"), here.clone());
            (0..8).filter_map(move |_| connect_from(&from, &here).ok())
        })
        .collect();
    assert_eq!(held.len(), 64);
    std::thread::sleep(Duration::from_millis(300));
    let req = head(
        &here,
        "GET",
        "/api/state",
        &[("Cookie", cookie.as_str())],
        0,
    );
    let (st, raw) = https(port, &der, &req);
    assert_eq!(st, 200, "the paired device over TLS: {raw}");
    drop(held);
}

/// A request whose body has not come within the time for it (shortened to
/// 1.5 s here from its 10 s) is answered 408 and closed, and its address's
/// share is free again.
#[test]
fn a_body_that_never_comes_is_dropped_after_its_time() {
    let t = Table::start(&[("TANDEM_SEATS_BODY_TIMEOUT_MS", "1500".to_owned())]);
    let me = t.paired("white");
    let mut held: Vec<TcpStream> = (0..8)
        .filter_map(|_| slow_body("127.0.0.2", &t.addr, Some(&me)))
        .collect();
    assert_eq!(held.len(), 8);
    for s in &mut held {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let a = read_answer(s);
        assert_eq!(a.status, 408, "a body that never came: {a:?}");
    }
    // The address's share is free again.
    let a = http_from("127.0.0.2", &t.addr, "GET", "/", &[], None);
    assert_eq!(a.status, 200, "{a:?}");
}

/// An open `/events` stream from 127.0.0.1 with `cookie`: the connection,
/// once its answer's status line came (its status).
fn stream(addr: &str, cookie: &str) -> (u16, TcpStream) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let req = format!("GET /events HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\n\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut first = [0u8; 12];
    let status = match s.read_exact(&mut first) {
        Ok(()) => String::from_utf8_lossy(&first[9..12]).parse().unwrap_or(0),
        Err(_) => 0,
    };
    (status, s)
}

/// A device's four streams closed by its client (the clock stopped: no
/// event is sent to notice it by) give their slots back: the page gets its
/// stream again, not 429.
#[test]
fn a_stream_closed_by_its_client_gives_its_slot_back() {
    let t = Table::start(&[]);
    let me = t.paired("white");
    let mut open = Vec::new();
    for i in 0..4 {
        let (st, s) = stream(&t.addr, &me);
        assert_eq!(st, 200, "stream {i}");
        open.push(s);
    }
    assert_eq!(stream(&t.addr, &me).0, 429, "four at once, no more");
    for s in &open {
        s.shutdown(std::net::Shutdown::Both).unwrap();
    }
    drop(open);
    let (_, s) = until("a slot given back", Duration::from_secs(20), || {
        let (st, s) = stream(&t.addr, &me);
        (st == 200).then_some((st, s))
    });
    drop(s);
}

/// Wrong codes sent without end from two other hosts, eight at once each,
/// never keep the player from pairing with the code just made (typed in 2
/// s), three codes in a row.
#[test]
fn wrong_codes_from_other_hosts_do_not_keep_the_player_from_pairing() {
    let t = Table::start(&[]);
    let stop = Arc::new(AtomicBool::new(false));
    let mut guessers = Vec::new();
    for from in ["127.0.0.2", "127.0.0.3"] {
        for k in 0..8 {
            let (addr, stop) = (t.addr.clone(), stop.clone());
            guessers.push(std::thread::spawn(move || {
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    // Never a code of six digits: a guess can never be right.
                    let _ = pair_from(&addr, from, &format!("x{k}-{i}"));
                    i += 1;
                }
            }));
        }
    }
    std::thread::sleep(Duration::from_secs(1));
    for n in 1..=3 {
        let code = t.code("white")["code"].as_str().unwrap().to_owned();
        // The time the player takes to type it, while the others go on.
        std::thread::sleep(Duration::from_secs(2));
        let r = t.pair_from("127.0.0.1", &code);
        assert_eq!(r.status, 200, "fresh code {n}: {r:?}");
        assert_eq!(r.json()["seat"], "white");
    }
    // The guessers stop after their request in flight (not waited for).
    stop.store(true, Ordering::Relaxed);
    drop(guessers);
}

/// docs/devices.md: a code is good for its life (shortened to 3 s here
/// from its 2 minutes), then refused.
#[test]
fn a_code_is_refused_once_its_life_is_over() {
    let t = Table::start(&[("TANDEM_SEATS_CODE_LIFE_MS", "3000".to_owned())]);
    let old = t.code("white");
    assert_eq!(old["expires_ms"], 3000);
    std::thread::sleep(Duration::from_millis(3500));
    let fresh = t.code("black")["code"].as_str().unwrap().to_owned();
    let r = t.pair_from("127.0.0.1", old["code"].as_str().unwrap());
    assert_eq!(r.status, 403, "an expired code: {r:?}");
    assert_eq!(r.json()["error"], "wrong or expired code");
    let r = t.pair_from("127.0.0.1", &fresh);
    assert_eq!(r.status, 200, "a fresh code: {r:?}");
}

/// Sends `n` wrong codes from `from`, five at once (within an address's
/// share of connections): their statuses and errors.
fn wrong_codes(t: &Table, from: &'static str, n: usize) -> Vec<(u16, Value)> {
    let mut out = Vec::new();
    for first in (0..n).step_by(5) {
        let hs: Vec<_> = (first..n.min(first + 5))
            .map(|i| {
                let addr = t.addr.clone();
                std::thread::spawn(move || {
                    let r = pair_from(&addr, from, &format!("wrong{i}"));
                    (r.status, r.json()["error"].clone())
                })
            })
            .collect();
        out.extend(hs.into_iter().map(|h| h.join().unwrap()));
    }
    out
}

/// docs/devices.md: after 10 wrong codes from one peer, its codes are
/// refused, the right one too, until a new code; after 9, not; another
/// peer's are not.
#[test]
fn a_peer_is_locked_at_its_tenth_wrong_code_and_no_other_is() {
    let t = Table::start(&[]);
    let code = t.code("white")["code"].as_str().unwrap().to_owned();
    let nine = wrong_codes(&t, "127.0.0.2", 9);
    assert!(nine.iter().all(|(st, _)| *st == 403), "{nine:?}");
    let r = t.pair_from("127.0.0.2", &code);
    assert_eq!(r.status, 200, "after nine wrong codes: {r:?}");

    let code = t.code("white")["code"].as_str().unwrap().to_owned();
    let ten = wrong_codes(&t, "127.0.0.2", 10);
    assert!(ten.iter().all(|(st, _)| *st == 403), "{ten:?}");
    let r = t.pair_from("127.0.0.2", &code);
    assert_eq!(r.status, 403, "after ten wrong codes: {r:?}");
    assert_eq!(
        r.json()["error"],
        "too many wrong codes: ask the table for a new one"
    );
    let r = t.pair_from("127.0.0.3", &code);
    assert_eq!(r.status, 200, "another host: {r:?}");
}

/// The seat's pages and scripts go to a paired device only.
#[test]
fn the_seats_pages_and_scripts_go_to_paired_devices_only() {
    let t = Table::start(&[]);
    let paths = ["/seat", "/seat.js", "/board", "/board.js", "/stream.js"];
    for p in paths {
        let r = http(&t.addr, "GET", p, &[], None);
        assert_eq!(r.status, 401, "{p} unpaired: {r:?}");
        let r = http(
            &t.addr,
            "GET",
            p,
            &[("Cookie", "tandem_seat=0123456789abcdef")],
            None,
        );
        assert_eq!(r.status, 401, "{p} with a made-up cookie: {r:?}");
    }
    let me = t.paired("white");
    for p in paths {
        let r = http(&t.addr, "GET", p, &[("Cookie", me.as_str())], None);
        assert_eq!(r.status, 200, "{p} paired: {r:?}");
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{p}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{p}");
    }
}

/// What a device's `/events` stream has carried so far, read on a thread.
struct Heard(Arc<Mutex<String>>);

impl Heard {
    fn open(addr: &str, cookie: &str) -> Heard {
        let (st, mut s) = stream(addr, cookie);
        assert_eq!(st, 200);
        let text = Arc::new(Mutex::new(String::new()));
        let into = text.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = s.read(&mut buf) {
                if n == 0 {
                    return;
                }
                into.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Heard(text)
    }

    fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }

    fn wait(&self, what: &str) -> String {
        until(what, Duration::from_secs(20), || {
            let t = self.text();
            t.contains(what).then_some(t)
        })
    }
}

/// White's device hears white's private answers and refusals; black's
/// device, reading its stream until white's move (said to both), never
/// heard them; and the other way round.
#[test]
fn a_sides_device_never_hears_the_other_sides_stream() {
    let t = Table::start(&[]);
    let (white, black) = (t.paired("white"), t.paired("black"));
    let (hw, hb) = (Heard::open(&t.addr, &white), Heard::open(&t.addr, &black));
    let post = |cookie: &str, path: &str, body: Value| {
        http(&t.addr, "POST", path, &[("Cookie", cookie)], Some(&body))
    };
    // White's own answer and refusal.
    let clock = post(&white, "/api/command", json!({"command": "clock"}));
    assert_eq!(clock.status, 200, "{clock:?}");
    let private = clock.json()["said"][0].as_str().unwrap().to_owned();
    let refusal = post(&white, "/api/move", json!({"move": "31-22"}));
    assert_eq!(refusal.status, 409, "{refusal:?}");
    let refused = refusal.json()["said"][0].as_str().unwrap().to_owned();
    // Black's refusal (not its turn).
    let theirs = post(&black, "/api/move", json!({"move": "19-23"}));
    assert_eq!(theirs.status, 409, "{theirs:?}");
    let black_refused = theirs.json()["said"][0].as_str().unwrap().to_owned();
    // A move said to both: each stream read up to it.
    let mv = post(&white, "/api/move", json!({"move": "32-28"}));
    assert_eq!(mv.status, 200, "{mv:?}");
    let move_said = "Thirty-two, twenty-eight.";
    let (w, b) = (hw.wait(move_said), hb.wait(move_said));
    assert!(
        w.contains(&private) && w.contains(&refused),
        "white's own: {w}"
    );
    assert!(b.contains(&black_refused), "black's own: {b}");
    assert!(
        !b.contains(&private),
        "black heard white's clock answer: {b}"
    );
    assert!(!b.contains(&refused), "black heard white's refusal: {b}");
    assert!(
        !w.contains(&black_refused),
        "white heard black's refusal: {w}"
    );
}

/// `buf` with every `from` put as `to`.
fn replaced(buf: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(buf.len());
    let mut i = 0;
    while i < buf.len() {
        if buf[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(buf[i]);
            i += 1;
        }
    }
    out
}

/// A relay between the browser and the table (the network between a phone
/// and the table, which the test can cut): the browser opens the relay's
/// address, whose name in what it sends (its `Host`, its `Origin`) is put
/// as the table's. Cut, it closes every connection, and each new one at once.
struct Relay {
    addr: String,
    cut: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn start(table: &str) -> Relay {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let cut = Arc::new(AtomicBool::new(false));
        let open = Arc::new(Mutex::new(Vec::<TcpStream>::new()));
        let (table, mine) = (table.to_owned(), addr.clone());
        let (cut2, open2) = (cut.clone(), open.clone());
        std::thread::spawn(move || {
            for browser in listener.incoming().map_while(Result::ok) {
                if cut2.load(Ordering::SeqCst) {
                    continue;
                }
                let Ok(up) = TcpStream::connect(&table) else {
                    continue;
                };
                open2
                    .lock()
                    .unwrap()
                    .extend([browser.try_clone().unwrap(), up.try_clone().unwrap()]);
                let (mut b_in, mut up_out) =
                    (browser.try_clone().unwrap(), up.try_clone().unwrap());
                let (from, to) = (mine.clone().into_bytes(), table.clone().into_bytes());
                std::thread::spawn(move || {
                    let mut buf = [0u8; 8192];
                    while let Ok(n @ 1..) = b_in.read(&mut buf) {
                        if up_out.write_all(&replaced(&buf[..n], &from, &to)).is_err() {
                            break;
                        }
                    }
                    let _ = up_out.shutdown(std::net::Shutdown::Both);
                });
                let (mut up_in, mut b_out) = (up, browser);
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut up_in, &mut b_out);
                    let _ = b_out.shutdown(std::net::Shutdown::Both);
                });
            }
        });
        Relay { addr, cut, open }
    }

    fn cut(&self, cut: bool) {
        self.cut.store(cut, Ordering::SeqCst);
        if cut {
            for s in self.open.lock().unwrap().drain(..) {
                let _ = s.shutdown(std::net::Shutdown::Both);
            }
        }
    }
}

/// The seat's page in real Chromium: when its stream breaks (the network
/// between the browser and the table cut), its log says it cannot reach the
/// table, once; when the network is back, that the table is back, and the
/// page hears the table again.
#[test]
fn the_seats_page_says_when_it_cannot_reach_the_table_and_when_it_is_back() {
    use support::browser::Browser;
    let t = Table::start(&[]);
    let relay = Relay::start(&t.addr);
    let code = t.code("white")["code"].as_str().unwrap().to_owned();
    let b = Browser::start_sized("360,740");
    b.go(&format!("http://{}/", relay.addr));
    b.wait_js(
        "the pairing form",
        "return !!document.getElementById('code');",
    );
    b.js(&format!(
        "document.getElementById('code').value = '{code}'; \
         document.getElementById('pair').requestSubmit(); return true;"
    ));
    b.wait_js("the seat's page", "return location.pathname === '/seat';");
    b.wait_js(
        "the seat named",
        "return document.getElementById('title').textContent.includes('white') || null;",
    );
    let log = "return document.getElementById('log').textContent";
    relay.cut(true);
    b.wait_js(
        "the log says the table cannot be reached",
        &format!("{log}.includes('The table cannot be reached: trying again.') || null;"),
    );
    // Two tries more (after 1 s and 2 s), still cut.
    std::thread::sleep(Duration::from_secs(3));
    relay.cut(false);
    b.wait_js(
        "the log says the table is back",
        &format!("{log}.includes('The table is back.') || null;"),
    );
    assert_eq!(
        b.js(&format!("{log}.split('cannot be reached').length - 1;")),
        1,
        "said once, not at every try"
    );
    assert!(support::ctl(&t.socket, &["move", "32-28"]).status.success());
    b.wait_js(
        "the table heard again",
        &format!("{log}.includes('Thirty-two, twenty-eight.') || null;"),
    );
}
