#![no_main]
//! PDN reader and replay: never panic on any bytes, and never lose a game
//! to a warning (every game read replays or fails at a ply).
use libfuzzer_sys::fuzz_target;
use tandem_rules::draughts::pdn::{parse_pdn, read_pdn, replay};
use tandem_rules::draughts::Variant;

fuzz_target!(|data: &[u8]| {
    let file = read_pdn(data);
    for g in &file.games {
        let _ = replay(g, Variant::International);
        for w in &g.warnings {
            assert!(w.line >= 1 && w.column >= 1, "{w}");
        }
    }
    assert!(file.games.is_empty() || file.warnings.is_empty());
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = parse_pdn(s);
    }
});
