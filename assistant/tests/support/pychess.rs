//! python-chess (PyPI `chess`, installed by `scripts/setup.sh --test` into
//! `$TANDEM_PYTHONPATH`): the independent reader the tests check tandem's
//! PGN with, as broadcast sites and chess programs read it.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// What the tests need of python-chess, and how to get it.
pub const PYCHESS: &str =
    "python-chess (scripts/setup.sh --test, or pip install --target $TANDEM_PYTHONPATH chess)";

const READER: &str = r#"
import io, json, sys
import chess.pgn
text = sys.stdin.read()
stream = io.StringIO(text)
games = []
while True:
    g = chess.pgn.read_game(stream)
    if g is None:
        break
    moves = []
    node = g
    while node.variations:
        node = node.variation(0)
        moves.append({"san": node.san(), "clock": node.clock(), "comment": node.comment})
    games.append({"headers": dict(g.headers), "moves": moves,
                  "errors": [str(e) for e in g.errors], "fen": g.end().board().fen()})
print(json.dumps(games))
"#;

/// Every game of `pgn` as python-chess reads it: `{"headers": {…}, "moves":
/// [{"san", "clock" (seconds or null), "comment"}], "errors": […], "fen"}`;
/// `None` when python-chess is missing (the test then returns early, or
/// fails: `tandem_testkit::missing`).
#[must_use]
pub fn read(pgn: &str) -> Option<Vec<Value>> {
    let present = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .env("PYTHONPATH", tandem_testkit::python_path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| e.to_string())
        .and_then(|o| {
            if o.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&o.stderr).into_owned())
            }
        });
    tandem_testkit::require(PYCHESS, present)?;
    let mut child = Command::new("python3")
        .args(["-c", READER])
        .env("PYTHONPATH", tandem_testkit::python_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python-chess: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}
