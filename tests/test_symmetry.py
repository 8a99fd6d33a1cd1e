"""Canonical forms and transformations: the compiled search against the brute-force twin,
invariance under thousands of random symmetries of the public sets, witnesses checked
by the plain-Python group action, published minlex forms, inputs and errors."""

from __future__ import annotations

import pickle
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import VENDORED, data_file, interrupt, needs_sigint, read_csv, read_lines

import sudoku_fast as sf
from sudoku_fast import cli, symmetry
from sudoku_fast._base.grid import format_values, geometry_for, parse_grid
from sudoku_fast._symmetry import _canon_py
from sudoku_fast._symmetry.canon import draw_transformation
from sudoku_fast.cli.exits import EXIT_MALFORMED, EXIT_OK


def canonical_reference(
    puzzle: str, *, box: tuple[int, int] | None = None, alphabet: str | None = None
) -> str:
    """`canonical` by the brute-force twin (`_canon_py.canonical_values`)."""
    geometry, values = parse_grid(puzzle, box=box, alphabet=alphabet)
    return format_values(_canon_py.canonical_values(values, geometry), geometry)


SUDOKU17 = data_file("sudoku17_49158.txt", "sudoku17_sample.txt")
TOP2365 = data_file("magictour_top2365.txt", "sudoku17_sample.txt")
KAGGLE = data_file(
    "kaggle_bryanpark_10k_with_solutions.csv", "kaggle_bryanpark_sample500_with_solutions.csv"
)
GOOMII = data_file(
    "sudoku16_goomii_1000_with_solutions.csv", "sudoku16_goomii_sample100_with_solutions.csv"
)
SMALL = data_file("sudoku4_sat_assignment_100.txt", "sudoku4_sat_assignment_100.txt")
OTHER_SIZES = [
    ("sudoku6_2x3.csv", (2, 3)),
    ("sudoku8_2x4.csv", (2, 4)),
    ("sudoku10_2x5.csv", (2, 5)),
    ("sudoku12_3x4.csv", (3, 4)),
    ("sudoku15_3x5.csv", (3, 5)),
    ("sudoku16_misc.csv", (4, 4)),
]


def _witnessed(puzzle: str, box: tuple[int, int] | None = None) -> str:
    """The canonical form, checked to be in the puzzle's orbit by the plain-Python action."""
    form = sf.canonical(puzzle, box=box)
    moved = sf.canonical_transform(puzzle, box=box)
    geometry, values = parse_grid(puzzle, box=box)
    image = _canon_py.transform_values(values, geometry, moved)
    assert format_values(image, geometry) == form
    return form


def _clue_profile(puzzle: str) -> tuple[int, ...]:
    """An invariant of the orbit: the clue counts of all rows and columns, sorted."""
    n = 9
    rows = [sum(ch != "." for ch in puzzle[r * n : (r + 1) * n]) for r in range(n)]
    cols = [sum(puzzle[r * n + c] != "." for r in range(n)) for c in range(n)]
    return tuple(sorted(rows + cols))


# ---------------------------------------------------------------- the twin


def test_every_4x4_puzzle_matches_the_brute_force() -> None:
    puzzles = read_lines(SMALL)
    assert len(puzzles) == 100
    rng = random.Random(4)
    for puzzle in puzzles:
        form = canonical_reference(puzzle)
        assert sf.canonical(puzzle) == form
        moved = sf.random_transform(puzzle, seed=rng.randrange(1 << 30))
        assert canonical_reference(moved) == form
        assert sf.canonical(moved) == form


@pytest.mark.parametrize(("name", "box"), OTHER_SIZES[:2])
def test_rectangular_boxes_match_the_brute_force(name: str, box: tuple[int, int]) -> None:
    for row in read_csv(data_file(name, name)):
        puzzle = row["puzzle"]
        assert sf.canonical(puzzle, box=box) == canonical_reference(puzzle, box=box)


