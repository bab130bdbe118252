//! `tandem voice check` through the real microphone path: ALSA reading a
//! named pipe (the test microphone of `support/voice.rs`, fed in real time),
//! cpal, and Vosk with the Korean model and the Korean test phrasebook (the
//! one model a package ships here). The meter sees the level of a recording
//! said while it runs; after "Say a move." a checked recording of 33-29 is
//! said and understood.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use support::voice::{wav, Room};
use tandem_speech::listen::fixture::korean_phrasebook_path;

/// The lines of a running process, with a deadline per wait.
struct Lines {
    rx: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Lines {
    fn wait_for(&mut self, what: &str, limit: Duration) {
        let t0 = Instant::now();
        while !self.seen.iter().any(|l| l.contains(what)) {
            let left = limit.saturating_sub(t0.elapsed());
            match self.rx.recv_timeout(left) {
                Ok(l) => self.seen.push(l),
                Err(_) => panic!(
                    "waited {limit:?} for {what:?}; got:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    fn rest(&mut self) -> &[String] {
        self.seen.extend(self.rx.iter());
        &self.seen
    }
}

#[test]
fn the_level_then_a_spoken_move_through_alsa_cpal_and_vosk() {
    let Some((room, model)) = Room::with_model() else {
        return;
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["voice", "check", "--seconds", "3", "--speech", "text"])
        .arg("--model")
        .arg(&model)
        .arg("--phrasebook")
        .arg(korean_phrasebook_path())
        .env("ALSA_CONFIG_PATH", room.alsa_config_path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                return;
            }
        }
    });
    let mut lines = Lines {
        rx,
        seen: Vec::new(),
    };
    lines.wait_for("Microphone level", Duration::from_secs(60));
    room.mic.say(&wav("ko-yes.wav"));
    lines.wait_for("Say a move.", Duration::from_secs(30));
    room.mic.say(&wav("ko-33-29.wav"));
    let status = child.wait().unwrap();
    let out = lines.rest().to_vec();
    assert!(status.success(), "{}", out.join("\n"));
    // A meter line a second (stdout is not a terminal), one of them loud.
    let levels: Vec<&String> = out.iter().filter(|l| l.starts_with("level [")).collect();
    assert!(levels.len() >= 2, "{out:?}");
    assert!(levels.iter().any(|l| l.contains("[#")), "{out:?}");
    // The Korean test book's sentences are not in the status file: English.
    assert!(out.iter().any(|l| l == "The microphone works."), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("move 33-29")), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("Understood: 33-29."));
}

#[test]
fn a_missing_microphone_is_named() {
    let Some((room, model)) = Room::with_model() else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args([
            "voice",
            "check",
            "--speech",
            "none",
            "--mic",
            "no-such-microphone",
        ])
        .arg("--model")
        .arg(&model)
        .arg("--phrasebook")
        .arg(korean_phrasebook_path())
        .env("ALSA_CONFIG_PATH", room.alsa_config_path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no input device named \"no-such-microphone\"") && err.contains("--mic"),
        "{err}"
    );
}
