//! End to end, chess by voice: the real `tandem play --variant chess
//! --headless` with the Korean Vosk model (the one model a package ships
//! here) and the Korean CHESS test phrasebook (`speech/tests/data/chess-ko.toml`:
//! files and ranks are the Sino-Korean numbers, so "e2 e4" is "오 이 오 사"),
//! a microphone that is ALSA reading a named pipe through cpal, and
//! espeak-ng's Korean for the moves (made by the test) and the checked-in
//! "네" (yes), written into the pipe in real time in whole `MIC_BLOCK`s
//! (the microphone and the daemon are `support/voice.rs`'s).
//!
//! The chess grammar of the position's legal moves and the book's commands
//! is what Vosk listens with in the daemon; a move is read back in the chess
//! book's words and played on "네"; an illegal one is refused with the
//! reason and never played. Without the model the tests fail with a
//! message, unless `TANDEM_SKIP_REAL` is set outside CI; espeak-ng must be installed.

use std::time::Duration;

mod support;

use support::voice::{data, espeak, wav, Room};

#[test]
fn a_spoken_chess_move_is_read_back_and_played_on_yes_an_illegal_one_is_refused() {
    let Some((t, model)) = Room::with_model() else {
        return;
    };
    // Said with commas: espeak-ng runs bare syllables together.
    let e2e5 = espeak(t.dir.path(), "e2e5", "오, 이, 오, 오");
    let e2e4 = espeak(t.dir.path(), "e2e4", "오, 이, 오, 사");
    let yes = wav("ko-yes.wav");
    // `tandem play --variant chess` listening through the test microphone.
    let d = t.play(
        &model,
        &data("chess-ko.toml"),
        &["--variant", "chess", "--lang", "en"],
    );
    d.wait_listening();

    // e2-e5: no pawn goes there. Refused with the reason, never played.
    t.mic.say(&e2e5);
    d.wait_for("the refusal of e2e5", Duration::from_secs(30), || {
        !d.events_of("rejected").is_empty()
    });
    let h = d.events_of("heard");
    let h = h.last().unwrap();
    assert_eq!(
        (&h["kind"], &h["text"], &h["decision"]),
        (&"illegal".into(), &"e2e5".into(), &"refused".into()),
        "{h}"
    );
    let r = &d.events_of("rejected")[0];
    assert_eq!(
        (&r["source"], &r["input"]),
        (&"spoken".into(), &"e2e5".into())
    );
    // The reason in the chess book's words: "오 이 폰는 오 오에 갈 수 없습니다."
    assert!(
        d.said().iter().any(|s| s.contains("갈 수 없습니다")),
        "{:?}",
        d.said()
    );
    assert_eq!(d.state()["ply"], 0, "an illegal move is never played");

    // e2-e4: read back in the chess book's words, played only on "네";
    // said once the refusal has been spoken (text speech on stdout) and its
    // echo tail has passed.
    d.wait_for("the refusal spoken", Duration::from_secs(30), || {
        d.stdout().iter().any(|l| l.contains("갈 수 없습니다"))
    });
    d.wait_echo_tail();
    t.mic.say(&e2e4);
    let h = d.wait_read_back("the read-back of e4");
    assert_eq!(
        (&h["kind"], &h["text"]),
        (&"move".into(), &"e4".into()),
        "{h}"
    );
    assert_eq!(h["ply"], 0);
    assert!(h["confidence_pct"].as_u64().unwrap() > 0, "{h}");
    d.wait_for("the read-back said", Duration::from_secs(10), || {
        d.said().iter().any(|s| s.contains("폰 오 이 오 사"))
    });
    assert_eq!(d.state()["ply"], 0, "nothing is played before yes");

    d.wait_for("the read-back spoken", Duration::from_secs(30), || {
        d.stdout().iter().any(|l| l.contains("폰 오 이 오 사"))
    });
    d.wait_echo_tail();
    t.mic.say(&yes);
    d.wait_for("the move after yes", Duration::from_secs(30), || {
        d.state()["ply"] == 1
    });
    let st = d.state();
    assert_eq!(st["moves"][0], "e4", "{st}");
    assert_eq!(st["turn"], "black", "{st}");
    assert!(d.yes_played(), "{:?}", d.events_of("heard"));
    let moves = d.events_of("move");
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(
        (&moves[0]["source"], &moves[0]["text"]),
        (&"spoken".into(), &"e4".into())
    );
    // The journal is intact with the new events in it.
    d.verify_journal();
}
