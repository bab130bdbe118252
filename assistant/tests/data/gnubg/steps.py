# Runs inside GNU Backgammon (`gnubg -t -q -r -p steps.py`): plays a match
# step by step from the commands in $TANDEM_GNUBG_IN, one a line:
#   C <gnubg command>   run it, answer nothing (new match, set turn, new game)
#   Q <gnubg command>   run it, then answer `I <n>\t<position id>\t<match id>`
# into $TANDEM_GNUBG_OUT, so a test compares tandem's IDs at each step
# (a double offered, taken, passed, the Crawford game) with gnubg's.
import gnubg
from tandem_gnubg import Answers, human_players, questions

human_players()
# Otherwise gnubg rolls for the next player and starts games itself.
for c in ["set automatic roll off", "set automatic game off",
          "set cube use on", "set jacoby off"]:
    gnubg.command(c)

out = Answers()
n = 0
for line in questions():
    kind, cmd = line.split(" ", 1)
    gnubg.command(cmd)
    if kind == "Q":
        n += 1
        out.ids("I ", n)
out.close()
