//! The desk beyond loopback (`tandem hall --listen 0.0.0.0:PORT`, reached
//! here through 127.0.0.1 only): TLS only, with the certificate it made at
//! its first start and whose fingerprint it printed (pinned by the test);
//! every arbiter route refused without a session; the session cookie
//! `Secure; HttpOnly; SameSite=Strict`; a session ended by `POST /logout`
//! (its live stream too) and by the idle time; one wait after a wrong
//! secret for the whole desk, whatever address guesses; a short secret
//! refused at start.

mod hall_common;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use std::time::Duration;
use tandem_testkit::Killed;

use hall_common::{connect_from, desk_args, free_port, wait_for, Broker, DEADLINE, EVENT, SECRET};
use sha2::{Digest, Sha256};
use support::tls::{header, https, https_on, pinned_config, served_certificate, status_of};
use support::TANDEM;

/// A `tandem hall` serving its desk over TLS, killed when dropped.
struct TlsDesk {
    _child: Killed,
    port: u16,
    data: PathBuf,
    /// What the desk printed at start: `certificate SHA-256 …`.
    printed: String,
    /// The certificate it serves (DER), which every request is pinned to.
    der: Vec<u8>,
}

/// `tandem hall --listen IP:PORT --data DIR/desk …` with the tests' secret,
/// awaited until it serves TLS; `env` for the desk.
fn tls_desk(
    dir: &Path,
    broker: &Broker,
    ip: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> TlsDesk {
    let data = dir.join("desk");
    // A free port can be taken by another test between our look and the
    // desk's bind: then the desk stops at once ("cannot listen"), and it is
    // started again on another port.
    let mut tries = 0;
    let (child, port, printed) = loop {
        tries += 1;
        let port = free_port();
        let stderr = dir.join(format!("desk-stderr-{port}"));
        let mut cmd = Command::new(TANDEM);
        cmd.envs(env.iter().copied());
        // Killed however this ends, a failed assertion included.
        let mut child = Killed(
            desk_args(&mut cmd, dir, broker, &format!("{ip}:{port}"))
                .args(extra)
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(&stderr).unwrap())
                .spawn()
                .expect("start tandem hall"),
        );
        let printed = wait_for("the desk's certificate printed at start", || {
            let text = std::fs::read_to_string(&stderr).map_err(|e| e.to_string())?;
            // The desk says how it serves as soon as it does: plain HTTP
            // fails here at once, not after the wait for a certificate.
            if let Some(desk) = text.split(", desk ").nth(1) {
                assert!(
                    desk.starts_with("https://"),
                    "the desk serves without TLS at {ip}: {text}"
                );
            }
            if let Some(fp) = text
                .split("certificate SHA-256 ")
                .nth(1)
                .and_then(|rest| rest.split(')').next())
            {
                return Ok(Some(fp.to_owned()));
            }
            match child.0.try_wait() {
                Ok(Some(_)) if text.contains("cannot listen") && tries < 3 => Ok(None),
                Ok(Some(st)) => panic!("the desk stopped ({st}): {text}"),
                _ => Err(text),
            }
        });
        if let Some(printed) = printed {
            break (child, port, printed);
        }
    };
    let mut desk = TlsDesk {
        _child: child,
        port,
        data,
        printed,
        der: Vec::new(),
    };
    desk.der = wait_for("the desk's TLS", || {
        served_certificate(port).ok_or_else(|| "no certificate shown".to_owned())
    });
    wait_for("the login page over TLS", || {
        let (st, raw) = desk.request("GET", "/login", None, None);
        if st == 200 {
            Ok(())
        } else {
            Err(raw)
        }
    });
    desk
}

impl TlsDesk {
    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// One request over TLS pinned to the desk's certificate.
    fn request(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        form: Option<&str>,
    ) -> (u16, String) {
        https(self.port, &self.der, &self.raw(method, path, cookie, form))
    }

