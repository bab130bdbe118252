#![no_main]
//! The backgammon arbiter's readers from untrusted bytes (a typed sheet, a
//! `.mat` file, Position ID and Match ID text): never panic; a record that
//! reads compares with itself as agreeing as far as it plays.
use libfuzzer_sys::fuzz_target;
use tandem_rules::backgammon::arbiter::{read_ids, read_list, reconcile_match, settle};
use tandem_rules::Color;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = read_ids(text, Color::White);
    if let Ok(mut rec) = read_list(text) {
        let length = rec.length.filter(|n| (1..=64).contains(n)).unwrap_or(7);
        rec.length = Some(length);
        settle(&mut rec);
        let texts = rec.texts();
        let r = reconcile_match(length, &texts, &texts);
        assert!(r.first_difference.is_none() || r.a.illegal.is_some());
        assert_eq!(r.agreed_plies, r.a.legal());
    }
});
