//! PGN records of the kinds issue 44 names, read by tandem
//! ([`read_pgn`], [`replay`]) and by python-chess (`tests/data/chess/
//! pychess_oracle.py`, the independent reader): Chess960 games (cutechess's
//! `fischerandom` export, castling `O-O`/`O-O-O`, and the same games with
//! castling written as the king taking its own rook), results written
//! against the last move (`a5*`), a game recorded past a dead position.
//! Each file's source is in `tests/data/chess/SOURCES.md`. At least 99 % of
//! the games must replay to python-chess's moves and last position. Without
//! python-chess the tests fail, unless TANDEM_SKIP_REAL is set outside CI.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use tandem_rules::chess::pgn::{
    parse_pgn, read_pgn, replay, replay_warnings, write_pgn, PgnGame, PgnHeader, Replay,
};
use tandem_rules::chess::{to_fen, ChessGame};

fn data(name: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "tests", "data", "chess", name]
        .iter()
        .collect()
}

/// Every game of the file as python-chess reads it (`headers`, `sans`,
/// `fen`, `chess960`, `errors`); `None` where python-chess is missing and
/// the test may be skipped.
fn pychess(path: &std::path::Path) -> Option<Vec<Value>> {
    let out = Command::new("python3")
        .arg(data("pychess_oracle.py"))
        .arg(path)
        .env("PYTHONPATH", tandem_testkit::python_path())
        .output()
        .map_err(|e| e.to_string())
        .and_then(|o| {
            if o.status.success() {
                Ok(o.stdout)
            } else {
                Err(String::from_utf8_lossy(&o.stderr).into_owned())
            }
        });
    let out = tandem_testkit::require(
        "python-chess (scripts/setup.sh --test, or pip install --target $TANDEM_PYTHONPATH chess)",
        out,
    )?;
    Some(serde_json::from_slice(&out).expect("the oracle prints JSON"))
}

/// tandem's game, if it replays.
fn replayed(g: &PgnGame) -> Option<ChessGame> {
    match replay(g) {
        Replay::Ok(game) => Some(game),
        _ => None,
    }
}

