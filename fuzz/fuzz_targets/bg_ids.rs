#![no_main]
//! GNU Backgammon Position IDs and Match IDs from untrusted text: never
//! panic; what reads writes back the same board or fields.
use libfuzzer_sys::fuzz_target;
use tandem_rules::backgammon::{match_id, position_id};
use tandem_rules::Color;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for turn in [Color::White, Color::Black] {
        if let Ok(board) = position_id::decode(text, turn) {
            let id = position_id::encode(&board);
            assert_eq!(position_id::decode(&id, turn).unwrap(), board);
        }
    }
    if let Ok(info) = match_id::decode(text) {
        assert_eq!(match_id::decode(&match_id::encode(&info)).unwrap(), info);
    }
});
