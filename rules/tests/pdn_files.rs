//! Real tournament records replay (issue 2 item 5); broken ones fail where
//! `data/pdn/bad/README.md` says they must.

use std::path::Path;

use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::Variant;

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned()
}

#[test]
fn every_real_game_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn");
    let mut games = 0;
    let mut sixty_four = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pdn") {
            continue;
        }
        for (i, g) in parse_pdn(&read(&path)).iter().enumerate() {
            games += 1;
            if g.variant(Variant::International) == Ok(Variant::SixtyFour) {
                sixty_four += 1;
            }
            match replay(g, Variant::International) {
                Replay::Ok(game) => assert_eq!(game.ply(), g.moves.len()),
                other => panic!("{} game {}: {other}", path.display(), i + 1),
            }
        }
    }
    assert!(games >= 450, "only {games} games");
    assert!(sixty_four >= 1, "no 64-square game");
}

fn statuses(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pdn/bad")
        .join(file);
    parse_pdn(&read(&path))
        .iter()
        .map(|g| match replay(g, Variant::International) {
            Replay::Ok(_) => "ok".to_owned(),
            Replay::Illegal { ply, text, .. } => format!("illegal {ply} {text}"),
            Replay::Unreadable(why) => format!("unreadable {why}"),
        })
        .collect()
}

#[test]
fn broken_records_fail_where_expected() {
    assert_eq!(
        statuses("illegal-move.pdn"),
        ["ok", "illegal 6 20-26", "ok"]
    );
    assert_eq!(statuses("capture-ignored.pdn"), ["illegal 9 32-27", "ok"]);
    let t = statuses("truncated.pdn");
    assert_eq!(t[0], "ok");
    assert!(
        t[1].starts_with("illegal 16 17-") || t[1].starts_with("unreadable"),
        "{t:?}"
    );
    // A broken tag costs a warning, not the game (issue 14).
    assert_eq!(statuses("garbage-tag.pdn"), ["ok", "ok", "ok"]);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn/bad/garbage-tag.pdn");
    let games = tandem_rules::draughts::pdn::read_pdn(&std::fs::read(path).unwrap()).games;
    let w: Vec<String> = games[1].warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        w,
        [
            "22:1: tag Event has no closing quote",
            "22:1: control characters in tag Event removed"
        ]
    );
    assert_eq!(games[1].tag("Event"), Some("NLD-chT Ereklasse"));
    assert_eq!(games[1].tag("Date"), Some("2005.01.29"));
    let f = statuses("bad-fen.pdn");
    assert!(
        f[0].starts_with("unreadable") && f[0].contains("51"),
        "{f:?}"
    );
}
