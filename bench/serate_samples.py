"""Choose the puzzles of the Sukaku Explainer reference sets (bench/data/serate_*.csv).

Writes CSV files with a ``puzzle`` column (and where they came from) for the three
reference sets under bench/data/ (see bench/README.md, "Sukaku Explainer reference
ratings"). Each choice is deterministic for a given input file and package build:

* ``hardest``: all of norvig_hardest.txt (11) and rust_sudoku_crate_hard (20), then the
  50 of magictour_top1465 that this package currently scores hardest
  (``rate_many(score=True)``, ties broken by the engine's guess count from
  ``solve_stats``, more guesses first, then by line). The engine's guess count alone
  does not pick hard puzzles on the SE scale: the most guessed of top1465 include SE
  2.0-3.4 puzzles.
* ``techniques``: from sudoku_exchange_se_rated.csv, SE 4.0 and up, per SE value: up to
  10 puzzles whose bank rating this package's score misses (5 where the value has fewer
  than 30 such puzzles) and 3 it matches, drawn with a seeded RNG. These carry the
  techniques the package lacks or rates differently; their SE paths are recorded.
* ``random``: from the same bank, 50 rows drawn uniformly from each SE band 5, 6, 7, 8
  and 9 (5.0-5.9, ...), with a seeded RNG: an unbiased sample for agreement and for SE's
  cost per puzzle.

Usage::

    python bench/serate_samples.py hardest -o hardest_input.csv
    python bench/serate_samples.py techniques -o techniques_input.csv
    python bench/serate_samples.py random -o random_input.csv
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections import defaultdict
from pathlib import Path

import sudoku_fast as sf

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SEED = 37


def read_lines(path: Path) -> list[tuple[int, str]]:
    """(1-based line, puzzle) for each puzzle line of a text file."""
    out = []
    for i, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if len(line) >= 81 and not line.startswith("#"):
            out.append((i, line[:81].replace("0", ".")))
    return out


def hardest(data: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for line, p in read_lines(data / "norvig_hardest.txt"):
        rows.append({"puzzle": p, "source": "norvig_hardest", "source_line": line})
    with (data / "rust_sudoku_crate_hard_with_solutions.csv").open() as f:
        for line, r in enumerate(csv.DictReader(f), 2):
            p = r["puzzle"].replace("0", ".")
            rows.append({"puzzle": p, "source": "rust_sudoku_crate_hard", "source_line": line})
    magic = read_lines(data / "magictour_top1465.txt")
    puzzles = [p for _, p in magic]
    ratings = sf.rate_many(puzzles, threads=1, score=True)
    guesses = sf.solve_stats(puzzles, threads=1).guesses
    order = sorted(
        range(len(magic)),
        key=lambda k: (-ratings[k].score, -int(guesses[k]), magic[k][0]),
    )
    for k in order[:50]:
        rows.append(
            {
                "puzzle": magic[k][1],
                "source": "magictour_top1465",
                "source_line": magic[k][0],
                "ours_then": ratings[k].score,
                "guesses": int(guesses[k]),
            }
        )
    return rows


def bank(data: Path) -> list[dict[str, str]]:
    with (data / "sudoku_exchange_se_rated.csv").open() as f:
        rows = list(csv.DictReader(f))
    for i, r in enumerate(rows):
        r["bank_row"] = str(i)
    return rows


def techniques(data: Path) -> list[dict[str, object]]:
    rows = [r for r in bank(data) if float(r["se_rating"]) >= 4.0]
    ratings = sf.rate_many([r["puzzle"] for r in rows], threads=1, score=True)
    miss: dict[str, list[dict[str, object]]] = defaultdict(list)
    match: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r, x in zip(rows, ratings, strict=True):
        item = {
            "puzzle": r["puzzle"],
            "bank_se": r["se_rating"],
            "bank_row": r["bank_row"],
            "ours_then": x.score,
            "ours_technique_then": x.score_technique,
        }
        same = abs(x.score - float(r["se_rating"])) < 0.05
        (match if same else miss)[r["se_rating"]].append(item)
    rng = random.Random(SEED)
    out: list[dict[str, object]] = []
    for value in sorted(set(miss) | set(match), key=float):
        wrong = miss.get(value, [])
        take = 10 if len(wrong) >= 30 else 5
        out += rng.sample(wrong, min(take, len(wrong)))
        right = match.get(value, [])
        out += rng.sample(right, min(3, len(right)))
    return out


def random_sample(data: Path) -> list[dict[str, object]]:
    rows = bank(data)
    rng = random.Random(SEED)
    out: list[dict[str, object]] = []
    for band in (5, 6, 7, 8, 9):
        inside = [r for r in rows if int(float(r["se_rating"])) == band]
        for r in rng.sample(inside, min(50, len(inside))):
            out.append(
                {"puzzle": r["puzzle"], "bank_se": r["se_rating"], "bank_row": r["bank_row"]}
            )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", choices=["hardest", "techniques", "random"])
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=DATA, help="the shared data folder")
    args = ap.parse_args(argv)
    make = {"hardest": hardest, "techniques": techniques, "random": random_sample}[args.set]
    rows = make(args.data)
    fields: list[str] = []
    for r in rows:
        fields += [k for k in r if k not in fields]
    with args.output.open("w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    print(f"{args.output}: {len(rows)} puzzles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
