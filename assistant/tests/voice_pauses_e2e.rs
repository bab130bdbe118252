//! End to end: a move said with pauses inside it is still heard whole, now
//! that a whole phrase ends 100 ms after its last word (issue 24). The real
//! `tandem play --headless` with voice input: the Korean Vosk model and test
//! phrasebook (the one model a package ships here), the microphone ALSA
//! reading a named pipe through cpal, fed in real time (`support/voice.rs`).
//!
//! The recordings (speech/tests/data/README.md) are espeak-ng's Korean with
//! its word gap (`-g`) making the pauses, or `ko-33-29.wav` with silence
//! inserted where "구" (9) starts:
//!
//! - "삼십삼 ‖ 이십구" (33 ‖ 29): 180 and 320 ms between the two squares;
//! - "삼십삼 이십 ‖ 구" (33 20 ‖ 9): 150 and 400 ms inside the second number,
//!   whose first word is a number too. With a king on 33, "33 20" is itself
//!   a whole legal move and the start of 33-29: the utterance waits;
//! - "삼십삼 ‖ 이십 ‖ 이십구" (33 ‖ 20 ‖ 29): the capture 33x20 of the piece
//!   on 29, 180 and 320 ms between the squares; "33 20" is a whole move that
//!   its captured square may follow: the utterance waits for it.
//!
//! Each time exactly one utterance is heard, and it is the whole move.

mod support;

use std::time::Duration;

use support::voice::{wav, Room, VoiceDaemon};
use tandem_speech::listen::audio::FRAME;
use tandem_speech::listen::fixture::korean_phrasebook_path;

/// `ko-33-29.wav` with `ms` of silence where "구" starts (frame 78, the
/// silent gap after "삼십삼 이십").
fn paused_inside_29(ms: usize) -> Vec<i16> {
    let audio = wav("ko-33-29.wav");
    let mut out = audio[..78 * FRAME].to_vec();
    out.extend(std::iter::repeat(0).take(ms * 16));
    out.extend_from_slice(&audio[78 * FRAME..]);
    out
}

/// Says `audio`, then a second of silence; waits until it is all taken and
/// what it made of it has been said. Returns the one `heard` line it gave.
fn say_once(room: &Room, d: &VoiceDaemon, audio: &[i16], what: &str) -> serde_json::Value {
    let heard = d.events_of("heard").len();
    let asked = d.said().iter().filter(|s| s.contains("맞습니까")).count();
    room.mic.say(audio);
    room.mic.silence(Duration::from_secs(1));
    d.wait_for(what, Duration::from_secs(30), || {
        d.events_of("heard").len() > heard
            && d.said().iter().filter(|s| s.contains("맞습니까")).count() > asked
    });
    room.mic.wait_fed(Duration::from_secs(30));
    d.wait_echo_tail();
    let all = d.events_of("heard");
    assert_eq!(
        all.len(),
        heard + 1,
        "{what}: one utterance, not a move cut in two: {:?}",
        &all[heard..]
    );
    all[heard].clone()
}

/// A room with the Korean model and a table at `fen` listening in it
/// (`None` without the model, as [`Room::with_model`]).
fn listening_at(fen: &str) -> Option<(Room, VoiceDaemon)> {
    let (room, model) = Room::with_model()?;
    let d = room.play(&model, &korean_phrasebook_path(), &["--fen", fen]);
    d.wait_listening();
    Some((room, d))
}

#[test]
fn pauses_inside_a_spoken_move_yield_the_whole_move_and_a_continued_phrase_waits() {
    // A king on 33 (and a man on 31): 33-29, 33-24 and 33-20 are legal.
    let Some((room, d)) = listening_at("W:WK33,31:B1") else {
        return;
    };
    for (audio, what) in [
        (wav("ko-33-29-pause180.wav"), "33, 180 ms, 29"),
        (wav("ko-33-29-pause320.wav"), "33, 320 ms, 29"),
        (paused_inside_29(150), "33 20, 150 ms, 9"),
        (paused_inside_29(400), "33 20, 400 ms, 9"),
    ] {
        let h = say_once(&room, &d, &audio, what);
        assert_eq!(h["kind"], "move", "{what}: {h}");
        assert_eq!(h["text"], "33-29", "{what}: {h}");
        assert_eq!(h["decision"], "read-back", "{what}: {h}");
    }
    // Nothing was played: every move was read back, the last one waits.
    assert_eq!(d.state()["ply"], 0);
}

#[test]
fn a_capture_with_pauses_before_its_captured_square_is_heard_whole() {
    // The king on 33 must take the man on 29, landing on 24, 20 or 15.
    let Some((room, d)) = listening_at("W:WK33,31:B29,1") else {
        return;
    };
    for (name, what) in [
        ("ko-33x20-29-pause180.wav", "33, 180 ms, 20, 180 ms, 29"),
        ("ko-33x20-29-pause320.wav", "33, 320 ms, 20, 320 ms, 29"),
    ] {
        let h = say_once(&room, &d, &wav(name), what);
        assert_eq!(h["kind"], "move", "{what}: {h}");
        assert_eq!(h["text"], "33x20", "{what}: {h}");
        // The captured square is in the same utterance.
        let t = h["transcript"].as_str().unwrap().replace(' ', "");
        assert_eq!(t, "삼십삼이십이십구", "{what}: {h}");
    }
}
