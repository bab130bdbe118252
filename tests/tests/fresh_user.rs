//! The README's first command, as a new user meets it: `tandem play` with no
//! hardware and no options (typed moves on stdin, braille in the terminal,
//! speech falling back to what answers), then the assistant's and the
//! arbiter's tools on the same game: `tandem ctl`, `tandem journal verify`,
//! `tandem pdn export`, `tandem arbiter reconcile`.
//!
//! This runs the `tandem` binary that `cargo test --workspace` builds beside
//! this test (`target/<profile>/tandem`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn tandem_bin() -> PathBuf {
    // target/<profile>/deps/fresh_user-HASH -> target/<profile>/tandem
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    let bin = dir.join("tandem");
    assert!(
        bin.exists(),
        "{} is missing: build it with `cargo build -p tandem` (cargo test --workspace does)",
        bin.display()
    );
    bin
}

struct Daemon {
    child: Child,
    socket: PathBuf,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tandem ARGS… FILE`, run to its end.
fn tandem_on(args: &[&str], file: &Path) -> std::process::Output {
    Command::new(tandem_bin())
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

fn ctl(socket: &Path, args: &[&str]) -> (bool, String, String) {
    ctl_env(socket, &[], args)
}

fn state(socket: &Path) -> serde_json::Value {
    let (ok, out, err) = ctl(socket, &["state"]);
    assert!(ok, "ctl state failed: {err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("state is not JSON ({e}): {out}"))
}

fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `tandem play` as a new user starts it: no options but where to keep the
/// socket and the journal (private dirs for the test).
fn start(dirs: &tempfile::TempDir) -> (Daemon, PathBuf) {
    start_with(dirs, &[])
}

fn start_with(dirs: &tempfile::TempDir, env: &[(&str, &str)]) -> (Daemon, PathBuf) {
    start_args(dirs, env, &[])
}

fn start_args(dirs: &tempfile::TempDir, env: &[(&str, &str)], args: &[&str]) -> (Daemon, PathBuf) {
    let runtime = dirs.path().join("run");
    std::fs::create_dir_all(&runtime).unwrap();
    let socket = runtime.join("tandem/tandem.sock");
    let journal = dirs.path().join("game.jsonl");
    let child = Command::new(tandem_bin())
        .arg("play")
        .arg("--socket")
        .arg(&socket)
        .arg("--journal")
        .arg(&journal)
        .args(args)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("XDG_CONFIG_HOME", dirs.path().join("config"))
        .env("XDG_STATE_HOME", dirs.path().join("state"))
        // No speech server for this user: speech falls back by itself.
        .env(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}", dirs.path().join("no-speechd").display()),
        )
        .env_remove("BRLAPI_HOST")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let d = Daemon {
        child,
        socket: socket.clone(),
    };
    wait_for("the control socket", || socket.exists().then_some(()));
    wait_for("the daemon to answer", || {
        ctl(&socket, &["state"]).0.then_some(())
    });
    (d, journal)
}

#[test]
fn a_new_user_plays_typed_moves_and_the_arbiter_reads_the_record() {
    let dirs = tempfile::tempdir().unwrap();
    let (mut d, journal) = start(&dirs);
    let s = state(&d.socket);
    assert_eq!(s["ply"], 0);
    assert_eq!(s["turn"], "white");

    let mut stdin = d.child.stdin.take().unwrap();
    // Typed on the screen: loose forms are fine.
    writeln!(stdin, "32 28").unwrap();
    wait_for("32 28 to be played", || {
        (state(&d.socket)["ply"] == 1).then_some(())
    });
    // From the control socket (the assistant's tool).
    let (ok, _, err) = ctl(&d.socket, &["move", "19-23"]);
    assert!(ok, "{err}");
    // An illegal move is refused with the reason, and changes nothing.
    let (ok, _, err) = ctl(&d.socket, &["move", "34-29"]);
    assert!(!ok, "34-29 ignores a compulsory capture");
    assert!(!err.trim().is_empty(), "a refusal says why");
    assert_eq!(state(&d.socket)["ply"], 2);
    writeln!(stdin, "2819").unwrap();
    wait_for("28x19 to be played", || {
        (state(&d.socket)["ply"] == 3).then_some(())
    });

    let s = state(&d.socket);
    assert_eq!(s["moves"], serde_json::json!(["32-28", "19-23", "28x19"]));
    assert_eq!(s["fen"].as_str().unwrap().chars().next(), Some('B'));
    let (ok, out, _) = ctl(&d.socket, &["clock"]);
    assert!(ok);
    assert!(!out.trim().is_empty(), "the clock report is said");

    drop(stdin);
    drop(d);

    // The journal verifies, exports as PDN that replays, and the arbiter's
    // reconcile against a typed record finds where they part.
    let bin = tandem_bin();
    let v = tandem_on(&["journal", "verify"], &journal);
    assert!(
        v.status.success(),
        "journal verify: {:?} {} {}",
        v.status,
        String::from_utf8_lossy(&v.stdout),
        String::from_utf8_lossy(&v.stderr)
    );

    let pdn = tandem_on(&["pdn", "export"], &journal);
    assert!(pdn.status.success());
    let pdn_text = String::from_utf8_lossy(&pdn.stdout).into_owned();
    assert!(
        pdn_text.contains("32-28") && pdn_text.contains("28x19"),
        "{pdn_text}"
    );
    let pdn_file = journal.with_extension("pdn");
    std::fs::write(&pdn_file, &pdn_text).unwrap();
    let check = tandem_on(&["pdn", "check", "--json"], &pdn_file);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );

    // `tandem arbiter reconcile --json JOURNAL SHEET`, the typed sheet
    // holding `moves`: its exit and its report.
    let typed = journal.with_file_name("braille-record.txt");
    let reconcile = |moves: &str| {
        std::fs::write(&typed, moves).unwrap();
        let r = Command::new(&bin)
            .args(["arbiter", "reconcile", "--json"])
            .arg(&journal)
            .arg(&typed)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&r.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&r.stdout)));
        (r, report)
    };
    let (r, report) = reconcile("1. 32-28 19-23 2. 28x19\n");
    assert_eq!(report["agreed_plies"], 3);
    assert!(report["first_difference"].is_null());
    assert_eq!(r.status.code(), Some(0));

    let (r, report) = reconcile("1. 32-28 19-23 2. 34-29\n");
    assert_eq!(report["agreed_plies"], 2);
    assert_eq!(report["first_difference"]["ply"], 3);
    assert_eq!(r.status.code(), Some(1));
}

fn ctl_env(socket: &Path, env: &[(&str, &str)], args: &[&str]) -> (bool, String, String) {
    let out = Command::new(tandem_bin())
        .arg("ctl")
        .arg("--socket")
        .arg(socket)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_arbiter_takes_back_moves_and_the_chapter_8_3_2_count_shows_it() {
    let secret = [("TANDEM_ARBITER_SECRET", "s3cret-for-the-test")];
    let dirs = tempfile::tempdir().unwrap();
    let (d, journal) = start_with(&dirs, &secret);
    for m in ["32-28", "19-23", "28x19", "14x23"] {
        let (ok, _, err) = ctl(&d.socket, &["move", m]);
        assert!(ok, "{m}: {err}");
    }
    // Without the secret the arbiter's action is refused.
    let (ok, _, _) = ctl_env(
        &d.socket,
        &[("TANDEM_ARBITER_SECRET", "wrong")],
        &["takeback", "2", "boards differed"],
    );
    assert!(!ok, "a wrong secret must not take moves back");
    assert_eq!(state(&d.socket)["ply"], 4);
    // 001 ch. VIII 3.1.2: back to the last position where the records agree.
    let (ok, _, err) = ctl_env(&d.socket, &secret, &["takeback", "2", "boards differed"]);
    assert!(ok, "{err}");
    assert_eq!(state(&d.socket)["ply"], 2);
    let (ok, _, err) = ctl(&d.socket, &["move", "28x19"]);
    // Play resumes from the agreed position (the clock may be stopped after
    // the correction: resume it first if so).
    if !ok {
        assert!(ctl(&d.socket, &["resume"]).0, "{err}");
        assert!(ctl(&d.socket, &["move", "28x19"]).0);
    }
    drop(d);

    let out = tandem_on(&["arbiter", "announcements", "--json"], &journal);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(v["corrections"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(
        v["corrections"][0]["undone"],
        serde_json::json!(["28x19", "14x23"])
    );
    assert_eq!(v["corrections"][0]["reason"], "boards differed");
    // 28x19 was white's, 14x23 black's.
    assert_eq!(v["white"]["taken_back"], 1);
    assert_eq!(v["black"]["taken_back"], 1);
    let v2 = tandem_on(&["journal", "verify"], &journal);
    assert!(v2.status.success());
}

#[test]
fn a_new_user_plays_chess_with_typed_moves_and_exports_pgn() {
    let dirs = tempfile::tempdir().unwrap();
    let (mut d, journal) = start_args(&dirs, &[], &["--variant", "chess"]);
    let s = state(&d.socket);
    assert_eq!(
        (s["variant"].as_str(), s["ply"].as_u64()),
        (Some("chess"), Some(0))
    );
    // The chess default: 90 minutes and 30 seconds a move (FIDE).
    assert_eq!(s["clocks"]["control"], "90m+30s");
    let mut stdin = d.child.stdin.take().unwrap();
    for (i, m) in ["e4", "e7-e5", "Ng1f3", "b8c6", "Bb5", "a6", "O-O"]
        .iter()
        .enumerate()
    {
        writeln!(stdin, "{m}").unwrap();
        wait_for(&format!("{m} to be played"), || {
            (state(&d.socket)["ply"] == i as u64 + 1).then_some(())
        });
    }
    let s = state(&d.socket);
    assert_eq!(
        s["moves"],
        serde_json::json!(["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"])
    );
    // A king move onto its own bishop is refused with the reason.
    let (ok, _, err) = ctl(&d.socket, &["move", "Kf8"]);
    assert!(!ok && !err.trim().is_empty(), "{err}");
    drop(stdin);
    drop(d);
    let out = tandem_on(&["pdn", "export"], &journal);
    assert!(out.status.success());
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert!(pgn.contains("[TimeControl \"5400+30\"]"), "{pgn}");
    assert!(pgn.contains("4. O-O"), "{pgn}");
}

/// Reads a child's pipe to its end in a thread; what it read so far is in the string.
fn collect(pipe: impl std::io::Read + Send + 'static) -> std::sync::Arc<std::sync::Mutex<String>> {
    use std::io::BufRead;
    let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let t = text.clone();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            let mut t = t.lock().unwrap();
            t.push_str(&line);
            t.push('\n');
        }
    });
    text
}

/// Issue 13: log lines never go onto the screen. With neither `TANDEM_LOG`
/// nor `--log`, `tandem play --headless` names its log file once on stderr
/// (`$XDG_STATE_HOME/tandem/tandem.log`) and the warnings (here: no
/// speech-dispatcher for `--speech speechd`) go there, none to stdout or
/// stderr; `--log -` sends them to stderr.
#[test]
fn log_lines_go_to_the_log_file_not_onto_the_screen() {
    for to_stderr in [false, true] {
        let dirs = tempfile::tempdir().unwrap();
        let state_home = dirs.path().join("state");
        let log = state_home.join("tandem/tandem.log");
        let socket = dirs.path().join("run/tandem.sock");
        let mut cmd = Command::new(tandem_bin());
        cmd.args([
            "play",
            "--headless",
            "--speech",
            "speechd",
            "--braille",
            "none",
        ])
        .arg("--socket")
        .arg(&socket)
        .arg("--journal")
        .arg(dirs.path().join("game.jsonl"));
        if to_stderr {
            cmd.args(["--log", "-"]);
        }
        let mut child = cmd
            .env("XDG_CONFIG_HOME", dirs.path().join("config"))
            .env("XDG_STATE_HOME", &state_home)
            .env(
                "SPEECHD_ADDRESS",
                format!("unix_socket:{}", dirs.path().join("no-speechd").display()),
            )
            .env_remove("TANDEM_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = collect(child.stdout.take().unwrap());
        let stderr = collect(child.stderr.take().unwrap());
        let d = Daemon {
            child,
            socket: socket.clone(),
        };
        wait_for("the daemon to answer", || {
            ctl(&socket, &["state"]).0.then_some(())
        });
        let (ok, _, err) = ctl(&socket, &["move", "32-28"]);
        assert!(ok, "{err}");
        let warned = |text: &str| text.contains("WARN") && text.contains("speech backend Speechd");
        wait_for("the speech warning to be logged", || {
            let text = if to_stderr {
                stderr.lock().unwrap().clone()
            } else {
                std::fs::read_to_string(&log).unwrap_or_default()
            };
            warned(&text).then_some(())
        });
        drop(d);
        let (out, err) = (
            stdout.lock().unwrap().clone(),
            stderr.lock().unwrap().clone(),
        );
        let log_line = |l: &&str| {
            ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"]
                .iter()
                .any(|lv| l.contains(&format!(" {lv} ")))
        };
        assert!(
            out.lines().filter(log_line).count() == 0,
            "a log line on stdout: {out}"
        );
        if to_stderr {
            assert!(!log.exists(), "--log -: no log file");
            assert!(!err.contains("log lines go to"), "{err}");
        } else {
            assert!(
                err.lines().filter(log_line).count() == 0,
                "a log line on stderr: {err}"
            );
            let named = format!("tandem: log lines go to {}", log.display());
            assert_eq!(
                err.lines()
                    .filter(|l| l.contains("log lines go to"))
                    .collect::<Vec<_>>(),
                [named.as_str()],
                "the log file is named once at start: {err}"
            );
        }
    }
}
