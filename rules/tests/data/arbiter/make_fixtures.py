#!/usr/bin/env python3
"""Writes the diverged records of rules/tests/data/arbiter/ from one real game.

Source game: meijer-meurs-nk2009.pdn, the first game of
rules/tests/data/pdn/nk2009-ronde12.pdn (Dutch championship 2009, round 12,
Hein Meijer - Pim Meurs, 2-0), copied byte for byte. Each derived file is the
record a second player (or the braille record, typed in by the arbiter) might
hold, with one slip. Run from this folder: python3 make_fixtures.py
"""
import hashlib
import json
import re

src = open("meijer-meurs-nk2009.pdn", encoding="utf-8").read()
body = "\n".join(l for l in src.splitlines() if not l.startswith("["))
moves = [t for t in body.split() if not re.match(r"^\d+\.$", t) and t != "2-0"]
assert len(moves) == 96, len(moves)


def numbered(ms, spaced=()):
    """`1. 33-28 18-22 2. ...`, eight moves a line; plies in `spaced` written `33 28`."""
    out, line = [], []
    for i, m in enumerate(ms):
        if i % 2 == 0:
            line.append(f"{i // 2 + 1}.")
        line.append(m.replace("-", " ") if i + 1 in spaced else m)
        if i % 16 == 15:
            out.append(" ".join(line))
            line = []
    if line:
        out.append(" ".join(line))
    return "\n".join(out) + "\n"


def one_a_line(ms):
    """A braille record typed in: one move a line, zero-padded numbers, CRLF, a blank line."""
    out = []
    for i, m in enumerate(ms):
        n = f"{i // 2 + 1:02d}"
        out.append(f"{n}. {m}" if i % 2 == 0 else f"{n}... {m}")
        if i == 9:
            out.append("")
    return "\r\n".join(out) + "\r\n"


# A wrong move at ply 21 (11. 31-27 for 31-26): legal, and the rest copied on.
wrong = moves[:]
wrong[20] = "31-27"
open("braille-wrong-ply-21.txt", "w", newline="").write(one_a_line(wrong))

# A missing ply: black's 20... 21-27 (ply 40) was never written down.
missing = moves[:39] + moves[40:]
open("scoresheet-missing-ply-40.txt", "w").write(numbered(missing, spaced=(1, 2, 3)))

# Two moves swapped: 25... 8-12 and 26. 30-25 (plies 50 and 51) written in the other order.
swapped = moves[:]
swapped[49], swapped[50] = swapped[50], swapped[49]
open("scoresheet-swapped-50-51.txt", "w").write(numbered(swapped))

# A transposition: white's 7. 37-32 and 8. 45-40 (plies 13 and 15) in the other
# order; the position after ply 15 is the same, and the records agree on.
trans = moves[:]
trans[12], trans[14] = trans[14], trans[12]
open("scoresheet-transposed-13-15.txt", "w").write(numbered(trans))

# The game's tandem journal, as the daemon writes it (assistant/src/journal.rs),
# up to ply 60: the game is in progress when the boards are found to differ.
# Time control 80m+1m (FMJD basic); move times are made up but fixed.
GENESIS = "0" * 64
lines, prev, seq, t = [], GENESIS, 0, 0


def emit(event, dt_ms=0):
    global prev, seq, t
    seq += 1
    t += dt_ms
    rec = {
        "seq": seq,
        "wall": f"2026-05-02T{10 + t // 3600000:02d}:{t // 60000 % 60:02d}:{t // 1000 % 60:02d}.{t % 1000:03d}Z",
        "t_ms": t,
        "prev": prev,
        "event": event,
    }
    line = json.dumps(rec, separators=(",", ":"), ensure_ascii=False)
    prev = hashlib.sha256(line.encode("utf-8")).hexdigest()
    lines.append(line)


emit({"type": "start", "variant": "international",
      "fen": "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
      "control": "80m+1m", "warnings_s": [300, 60, 10], "white": "Hein Meijer", "black": "Pim Meurs",
      "event": "NK 2009, ronde 12", "blind": "white", "lang": "pl",
      "options": {"draws_with_advantage": False, "play_on_after_rule_draw": False}, "version": "fixture"})
left = {"white": 80 * 60000, "black": 80 * 60000}
for i, m in enumerate(moves[:60]):
    ply = i + 1
    side = "white" if i % 2 == 0 else "black"
    move_ms = 15000 + (ply * 7919) % 120000
    if ply == 7:
        # White (the blind player) says a move that is not legal: refused.
        emit({"type": "rejected", "source": "spoken", "input": "trzydzieści cztery na trzydzieści",
              "reason": "square 30 is not reachable"}, 4000)
    if ply == 24:
        emit({"type": "rejected", "source": "typed", "input": "12-17", "reason": "capture is compulsory"}, 3000)
        emit({"type": "rejected", "source": "typed", "input": "1217", "reason": "capture is compulsory"}, 2000)
    if ply == 31:
        emit({"type": "rejected", "source": "spoken", "input": "dwadzieścia dziewięć na dwadzieścia",
              "reason": "capture is compulsory"}, 5000)
        emit({"type": "rejected", "source": "control", "input": "undo", "reason": "unknown command"}, 1000)
    left[side] = left[side] - move_ms + 60000
    emit({"type": "move", "ply": ply, "side": side, "text": m, "input": m,
          "source": "spoken" if side == "white" else "typed", "move_ms": move_ms,
          "white_ms": left["white"], "black_ms": left["black"]}, move_ms)
emit({"type": "mismatch", "source": "spoken", "board_fen": None, "diffs": []}, 2000)
emit({"type": "pause", "reason": "mismatch"})
open("meijer-meurs.jsonl", "w").write("\n".join(lines) + "\n")
