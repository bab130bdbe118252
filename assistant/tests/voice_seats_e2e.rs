//! Two seats, two microphones, end to end: the real `tandem play` with
//! `--seat white:mic=micw --seat black:mic=micb`, each microphone ALSA
//! reading a named pipe of its own through cpal (two devices the test's
//! ALSA configuration names), each heard by its own voice thread and its
//! own recognizer with the Korean Vosk model (the one model a package
//! ships here) and the Korean test phrasebook, fed espeak-ng's recordings
//! in real time (`support/voice.rs`'s microphone).
//!
//! Black says white's move on white's turn: black alone is told, nothing
//! is played. White says it: read back to white alone, played on "yes",
//! journaled with white's seat. Both microphones listen at once.
//!
//! Without the model the test fails with a message, unless
//! `TANDEM_SKIP_REAL` is set outside CI.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use tandem_speech::listen::fixture::{korean_model, korean_phrasebook_path};

mod support;

use support::voice::{wav, Mic};
use support::{ctl, Play};

const LIMIT: Duration = Duration::from_secs(90);

fn mkfifo(p: &Path) {
    let st = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .expect("mkfifo runs");
    assert!(st.success());
}

/// Two test microphones, `micw` and `micb` (ALSA's file plugin reading a
/// pipe, 16 kHz mono, listed by ALSA's hints so cpal finds them by name),
/// and playback to nothing.
fn alsa_config(w: &Path, b: &Path) -> String {
    let mut conf = String::new();
    for (name, fifo) in [("micw", w), ("micb", b)] {
        conf.push_str(&format!(
            "pcm.{name}_file {{ type file; slave.pcm \"null\"; file \"/dev/null\"; format \"raw\"; infile \"{}\" }}\n\
             pcm.{name} {{ type plug; slave {{ pcm \"{name}_file\"; format S16_LE; rate 16000; channels 1 }}\n\
               hint {{ show on; description \"{name}\" }} }}\n",
            fifo.display()
        ));
    }
    conf.push_str("pcm.!default { type asym; playback.pcm \"null\"; capture.pcm \"micw\" }\n");
    conf
}

use support::journal_events_so_far as events;

fn wait_for(journal: &Path, what: &str, mut ok: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !ok() {
        assert!(
            t0.elapsed() < LIMIT,
            "waited {LIMIT:?} for {what}; journal:\n{}",
            std::fs::read_to_string(journal).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn each_seats_microphone_is_heard_for_its_own_side() {
    let Some(model) = korean_model() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (wf, bf): (PathBuf, PathBuf) = (dir.path().join("w.fifo"), dir.path().join("b.fifo"));
    mkfifo(&wf);
    mkfifo(&bf);
    let conf = dir.path().join("asound.conf");
    std::fs::write(&conf, alsa_config(&wf, &bf)).unwrap();
    let (white_mic, black_mic) = (Mic::start(wf), Mic::start(bf));
    let journal = dir.path().join("game.jsonl");
    let socket = dir.path().join("tandem.sock");
    let _d = Play::in_dir(dir.path())
        .arg("--voice-model")
        .arg(&model)
        .arg("--phrasebook")
        .arg(korean_phrasebook_path())
        .args([
            "--blind",
            "both",
            "--confirm",
            "always",
            "--braille",
            "none",
        ])
        .args(["--seat", "white:speech=text,mic=micw"])
        .args(["--seat", "black:speech=text,mic=micb"])
        .arg("--journal")
        .arg(&journal)
        .env(
            "ALSA_CONFIG_PATH",
            format!("/usr/share/alsa/alsa.conf:{}", conf.display()),
        )
        .env("TANDEM_LOG", "tandem=info")
        .start();
    // Both models loaded and both microphones open, each its seat's.
    wait_for(&journal, "both microphones", || {
        let m = events(&journal, "microphone");
        ["white", "black"]
            .iter()
            .all(|s| m.iter().any(|e| e["ok"] == true && e["seat"] == *s))
    });
    std::thread::sleep(Duration::from_millis(500));

    // Black says white's move on white's turn: refused to black alone.
    black_mic.say(&wav("ko-33-29.wav"));
    wait_for(&journal, "black's words heard", || {
        events(&journal, "heard")
            .iter()
            .any(|e| e["seat"] == "black" && e["decision"] == "not-your-move")
    });
    wait_for(&journal, "black told", || {
        events(&journal, "announced")
            .iter()
            .any(|e| e["to"] == serde_json::json!(["black"]))
    });
    let st: Value = serde_json::from_slice(&ctl(&socket, &["state"]).stdout).expect("state JSON");
    assert_eq!(st["ply"], 0, "black's words played nothing: {st}");

    // White says it: read back to white alone, then played on "yes".
    white_mic.say(&wav("ko-33-29.wav"));
    wait_for(&journal, "the read-back to white", || {
        events(&journal, "heard")
            .iter()
            .any(|e| e["seat"] == "white" && e["decision"] == "read-back")
            && events(&journal, "announced")
                .iter()
                .any(|e| e["text"].as_str().is_some_and(|t| t.contains("맞습니까")))
    });
    let back = events(&journal, "announced")
        .into_iter()
        .rfind(|e| e["text"].as_str().is_some_and(|t| t.contains("맞습니까")))
        .unwrap();
    assert_eq!(back["to"], serde_json::json!(["white"]), "{back}");
    // After the read-back's echo tail (the seat's microphone is muted
    // while its own speech speaks), "yes".
    std::thread::sleep(tandem::voice::ECHO_TAIL * 3 + Duration::from_millis(500));
    white_mic.say(&wav("ko-yes.wav"));
    wait_for(&journal, "white's move", || {
        !events(&journal, "move").is_empty()
    });
    let mv = &events(&journal, "move")[0];
    assert_eq!(mv["text"], "33-29");
    assert_eq!(mv["source"], "spoken");
    assert_eq!(mv["seat"], "white");
    let announced = events(&journal, "announced");
    let after = announced
        .iter()
        .rfind(|e| e["kind"] == "move")
        .expect("the move announced");
    assert_eq!(
        after["to"],
        serde_json::json!(["white", "black"]),
        "{after}"
    );
}