    fn raw(&self, method: &str, path: &str, cookie: Option<&str>, form: Option<&str>) -> String {
        let mut r = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nx-tandem-desk: 1\r\n",
            self.host()
        );
        if let Some(c) = cookie {
            r.push_str(&format!("Cookie: {c}\r\n"));
        }
        let body = form.unwrap_or_default();
        if form.is_some() || method == "POST" {
            r.push_str(&format!(
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        r.push_str("\r\n");
        r.push_str(body);
        r
    }

    /// `POST /login` with `secret`: the status and the raw answer.
    fn login(&self, secret: &str) -> (u16, String) {
        self.request("POST", "/login", None, Some(&format!("secret={secret}")))
    }

    /// Logs in with the tests' secret: the cookie (`NAME=VALUE`) and its whole `Set-Cookie`.
    fn session(&self) -> (String, String) {
        let (st, raw) = self.login(SECRET);
        assert_eq!(st, 303, "{raw}");
        let set = header(&raw, "set-cookie")
            .expect("a session cookie")
            .to_owned();
        (set.split(';').next().unwrap().to_owned(), set)
    }
}

/// SHA-256 of `der` as the desk prints it: `AB:CD:…`.
fn sha256_colons(der: &[u8]) -> String {
    Sha256::digest(der)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// Every route of the arbiter's desk but `/login` and its style sheet,
/// with the answer each gives without a session.
const ROUTES: &[(&str, &str, u16)] = &[
    ("GET", "/", 303),
    ("GET", "/tables/1", 303),
    ("GET", "/hall.js", 401),
    ("GET", "/api/tables", 401),
    ("GET", "/api/view", 401),
    ("GET", "/events", 401),
    ("GET", "/api/stats", 401),
    ("GET", "/api/tables/1/journal", 401),
    ("GET", "/api/tables/1/detail", 401),
    ("GET", "/api/tables/1/game", 401),
    ("GET", "/api/round.pdn", 401),
    ("GET", "/api/round.pgn", 401),
    ("GET", "/api/results.csv", 401),
    ("POST", "/api/command", 401),
    ("POST", "/api/public", 401),
    ("POST", "/api/tables/1/acknowledge", 401),
    ("POST", "/api/tables/1/reconcile", 401),
    ("POST", "/logout", 401),
];

/// Beyond loopback the desk speaks TLS only, with the certificate it made
/// at its first start (kept private in its data folder, the same at the
/// next start) and whose SHA-256 it printed; plain HTTP gets no page; no
/// route but the login answers without a session.
#[test]
fn beyond_loopback_the_desk_speaks_only_tls_with_the_certificate_it_printed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = tls_desk(dir.path(), &broker, "0.0.0.0", &[], &[]);
    // The fingerprint printed is the SHA-256 of the certificate served.
    assert_eq!(desk.printed, sha256_colons(&desk.der));
    // Made at first start, kept in the data folder, the key private.
    let tls = desk.data.join("tls");
    let pem = std::fs::read(tls.join("cert.pem")).unwrap();
    let kept = rustls_pemfile::certs(&mut &pem[..])
        .next()
        .unwrap()
        .unwrap()
        .to_vec();
    assert_eq!(kept, desk.der);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&tls.join("key.pem")), 0o600);
    assert_eq!(mode(&tls), 0o700);
    // The login page shows the fingerprint, for the arbiter to compare.
    let (st, page) = desk.request("GET", "/login", None, None);
    assert_eq!(st, 200);
    assert!(page.contains(&desk.printed), "{page}");
    // Plain HTTP to the TLS port: no page, and told to use https://.
    let plain = hall_common::connect_from("127.0.0.1", &desk.host()).unwrap();
    let answer = plain_request(plain, &desk.raw("GET", "/", None, None));
    assert!(!answer.contains("<html"), "{answer}");
    assert!(answer.is_empty() || answer.contains("https://"), "{answer}");
    assert_ne!(status_of(&answer), 200, "{answer}");
    assert_ne!(status_of(&answer), 303, "{answer}");
    // Every route of the desk refused without a session (the pages sent to the login).
    for &(method, path, want) in ROUTES {
        let (st, raw) = desk.request(method, path, None, None);
        assert_eq!(st, want, "{method} {path}: {raw}");
        if want == 303 {
            assert_eq!(header(&raw, "location"), Some("/login"), "{path}");
        }
    }
    // And with a made-up session.
    let (st, _) = desk.request("GET", "/api/tables", Some("tandem_desk_session=00ff"), None);
    assert_eq!(st, 401);
    // The next start serves the same certificate.
    let printed = desk.printed.clone();
    drop(desk);
    let again = tls_desk(dir.path(), &broker, "0.0.0.0", &[], &[]);
    assert_eq!(again.printed, printed);
    assert_eq!(sha256_colons(&again.der), printed);
}

