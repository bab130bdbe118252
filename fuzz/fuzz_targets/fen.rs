#![no_main]
//! FEN parser: never panics; what parses writes back to a FEN that parses to the same position.
use libfuzzer_sys::fuzz_target;
use tandem_rules::draughts::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for v in Variant::ALL {
        if let Ok(p) = Position::from_fen(v, &s) {
            let again = Position::from_fen(v, &p.to_fen()).expect("written FEN parses");
            assert_eq!(again, p);
            let _ = p.legal_moves();
        }
    }
});
