#![no_main]
//! A braille record as liblouis reads it back (`tandem arbiter reconcile
//! JOURNAL RECORD.brf`): the typed record made of it never panics, holds no
//! bracket (clock times are left out), and the record readers take it.
use libfuzzer_sys::fuzz_target;
use tandem::export::brf::typed_record;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for polish in [false, true] {
        let t = typed_record(&text, polish);
        assert!(!t.contains('[') && !t.contains(']'), "{t:?}");
        let _ = tandem_rules::draughts::pdn::parse_pdn(&t);
        let _ = tandem_rules::chess::pgn::parse_pgn(&t);
    }
});
