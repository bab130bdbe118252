//! The desk's own key (docs/hall.md, "The desk's key"), with the real
//! broker (passwords and the ACL), a real `tandem hall` and real tables:
//! `tandem hall keygen` writes a private key only its owner reads and a
//! public key OpenSSL reads; the desk's signed `takeback` and `clock set`
//! are done at the table; a command signed with another key is refused; at
//! a table in a hall the local arbiter's secret is refused, without a hall
//! it works as before; a table in a hall without the desk's public key
//! refuses the desk's commands, saying why.

mod hall_common;
mod support;

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::Command;

use hall_common::{ctl_ok, desk_keys, hall, journal_of, table, wait_for, Desk, EVENT, SECRET};
use support::{Play, TANDEM};

fn openssl(args: &[&str]) -> std::process::Output {
    Command::new("openssl")
        .args(args)
        .output()
        .expect("openssl")
}

#[test]
fn keygen_writes_a_private_key_only_its_owner_reads_and_never_overwrites_it() {
    let dir = tempfile::tempdir().unwrap();
    let (private, public) = desk_keys(dir.path());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&private), 0o600);
    let key_text = std::fs::read_to_string(&private).unwrap();
    let pub_text = std::fs::read_to_string(&public).unwrap();
    assert!(
        key_text.starts_with("-----BEGIN PRIVATE KEY-----\n"),
        "{key_text}"
    );
    assert!(
        pub_text.starts_with("-----BEGIN PUBLIC KEY-----\n"),
        "{pub_text}"
    );
    // OpenSSL reads both as Ed25519, and the public key is the private one's.
    let text = openssl(&["pkey", "-in", private.to_str().unwrap(), "-noout", "-text"]);
    assert!(text.status.success(), "{text:?}");
    assert!(String::from_utf8_lossy(&text.stdout).contains("ED25519 Private-Key"));
    let derived = openssl(&["pkey", "-in", private.to_str().unwrap(), "-pubout"]);
    assert_eq!(String::from_utf8_lossy(&derived.stdout), pub_text);
    // A second keygen into the same folder is refused; the key stays.
    let again = Command::new(TANDEM)
        .args(["hall", "keygen"])
        .arg(dir.path().join("keys"))
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("refusing to overwrite"));
    assert_eq!(std::fs::read_to_string(&private).unwrap(), key_text);
    // The desk refuses a private key others may read, and an old shared
    // secret given as its key, saying what to do.
    let hall = |key: &Path| {
        Command::new(TANDEM)
            .args([
                "hall",
                "--broker",
                "mqtt://desk:pw@127.0.0.1:1",
                "--event",
                EVENT,
            ])
            .args(["--listen", "127.0.0.1:0", "--data"])
            .arg(dir.path().join("data"))
            .arg("--signing-key")
            .arg(key)
            .output()
            .unwrap()
    };
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o644)).unwrap();
    let loose = hall(&private);
    assert!(!loose.status.success());
    let why = String::from_utf8_lossy(&loose.stderr);
    assert!(
        why.contains("may be read by others") && why.contains("chmod 600"),
        "{why}"
    );
    let old = dir.path().join("arbiter-secret");
    std::fs::write(&old, SECRET).unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o600)).unwrap();
    let why = String::from_utf8_lossy(&hall(&old).stderr).into_owned();
    assert!(why.contains("tandem hall keygen"), "{why}");
    // A table given the private key, or the secret, as the desk's key is refused too.
    let out = Command::new(TANDEM)
        .args(["play", "--headless", "--speech", "text"])
        .args(["--braille", "none", "--relay", "mqtt://t:p@127.0.0.1:1"])
        .args(["--event", EVENT, "--table", "1"])
        .arg("--desk-key")
        .arg(&old)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("tandem hall keygen"));
}

fn replies(desk: &Desk, n: u32) -> Vec<serde_json::Value> {
    desk.get(&format!("/api/tables/{n}/detail"))["replies"]
        .as_array()
        .unwrap()
        .clone()
}

/// `tandem ctl` at `socket` with the local arbiter's secret in the environment.
fn ctl_as_arbiter(socket: &Path, args: &[&str]) -> std::process::Output {
    support::ctl_env(socket, args, &[("TANDEM_ARBITER_SECRET", SECRET)])
}

