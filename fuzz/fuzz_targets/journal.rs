#![no_main]
//! Journal bytes (what `tandem journal verify`, `--resume` and `pdn export`
//! read): never panic; the good prefix re-reads to the same records with no
//! fault; and the records re-chained (seq and hashes fixed, as a tamperer
//! with the source would) replay without panicking, as `--resume` does.
use libfuzzer_sys::fuzz_target;
use tandem::journal::{line_hash, Journal, Record, GENESIS};
use tandem::session::Table;

fuzz_target!(|data: &[u8]| {
    let j = Journal::parse(data);
    assert!(j.good_len as usize <= data.len());
    let good = Journal::parse(&data[..j.good_len as usize]);
    assert!(good.bad.is_none() && good.torn.is_none());
    assert_eq!(good.records, j.records);
    assert_eq!(good.head, j.head);
    let _ = Table::replay(&j.records);

    // Every line that is a record at all, re-chained: deep replay.
    let mut head = GENESIS.to_owned();
    let mut out = Vec::new();
    let mut n = 0u64;
    let mut last_t = 0u64;
    for line in data.split(|&b| b == b'\n').take(200) {
        let Ok(mut r) = serde_json::from_slice::<Record>(line) else {
            continue;
        };
        n += 1;
        r.seq = n;
        r.prev = head.clone();
        r.t_ms = r.t_ms.max(last_t);
        last_t = r.t_ms;
        let bytes = serde_json::to_vec(&r).expect("a record serializes");
        head = line_hash(&bytes);
        out.extend_from_slice(&bytes);
        out.push(b'\n');
    }
    let chained = Journal::parse(&out);
    if chained.bad.is_none() {
        assert_eq!(chained.records.len() as u64, n);
        assert_eq!(chained.good_len as usize, out.len());
    }
    let _ = Table::replay(&chained.records);
});
