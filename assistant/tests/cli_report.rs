//! `tandem report` and `tandem play --rated` against the real binary (issue
//! 41; FIDE Laws 11.3.2.1): the report's fields (its hash is the binary's,
//! its commit the source's), the radios read from made-up sysfs trees
//! (`TANDEM_SYSFS`: a radio cannot be made here), the one-page PDF (its
//! hash read back as text and from its QR code), the rated refusals (exit
//! 2, naming the radio or `--seats`), the journal's `report` line shown by
//! `tandem journal verify` and `tandem arbiter report`, and a rated table
//! in a network namespace of its own whose open sockets, read from
//! `/proc`, are exactly the report's `listens` and `connects`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod support;

use support::cli::strs;
use support::{verify_ok, TANDEM};

/// A made-up sysfs: `wifi` (`Some(up)`: an interface `wlan0`), `bt`
/// (`Some(up)`: an adapter `hci0`, blocked when not up).
fn sysfs(dir: &Path, wifi: Option<bool>, bt: Option<bool>) -> std::path::PathBuf {
    let root = dir.join("sys");
    std::fs::create_dir_all(root.join("class/net/lo")).unwrap();
    std::fs::write(root.join("class/net/lo/operstate"), "unknown\n").unwrap();
    if let Some(up) = wifi {
        let w = root.join("class/net/wlan0");
        std::fs::create_dir_all(w.join("wireless")).unwrap();
        std::fs::write(w.join("operstate"), if up { "up\n" } else { "down\n" }).unwrap();
    }
    if let Some(up) = bt {
        let b = root.join("class/bluetooth/hci0/rfkill7");
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(b.join("state"), if up { "1\n" } else { "0\n" }).unwrap();
    }
    root
}

