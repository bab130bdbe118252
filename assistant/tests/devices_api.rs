//! A seat on the player's own device (issue 33), through the real daemon:
//! `tandem play --seats 127.0.0.1:PORT`, `tandem ctl pair SIDE --json`,
//! and the exact API the pages use, over real HTTP: every route but the
//! pairing page and `/api/pair` answers 401 to an unpaired browser; a wrong
//! code is refused, and ten lock pairing until a new code; a paired device
//! plays for its side only, hears its own answers on `/events`, is
//! journaled with its seat; a request for another `Host` or from another
//! `Origin` gets nothing; idle sockets from another address do not lock a
//! paired device out; unpairing ends it.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::devices::{code as pair, http, pair_tls, Answer, Table};
use support::tls::https;
use support::{ctl, journal_events};

/// `POST path` with the JSON `body` and `headers`, from 127.0.0.1.
fn post(addr: &str, path: &str, headers: &[(&str, &str)], body: Value) -> Answer {
    http(addr, "POST", path, headers, Some(&body))
}

/// What a screen reader says for the focused square: its content without
/// the parts hidden from it.
const HEARD: &str = "return [...document.activeElement.children].filter(n => n.getAttribute('aria-hidden') !== 'true').map(n => n.textContent).join('');";

#[test]
fn a_paired_device_is_its_sides_seat_and_nothing_else_gets_in() {
    let t = Table::start(&[]);
    let (addr, socket, journal) = (t.addr.clone(), t.socket.clone(), t.journal.clone());
    // Unpaired: 401 everywhere but the pairing page and /api/pair.
    for (m, p) in [
        ("GET", "/api/state"),
        ("POST", "/api/move"),
        ("POST", "/api/command"),
        ("GET", "/events"),
        ("GET", "/seat"),
    ] {
        let st = http(&addr, m, p, &[], Some(&json!({"move": "32-28"}))).status;
        assert_eq!(st, 401, "{m} {p}");
    }
    // Another Host (a name rebound to the table) or another site's page.
    assert_eq!(
        http(&addr, "GET", "/", &[("Host", "evil.example")], None).status,
        403
    );
    let origin = [("Origin", "http://evil.example")];
    let st = post(&addr, "/api/pair", &origin, json!({"code": "123456"})).status;
    assert_eq!(st, 403);

    // The exact contract of `tandem ctl pair SIDE --json`.
    let p = pair(&socket, "white");
    let code = p["code"].as_str().unwrap().to_owned();
    assert!(
        code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()),
        "{p}"
    );
    assert_eq!(p["url"], format!("http://{addr}/"));
    assert_eq!(p["expires_ms"], 120_000);
    assert_eq!(p.as_object().unwrap().len(), 3, "{p}");
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let st = post(&addr, "/api/pair", &[], json!({ "code": wrong })).status;
    assert_eq!(st, 403);
    let r = post(&addr, "/api/pair", &[], json!({ "code": code }));
    assert_eq!(r.status, 200, "{}", r.body);
    let cookie = r.header("set-cookie").unwrap().to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let token = cookie.split(';').next().unwrap().to_owned();
    assert_eq!(
        token.split('=').nth(1).unwrap().len(),
        32,
        "128 random bits"
    );
    let me = [("Cookie", token.as_str())];

    // The state, with the seat.
    let r = http(&addr, "GET", "/api/state", &me, None);
    assert_eq!(r.status, 200);
    let s = r.json();
    assert_eq!(
        (s["seat"].as_str(), s["turn"].as_str()),
        (Some("white"), Some("white")),
        "{s}"
    );

    // The seat's live stream: what white hears.
    let mut events = TcpStream::connect(&addr).unwrap();
    events
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        events,
        "GET /events HTTP/1.1\r\nHost: {addr}\r\nCookie: {token}\r\n\r\n"
    )
    .unwrap();
    let mut events = BufReader::new(events);
    let mut line = String::new();
    events.read_line(&mut line).unwrap();
    assert!(line.contains("200"), "{line}");
    std::thread::sleep(Duration::from_millis(300));

    // A move from the device: white's, journaled with the seat.
    let r = post(&addr, "/api/move", &me, json!({"move": "32-28"}));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(r["ok"], true);
    assert_eq!(r["said"][0], "Thirty-two, twenty-eight.");
    // Not its turn: refused, to it.
    let r = post(&addr, "/api/move", &me, json!({"move": "19-23"}));
    assert!((400..500).contains(&r.status), "{} {}", r.status, r.body);
    let r = r.json();
    assert_eq!(r["ok"], false);
    assert_eq!(r["said"][0], "It is not your move.");
    // A typed command; never an arbiter's action.
    let r = post(&addr, "/api/command", &me, json!({"command": "clock"}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["said"][0]
        .as_str()
        .unwrap()
        .starts_with("White: used"));
    let st = post(&addr, "/api/command", &me, json!({"command": "takeback 1"})).status;
    assert!(
        (400..500).contains(&st),
        "an arbiter's action from a device: {st}"
    );
    assert_eq!(http(&addr, "GET", "/api/state", &me, None).json()["ply"], 1);
    // Black's move at the table reaches white's device too.
    assert!(ctl(&socket, &["move", "19-23"]).status.success());
    let mut said = Vec::new();
    let t0 = Instant::now();
    while !said
        .iter()
        .any(|s: &String| s.contains("Nineteen, twenty-three."))
    {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the stream said {said:?}"
        );
        let mut l = String::new();
        if events.read_line(&mut l).unwrap_or(0) == 0 {
            break;
        }
        if let Some(d) = l.strip_prefix("data: ") {
            said.push(d.trim().to_owned());
        }
    }
    assert!(
        said.iter().any(|s| s == "Thirty-two, twenty-eight."),
        "{said:?}"
    );
    assert!(
        said.iter().any(|s| s.starts_with("White: used")),
        "{said:?}"
    );
    let mv = journal_events(&journal, "move");
    assert_eq!(
        (mv[0]["seat"].as_str(), mv[0]["source"].as_str()),
        (Some("white"), Some("device"))
    );

    // Idle sockets from another address do not lock the device out.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let target: std::net::SocketAddr = addr.parse().unwrap();
    let idle: Vec<tokio::net::TcpStream> = rt.block_on(async {
        let mut v = Vec::new();
        for _ in 0..100 {
            let s = tokio::net::TcpSocket::new_v4().unwrap();
            s.bind("127.0.0.2:0".parse().unwrap()).unwrap();
            if let Ok(c) = s.connect(target).await {
                v.push(c);
            }
        }
        v
    });
    assert!(!idle.is_empty());
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(http(&addr, "GET", "/api/state", &me, None).status, 200);
    drop(idle);

    // Ten wrong codes lock pairing until a new code.
    let b = pair(&socket, "black");
    // In two rounds of five (a peer's connections are bounded: 8 at once).
    let base = b["code"].as_str().unwrap().parse::<u32>().unwrap();
    for round in 0..2u32 {
        let handles: Vec<_> = (0..5u32)
            .map(|i| {
                let addr = addr.clone();
                let c = format!("{:06}", (base + 1 + round * 5 + i) % 1_000_000);
                std::thread::spawn(move || {
                    post(&addr, "/api/pair", &[], json!({ "code": c })).status
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), 403);
        }
    }
    let r = post(&addr, "/api/pair", &[], json!({"code": b["code"]}));
    let body = r.body;
    assert_eq!(r.status, 403, "the right code after ten wrong ones: {body}");
    let b = pair(&socket, "black");
    let st = post(&addr, "/api/pair", &[], json!({"code": b["code"]})).status;
    assert_eq!(st, 200, "a new code pairs");

    // Unpaired by the operator: the device is nobody's seat.
    assert!(ctl(&socket, &["unpair", "white"]).status.success());
    assert_eq!(http(&addr, "GET", "/api/state", &me, None).status, 401);
}

