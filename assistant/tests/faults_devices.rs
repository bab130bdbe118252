//! Devices vanish mid-game, with the real components: a private BRLTTY
//! (`vr` driver, braille crate fixture) killed and restarted, and a private
//! speech-dispatcher (speech crate fixture) killed. The game must go on,
//! the display must come back showing the game as it now is, and speech
//! must move to another backend, say so, and still speak every move.
//!
//! Without BRLTTY or speech-dispatcher these fail with a message, unless
//! `TANDEM_SKIP_REAL` is set outside CI. The microphone that vanishes and
//! comes back is in `voice_e2e.rs`
//! (`a_vanished_microphone_is_announced_typed_moves_go_on_and_its_return_is_told`:
//! an ALSA pipe unplugged and plugged back under a running `tandem play`).

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use support::{real_brltty, real_game, real_speechd, Daemon, Play};
use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
use tandem_braille::{StatusInfo, View, Width};
use tandem_rules::draughts::Game;

/// `tandem play --headless --lang en` in `dir` (journal `game.jsonl`,
/// logging at `info`), its stdout read by lines: headless text speech goes
/// there, one tagged line an utterance.
fn daemon(dir: &Path, args: &[&str], env: &[(&str, String)]) -> Daemon {
    Play::in_dir(dir)
        .args(["--lang", "en", "--journal"])
        .arg(dir.join("game.jsonl"))
        .args(args)
        .env("TANDEM_LOG", "info")
        .envs(env)
        .stdout_lines()
        .start()
}

fn shown(game: &Game, ply: usize) -> String {
    let pos = *game.position_at(ply).unwrap();
    let mut status = StatusInfo::new(pos.turn());
    status.last_move = game.move_texts().get(ply.wrapping_sub(1)).cloned();
    StandardRenderer::default().render(&pos, &status, View::List, Width::new(40).unwrap())[0]
        .text()
        .trim_end()
        .to_owned()
}

#[test]
fn brltty_killed_and_restarted_mid_game_the_game_goes_on_and_the_display_comes_back() {
    let Some(mut brltty) = real_brltty(40) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = daemon(
        dir.path(),
        &[
            "--speech",
            "none",
            "--braille",
            "brlapi",
            "--brlapi-host",
            &brltty.host(),
        ],
        &[],
    );
    let game = real_game();
    let moves = game.move_texts();
    let mut c = d.client();
    for m in &moves[..6] {
        assert_eq!(c.request("move", Some(m)).unwrap()["ok"], true);
    }
    let want = shown(&game, 6);
    brltty
        .wait_for(Duration::from_secs(10), |s| s.text.trim_end() == want)
        .unwrap_or_else(|e| panic!("display never showed ply 6: {e:?}"));
    // BRLTTY dies (SIGKILL): the game goes on, every move acknowledged.
    brltty.kill();
    for m in &moves[6..10] {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m} while BRLTTY is down: {r}");
    }
    // It comes back: the display shows the game as it is now.
    brltty.restart().expect("BRLTTY restarts");
    let want = shown(&game, 10);
    brltty
        .wait_for(Duration::from_secs(15), |s| s.text.trim_end() == want)
        .unwrap_or_else(|e| {
            panic!(
                "the display never came back with ply 10 ({want:?}): {e:?}, shows {:?}",
                brltty.snapshot().text
            )
        });
    assert_eq!(c.request("move", Some(&moves[10])).unwrap()["ok"], true);
    let want = shown(&game, 11);
    brltty
        .wait_for(Duration::from_secs(10), |s| s.text.trim_end() == want)
        .unwrap_or_else(|e| panic!("display stopped following: {e:?}"));
    // The loss and the return were said to everyone and journaled (the
    // hall raises both as device alerts), in that order. The return is
    // said once the driver reports it to the session, which may be a moment
    // after the display already shows the game: the journal is read again
    // until it holds both, for up to 10 s.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let (said, lost, back) = loop {
        let said: Vec<String> = support::journal_events(&dir.path().join("game.jsonl"), "say")
            .iter()
            .filter_map(|e| e["text"].as_str().map(str::to_owned))
            .collect();
        let lost = said
            .iter()
            .position(|t| t == "The braille display is not answering. Play goes on.");
        let back = said
            .iter()
            .position(|t| t == "The braille display works again.");
        if (lost.is_some() && back.is_some()) || std::time::Instant::now() > deadline {
            break (said, lost, back);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        matches!((lost, back), (Some(l), Some(b)) if l < b),
        "lost then back said: {said:?}"
    );
}

#[test]
fn speech_dispatcher_killed_speech_falls_back_says_so_and_the_next_move_is_spoken() {
    let Some(speechd) = real_speechd("en") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // No sound card here: espeak-ng cannot play either, so the fallback ends in
    // text lines on stdout, which this test reads (what a screen reader gets).
    let d = daemon(
        dir.path(),
        &["--speech", "speechd", "--braille", "none"],
        &[("SPEECHD_ADDRESS", speechd.address())],
    );
    let mut events = d.client();
    events.subscribe().unwrap();
    let mut c = d.client();
    let moves = real_game().move_texts();
    let mark = speechd.audio_mark();
    assert_eq!(c.request("move", Some(&moves[0])).unwrap()["ok"], true);
    speechd
        .wait_audio_since(mark, Duration::from_millis(300), Duration::from_secs(30))
        .expect("speech-dispatcher spoke the first move");
    drop(speechd); // killed
    let t0 = Instant::now();
    let mut i = 1;
    // Moves go on; speech notices within an utterance or two that its server
    // is gone, and everyone is told (an event, a journal line).
    let fallback = 'found: loop {
        assert_eq!(c.request("move", Some(&moves[i])).unwrap()["ok"], true);
        i += 1;
        let t1 = Instant::now();
        while t1.elapsed() < Duration::from_millis(1500) {
            let Ok(v) = events.next_line() else { break };
            if v["event"] == "speech" {
                let text = v["text"].as_str().unwrap();
                if text.starts_with("Speech switched to") {
                    break 'found text.to_owned();
                }
            }
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30) && i < 12,
            "speech never said it switched backend"
        );
    };
    assert!(
        fallback == "Speech switched to espeak-ng." || fallback == "Speech switched to text.",
        "{fallback}"
    );
    // The next move is announced and recorded after the switch.
    let next = &moves[i];
    let r = c.request("move", Some(next)).unwrap();
    assert_eq!(r["ok"], true);
    let said = r["said"][0].as_str().unwrap().to_owned();
    if fallback.ends_with("text.") {
        d.wait_stdout(&said, Duration::from_secs(10))
            .unwrap_or_else(|seen| panic!("{said:?} was not spoken after the fallback: {seen:?}"));
    }
    let journal = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    let after = journal.find(&fallback).expect("the fallback is journaled");
    assert!(
        journal[after..].contains(&format!(
            r#""type":"announced","kind":"move","priority":"next","text":"{said}""#
        )),
        "the next move's announcement is not recorded after the fallback"
    );
}
