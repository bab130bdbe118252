//! What the daemon's benches share: the real game they play, their
//! percentiles, the game a bench's in-process session plays, and the real
//! `tandem play` a bench starts. Each bench that uses it says `mod support;`.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use tandem::game::AnyPosition;
use tandem::session::{Blind, GameSetup, SeatOutput, DEFAULT_WARNINGS};
use tandem_rules::clock::TimeControl;
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::Variant;
use tandem_rules::{Color, GameOptions};
use tandem_speech::Utterance;
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
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tandem"));
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
