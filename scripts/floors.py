#!/usr/bin/env python3
"""Checks that each crate's top-level modules keep to the floors that
docs/architecture.md draws.

    python3 scripts/floors.py            # every crate the document names

The document holds, per crate, a fenced block opened with ```floors CRATE
whose lines are `N name: module module ...`, the highest floor first. A
module may use (`crate::X`, outside `#[cfg(test)]` and comments) modules on
its own floor or below, never above, and no import circle may form on a
floor. Every top-level module of the crate must be named on exactly one
floor, and every name must be a module. Exit status 1 names each breach."""
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "architecture.md")


def floors_of(doc):
    """{crate: {module: floor}} from the ```floors CRATE blocks."""
    out, crate = {}, None
    for line in doc.splitlines():
        m = re.match(r"^```floors\s+(\S+)\s*$", line)
        if m:
            crate = m.group(1)
            out[crate] = {}
            continue
        if crate and line.startswith("```"):
            crate = None
            continue
        if crate:
            m = re.match(r"^\s*(\d+)\s+[^:]+:\s*(.*)$", line)
            if not m:
                continue
            for name in m.group(2).split():
                if name in out[crate]:
                    raise SystemExit(f"floors: {crate}: {name} is named twice")
                out[crate][name] = int(m.group(1))
    return out


def modules_of(src):
    """{top-level module: [files]} of a crate's src folder (tests left out)."""
    mods = {}
    for root, _dirs, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, f), src)
            top = rel.split("/")[0].removesuffix(".rs")
            if top in ("main", "lib") or f.endswith("_tests.rs") or f == "tests.rs":
                continue
            mods.setdefault(top, []).append(os.path.join(src, rel))
    return mods


def arrows_of(mods):
    """{(from, to): [files]} of the `crate::X` references outside tests."""
    arrows = collections.defaultdict(set)
    for top, files in mods.items():
        for p in files:
            with open(p, encoding="utf-8") as fh:
                s = fh.read()
            cut = s.find("#[cfg(test)]")
            if cut >= 0:
                s = s[:cut]
            s = "\n".join(l for l in s.splitlines() if not l.strip().startswith("//"))
            for m in re.finditer(r"crate::([a-z_0-9]+)", s):
                to = m.group(1)
                if to != top and to in mods:
                    arrows[(top, to)].add(os.path.relpath(p, ROOT))
    return arrows


def circles(nodes, arrows):
    """The import circles (strongly connected sets of two or more)."""
    out_of = collections.defaultdict(list)
    for a, b in arrows:
        out_of[a].append(b)
    index, low, stack, on, found, n = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in out_of[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            c = []
            while True:
                w = stack.pop()
                on.discard(w)
                c.append(w)
                if w == v:
                    break
            if len(c) > 1:
                found.append(sorted(c))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    with open(DOC, encoding="utf-8") as fh:
        declared = floors_of(fh.read())
    if not declared:
        raise SystemExit(f"floors: {DOC} draws no ```floors block")
    bad = []
    for crate, floor in sorted(declared.items()):
        src = os.path.join(ROOT, crate, "src")
        mods = modules_of(src)
        for m in sorted(set(mods) - set(floor)):
            bad.append(f"{crate}: module {m} is on no floor of docs/architecture.md")
        for m in sorted(set(floor) - set(mods)):
            bad.append(f"{crate}: docs/architecture.md names {m}, which is no module")
        arrows = arrows_of(mods)
        for (a, b), files in sorted(arrows.items()):
            if a in floor and b in floor and floor[b] > floor[a]:
                bad.append(
                    f"{crate}: {a} (floor {floor[a]}) uses {b} (floor {floor[b]}), "
                    f"above it: {sorted(files)}"
                )
        for c in circles(mods, arrows):
            bad.append(f"{crate}: import circle {c}")
        print(f"floors: {crate}: {len(mods)} modules on {len(set(floor.values()))} floors, "
              f"{len(arrows)} arrows")
    for b in bad:
        print(f"floors: {b}", file=sys.stderr)
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
