"""Canonical forms are keys users store: every form must stay the one the package gave
before the search was rewritten (main at 0e76eb6, a depth-first search over the
symmetry group with no special case for full grids). `canonical_forms_0e76eb6.csv.gz`
holds that build's forms of a fixed set of grids, made from the vendored samples by
`cases()`; this file checks the current build against them, and checks full grids
against a brute force over the whole group.

To write the file again (only ever with the build the file is named for):

    pip install git+...@0e76eb6   # or a checkout of that commit
    python tests/test_canonical_forms.py --write
"""

from __future__ import annotations

import csv
import gzip
import io
import itertools
import random
import sys
from pathlib import Path

import pytest

import sudoku_fast as sf
from sudoku_fast._base.grid import format_values, geometry_for, parse_grid
from sudoku_fast._symmetry import _canon_py

VENDORED = Path(__file__).resolve().parent / "data"
FORMS = VENDORED / "canonical_forms_0e76eb6.csv.gz"


def _lines(name: str) -> list[str]:
    return [line.strip() for line in (VENDORED / name).read_text().splitlines() if line.strip()]


def _rows(name: str) -> list[dict[str, str]]:
    with (VENDORED / name).open(newline="") as f:
        return list(csv.DictReader(f))


def _holes(grid: str, count: int, rng: random.Random) -> str:
    cells = list(grid)
    for i in rng.sample(range(len(cells)), count):
        cells[i] = "."
    return "".join(cells)


def _sparse(n: int, box: tuple[int, int], clues: int, rng: random.Random) -> str:
    """Up to `clues` random clues with no symbol repeated in a row or column."""
    values = [0] * (n * n)
    for _ in range(clues):
        r, c, v = rng.randrange(n), rng.randrange(n), rng.randrange(1, n + 1)
        if v not in values[r * n : (r + 1) * n] and v not in values[c::n]:
            values[r * n + c] = v
    return format_values(values, geometry_for(n, box))


def cases() -> list[tuple[str, str]]:
    """(box, grid) pairs: puzzles, full grids and nearly full grids of every vendored
    size, as published and moved by a random symmetry, and random sparse grids."""
    rng = random.Random(34)
    out: list[tuple[str, str]] = []

    def add(grids: list[str], box: tuple[int, int]) -> None:
        tag = f"{box[0]}x{box[1]}"
        for i, grid in enumerate(grids):
            out.append((tag, grid))
            out.append((tag, sf.random_transform(grid, seed=i, box=box)))

    kaggle = _rows("kaggle_bryanpark_sample500_with_solutions.csv")
    add([r["puzzle"] for r in kaggle[:150]], (3, 3))
    add([r["solution"] for r in kaggle[150:250]], (3, 3))
    add([_holes(r["solution"], 1 + i % 45, rng) for i, r in enumerate(kaggle[250:350])], (3, 3))
    add(_lines("sudoku17_sample.txt")[:120], (3, 3))
    add([_sparse(9, (3, 3), rng.randrange(0, 40), rng) for _ in range(40)], (3, 3))
    add(_lines("sudoku4_sat_assignment_100.txt"), (2, 2))
    add([sf.solve(p) or p for p in _lines("sudoku4_sat_assignment_100.txt")[:20]], (2, 2))
    for name, box in [
        ("sudoku6_2x3.csv", (2, 3)),
        ("sudoku8_2x4.csv", (2, 4)),
        ("sudoku10_2x5.csv", (2, 5)),
        ("sudoku12_3x4.csv", (3, 4)),
        ("sudoku15_3x5.csv", (3, 5)),
        ("sudoku16_misc.csv", (4, 4)),
        ("sudoku25_misc.csv", (5, 5)),
    ]:
        puzzles = [r["puzzle"] for r in _rows(name)]
        add(puzzles, box)
        if box[0] * box[1] < 16:  # see write(): larger full grids took the old build hours
            add([sf.solve(p, box=box) or p for p in puzzles], box)
    for box in [(2, 3), (3, 2), (2, 4), (4, 2)]:
        n = box[0] * box[1]
        add([_sparse(n, box, rng.randrange(0, 3 * n), rng) for _ in range(10)], box)
    goomii = _rows("sudoku16_goomii_sample100_with_solutions.csv")
    add([r["puzzle"] for r in goomii[:30]], (4, 4))
    return out


def _box(tag: str) -> tuple[int, int]:
    rows, cols = tag.split("x")
    return int(rows), int(cols)


