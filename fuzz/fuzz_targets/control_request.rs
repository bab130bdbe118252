#![no_main]
//! Control-socket request lines (the bytes of one line, as the server reads
//! them): never panic; a request that parses serializes and parses back to
//! the same request and the same command.
use libfuzzer_sys::fuzz_target;
use tandem::control::{parse_request, Parsed};

fuzz_target!(|data: &[u8]| {
    if data.len() > tandem::control::MAX_LINE {
        return; // the connection closes before parsing
    }
    match parse_request(data) {
        Parsed::Cmd { request, cmd } => {
            let line = serde_json::to_vec(&request).expect("a request serializes");
            match parse_request(&line) {
                Parsed::Cmd {
                    request: r2,
                    cmd: c2,
                } => {
                    assert_eq!(r2, request);
                    assert_eq!(c2, cmd);
                }
                other => panic!("{request:?} round-tripped to {other:?}"),
            }
        }
        Parsed::Subscribe(_) | Parsed::Empty | Parsed::Error(..) => {}
    }
});
