//! `tandem hear`: the exact command line and JSON contract, on transcripts
//! (Polish and English, mis-hearings, illegal moves, commands), and on a real
//! recording through Vosk (libvosk loaded at run time, in the default build).

mod support;

use support::cli::{run_in as tandem_in, run_text as tandem};

/// The speech crate's test recordings and phrasebooks.
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../speech/tests/data");

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = tandem(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert_eq!(out.lines().count(), 1, "one JSON object: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{out}: {e}"))
}

/// `tandem hear ARGS… --json`.
fn hear(args: &[&str]) -> serde_json::Value {
    json(&[&["hear"], args, &["--json"]].concat())
}

/// `tandem hear --lang LANG --fen FEN --text TEXT --json`.
fn hear_at(lang: &str, fen: &str, text: &str) -> serde_json::Value {
    hear(&["--lang", lang, "--fen", fen, "--text", text])
}

/// `tandem hear ARGS… WAV --model MODEL --phrasebook BOOK --json`.
fn recording(args: &[&str], wav: &str, model: &std::path::Path, book: &str) -> serde_json::Value {
    let model = model.to_str().unwrap();
    let tail = [wav, "--model", model, "--phrasebook", book, "--json"];
    json(&[&["hear"], args, &tail].concat())
}

#[test]
fn polish_move_as_json() {
    let v = hear(&["--text", "z trzydziestu dwóch na dwadzieścia osiem"]);
    assert_eq!(
        v,
        serde_json::json!({"kind": "move", "move": "32-28", "confidence": 1.0,
                           "transcript": "z trzydziestu dwóch na dwadzieścia osiem"})
    );
}

#[test]
fn english_capture_and_mishearing() {
    let v = hear_at("en", "W:W27,40:B22,49", "twenty-seven takes eighteen");
    assert_eq!(v["kind"], "move");
    assert_eq!(v["move"], "27x18");
    assert_eq!(v["captured"], serde_json::json!([22]));
    let v = hear(&["--lang", "en", "--text", "thirty too twenty eight"]);
    assert_eq!(
        (v["kind"].as_str(), v["move"].as_str()),
        (Some("move"), Some("32-28"))
    );
    assert!(v["confidence"].as_f64().unwrap() < 1.0);
}

#[test]
fn illegal_moves_are_never_moves() {
    let v = hear(&["--text", "trzydzieści dwa dwadzieścia sześć"]);
    assert_eq!(v["kind"], "illegal");
    assert_eq!(v["reason"], "unreachable");
    let v = hear_at("en", "W:W27,40:B22,49", "forty thirty four");
    assert_eq!(v["kind"], "illegal");
    assert_eq!(v["reason"], "capture-compulsory");
    assert_eq!(v["text"], "40-34");
    assert!(v.get("move").is_none(), "{v}");
    // The reason in the same words `tandem say` uses for that move.
    let (code, said, _) = tandem(&["say", "40-34", "--lang", "en", "--fen", "W:W27,40:B22,49"]);
    assert_ne!(code, 0, "an illegal move is refused by tandem say too");
    assert_eq!(
        v["message"].as_str(),
        Some(said.trim()),
        "tandem hear and tandem say give the same reason"
    );
    assert!(said.starts_with("Capture is compulsory"), "{said}");
}

#[test]
fn commands_ambiguity_and_unknown() {
    let v = hear(&["--text", "zegar"]);
    assert_eq!(
        (v["kind"].as_str(), v["command"].as_str()),
        (Some("command"), Some("clock"))
    );
    let v = hear(&["--lang", "en", "--text", "square thirty two"]);
    assert_eq!(
        (v["command"].as_str(), v["square"].as_u64()),
        (Some("square"), Some(32))
    );
    let v = hear(&[
        "--fen",
        "W:WK15:B9,14,20,28,41",
        "--text",
        "piętnaście bije cztery",
    ]);
    assert_eq!(v["kind"], "ambiguous");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 2);
    let v = hear(&["--lang", "en", "--text", "good morning"]);
    assert_eq!(
        v,
        serde_json::json!({"kind": "unknown", "transcript": "good morning"})
    );
}

