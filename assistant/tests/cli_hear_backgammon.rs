//! `tandem hear --variant backgammon`: the command line and JSON contract on
//! transcripts (a roll, a move of the roll, the cube, an illegal move with
//! the reason, a command, the pips), in a state given by `--position` and
//! `--dice`; and a recording through the real Vosk with the Korean model
//! and the Korean backgammon test book (`--model`, `--phrasebook`).

mod support;

use support::cli::run_text as tandem;
use tandem_speech::listen::fixture::{espeak_korean, korean_model};

use std::path::Path;

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["hear", "--variant", "backgammon", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = tandem(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert_eq!(out.lines().count(), 1, "one JSON object: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{out}: {e}"))
}

#[test]
fn rolls_moves_the_cube_and_commands_as_json() {
    let v = json(&["--dice", "31", "--text", "osiem pięć sześć pięć"]);
    assert_eq!(
        v,
        serde_json::json!({"kind": "move", "move": "8/5 6/5", "confidence": 1.0,
                           "transcript": "osiem pięć sześć pięć"})
    );
    let v = json(&["--lang", "en", "--text", "double sixes"]);
    assert_eq!(v["move"], "roll 6 6", "{v}");
    let v = json(&["--text", "kontruję"]);
    assert_eq!(v["move"], "double", "{v}");
    let v = json(&["--lang", "en", "--text", "pips"]);
    assert_eq!(
        (&v["kind"], &v["command"]),
        (&"command".into(), &"pips".into()),
        "{v}"
    );
    let v = json(&["--text", "zegar"]);
    assert_eq!(
        (&v["kind"], &v["command"]),
        (&"command".into(), &"clock".into()),
        "{v}"
    );
    // The state from a Position ID (the start) and the dice.
    let v = json(&[
        "--lang",
        "en",
        "--position",
        "4HPwATDgc/ABMA",
        "--dice",
        "31",
        "--text",
        "eight to five six to five",
    ]);
    assert_eq!(v["move"], "8/5 6/5", "{v}");
}

#[test]
fn an_illegal_move_comes_with_the_reason_in_words() {
    let v = json(&["--dice", "31", "--text", "osiem pięć"]);
    assert_eq!(
        (&v["kind"], &v["text"], &v["message"]),
        (
            &"illegal".into(),
            &"8/5".into(),
            &"Trzeba zagrać też jeden.".into()
        ),
        "{v}"
    );
    let (code, out, _) = tandem(&[
        "hear",
        "--variant",
        "backgammon",
        "--lang",
        "en",
        "--text",
        "eight five six five",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "illegal: 8/5 6/5: Roll first.");
    // A bad --dice is a clear error.
    let (code, _, err) = tandem(&[
        "hear",
        "--variant",
        "backgammon",
        "--dice",
        "79",
        "--text",
        "x",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--dice"), "{err}");
}

#[test]
fn a_recording_through_vosk_with_the_korean_book() {
    let Some(model) = korean_model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("roll.wav");
    espeak_korean(&wav, "사, 이");
    let book =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../speech/tests/data/backgammon-ko.toml");
    // `tandem hear WHAT… --variant backgammon --model M --phrasebook BOOK --json`.
    let (model, book) = (model.to_str().unwrap(), book.to_str().unwrap());
    let with_book = [
        "--variant",
        "backgammon",
        "--model",
        model,
        "--phrasebook",
        book,
    ];
    let hear = |what: &[&str]| tandem(&[&["hear"], what, &with_book, &["--json"]].concat());
    let (code, out, err) = hear(&[wav.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // espeak-ng's "4 2" comes back from the model as "사 이" (checked once;
    // both are deterministic): the roll 4-2 before white's roll.
    assert_eq!(
        (&v["kind"], &v["move"], &v["transcript"]),
        (&"move".into(), &"roll 4 2".into(), &"사 이".into()),
        "{v}"
    );
    assert!(!err.contains("does not know"), "every word known: {err}");
    // `--batch`: the same recording against its label, typed as at the table.
    std::fs::write(dir.path().join("labels.tsv"), "roll.wav\t42\n").unwrap();
    let labels = dir.path().join("labels.tsv");
    let (code, out, err) = hear(&[
        "--batch",
        dir.path().to_str().unwrap(),
        "--labels",
        labels.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((&v["files"], &v["correct"]), (&1.into(), &1.into()), "{v}");
}
