# Runs inside GNU Backgammon (`gnubg -t -q -p gnubg_oracle.py`) and answers
# the questions in $TANDEM_GNUBG_IN, one a line, into $TANDEM_GNUBG_OUT:
#   H <position id> <die> <die> [<move>]  every legal move (0-ply hint) for
#       the player on roll; with a move, also the Position ID after gnubg plays it
#   M <mat file>                            import the match, then print the
#       Position ID and Match ID of its last position (`-` for none)
# Answers: `R <n>\t<move>|<move>|...\t<position id after or ->` and
#          `I <n>\t<position id>\t<match id>`.
import os
import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
# Otherwise gnubg rolls for the next player and passes for them when they cannot move.
gnubg.command("set automatic roll off")
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("set evaluation cubedecision evaluation plies 0")
# One thread waits 10 ms a hint for its worker; two answer in about 3 ms.
gnubg.command("set threads 2")

out = open(os.environ["TANDEM_GNUBG_OUT"], "w")
n = 0
for line in open(os.environ["TANDEM_GNUBG_IN"]):
    line = line.rstrip("\n")
    if not line:
        continue
    n += 1
    kind, rest = line.split(" ", 1)
    if kind == "H":
        parts = rest.split(" ", 3)
        pid, d0, d1 = parts[0], parts[1], parts[2]
        move = parts[3] if len(parts) > 3 else None
        gnubg.command("set cube use off")
        gnubg.command("new game")
        gnubg.command("set board " + pid)
        gnubg.command("set dice %s %s" % (d0, d1))
        if gnubg.positionid() != pid:
            out.write("R %d\tBOARD-REFUSED %s\t-\n" % (n, gnubg.positionid()))
            continue
        try:
            moves = [h["move"] for h in gnubg.hint(100000)["hint"]]
        except Exception as e:  # no legal move: gnubg gives no hint
            moves = []
        after = "-"
        if move is not None:
            gnubg.command("move " + move)
            after = gnubg.positionid()
        out.write("R %d\t%s\t%s\n" % (n, "|".join(moves), after))
    elif kind == "M":
        gnubg.command("set cube use on")
        # A file gnubg cannot start a game from leaves no position: `-`.
        gnubg.command("new match 1")
        gnubg.command("import mat " + rest)
        try:
            out.write("I %d\t%s\t%s\n" % (n, gnubg.positionid(), gnubg.matchid()))
        except ValueError:
            out.write("I %d\t-\t-\n" % n)
    out.flush()
out.close()
