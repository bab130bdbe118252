# The independent reading of a PGN file for rules/tests/pgn_real.rs:
# python-chess (PyPI `chess`) reads every game of the file named on the
# command line and prints, as one JSON list, each game's tags, its main line
# in SAN, the FEN of its last position, whether it is Chess960, and the
# errors python-chess met.
import json
import sys

import chess.pgn

games = []
with open(sys.argv[1], encoding="utf-8-sig", errors="replace") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.board()
        sans = []
        for move in game.mainline_moves():
            sans.append(board.san(move))
            board.push(move)
        games.append({
            "headers": dict(game.headers),
            "sans": sans,
            "fen": board.fen(),
            "chess960": board.chess960,
            "errors": [str(e) for e in game.errors],
        })
print(json.dumps(games))
