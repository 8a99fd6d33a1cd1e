"""SE's nesting levels 2-4 ("+ Forcing Chains" and up, 9.5 and up): compiled and twin.

Rates puzzles of `bench/data/serate_hardest.csv` (Sukaku Explainer 1.18.1's ratings of
the forum's hardest lists) with `_se_py.rate_se(..., nesting=2)` (with --compiled: the
compiled `_se.se_path(..., nesting=2)`) and prints, per puzzle,
SE's score and technique, the twin's score, technique, status (0 complete, 1 budget,
3 beyond: a lower bound), steps, work and CPU seconds, and checks every value and every
candidate left after each step against the puzzle's solution (`unsound` must be 0).
The twin is slow (tens of CPU seconds per nested step): sample with --rows. With
--hybrid the compiled rater takes every step it can (its ladder ends at level 1) and
the twin only the steps past it, from the grid the compiled rater left; the compiled
rater then resumes from the twin's grid.

With --replay it replays instead every "Dynamic Contradiction Forcing Chains (+ Forcing
Chains)" step of SE's paths (bench/data/serate_hardest_steps.csv.gz) on SE's own grid
there (its earlier steps' effects applied): the twin's level-2 walk from SE's
assumption, its complexity (total and nested part) beside SE's, the difficulty both
give, and whether the contradiction is sound; then the compiled walk's complexity and
nested part and whether its whole walk (every node reached and its complexity) is the
twin's (and the work it counted), and the CPU seconds of both.

With --compare each puzzle is rated at level 2 by both, compiled and twin, and their
paths compared step by step (slow: the twin takes minutes on a level-2 puzzle).

--nesting 3 rates with SE's third level too (static cell and region forcing chains on
a walk's grid, 10.0 and up); --replay then replays SE's "(+ Multiple Forcing Chains)"
contradictions the same way, walked at level 3. --nesting 4 rates with SE's fourth
level too (SE's plain dynamic forcing chains on a dry walk's grid, 10.5 and up) and
replays SE's "(+ Dynamic Forcing Chains)" contradictions walked at level 4; with
--hybrid the compiled rater then takes levels 1-3 and the twin only the level-4
family, on the grids where the compiled rater finds nothing.

    python bench/se_nested.py [--rows 1,5,... | --rows all] [--budget N] [--nesting 2|3|4]
                              [--hybrid | --compiled | --compare | --replay]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import os
import re
import sys
import time
from array import array

from serate_replay import rater_before

import sudoku_fast as sf
from sudoku_fast._base import se_scale
from sudoku_fast._base.grid import geometry_for, parse_values
from sudoku_fast._techniques import _logic, _se, _se_py
from sudoku_fast._techniques._logic_py import LogicSolver

HERE = os.path.dirname(os.path.abspath(__file__))


def unsound_steps(path: list[_se_py.PathRecord], solution: list[int]) -> int:
    """Steps after which a value or a missing candidate disagrees with the solution."""
    bad = 0
    for _, _, values, cand, _ in path:
        if any(
            (v and v != s) or (not v and not cand[c] >> (s - 1) & 1)
            for c, (v, s) in enumerate(zip(values, solution, strict=True))
        ):
            bad += 1
    return bad


def rate_hybrid(
    puzzle: str, budget: int, nesting: int = 2
) -> tuple[_se_py.SeResult, list[_se_py.PathRecord]]:
    """The compiled rater's steps, and the twin's nested (level 2) chain steps where the
    compiled ladder ends (see the module docstring). With `nesting` 4 the compiled
    rater takes levels 1-3 and the twin only level 4's family where they find nothing."""
    compiled_nesting = 3 if nesting == 4 else 1
    geo = geometry_for(9)
    tables = _logic.tables_for(geo)
    values = parse_values(puzzle)
    solution = bytes(parse_values(sf.solve(puzzle) or ""))
    cand: list[int] | None = None
    path: list[_se_py.PathRecord] = []
    score, hardest, work, status = 0, -1, 0, se_scale.SE_OK
    while True:
        allowed = None if cand is None else array("Q", cand)
        _, _, _, done, records = _se.se_path(
            tables, bytes(values), solution, budget, allowed, nesting=compiled_nesting
        )
        cut = next((i for i, r in enumerate(records) if r[0] == se_scale.BEYOND), len(records))
        for tech, tenths, after, left, pattern in records[:cut]:
            path.append((tech, tenths, tuple(after), tuple(left), pattern))
            if tenths > score:
                score, hardest = tenths, tech
        if cut == len(records):
            status = done
            break
        if cut:
            values, cand = list(path[-1][2]), list(path[-1][3])
        s = LogicSolver(values, geo)
        for cell, mask in enumerate(cand or []):
            s.restrict(cell, mask)
        rater = _se_py._Rater(s, budget)
        rater.nesting = nesting
        tenths = rater.chain_step(first_family=7 if nesting == 4 else 0)
        work += rater.work
        if tenths < 0:
            over = rater.work > budget
            status = se_scale.SE_BUDGET if over else se_scale.SE_BEYOND
            bound = se_scale.BEYOND_TENTHS[nesting]
            if not over and score < bound:
                score, hardest = bound, se_scale.BEYOND
            break
        path.append((rater.last_tech, tenths, tuple(s.values), tuple(s.cand), None))
        print(f"  twin step {len(path)}: {tenths / 10:.1f}", file=sys.stderr, flush=True)
        if tenths > score:
            score, hardest = tenths, rater.last_tech
        values, cand = list(s.values), list(s.cand)
    return _se_py.SeResult(score, hardest, len(path), status, work), path


