#![no_main]
//! Move-text parser and resolution: never panic; a resolved move is legal and its strict text resolves to it.
use libfuzzer_sys::fuzz_target;
use tandem_rules::draughts::notation::{resolve, write_move};
use tandem_rules::draughts::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let positions = [
        Position::start(Variant::International),
        Position::start(Variant::SixtyFour),
        Position::from_fen(Variant::International, "W:WK16:B21,23,33,39").expect("fixed fen"),
    ];
    for p in positions {
        if let Ok(m) = resolve(&p, &s) {
            assert!(p.is_legal(&m));
            assert_eq!(resolve(&p, &write_move(&p, &m)).ok(), Some(m));
        }
    }
});