fn run(args: &[&str], dir: &Path, sys: &Path) -> Output {
    Command::new(TANDEM)
        .args(args)
        .env("TANDEM_SYSFS", sys)
        .env("XDG_CONFIG_HOME", dir.join("noconfig"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_DATA_HOME", dir.join("nodata"))
        .env("XDG_RUNTIME_DIR", dir.join("run"))
        .env_remove("SPEECHD_ADDRESS")
        .env_remove("BRLAPI_HOST")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The binary's SHA-256 by `sha256sum`, not by tandem.
fn sha256sum(path: &str) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    text(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

/// The commit the binary was built from: `TANDEM_COMMIT` when the build
/// had one, else git's HEAD of this source.
fn source_commit() -> String {
    if let Some(c) = option_env!("TANDEM_COMMIT").filter(|c| !c.is_empty()) {
        return c.to_owned();
    }
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match out {
        Ok(o) if o.status.success() => text(&o.stdout).trim().to_owned(),
        _ => "unknown".to_owned(),
    }
}

/// The options of a table that opens every kind of thing: a socket, the
/// device pages, the relay; no speech-dispatcher, no BRLTTY, no voice.
fn table_args<'a>(socket: &'a str, journal: &'a str, seats: &'a str) -> Vec<&'a str> {
    let mut v = QUIET.to_vec();
    v.extend([
        "--socket",
        socket,
        "--journal",
        journal,
        "--seats",
        seats,
        "--relay",
        "mqtt://127.0.0.1:1883",
        "--event",
        "Open",
        "--table",
        "7",
    ]);
    v
}

/// A table with no screen, no speech-dispatcher, no BRLTTY, no microphone.
const QUIET: [&str; 7] = [
    "--headless",
    "--speech",
    "text",
    "--braille",
    "none",
    "--voice",
    "off",
];

#[test]
fn the_json_report_is_the_real_binarys_and_what_play_would_open() {
    let dir = tempfile::tempdir().unwrap();
    let sys = sysfs(dir.path(), Some(true), Some(false));
    let socket = dir.path().join("t.sock");
    let journal = dir.path().join("games/g.jsonl");
    let (s, j) = (socket.to_str().unwrap(), journal.to_str().unwrap());
    let mut args = vec!["report", "--json", "--variant", "chess"];
    args.extend(table_args(s, j, "127.0.0.1:8123"));
    let out = run(&args, dir.path(), &sys);
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["commit"], source_commit());
    assert_eq!(v["binary_sha256"], sha256sum(TANDEM));
    assert_eq!(v["variant"], "chess");
    assert_eq!(v["rated"], false);
    assert_eq!(v["engine"], false);
    assert_eq!(
        v["inputs"],
        serde_json::json!(["keyboard", "control-socket", "device"])
    );
    let mut listens: Vec<&str> = strs(&v["listens"]);
    listens.sort_unstable();
    assert_eq!(listens, [s, "127.0.0.1:8123"]);
    assert_eq!(v["connects"], serde_json::json!(["127.0.0.1:1883"]));
    assert_eq!(
        v["radios"],
        serde_json::json!([
            {"name": "hci0", "kind": "bluetooth", "up": false},
            {"name": "wlan0", "kind": "wifi", "up": true},
        ])
    );
    assert_eq!(v["journal_dir"], dir.path().join("games").to_str().unwrap());
    let assistance = v["assistance"].as_array().unwrap();
    assert!(assistance
        .iter()
        .any(|a| a.as_str().unwrap().contains("clock")));
    // Speech through speech-dispatcher and a BRLTTY display are connections too.
    let out = run(
        &[
            "report",
            "--json",
            "--socket",
            s,
            "--speech",
            "speechd",
            "--braille",
            "brlapi",
            "--brlapi-host",
            ":3",
        ],
        dir.path(),
        &sys,
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let connects: Vec<&str> = strs(&v["connects"]);
    assert!(
        connects.iter().any(|c| c.ends_with("speechd.sock")),
        "{connects:?}"
    );
    assert!(connects.contains(&"brlapi::3"), "{connects:?}");
    assert!(v["inputs"].as_array().unwrap().contains(&"braille".into()));
}

/// A page of a PDF as a grey picture (`pdftoppm -gray`, a PGM): width,
/// height, pixels.
fn pdf_page_grey(pdf: &Path, dpi: u32) -> (usize, usize, Vec<u8>) {
    let prefix = pdf.with_extension("");
    let out = Command::new("pdftoppm")
        .args(["-gray", "-r", &dpi.to_string(), "-singlefile"])
        .arg(pdf)
        .arg(&prefix)
        .output()
        .expect("pdftoppm (apt-get install poppler-utils)");
    assert!(out.status.success(), "{out:?}");
    let pgm = std::fs::read(prefix.with_extension("pgm")).unwrap();
    // P5 WIDTH HEIGHT 255, then one byte a pixel.
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while pgm[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !pgm[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(text(&pgm[start..i]));
    }
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, pgm[i + 1..].to_vec())
}

#[test]
fn the_text_and_the_signed_page_carry_the_hash() {
    let dir = tempfile::tempdir().unwrap();
    let sys = sysfs(dir.path(), None, None);
    let hash = sha256sum(TANDEM);
    let pdf = dir.path().join("report.pdf");
    let out = run(
        &[
            "report",
            "--rated",
            "--pdf",
            pdf.to_str().unwrap(),
            "--speech",
            "text",
            "--braille",
            "none",
        ],
        dir.path(),
        &sys,
    );
    assert!(out.status.success(), "{out:?}");
    let said = text(&out.stdout);
    assert!(said.contains(&format!("binary SHA-256: {hash}")), "{said}");
    assert!(
        said.contains("rated: yes") && said.contains("radios: none"),
        "{said}"
    );
    // The page: the hash as text (in groups of eight) …
    let page = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext (apt-get install poppler-utils)");
    let page = text(&page.stdout).split_whitespace().collect::<String>();
    assert!(page.contains(&hash), "{page}");
    // … and as a QR code, read back from the printed page.
    let (w, h, px) = pdf_page_grey(&pdf, 150);
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| px[y * w + x]);
    let grids = img.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code on the page");
    assert_eq!(grids[0].decode().expect("the QR code decodes").1, hash);
}

#[test]
fn a_rated_game_refuses_a_radio_up_and_device_seats() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("t.sock");
    let journal = dir.path().join("g.jsonl");
    let mut base = vec!["play", "--rated"];
    base.extend(QUIET);
    base.extend([
        "--socket",
        socket.to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
    ]);
    for (wifi, bt, named) in [
        (Some(true), None, "Wi-Fi wlan0"),
        (Some(false), Some(true), "Bluetooth hci0"),
    ] {
        let sub = tempfile::tempdir_in(dir.path()).unwrap();
        let sys = sysfs(sub.path(), wifi, bt);
        let out = run(&base, dir.path(), &sys);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains(named) && err.contains("--allow radio"),
            "{err}"
        );
        assert!(!journal.exists(), "nothing started");
    }
    let sys = sysfs(dir.path(), Some(false), Some(false));
    let mut seats = base.to_vec();
    seats.extend(["--seats", "127.0.0.1:0"]);
    let out = run(&seats, dir.path(), &sys);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = text(&out.stderr);
    assert!(
        err.contains("--seats") && err.contains("--allow devices"),
        "{err}"
    );
    // --allow without --rated is a mistake, said.
    let out = run(&["play", "--allow", "radio"], dir.path(), &sys);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(text(&out.stderr).contains("--rated"));
}

