#![no_main]
//! PDN reader and replay: never panic on any input.
use libfuzzer_sys::fuzz_target;
use tandem_rules::pdn::{parse_pdn, replay};
use tandem_rules::Variant;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for g in parse_pdn(&s) {
        let _ = replay(&g, Variant::International);
    }
});
