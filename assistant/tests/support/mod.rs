//! What the daemon tests share: the real `tandem play` binary started on a
//! private socket, a client to it, `tandem ctl`, and waiting for a ply.
//!
//! Each test file that uses it says `mod support;` (Cargo builds every file
//! in `tests/` as its own crate, so an item one file does not use is dead
//! code there: hence the `allow`).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tandem::client::Client;

/// The `tandem` binary under test.
pub const TANDEM: &str = env!("CARGO_BIN_EXE_tandem");

/// A running `tandem play --headless`, killed when dropped.
pub struct Daemon {
    /// The process.
    pub child: Child,
    /// Its control socket.
    pub socket: PathBuf,
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
        let mut cmd = Command::new(TANDEM);
        cmd.arg("play")
            .arg("--headless")
            .arg("--socket")
            .arg(socket)
            .args(args);
        cmd.stdin(Stdio::piped())
            .stdout(stdout)
            .stderr(Stdio::inherit());
        cmd.env("XDG_CONFIG_HOME", socket.parent().unwrap().join("noconfig"));
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start tandem play");
        let t0 = Instant::now();
        while Client::connect(socket).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("tandem play exited before opening its socket: {status}");
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "tandem play did not open its socket"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Daemon {
            child,
            socket: socket.to_owned(),
        }
    }

    /// A new client connection (20 s timeout).
    pub fn client(&self) -> Client {
        let c = Client::connect(&self.socket).unwrap();
        c.set_timeout(Some(Duration::from_secs(20))).unwrap();
        c
    }

    /// Types a line on the daemon's stdin.
    pub fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `tandem ctl --socket SOCKET ARGS…`.
pub fn ctl(socket: &Path, args: &[&str]) -> std::process::Output {
    Command::new(TANDEM)
        .arg("ctl")
        .arg("--socket")
        .arg(socket)
        .args(args)
        .output()
        .unwrap()
}

/// Runs `tandem ARGS…`.
pub fn tandem(args: &[&str]) -> std::process::Output {
    Command::new(TANDEM).args(args).output().unwrap()
}

/// Polls `state` until the game has `ply` plies (20 s at most).
pub fn wait_ply(c: &mut Client, ply: u64) -> serde_json::Value {
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