def _random_grid(n: int, clues: int, rng: random.Random) -> list[int]:
    """Up to `clues` random clues, none repeated in a row or column."""
    values = [0] * (n * n)
    for _ in range(clues):
        r, c, v = rng.randrange(n), rng.randrange(n), rng.randrange(1, n + 1)
        if v not in values[r * n : (r + 1) * n] and v not in values[c::n]:
            values[r * n + c] = v
    return values


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2)])
def test_random_small_grids_match_the_brute_force(box: tuple[int, int]) -> None:
    # Sparse to nearly full grids, with many ties (empty lines, symmetric clue patterns).
    rng = random.Random(sum(box))
    geometry = geometry_for(box[0] * box[1], box)
    for clues in (0, 2, 6, 12, 60):
        for _ in range(3):
            puzzle = format_values(_random_grid(geometry.size, clues, rng), geometry)
            expected = canonical_reference(puzzle, box=box)
            assert sf.canonical(puzzle, box=box) == expected


@pytest.mark.slow
def test_a_9x9_puzzle_matches_the_brute_force() -> None:
    # About 3.4 million arrangements in plain Python: seconds.
    puzzle = read_lines(SUDOKU17)[1]
    assert sf.canonical(puzzle) == canonical_reference(puzzle)


def test_transform_matches_the_plain_python_action() -> None:
    for seed, puzzle in enumerate(read_lines(TOP2365)[:200]):
        geometry, values = parse_grid(puzzle)
        moved = sf.random_transformation(geometry, seed=seed)
        expected = _canon_py.transform_values(values, geometry, moved)
        assert sf.apply_transformation(puzzle, moved) == format_values(expected, geometry)
        # The compiled draw is the same element as the plain-Python one.
        assert sf.random_transform(puzzle, seed=seed) == format_values(expected, geometry)


def test_compiled_draws_match_the_python_twin() -> None:
    # Full solution grids (every symbol present) and puzzles of rectangular boxes: the
    # compiled draw from each seed must be the element the plain-Python twin draws.
    sets = [
        ([row["solution"] for row in read_csv(KAGGLE)[:40]], None),
        ([row["solution"] for row in read_csv(GOOMII)[:10]], None),
    ]
    sets += [
        ([row["puzzle"] for row in read_csv(data_file(name, name))], box)
        for name, box in OTHER_SIZES
    ]
    for puzzles, box in sets:
        geometry = parse_grid(puzzles[0], box=box)[0]
        moved = sf.random_transform_many(puzzles, seed=21, threads=2, box=box)
        transposed = 0
        seeds = symmetry._seeds(21, len(puzzles))
        for i, (puzzle, seed64) in enumerate(zip(puzzles, seeds, strict=True)):
            drawn = draw_transformation(geometry, seed64)
            transposed += drawn.transpose
            values = parse_grid(puzzle, box=box)[1]
            expected = _canon_py.transform_values(values, geometry, drawn)
            assert moved[i] == format_values(expected, geometry)
        if geometry.box_rows != geometry.box_cols:
            assert transposed == 0


# ---------------------------------------------------------------- invariance, on public data


def test_thousands_of_random_symmetries_of_the_public_sets() -> None:
    puzzles = read_lines(SUDOKU17)[:3000] + read_lines(TOP2365)[:1500]
    puzzles += [row["puzzle"] for row in read_csv(KAGGLE)[:500]]
    forms = sf.canonical_many(puzzles, threads=2)
    for seed in (1, 2):
        moved = sf.random_transform_many(puzzles, seed=seed, threads=2)
        assert sum(m != p for m, p in zip(moved, puzzles, strict=True)) > 0.99 * len(puzzles)
        assert sf.canonical_many(moved, threads=2) == forms


def test_solution_grids_and_other_sizes_are_invariant() -> None:
    grids = [row["solution"] for row in read_csv(KAGGLE)[:20]]
    rng = random.Random(3)
    for grid in grids:
        form = _witnessed(grid)
        assert sf.canonical(sf.random_transform(grid, seed=rng.getrandbits(64))) == form
    for name, box in OTHER_SIZES:
        for row in read_csv(data_file(name, name)):
            puzzle = row["puzzle"]
            form = _witnessed(puzzle, box)
            for seed in range(3):
                moved = sf.random_transform(puzzle, seed=seed, box=box)
                assert sf.canonical(moved, box=box) == form


def test_canonical_forms_are_witnessed_and_minimal_among_samples() -> None:
    for puzzle in read_lines(SUDOKU17)[:300:10]:
        form = _witnessed(puzzle)
        assert form == sf.canonical(form)  # a canonical form is its own
        # No sampled symmetry gives a smaller string ('.' sorts before every digit).
        for seed in range(50):
            assert form <= sf.random_transform(puzzle, seed=seed)


