# Runs inside GNU Backgammon (`gnubg -t -q -p gnubg_oracle.py`) and answers
# the questions in $TANDEM_GNUBG_IN, one a line, into $TANDEM_GNUBG_OUT:
#   H <position id> <die> <die> [<move>]  every legal move (0-ply hint) for
#       the player on roll; with a move, also the Position ID after gnubg plays it
#   M <mat file>                            import the match, then print the
#       Position ID and Match ID of its last position (`-` for none)
# Answers: `R <n>\t<move>|<move>|...\t<position id after or ->` and
#          `I <n>\t<position id>\t<match id>`.
import gnubg
from tandem_gnubg import Answers, human_players, questions, zero_ply

human_players()
# Otherwise gnubg rolls for the next player and passes for them when they cannot move.
gnubg.command("set automatic roll off")
zero_ply()

out = Answers()
for n, line in enumerate(questions(), 1):
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
            out.write("R %d\tBOARD-REFUSED %s\t-" % (n, gnubg.positionid()))
            continue
        try:
            moves = [h["move"] for h in gnubg.hint(100000)["hint"]]
        except Exception as e:  # no legal move: gnubg gives no hint
            moves = []
        after = "-"
        if move is not None:
            gnubg.command("move " + move)
            after = gnubg.positionid()
        out.write("R %d\t%s\t%s" % (n, "|".join(moves), after))
    elif kind == "M":
        gnubg.command("set cube use on")
        # A file gnubg cannot start a game from leaves no position: `-`.
        gnubg.command("new match 1")
        gnubg.command("import mat " + rest)
        try:
            out.ids("I ", n)
        except ValueError:
            out.write("I %d\t-\t-" % n)
out.close()