/// Sends `req` in plain HTTP on `s`: what came back (empty if the desk closed).
fn plain_request(mut s: std::net::TcpStream, req: &str) -> String {
    use std::io::{Read, Write};
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(req.as_bytes());
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The session cookie is `Secure; HttpOnly; SameSite=Strict`; the pages
/// have a logout button and the fingerprint; `POST /logout` ends the
/// session and its open live stream.
#[test]
fn a_session_is_a_secure_cookie_and_logout_ends_it_and_its_stream() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = tls_desk(dir.path(), &broker, "0.0.0.0", &[], &[]);
    let (cookie, set) = desk.session();
    for flag in ["; Secure", "; HttpOnly", "; SameSite=Strict"] {
        assert!(set.contains(flag), "{flag} in {set}");
    }
    let (st, page) = desk.request("GET", "/", Some(&cookie), None);
    assert_eq!(st, 200);
    assert!(
        page.contains("action=\"/logout\"") && page.contains(&desk.printed),
        "{page}"
    );
    assert_eq!(
        desk.request("GET", "/api/tables", Some(&cookie), None).0,
        200
    );
    // A live stream open with the session.
    let events = {
        use std::io::{Read, Write};
        let conn = rustls::ClientConnection::new(
            pinned_config(&desk.der),
            rustls::pki_types::ServerName::try_from("localhost").unwrap(),
        )
        .unwrap();
        let tcp = std::net::TcpStream::connect(("127.0.0.1", desk.port)).unwrap();
        tcp.set_read_timeout(Some(DEADLINE)).unwrap();
        let mut s = rustls::StreamOwned::new(conn, tcp);
        s.write_all(desk.raw("GET", "/events", Some(&cookie), None).as_bytes())
            .unwrap();
        let mut first = [0u8; 256];
        let n = s.read(&mut first).unwrap();
        assert!(
            String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&first[..n])
        );
        s
    };
    // Logged out: the cookie is forgotten by the browser and refused by the desk.
    let (st, raw) = desk.request("POST", "/logout", Some(&cookie), None);
    assert_eq!(st, 303, "{raw}");
    assert_eq!(header(&raw, "location"), Some("/login"));
    assert!(
        header(&raw, "set-cookie").unwrap().contains("Max-Age=0"),
        "{raw}"
    );
    assert_eq!(
        desk.request("GET", "/api/tables", Some(&cookie), None).0,
        401
    );
    let (st, raw) = desk.request("GET", "/", Some(&cookie), None);
    assert_eq!((st, header(&raw, "location")), (303, Some("/login")));
    // The stream open before ends (it would send a keep-alive every 15 s for ever).
    let mut s = events;
    s.sock
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    wait_for("the end of the logged-out session's stream", || {
        let mut b = [0u8; 4096];
        match std::io::Read::read(&mut s, &mut b) {
            Ok(0) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(()),
            Ok(n) => Err(format!("{n} bytes more")),
            Err(e) => Err(e.to_string()),
        }
    });
}