def test_the_published_17_clue_list_is_mostly_in_minlex_form() -> None:
    # Royle's 17-clue list is published with most puzzles in their minlex form (the
    # smallest equivalent string, 0 = empty, which is what canonical computes); the
    # rest must be larger than their form, never smaller.
    puzzles = read_lines(SUDOKU17)
    forms = sf.canonical_many(puzzles)
    same = sum(f == p for f, p in zip(forms, puzzles, strict=True))
    assert same > 0.95 * len(puzzles)
    assert all(f <= p for f, p in zip(forms, puzzles, strict=True))


def test_different_for_puzzles_that_are_not_equivalent() -> None:
    puzzles = read_lines(SUDOKU17)
    forms = sf.canonical_many(puzzles)
    # The set is believed to hold no two equivalent puzzles: every form differs.
    assert len(set(forms)) == len(puzzles)
    # Puzzles with different invariants (clue counts per line) always differ.
    top = read_lines(TOP2365)[:400]
    top_forms = sf.canonical_many(top)
    by_form: dict[str, set[tuple[int, ...]]] = {}
    for puzzle, form in zip(top, top_forms, strict=True):
        by_form.setdefault(form, set()).add(_clue_profile(puzzle))
    assert all(len(profiles) == 1 for profiles in by_form.values())
    # One clue less is another orbit.
    for puzzle in puzzles[:50]:
        first = next(i for i, ch in enumerate(puzzle) if ch != ".")
        fewer = puzzle[:first] + "." + puzzle[first + 1 :]
        assert sf.canonical(fewer) != sf.canonical(puzzle)


def test_dedup_pairs_are_equivalent() -> None:
    # Equal forms are checked independently: the witnesses map both puzzles to one grid.
    puzzles = read_lines(SUDOKU17)[:40]
    twins = [sf.random_transform(p, seed=i) for i, p in enumerate(puzzles)]
    for a, b in zip(puzzles, twins, strict=True):
        assert sf.apply_transformation(a, sf.canonical_transform(a)) == sf.apply_transformation(
            b, sf.canonical_transform(b)
        )


# ---------------------------------------------------------------- sizes, inputs, errors


def test_rectangular_boxes_have_no_transposition() -> None:
    with pytest.raises(ValueError, match="cannot be transposed"):
        sf.transform("1" + "." * 35, transpose=True)
    puzzle = read_csv(data_file("sudoku6_2x3.csv", "sudoku6_2x3.csv"))[0]["puzzle"]
    assert all(
        sf.random_transformation(geometry_for(6), seed=s).transpose is False for s in range(20)
    )
    assert sf.canonical(puzzle) == canonical_reference(puzzle)


def test_transform_parameters() -> None:
    p = "1234" + "." * 12
    assert sf.transform(p) == p
    assert sf.transform(p, transpose=True) == "1...2...3...4..."
    assert sf.transform(p, cols=[1, 0, 3, 2]) == "2143" + "." * 12
    assert sf.transform(p, digits=[2, 1, 4, 3]) == "2143" + "." * 12
    with pytest.raises(ValueError, match="one band"):
        sf.transform(p, rows=[0, 2, 1, 3])
    with pytest.raises(ValueError, match="permutation"):
        sf.transform(p, cols=[0, 0, 1, 2])
    with pytest.raises(ValueError, match="symbols"):
        sf.transform(p, digits="1235")
    with pytest.raises(TypeError, match="transpose"):
        sf.transform(p, transpose=1)  # type: ignore[arg-type]
    # A set or a mapping has an order of its own: it cannot say which line goes where.
    for unordered in ({0, 1, 2, 3}, dict.fromkeys(range(4))):
        with pytest.raises(TypeError, match="must be a sequence"):
            sf.transform(p, rows=unordered)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="digits must be a str or a sequence"):
        sf.transform(p, digits={1: 2, 2: 1, 3: 3, 4: 4})  # type: ignore[arg-type]
    assert sf.random_transform(p, seed=5) == sf.random_transform(p, seed=5)


