# What the scripts tandem's tests run inside GNU Backgammon share
# (`tandem_testkit::gnubg::ask` puts this folder on PYTHONPATH): the
# questions, one a line of $TANDEM_GNUBG_IN, the answers file
# $TANDEM_GNUBG_OUT, and gnubg's settings.
import os

import gnubg


def human_players():
    """Both players human: gnubg plays nothing by itself."""
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")


def zero_ply():
    """0-ply evaluations (hints and gnubg's own play in milliseconds) on
    two threads (one thread waits 10 ms a hint for its worker; two answer
    in about 3 ms)."""
    gnubg.command("set evaluation chequerplay evaluation plies 0")
    gnubg.command("set evaluation cubedecision evaluation plies 0")
    gnubg.command("set threads 2")


def questions():
    """The questions: each line of $TANDEM_GNUBG_IN that is not empty,
    without its newline."""
    for line in open(os.environ["TANDEM_GNUBG_IN"]):
        line = line.rstrip("\n")
        if line:
            yield line


class Answers:
    """$TANDEM_GNUBG_OUT, written a line at a time (flushed, so that what
    was answered before a crash is read)."""

    def __init__(self):
        self.out = open(os.environ["TANDEM_GNUBG_OUT"], "w")

    def write(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def ids(self, prefix, n):
        """`<prefix><n>\t<position id>\t<match id>` of the position now."""
        self.write("%s%d\t%s\t%s" % (prefix, n, gnubg.positionid(), gnubg.matchid()))

    def close(self):
        self.out.close()