/// A session unused for `--session-idle` is refused.
#[test]
fn a_session_unused_for_the_idle_time_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let idle = ["--session-idle", "2s"];
    let desk = tls_desk(dir.path(), &broker, "0.0.0.0", &idle, &[]);
    let (cookie, _) = desk.session();
    std::thread::sleep(Duration::from_millis(2500));
    let (st, raw) = desk.request("GET", "/api/tables", Some(&cookie), None);
    assert_eq!(st, 401, "{raw}");
    // A new login works.
    let (again, _) = desk.session();
    assert_ne!(again, cookie);
}

/// One wait for the whole desk after a wrong secret: of a hundred wrong
/// guesses at once from ten addresses, one is looked at; the others, and
/// then the right secret from yet another address, are refused unread
/// (`429`, `Retry-After`) while the desk waits.
#[test]
fn wrong_secrets_make_the_whole_desk_wait() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    // A wait far longer than the test: nothing in it depends on its speed.
    let wait = [("TANDEM_HALL_LOGIN_WAIT_MS", "600000")];
    let desk = tls_desk(dir.path(), &broker, "0.0.0.0", &[], &wait);
    let guesses: Vec<_> = (0..100)
        .map(|i| {
            let from = format!("127.0.0.{}", 2 + i % 10);
            let (host, der) = (desk.host(), desk.der.clone());
            let req = desk.raw(
                "POST",
                "/login",
                None,
                Some(&format!("secret=wrong-guess-number-{i:04}")),
            );
            std::thread::spawn(move || {
                let tcp = connect_from(&from, &host).unwrap();
                let (st, raw) = https_on(tcp, &der, &req);
                (st, header(&raw, "retry-after").map(str::to_owned))
            })
        })
        .collect();
    let answers: Vec<(u16, Option<String>)> =
        guesses.into_iter().map(|g| g.join().unwrap()).collect();
    let count = |s: u16| answers.iter().filter(|a| a.0 == s).count();
    assert_eq!(
        (count(401), count(429)),
        (1, 99),
        "one guess looked at, the others refused: {answers:?}"
    );
    assert!(answers.iter().all(|a| a.1.is_some()), "{answers:?}");
    // The right secret, from an address that never guessed: not looked at either.
    let tcp = connect_from("127.0.0.20", &desk.host()).unwrap();
    let (st, raw) = https_on(
        tcp,
        &desk.der,
        &desk.raw("POST", "/login", None, Some(&format!("secret={SECRET}"))),
    );
    assert_eq!(st, 429, "{raw}");
    assert!(header(&raw, "set-cookie").is_none());
    let wait: u64 = header(&raw, "retry-after").unwrap().parse().unwrap();
    assert!(wait > 60 && wait <= 600, "{wait}");
}

