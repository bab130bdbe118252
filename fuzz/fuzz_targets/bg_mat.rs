#![no_main]
//! Jellyfish `.mat` files from untrusted bytes: the reading as gnubg reads
//! real files (`mat::read`) never panics; a file the strict reading takes
//! (`mat::import`, which is `read` then `MatRead::strict`) exports to a file
//! that imports to the same match.
//!
//! Each input is read once: `import` would read it a second time to get what
//! `strict` makes of this reading (issue 26: the target ran about 350 inputs
//! a second reading every file twice, and each move's legal moves three
//! times over).
use libfuzzer_sys::fuzz_target;
use tandem_rules::backgammon::mat;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(read) = mat::read(text) else {
        return;
    };
    let Ok((m, names)) = read.strict() else {
        return;
    };
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
});
