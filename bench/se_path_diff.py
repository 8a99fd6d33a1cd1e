"""Where this package's SE path leaves Sukaku Explainer's, puzzle by puzzle.

Replays each puzzle of a reference file (bench/data/serate_*.csv and its steps file)
with the package's pure-Python SE rater (`_techniques/_se_py.py`, the twin of `_se.pyx`), one
step at a time, and compares the steps of difficulty 2.6 and up (pointing and harder)
of both paths in order: their effect on the grid (the placements, or the candidates
removed). Singles and the direct techniques below 2.6 are left out of the comparison:
both raters apply them before anything harder, in orders that differ but reach the same
grid. Prints, per SE technique, how many puzzles first diverge at one of its steps, and
with ``--list`` each puzzle's first divergence (SE's step against ours).

The twin applies several chain conclusions in one step where SE applies one (see
`_se_py.py`), so once a path reaches chains a difference in the step's *effect* is expected
until that changes; the first divergence before chains is the one to read.

    python bench/se_path_diff.py bench/data/serate_techniques.csv \\
        bench/data/serate_techniques_steps.csv.gz --list
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import sys
from collections import Counter, defaultdict
from pathlib import Path

from sudoku_fast._base.se_scale import BASE, BEYOND, TECHNIQUES
from sudoku_fast._techniques import _se_py as se
from sudoku_fast._techniques._logic_py import LogicSolver

HARDER = 26  # tenths: the steps compared (pointing and harder)


def open_text(path: Path) -> io.TextIOBase:
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path), newline="")
    return path.open(newline="")


def name_of(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def effect(values0: list[int], cand0: list[int], values1: list[int], cand1: list[int]) -> str:
    """The effect in the steps files' notation."""
    placed = [f"{name_of(c)}={values1[c]}" for c in range(81) if not values0[c] and values1[c]]
    if placed:
        return " ".join(placed)
    out = []
    for c in range(81):
        if values1[c]:
            continue
        gone = cand0[c] & ~cand1[c]
        if gone:
            out.append(f"{name_of(c)}-{''.join(str(d + 1) for d in range(9) if gone >> d & 1)}")
    return " ".join(out)


def our_steps(puzzle: str, limit: int) -> list[tuple[str, int, str]]:
    """(technique, tenths, effect) of the twin's first `limit` steps."""
    values = [0 if ch == "." else int(ch) for ch in puzzle]
    s = LogicSolver(values)
    rater = se._Rater(s, se.DEFAULT_BUDGET)
    out: list[tuple[str, int, str]] = []
    score = 0
    while not s.solved and len(out) < limit:
        # `limit` bounds the steps kept (2.6 and up), enough to compare with SE's
        v0, c0 = list(s.values), list(s.cand)
        tech, tenths = rater.easy_step()
        if tech < 0:
            tenths = rater.chain_step(score)
            if tenths < 0:
                out.append(("beyond", BASE[BEYOND], ""))
                break
            tech = rater.last_tech
        score = max(score, tenths)
        if tenths >= HARDER:
            out.append((TECHNIQUES[tech], tenths, effect(v0, c0, list(s.values), list(s.cand))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference", type=Path, help="CSV of SE ratings (bench/data)")
    ap.add_argument("steps", type=Path, help="CSV of SE's steps (.csv or .csv.gz)")
    ap.add_argument("--list", action="store_true", help="print each first divergence")
    ap.add_argument("--limit", type=int, help="only the first N puzzles")
    args = ap.parse_args(argv)
    with open_text(args.reference) as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    paths: dict[str, list[dict[str, str]]] = defaultdict(list)
    with open_text(args.steps) as f:
        for r in csv.DictReader(f):
            paths[r["index"]].append(r)
    if args.limit:
        rows = rows[: args.limit]
    first: Counter[str] = Counter()
    same = 0
    for row in rows:
        theirs = [st for st in paths[row["index"]] if float(st["rating"]) >= HARDER / 10 - 1e-9]
        ours = our_steps(row["puzzle"], len(theirs))
        for k, step in enumerate(theirs):
            mine = ours[k] if k < len(ours) else ("(none)", 0, "")
            if mine[2] != step["effect"]:
                first[step["technique"]] += 1
                if args.list:
                    print(
                        f"#{row['index']} step {k + 1}: SE {step['rating']} {step['technique']}"
                        f" [{step['effect']}]; ours {mine[1] / 10:.1f} {mine[0]} [{mine[2]}]"
                    )
                break
        else:
            same += 1
    print(f"{len(rows)} puzzles: {same} with SE's path (steps of 2.6 and up) step for step")
    print("first divergence at a step of SE's technique:")
    for name, n in first.most_common():
        print(f"  {n:5d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