/// A certificate given (`--tls-cert`, `--tls-key`) is the one served, on a
/// loopback `--listen` too; the desk prints its fingerprint.
#[test]
fn a_certificate_given_is_served_and_printed() {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let made = rcgen::generate_simple_self_signed(vec!["desk.hall".to_owned()]).unwrap();
    let (cert, key) = (dir.path().join("desk.pem"), dir.path().join("desk.key"));
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
    let desk = tls_desk(
        dir.path(),
        &broker,
        "127.0.0.1",
        &[
            "--login",
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(desk.der, made.cert.der().to_vec());
    assert_eq!(desk.printed, sha256_colons(&desk.der));
    assert!(!desk.data.join("tls").exists(), "none made");
}

/// A secret shorter than 16 characters stops the desk's start when it
/// needs a login (beyond loopback, or `--login`), naming the file.
#[test]
fn a_short_secret_stops_a_desk_that_needs_a_login() {
    let dir = tempfile::tempdir().unwrap();
    let short = dir.path().join("short-secret");
    std::fs::write(&short, "fifteen-chars!!\n").unwrap();
    for listen in ["0.0.0.0", "127.0.0.1"] {
        let listen = format!("{listen}:{}", free_port());
        let mut child = Killed(
            Command::new(TANDEM)
                .args(["hall", "--broker", "mqtt://desk:deskpw@127.0.0.1:9"])
                .args(["--event", EVENT, "--listen", &listen, "--login"])
                .arg("--data")
                .arg(dir.path().join("desk"))
                .arg("--arbiter-secret-file")
                .arg(&short)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
        let status = wait_for("the desk stops", || {
            child
                .0
                .try_wait()
                .map_err(|e| e.to_string())?
                .ok_or_else(|| "still running".to_owned())
        });
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.0.stderr.take().unwrap(), &mut err).unwrap();
        assert!(!status.success(), "{err}");
        assert!(
            err.contains("short-secret") && err.contains("15 characters") && err.contains("16"),
            "{err}"
        );
    }
}

/// Base64 of the SHA-256 of the certificate's public key (Chromium's
/// `--ignore-certificate-errors-spki-list`), with openssl.
fn spki_pin(cert: &Path) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg(
            "openssl x509 -in \"$0\" -pubkey -noout | openssl pkey -pubin -outform der \
             | openssl dgst -sha256 -binary | openssl base64 -A",
        )
        .arg(cert)
        .output()
        .expect("openssl");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// In real Chromium trusting the desk's certificate by its key alone (as
/// an arbiter who compared the fingerprint): the desk's address leads to
/// the login, which shows the fingerprint; the secret leads to the live
/// desk, whose cookie no script can read; **Log out** at the foot of the
/// page leads back to the login, and the old session gets nothing. Both
/// pages pass axe-core.
#[test]
fn the_arbiter_logs_in_and_out_in_chromium_over_tls() {
    use support::browser::Browser;
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), 1);
    let desk = tls_desk(dir.path(), &broker, "0.0.0.0", &[], &[]);
    let pin = spki_pin(&desk.data.join("tls").join("cert.pem"));
    let b = Browser::start_with(
        "1280,1000",
        &[&format!("--ignore-certificate-errors-spki-list={pin}")],
    );
    b.go(&format!("https://{}/", desk.host()));
    b.wait_js(
        "the login page",
        "return location.pathname === '/login' && !!document.getElementById('secret');",
    );
    let text = b.js("return document.body.innerText;");
    assert!(text.as_str().unwrap().contains(&desk.printed), "{text}");
    if let Some(v) = b.axe_violations() {
        assert!(v.is_empty(), "the login page: {v:?}");
    }
    b.js(&format!(
        "document.getElementById('secret').value = {SECRET:?}; \
         document.querySelector('form').submit(); return true;"
    ));
    b.wait_js(
        "the live desk",
        "return document.body && document.body.dataset.page === 'desk' \
         && document.getElementById('status').textContent.includes('Live.');",
    );
    assert_eq!(b.js("return document.cookie;"), "", "HttpOnly");
    let foot = b.js("return document.querySelector('footer.session').innerText;");
    assert!(foot.as_str().unwrap().contains(&desk.printed), "{foot}");
    if let Some(v) = b.axe_violations() {
        assert!(v.is_empty(), "the desk's page: {v:?}");
    }
    // The page's own actions (a fetch with the session) are let in.
    let shown = b.js(
        "return fetch('/api/public', {method: 'POST', headers: {'x-tandem-desk': '1', \
         'content-type': 'application/json'}, body: JSON.stringify({table: null, on: true})}) \
         .then((r) => r.status);",
    );
    assert_eq!(shown, 200);
    b.js("document.querySelector('footer.session button').click(); return true;");
    b.wait_js(
        "back at the login",
        "return location.pathname === '/login' && !!document.getElementById('secret');",
    );
    let status = b.js("return fetch('/api/tables').then((r) => r.status);");
    assert_eq!(status, 401);
}