#[test]
fn the_desks_signed_takeback_is_done_and_another_keys_or_the_local_secret_is_not() {
    let (dir, broker, desk) = hall(1);
    let secret = dir.path().join("table-secret");
    std::fs::write(&secret, SECRET).unwrap();
    // The table is given the local arbiter's secret too: in a hall it is not taken.
    let t1 = table(
        dir.path(),
        &broker,
        1,
        &["--arbiter-secret-file", secret.to_str().unwrap()],
    );
    let journal = journal_of(dir.path(), 1);
    ctl_ok(&t1, &["move", "32-28"]);
    ctl_ok(&t1, &["move", "19-23"]);
    desk.wait_table(1, "two plies at the desk", |t| t["ply"] == 2);
    assert!(t1
        .stderr_text()
        .contains("local arbiter's secret is not taken"));

    // The local secret is refused, saying why; nothing is taken back.
    let local = ctl_as_arbiter(&t1.socket, &["takeback", "1", "local"]);
    assert!(!local.status.success());
    let why = String::from_utf8_lossy(&local.stderr);
    assert!(why.contains("in a hall") && why.contains("signed"), "{why}");
    // Said aloud too: the arbiter acts from the desk here.
    let said = [
        "At this table only the arbiter at the hall's desk may do that.",
        "Przy tym stoliku to może zrobić tylko sędzia ze stanowiska sędziowskiego.",
    ];
    wait_for("the refusal said at the table", || {
        let a = support::journal_events(&journal, "announced");
        if a.iter().any(|e| said.iter().any(|s| e["text"] == *s)) {
            Ok(())
        } else {
            Err(format!("{a:?}"))
        }
    });
    let clock = ctl_as_arbiter(&t1.socket, &["clock", "set", "white", "60"]);
    assert!(!clock.status.success());
    assert!(support::journal_events(&journal, "correction").is_empty());
    assert!(support::journal_events(&journal, "clock-set").is_empty());

    // The desk's signed takeback and clock set are done, as the arbiter's.
    let sent = desk.command(Some(1), "takeback", "1 the wrong square");
    assert_eq!(sent["ok"], true, "{sent}");
    let corrections = wait_for("the takeback at table 1", || {
        let c = support::journal_events(&journal, "correction");
        if c.is_empty() {
            Err(format!("{:?}", replies(&desk, 1)))
        } else {
            Ok(c)
        }
    });
    assert_eq!(corrections[0]["plies"], 1);
    assert_eq!(corrections[0]["source"], "arbiter");
    assert_eq!(corrections[0]["reason"], "the wrong square");
    assert_eq!(desk.command(Some(1), "clock", "set white 600")["ok"], true);
    let set = wait_for("the clock set at table 1", || {
        let c = support::journal_events(&journal, "clock-set");
        c.first()
            .cloned()
            .ok_or_else(|| format!("{:?}", replies(&desk, 1)))
    });
    assert_eq!(
        (set["side"].as_str(), set["remaining_ms"].as_u64()),
        (Some("white"), Some(600_000))
    );

    // The same takeback signed with another key (a table's machine has only
    // the public key; any key it could make is another) is refused.
    let other = dir.path().join("other");
    let out = Command::new(TANDEM)
        .args(["hall", "keygen"])
        .arg(&other)
        .output()
        .unwrap();
    assert!(out.status.success());
    let wrong = tandem::desk_key::SigningKey::load(&other.join("desk.key")).unwrap();
    let game = {
        let text = std::fs::read_to_string(&journal).unwrap();
        let first = text.lines().next().unwrap().to_owned();
        use sha2::Digest as _;
        let d = sha2::Sha256::digest(first.as_bytes());
        d.iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    let counter = sent["counter"].as_u64().unwrap() + 1_000_000;
    let forged = tandem::relay::proto::SignedCommand::sign_for(
        &wrong, EVENT, "1", &game, "takeback", "1 forged", counter,
    );
    // Sent by the test's `replayer` (who may write the desk's topics): the
    // desk's own user would push the running desk off the broker.
    assert!(broker.publish(
        "replayer",
        "replaypw",
        &format!("tandem/{EVENT}/desk/cmd/1"),
        &serde_json::to_string(&forged).unwrap()
    ));
    wait_for("the forged takeback refused", || {
        let r = replies(&desk, 1);
        if r.iter().any(|r| {
            r["counter"] == counter
                && r["ok"] == false
                && r["text"].as_str().unwrap().contains("bad signature")
        }) {
            Ok(())
        } else {
            Err(format!("{r:?}"))
        }
    });
    assert_eq!(support::journal_events(&journal, "correction").len(), 1);
    assert_eq!(support::verify_ok(&journal)["ok"], true);
    drop(t1);

    // Without a hall, the local arbiter's secret works as before.
    let alone = dir.path().join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    let own = alone.join("game.jsonl");
    let t = Play::text_only(&alone)
        .arg("--journal")
        .arg(&own)
        .arg("--arbiter-secret-file")
        .arg(&secret)
        .start();
    ctl_ok(&t, &["move", "32-28"]);
    let out = ctl_as_arbiter(&t.socket, &["takeback", "1", "local"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(support::journal_events(&own, "correction").len(), 1);
}

#[test]
fn a_table_in_a_hall_without_the_desks_key_refuses_its_commands() {
    let (dir, broker, desk) = hall(2);
    let tdir = dir.path().join("t2");
    std::fs::create_dir_all(&tdir).unwrap();
    let journal = tdir.join("game.jsonl");
    // `--relay` without `--desk-key`.
    let t2 = Play::text_only(&tdir)
        .arg("--journal")
        .arg(&journal)
        .args([
            "--relay",
            &broker.url("table2", "pw2"),
            "--event",
            EVENT,
            "--table",
            "2",
        ])
        .stderr_file(tdir.join("stderr"))
        .start();
    desk.wait_table(2, "table 2 at the desk", |t| t["clocks"]["running"] == true);
    assert!(
        t2.stderr_text().contains("no --desk-key"),
        "{}",
        t2.stderr_text()
    );
    assert_eq!(desk.command(Some(2), "pause", "")["ok"], true);
    wait_for("table 2's refusal", || {
        let r = replies(&desk, 2);
        if r.iter()
            .any(|r| r["ok"] == false && r["text"].as_str().unwrap().contains("no desk key"))
        {
            Ok(())
        } else {
            Err(format!("{r:?}"))
        }
    });
    assert!(support::journal_events(&journal, "pause").is_empty());
    assert_eq!(desk.table(2).unwrap()["clocks"]["running"], true);
    // Nor does it write the desk's witnesses.
    assert!(support::journal_events(&journal, "witness").is_empty());
}
