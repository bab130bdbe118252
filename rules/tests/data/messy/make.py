#!/usr/bin/env python3
"""Writes the messy-record corpus (rules/tests/data/messy/).

Every file imitates one kind of defect seen in real tournament exports;
none is copied from one. The draughts games are the first plies of games of
../pdn/dutch96h.pdn (a clean file already in the tests), the chess games are
written here. Run from this folder: `python3 make.py`; the expected counts
per file are in ../../messy.rs.
"""
import re

PLIES = 20


def games():
    text = open("../pdn/dutch96h.pdn", encoding="utf-8").read()
    out = []
    for block in re.split(r"\n(?=\[Event)", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        body = re.sub(r"\[[^\]]*\]", "", block)
        body = re.sub(r"(\d+)([-x])\s+(\d+)", r"\1\2\3", body)
        moves = [m for m in re.findall(r"(?<![\d.])(\d{1,2})([-x])(\d{1,2})(?![\d.])", body)
                 if 1 <= int(m[0]) <= 50 and 1 <= int(m[2]) <= 50]
        moves = ["%s%s%s" % m for m in moves]
        if len(moves) >= PLIES:
            out.append((tags["White"], tags["Black"], moves[:PLIES]))
    return out


G = games()


def movetext(moves, glue=False, pad=False, tab=False):
    parts = []
    for i, m in enumerate(moves):
        if i % 2 == 0:
            n = "%02d." % (i // 2 + 1) if pad else "%d." % (i // 2 + 1)
            parts.append(n + m if glue else n + (" \t" if tab else " ") + m)
        else:
            parts.append(m)
    return " ".join(parts)


def tags(i, event="Messy open", extra=""):
    w, b, _ = G[i]
    return '[Event "%s"]\n[White "%s"]\n[Black "%s"]\n%s' % (event, w, b, extra)


def write(name, text, encoding="utf-8"):
    data = text.encode(encoding) if isinstance(text, str) else text
    open(name, "wb").write(data)


# 1. Escape sequences written out as text by a broken exporter.
t = ""
for i in range(3):
    t += tags(i, "Open &quot;Delft&quot; &amp; more").replace("\n", "\\r\\n")
    t += movetext(G[i][2]).replace(" 6.", "\\n 6.").replace(" 8.", " &amp; 8.") + " 2-0\\r\\n\n\n"
write("escapes.pdn", t)

# 2. Lone or broken tag lines.
t = "[\n" + tags(0) + "\n" + movetext(G[0][2]) + " 1-1\n\n"
t += '[Event "Messy\nopen"]\n[White "%s"]\n[Black "%s"]\n\n%s 0-2\n\n' % (G[1][0], G[1][1], movetext(G[1][2]))
t += '[\nEvent "Messy open"]\n[ "no name"]\n[White "%s"]\n[Black "%s"\n]\n[Date 1996.01.13]\n[Round "3\n\n%s 2-0\n\n' % (
    G[2][0], G[2][1], movetext(G[2][2]))
write("broken-tags.pdn", t)

# 3. Games that follow each other without a blank line; one without a
#    result and tags (it starts at move 1 again).
t = tags(0) + movetext(G[0][2]) + " 2-0\n" + tags(1) + movetext(G[1][2]) + "\n"
t += tags(2) + movetext(G[2][2]) + "\n" + movetext(G[3][2]) + " 1-1\n"
write("no-blank-lines.pdn", t)

# 4. Results as exporters write them, or missing at the very end.
t = ""
for i, r in enumerate(["-", "*", "4-6", "2-0", "0-2", "1-1", "1/2-1/2", ""]):
    t += tags(i % len(G), extra='[Result "%s"]\n' % r) + "\n" + movetext(G[i % len(G)][2]) + (" " + r if r else "") + "\n\n"
write("results.pdn", t.rstrip("\n"))

# 5. Windows-1252 names, a byte-order mark, mixed line ends, tabs,
#    zero-padded move numbers, moves glued to their numbers.
b = b"\xef\xbb\xbf"
b += ('[Event "Messy open"]\r\n[White "Hélène Müller"]\r\n[Black "%s"]\r\n\r\n' % G[0][1]).encode("cp1252")
b += (movetext(G[0][2], pad=True, tab=True) + "\t2-0\r\n\r\n").encode("cp1252")
b += ('[Event "Messy open"]\r[White "Šimon Žák"]\r[Black "Œdipe"]\r\r').encode("cp1252")
b += (movetext(G[1][2], glue=True) + " 0-2\r\r").encode("cp1252")
b += ('[Event "Messy open"]\n[White "Łukasz"]\n[Black "%s"]\n\n' % G[2][1]).encode("utf-8")
b += (movetext(G[2][2], glue=True, pad=True) + " 1-1\n").encode("utf-8")
write("encodings.pdn", b)

# 6. Junk in the move text and comments or variations that never close.
m = movetext(G[0][2]).split(" ")
m.insert(5, "}")
m.insert(9, "#")
m.insert(13, '"')
m.insert(17, "\x01")
t = tags(0) + "\n" + " ".join(m) + " 2-0\n\n"
t += tags(1) + "\n" + movetext(G[1][2][:10]) + " {never closed\n" + movetext(G[1][2])[len(movetext(G[1][2][:10])):] + " 0-2\n\n"
t += tags(2) + "\n" + movetext(G[2][2][:6]) + " (4. 99-98\n" + movetext(G[2][2])[len(movetext(G[2][2][:6])):] + " $x\n\n"
t += "} ) ]\n\n" + tags(3) + "\n" + movetext(G[3][2]) + " 1-1\n"
write("junk.pdn", t)

# 7. Where a game must still fail: an illegal move and an unreadable one,
#    among messy games that are kept.
bad = list(G[1][2])
bad[11] = "20-26"
t = "[\n" + tags(0) + movetext(G[0][2]) + " 2-0\n" + tags(1) + movetext(bad) + " &amp; 0-2\n"
t += tags(2) + movetext(G[2][2][:7]) + " 32-2x8 " + movetext(G[2][2])[len(movetext(G[2][2][:7])):] + "\n"
write("failures.pdn", t)

# 8. UTF-16 with a byte-order mark (as some Windows programs save).
write("utf16.pdn", "\ufeff" + tags(3, "Messy open") + "\r\n" + movetext(G[3][2]) + " 1-1\r\n", "utf-16-le")

# Chess.
RUY = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O"
QGD = "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6"
b = b"\xef\xbb\xbf" + '[Event "Messy open"]\\r\\n[White "Hélène"]\r\n[Black "Jürgen"]\r\n\r\n'.encode("cp1252")
b += (RUY.replace(" 2. ", " 2.").replace("4. Ba4", "04.Ba4") + " +- 1-0\r\n").encode("cp1252")
b += ('[\n[Event "Messy\nopen"]\n[ "x"]\n[White "A &amp; B"]\n[Black "C"]\n' + QGD.replace("5. e3", "5. e3 &amp;") + "\n").encode("utf-8")
b += ('[Event "Messy open"]\n[White "D"]\n[Black "E"]\n' + RUY + " {never closed\n" + "9. h3 -\n").encode("utf-8")
b += (QGD + " 7. Bh4 Kh7 Kh8 *\n").encode("utf-8")
write("messy.pgn", b)