/// Whether tandem's replay of `g` is python-chess's reading `theirs`: the
/// same SAN moves and the same last position.
fn agrees(g: &PgnGame, theirs: &Value) -> bool {
    let Some(game) = replayed(g) else {
        return false;
    };
    let sans: Vec<&str> = theirs["sans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    game.sans() == sans.as_slice() && to_fen(game.position()) == theirs["fen"]
}

/// Reads a file both ways and checks that at least 99 % of its games agree;
/// tandem's games, and python-chess's reading where it ran.
fn same_as_python_chess(name: &str) -> (Vec<PgnGame>, Option<Vec<Value>>) {
    let file = read_pgn(&std::fs::read(data(name)).unwrap());
    let Some(theirs) = pychess(&data(name)) else {
        return (file.games, None);
    };
    assert_eq!(file.games.len(), theirs.len(), "{name}: games");
    let agree = file
        .games
        .iter()
        .zip(&theirs)
        .filter(|(g, t)| agrees(g, t))
        .count();
    assert!(
        agree * 100 >= file.games.len() * 99,
        "{name}: {agree} of {} games agree with python-chess",
        file.games.len()
    );
    (file.games, Some(theirs))
}

#[test]
fn chess960_records_replay_as_python_chess_reads_them() {
    for name in [
        "cutechess-fischerrandom.pgn",
        "cutechess-fischerrandom-king-takes-rook.pgn",
    ] {
        let (games, theirs) = same_as_python_chess(name);
        assert_eq!(games.len(), 4, "{name}");
        for (k, g) in games.iter().enumerate() {
            assert!(g.is_chess960(), "{name} game {}", k + 1);
            let game = replayed(g).unwrap_or_else(|| panic!("{name} game {}", k + 1));
            assert!(game.is_chess960());
            if let Some(t) = &theirs {
                assert_eq!(t[k]["chess960"], true, "{name}: python-chess's flag");
                assert!(agrees(g, &t[k]), "{name} game {}", k + 1);
            }
        }
        // Both sides castle both ways in these games (`O-O`, `O-O-O`).
        let castles: Vec<String> = games
            .iter()
            .flat_map(|g| replayed(g).unwrap().sans().to_vec())
            .filter(|s| s.starts_with("O-O"))
            .collect();
        assert_eq!(castles.len(), 4, "{name}: {castles:?}");
        assert!(
            castles.iter().any(|s| s.starts_with("O-O-O")),
            "{castles:?}"
        );
    }
    // Written as the king taking its own rook (`f1h1`), castling is the same
    // move: the two files replay to the same moves, written `O-O`.
    let a = read_pgn(&std::fs::read(data("cutechess-fischerrandom.pgn")).unwrap());
    let b = read_pgn(&std::fs::read(data("cutechess-fischerrandom-king-takes-rook.pgn")).unwrap());
    for (x, y) in a.games.iter().zip(&b.games) {
        let castles = x.moves.iter().filter(|m| m.text.starts_with("O-O")).count();
        let differ = x
            .moves
            .iter()
            .zip(&y.moves)
            .filter(|(p, q)| p.text != q.text);
        assert_eq!(differ.count(), castles);
        assert_eq!(replayed(x).unwrap().sans(), replayed(y).unwrap().sans());
    }
}

#[test]
fn chess960_games_written_back_read_the_same_in_tandem_and_python_chess() {
    let file = read_pgn(&std::fs::read(data("cutechess-fischerrandom.pgn")).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let mut out = String::new();
    let mut ours = Vec::new();
    for g in &file.games {
        let game = replayed(g).unwrap();
        let header = PgnHeader {
            tags: vec![
                ("White".into(), g.tag("White").unwrap().into()),
                ("Black".into(), g.tag("Black").unwrap().into()),
                ("Variant".into(), g.tag("Variant").unwrap().into()),
            ],
            comments: Vec::new(),
        };
        let text = write_pgn(&game, &header);
        assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
        assert_eq!(text.matches("[Variant").count(), 1, "{text}");
        assert!(
            text.contains("[SetUp \"1\"]") && text.contains("[FEN \""),
            "{text}"
        );
        // tandem reads its own export back to the same game.
        let back = replayed(&parse_pgn(&text)[0]).expect("tandem reads its export");
        assert_eq!(back.sans(), game.sans());
        assert_eq!(to_fen(back.position()), to_fen(game.position()));
        out.push_str(&text);
        out.push('\n');
        ours.push(game);
    }
    let path = dir.path().join("export.pgn");
    std::fs::write(&path, &out).unwrap();
    let Some(theirs) = pychess(&path) else {
        return;
    };
    assert_eq!(theirs.len(), ours.len());
    for (game, t) in ours.iter().zip(&theirs) {
        assert_eq!(t["errors"].as_array().unwrap().len(), 0, "{t}");
        assert_eq!(t["chess960"], true);
        assert_eq!(t["fen"], to_fen(game.position()));
        assert_eq!(t["sans"].as_array().unwrap().len(), game.ply());
    }
}

#[test]
fn results_glued_to_the_last_move_end_the_game_as_python_chess_reads_them() {
    let name = "aronian-glued-results.pgn";
    let (games, _) = same_as_python_chess(name);
    assert_eq!(games.len(), 120);
    // The same games with the result apart, as first published.
    let original = read_pgn(&std::fs::read(data("aronian-1993-2002.pgn")).unwrap());
    let text = std::fs::read_to_string(data(name)).unwrap();
    for (k, (g, o)) in games.iter().zip(&original.games).enumerate() {
        let n = k + 1;
        assert_eq!(g.result.as_deref(), g.tag("Result"), "game {n}");
        assert_eq!(g.result, o.result, "game {n}");
        assert_eq!(
            g.moves.iter().map(|m| &m.text).collect::<Vec<_>>(),
            o.moves.iter().map(|m| &m.text).collect::<Vec<_>>(),
            "game {n}"
        );
        let glued: Vec<_> = g
            .warnings
            .iter()
            .filter(|w| w.message.contains("is written against the move"))
            .collect();
        assert_eq!(glued.len(), 1, "game {n}: {:?}", g.warnings);
        // The warning points at the result in the file.
        let line = text.lines().nth(glued[0].line - 1).unwrap();
        let at: String = line.chars().skip(glued[0].column - 1).collect();
        assert_eq!(Some(at.trim_end()), g.result.as_deref(), "game {n}: {line}");
        assert_eq!(g.moves.last().unwrap().line, glued[0].line, "game {n}");
    }
}

#[test]
fn a_game_recorded_past_a_dead_position_replays_to_its_end_with_a_warning() {
    let name = "dead-position-played-on.pgn";
    let (games, _) = same_as_python_chess(name);
    assert_eq!(games.len(), 3);
    let g = &games[1];
    let r = replay(g);
    let Replay::Ok(game) = &r else { panic!("{r}") };
    assert_eq!(game.ply(), 8, "every recorded move is replayed");
    // The knight took the promoted rook at ply 2: king and knight against
    // king, drawn there (FIDE Laws 5.2.2).
    assert_eq!(game.dead_position_ply(), Some(2));
    let w = replay_warnings(g, &r);
    assert_eq!(w.len(), 1, "{w:?}");
    let kf2 = &g.moves[2];
    assert_eq!(kf2.text, "Kf2");
    assert_eq!((w[0].line, w[0].column), (kf2.line, kf2.column));
    assert!(w[0].message.contains("5.2.2"), "{}", w[0].message);
    assert!(
        w[0].message.contains("0-1"),
        "the recorded result: {}",
        w[0].message
    );
    assert_eq!(g.result.as_deref(), Some("0-1"));
    // The file's other games are real games, unharmed and without the warning.
    for other in [&games[0], &games[2]] {
        let r = replay(other);
        assert!(matches!(r, Replay::Ok(_)), "{r}");
        assert!(replay_warnings(other, &r).is_empty());
    }
}
