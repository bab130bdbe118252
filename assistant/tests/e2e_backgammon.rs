//! Backgammon end to end with the real BRLTTY (a virtual 40-cell display
//! through BrlAPI) and the real speech-dispatcher (espeak-ng): rolls, a
//! move and a cube action through `tandem ctl`; the display shows the board
//! line of the braille view (a cell a point, the blind player's numbering)
//! and speech-dispatcher speaks the announcements.

mod support;

use std::time::Duration;

use support::{ctl, Daemon};
use tandem_braille::testing::brltty::VirtualBrltty;
use tandem_rules::backgammon::{Match, MatchOptions};
use tandem_rules::Color;
use tandem_speech::testing::PrivateSpeechd;

fn said_until(events: &mut tandem::client::Client, last: &str) -> Vec<String> {
    let mut said = Vec::new();
    while let Ok(v) = events.next_line() {
        if v["event"] == "speech" {
            said.push(v["text"].as_str().unwrap().to_owned());
            if said.last().is_some_and(|s| s.starts_with(last)) {
                break;
            }
        }
    }
    said
}

#[test]
fn a_backgammon_match_with_brltty_and_speech_dispatcher() {
    let Some(brltty) =
        tandem_testkit::require("BRLTTY (apt-get install brltty)", VirtualBrltty::start(40))
    else {
        return;
    };
    let Some(speechd) = tandem_testkit::require(
        "speech-dispatcher with espeak-ng (apt-get install speech-dispatcher speech-dispatcher-espeak-ng)",
        PrivateSpeechd::start("en"),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("tandem.sock");
    let journal = dir.path().join("match.jsonl");
    let mark = speechd.audio_mark();
    let d = Daemon::start(
        &[
            "--variant",
            "backgammon",
            "--match",
            "5",
            "--blind",
            "black",
            "--lang",
            "en",
            "--speech",
            "speechd",
            "--braille",
            "brlapi",
            "--brlapi-host",
            &brltty.host(),
            "--journal",
            journal.to_str().unwrap(),
        ],
        &socket,
        &[("SPEECHD_ADDRESS", speechd.address())],
    );
    let mut events = d.client();
    events.subscribe().unwrap();
    let shows = |m: &Match| {
        let want = tandem_braille::backgammon::board_line(m.board(), Color::Black).cells;
        brltty
            .wait_for(Duration::from_secs(10), |s| s.cells.starts_with(&want))
            .unwrap_or_else(|e| panic!("the display never showed the board line: {e:?}"));
    };
    let mut m = Match::new(MatchOptions { length: 5 });
    shows(&m);
    for (cmd, action) in [
        (vec!["roll", "3", "1"], "roll 31"),
        (vec!["move", "8/5 6/5"], "move 8/5 6/5"),
        (vec!["double"], "double"),
        (vec!["take"], "take"),
        (vec!["roll", "6", "4"], "roll 64"),
        (vec!["move", "24/14"], "move 24/14"),
    ] {
        let out = ctl(&socket, &cmd);
        assert!(out.status.success(), "{cmd:?}: {out:?}");
        m.act_text(action).unwrap();
    }
    // Black, the blind player, hears white's move in black's own numbers.
    let said = said_until(&mut events, "Black: twenty-four to fourteen");
    assert!(
        said.iter()
            .any(|s| s == "White: seventeen to twenty, nineteen to twenty."),
        "{said:?}"
    );
    assert!(
        said.iter().any(|s| s == "Black doubles to two."),
        "{said:?}"
    );
    shows(&m);
    let audio = speechd
        .wait_audio_since(mark, Duration::from_millis(500), Duration::from_secs(60))
        .unwrap();
    assert!(audio.seconds > 1.0 && audio.rms > 0.001, "{audio:?}");
}
