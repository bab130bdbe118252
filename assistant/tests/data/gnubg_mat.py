# Runs inside GNU Backgammon (`gnubg -t -q -r -p gnubg_mat.py`) and writes
# Jellyfish .mat files for the arbiter's tests, one question a line of
# $TANDEM_GNUBG_IN, answers into $TANDEM_GNUBG_OUT:
#   P <length> <seed> <out.mat>  gnubg plays both sides of a match (0-ply,
#       the dice from the seed) and exports it with `export match mat`
#   X <in.mat> <out.mat>         gnubg imports a .mat file and exports it again
# Answers: `<n>\t<position id>\t<match id>` of the last position.
import os
import gnubg

gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("set evaluation cubedecision evaluation plies 0")
gnubg.command("set threads 2")

out = open(os.environ["TANDEM_GNUBG_OUT"], "w")
n = 0
for line in open(os.environ["TANDEM_GNUBG_IN"]):
    line = line.rstrip("\n")
    if not line:
        continue
    n += 1
    parts = line.split(" ")
    if parts[0] == "P":
        gnubg.command("set player 0 gnubg")
        gnubg.command("set player 1 gnubg")
        gnubg.command("set seed " + parts[2])
        gnubg.command("new match " + parts[1])
        gnubg.command("export match mat " + parts[3])
    elif parts[0] == "X":
        gnubg.command("set player 0 human")
        gnubg.command("set player 1 human")
        gnubg.command("set automatic roll off")
        gnubg.command("import mat " + parts[1])
        gnubg.command("export match mat " + parts[2])
    out.write("%d\t%s\t%s\n" % (n, gnubg.positionid(), gnubg.matchid()))
    out.flush()
out.close()