/// Waits for a journal line of `kind` (20 s at most).
fn wait_line(journal: &Path, kind: &str) -> Value {
    let t0 = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(journal) {
            if let Some(v) = s
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .find(|v| v["event"]["type"] == kind)
            {
                return v;
            }
        }
        assert!(t0.elapsed() < Duration::from_secs(20), "no {kind} line");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_rated_table_with_a_radio_allowed_journals_its_report_for_the_arbiter() {
    let dir = tempfile::tempdir().unwrap();
    let sys = sysfs(dir.path(), Some(true), None);
    let socket = dir.path().join("t.sock");
    let journal = dir.path().join("g.jsonl");
    let mut d = support::Play::new(&socket)
        .args([
            "--rated",
            "--allow",
            "radio",
            "--speech",
            "text",
            "--braille",
            "none",
        ])
        .args(["--voice", "off", "--journal", journal.to_str().unwrap()])
        .env("TANDEM_SYSFS", &sys)
        .start();
    let r = d.client().request("move", Some("32-28")).unwrap();
    assert_eq!(r["ok"], true, "{r}");
    d.kill();
    let line = wait_line(&journal, "report");
    let first_move = wait_line(&journal, "move");
    assert!(line["seq"].as_u64() < first_move["seq"].as_u64(), "{line}");
    let hash = sha256sum(TANDEM);
    assert_eq!(line["event"]["binary_sha256"], hash);
    assert_eq!(line["event"]["rated"], true);
    assert_eq!(line["event"]["allow"], serde_json::json!(["radio"]));
    assert_eq!(line["event"]["radios"][0]["up"], true);
    // `tandem journal verify` shows it, and its chain holds with it.
    let v = verify_ok(&journal);
    assert_eq!(v["reports"]["lines"][0]["report"]["binary_sha256"], hash);
    assert_eq!(v["reports"]["rated"], true);
    let out = Command::new(TANDEM)
        .args(["journal", "verify"])
        .arg(&journal)
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains(&format!("binary SHA-256 {hash}, rated")));
    // `tandem arbiter report`: the line, then the whole report.
    let out = Command::new(TANDEM)
        .args(["arbiter", "report"])
        .arg(&journal)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = text(&out.stdout);
    assert!(said.contains(&format!("binary SHA-256: {hash}")), "{said}");
    assert!(said.contains("rated: yes, allowing radio"), "{said}");
    assert!(said.contains("wifi wlan0 UP"), "{said}");
}

/// The sockets a process holds, by inode (`/proc/PID/fd`).
fn socket_inodes(pid: u32) -> BTreeSet<String> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|l| {
            let l = l.to_string_lossy().into_owned();
            l.strip_prefix("socket:[")?
                .strip_suffix(']')
                .map(str::to_owned)
        })
        .collect()
}

/// An address of `/proc/net/tcp` (`0100007F:1FBB`) as `IP:PORT`.
fn tcp_addr(hex: &str, v6: bool) -> String {
    let (ip, port) = hex.split_once(':').unwrap();
    let port = u16::from_str_radix(port, 16).unwrap();
    let bytes: Vec<u8> = (0..ip.len() / 2)
        .map(|i| u8::from_str_radix(&ip[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    if v6 {
        // Four 32-bit words, each in the host's (little-endian) order.
        let mut b = [0u8; 16];
        for (w, chunk) in bytes.chunks(4).enumerate() {
            for (k, x) in chunk.iter().rev().enumerate() {
                b[4 * w + k] = *x;
            }
        }
        format!("[{}]:{port}", std::net::Ipv6Addr::from(b))
    } else {
        let b: [u8; 4] = [bytes[3], bytes[2], bytes[1], bytes[0]];
        format!("{}:{port}", std::net::Ipv4Addr::from(b))
    }
}

/// What the process `pid` listens on and connects to, from
/// `/proc/PID/net/{tcp,tcp6,unix}` and, for its unnamed Unix sockets,
/// their peers (`ss`): a socket whose peer is its own (tokio's signal
/// pair, the relay on its own control socket) is neither.
fn open_sockets(pid: u32) -> (BTreeSet<String>, BTreeSet<String>) {
    let mine = socket_inodes(pid);
    let (mut listens, mut connects) = (BTreeSet::new(), BTreeSet::new());
    for (file, v6) in [("tcp", false), ("tcp6", true)] {
        let table = std::fs::read_to_string(format!("/proc/{pid}/net/{file}")).unwrap();
        for line in table.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            if !mine.contains(f[9]) {
                continue;
            }
            if f[3] == "0A" {
                listens.insert(tcp_addr(f[1], v6));
            } else {
                connects.insert(tcp_addr(f[2], v6));
            }
        }
    }
    let ss = Command::new("nsenter")
        .args(["-t", &pid.to_string(), "-n", "ss", "-xan"])
        .output()
        .expect("nsenter and ss (util-linux, iproute2)");
    let ss = text(&ss.stdout);
    let table = std::fs::read_to_string(format!("/proc/{pid}/net/unix")).unwrap();
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if !mine.contains(f[6]) {
            continue;
        }
        if f[3] == "00010000" {
            listens.insert((*f.get(7).unwrap_or(&"?")).to_owned());
            continue;
        }
        // `u_str ESTAB 0 0 LOCAL INODE PEER PEER_INODE`: the peer of this inode.
        let peer = ss.lines().find_map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            (c.len() >= 8 && c[5] == f[6]).then(|| c[7].to_owned())
        });
        match peer {
            Some(p) if mine.contains(&p) => {}
            p => {
                connects.insert(format!("unix:peer {p:?}"));
            }
        }
    }
    (listens, connects)
}

