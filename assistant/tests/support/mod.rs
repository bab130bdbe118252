//! What the daemon tests share: the real `tandem play` binary started on a
//! private socket ([`Daemon::start`], or [`Play`] for more options), a
//! client to it, `tandem ctl` and `tandem journal verify`, waiting for a
//! ply, the private BRLTTY and speech-dispatcher, and the real tournament
//! game the tests play.
//!
//! Each test file that uses it says `mod support;` (Cargo builds every file
//! in `tests/` as its own crate, so an item one file does not use is dead
//! code there: hence the `allow`).
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tandem::client::Client;
use tandem_braille::testing::brltty::VirtualBrltty;
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::{Game, Variant};
use tandem_speech::testing::PrivateSpeechd;

pub mod browser;
pub mod chesslink;
pub mod cli;
pub mod devices;
pub mod langs;
pub mod orca;
pub mod pychess;
pub mod python;
pub mod session;
pub mod tls;
pub mod voice;

/// The `tandem` binary under test.
pub const TANDEM: &str = env!("CARGO_BIN_EXE_tandem");

/// How long a daemon may take to open its socket and answer (a deadline:
/// it answers in well under a second on a quiet machine, but its start
/// (speech-dispatcher, BRLTTY, the voice model) can take many seconds on a
/// loaded one).
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running `tandem play --headless`, killed when dropped.
pub struct Daemon {
    /// The process.
    pub child: Child,
    /// Its control socket.
    pub socket: PathBuf,
    /// The file its stderr goes to, if [`Play::stderr_file`] was used.
    pub stderr: Option<PathBuf>,
    /// Its stdout, a line at a time, if [`Play::stdout_lines`] was used.
    stdout: Option<mpsc::Receiver<String>>,
}

/// How to start a `tandem play --headless --socket SOCKET …`: by default
/// with no config file (`XDG_CONFIG_HOME` is `noconfig` next to the
/// socket), stdin piped (for [`Daemon::type_line`]; at its end the daemon
/// only stops reading), stdout discarded and stderr inherited.
pub struct Play {
    cmd: Command,
    socket: PathBuf,
    stderr_file: Option<PathBuf>,
    stdout_lines: bool,
}

