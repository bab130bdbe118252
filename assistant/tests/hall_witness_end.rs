//! The end of every game is witnessed at once (issue 45), with the real
//! broker, a real `tandem hall` and a real table: however long the desk's
//! witnessing period, the game's result line (and every line since the
//! last witness) is witnessed as soon as the desk takes it, so an early
//! move rewritten and the lines rechained fails `tandem journal verify
//! --desk-key` even when the table stops right after the result. And a
//! witness correctly signed with the desk's key but for another line's
//! hash, another game, table or event does not hold (journals written
//! here, signed with the desk's key as the desk signs).

mod hall_common;
mod support;

use std::path::Path;

use hall_common::chain::{lines_of, rechain, sha256_hex, verify, witness_of_line};
use hall_common::{
    ctl_ok, desk_keys, journal_records, seqs_of, started, wait_for, wait_witness_of, witnessed,
};
use serde_json::Value;
use tandem::journal::witness::Witness;
use tandem::journal::Event;

#[test]
fn a_game_that_ends_soon_after_a_witness_has_its_result_witnessed_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // A period of an hour: after the first head, only the end of the game
    // is witnessed before the test is over.
    let w = witnessed(dir.path(), "3600000");
    let (desk, t1, journal) = (w.desk, w.table, w.journal);
    let key = w.key.as_str();
    let records = || journal_records(&journal);
    // The first head is witnessed at once.
    wait_for("the first witness", || {
        records()
            .iter()
            .find(|r| r["event"]["type"] == "witness")
            .cloned()
            .ok_or_else(|| "none yet".to_owned())
    });
    for m in ["32-28", "19-23", "28x19", "14x23"] {
        ctl_ok(&t1, &["move", m]);
    }
    // A quick resignation: the game's end.
    ctl_ok(&t1, &["resign"]);
    let result = seqs_of(&journal, "result")[0];
    let first_move = seqs_of(&journal, "move")[0];
    // Witnessed at once, within the period: a witness naming the result or after.
    wait_witness_of("a witness of the result", &journal, result);
    // The table stops right after.
    drop(t1);
    drop(desk);
    let (ok, v) = verify(&journal, &["--desk-key", key]);
    assert!(ok, "{v}");
    assert!(
        v["witnesses"]["witnessed_to"].as_u64() >= Some(result),
        "{v}"
    );

    // The first move rewritten and the chain computed again: the desk's
    // witness of the result tells.
    let edited = dir.path().join("edited.jsonl");
    let mut e = lines_of(&journal);
    let i = usize::try_from(first_move).unwrap() - 1;
    assert!(e[i].contains("\"input\":\"32-28\""), "{}", e[i]);
    e[i] = e[i].replacen("\"input\":\"32-28\"", "\"input\":\"32 28\"", 1);
    rechain(&mut e, i + 2);
    std::fs::write(&edited, e.join("\n") + "\n").unwrap();
    let (ok, v) = verify(&edited, &[]);
    assert!(ok, "the rechained chain holds: {v}");
    let (ok, v) = verify(&edited, &["--desk-key", key]);
    assert!(!ok, "a rewritten game passed with the desk's key: {v}");
    let bad = &v["witnesses"]["bad"];
    assert!(bad["line"].as_u64() >= Some(first_move), "{v}");
}

/// A change made to a good witness (the journal's lines at hand).
type Forge = dyn Fn(&mut Witness, &[String]);

/// A journal of a few lines (its game begun, two lines), a good witness of
/// line 3 signed with the desk's key, and `forged` made from that witness
/// and signed as correctly: what `tandem journal verify --desk-key` says.
fn with_forged(dir: &Path, name: &str, forge: impl Fn(&mut Witness, &[String])) -> (bool, Value) {
    let (private, public) = desk_keys(dir);
    let signer = tandem::desk_key::SigningKey::load(&private).unwrap();
    let path = dir.join(format!("{name}.jsonl"));
    let mut w = started(&path, "Kowalski");
    for (t, text) in [(1000, "one"), (2000, "two")] {
        w.append(
            t,
            Event::Say {
                text: text.into(),
                seat: None,
                source: None,
            },
        )
        .unwrap();
    }
    let lines = lines_of(&path);
    let mut good = witness_of_line("EV", 1, &lines, 3);
    good.sig = signer.sign(&good.signed_bytes());
    let mut bad = good.clone();
    forge(&mut bad, &lines);
    bad.sig = signer.sign(&bad.signed_bytes());
    w.append(3000, Event::Witness(good)).unwrap();
    w.append(4000, Event::Witness(bad)).unwrap();
    drop(w);
    verify(&path, &["--desk-key", public.to_str().unwrap()])
}

#[test]
fn a_witness_signed_by_the_desk_for_another_hash_game_table_or_event_does_not_hold() {
    let dir = tempfile::tempdir().unwrap();
    // The good witness alone (the forged one made equal to it) holds.
    let (ok, v) = with_forged(dir.path(), "same", |_, _| {});
    assert!(ok, "{v}");
    assert_eq!(v["witnesses"]["checked"], 2, "{v}");
    let cases: [(&str, &Forge, &str); 4] = [
        (
            "hash",
            &|w, lines| w.hash = sha256_hex(lines[1].as_bytes()),
            "is not as the desk held it",
        ),
        ("game", &|w, _| w.game = "ab".repeat(32), "another game"),
        ("table", &|w, _| w.table = 2, "not the table"),
        ("event", &|w, _| w.event = "OTHER".into(), "not the table"),
    ];
    for (name, forge, says) in cases {
        let (ok, v) = with_forged(dir.path(), name, forge);
        assert!(!ok, "a witness for another {name} held: {v}");
        let bad = &v["witnesses"]["bad"];
        assert_eq!(bad["witness_line"], 5, "{name}: {v}");
        assert!(
            bad["reason"].as_str().unwrap().contains(says),
            "{name}: {v}"
        );
    }
}