def write(path: Path) -> None:
    """The forms of `cases()` as this build gives them. A full grid up to 15x15 that runs
    out of the default budget is searched again with no budget (the build of 0e76eb6
    took 0.3 s on a full 12x12 grid, 55 s on a 15x15 one); other grids that run out
    are left out (full 16x16 and 25x25 grids: more than 10^8 steps)."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["box", "grid", "form"])
    for tag, grid in cases():
        box = _box(tag)
        try:
            form = sf.canonical(grid, box=box)
        except sf.SearchLimitExceeded:
            if "." in grid or box[0] * box[1] > 15:
                continue
            form = sf.canonical(grid, box=box, max_nodes=None)
        writer.writerow([tag, grid, form])
    path.write_bytes(gzip.compress(text.getvalue().encode(), mtime=0))


def _stored() -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(gzip.decompress(FORMS.read_bytes()).decode())))


def test_the_stored_cases_are_the_cases() -> None:
    # The file was written from cases(): the same grids, in the same order, less those
    # the old build could not finish.
    stored = [(row["box"], row["grid"]) for row in _stored()]
    made = iter(cases())
    assert all(case in made for case in stored)
    assert len(stored) > 1500


def test_every_form_is_the_one_the_old_build_gave() -> None:
    stored = _stored()
    by_box: dict[str, list[dict[str, str]]] = {}
    for row in stored:
        by_box.setdefault(row["box"], []).append(row)
    for tag, rows in by_box.items():
        grids = [row["grid"] for row in rows]
        forms = sf.canonical_many(grids, box=_box(tag), threads=2)
        pairs = zip(grids, forms, rows, strict=True)
        wrong = [(g, f, row["form"]) for g, f, row in pairs if f != row["form"]]
        assert not wrong, f"{tag}: {len(wrong)} forms changed, first {wrong[0]}"


def test_single_calls_agree_with_the_batch() -> None:
    for row in _stored()[::25]:
        box = _box(row["box"])
        assert sf.canonical(row["grid"], box=box) == row["form"]
        moved = sf.canonical_transform(row["grid"], box=box)
        assert sf.apply_transformation(row["grid"], moved, box=box) == row["form"]


# ---------------------------------------------------------------- full grids, brute force


def _full_grid_brute_force(grid: str) -> str:
    """The canonical form of a full 9x9 grid by trying every element of the group.

    Every orientation, row order and column order (2 x 1296 x 1296 arrangements), each
    numbered by first appearance: in a full grid the first row holds every digit, so a
    digit's number is its place in that row. The row orders are a loop; the column
    orders are tried all at once (numpy).
    """
    np = pytest.importorskip("numpy")
    values = np.frombuffer(bytes(parse_grid(grid)[1]), dtype=np.uint8).reshape(9, 9)
    values = values.astype(np.int64)
    orders = []
    for bands in itertools.permutations(range(3)):
        for inner in itertools.product(itertools.permutations(range(3)), repeat=3):
            orders.append([b * 3 + inner[k][i] for k, b in enumerate(bands) for i in range(3)])
    cols = np.array(orders)  # 1296 x 9
    best: list[int] | None = None
    for square in (values, values.T):
        for rows in orders:
            arranged = square[rows][:, cols]  # 9 x 1296 x 9: row, column order, column
            arranged = arranged.transpose(1, 0, 2).reshape(len(orders), 81)
            labels = np.zeros((len(orders), 10), dtype=np.int64)
            np.put_along_axis(labels, arranged[:, :9], np.arange(1, 10), axis=1)
            images = np.take_along_axis(labels, arranged, axis=1)
            # The smallest image: keep the rows smallest in column 0, then 1, ...
            keep = images
            for k in range(81):
                keep = keep[keep[:, k] == keep[:, k].min()]
                if len(keep) == 1:
                    break
            least = [int(v) for v in keep[0]]
            if best is None or least < best:
                best = least
    assert best is not None
    return "".join(str(v) for v in best)


@pytest.mark.slow
def test_full_9x9_grids_match_a_brute_force_over_the_whole_group() -> None:
    for row in _rows("kaggle_bryanpark_sample500_with_solutions.csv")[:3]:
        grid = sf.random_transform(row["solution"], seed=5)
        assert sf.canonical(grid) == _full_grid_brute_force(grid)


def test_large_full_grids_are_witnessed_invariant_and_minimal_among_samples() -> None:
    # No old form to compare with (see write()): the form must be the image of the grid
    # under the returned symmetry (applied in plain Python), the same for moved copies,
    # and no larger than any of a sample of the grid's images.
    goomii = _rows("sudoku16_goomii_sample100_with_solutions.csv")[:6]
    sets = [([r["solution"] for r in goomii], (4, 4))]
    sets.append(([sf.solve(r["puzzle"]) or "" for r in _rows("sudoku25_misc.csv")[:2]], (5, 5)))
    for grids, box in sets:
        for grid in grids:
            geometry, values = parse_grid(grid, box=box)
            form = sf.canonical(grid, box=box)
            moved = sf.canonical_transform(grid, box=box)
            image = _canon_py.transform_values(values, geometry, moved)
            assert format_values(image, geometry) == form
            for seed in range(12):
                other = sf.random_transform(grid, seed=seed, box=box)
                assert form <= other
                if seed < 3:
                    assert sf.canonical(other, box=box) == form


def test_small_full_grids_match_the_brute_force() -> None:
    # Every element of the group, in plain Python (the twin, _canon_py.canonical_values).
    sets = [
        (_lines("sudoku4_sat_assignment_100.txt")[:12], (2, 2)),
        ([r["puzzle"] for r in _rows("sudoku6_2x3.csv")], (2, 3)),
        ([r["puzzle"] for r in _rows("sudoku8_2x4.csv")], (2, 4)),
    ]
    for puzzles, box in sets:
        for seed, puzzle in enumerate(puzzles):
            full = sf.solve(puzzle, box=box)
            assert full is not None
            grid = sf.random_transform(full, seed=seed, box=box)
            geometry, values = parse_grid(grid, box=box)
            expected = format_values(_canon_py.canonical_values(values, geometry), geometry)
            assert sf.canonical(grid, box=box) == expected


# ---------------------------------------------------------------- classes of 9x9 row pairs


def _smallest_row2(f: list[int]) -> tuple[int, ...]:
    """The smallest w f w^-1 over every rearrangement w of 9 columns that keeps the
    stacks whole (what row 2 reads when row 1 is numbered 1..9), by trying all 1296."""
    best: tuple[int, ...] | None = None
    for stacks in itertools.permutations(range(3)):
        for inner in itertools.product(itertools.permutations(range(3)), repeat=3):
            w = [stacks[c // 3] * 3 + inner[c // 3][c % 3] for c in range(9)]
            h = [0] * 9
            for c in range(9):
                h[w[c]] = w[f[c]]
            if best is None or tuple(h) < best:
                best = tuple(h)
    assert best is not None
    return best


def test_row_pair_classes_rank_pairs_by_their_smallest_row_2() -> None:
    # The table that decides which top-row pairs of a full 9x9 grid are searched, against
    # a brute force over the column rearrangements, on pairs of rows of real bands.
    from sudoku_fast._symmetry import _canon

    pairs: dict[tuple[int, ...], int] = {}
    for row in _rows("kaggle_bryanpark_sample500_with_solutions.csv")[:40]:
        grid = [int(ch) for ch in row["solution"]]
        for r1, r2 in [(0, 1), (4, 3), (8, 6)]:
            column_of = {grid[r1 * 9 + c]: c for c in range(9)}
            f = tuple(column_of[grid[r2 * 9 + c]] for c in range(9))
            pairs[f] = _canon.pair_rank(bytes(f))
    assert _canon.pair_classes() == len({_canon.pair_rank(bytes(f)) for f in pairs}) == 15
    smallest = {f: _smallest_row2(list(f)) for f in pairs}
    for f, g in itertools.combinations(pairs, 2):
        assert (pairs[f] < pairs[g]) == (smallest[f] < smallest[g])
        assert (pairs[f] == pairs[g]) == (smallest[f] == smallest[g])
    # A column sent into its own stack: no band pair, no class.
    assert _canon.pair_rank(bytes([1, 0, 2, 3, 4, 5, 6, 7, 8])) == 0
    with pytest.raises(ValueError, match="permutation"):
        _canon.pair_rank(bytes([0, 0, 1, 2, 3, 4, 5, 6, 7]))


def test_an_alphabet_outside_ascii_takes_the_same_forms() -> None:
    # canonical_many makes ASCII strings in its worker threads; other alphabets go
    # through format_values. Both give the forms single calls give.
    greek = "αβγδ"
    puzzles = [
        p.translate(str.maketrans("1234", greek)) for p in _lines("sudoku4_sat_assignment_100.txt")
    ]
    forms = sf.canonical_many(puzzles, alphabet=greek, threads=2)
    assert forms == [sf.canonical(p, alphabet=greek) for p in puzzles]
    assert forms == [
        f.translate(str.maketrans("1234", greek))
        for f in sf.canonical_many(_lines("sudoku4_sat_assignment_100.txt"))
    ]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python {sys.argv[0]} --write  (with the build of main 0e76eb6)")
    write(FORMS)
    print(f"wrote {FORMS}")
