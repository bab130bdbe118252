//! `tandem say`: the exact command line, its output, its exit codes, and a
//! real WAV written by espeak-ng (measured with sox).

mod support;

use support::cli::run as tandem;

use std::path::Path;
use std::process::Command;

#[test]
fn announces_a_move_from_the_start_position_in_polish() {
    let (code, out, _) = tandem(&["say", "32-28"]);
    assert_eq!(code, 0);
    assert_eq!(out, "Trzydzieści dwa na dwadzieścia osiem.\n");
}

#[test]
fn announces_a_capture_in_english_with_the_pieces_to_take_off() {
    let (code, out, _) = tandem(&["say", "32x3", "--fen", "W:W32:B27,17,8", "--lang", "en"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "Thirty-two takes three. Remove three pieces: twenty-seven, seventeen and eight. Crowned: a king on three.\n"
    );
}

#[test]
fn loose_move_text_and_sixty_four() {
    let (code, out, _) = tandem(&["say", "32 28", "--lang", "en"]);
    assert_eq!((code, out.as_str()), (0, "Thirty-two, twenty-eight.\n"));
    let (code, out, _) = tandem(&["say", "c3-d4", "--variant", "sixty-four"]);
    assert_eq!((code, out.as_str()), (0, "Ce trzy na de cztery.\n"));
}

#[test]
fn illegal_move_gets_the_spoken_reason_and_status_1() {
    let (code, out, _) = tandem(&["say", "40-34", "--fen", "W:W33,40:B28"]);
    assert_eq!(code, 1);
    assert_eq!(out, "Bicie jest obowiązkowe: trzeba zbić jeden pion. Bić może bierka z pola trzydzieści trzy.\n");
    let (code, out, _) = tandem(&["say", "32-26", "--lang", "en"]);
    assert_eq!(
        (code, out.as_str()),
        (1, "The piece on thirty-two cannot reach twenty-six.\n")
    );
}

#[test]
fn json_output() {
    let (code, out, _) = tandem(&["say", "33x22", "--fen", "W:W33:B28", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["legal"], true);
    assert_eq!(v["move"], "33x22");
    assert_eq!(v["priority"], "next");
    assert_eq!(v["kind"], "move");
    assert_eq!(v["lang"], "pl");
    assert_eq!(v["sentences"][1], "Zdejmij z pola dwadzieścia osiem.");
    let (code, out, _) = tandem(&["say", "19-23", "--json", "--lang", "en"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["legal"], false);
    assert_eq!(v["move"], serde_json::Value::Null);
    assert_eq!(v["text"], "The piece on nineteen is black's.");
    assert_eq!(v["error"], "the piece on 19 is not white's");
}

#[test]
fn phrasebook_from_a_file_and_its_errors() {
    let dir = tempfile::tempdir().unwrap();
    let en = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../speech/phrasebooks/en.toml"),
    )
    .unwrap();
    // A user's variant of the English phrasebook, loaded without code.
    let mine = dir.path().join("mine.toml");
    std::fs::write(
        &mine,
        en.replace("quiet = \"{from}, {to}\"", "quiet = \"{from} to {to}\""),
    )
    .unwrap();
    let (code, out, _) = tandem(&["say", "32-28", "--phrasebook", mine.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "Thirty-two to twenty-eight.\n"));
    // A broken one is refused with the key and the placeholder named.
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        en.replace("quiet = \"{from}, {to}\"", "quiet = \"{from}, {too}\""),
    )
    .unwrap();
    let (code, out, err) = tandem(&["say", "32-28", "--phrasebook", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains("template `move.quiet`: placeholder `{too}` is not an argument"),
        "{err}"
    );
    let (code, _, err) = tandem(&["say", "32-28", "--phrasebook", "/nonexistent/x.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/x.toml"), "{err}");
}

#[test]
fn bad_fen_is_a_clear_error() {
    let (code, out, err) = tandem(&["say", "32-28", "--fen", "nonsense"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("tandem: reading --fen \"nonsense\""),
        "{err}"
    );
}

fn sox_stat(path: &Path) -> (f64, f64) {
    let out = Command::new("sox")
        .arg(path)
        .args(["-n", "stat"])
        .output()
        .expect("sox (install the sox package)");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    let field = |name: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name} in sox output: {text}"))
    };
    (field("Length (seconds)"), field("RMS     amplitude"))
}

#[test]
fn wav_holds_real_speech_in_both_languages() {
    if !tandem_testkit::require_program(
        "espeak-ng",
        &["--version"],
        "espeak-ng (apt-get install espeak-ng)",
    ) || !tandem_testkit::require_program("sox", &["--version"], "sox (apt-get install sox)")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for lang in ["pl", "en"] {
        let wav = dir.path().join(format!("{lang}.wav"));
        let (code, out, err) = tandem(&[
            "say",
            "32x3",
            "--fen",
            "W:W32:B27,17,8",
            "--lang",
            lang,
            "--wav",
            wav.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(code, 0, "{err} (needs espeak-ng)");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["wav"], wav.to_str().unwrap());
        let (seconds, rms) = sox_stat(&wav);
        assert!(
            seconds > 3.0,
            "{lang}: {seconds} s is too short for the announcement"
        );
        assert!(rms > 0.02, "{lang}: rms {rms} is too quiet to be speech");
    }
    // An illegal move is also written as speech (the reason), with status 1.
    let wav = dir.path().join("illegal.wav");
    let (code, _, _) = tandem(&["say", "32-26", "--wav", wav.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(sox_stat(&wav).0 > 1.5);
}

#[test]
fn backgammon_says_the_roll_then_the_move_and_refuses_what_the_rules_refuse() {
    let start = "4HPwATDgc/ABMA:cAkAAAAAAAAA";
    let (code, out, err) = tandem(&[
        "say",
        "8/5 6/5",
        "--variant",
        "backgammon",
        "--fen",
        start,
        "--dice",
        "31",
        "--lang",
        "en",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["legal"], true, "{v}");
    assert_eq!(v["move"], "8/5 6/5", "{v}");
    assert_eq!(v["variant"], "backgammon");
    let sentences = v["sentences"].as_array().unwrap();
    assert_eq!(sentences.len(), 2, "the roll, then the move: {v}");
    assert!(sentences[0].as_str().unwrap().contains("three one"), "{v}");
    // The opening 3-1 is black's to play here; the blind player (white by
    // default) hears it in white's numbers: 8/5 6/5 is 17/20 19/20.
    assert_eq!(
        sentences[1], "Black: seventeen to twenty, nineteen to twenty.",
        "{v}"
    );

    // A move the roll does not allow: the reason, spoken, exit 1.
    let (code, out, _) = tandem(&[
        "say",
        "8/1",
        "--variant",
        "backgammon",
        "--fen",
        start,
        "--dice",
        "31",
        "--lang",
        "en",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.trim().is_empty());
    // Dice that are not dice, and no roll at all: refused with the words.
    let (code, out, _) = tandem(&[
        "say",
        "8/5",
        "--variant",
        "backgammon",
        "--fen",
        start,
        "--dice",
        "77",
        "--lang",
        "en",
    ]);
    assert_eq!((code, out.as_str()), (1, "Dice show one to six.\n"));
    let (code, out, _) = tandem(&["say", "8/5", "--variant", "backgammon", "--lang", "en"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("roll the opening dice"), "{out}");
}

/// `--lang` and a seat's `lang=` take every language with data
/// (docs/languages.md); another is refused, for every game and command,
/// with the languages tandem knows.
#[test]
fn an_unknown_language_is_refused_with_the_known_ones_everywhere() {
    let state = tempfile::tempdir().unwrap();
    let mut runs = says_in("xx");
    runs.extend([
        vec!["arbiter", "diff", "W:W28:B19", "W:W32:B19", "--lang", "xx"],
        vec!["hear", "--text", "a", "--lang", "xx"],
        vec!["play", "--headless", "--lang", "xx"],
        vec!["play", "--headless", "--seat", "white:lang=xx"],
    ]);
    for args in runs {
        let (code, _, err) = support::cli::run_in(&args, &[("XDG_STATE_HOME", state.path())], &[]);
        assert_ne!(code, 0, "{args:?}");
        assert!(
            err.contains("unknown language \"xx\": tandem speaks "),
            "{args:?}: {err}"
        );
        // The list: every language with a phrasebook file.
        for lang in known_languages() {
            assert!(err.contains(&lang), "{args:?} does not name {lang}: {err}");
        }
    }
    // Every known language is taken by the same options.
    for lang in known_languages() {
        for args in says_in(&lang) {
            let (code, out, err) = tandem(&args);
            assert_eq!(code, 0, "{args:?}: {err}");
            assert!(!out.trim().is_empty(), "{args:?}");
        }
    }
}

/// `tandem say` of a draughts, a chess and a backgammon move in `lang`.
fn says_in(lang: &str) -> Vec<Vec<&str>> {
    vec![
        vec!["say", "32-28", "--lang", lang],
        vec!["say", "--variant", "chess", "Nf3", "--lang", lang],
        vec![
            "say",
            "--variant",
            "backgammon",
            "--dice",
            "31",
            "8/5 6/5",
            "--lang",
            lang,
        ],
    ]
}

/// Every language with a phrasebook file (`speech/phrasebooks/LANG.toml`).
fn known_languages() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../speech/phrasebooks");
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|f| {
            let name = f.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".toml").map(str::to_owned)
        })
        .collect()
}
