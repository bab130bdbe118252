//! python-chess (PyPI `chess`, installed by `scripts/setup.sh --test` into
//! `$TANDEM_PYTHONPATH`): the independent reader the tests check tandem's
//! PGN with, as broadcast sites and chess programs read it.

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
    let v = super::python::run_json("chess.pgn", PYCHESS, READER, pgn)?;
    Some(serde_json::from_value(v).unwrap())
}
