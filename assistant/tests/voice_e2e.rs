//! End to end: the real `tandem play --headless` with voice input: the
//! Korean Vosk model (the one model a package ships here) and the Korean test
//! phrasebook, a microphone that is ALSA reading a named pipe through cpal
//! (as `speech/tests/listen_mic.rs` does), and espeak-ng's recordings of
//! "삼십삼 이십구" (33-29) and "네" (yes) written into it in real time, in
//! whole blocks of what cpal reads at a time (`MIC_BLOCK`).
//!
//! The microphone, the loudspeaker and the daemon are `support/voice.rs`'s.
//! The daemon gets its own ALSA configuration through `ALSA_CONFIG_PATH` in
//! its environment only. The tests run one at a time (each loads the model).
//! Without the model they fail with a message, unless `TANDEM_SKIP_REAL` is set outside CI.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tandem_speech::listen::fixture::korean_phrasebook_path;

mod support;

use support::voice::{wav, Room, Speaker, BLOCK_TIME};
use support::TANDEM;

#[test]
fn a_spoken_move_is_read_back_and_played_on_yes() {
    let Some((t, model)) = Room::with_model() else {
        return;
    };
    let d = t.play(&model, &korean_phrasebook_path(), &[]);
    d.wait_listening();

    t.mic.say(&wav("ko-33-29.wav"));
    // The heard line, the read-back's announced line and its text on stdout
    // are written one after the other: wait for all three.
    d.wait_for("the read-back of 33-29", Duration::from_secs(30), || {
        d.events_of("heard")
            .iter()
            .any(|e| e["decision"] == "read-back")
            && d.said().iter().any(|s| s.contains("맞습니까"))
            && d.stdout().iter().any(|l| l.contains("맞습니까"))
    });
    let heard = d.events_of("heard");
    let h = heard.last().unwrap();
    assert_eq!(h["kind"], "move", "{h}");
    assert_eq!(h["text"], "33-29", "{h}");
    assert_eq!(h["ply"], 0);
    assert!(!h["transcript"].as_str().unwrap().is_empty(), "{h}");
    assert!(h["confidence_pct"].as_u64().unwrap() > 0, "{h}");
    // Read back in the phrasebook's words ("{move}, 맞습니까?"), not played.
    let said = d.said();
    assert!(
        said.iter().any(|s| s.contains("맞습니까")),
        "no read-back said: {said:?}"
    );
    assert!(
        d.stdout().iter().any(|l| l.contains("맞습니까")),
        "the read-back was not spoken (text speech on stdout)"
    );
    assert_eq!(d.state()["ply"], 0, "nothing is played before yes");

    // After the read-back has been spoken (seen on stdout) and its echo tail, "yes".
    d.wait_echo_tail();
    t.mic.say(&wav("ko-yes.wav"));
    d.wait_for("the move after yes", Duration::from_secs(30), || {
        d.state()["ply"] == 1
    });
    let st = d.state();
    assert_eq!(st["moves"][0], "33-29", "{st}");
    assert_eq!(st["turn"], "black");
    assert!(d.yes_played(), "{:?}", d.events_of("heard"));
    let moves = d.events_of("move");
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0]["source"], "spoken");
    assert_eq!(moves[0]["text"], "33-29");
    // Announced like a typed move, after the journal line.
    let (ok, out) = d.ctl(&["last"]);
    assert!(ok, "{out}");
    // `listen` turns listening off: "yes" is not heard; on again, it is.
    let (ok, out) = d.ctl(&["listen"]);
    assert!(ok && out.contains("Not listening"), "{out}");
    // The voice thread takes the switch before the next frame it reads, so
    // before any frame of this "yes" (queued after the reply).
    t.mic.say(&wav("ko-yes.wav"));
    // Then silence longer than the pipe's buffer, so that once the queue is
    // fed every frame of the "yes" has been read while not listening.
    t.mic.silence(Duration::from_secs(3));
    t.mic.wait_fed(Duration::from_secs(60));
    let (ok, out) = d.ctl(&["listen"]);
    assert!(ok && out.contains("Listening"), "{out}");
    d.wait_for("Listening. on stdout", Duration::from_secs(30), || {
        d.stdout().iter().any(|l| l.contains("Listening."))
    });
    d.wait_echo_tail();
    // The marker: a "yes" said while listening is heard. Had the first one
    // been heard, its line would come before "Listening." in the journal.
    t.mic.say(&wav("ko-yes.wav"));
    // The heard line and the answer's announced line come one after the
    // other: wait for both.
    d.wait_for(
        "yes heard again and answered",
        Duration::from_secs(30),
        || {
            d.events_of("heard")
                .iter()
                .any(|e| e["decision"] == "command")
                && d.said().iter().any(|s| s.contains("nothing to confirm"))
        },
    );
    let events = d.events();
    let off = events
        .iter()
        .position(|e| e["type"] == "announced" && e["text"] == "Not listening.")
        .expect("Not listening. journaled");
    let on = events
        .iter()
        .position(|e| e["type"] == "announced" && e["text"] == "Listening.")
        .expect("Listening. journaled");
    let heard_while_off: Vec<_> = events[off..on]
        .iter()
        .filter(|e| e["type"] == "heard")
        .collect();
    assert!(
        heard_while_off.is_empty(),
        "heard while not listening: {heard_while_off:?}"
    );
    let after: Vec<_> = events[on..]
        .iter()
        .filter(|e| e["type"] == "heard")
        .collect();
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0]["text"], "yes", "{after:?}");
    assert_eq!(after[0]["decision"], "command", "{after:?}");
    assert!(
        d.said().last().unwrap().contains("nothing to confirm"),
        "a bare yes confirms nothing: {:?}",
        d.said()
    );
    // The journal is intact with the new events in it.
    d.verify_journal();
}

