//! What `tandem play` says at start about voice input (on by default, no
//! cargo feature): on, with the model it found for `--lang` by itself; or
//! why not (no libvosk, no model for the language, `--voice off`) and the one
//! command that fixes it; the game starts, takes typed moves and speaks
//! either way. The model found is the real Korean one, under a Vosk model
//! page's folder name in a temporary `XDG_DATA_HOME`, heard through the test
//! microphone (ALSA reading a pipe, cpal).

mod support;

use std::path::Path;
use std::time::Duration;

use support::voice::Room;
use support::{Daemon, Play};
use tandem_speech::listen::fixture::korean_phrasebook_path;

use support::journal_events_so_far as journal_events;

fn said(journal: &Path) -> Vec<String> {
    journal_events(journal, "announced")
        .iter()
        .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// A new folder, and an empty folder in it.
fn with_empty() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let empty = t.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    (t, empty)
}

/// A text-only daemon in `dir` (journal `dir/game.jsonl`) with `env`, typing
/// 32-28 once it has said `expect`; returns the daemon and what it said.
fn typed_game(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &Path)],
    remove: &[&str],
    expect: &str,
) -> (Daemon, Vec<String>) {
    let journal = dir.join("game.jsonl");
    let mut play = Play::text_only(dir)
        .arg("--journal")
        .arg(&journal)
        .args(args)
        .stdout_lines();
    for (k, v) in env {
        play = play.env(k, v);
    }
    for k in remove {
        play = play.env_remove(k);
    }
    let mut d = play.start();
    d.wait_stdout(expect, Duration::from_secs(20))
        .unwrap_or_else(|seen| panic!("no {expect:?} on stdout: {seen:?}"));
    d.type_line("32-28");
    d.wait_stdout("Thirty-two", Duration::from_secs(20))
        .unwrap_or_else(|seen| panic!("the typed move was not announced: {seen:?}"));
    let s = said(&journal);
    (d, s)
}

#[test]
fn without_libvosk_tandem_starts_types_speaks_and_says_once_how_to_get_voice_input() {
    let (t, empty) = with_empty();
    let (_d, said) = typed_game(
        t.path(),
        &["--lang", "en"],
        &[("VOSK_LIB_DIR", &empty), ("TANDEM_HOME", &empty)],
        &["LD_LIBRARY_PATH"],
        "libvosk",
    );
    let about: Vec<&String> = said.iter().filter(|s| s.contains("libvosk")).collect();
    assert_eq!(
        about,
        [
            "Voice input does not work: the speech recognition library libvosk is missing. \
          The command scripts/setup.sh installs it."
        ],
        "said once: {said:?}"
    );
    assert!(said.iter().any(|s| s.starts_with("Thirty-two")), "{said:?}");
}

#[test]
fn without_a_model_for_the_language_tandem_names_the_command_that_installs_it() {
    let lib = tandem_speech::listen::vosk::library().expect("libvosk: run scripts/setup.sh");
    let (t, empty) = with_empty();
    let (_d, said) = typed_game(
        t.path(),
        &["--lang", "en"],
        &[
            ("VOSK_LIB_DIR", lib.path().parent().unwrap()),
            ("TANDEM_HOME", &empty),
        ],
        &[],
        "speech model",
    );
    assert!(
        said.contains(
            &"Voice input does not work: there is no speech model for English. \
              The command scripts/setup.sh --voice en installs one."
                .to_owned()
        ),
        "{said:?}"
    );
}

#[test]
fn voice_off_is_said_and_nothing_listens() {
    let t = tempfile::tempdir().unwrap();
    let (_d, said) = typed_game(
        t.path(),
        &["--lang", "en", "--voice", "off"],
        &[],
        &[],
        "Voice input is off.",
    );
    assert!(said.contains(&"Voice input is off.".to_owned()), "{said:?}");
    assert!(journal_events(&t.path().join("game.jsonl"), "microphone").is_empty());
    // The config file says it too.
    let t = tempfile::tempdir().unwrap();
    let conf = t.path().join("config.toml");
    std::fs::write(&conf, "voice = \"off\"\nlang = \"en\"\n").unwrap();
    let (_d, said) = typed_game(
        t.path(),
        &["--config", conf.to_str().unwrap()],
        &[],
        &[],
        "Voice input is off.",
    );
    assert!(said.contains(&"Voice input is off.".to_owned()), "{said:?}");
}

#[test]
fn the_model_of_the_language_is_found_by_itself_and_a_spoken_move_is_heard() {
    let Some((room, model)) = Room::with_model() else {
        return;
    };
    // The user's model folder holds the Korean model under the Polish
    // small model's name; nothing says where it is.
    let data = room.dir.path().join("data");
    let models = data.join("tandem/models");
    std::fs::create_dir_all(&models).unwrap();
    std::os::unix::fs::symlink(&model, models.join("vosk-model-small-pl-0.22")).unwrap();
    room.finds_the_model_and_hears_a_move(&data);
}

#[test]
fn a_missing_microphone_is_said_at_start_and_typed_moves_work() {
    let Some((room, model)) = Room::with_model() else {
        return;
    };
    let mut d = room.play(
        &model,
        &korean_phrasebook_path(),
        &["--mic", "no-such-microphone"],
    );
    d.wait_for("the missing microphone", Duration::from_secs(30), || {
        d.said().iter().any(|s| {
            s.starts_with("Voice input does not work: no microphone")
                && s.contains("no input device named \"no-such-microphone\"")
                && s.contains("tandem voice check")
        })
    });
    d.type_line("32-28");
    d.wait_for("the typed move", Duration::from_secs(10), || {
        d.events_of("move").len() == 1
    });
    assert_eq!(d.events_of("move")[0]["source"], "typed");
    // Voice input is off for this game: nothing listens.
    assert!(d.events_of("microphone").is_empty());
}