#[test]
fn plain_output_and_bad_input() {
    let (code, out, _) = tandem(&["hear", "--lang", "en", "--text", "thirty-two twenty-eight"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("move 32-28"), "{out}");
    let (code, _, err) = tandem(&["hear", "--lang", "xx", "--text", "a"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("unknown language \"xx\": tandem speaks "),
        "{err}"
    );
    let (code, _, err) = tandem(&["hear", "--fen", "not a fen", "--text", "a"]);
    assert_ne!(code, 0);
    assert!(err.contains("--fen"), "{err}");
    let (code, _, _) = tandem(&["hear", "--json"]);
    assert_ne!(code, 0, "a WAVFILE or --text is required");
}

#[test]
fn sixty_four_squares_by_letter_and_annex_e_name() {
    for text in [
        "cé trzy na de cztery",
        "Cezar trzy Dawid cztery",
        "c trzy d cztery",
    ] {
        let v = hear(&["--variant", "sixty-four", "--text", text]);
        assert_eq!(
            (v["kind"].as_str(), v["move"].as_str()),
            (Some("move"), Some("c3-d4")),
            "{text}: {v}"
        );
    }
    let v = hear(&[
        "--variant",
        "sixty-four",
        "--lang",
        "en",
        "--text",
        "Cesar three takes Eva five",
        "--fen",
        "W:W22:B18",
    ]);
    assert_eq!(v["move"], "c3xe5", "{v}");
    let v = hear(&["--variant", "sixty-four", "--text", "ce trzy be dwa"]);
    assert_eq!(
        (v["kind"].as_str(), v["text"].as_str()),
        (Some("illegal"), Some("c3-b2"))
    );
    assert_eq!(v["message"], "Pole be dwa jest zajęte.");
}

#[test]
fn the_phrasebook_file_of_tandem_say_is_the_one_listened_with() {
    let en = concat!(env!("CARGO_MANIFEST_DIR"), "/../speech/phrasebooks/en.toml");
    let v = hear(&[
        "--phrasebook",
        en,
        "--text",
        "from thirty two to twenty eight",
    ]);
    assert_eq!(
        (v["kind"].as_str(), v["move"].as_str()),
        (Some("move"), Some("32-28"))
    );
    let (code, out, _) = tandem(&["say", "32-28", "--phrasebook", en]);
    assert_eq!(code, 0);
    assert!(out.to_lowercase().contains("thirty-two"), "{out}");
    // A user's language file with a missing command is named precisely.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("xx.toml");
    let src = std::fs::read_to_string(en).unwrap();
    std::fs::write(&bad, src.replacen("help = [\"help\"]", "", 1)).unwrap();
    let (code, _, err) = tandem(&["hear", "--phrasebook", bad.to_str().unwrap(), "--text", "a"]);
    assert_ne!(code, 0);
    assert!(err.contains("--phrasebook"), "{err}");
    assert!(err.contains("listen.commands.help"), "{err}");
}

#[test]
fn wav_input_without_libvosk_says_how_to_install_it() {
    // No libvosk where tandem looks: an empty VOSK_LIB_DIR and TANDEM_HOME,
    // and nothing on the loader's own path.
    let empty = tempfile::tempdir().unwrap();
    let wav = format!("{DATA}/ko-33-29.wav");
    let without_vosk = |args: &[&str]| {
        let env = [
            ("VOSK_LIB_DIR", empty.path()),
            ("TANDEM_HOME", empty.path()),
        ];
        tandem_in(args, &env, &["LD_LIBRARY_PATH"])
    };
    let (code, _, err) = without_vosk(&["hear", &wav, "--model", empty.path().to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(
        err.contains("libvosk") && err.contains("scripts/setup.sh"),
        "{err}"
    );
    // Typed transcripts need no libvosk.
    let (code, out, err) = without_vosk(&["hear", "--text", "trzydzieści dwa dwadzieścia osiem"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("32-28"), "{out}");
}

#[test]
fn without_a_model_hear_names_the_command_that_installs_one() {
    let Ok(lib) = tandem_speech::listen::vosk::library() else {
        panic!("libvosk is needed for this test: run scripts/setup.sh");
    };
    let empty = tempfile::tempdir().unwrap();
    let wav = format!("{DATA}/ko-33-29.wav");
    let (code, _, err) = tandem_in(
        &["hear", &wav, "--lang", "en"],
        &[
            ("VOSK_LIB_DIR", lib.path().parent().unwrap()),
            ("TANDEM_HOME", empty.path()),
            ("XDG_DATA_HOME", empty.path()),
        ],
        &["TANDEM_VOSK_MODEL"],
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("no Vosk model for \"en\"") && err.contains("scripts/setup.sh --voice en"),
        "{err}"
    );
}

#[test]
fn hear_finds_the_model_of_the_phrasebook_language_by_itself() {
    let Some(model) = tandem_speech::listen::fixture::korean_model() else {
        return;
    };
    let lib = tandem_speech::listen::vosk::library().expect("libvosk: run scripts/setup.sh");
    // The user's model folder holds the Korean model under a model page's
    // name; the system-wide folder is empty.
    let empty = tempfile::tempdir().unwrap();
    let data_home = tempfile::tempdir().unwrap();
    let models = data_home.path().join("tandem/models");
    std::fs::create_dir_all(&models).unwrap();
    std::os::unix::fs::symlink(&model, models.join("vosk-model-small-ko-0.22")).unwrap();
    let wav = format!("{DATA}/ko-33-29.wav");
    let lex = format!("{DATA}/listen_ko.toml");
    let (code, out, err) = tandem_in(
        &["hear", &wav, "--phrasebook", &lex, "--json"],
        &[
            ("XDG_DATA_HOME", data_home.path()),
            ("TANDEM_HOME", empty.path()),
            ("VOSK_LIB_DIR", lib.path().parent().unwrap()),
        ],
        &["TANDEM_VOSK_MODEL"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["move"], "33-29", "{v}");
}

#[test]
fn a_korean_recording_through_vosk() {
    let Some(model) = tandem_speech::listen::fixture::korean_model() else {
        return;
    };
    let wav = format!("{DATA}/ko-33-29.wav");
    let lex = format!("{DATA}/listen_ko.toml");
    let v = recording(&[], &wav, &model, &lex);
    assert_eq!(
        (v["kind"].as_str(), v["move"].as_str()),
        (Some("move"), Some("33-29")),
        "{v}"
    );
    let (code, _, err) = tandem(&[
        "hear",
        &wav,
        "--model",
        "/nonexistent",
        "--phrasebook",
        &lex,
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("not a Vosk model folder"), "{err}");
}

#[test]
fn a_korean_chess_move_through_vosk() {
    let Some(model) = tandem_speech::listen::fixture::korean_model() else {
        return;
    };
    // espeak-ng's Korean "e2 e4" (files and ranks are numbers in the test book).
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("e2e4.wav");
    tandem_speech::listen::fixture::espeak_korean(&wav, "오, 이, 오, 사");
    let book = format!("{DATA}/chess-ko.toml");
    let chess = ["--variant", "chess"];
    let v = recording(&chess, wav.to_str().unwrap(), &model, &book);
    assert_eq!(
        (v["kind"].as_str(), v["move"].as_str(), v["uci"].as_str()),
        (Some("move"), Some("e4"), Some("e2e4")),
        "{v}"
    );
    // The checked-in "네" is the book's "yes" command.
    let v = recording(&chess, &format!("{DATA}/ko-yes.wav"), &model, &book);
    assert_eq!(
        (v["kind"].as_str(), v["command"].as_str()),
        (Some("command"), Some("yes")),
        "{v}"
    );
}

#[test]
fn a_spoken_question_is_a_query_never_a_move() {
    // Issue 23's exact contract: `"kind": "query"`.
    for (args, query) in [
        (vec!["--text", "rząd piąty"], "row 5"),
        (vec!["--text", "damki przeciwnika"], "opponent kings"),
        (
            vec!["--variant", "chess", "--text", "gdzie są skoczki"],
            "knights",
        ),
        (vec!["--variant", "chess", "--text", "linia Ewa"], "file e"),
        (
            vec!["--variant", "chess", "--lang", "en", "--text", "rank seven"],
            "rank 7",
        ),
        (vec!["--lang", "en", "--text", "kings"], "kings"),
        (
            vec![
                "--variant",
                "backgammon",
                "--dice",
                "31",
                "--text",
                "punkt osiem",
            ],
            "point 8",
        ),
        (
            vec![
                "--variant",
                "backgammon",
                "--lang",
                "en",
                "--text",
                "point eight",
            ],
            "point 8",
        ),
    ] {
        let mut a = vec!["hear", "--json"];
        a.extend(args.iter().copied());
        let v = json(&a);
        assert_eq!(
            (v["kind"].as_str(), v["query"].as_str()),
            (Some("query"), Some(query)),
            "{v}"
        );
    }
    // A move said beside them stays a move.
    let v = json(&[
        "hear",
        "--json",
        "--variant",
        "chess",
        "--text",
        "Ewa dwa Ewa cztery",
    ]);
    assert_eq!(v["kind"], "move", "{v}");
}