def test_batches_take_columns_arrays_and_threads() -> None:
    np = pytest.importorskip("numpy")
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    puzzles = read_lines(SUDOKU17)[:300]
    forms = sf.canonical_many(puzzles, threads=1)
    assert sf.canonical_many(puzzles, threads=2) == forms
    assert sf.canonical_many(pa.array(puzzles)) == forms
    assert sf.canonical_many(pd.Series(puzzles)) == forms
    values = np.array([list(parse_grid(p)[1]) for p in puzzles], dtype=np.uint8)
    assert sf.canonical_many(values) == forms
    assert sf.random_transform_many(puzzles, seed=9, threads=1) == sf.random_transform_many(
        puzzles, seed=9, threads=2
    )


def test_bad_items_are_named() -> None:
    good = read_lines(SUDOKU17)[0]
    with pytest.raises(ValueError, match="puzzle 2: '1' repeats in row 1") as info:
        sf.canonical_many([good, good, "11" + "." * 79])
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args
    with pytest.raises(ValueError, match="puzzle 1:"):
        sf.canonical_many([good, "x" * 81])
    with pytest.raises(TypeError, match="puzzle 1:"):
        sf.canonical_many([good, 5])
    with pytest.raises(ValueError, match="repeats in column 1"):
        sf.canonical("1" + "." * 8 + "1" + "." * 71)
    with pytest.raises(ValueError, match="puzzle 1:"):
        sf.random_transform_many([good, good[:80]])