def replay(nesting: int) -> None:
    """The --replay table (see the module docstring) and its totals."""
    with open(os.path.join(HERE, "data", "serate_hardest.csv"), newline="") as f:
        puzzles = {r["index"]: r["puzzle"] for r in csv.DictReader(f)}
    with gzip.open(os.path.join(HERE, "data", "serate_hardest_steps.csv.gz")) as raw:
        steps = list(csv.DictReader(io.TextIOWrapper(raw, newline="")))
    level_two = (
        _se_py.UNIT_LINKS
        | _se_py.CELL_LINKS
        | _se_py.DYNAMIC_LINKS
        | _se_py.NESTED_LINKS
        | _se_py.NESTED_CHAINS
    )
    technique = "Dynamic Contradiction Forcing Chains (+ Forcing Chains)"
    base = se_scale.BASE[se_scale.DYNAMIC_PLUS_FC]
    if nesting == 3:
        level_two |= _se_py.NESTED_MULTIPLE
        technique = "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)"
        base = se_scale.BASE[se_scale.DYNAMIC_PLUS_MFC]
    elif nesting == 4:
        level_two |= _se_py.NESTED_DYNAMIC
        technique = "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)"
        base = se_scale.BASE[se_scale.DYNAMIC_PLUS_DFC]
    same_score = same_nested = same_total = unsound = count = compiled_equal = 0
    cpu_twin = cpu_compiled = 0.0
    print(
        "row step  SE: score total nested / twin: score total nested  sound cpu_s"
        " / compiled: total nested same_walk cpu_s"
    )
    for st in steps:
        if st["technique"] != technique:
            continue
        index, number = st["index"], int(st["step"])
        own = [before for before in steps if before["index"] == index]
        rater = rater_before(puzzles[index], own, number)
        found = re.search(r"r(\d)c(\d)\.(\d) (on|off)", st["description"])
        assert found is not None, st["description"]
        cell = (int(found[1]) - 1) * 9 + int(found[2]) - 1
        digit, on = int(found[3]), found[4] == "on"
        start = time.process_time()
        reached, total = rater.walk(cell, digit, on, level_two)
        cpu = time.process_time() - start
        allowed = array("Q", rater.s.cand)
        start = time.process_time()
        c_total, c_nested, c_work, c_reached = _se.se_walk(
            _logic.tables_for(geometry_for(9)), bytes(rater.s.values), allowed, cell, digit,
            on, level_two, se_scale.DEFAULT_BUDGET,
        )  # fmt: skip
        c_cpu = time.process_time() - start
        solution = parse_values(sf.solve(puzzles[index]) or "")
        sound = (solution[cell] != digit) if on else (solution[cell] == digit)
        score = base + se_scale.length_tenths(total - 2) if total > 0 else -1
        se_total = int(st["complexity"])
        se_nested = se_total - int(st["flat_complexity"])
        nested = rater.last_nested if total > 0 else -1
        same_walk = (c_total, c_nested if c_total > 0 else -1, c_work, c_reached) == (
            total,
            nested,
            rater.work,
            reached,
        )
        compiled_equal += same_walk
        cpu_twin += cpu
        cpu_compiled += c_cpu
        count += 1
        same_score += score == round(float(st["rating"]) * 10)
        same_nested += nested == se_nested
        same_total += total == se_total
        unsound += not sound
        print(
            f"{index:>3} {number:>4}  {st['rating']} {se_total} {se_nested} / "
            f"{score / 10:.1f} {total} {nested}  {sound} {cpu:.2f} / "
            f"{c_total} {c_nested} {same_walk} {c_cpu:.3f}",
            flush=True,
        )
    print(
        f"{count} steps: difficulty equal {same_score}, nested part equal {same_nested}, "
        f"total equal {same_total}, unsound {unsound}; compiled walk equal to the twin's "
        f"{compiled_equal}; "
        f"CPU s twin {cpu_twin:.2f}, compiled {cpu_compiled:.3f}"
    )