impl Play {
    /// `tandem play --headless --socket SOCKET`.
    pub fn new(socket: &Path) -> Play {
        let mut cmd = Command::new(TANDEM);
        cmd.args(["play", "--headless", "--socket"])
            .arg(socket)
            .env("XDG_CONFIG_HOME", socket.parent().unwrap().join("noconfig"))
            // No speech model of the user's: voice input is off unless a
            // test gives one (a later `env` wins).
            .env("XDG_DATA_HOME", socket.parent().unwrap().join("nodata"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        // Log lines on stderr, where the tests read them (tandem play's
        // default is a log file; `fresh_user.rs` tests that).
        if std::env::var_os("TANDEM_LOG").is_none() {
            cmd.env("TANDEM_LOG", "warn");
        }
        Play {
            cmd,
            socket: socket.to_owned(),
            stderr_file: None,
            stdout_lines: false,
        }
    }

    /// [`Play::new`] with the socket `DIR/tandem.sock`.
    pub fn in_dir(dir: &Path) -> Play {
        Play::new(&dir.join("tandem.sock"))
    }

    /// [`Play::in_dir`] with `--speech text --braille none` (speech as
    /// text lines on stdout) and `XDG_STATE_HOME` at `DIR/state` (where the
    /// journal's fallback copies go).
    pub fn text_only(dir: &Path) -> Play {
        Play::in_dir(dir)
            .args(["--speech", "text", "--braille", "none"])
            .state_home(&dir.join("state"))
    }

    /// More arguments.
    pub fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Play {
        self.cmd.args(args);
        self
    }

    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Play {
        self.cmd.arg(arg);
        self
    }

    /// An environment variable (a later one wins).
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Play {
        self.cmd.env(key, value);
        self
    }

    /// Environment variables (a later one wins).
    pub fn envs<V: AsRef<OsStr>>(mut self, env: &[(&str, V)]) -> Play {
        for (k, v) in env {
            self.cmd.env(k, v);
        }
        self
    }

    /// An environment variable the daemon must not inherit.
    pub fn env_remove(mut self, key: &str) -> Play {
        self.cmd.env_remove(key);
        self
    }

    /// `XDG_CONFIG_HOME` (where no config file is) somewhere else than next
    /// to the socket.
    pub fn config_home(self, dir: &Path) -> Play {
        self.env("XDG_CONFIG_HOME", dir)
    }

    /// `XDG_STATE_HOME` (where the journal's fallback copies go).
    pub fn state_home(self, dir: &Path) -> Play {
        self.env("XDG_STATE_HOME", dir)
    }

    /// `--journal PATH`.
    pub fn journal(self, path: &Path) -> Play {
        self.arg("--journal").arg(path)
    }

    /// [`Play::speechd`] and [`Play::brltty`]: spoken and shown by the
    /// real components.
    pub fn real(self, brltty: &VirtualBrltty, speechd: &PrivateSpeechd) -> Play {
        self.speechd(speechd).brltty(brltty)
    }

    /// `--resume JOURNAL`.
    pub fn resume(self, journal: &Path) -> Play {
        self.arg("--resume").arg(journal)
    }

    /// `--braille brlapi --brlapi-host HOST`: shown on a private BRLTTY.
    pub fn brltty(self, brltty: &VirtualBrltty) -> Play {
        self.args(["--braille", "brlapi", "--brlapi-host"])
            .arg(brltty.host())
    }

    /// `--speech speechd` with `SPEECHD_ADDRESS`: spoken by a private
    /// speech-dispatcher.
    pub fn speechd(self, speechd: &PrivateSpeechd) -> Play {
        self.args(["--speech", "speechd"])
            .env("SPEECHD_ADDRESS", speechd.address())
    }

    /// Stdout goes to `stdout`.
    pub fn stdout(mut self, stdout: Stdio) -> Play {
        self.cmd.stdout(stdout);
        self
    }

    /// Stdout is read a line at a time, for [`Daemon::wait_stdout`].
    pub fn stdout_lines(mut self) -> Play {
        self.cmd.stdout(Stdio::piped());
        self.stdout_lines = true;
        self
    }

    /// Stderr goes to `stderr`.
    pub fn stderr(mut self, stderr: Stdio) -> Play {
        self.cmd.stderr(stderr);
        self
    }

    /// Stderr goes to a new file at `path` (kept in [`Daemon::stderr`], and
    /// shown if the daemon exits before serving).
    pub fn stderr_file(mut self, path: PathBuf) -> Play {
        self.cmd.stderr(std::fs::File::create(&path).unwrap());
        self.stderr_file = Some(path);
        self
    }

    /// Runs it to its end with stdin closed (for a start it refuses): its
    /// exit status, stdout and stderr.
    pub fn output(mut self) -> std::process::Output {
        self.cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .expect("run tandem play")
    }

    /// Starts it and waits until its socket answers.
    pub fn start(mut self) -> Daemon {
        let mut child = self.cmd.spawn().expect("start tandem play");
        let stdout = self.stdout_lines.then(|| {
            let out = child.stdout.take().unwrap();
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            });
            rx
        });
        let mut d = Daemon {
            child,
            socket: self.socket,
            stderr: self.stderr_file,
            stdout,
        };
        let t0 = Instant::now();
        while Client::connect(&d.socket).is_err() {
            if let Ok(Some(status)) = d.child.try_wait() {
                panic!(
                    "tandem play exited ({status}) before opening its socket{}",
                    d.stderr
                        .as_ref()
                        .map(|p| format!(": {}", std::fs::read_to_string(p).unwrap_or_default()))
                        .unwrap_or_default()
                );
            }
            assert!(
                t0.elapsed() < START_TIMEOUT,
                "tandem play did not open its socket"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        // Then until it serves (the socket is bound before speech, braille
        // and the session start; the tests' clients wait 20 s for a reply).
        // `subscribe` is answered by the server alone: no request reaches
        // the session, whose requests some tests count (fail points).
        let mut c = Client::connect(&d.socket).unwrap();
        let left = START_TIMEOUT.saturating_sub(t0.elapsed());
        c.set_timeout(Some(left.max(Duration::from_secs(1))))
            .unwrap();
        let r = c.subscribe();
        assert!(
            r.is_ok(),
            "tandem play did not answer in {START_TIMEOUT:?}: {r:?}"
        );
        d
    }
}

impl Daemon {
    /// Starts `tandem play --headless --socket SOCKET ARGS…` (no config
    /// file, stdout discarded) and waits until its socket answers.
    pub fn start(args: &[&str], socket: &Path, env: &[(&str, String)]) -> Daemon {
        Daemon::start_with(args, socket, env, Stdio::null())
    }

    /// As [`Daemon::start`], with stdout going to `stdout`.
    pub fn start_with(
        args: &[&str],
        socket: &Path,
        env: &[(&str, String)],
        stdout: Stdio,
    ) -> Daemon {
        Play::new(socket)
            .args(args)
            .envs(env)
            .stdout(stdout)
            .start()
    }

    /// A new client connection (20 s timeout).
    pub fn client(&self) -> Client {
        let c = Client::connect(&self.socket).unwrap();
        c.set_timeout(Some(Duration::from_secs(20))).unwrap();
        c
    }

    /// A new client connection subscribed to the daemon's events.
    pub fn subscribed(&self) -> Client {
        let mut c = self.client();
        c.subscribe().unwrap();
        c
    }

    /// Types a line on the daemon's stdin.
    pub fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Kills it (SIGKILL, our own child by its id) and reaps it.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// What it wrote to its stderr file so far ([`Play::stderr_file`]).
    pub fn stderr_text(&self) -> String {
        let path = self.stderr.as_ref().expect("stderr goes to a file");
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Waits for a stdout line containing `text` ([`Play::stdout_lines`]);
    /// without one, the lines seen meanwhile.
    pub fn wait_stdout(&self, text: &str, within: Duration) -> Result<String, Vec<String>> {
        let rx = self.stdout.as_ref().expect("stdout is read by lines");
        let t0 = Instant::now();
        let mut seen = Vec::new();
        while let Some(left) = within.checked_sub(t0.elapsed()) {
            match rx.recv_timeout(left) {
                Ok(l) if l.contains(text) => return Ok(l),
                Ok(l) => seen.push(l),
                Err(_) => break,
            }
        }
        Err(seen)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A game of `variant` (`tandem play --variant VARIANT ARGS…`) given the
/// Polish draughts phrasebook is refused with what to give (`a VARIANT game
/// takes a VARIANT phrasebook`), before the journal is made.
pub fn assert_refuses_draughts_phrasebook(variant: &str, args: &[&str]) {
    let (out, journaled) = play_with_draughts_phrasebook(variant, args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("a {variant} game takes a {variant} phrasebook")),
        "{err}"
    );
    assert!(!journaled, "no journal for a game that did not start");
}

/// Runs `tandem play --headless --speech text --braille none --variant
/// VARIANT ARGS… --journal DIR/game.jsonl --phrasebook pl.toml` (the Polish
/// draughts phrasebook) in a new directory to its end: its output, and
/// whether the journal was made.
pub fn play_with_draughts_phrasebook(variant: &str, args: &[&str]) -> (std::process::Output, bool) {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("../speech/phrasebooks/pl.toml");
    let out = Play::in_dir(dir.path())
        .args([
            "--braille",
            "none",
            "--speech",
            "text",
            "--variant",
            variant,
        ])
        .args(args)
        .journal(&journal)
        .arg("--phrasebook")
        .arg(&book)
        .output();
    (out, journal.exists())
}

/// A text-only `tandem play --variant backgammon --lang en ARGS…` in `dir`,
/// journaled to `dir/match.jsonl`: the daemon, the journal and its socket.
pub fn backgammon_match(dir: &Path, args: &[&str]) -> (Daemon, PathBuf, PathBuf) {
    let journal = dir.join("match.jsonl");
    let d = Play::text_only(dir)
        .args(["--variant", "backgammon", "--lang", "en"])
        .arg("--journal")
        .arg(&journal)
        .args(args)
        .start();
    (d, journal, dir.join("tandem.sock"))
}

/// A text-only `tandem play --resume JOURNAL` in `dir`, its errors in
/// `dir/stderr-resume.txt`.
pub fn resume_text_only(dir: &Path, journal: &str) -> Daemon {
    Play::text_only(dir)
        .args(["--resume", journal])
        .stderr_file(dir.join("stderr-resume.txt"))
        .start()
}

/// Runs `cmd` (called `what`) to its end, which must succeed: its output.
pub fn run_ok(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd.output().expect(what);
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `tandem ctl --socket SOCKET ARGS…`.
pub fn ctl(socket: &Path, args: &[&str]) -> std::process::Output {
    ctl_env(socket, args, &[])
}

/// Runs `tandem ctl --socket SOCKET ARGS…` with the variables `env` set.
pub fn ctl_env(socket: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    Command::new(TANDEM)
        .envs(env.iter().copied())
        .arg("ctl")
        .arg("--socket")
        .arg(socket)
        .args(args)
        .output()
        .unwrap()
}

/// Runs `tandem ctl --socket SOCKET ARGS…`, which must succeed: its
/// stdout.
pub fn ctl_text(socket: &Path, args: &[&str]) -> String {
    let out = ctl(socket, args);
    assert!(
        out.status.success(),
        "tandem ctl {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `tandem ctl --socket SOCKET ARGS…`, which must be refused (exit
/// 1): its stdout.
pub fn ctl_refused(socket: &Path, args: &[&str]) -> String {
    let out = ctl(socket, args);
    assert_eq!(out.status.code(), Some(1), "tandem ctl {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `tandem ctl state` (which must succeed): the state.
pub fn ctl_state(socket: &Path) -> Value {
    let out = ctl(socket, &["state"]);
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `tandem ARGS…`.
pub fn tandem(args: &[&str]) -> std::process::Output {
    Command::new(TANDEM).args(args).output().unwrap()
}

/// Runs `tandem journal verify --json JOURNAL`: its exit status and report.
pub fn verify_json(journal: &Path) -> (ExitStatus, Value) {
    let out = Command::new(TANDEM)
        .args(["journal", "verify", "--json"])
        .arg(journal)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("journal verify printed no JSON ({e}): {out:?}"));
    (out.status, v)
}

/// [`verify_json`], asserting that the journal verifies (exit 0, `ok`).
pub fn verify_ok(journal: &Path) -> Value {
    let (status, v) = verify_json(journal);
    assert!(status.success() && v["ok"] == true, "{status}: {v}");
    v
}

/// The events of type `kind` in a journal (every line must parse).
pub fn journal_events(journal: &Path, kind: &str) -> Vec<Value> {
    std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].clone())
        .filter(|e| e["type"] == kind)
        .collect()
}

/// The events of type `kind` in a journal being written: none if it is not
/// there yet, a line not (yet) whole passed over.
pub fn journal_events_so_far(journal: &Path, kind: &str) -> Vec<Value> {
    std::fs::read_to_string(journal)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| v["event"].clone())
        .filter(|e| e["type"] == kind)
        .collect()
}

/// Polls `state` until the game has `ply` plies (20 s at most).
pub fn wait_ply(c: &mut Client, ply: u64) -> Value {
    let t0 = Instant::now();
    loop {
        let st = c.request("state", None).unwrap()["state"].clone();
        if st["ply"].as_u64() == Some(ply) {
            return st;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "ply {ply} never reached: {st}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The speech events on `events` (a subscribed client) up to and with the
/// first that starts with `last`: `Err` with all that was said if the
/// stream ends (or times out) before it.
pub fn speech_until(events: &mut Client, last: &str) -> Result<Vec<String>, Vec<String>> {
    let mut said = Vec::new();
    while let Ok(v) = events.next_line() {
        if v["event"] == "speech" {
            said.push(v["text"].as_str().unwrap().to_owned());
            if said.last().is_some_and(|s| s.starts_with(last)) {
                return Ok(said);
            }
        }
    }
    Err(said)
}

/// [`speech_until`], what was said either way (the caller checks it).
pub fn said_until(events: &mut Client, last: &str) -> Vec<String> {
    speech_until(events, last).unwrap_or_else(|said| said)
}

/// [`speech_until`], a panic if `last` is never said.
pub fn heard_until(events: &mut Client, last: &str) -> Vec<String> {
    speech_until(events, last).unwrap_or_else(|said| panic!("never said {last:?}: {said:?}"))
}

/// The text of `rules/tests/data/pdn/NAME`.
pub fn pdn_data(name: &str) -> String {
    let path = format!(
        "{}/../rules/tests/data/pdn/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The real tournament game the tests play: H. van der Zee - H. Clasquin,
/// Dutch semifinals 1996 (`dutch96h.pdn`, international draughts, 1-0).
pub fn real_game() -> Game {
    match replay(
        &parse_pdn(&pdn_data("dutch96h.pdn"))[0],
        Variant::International,
    ) {
        Replay::Ok(g) => g,
        other => panic!("the test game does not replay: {other:?}"),
    }
}

/// A private BRLTTY of 40 cells and speech-dispatcher speaking English (as
/// [`real_brltty_speechd`]), a new folder, the journal `journal` in it, and
/// the mark of the audio spoken so far.
pub fn real_english_table(journal: &str) -> Option<RealTable> {
    let (brltty, speechd) = real_brltty_speechd(40, "en")?;
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join(journal);
    let mark = speechd.audio_mark();
    Some((brltty, speechd, dir, journal, mark))
}

/// What [`real_english_table`] gives.
pub type RealTable = (
    VirtualBrltty,
    PrivateSpeechd,
    tempfile::TempDir,
    PathBuf,
    u64,
);

/// Ply `i` (from 0) of a game, `m`: white's through the control socket
/// `c`, black's typed on `d`'s standard input and awaited.
pub fn play_ply(d: &mut Daemon, c: &mut Client, i: usize, m: &str) {
    if i % 2 == 0 {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m}: {r}");
    } else {
        d.type_line(m);
        wait_ply(c, i as u64 + 1);
    }
}

/// speech-dispatcher spoke since `mark`: more than a second of sound.
pub fn assert_spoke_since(speechd: &PrivateSpeechd, mark: u64) {
    let audio = speechd
        .wait_audio_since(mark, Duration::from_millis(500), Duration::from_secs(60))
        .unwrap();
    assert!(audio.seconds > 1.0 && audio.rms > 0.001, "{audio:?}");
}

/// A private BRLTTY with a virtual display of `cells` cells; `None` (said
/// on stderr) when it cannot start and `TANDEM_SKIP_REAL` is set outside
/// CI, else a panic saying what is missing (`tandem_testkit::require`).
#[track_caller]
pub fn real_brltty(cells: usize) -> Option<VirtualBrltty> {
    tandem_testkit::require(BRLTTY, VirtualBrltty::start(cells))
}

/// A private speech-dispatcher speaking `lang`; `None` (said on stderr)
/// when it cannot start and `TANDEM_SKIP_REAL` is set outside CI, else a
/// panic saying what is missing (`tandem_testkit::require`).
#[track_caller]
pub fn real_speechd(lang: &str) -> Option<PrivateSpeechd> {
    tandem_testkit::require(SPEECHD, PrivateSpeechd::start(lang))
}

/// [`real_brltty`] and [`real_speechd`] both (BRLTTY asked for first).
#[track_caller]
pub fn real_brltty_speechd(cells: usize, lang: &str) -> Option<(VirtualBrltty, PrivateSpeechd)> {
    let brltty = real_brltty(cells)?;
    Some((brltty, real_speechd(lang)?))
}

/// What [`real_brltty`] needs.
pub const BRLTTY: &str = "BRLTTY (apt-get install brltty)";
/// What [`real_speechd`] needs.
pub const SPEECHD: &str =
    "speech-dispatcher with espeak-ng (apt-get install speech-dispatcher speech-dispatcher-espeak-ng)";

/// A small tmpfs (`mount -t tmpfs`, root only, as CI runs), unmounted on
/// drop: a disk that really fills up (`ENOSPC`).
pub struct Tmpfs(pub PathBuf);

impl Tmpfs {
    /// Mounts one of `size` (`64k`) at `at`.
    pub fn mount(at: &Path, size: &str) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(at).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o"])
            .arg(format!("size={size},mode=0700"))
            .arg("tandem-test")
            .arg(at)
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(Tmpfs(at.to_owned()))
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }

    /// Fills it up: writes until the disk is full.
    pub fn fill(&self) -> PathBuf {
        let p = self.0.join("filler");
        let mut f = std::fs::File::create(&p).unwrap();
        let block = [0u8; 512];
        while f.write_all(&block).is_ok() {}
        let _ = f.sync_all();
        p
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}