/// Beyond loopback (`--seats 0.0.0.0:PORT`, reached through 127.0.0.1 here)
/// the pages are served over TLS with the table's own certificate, made at
/// first start with its key private; its fingerprint is said with the code;
/// plain HTTP gets nothing; the cookie is `Secure`; a name that is not the
/// table's is refused.
#[test]
fn beyond_loopback_the_pages_are_served_over_tls_with_the_tables_certificate() {
    use std::os::unix::fs::PermissionsExt;
    let state = tempfile::tempdir().unwrap();
    // Port 0: the table takes the port the OS gives it (no other process
    // can take it between a test's pick and the table's bind), and says
    // which with every pairing code's address.
    let t = Table::start_at(
        "0.0.0.0:0",
        &[("XDG_STATE_HOME", state.path().to_str().unwrap().to_owned())],
    );
    let socket = t.socket.clone();
    let url = pair(&socket, "white")["url"].as_str().unwrap().to_owned();
    let port = port_of(&url);
    assert!(url.starts_with("https://"), "{url}");
    let seats = state.path().join("tandem").join("seats");
    let pem = std::fs::read(seats.join("cert.pem")).expect("the certificate made at start");
    let der = rustls_pemfile::certs(&mut &pem[..])
        .next()
        .unwrap()
        .unwrap()
        .to_vec();
    let key_mode = std::fs::metadata(seats.join("key.pem"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(key_mode & 0o777, 0o600);
    let fp = tandem::devices::tls::fingerprint(&der);
    let get = |path: &str, host: &str| {
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
    };
    let here = format!("127.0.0.1:{port}");
    let t0 = Instant::now();
    while https(port, &der, &get("/", &here)).0 != 200 {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the pages never answered over TLS"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(https(port, &der, &get("/api/state", &here)).0, 401);
    assert_eq!(
        https(port, &der, &get("/", &format!("evil.example:{port}"))).0,
        403
    );
    // Plain HTTP to the TLS port: no page.
    let st = http(&here, "GET", "/", &[], None).status;
    assert_ne!(st, 200);
    // The code is said with the certificate's fingerprint; the cookie is Secure.
    let out = ctl(&socket, &["pair", "white"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("certificate SHA-256 {fp}")),
        "{said}"
    );
    let code = pair(&socket, "white")["code"].as_str().unwrap().to_owned();
    let (st, raw) = pair_tls(port, &der, &code);
    assert_eq!(st, 200, "{raw}");
    let cookie = raw
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap();
    assert!(
        cookie.contains("; Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
}

/// The seat's page in real Chromium at a phone's size: paired by its form,
/// every announcement the seat hears appended to the `role="log"` region
/// (read back from the accessibility tree), an error of its own input in
/// the `role="alert"`, and focus never moved by the page.
#[test]
fn the_seats_page_in_chromium_reads_every_announcement_into_its_log() {
    use support::browser::Browser;
    let t = Table::start(&[]);
    let (addr, socket) = (t.addr.clone(), t.socket.clone());
    let code = pair(&socket, "white")["code"].as_str().unwrap().to_owned();
    let b = Browser::start_sized("360,740");
    b.go(&format!("http://{addr}/"));
    b.wait_js(
        "the pairing form",
        "return !!document.getElementById('code');",
    );
    // axe-core finds nothing on the pairing page, at a desktop's and a phone's size.
    for (w, h) in [(1280, 900), (360, 740)] {
        b.resize(w, h);
        if let Some(v) = b.axe_violations() {
            assert!(v.is_empty(), "the pairing page at {w}x{h}: {v:#?}");
        }
    }
    b.js(&format!(
        "const c = document.getElementById('code'); c.focus(); c.value = '{code}'; \
         document.getElementById('pair').requestSubmit(); return true;"
    ));
    b.wait_js("the seat's page", "return location.pathname === '/seat';");
    b.wait_js(
        "the seat named",
        "return document.getElementById('title').textContent.includes('white') || null;",
    )
    .to_string();
    // The field has focus, as the player put it there.
    b.js("document.getElementById('line').focus(); return true;");
    // The table's move: white's seat hears it.
    assert!(ctl(&socket, &["move", "32-28"]).status.success());
    b.wait_js(
        "the move in the log",
        "return document.getElementById('log').textContent.includes('Thirty-two, twenty-eight.');",
    );
    // A command from the page, answered into the log.
    b.js("document.getElementById('line').value = 'clock'; \
         document.getElementById('command').requestSubmit(); return true;");
    b.wait_js(
        "the clock in the log",
        "return document.getElementById('log').textContent.includes('White: used');",
    );
    // Not white's turn: the refusal shown in the error box and heard once,
    // in the log (the table's words on the stream), nothing played.
    b.js("document.getElementById('line').value = '19-23'; \
         document.getElementById('command').requestSubmit(); return true;");
    b.wait_js(
        "the refusal shown",
        "return document.getElementById('error').textContent.includes('It is not your move.');",
    );
    b.wait_js(
        "the refusal in the log",
        "return document.getElementById('log').textContent.includes('It is not your move.');",
    );
    assert_eq!(
        b.js("return document.activeElement && document.activeElement.id;"),
        "line",
        "the page never moves focus"
    );
    // Each announcement once, in order.
    let log = b.js("return [...document.querySelectorAll('#log p')].map(p => p.textContent);");
    let texts: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for once in ["Thirty-two, twenty-eight.", "It is not your move."] {
        assert_eq!(texts.iter().filter(|t| **t == once).count(), 1, "{texts:?}");
    }
    // The board as a keyboard grid: one tab stop, arrows move, each square
    // read by its number and what stands on it; focus stays on its square
    // when the board changes.
    b.wait_js(
        "the board's squares",
        "return document.querySelectorAll('#board [role=gridcell]').length === 100;",
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#board [tabindex=\"0\"]').length;"),
        1,
        "one tab stop"
    );
    b.js("document.querySelector('#board [tabindex=\"0\"]').focus(); return true;");
    let key = |k: &str| {
        b.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "kb", "actions": [
                {"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]}]})),
        );
        b.js(HEARD)
    };
    assert_eq!(key("\u{E014}"), "1, black man", "ArrowRight");
    assert_eq!(key("\u{E015}"), "light square", "ArrowDown");
    assert_eq!(key("\u{E012}"), "6, black man", "ArrowLeft");
    assert_eq!(
        b.js("return document.activeElement.getAttribute('aria-braillelabel');"),
        "6b"
    );
    assert!(ctl(&socket, &["move", "19-23"]).status.success());
    b.wait_js(
        "square 23 taken",
        "return [...document.querySelectorAll('#board [role=gridcell]')].some(c => [...c.children].filter(n => n.getAttribute('aria-hidden') !== 'true').map(n => n.textContent).join('') === '23, black man');",
    );
    assert_eq!(b.js(HEARD), "6, black man", "focus stays on its square");
    // A move tapped on the board: the piece's square, then its landing
    // square (white must take: 28x19).
    let tap = |css: &str| b.click(css);
    tap("#board [data-id='28']");
    assert_eq!(
        b.js("return document.querySelector(\"#board [data-id='28']\").getAttribute('aria-selected');"),
        "true"
    );
    tap("#board [data-id='19']");
    b.wait_js(
        "the tapped capture in the log",
        "return document.getElementById('log').textContent.includes('Twenty-eight takes nineteen');",
    );
    b.wait_js(
        "the board after the capture",
        "const c = document.querySelector(\"#board [data-id='19']\"); \
         return c.textContent.startsWith('19, white man') && c.querySelector('.pc').textContent === ' w';",
    );
    // The page as a person sees it, kept as the test's artifact.
    let shots =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/device-artifacts");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("seat-phone.png"), b.screenshot()).unwrap();
    // axe-core finds nothing on the seat's page, with its log, alert and board.
    for (w, h) in [(1280, 900), (360, 740)] {
        b.resize(w, h);
        if let Some(v) = b.axe_violations() {
            assert!(v.is_empty(), "the seat's page at {w}x{h}: {v:#?}");
        }
    }
    // The accessibility tree: a log holding the announcements (the
    // refusals too); the error box's copy not read again (no alert).
    let tree = b.cdp("Accessibility.getFullAXTree", json!({}));
    let nodes = tree["nodes"].as_array().unwrap();
    let role = |r: &str| {
        nodes
            .iter()
            .any(|n| n["role"]["value"] == r && n["ignored"] != true)
    };
    assert!(role("log"), "no log in the accessibility tree");
    assert!(!role("alert"), "the refusal read twice: in an alert too");
    assert!(
        role("grid") && role("gridcell"),
        "no board grid in the accessibility tree"
    );
    assert!(
        nodes.iter().any(|n| n["name"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("Thirty-two, twenty-eight."))),
        "the announcement is not in the accessibility tree"
    );
}

#[test]
fn a_seat_asks_for_its_own_code_and_hears_it_alone_never_journaled() {
    let t = Table::start(&[]);
    let addr = t.addr.clone();
    // Black's seat cannot ask for white's code.
    let out = ctl(&t.socket, &["--seat", "black", "pair", "white"]);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("A seat pairs its own side only."),
        "{out:?}"
    );
    let out = ctl(&t.socket, &["--seat", "black", "pair", "black", "--json"]);
    assert!(out.status.success(), "{out:?}");
    // The exact contract, for a seat too.
    let pair: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(pair.as_object().unwrap().len(), 3, "{pair}");
    let code = pair["code"].as_str().unwrap();
    // Said to the seat, digit by digit; the address only on the screen.
    let out = ctl(&t.socket, &["--seat", "black", "pair", "black"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let code2: String = said.chars().filter(char::is_ascii_digit).collect();
    assert_ne!(code2, code, "a new code voids the last");
    let digits: Vec<String> = code2.chars().map(String::from).collect();
    assert_eq!(
        said.trim(),
        format!(
            "Pairing code for black: {}, good for two minutes. \
             The address and the QR code are on the table's screen.",
            digits.join(", ")
        )
    );
    let body = json!({ "code": code });
    assert_eq!(
        http(&addr, "POST", "/api/pair", &[], Some(&body)).status,
        403
    );
    let body = json!({ "code": code2 });
    assert_eq!(
        http(&addr, "POST", "/api/pair", &[], Some(&body)).status,
        200
    );
    // Journaled: said to black's seat alone, without its digits.
    let announced = journal_events(&t.journal, "announced");
    let mine: Vec<&Value> = announced
        .iter()
        .filter(|e| {
            e["text"]
                .as_str()
                .is_some_and(|s| s.starts_with("Pairing code for black"))
        })
        .collect();
    assert_eq!(mine.len(), 2, "{announced:?}");
    for e in mine {
        assert_eq!(e["to"], json!(["black"]));
        assert_eq!(e["kind"], "help");
        assert!(e["text"].as_str().unwrap().contains("(code not journaled)"));
    }
    let written = std::fs::read_to_string(&t.journal).unwrap();
    assert!(!written.contains(&digits.join(", ")));
    assert!(!written.contains(&format!("\"{code2}\"")));
}

/// Issue 33: a device that vanishes mid-move (its move's body half sent,
/// then the socket gone; its live stream left unread, then gone) costs the
/// table nothing: the table plays on, the half-sent move is not played,
/// and the same device coming back (a reloaded page: its cookie) is still
/// the seat and plays, journaled as the device's.
#[test]
fn a_device_that_vanishes_mid_move_leaves_the_table_playing() {
    let t = Table::start(&[]);
    let addr = t.addr.clone();
    let code = pair(&t.socket, "white")["code"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = post(&addr, "/api/pair", &[], json!({ "code": code }));
    assert_eq!(r.status, 200, "{}", r.body);
    let token = r
        .header("set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let me = [("Cookie", token.as_str())];
    // Its live stream, never read.
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: {addr}\r\nCookie: {token}\r\n\r\n"
    )
    .unwrap();
    // A move whose body never comes whole: the phone went into a tunnel.
    let mut half = TcpStream::connect(&addr).unwrap();
    write!(
        half,
        "POST /api/move HTTP/1.1\r\nHost: {addr}\r\nCookie: {token}\r\n\
         Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{{\"move\": \"32-"
    )
    .unwrap();
    half.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    drop(half);
    drop(stream);
    // The table plays on, from its own input.
    for m in ["32-28", "19-23"] {
        let out = ctl(&t.socket, &["move", m]);
        assert!(
            out.status.success(),
            "{m}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Nothing of the half-sent move was played: two plies, both the table's.
    let moves = journal_events(&t.journal, "move");
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(moves.iter().all(|m| m["source"] == "control"), "{moves:?}");
    // The page reloaded: the same cookie, no new pairing; it sees the game and plays.
    let r = http(&addr, "GET", "/api/state", &me, None);
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    assert_eq!(
        (s["ply"].as_u64(), s["seat"].as_str()),
        (Some(2), Some("white")),
        "{s}"
    );
    let r = post(&addr, "/api/move", &me, json!({"move": "28x19"}));
    assert_eq!(r.status, 200, "{}", r.body);
    let moves = journal_events(&t.journal, "move");
    let last = moves.last().unwrap();
    assert_eq!(
        (
            last["text"].as_str(),
            last["seat"].as_str(),
            last["source"].as_str()
        ),
        (Some("28x19"), Some("white"), Some("device")),
        "{last}"
    );
}

/// The first IPv4 address `ip` lists that is neither loopback nor link-local.
fn first_reachable_ipv4() -> Option<String> {
    let out = std::process::Command::new("ip")
        .args(["-o", "-4", "addr", "show"])
        .output()
        .expect("ip");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(3))
        .filter_map(|a| a.split('/').next())
        .find(|a| !a.starts_with("127.") && !a.starts_with("169.254."))
        .map(str::to_owned)
}

/// The port of the pages' address `url` (`https://HOST:PORT/`): the one the
/// table got when it asked for port 0, never 0.
fn port_of(url: &str) -> u16 {
    let port = url
        .trim_end_matches('/')
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in the pages' address {url}"));
    assert_ne!(port, 0, "{url}");
    port
}

/// `--seats 0.0.0.0:P` (issue 45) names an address of the table that other
/// machines reach (its first non-loopback one) where it prints the pages'
/// address and in the pairing code's address (the one the screen's QR code
/// carries), never `127.0.0.1`, which would send the phone to itself; in a
/// network namespace with loopback alone it says there is none and asks
/// for one (`--seats ADDR:P`), and still serves the machine itself.
#[test]
fn every_address_names_one_that_other_machines_reach_or_asks_for_one() {
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("stderr.txt");
    // Port 0: the OS's pick (no other process can take it first).
    let d = support::Play::in_dir(dir.path())
        .args(["--lang", "en", "--speech", "text", "--voice", "off"])
        .args(["--seats", "0.0.0.0:0"])
        .arg("--journal")
        .arg(dir.path().join("game.jsonl"))
        .state_home(&dir.path().join("state"))
        .stderr_file(err.clone())
        .start();
    let url = pair(&d.socket, "white")["url"]
        .as_str()
        .expect("the code's address")
        .to_owned();
    let printed = d.stderr_text();
    let port = port_of(&url);
    match first_reachable_ipv4() {
        Some(ip) => {
            let want = format!("https://{ip}:{port}/");
            assert_eq!(url, want);
            assert!(
                printed.contains(&format!("device seats at {want}")),
                "{printed}"
            );
        }
        None => assert!(
            printed.contains("no address other machines reach"),
            "{printed}"
        ),
    }
    drop(d);

    // A namespace of its own: loopback alone.
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("tandem.sock");
    let mut child = std::process::Command::new("unshare")
        .arg("-n")
        .arg(env!("CARGO_BIN_EXE_tandem"))
        .args(["play", "--headless", "--lang", "en", "--speech", "text"])
        .args([
            "--voice",
            "off",
            "--braille",
            "none",
            "--seats",
            "0.0.0.0:8443",
        ])
        .arg("--socket")
        .arg(&socket)
        .arg("--journal")
        .arg(dir.path().join("game.jsonl"))
        .env("XDG_CONFIG_HOME", dir.path().join("noconfig"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("TANDEM_LOG", "warn")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(dir.path().join("stderr.txt")).unwrap())
        .spawn()
        .expect("unshare -n tandem play");
    let t0 = Instant::now();
    while tandem::client::Client::connect(&socket).is_err() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{}",
            std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap()
        );
        assert!(t0.elapsed() < Duration::from_secs(20), "no socket");
        std::thread::sleep(Duration::from_millis(20));
    }
    let url = pair(&socket, "white")["url"].as_str().unwrap().to_owned();
    let printed = std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        printed.contains(
            "--seats 0.0.0.0:8443: this table has no address other machines reach (only \
             loopback), so a phone cannot open its pages; name the address they should use: \
             --seats ADDR:8443"
        ),
        "{printed}"
    );
    assert_eq!(url, "https://127.0.0.1:8443/");
}
