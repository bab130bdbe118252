//! End to end, questions about the board (issue 23): the real `tandem
//! play` binary with a real BRLTTY (`vr` driver). `tandem ctl ask QUERY`
//! answers with what was said and exits 0; an unknown question exits 1
//! with the list of questions; a letter typed on the display's braille
//! keys (`k`: the kings) is answered, spoken and shown as the display's
//! message line; the answers are journaled.
//!
//! Without BRLTTY the test fails with a message, unless `TANDEM_SKIP_REAL=1`.

mod support;

use std::time::Duration;

use support::{ctl, journal_events, real_brltty, Play};
use tandem_braille::ui::Key;

#[test]
fn chess_questions_from_the_control_socket_and_the_braille_keys() {
    let Some(brltty) = real_brltty(40) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let d = Play::in_dir(dir.path())
        .args(["--variant", "chess", "--lang", "en", "--blind", "black"])
        .args(["--speech", "text", "--control", "90m"])
        .brltty(&brltty)
        .journal(&journal)
        .start();
    let socket = d.socket.clone();
    // "my" is the blind player's: black here; black's side is said first.
    let out = ctl(&socket, &["ask", "my", "knights"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        "Black knights: Bella eight, Gustav eight."
    );
    let out = ctl(&socket, &["ask", "pawns"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        said.starts_with("Pawns: Anna: black seven, white two; Bella:"),
        "{said}"
    );
    let out = ctl(&socket, &["ask", "legal", "moves"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("knights") && err.contains("file X"), "{err}");

    // The braille keys: `k` asks for the kings; the answer is the message line.
    brltty.press_key(Key::Char('k')).unwrap();
    brltty
        .wait_for(Duration::from_secs(10), |s| {
            s.text
                .to_lowercase()
                .starts_with("black king: eva eight. white king")
        })
        .unwrap_or_else(|e| panic!("the display never showed the kings: {e:?}"));
    let said: Vec<String> = journal_events(&journal, "announced")
        .iter()
        .filter_map(|e| e["text"].as_str().map(str::to_owned))
        .collect();
    for want in [
        "Black knights: Bella eight, Gustav eight.",
        "Black king: Eva eight. White king: Eva one.",
    ] {
        assert!(
            said.iter().any(|s| s == want),
            "{want} not journaled: {said:?}"
        );
    }
}