#[test]
fn while_tandem_speaks_through_real_espeak_paced_by_a_test_speaker_nothing_is_heard() {
    let Some((t, model)) = Room::with_model() else {
        return;
    };
    let speaker = Speaker::start(t.spk_fifo.clone());
    let d = t.play(&model, &korean_phrasebook_path(), &["--speech", "espeak"]);
    d.wait_listening();
    // Let the start announcements ("백 차례", whether voice input is on)
    // finish playing: they were queued before the microphone opened, so
    // once one has played and none is playing, the speaker is quiet.
    d.wait_for(
        "the start announcement to be played",
        Duration::from_secs(60),
        || {
            let played = speaker.playing.lock().unwrap().len();
            played > 0 && speaker.started.lock().unwrap().len() == played
        },
    );
    let before = speaker.playing.lock().unwrap().len();
    let opened = speaker.started.lock().unwrap().len();

    // A long sentence: several seconds through the speaker.
    let long = "삼십 삼 이십 구 삼십 이 이십 팔 삼십 일 이십 칠 삼십 사 이십 구 \
                삼십 삼 이십 구 삼십 이 이십 팔 삼십 일 이십 칠 삼십 사 이십 구";
    let (ok, out) = d.ctl(&["say", long]);
    assert!(ok, "{out}");
    // Once the speaker is playing it (and a little into it), the utterance.
    d.wait_for(
        "the sentence to start playing",
        Duration::from_secs(60),
        || speaker.started.lock().unwrap().len() > opened,
    );
    std::thread::sleep(Duration::from_millis(300));
    let injected = Instant::now();
    // The whole file, its silences too, from the next block on.
    let utterance_end = injected + t.mic.say(&wav("ko-33-29.wav")) + BLOCK_TIME;
    // Wait until the speaker has played it all.
    d.wait_for("the sentence to be played", Duration::from_secs(60), || {
        speaker.playing.lock().unwrap().len() > before
    });
    let (start, end) = *speaker.playing.lock().unwrap().last().unwrap();
    assert!(
        start < injected && end > utterance_end,
        "the utterance was not said while tandem spoke: speech {:?}..{:?} after start, utterance at {:?}",
        Duration::ZERO,
        end - start,
        injected - start
    );
    // The same utterance when tandem is quiet is heard: the microphone
    // worked. It comes after the first in the microphone's stream, so had
    // the first been heard, its line would be in the journal first.
    d.wait_echo_tail();
    t.mic.say(&wav("ko-33-29.wav"));
    d.wait_for(
        "the utterance said in quiet",
        Duration::from_secs(30),
        || {
            d.events_of("heard")
                .iter()
                .any(|e| e["text"] == "33-29" && e["decision"] == "read-back")
        },
    );
    let heard = d.events_of("heard");
    assert_eq!(
        heard.len(),
        1,
        "tandem heard something while it spoke: {heard:?}"
    );
}

#[test]
fn a_vanished_microphone_is_announced_typed_moves_go_on_and_its_return_is_told() {
    let Some((t, model)) = Room::with_model() else {
        return;
    };
    let mut d = t.play(&model, &korean_phrasebook_path(), &[]);
    d.wait_listening();

    t.mic.unplug();
    d.wait_for("the microphone loss", Duration::from_secs(30), || {
        d.events_of("microphone").iter().any(|e| e["ok"] == false)
    });
    d.wait_for("the loss announced", Duration::from_secs(5), || {
        d.said()
            .iter()
            .any(|s| s.contains("The microphone stopped"))
    });
    let lost = d.events_of("announced");
    let lost = lost
        .iter()
        .find(|e| e["text"].as_str().unwrap().contains("microphone stopped"))
        .unwrap();
    assert_eq!(lost["priority"], "now", "a lost microphone is urgent");

    // The game goes on with typed input.
    d.type_line("31-26");
    d.wait_for("the typed move", Duration::from_secs(10), || {
        d.state()["ply"] == 1
    });
    let (ok, out) = d.ctl(&["move", "20-24"]);
    assert!(ok, "{out}");

    t.mic.plug();
    d.wait_for("the microphone back", Duration::from_secs(30), || {
        d.said().iter().any(|s| s.contains("works again"))
    });
    d.wait_echo_tail();
    // It listens in the new position (the grammar followed the moves).
    t.mic.say(&wav("ko-33-29.wav"));
    d.wait_for(
        "33-29 heard after the return",
        Duration::from_secs(30),
        || {
            d.events_of("heard")
                .iter()
                .any(|e| e["text"] == "33-29" && e["decision"] == "read-back" && e["ply"] == 2)
        },
    );
}

#[test]
fn voice_model_must_name_a_model_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(TANDEM)
        .args(["play", "--headless", "--voice-model"])
        .arg(dir.path().join("nothing"))
        .env("XDG_CONFIG_HOME", dir.path().join("noconfig"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no such folder"), "{err}");
}
