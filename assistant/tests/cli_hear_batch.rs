//! `tandem hear --batch DIR --labels FILE --json`: the exact JSON contract,
//! on Korean recordings through the real Vosk model (the one model a package
//! ships here) and the Korean test phrasebook: espeak-ng's Korean for the
//! nine opening moves and nine commands, the two checked-in recordings
//! (`speech/tests/data/README.md`), one of them also under a wrong label.
//! espeak-ng's Korean and the model understand each other badly (about a
//! third right), which is what a batch is for: each miss is listed with what
//! was heard instead. The figures are in docs/voice.md.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tandem_speech::listen::fixture::{korean_model, korean_phrasebook_path};

/// The recordings made here: file stem, expected answer, Korean words.
const SPOKEN: [(&str, &str, &str); 18] = [
    ("es-31-26", "31-26", "삼십일 이십육"),
    ("es-31-27", "31-27", "삼십일 이십칠"),
    ("es-32-27", "32-27", "삼십이 이십칠"),
    ("es-32-28", "32-28", "삼십이 이십팔"),
    ("es-33-28", "33-28", "삼십삼 이십팔"),
    ("es-33-29", "33-29", "삼십삼 이십구"),
    ("es-34-29", "34-29", "삼십사 이십구"),
    ("es-34-30", "34-30", "삼십사 삼십"),
    ("es-35-30", "35-30", "삼십오 삼십"),
    ("es-clock", "clock", "시계"),
    ("es-position", "position", "위치"),
    ("es-repeat", "repeat", "반복"),
    ("es-help", "help", "도움"),
    ("es-draw", "draw", "무승부"),
    ("es-no", "no", "아니요"),
    ("es-cancel", "cancel", "취소"),
    ("es-resign", "resign", "기권"),
    ("es-done", "done", "완료"),
];

fn espeak(dir: &Path, stem: &str, text: &str) {
    let raw = dir.join(format!("{stem}.raw.wav"));
    let st = Command::new("espeak-ng")
        .args(["-v", "ko", "-s", "150", "-w"])
        .arg(&raw)
        .arg(text)
        .status()
        .expect("espeak-ng must be installed (scripts/setup.sh) for the voice tests");
    assert!(st.success(), "espeak-ng failed for {text:?}");
    // 16 kHz mono with 0.4 s of silence either side, as the checked-in ones.
    let st = Command::new("sox")
        .arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16"])
        .arg(dir.join(format!("{stem}.wav")))
        .args(["pad", "0.4", "0.4"])
        .status()
        .expect("sox must be installed (scripts/setup.sh) for the voice tests");
    assert!(st.success());
    std::fs::remove_file(raw).unwrap();
}

#[test]
fn a_folder_of_korean_recordings_against_its_labels() {
    let Some(model) = korean_model() else { return };
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("recordings");
    std::fs::create_dir(&dir).unwrap();
    let mut labels = String::from("# file\texpected\n");
    for (stem, expected, text) in SPOKEN {
        espeak(&dir, stem, text);
        labels.push_str(&format!("{stem}.wav\t{expected}\n"));
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../speech/tests/data");
    for f in ["ko-33-29.wav", "ko-yes.wav"] {
        std::fs::copy(data.join(f), dir.join(f)).unwrap();
    }
    std::fs::copy(data.join("ko-yes.wav"), dir.join("wrong-label.wav")).unwrap();
    // A move may be labelled as it would be typed: 3329 is 33-29.
    labels.push_str("ko-33-29.wav\t3329\nko-yes.wav\tyes\nwrong-label.wav\t33-29\n");
    let labels_file = t.path().join("labels.tsv");
    std::fs::write(&labels_file, labels).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("hear")
        .arg("--batch")
        .arg(&dir)
        .arg("--labels")
        .arg(&labels_file)
        .arg("--model")
        .arg(&model)
        .arg("--phrasebook")
        .arg(korean_phrasebook_path())
        .arg("--json")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "one JSON object: {stdout}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    // Exactly these fields, in this order.
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["accuracy", "correct", "files", "misses"], "{v}");
    let at = |k: &str| stdout.find(&format!("\"{k}\":")).unwrap();
    assert!(
        stdout.starts_with("{\"files\":")
            && at("files") < at("correct")
            && at("correct") < at("accuracy")
            && at("accuracy") < at("misses"),
        "{stdout}"
    );
    let files = v["files"].as_u64().unwrap();
    let correct = v["correct"].as_u64().unwrap();
    let misses = v["misses"].as_array().unwrap();
    assert_eq!(files, 21, "{v}");
    assert_eq!(correct + misses.len() as u64, files, "{v}");
    let accuracy = v["accuracy"].as_f64().unwrap();
    assert!(
        (accuracy - correct as f64 / files as f64).abs() < 1e-9,
        "{v}"
    );
    for m in misses {
        let mut keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["expected", "file", "heard"], "{m}");
        assert_ne!(m["expected"], m["heard"], "{m}");
    }
    let miss = |f: &str| misses.iter().find(|m| m["file"] == f);
    // The checked recordings are heard as labelled (3329 read as 33-29).
    assert_eq!(miss("ko-33-29.wav"), None, "{v}");
    assert_eq!(miss("ko-yes.wav"), None, "{v}");
    // The same "네" labelled as a move is a miss, with what was heard instead.
    let wrong = miss("wrong-label.wav").expect("the wrong label is a miss");
    assert_eq!(
        (wrong["expected"].as_str(), wrong["heard"].as_str()),
        (Some("33-29"), Some("yes"))
    );
    // For the docs: the figure on the Korean test recordings.
    eprintln!(
        "hear --batch: {correct} of {files} ({:.1} %) as expected; misses: {}",
        accuracy * 100.0,
        misses
            .iter()
            .map(|m| format!("{} heard {}", m["file"], m["heard"]))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

/// `tandem hear --batch DIR --labels LABELS --model MODEL`.
fn batch(dir: &Path, labels: &Path, model: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tandem"));
    c.arg("hear").arg("--batch").arg(dir);
    c.arg("--labels").arg(labels).arg("--model").arg(model);
    c
}

#[test]
fn a_recording_without_a_label_and_a_label_without_a_recording_are_named() {
    let Some(model) = korean_model() else { return };
    let t = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../speech/tests/data");
    std::fs::copy(data.join("ko-yes.wav"), t.path().join("a.wav")).unwrap();
    let labels = t.path().join("labels.tsv");
    std::fs::write(&labels, "b.wav\tyes\n").unwrap();
    let out = batch(t.path(), &labels, &model)
        .arg("--phrasebook")
        .arg(korean_phrasebook_path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no label for a.wav"), "{err}");
    // --labels without --batch, and a bad labels line.
    let out = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["hear", "--labels", "x.tsv"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    std::fs::write(&labels, "a.wav yes\n").unwrap();
    let out = batch(t.path(), &labels, &model).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1") && err.contains("tab"), "{err}");
}