def compare(which: str, budget: int) -> None:
    """The --compare table: each puzzle rated at level 2 by the compiled rater and by
    the twin, whether their paths are equal step by step (technique, difficulty,
    values and candidates after each step) and the CPU seconds of each."""
    with open(os.path.join(HERE, "data", "serate_hardest.csv"), newline="") as f:
        rows = {r["index"]: r for r in csv.DictReader(f)}
    geo = geometry_for(9)
    tables = _logic.tables_for(geo)
    print("row  SE  compiled: score status steps cpu_s / twin: score status steps cpu_s  equal")
    for index in rows if which == "all" else which.split(","):
        values = parse_values(rows[index]["puzzle"])
        solution = parse_values(sf.solve(rows[index]["puzzle"]) or "")
        start = time.process_time()
        c_score, _, c_steps, c_status, records = _se.se_path(
            tables, bytes(values), bytes(solution), budget, nesting=2
        )
        c_cpu = time.process_time() - start
        path: list[_se_py.PathRecord] = []
        start = time.process_time()
        result = _se_py.rate_se(values, geo, solution, budget, path, nesting=2)
        t_cpu = time.process_time() - start
        same = (c_score, c_steps, c_status) == (result.score, result.steps, result.status) and [
            (r[0], r[1], tuple(r[2]), tuple(r[3])) for r in records
        ] == [(r[0], r[1], tuple(r[2]), tuple(r[3])) for r in path]
        print(
            f"{index:>3} {rows[index]['se']:>4}  {c_score / 10:.1f} {c_status} {c_steps} "
            f"{c_cpu:.2f} / {result.score / 10:.1f} {result.status} {result.steps} "
            f"{t_cpu:.2f}  {same}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1", help="indexes of serate_hardest.csv rows")
    parser.add_argument("--budget", type=int, default=se_scale.DEFAULT_BUDGET)
    parser.add_argument("--hybrid", action="store_true", help="compiled steps below level 2")
    parser.add_argument("--compiled", action="store_true", help="the compiled rater throughout")
    parser.add_argument("--compare", action="store_true", help="compiled and twin, step by step")
    parser.add_argument("--replay", action="store_true", help="SE's (+FC) steps on SE's grids")
    parser.add_argument("--nesting", type=int, default=2, choices=(2, 3, 4))
    args = parser.parse_args()
    if args.replay:
        replay(args.nesting)
        return
    if args.compare:
        compare(args.rows, args.budget)
        return
    with open(os.path.join(HERE, "data", "serate_hardest.csv"), newline="") as f:
        rows = {r["index"]: r for r in csv.DictReader(f)}
    geo = geometry_for(9)
    tables = _logic.tables_for(geo)
    side = "compiled" if args.compiled else "twin"
    print(
        f"row  SE    SE technique SE_cpu_s / {side}: "
        "score technique status steps work cpu_s unsound"
    )
    for index in rows if args.rows == "all" else args.rows.split(","):
        row = rows[index]
        values = parse_values(row["puzzle"])
        solution = parse_values(sf.solve(row["puzzle"]) or "")
        path: list[_se_py.PathRecord] = []
        start = time.process_time()
        if args.compiled:
            score, hardest, steps, status, records = _se.se_path(
                tables, bytes(values), bytes(solution), args.budget, nesting=args.nesting
            )
            result = _se_py.SeResult(score, hardest, steps, status, -1)
            path = [(r[0], r[1], tuple(r[2]), r[3], r[4]) for r in records]
        elif args.hybrid:
            result, path = rate_hybrid(row["puzzle"], args.budget, args.nesting)
        else:
            result = _se_py.rate_se(values, geo, solution, args.budget, path, nesting=args.nesting)
        cpu = time.process_time() - start
        technique = se_scale.TECHNIQUES[result.hardest] if result.hardest >= 0 else "-"
        print(
            f"{index:>3}  {row['se']:>4}  {row['technique']} {row.get('cpu_s', '-')} / "
            f"{result.score / 10:.1f} "
            f"{technique} {result.status} {result.steps} {result.work} {cpu:.1f} "
            f"{unsound_steps(path, solution)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
