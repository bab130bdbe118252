# Runs inside GNU Backgammon (`gnubg -t -q -r -p gnubg_mat.py`) and writes
# Jellyfish .mat files for the arbiter's tests, one question a line of
# $TANDEM_GNUBG_IN, answers into $TANDEM_GNUBG_OUT:
#   P <length> <seed> <out.mat>  gnubg plays both sides of a match (0-ply,
#       the dice from the seed) and exports it with `export match mat`
#   X <in.mat> <out.mat>         gnubg imports a .mat file and exports it again
# Answers: `<n>\t<position id>\t<match id>` of the last position.
import gnubg
from tandem_gnubg import Answers, human_players, questions, zero_ply

zero_ply()

out = Answers()
for n, line in enumerate(questions(), 1):
    parts = line.split(" ")
    if parts[0] == "P":
        gnubg.command("set player 0 gnubg")
        gnubg.command("set player 1 gnubg")
        gnubg.command("set seed " + parts[2])
        gnubg.command("new match " + parts[1])
        gnubg.command("export match mat " + parts[3])
    elif parts[0] == "X":
        human_players()
        gnubg.command("set automatic roll off")
        gnubg.command("import mat " + parts[1])
        gnubg.command("export match mat " + parts[2])
    out.ids("", n)
out.close()