def test_the_budget_stops_a_grid_with_a_huge_group() -> None:
    # A regular 16x16 solution grid: its symmetries make the search very wide.
    grid = [((r % 4) * 4 + r // 4 + c) % 16 + 1 for r in range(16) for c in range(16)]
    text = format_values(grid, geometry_for(16))
    with pytest.raises(sf.SearchLimitExceeded, match="the puzzle") as info:
        sf.canonical(text, max_nodes=20_000)
    err = pickle.loads(pickle.dumps(info.value))
    assert err.indices == [0]
    with pytest.raises(sf.SearchLimitExceeded, match="puzzle 1"):
        sf.canonical_many(["." * 256, text], max_nodes=20_000)


def test_the_orientation_a_grid_is_written_in_costs_alike() -> None:
    """A 25x25 puzzle whose canonical form lies in the orientation it is given in took
    10^4 steps; written transposed, the orientation searched first could not hold the
    form and ran past 10^6 steps with no bound. Both now take the short search."""
    puzzle = read_csv(VENDORED / "sudoku25_misc.csv")[4]["puzzle"]
    n = 25
    transposed = "".join(puzzle[j * n + i] for i in range(n) for j in range(n))
    form = sf.canonical(puzzle, max_nodes=100_000)
    assert sf.canonical(transposed, max_nodes=100_000) == form
    for seed in range(8):  # half of them transposed
        assert sf.canonical(sf.random_transform(puzzle, seed=seed), max_nodes=100_000) == form


def test_empty_and_sparse_grids_end_quickly() -> None:
    for n in (4, 9, 16, 25):
        assert sf.canonical("." * n * n) == "." * n * n
        one = sf.canonical("." * (n * n - 1) + "2")
        assert one == "." * (n * n - 1) + "1"
    counts = Counter(sf.canonical(sf.random_transform("12" + "." * 79, seed=s)) for s in range(30))
    assert len(counts) == 1


# ---------------------------------------------------------------- sudoku-fast dedup


def test_dedup_command_keeps_first_occurrences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzles = read_lines(TOP2365)[:120]
    lines: list[str] = []
    for i, puzzle in enumerate(puzzles):
        lines.append(puzzle)
        if i % 3 == 0:
            lines.append(sf.random_transform(puzzle, seed=i))  # equivalent: dropped
        if i % 40 == 0:
            lines.append(puzzle)  # an exact repeat: dropped
    lines += ["11" + "." * 79, "not a puzzle"]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(lines) + "\n")
    target = tmp_path / "out.txt"
    status = cli.main(["dedup", str(source), "-o", str(target), "--threads", "2"])
    assert status == EXIT_MALFORMED
    assert target.read_text().splitlines() == puzzles
    err = capsys.readouterr().err
    assert "43 equivalent to an earlier one (3 of them exact repeats), 2 malformed" in err
    assert f"in.txt:{len(lines) - 1}: '1' repeats in row 1" in err


def test_dedup_counts_repeats_of_any_earlier_grid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, twin = "1.3..4.........2", "2.3..4.........1"  # equivalent (1 and 2 swapped)
    spaced = " ".join(first)  # the first grid in another notation: the same grid
    source = tmp_path / "in.txt"
    source.write_text("\n".join([first, twin, twin, spaced, twin]) + "\n")
    target = tmp_path / "out.txt"
    assert cli.main(["dedup", str(source), "-o", str(target)]) == EXIT_OK
    assert target.read_text().splitlines() == [first]
    # Of the four dropped, three repeat an earlier grid (the first twin does not).
    assert "4 equivalent to an earlier one (3 of them exact repeats)" in capsys.readouterr().err


def test_dedup_command_copies_csv_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = read_csv(KAGGLE)[:30]
    moved = sf.random_transform(rows[0]["puzzle"], seed=1)
    text = "puzzle,solution\n" + "".join(f"{r['puzzle']},{r['solution']}\n" for r in rows)
    source = tmp_path / "in.csv"
    source.write_text(text + f"{moved},\n")
    target = tmp_path / "out.csv"
    assert cli.main(["dedup", str(source), "-o", str(target)]) == EXIT_OK
    assert target.read_text() == text
    assert "1 equivalent to an earlier one" in capsys.readouterr().err


def test_random_transformation_takes_a_geometry() -> None:
    with pytest.raises(TypeError, match="takes a Geometry"):
        sf.random_transformation("x")  # type: ignore[arg-type]
    assert len(sf.random_transformation(geometry_for(6), seed=1).rows) == 6


def test_canonical_checks_max_nodes_and_seeds_at_every_size() -> None:
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    for bad in (-1, 0):
        with pytest.raises(ValueError, match="max_nodes must be from 1"):
            sf.canonical(puzzle, max_nodes=bad)
        with pytest.raises(ValueError, match="max_nodes must be from 1"):
            sf.canonical_many([puzzle], max_nodes=bad)
    with pytest.raises(TypeError, match="max_nodes must be an int"):
        sf.canonical(puzzle, max_nodes=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must not be negative"):
        sf.random_transform(puzzle, seed=-7)
    with pytest.raises(TypeError, match="seed must be an int"):
        sf.random_transform_many([puzzle], seed=True)


@needs_sigint
def test_ctrl_c_stops_a_long_canonical_search() -> None:
    # A full 16x16 grid less two cells: every first row ties many new symbols, a
    # search of about a second each (a full grid itself takes milliseconds).
    code = (
        "import sudoku_fast as sf\n"
        "full = sf.solve('.' * 256)\n"
        "grid = '.' + full[1:17] + '.' + full[18:]\n"
        "sf.canonical_many([grid] * 200, max_nodes=None, threads=2)\n"
    )
    status, err, seconds = interrupt([sys.executable, "-c", code], after=2.0)
    assert status != 0 and "KeyboardInterrupt" in err, err
    assert seconds < 5


def test_out_of_budget_canonical_forms_come_with_the_others() -> None:
    full = sf.solve("." * 256)  # a grid with very many symmetries: a long search
    assert full is not None
    with pytest.raises(sf.SearchLimitExceeded, match="puzzle 0 and 1 more") as info:
        sf.canonical_many([full, "." * 256, full], max_nodes=100, threads=1)
    assert info.value.indices == [0, 2]
    assert info.value.partial == [None, sf.canonical("." * 256), None]


def test_dedup_keeps_a_grid_past_its_budget_and_says_how_to_raise_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_fast.cli import main

    full = sf.solve("." * 144)  # a full 12x12 grid: far more steps than 1,000
    assert full is not None
    path = tmp_path / "full.txt"
    path.write_text(full + "\n" + full + "\n")
    out = tmp_path / "out.txt"
    assert main(["dedup", str(path), "-o", str(out), "--max-nodes", "1000"]) == 5
    err = capsys.readouterr().err
    assert "full.txt:1: kept: no canonical form within 1,000 search steps" in err
    assert "(--max-nodes N raises it)" in err
    assert out.read_text() == full + "\n" + full + "\n"  # both kept: undecided, not dropped
