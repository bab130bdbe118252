# Runs inside GNU Backgammon (`gnubg -t -q -r -p steps.py`): plays a match
# step by step from the commands in $TANDEM_GNUBG_IN, one a line:
#   C <gnubg command>   run it, answer nothing (new match, set turn, new game)
#   Q <gnubg command>   run it, then answer `I <n>\t<position id>\t<match id>`
# into $TANDEM_GNUBG_OUT, so a test compares tandem's IDs at each step
# (a double offered, taken, passed, the Crawford game) with gnubg's.
import os
import gnubg

for c in ["set player 0 human", "set player 1 human",
          # Otherwise gnubg rolls for the next player and starts games itself.
          "set automatic roll off", "set automatic game off",
          "set cube use on", "set jacoby off"]:
    gnubg.command(c)

out = open(os.environ["TANDEM_GNUBG_OUT"], "w")
n = 0
for line in open(os.environ["TANDEM_GNUBG_IN"]):
    line = line.rstrip("\n")
    if not line:
        continue
    kind, cmd = line.split(" ", 1)
    gnubg.command(cmd)
    if kind == "Q":
        n += 1
        out.write("I %d\t%s\t%s\n" % (n, gnubg.positionid(), gnubg.matchid()))
    out.flush()
out.close()
