//! A table serving device seats (`tandem play --seats 127.0.0.1:0`) and
//! plain HTTP/1.1 to it from any loopback address (127.0.0.2.. play the
//! other hosts of a venue's network).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{ctl, Daemon};

/// A table serving device seats at `addr`, in its own folder (its socket,
/// its journal `game.jsonl`), killed when dropped.
pub struct Table {
    pub addr: String,
    pub socket: PathBuf,
    pub journal: PathBuf,
    _d: Daemon,
    _dir: tempfile::TempDir,
}

impl Table {
    /// `tandem play --seats 127.0.0.1:0` (text speech, no voice; the port
    /// the table got) with `env`, awaited until its pages answer.
    pub fn start(env: &[(&str, String)]) -> Table {
        let t = Table::start_at("127.0.0.1:0", env);
        let t0 = Instant::now();
        while http(&t.addr, "GET", "/", &[], None).status != 200 {
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "the pages never answered"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        t
    }

    /// `tandem play --seats ADDR` (text speech, no voice) with `env`, not
    /// awaited beyond its control socket.
    pub fn start_at(addr: &str, env: &[(&str, String)]) -> Table {
        Table::launch(addr, &[], env)
    }

    /// `tandem play --seats ADDR` (text speech, no voice, `--lang en` unless
    /// `args` name one) with `args` and `env`, not awaited beyond its
    /// control socket.
    ///
    /// With port 0 (`127.0.0.1:0`) the OS picks a free port as the table
    /// binds (no other process can take it between a pick and the bind) and
    /// [`Table::addr`] is the address the table says it got (its
    /// `device seats at URL` line on stderr; the stderr is shown when the
    /// test fails).
    pub fn launch(addr: &str, args: &[&str], env: &[(&str, String)]) -> Table {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("tandem.sock");
        let journal = dir.path().join("game.jsonl");
        let mut all = vec![];
        if !args.contains(&"--lang") {
            all.extend(["--lang", "en"]);
        }
        all.extend(["--speech", "text", "--voice", "off", "--seats", addr]);
        all.extend(["--journal", journal.to_str().unwrap()]);
        all.extend_from_slice(args);
        let mut play = super::Play::new(&socket).args(&all).envs(env);
        if addr.ends_with(":0") {
            play = play.stderr_file(dir.path().join("stderr.txt"));
        }
        let d = play.start();
        let addr = if addr.ends_with(":0") {
            said_address(&d)
        } else {
            addr.to_owned()
        };
        Table {
            addr,
            socket,
            journal,
            _d: d,
            _dir: dir,
        }
    }

    /// `tandem ctl pair SIDE --json`.
    pub fn code(&self, side: &str) -> Value {
        code(&self.socket, side)
    }

    /// A device paired to `side` from 127.0.0.1: its `Cookie` header.
    pub fn paired(&self, side: &str) -> String {
        let code = self.code(side)["code"].as_str().unwrap().to_owned();
        let r = self.pair_from("127.0.0.1", &code);
        assert_eq!(r.status, 200, "{}", r.body);
        let cookie = r.header("set-cookie").unwrap();
        cookie.split(';').next().unwrap().to_owned()
    }

    /// `POST /api/pair` with `code` from the loopback address `from`.
    pub fn pair_from(&self, from: &str, code: &str) -> Answer {
        pair_from(&self.addr, from, code)
    }
}

/// The seats' address (`HOST:PORT`) a table started with port 0 says it
/// got: its `device seats at http(s)://HOST:PORT/` line on stderr.
fn said_address(d: &Daemon) -> String {
    let t0 = Instant::now();
    loop {
        let text = d.stderr_text();
        let said = text.lines().find_map(|l| {
            let url = l.split("device seats at ").nth(1)?;
            let url = url.split([',', ' ']).next()?;
            let rest = url.split_once("://")?.1;
            Some(rest.trim_end_matches('/').to_owned())
        });
        if let Some(addr) = said {
            assert!(!addr.ends_with(":0"), "{text}");
            return addr;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the table never said its seats' address: {text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

impl Drop for Table {
    /// The table's stderr, when it went to a file and the test failed.
    fn drop(&mut self) {
        if std::thread::panicking() {
            if let Some(text) = self
                ._d
                .stderr
                .as_ref()
                .and_then(|p| std::fs::read_to_string(p).ok())
            {
                eprintln!("the table's stderr:\n{text}");
            }
        }
    }
}

/// `POST /api/pair` with `code` to `addr` from the loopback address `from`.
pub fn pair_from(addr: &str, from: &str, code: &str) -> Answer {
    let body = serde_json::json!({ "code": code });
    http_from(from, addr, "POST", "/api/pair", &[], Some(&body))
}

/// `tandem ctl pair SIDE --json` on `socket`.
pub fn code(socket: &Path, side: &str) -> Value {
    let out = ctl(socket, &["pair", side, "--json"]);
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `POST /api/pair` with `code` over TLS to 127.0.0.1:`port`, pinned to
/// the certificate `der`: the status and the raw answer.
pub fn pair_tls(port: u16, der: &[u8], code: &str) -> (u16, String) {
    let body = serde_json::json!({ "code": code }).to_string();
    let head = head(
        &format!("127.0.0.1:{port}"),
        "POST",
        "/api/pair",
        &[],
        body.len(),
    );
    super::tls::https(port, der, &format!("{head}{body}"))
}

/// An HTTP answer: its status (0: none, the connection closed), headers
/// (lower case names) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON object in the body (chunked or not).
    pub fn json(&self) -> Value {
        let b = &self.body;
        let start = b.find('{').unwrap_or(0);
        let end = b.rfind('}').map_or(b.len(), |e| e + 1);
        serde_json::from_str(&b[start..end]).unwrap_or(Value::Null)
    }
}

/// A TCP connection to `to` (`127.0.0.1:PORT`) from the local address
/// `from` (any of 127.0.0.0/8: another peer address on this machine).
pub fn connect_from(from: &str, to: &str) -> std::io::Result<TcpStream> {
    connect_from_with(from, to, None)
}

/// [`connect_from`] with the socket's receive buffer set to `recv` bytes and
/// small segments, before it connects (a client that reads nothing fills
/// its buffers soon).
pub fn connect_from_with(from: &str, to: &str, recv: Option<u32>) -> std::io::Result<TcpStream> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    let from: std::net::SocketAddr = format!("{from}:0").parse().expect("an address");
    let to: std::net::SocketAddr = to.parse().expect("an address");
    let s = rt.block_on(async {
        let sock = tokio::net::TcpSocket::new_v4()?;
        if let Some(bytes) = recv {
            sock.set_recv_buffer_size(bytes)?;
            // Loopback's segments are 64 KiB, and the sender's buffer grows
            // with them: small segments keep both ends' buffers small.
            let mss: libc::c_int = 536;
            // SAFETY: a valid socket and a c_int option of its size.
            let r = unsafe {
                libc::setsockopt(
                    std::os::fd::AsRawFd::as_raw_fd(&sock),
                    libc::IPPROTO_TCP,
                    libc::TCP_MAXSEG,
                    std::ptr::addr_of!(mss).cast(),
                    std::mem::size_of::<libc::c_int>() as libc::socklen_t,
                )
            };
            if r != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        sock.bind(from)?;
        sock.connect(to).await
    })?;
    let s = s.into_std()?;
    s.set_nonblocking(false)?;
    Ok(s)
}

/// The head of a request (`Host: addr` unless given, `Connection: close`).
pub fn head(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body_len: usize,
) -> String {
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if body_len > 0 {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {body_len}\r\n"
        ));
    }
    req.push_str("\r\n");
    req
}

/// Request headers: (name, value).
type Headers<'a> = &'a [(&'a str, &'a str)];

/// One request on a new connection from 127.0.0.1.
pub fn http(addr: &str, method: &str, path: &str, hs: Headers, body: Option<&Value>) -> Answer {
    http_from("127.0.0.1", addr, method, path, hs, body)
}

/// One request on a new connection from the loopback address `from`.
pub fn http_from(
    from: &str,
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Answer {
    let Ok(mut s) = connect_from(from, addr) else {
        return Answer {
            status: 0,
            headers: Vec::new(),
            body: String::new(),
        };
    };
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut req = head(addr, method, path, headers, body.len());
    req.push_str(&body);
    let _ = s.write_all(req.as_bytes());
    read_answer(&mut s)
}

/// What comes back on `s` until it closes (or its read timeout).
pub fn read_answer(s: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw);
    let (top, rest) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let mut lines = top.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: rest.to_owned(),
    }
}
