//! `scripts/setup.sh --voice LANG` (through `scripts/voice-model.sh`, which
//! it calls): a model archive is unpacked only when its SHA-256 is the pinned
//! one or the one the user trusts, and lands where tandem finds it by itself.
//! The Vosk model page cannot be reached from the test machines: the
//! archives here are small stand-ins served from a `file://` folder
//! (`TANDEM_MODELS_URL`), with the real archives' names.

use std::path::Path;
use std::process::{Command, Output};

use sha2::{Digest, Sha256};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/voice-model.sh");

/// `site/NAME.zip` holding `NAME/am/final.mdl` and `NAME/conf/model.conf`.
fn stand_in(site: &Path, name: &str) -> String {
    std::fs::create_dir_all(site).unwrap();
    let zip = site.join(format!("{name}.zip"));
    let st = Command::new("python3")
        .arg("-c")
        .arg(
            "import sys, zipfile\n\
             z = zipfile.ZipFile(sys.argv[1], 'w')\n\
             z.writestr(sys.argv[2] + '/am/final.mdl', 'am')\n\
             z.writestr(sys.argv[2] + '/conf/model.conf', 'conf')\n\
             z.close()",
        )
        .arg(&zip)
        .arg(name)
        .status()
        .expect("python3 (installed by scripts/setup.sh)");
    assert!(st.success());
    format!("{:x}", Sha256::digest(std::fs::read(&zip).unwrap()))
}

fn run(t: &Path, args: &[&str]) -> (Output, String) {
    let out = Command::new("bash")
        .arg(SCRIPT)
        .args(args)
        .env(
            "TANDEM_MODELS_URL",
            format!("file://{}", t.join("site").display()),
        )
        .env("XDG_DATA_HOME", t.join("data"))
        .env("XDG_CACHE_HOME", t.join("cache"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, err)
}

#[test]
fn the_polish_model_is_unpacked_only_with_a_hash_the_user_trusts() {
    let t = tempfile::tempdir().unwrap();
    let name = "vosk-model-small-pl-0.22";
    let hash = stand_in(&t.path().join("site"), name);
    let models = t.path().join("data/tandem/models");

    // No published hash: refused, the download's hash said, the file kept.
    let (out, err) = run(t.path(), &["pl", "--user"]);
    assert!(!out.status.success());
    assert!(
        err.contains("no published SHA-256") && err.contains(&hash),
        "{err}"
    );
    assert!(
        err.contains("scripts/setup.sh --voice pl --sha256"),
        "{err}"
    );
    assert!(!models.join(name).exists());
    let cached = t.path().join(format!("cache/tandem/{name}.zip"));
    assert!(cached.is_file());

    // A wrong hash: refused and the download deleted.
    let wrong = "0".repeat(64);
    let (out, err) = run(t.path(), &["pl", "--user", "--sha256", &wrong]);
    assert!(!out.status.success());
    assert!(err.contains("refused"), "{err}");
    assert!(!cached.exists());
    assert!(!models.join(name).exists());

    // The right one (in capitals, as some tools print it): unpacked where
    // tandem looks first.
    let (out, err) = run(
        t.path(),
        &["pl", "--user", "--sha256", &hash.to_uppercase()],
    );
    assert!(out.status.success(), "{err}");
    assert!(models.join(name).join("am/final.mdl").is_file());
    assert_eq!(
        tandem_speech::listen::models::find_model_in(&models, "pl"),
        Some(models.join(name))
    );
    // Again: nothing to do.
    let (out, _) = run(t.path(), &["pl", "--user"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("already"));
}

#[test]
fn the_english_model_is_checked_against_its_pinned_hash() {
    let t = tempfile::tempdir().unwrap();
    let name = "vosk-model-small-en-us-0.15";
    stand_in(&t.path().join("site"), name);
    let (out, err) = run(t.path(), &["en", "--user"]);
    assert!(!out.status.success());
    assert!(
        err.contains("not 30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"),
        "{err}"
    );
    assert!(!t.path().join("data/tandem/models").join(name).exists());
    let (out, err) = run(t.path(), &["de", "--user"]);
    assert!(!out.status.success());
    assert!(err.contains("pl or en"), "{err}");
}
