//! Witnessed journals (docs/hall.md, "Witnessed journals"; docs/protocol.md,
//! "Witnesses"), with the real broker (passwords and the ACL), a real
//! `tandem hall` and a real table: the desk's witness comes back into the
//! table's journal as a `witness` line; `tandem journal verify --desk-key`
//! passes on it, and fails, naming the witness line and the line, once an
//! early line is edited and the chain computed again (here, with sha2, as
//! docs/protocol.md describes the chain: not with tandem's code); another
//! desk's key fails; stripped witnesses fail only `--require-witness`. The
//! witness lines are no game content: the PDN export and `--resume` read
//! the journal as before.

mod hall_common;
mod support;

use std::path::Path;
use std::process::Command;

use hall_common::chain::{lines_of, rechain, sha256_hex, verify, witness_of_line};
use hall_common::{
    ctl_ok, desk_keys, hall, journal_records, seqs_of, table, wait_for, wait_witness_of,
    witness_of, witnessed, Witnessed,
};
use serde_json::Value;
use support::{run_ok, TANDEM};

fn write_lines(path: &Path, lines: &[String]) {
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

fn verify_text(journal: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(TANDEM)
        .args(["journal", "verify"])
        .args(args)
        .arg(journal)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_journal_rewritten_before_its_witness_fails_verify_with_the_desks_key() {
    let dir = tempfile::tempdir().unwrap();
    // Witnesses every 300 ms (10 s by default), so the test waits little.
    let Witnessed {
        broker,
        desk,
        key,
        table: t1,
        journal,
    } = witnessed(dir.path(), "300");
    let key = key.as_str();
    for m in ["32-28", "19-23", "28x19", "14x23"] {
        ctl_ok(&t1, &["move", m]);
    }
    // The clock stopped: no more checkpoints (`tick` lines), so the journal
    // comes to rest once its last lines are witnessed.
    ctl_ok(&t1, &["pause"]);
    let records = || journal_records(&journal);
    let first_move = seqs_of(&journal, "move")[0];
    let paused = *seqs_of(&journal, "pause").last().unwrap();
    // The desk witnesses the head it holds: a witness line naming a line at
    // or after the last move comes into the table's journal.
    let witness = wait_witness_of("a witness of the moves in the journal", &journal, paused);
    let w = &witness["event"];
    assert_eq!(
        (w["table"].as_u64(), w["event"].as_str()),
        (Some(1), Some("EV"))
    );
    assert_eq!(w["sig"].as_str().unwrap().len(), 128);
    // The desk's copy takes the witness lines like any line.
    desk.wait_copy(1, &journal);
    drop(t1);
    let lines = lines_of(&journal);
    // A witness line alone never makes the desk witness again (no loop):
    // between two witnessed lines there is always a line that is not a
    // witness line.
    let all = records();
    let is_witness =
        |seq: u64| all[usize::try_from(seq).unwrap() - 1]["event"]["type"] == "witness";
    let named: Vec<u64> = all
        .iter()
        .filter(|r| r["event"]["type"] == "witness")
        .map(|r| r["event"]["line"].as_u64().unwrap())
        .collect();
    let witnesses = named.len();
    assert!(witnesses >= 1);
    for pair in named.windows(2) {
        assert!(
            (pair[0] + 1..=pair[1]).any(|s| !is_witness(s)),
            "witnessed {pair:?} with only witness lines between"
        );
    }

    // verify with the desk's key: every witness holds.
    let (ok, v) = verify(&journal, &["--desk-key", key]);
    assert!(ok, "{v}");
    assert_eq!(v["witnesses"]["checked"].as_u64(), Some(witnesses as u64));
    assert!(v["witnesses"]["witnessed_to"].as_u64() >= Some(paused));
    let (ok, text) = verify_text(&journal, &["--desk-key", key, "--require-witness"]);
    assert!(ok && text.contains("are as the desk held them"), "{text}");
    // Without the key: the chain as before, and the witnesses counted, not checked.
    let (ok, v) = verify(&journal, &[]);
    assert!(ok, "{v}");
    assert_eq!(v["witnesses"]["unchecked"].as_u64(), Some(witnesses as u64));
    let (_, text) = verify_text(&journal, &[]);
    assert!(
        text.contains("chain intact") && text.contains("NOT checked"),
        "{text}"
    );

    // The first move edited (the input as typed) and the chain computed again.
    let edited = dir.path().join("edited.jsonl");
    let mut e = lines.clone();
    let i = usize::try_from(first_move).unwrap() - 1;
    assert!(e[i].contains("\"input\":\"32-28\""), "{}", e[i]);
    e[i] = e[i].replacen("\"input\":\"32-28\"", "\"input\":\"32 28\"", 1);
    rechain(&mut e, i + 2);
    write_lines(&edited, &e);
    // The chain alone cannot tell…
    let (ok, v) = verify(&edited, &[]);
    assert!(ok, "the rechained journal's chain holds: {v}");
    // …the desk's witness does, naming the witness line and the line.
    let (ok, v) = verify(&edited, &["--desk-key", key]);
    assert!(!ok, "{v}");
    let bad = &v["witnesses"]["bad"];
    let first_witness = witness_of(&records(), first_move).unwrap();
    assert_eq!(bad["witness_line"], first_witness["seq"], "{v}");
    assert_eq!(bad["line"], first_witness["event"]["line"], "{v}");
    let (ok, text) = verify_text(&edited, &["--desk-key", key]);
    assert!(!ok);
    assert!(
        text.contains(&format!("witness line {}", first_witness["seq"]))
            && text.contains(&format!(
                "line {} is not as the desk held it",
                first_witness["event"]["line"]
            )),
        "{text}"
    );

    // Another desk's key: the witnesses are not its.
    let other = dir.path().join("other");
    assert!(Command::new(TANDEM)
        .args(["hall", "keygen"])
        .arg(&other)
        .status()
        .unwrap()
        .success());
    let (ok, v) = verify(
        &journal,
        &["--desk-key", other.join("desk.pub").to_str().unwrap()],
    );
    assert!(!ok, "{v}");
    assert!(v["witnesses"]["bad"]["reason"]
        .as_str()
        .unwrap()
        .contains("not signed by the desk's key"));

    // Every witness line removed and the chain computed again: the chain
    // and the key find nothing wrong (there is nothing to check), and only
    // --require-witness refuses it.
    let stripped = dir.path().join("stripped.jsonl");
    let mut s: Vec<String> = lines
        .iter()
        .filter(|l| !l.contains("\"type\":\"witness\""))
        .cloned()
        .collect();
    for (k, l) in s.iter_mut().enumerate() {
        let v: Value = serde_json::from_str(l).unwrap();
        let old = v["seq"].as_u64().unwrap();
        *l = l.replacen(
            &format!("{{\"seq\":{old},"),
            &format!("{{\"seq\":{},", k + 1),
            1,
        );
    }
    rechain(&mut s, 2);
    write_lines(&stripped, &s);
    let (ok, v) = verify(&stripped, &["--desk-key", key]);
    assert!(ok && v["witnesses"]["lines"] == 0, "{v}");
    let (ok, text) = verify_text(&stripped, &["--desk-key", key, "--require-witness"]);
    assert!(!ok && text.contains("no witness line"), "{text}");

    // No game content: the PDN export has the moves, and the table resumes
    // its journal with the witness lines in it.
    let pdn = run_ok(
        Command::new(TANDEM).args(["pdn", "export"]).arg(&journal),
        "tandem pdn export",
    );
    let pdn = String::from_utf8_lossy(&pdn.stdout);
    assert!(pdn.contains("32-28") && pdn.contains("14x23"), "{pdn}");
    let mut announcements = Command::new(TANDEM);
    announcements
        .args(["arbiter", "announcements"])
        .arg(&journal);
    run_ok(&mut announcements, "tandem arbiter announcements");
    let t1 = table(dir.path(), &broker, 1, &[]);
    let mut c = t1.client();
    let st = support::wait_ply(&mut c, 4);
    assert_eq!(st["result"], Value::Null, "{st}");
    // The desk's own witnesses, come back in the journal, raise nothing.
    assert!(
        !desk
            .alerts()
            .iter()
            .any(|a| a["alert"]["kind"] == "witness"),
        "{:?}",
        desk.alerts()
    );
}

/// A witness line the desk never signed, coming back in a table's journal
/// (a forged one, or one of a journal rewritten since), is an alert at the
/// desk (`witness`) naming its line; one the desk signed is not. The lines
/// are relayed as table 2 would (`mosquitto_pub` with its password), the
/// valid witness signed in the test with the desk's key file.
#[test]
fn a_witness_the_desk_never_signed_is_an_alert_at_the_desk() {
    use tandem::journal::Event;
    let (dir, broker, desk) = hall(2);
    let (private, _) = desk_keys(dir.path());
    let key = tandem::desk_key::SigningKey::load(&private).unwrap();
    let path = dir.path().join("forged.jsonl");
    let mut w = hall_common::started(&path, "W");
    w.append(1000, Event::Tick).unwrap();
    let so_far = lines_of(&path);
    let mut witness = witness_of_line(hall_common::EVENT, 2, &so_far, 2);
    witness.sig = key.sign(&witness.signed_bytes());
    w.append(1100, Event::Witness(witness.clone())).unwrap();
    // The same witness "signed" by someone without the desk's key.
    let mut forged = witness;
    forged.sig = "ab".repeat(64);
    w.append(1200, Event::Witness(forged)).unwrap();
    drop(w);
    let all = lines_of(&path);
    let game = sha256_hex(all[0].as_bytes());
    for (i, l) in all.iter().enumerate() {
        let msg = serde_json::json!({"seq": i + 1, "hash": sha256_hex(l.as_bytes()), "line": l,
                                     "game": game});
        assert!(broker.publish(
            "table2",
            "pw2",
            &format!("tandem/{}/table/2/journal", hall_common::EVENT),
            &msg.to_string()
        ));
    }
    desk.wait_table(2, "the four lines at the desk", |t| t["journal_lines"] == 4);
    let alerts = wait_for("the witness alert", || {
        let a: Vec<Value> = desk
            .alerts()
            .into_iter()
            .filter(|a| a["alert"]["kind"] == "witness")
            .collect();
        if a.is_empty() {
            Err(format!("{:?}", desk.alerts()))
        } else {
            Ok(a)
        }
    });
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    let text = alerts[0]["alert"]["text"].as_str().unwrap();
    assert!(
        text.contains("journal line 4") && text.contains("not signed by this desk's key"),
        "{text}"
    );
}
