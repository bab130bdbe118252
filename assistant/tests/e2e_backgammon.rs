//! Backgammon end to end with the real BRLTTY (a virtual 40-cell display
//! through BrlAPI) and the real speech-dispatcher (espeak-ng): rolls, a
//! move and a cube action through `tandem ctl`; the display shows the board
//! line of the braille view (a cell a point, the blind player's numbering)
//! and speech-dispatcher speaks the announcements.

mod support;

use std::time::Duration;

use support::{assert_spoke_since, ctl, real_english_table, said_until, Play};
use tandem_rules::backgammon::{Match, MatchOptions};
use tandem_rules::Color;

#[test]
fn a_backgammon_match_with_brltty_and_speech_dispatcher() {
    let Some((brltty, speechd, dir, journal, mark)) = real_english_table("match.jsonl") else {
        return;
    };
    let d = Play::in_dir(dir.path())
        .args(["--variant", "backgammon", "--match", "5"])
        .args(["--blind", "black", "--lang", "en"])
        .real(&brltty, &speechd)
        .journal(&journal)
        .start();
    let mut events = d.subscribed();
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
        let out = ctl(&d.socket, &cmd);
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
    assert_spoke_since(&speechd, mark);
}
