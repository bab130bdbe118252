#![no_main]
//! Jellyfish `.mat` files from untrusted bytes: never panic; a file that
//! imports exports to a file that imports to the same match; the reading
//! as gnubg reads real files (`mat::read`) never panics, and where it finds
//! nothing the strict reader refuses, both give the same match.
use libfuzzer_sys::fuzz_target;
use tandem_rules::backgammon::mat;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let read = mat::read(text);
    if let Ok((m, names)) = mat::import(text) {
        let out = mat::export(&m, &names);
        let (again, _) = mat::import(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
        // A roll not played yet is left out of the file (as the arbiter's
        // record of a match leaves it out): everything before it reads back.
        let played = match m.actions().split_last() {
            Some((tandem_rules::backgammon::Action::Roll(_), before)) => before,
            _ => {
                assert_eq!(again.position_id(), m.position_id());
                m.actions()
            }
        };
        assert_eq!(again.actions(), played);
        let read = read.unwrap_or_else(|e| panic!("import reads what read refuses: {e}"));
        assert_eq!(read.game.actions(), m.actions());
    }
});
