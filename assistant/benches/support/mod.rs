//! What the daemon's benches share: the real game they play, their
//! percentiles, the game a bench's in-process session plays, and the real
//! `tandem play` a bench starts. Each bench that uses it says `mod support;`.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tandem::game::AnyPosition;
use tandem::session::{Blind, GameSetup, SeatOutput, DEFAULT_WARNINGS};
use tandem_rules::clock::TimeControl;
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::Variant;
use tandem_rules::{Color, GameOptions};
use tandem_speech::Utterance;
use tandem_testkit::free_port;
use tokio::sync::mpsc::UnboundedSender;

/// A game from `start`, 90 minutes a player, `blind`, announced in `lang`,
/// the players unnamed.
pub fn setup(start: AnyPosition, blind: Blind, lang: &str) -> GameSetup {
    GameSetup {
        start,
        control: TimeControl::lookup("90m").expect("control"),
        warnings: DEFAULT_WARNINGS.to_vec(),
        white: None,
        black: None,
        event: None,
        round: None,
        blind,
        lang: lang.into(),
        options: GameOptions::default(),
    }
}

/// The seat of `side` with its own speech `speech` in `lang` (the table's
/// language if `None`), no braille.
pub fn seat(side: Color, speech: UnboundedSender<Utterance>, lang: Option<String>) -> SeatOutput {
    SeatOutput {
        side,
        speech: Some(speech),
        braille: None,
        lang,
    }
}

/// `tandem play --headless --speech text --braille none --socket SOCKET
/// --journal DIR/g.jsonl` with no config file (`XDG_CONFIG_HOME` is
/// `dir`), stdin piped, stdout and stderr discarded: more arguments to add,
/// then spawn.
pub fn play(dir: &Path, socket: &Path) -> Command {
    play_with_braille(dir, socket, "none")
}

/// [`play`] with this `--braille` backend.
pub fn play_with_braille(dir: &Path, socket: &Path, braille: &str) -> Command {
    play_as(env!("CARGO_BIN_EXE_tandem").as_ref(), dir, socket, braille)
}

/// [`play_with_braille`] with another build of `tandem` (to compare two commits).
pub fn play_as(tandem: &std::ffi::OsStr, dir: &Path, socket: &Path, braille: &str) -> Command {
    let mut cmd = Command::new(tandem);
    cmd.args(["play", "--headless"])
        .args(["--speech", "text", "--braille", braille])
        .arg("--socket")
        .arg(socket)
        .arg("--journal")
        .arg(dir.join("g.jsonl"))
        .env("XDG_CONFIG_HOME", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// The moves of a real international draughts game (dutch96h.pdn).
pub fn draughts_moves() -> Vec<String> {
    let path = format!(
        "{}/../rules/tests/data/pdn/dutch96h.pdn",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("test game");
    match replay(&parse_pdn(&text)[0], Variant::International) {
        Replay::Ok(g) => g.move_texts(),
        _ => panic!("the bench game does not replay"),
    }
}

/// A current-thread tokio runtime with its drivers, for a bench's session.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// `n` runs of `f`, each timing two things: the two lists of times.
pub fn sample2(
    n: usize,
    mut f: impl FnMut() -> (Duration, Duration),
) -> (Vec<Duration>, Vec<Duration>) {
    (0..n).map(|_| f()).unzip()
}

/// Prints `LABEL: p50 …  p90 …  p99 …  max …` of `v` (sorted in place).
/// `n` runs of `f` (two stages timed) as [`sample2`], the percentiles of
/// each stage printed as `PREFIX, NAME`.
pub fn sample2_printed(
    prefix: &str,
    names: [&str; 2],
    n: usize,
    f: impl FnMut() -> (Duration, Duration),
) {
    let (mut a, mut b) = sample2(n, f);
    print_pcts(&format!("{prefix}, {}", names[0]), &mut a);
    print_pcts(&format!("{prefix}, {}", names[1]), &mut b);
}

pub fn print_pcts(label: &str, v: &mut [Duration]) {
    println!(
        "{label}: p50 {:?}  p90 {:?}  p99 {:?}  max {:?}",
        pct(v, 0.5),
        pct(v, 0.9),
        pct(v, 0.99),
        pct(v, 1.0)
    );
}

/// The `p` percentile (0 to 1) of `v` (sorted in place).
pub fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize]
}

/// The runtime the daemon's benches run the table on (two workers).
pub fn runtime_two_workers() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// A child process, killed when this is dropped.
pub struct Kill(pub Child);
impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A real Mosquitto on a free port of 127.0.0.1, its files in `dir`,
/// password and ACL on, for the event `LOAD`: the user `desk` (`deskpw`)
/// reads the tables' topics and writes the desk's, `sim` (`simpw`) reads and
/// writes them all (a simulated table, or a real one's relay). The port.
pub fn broker(dir: &Path) -> (Kill, u16) {
    let port = free_port();
    std::fs::write(dir.join("passwd"), "desk:deskpw\nsim:simpw\n").unwrap();
    assert!(Command::new("mosquitto_passwd")
        .arg("-U")
        .arg(dir.join("passwd"))
        .status()
        .expect("mosquitto_passwd (scripts/setup.sh --hall)")
        .success());
    std::fs::write(
        dir.join("acl"),
        "user desk\ntopic read tandem/LOAD/table/#\ntopic write tandem/LOAD/desk/#\n\nuser sim\ntopic readwrite tandem/LOAD/#\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("m.conf"),
        format!(
            "user root\nlistener {port} 127.0.0.1\nallow_anonymous false\npassword_file {}\nacl_file {}\npersistence false\nmax_queued_messages 100000\n{}",
            dir.join("passwd").display(),
            dir.join("acl").display(),
            // `HALL_LOAD_INFLIGHT=N`: the broker's `max_inflight_messages`
            // (Mosquitto's default 20 QoS 1 messages unacknowledged per client).
            std::env::var("HALL_LOAD_INFLIGHT")
                .map(|n| format!("max_inflight_messages {n}\n"))
                .unwrap_or_default()
        ),
    )
    .unwrap();
    let child = Command::new("/usr/sbin/mosquitto")
        .arg("-c")
        .arg(dir.join("m.conf"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("mosquitto");
    let t0 = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "mosquitto did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (Kill(child), port)
}
