#![no_main]
//! PGN reader and chess replay: never panic on any bytes.
use libfuzzer_sys::fuzz_target;
use tandem_rules::chess::pgn::{read_pgn, replay};

fuzz_target!(|data: &[u8]| {
    let file = read_pgn(data);
    for g in &file.games {
        let _ = replay(g);
        for w in &g.warnings {
            assert!(w.line >= 1 && w.column >= 1, "{w}");
        }
    }
    assert!(file.games.is_empty() || file.warnings.is_empty());
});
