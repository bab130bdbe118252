//! What the daemon's benches share: the real game they play and their
//! percentiles. Each bench that uses it says `mod support;`.
#![allow(dead_code)]

use std::time::Duration;

use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::Variant;

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

/// The `p` percentile (0 to 1) of `v` (sorted in place).
pub fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize]
}

/// A new game from `start` with `blind`, 90 minutes, in English.
pub fn setup(
    start: tandem::game::AnyPosition,
    blind: tandem::session::Blind,
) -> tandem::session::GameSetup {
    tandem::session::GameSetup {
        start,
        control: tandem_rules::clock::TimeControl::lookup("90m").expect("control"),
        warnings: tandem::session::DEFAULT_WARNINGS.to_vec(),
        white: None,
        black: None,
        event: None,
        round: None,
        blind,
        lang: "en".into(),
        options: tandem_rules::GameOptions::default(),
    }
}

/// The runtime the daemon's benches run the table on (two workers).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}
