"""Sukaku Explainer's unique rectangle and loop steps, taken again on SE's own grids.

For every step of a reference path file (bench/data/serate_*_steps.csv.gz, Sukaku
Explainer 1.18.1) whose technique is a unique rectangle or loop, replays SE's earlier
steps' effects on the puzzle, asks the compiled rater and its twin for one step on that
grid, and counts how often the step is a unique rectangle or loop with SE's difficulty
and SE's eliminations; then lists the others (which side, file, row, step, SE's step,
ours).

    python bench/se_unique_steps.py [bench/data/serate_techniques.csv ...]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
from array import array
from collections import Counter
from pathlib import Path

from serate_replay import rater_before

import sudoku_fast as sf
from sudoku_fast._base import se_scale
from sudoku_fast._base.grid import geometry_for, parse_values
from sudoku_fast._techniques import _logic, _se
from sudoku_fast._techniques import _se_py as se

DATA = Path(__file__).resolve().parent / "data"
DEFAULT = [DATA / "serate_techniques.csv", DATA / "serate_hardest.csv"]


def removed(cand: list[int], after_values: tuple[int, ...], after_cand: tuple[int, ...]) -> str:
    """The step's eliminations in SE's notation (r1c2-34), sorted."""
    gone = [
        f"r{c // 9 + 1}c{c % 9 + 1}-"
        + "".join(str(d + 1) for d in range(9) if (cand[c] & ~after_cand[c]) >> d & 1)
        for c in range(81)
        if not after_values[c] and cand[c] & ~after_cand[c]
    ]
    return " ".join(sorted(gone))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, default=DEFAULT)
    args = ap.parse_args()
    tables = _logic.tables_for(geometry_for(9))
    counts: Counter[tuple[str, str]] = Counter()
    misses = []
    for path in args.files:
        steps_path = path.with_name(path.stem + "_steps.csv.gz")
        if not steps_path.exists():
            print(f"{steps_path}: no path file, skipped")
            continue
        with path.open(newline="") as f:
            puzzles = {r["index"]: r["puzzle"] for r in csv.DictReader(f)}
        by_row: dict[str, list[dict[str, str]]] = {}
        with gzip.open(steps_path) as raw:
            for r in csv.DictReader(io.TextIOWrapper(raw, newline="")):
                by_row.setdefault(r["index"], []).append(r)
        for index, steps in by_row.items():
            for st in steps:
                if not st["technique"].startswith("Unique "):
                    continue
                puzzle = puzzles[index]
                rater = rater_before(puzzle, steps, int(st["step"]))
                values, cand = list(rater.s.values), list(rater.s.cand)
                solution = bytes(parse_values(sf.solve(puzzle) or ""))
                call = (bytes(values), solution, se_scale.DEFAULT_BUDGET, array("Q", cand), 1)
                want = (round(float(st["rating"]) * 10), " ".join(sorted(st["effect"].split())))
                for side, module in (("compiled", _se), ("twin", se)):
                    tech, tenths, after_values, after_cand, _ = module.se_path(tables, *call)[4][0]
                    name = se_scale.TECHNIQUES[tech]
                    got = (tenths, removed(cand, after_values, after_cand))
                    ok = name == "unique rectangle" and got == want
                    counts[(side, "SE's step" if ok else "another step")] += 1
                    if not ok:
                        misses.append((side, path.name, index, st["step"], st, name, got))
    for (side, verdict), n in sorted(counts.items()):
        print(f"{side:9} {verdict:13} {n}")
    for side, name, index, step, st, tech, (tenths, effect) in misses:
        print(
            f"{side} {name} row {index} step {step}: SE {st['technique']} {st['rating']} "
            f"{st['effect']} | ours {tech} {tenths / 10:.1f} {effect}"
        )


if __name__ == "__main__":
    main()