/// Whether `unshare -n` works here (root, util-linux).
fn unshare_works() -> Result<(), String> {
    match Command::new("unshare").args(["-n", "true"]).output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(text(&o.stderr)),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn a_rated_table_in_its_own_network_opens_exactly_what_its_report_says() {
    if let Err(why) = unshare_works() {
        assert!(
            std::env::var_os("CI").map_or(true, |v| v.is_empty()),
            "unshare -n is needed in CI (it runs as root): {why}"
        );
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED cli_report::a_rated_table_in_its_own_network…: unshare -n is not available \
             here (needs root and util-linux): {why}"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sys = sysfs(dir.path(), Some(false), None);
    let socket = dir.path().join("t.sock");
    let journal = dir.path().join("g.jsonl");
    let (s, j) = (socket.to_str().unwrap(), journal.to_str().unwrap());
    let args = table_args(s, j, "127.0.0.1:8123");
    let mut report_args = vec!["report", "--json", "--rated", "--allow", "devices"];
    report_args.extend(&args);
    let out = run(&report_args, dir.path(), &sys);
    assert!(out.status.success(), "{out:?}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let set = |k: &str| -> BTreeSet<String> {
        report[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    // The table in a network of its own, with the hall's broker beside it
    // (the relay's connection is then a real one), both started here.
    let pidfile = dir.path().join("broker.pid");
    let script = format!(
        "ip link set lo up && {{ mosquitto -p 1883 >/dev/null 2>&1 & echo $! > '{}'; }} && exec \"$0\" \"$@\"",
        pidfile.display()
    );
    let mut cmd = Command::new("unshare");
    cmd.args([
        "-n", "sh", "-c", &script, TANDEM, "play", "--rated", "--allow", "devices",
    ])
    .args(&args)
    .env("TANDEM_SYSFS", &sys)
    .env("XDG_CONFIG_HOME", dir.path().join("noconfig"))
    .env("XDG_STATE_HOME", dir.path().join("state"))
    .env("XDG_DATA_HOME", dir.path().join("nodata"))
    .stdin(Stdio::piped())
    .stdout(Stdio::null())
    .stderr(Stdio::inherit());
    let mut child = cmd.spawn().unwrap();
    // unshare and sh exec: the child is tandem itself.
    let pid = child.id();
    let t0 = Instant::now();
    let (listens, connects) = loop {
        let ok = child.try_wait().unwrap().is_none();
        assert!(ok, "tandem play stopped");
        let (l, c) = open_sockets(pid);
        let relayed = c.contains("127.0.0.1:1883");
        if journal.exists() && l.len() >= 2 && relayed {
            break (l, c);
        }
        if t0.elapsed() > Duration::from_secs(30) {
            break (l, c);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let _ = Command::new("kill").arg(pid.to_string()).status();
    let _ = child.wait();
    if let Ok(b) = std::fs::read_to_string(&pidfile) {
        let _ = Command::new("kill").arg(b.trim()).status();
    }
    assert_eq!(listens, set("listens"));
    assert_eq!(connects, set("connects"));
    // The journal's report is the same.
    let line = wait_line(&journal, "report");
    assert_eq!(line["event"]["listens"], report["listens"]);
    assert_eq!(line["event"]["connects"], report["connects"]);
}
