//! End to end, backgammon by voice: the real `tandem play --variant
//! backgammon --headless` with the Korean Vosk model (the one model a
//! package ships here) and the Korean BACKGAMMON test phrasebook
//! (`speech/tests/data/backgammon-ko.toml`: points and dice are the
//! Sino-Korean numbers), a microphone that is ALSA reading a named pipe
//! through cpal, and espeak-ng's Korean for the roll and the move (made by
//! the test) and the checked-in "네" (yes), written into the pipe in real
//! time (the microphone and the daemon are `support/voice.rs`'s).
//!
//! The opening roll is said, read back and entered on "네"; then the move
//! of that roll is said, read back in the book's numbers and played on
//! "네": the roll reaches the journal as an `action`, the move as a `move`,
//! both `"source": "spoken"`, each after its `heard` lines. Without the
//! model the test fails with a message, unless `TANDEM_SKIP_REAL` is set
//! outside CI; espeak-ng must be installed.

use std::time::Duration;

mod support;

use support::voice::{data, espeak, wav, Room, VoiceDaemon};

/// Says `audio` once tandem has finished what it said last (the `n`th
/// "correct?" read-back or announcement seen on stdout) and its echo tail.
fn say_after(t: &Room, d: &VoiceDaemon, what: &str, n: usize, audio: &[i16]) {
    d.wait_for(what, Duration::from_secs(30), || {
        d.stdout().iter().filter(|l| l.contains("correct?")).count() >= n
    });
    d.wait_echo_tail();
    t.mic.say(audio);
}

#[test]
fn a_spoken_roll_and_move_are_read_back_and_entered_on_yes() {
    let Some((t, model)) = Room::with_model() else {
        return;
    };
    // The roll said with a comma (espeak-ng runs bare syllables together),
    // the move without (its pauses split "이십"): both checked to come back
    // from Vosk as these words (speech/tests/listen_backgammon_vosk.rs).
    let roll = espeak(t.dir.path(), "roll42", "사, 이");
    let play = espeak(t.dir.path(), "move", "이십 사 이십 이십 사 이십 이");
    let yes = wav("ko-yes.wav");
    let d = t.play(
        &model,
        &data("backgammon-ko.toml"),
        &[
            "--variant",
            "backgammon",
            "--lang",
            "en",
            "--blind",
            "white",
        ],
    );
    d.wait_listening();

    // The opening roll: white's 4, black's 2, read back.
    t.mic.say(&roll);
    let h = d.wait_read_back("the read-back of the roll");
    assert_eq!(
        (&h["kind"], &h["text"]),
        (&"move".into(), &"roll 4 2".into()),
        "{h}"
    );
    assert!(d.state()["dice"].is_null(), "nothing is entered before yes");
    say_after(&t, &d, "the roll's read-back spoken", 1, &yes);
    d.wait_for("the roll after yes", Duration::from_secs(30), || {
        d.state()["dice"] == serde_json::json!([4, 2])
    });
    let actions = d.events_of("action");
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(
        (&actions[0]["source"], &actions[0]["text"]),
        (&"spoken".into(), &"roll 42".into())
    );

    // The move of the roll, read back in the book's numbers.
    d.wait_for("the roll announced", Duration::from_secs(30), || {
        d.stdout().iter().any(|l| l.contains("starts with"))
    });
    d.wait_echo_tail();
    t.mic.say(&play);
    d.wait_for("the read-back of the move", Duration::from_secs(30), || {
        d.events_of("heard")
            .iter()
            .filter(|e| e["decision"] == "read-back")
            .count()
            == 2
    });
    let h = d.events_of("heard");
    let h = h.last().unwrap();
    assert_eq!(
        (&h["kind"], &h["text"], &h["ply"]),
        (&"move".into(), &"24/22 24/20".into(), &1.into()),
        "{h}"
    );
    assert!(
        d.said().iter().any(|s| s.contains("이십 사 to 이십 이")),
        "{:?}",
        d.said()
    );
    say_after(&t, &d, "the move's read-back spoken", 2, &yes);
    d.wait_for("the move after yes", Duration::from_secs(30), || {
        !d.events_of("move").is_empty()
    });
    let moves = d.events_of("move");
    assert_eq!(
        (&moves[0]["source"], &moves[0]["text"], &moves[0]["side"]),
        (&"spoken".into(), &"24/22 24/20".into(), &"white".into()),
        "{moves:?}"
    );
    let st = d.state();
    assert_eq!(st["turn"], "black", "{st}");
    // Every spoken act is on record before it was done.
    let heard = d.events_of("heard");
    assert_eq!(
        heard.iter().filter(|e| e["decision"] == "play").count(),
        2,
        "{heard:?}"
    );
    d.verify_journal();
}
