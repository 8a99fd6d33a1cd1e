"""Every grid size: data sets, round trips, differential tests, alphabets, errors, budgets.

Solutions are checked by the independent `checks.check_solution`; the box shapes used
there are the ones stated by the data set's README, written out here, not taken from
the package.
"""

from __future__ import annotations

import array
import random
import signal
import threading
import time
from pathlib import Path

import pytest
from checks import DEFAULT_SYMBOLS, check_solution
from conftest import data_file, read_csv, read_lines

import sudoku_fast as sf
from sudoku_fast._engine import _general
from sudoku_fast._engine import _general_py as reference
from sudoku_fast._engine.encode import encode_texts

# file -> (size, box rows, box cols) as stated in ../shared/data/README.md
SIZE_FILES = {
    "sudoku4_misc.csv": (4, 2, 2),
    "sudoku4_sat_assignment_100.txt": (4, 2, 2),
    "sudoku6_2x3.csv": (6, 2, 3),
    "sudoku8_2x4.csv": (8, 2, 4),
    "sudoku10_2x5.csv": (10, 2, 5),
    "sudoku12_3x4.csv": (12, 3, 4),
    "sudoku15_3x5.csv": (15, 3, 5),
    "sudoku16_misc.csv": (16, 4, 4),
    "sudoku16_sat_assignment_99.txt": (16, 4, 4),
    "sudoku16_goomii_1000_with_solutions.csv": (16, 4, 4),
    "sudoku25_misc.csv": (25, 5, 5),
}
VENDORED_NAME = {
    "sudoku16_goomii_1000_with_solutions.csv": "sudoku16_goomii_sample100_with_solutions.csv"
}


def load_rows(name: str) -> list[dict[str, str]]:
    """Rows with a `puzzle` and (possibly empty) `solution` of one data file."""
    path = data_file(name, VENDORED_NAME.get(name, name))
    if name.endswith(".txt"):
        return [{"puzzle": line, "solution": ""} for line in read_lines(path)]
    return read_csv(path)


# ---------------------------------------------------------------------------------
# Puzzles made here, independent of the engine: a pattern grid, shuffled.


def solved_grid(rows: int, cols: int, rng: random.Random, symbols: str | None = None) -> str:
    """A random complete grid with rows x cols boxes, built from the classic pattern.

    Cell (r, c) of the pattern holds (cols * (r % rows) + r // rows + c) mod N; relabelling
    symbols and permuting rows within bands, bands, columns within stacks and stacks
    keeps every row, column and box complete.
    """
    n = rows * cols
    alphabet = symbols if symbols is not None else DEFAULT_SYMBOLS[:n]

    def shuffled_lines(group: int, groups: int) -> list[int]:
        order = rng.sample(range(groups), groups)
        return [g * group + k for g in order for k in rng.sample(range(group), group)]

    row_order = shuffled_lines(rows, n // rows)  # bands of `rows` rows
    col_order = shuffled_lines(cols, n // cols)  # stacks of `cols` columns
    relabel = rng.sample(alphabet, n)
    return "".join(
        relabel[(cols * (r % rows) + r // rows + c) % n] for r in row_order for c in col_order
    )


def with_holes(grid: str, keep: int, rng: random.Random) -> str:
    cells = list(grid)
    for k in rng.sample(range(len(cells)), len(cells) - keep):
        cells[k] = "."
    return "".join(cells)


# ---------------------------------------------------------------------------------
# The public data sets of every size.


@pytest.mark.parametrize("name", sorted(SIZE_FILES))
def test_data_sets_of_every_size(name: str) -> None:
    size, rows, cols = SIZE_FILES[name]
    records = load_rows(name)
    puzzles = [r["puzzle"] for r in records]
    assert puzzles and all(len(p) == size * size for p in puzzles)
    solutions = sf.solve_many(puzzles)
    for record, solution in zip(records, solutions, strict=True):
        check_solution(solution, record["puzzle"], box=(rows, cols))
        if record["solution"]:
            assert solution == record["solution"]
    # Every puzzle of these files has exactly one solution (README "Conventions").
    assert sf.count_many(puzzles) == [1] * len(puzzles)


def test_given_solutions_are_compared() -> None:
    """Guards the test above: the data sets do carry solutions to compare with."""
    given = sum(bool(r["solution"]) for name in SIZE_FILES for r in load_rows(name))
    assert given >= 100 + 11 + 3 + 1


def test_mixed_validity_other_sizes() -> None:
    records = read_csv(
        data_file("mixed_validity_other_sizes.csv", "mixed_validity_other_sizes.csv")
    )
    assert len(records) == 44
    outcomes = set()
    for record in records:
        puzzle, expected = record["puzzle"], record["num_solutions"]
        size, box = int(record["size"]), (int(record["box_rows"]), int(record["box_cols"]))
        assert len(puzzle) == size * size
        count = sf.count_solutions(puzzle, box=box)
        solution = sf.solve(puzzle, box=box)
        if expected == "0":
            assert count == 0, record
            assert solution is None
        else:
            assert expected == "2+"
            assert count == 2, record
            check_solution(solution, puzzle, box=box)
            assert sf.count_solutions(puzzle, limit=3, box=box) >= 2
        outcomes.add(expected)
    assert outcomes == {"0", "2+"}


def test_mixed_validity_as_batches_per_size() -> None:
    records = read_csv(
        data_file("mixed_validity_other_sizes.csv", "mixed_validity_other_sizes.csv")
    )
    for size in (12, 16, 25):
        group = [r for r in records if int(r["size"]) == size]
        expected = [0 if r["num_solutions"] == "0" else 2 for r in group]
        assert sf.count_many([r["puzzle"] for r in group], threads=2) == expected


def test_hardest_25x25_puzzles_stay_fast() -> None:
    """The hardest 25x25 puzzles of the data sets: answered within a bounded node count
    (speed itself is measured by bench/, not here)."""
    records = read_csv(data_file("sudoku25_misc.csv", "sudoku25_misc.csv"))
    mixed = read_csv(data_file("mixed_validity_other_sizes.csv", "mixed_validity_other_sizes.csv"))
    puzzles = [r["puzzle"] for r in records] + [r["puzzle"] for r in mixed if r["size"] == "25"]
    geometry, grids = encode_texts(puzzles)
    from sudoku_fast._engine.run import run_engine

    results = run_engine(grids, len(puzzles), 2, 1, geometry=geometry, max_nodes=2_000_000)
    assert list(results.counts) == [1] * len(records) + [2] * (len(puzzles) - len(records))
    assert max(results.nodes) < 500_000  # measured: at most about 170,000


# ---------------------------------------------------------------------------------
# Round trips and the pretty form.

SIZES = [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4), (3, 5), (4, 4), (4, 5), (5, 5)]
SIZES += [(5, 6), (6, 6), (6, 7), (7, 7)]


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_round_trips_and_default_box(rows: int, cols: int) -> None:
    rng = random.Random(rows * 100 + cols)
    n = rows * cols
    grid = solved_grid(rows, cols, rng)
    puzzle = with_holes(grid, n * n // 2, rng)
    assert sf.parse(puzzle) == puzzle
    text = sf.show(puzzle)
    assert sf.parse(text) == puzzle
    assert sf.show(text) == text
    assert sf.is_solution(grid, puzzle)
    geometry = sf.geometry_for(n)
    assert (geometry.size, geometry.box_rows, geometry.box_cols) == (n, rows, cols)
    lines = text.splitlines()
    assert len(lines) == n + (n // rows - 1)  # one separator line between bands
    for k, line in enumerate(lines):
        if (k + 1) % (rows + 1) == 0:
            assert set(line) <= set("-+") and line.count("+") == n // cols - 1
        else:
            assert line.count("|") == n // cols - 1
            assert line.replace(" | ", " ").split(" ") == list(
                puzzle[(k - k // (rows + 1)) * n :][:n]
            )


def test_show_6x6_and_transposed_boxes() -> None:
    puzzle = "123456" + "456123" + "." * 24
    assert sf.show(puzzle).splitlines()[:4] == [
        "1 2 3 | 4 5 6",
        "4 5 6 | 1 2 3",
        "------+------",
        ". . . | . . .",
    ]
    tall = sf.show(puzzle, box=(3, 2)).splitlines()
    assert tall[:4] == ["1 2 | 3 4 | 5 6", "4 5 | 6 1 | 2 3", ". . | . . | . .", "----+-----+----"]
    assert sf.parse("\n".join(tall), box=(3, 2)) == puzzle


def test_other_notations_of_other_sizes() -> None:
    rng = random.Random(7)
    puzzle = with_holes(solved_grid(4, 4, rng), 120, rng)
    rows = [puzzle[i : i + 16] for i in range(0, 256, 16)]
    assert sf.parse("\n".join(rows)) == puzzle
    assert sf.parse("\n".join(" ".join(r) for r in rows)) == puzzle
    assert sf.parse(",".join(puzzle)) == puzzle
    small = "1.3." + "...." * 3
    assert sf.parse(small.replace(".", "0")) == small  # 0 = empty up to 9x9


# ---------------------------------------------------------------------------------
# Differential tests against the pure-Python reference, on random puzzles.


def random_puzzles(rows: int, cols: int, seed: int, count: int) -> list[str]:
    """Random puzzles from shuffled pattern grids: unique, several solutions, or none."""
    rng = random.Random(seed)
    n = rows * cols
    puzzles = []
    for _ in range(count):
        grid = solved_grid(rows, cols, rng)
        puzzle = list(with_holes(grid, rng.randint(n * n // 5, n * n * 3 // 4), rng))
        if rng.random() < 0.25:  # a possibly wrong clue on an empty cell
            empty = [k for k, ch in enumerate(puzzle) if ch == "."]
            puzzle[rng.choice(empty)] = rng.choice(DEFAULT_SYMBOLS[:n])
        puzzles.append("".join(puzzle))
    return puzzles


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 2), (2, 4)])
@pytest.mark.parametrize("seed", range(3))
def test_counts_and_solutions_agree_with_reference(rows: int, cols: int, seed: int) -> None:
    puzzles = random_puzzles(rows, cols, 1000 * seed + 10 * rows + cols, 40)
    box = (rows, cols)
    for limit in (1, 2, 3):
        expected = [reference.count_solutions(p, limit, box=box) for p in puzzles]
        assert sf.count_many(puzzles, limit=limit, box=box) == expected
        assert [sf.count_solutions(p, limit, box=box) for p in puzzles] == expected
    for puzzle, solution in zip(puzzles, sf.solve_many(puzzles, box=box), strict=True):
        expected_solution = reference.solve(puzzle, box=box)
        if expected_solution is None:
            assert solution is None
            continue
        check_solution(solution, puzzle, box=box)
        check_solution(expected_solution, puzzle, box=box)
        if reference.count_solutions(puzzle, 2, box=box) == 1:
            assert solution == expected_solution


def test_random_puzzles_cover_all_outcomes() -> None:
    counts = {
        reference.count_solutions(p, 2, box=box)
        for box in ((2, 3), (2, 4))
        for p in random_puzzles(*box, 5, 40)
    }
    assert counts == {0, 1, 2}


def test_general_engine_agrees_with_9x9_engine() -> None:
    """The general engine, forced onto 9x9, against the 9x9 engine on hard puzzles."""
    from sudoku_fast._engine.run import run_engine
    from sudoku_fast.datasets import load_embedded

    puzzles = load_embedded("norvig_top95") + random_puzzles(3, 3, 99, 60)
    _, grids = encode_texts(puzzles)
    core = run_engine(grids, len(puzzles), 3, 1)
    tables = _general.tables_for(9, 3, 3)
    n = len(puzzles)
    solutions = bytearray(81 * n)
    counts = array.array("i", bytes(4 * n))
    scratch = array.array("q", bytes(8 * n))
    _general.solve_range(tables, grids, solutions, counts, scratch, scratch, None, 0, n, 3)
    assert list(counts) == list(core.counts)
    for i, puzzle in enumerate(puzzles):
        if counts[i]:
            solution = "".join(str(v) for v in solutions[81 * i : 81 * (i + 1)])
            check_solution(solution, puzzle)


# ---------------------------------------------------------------------------------
# Big grids and alphabets.


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (6, 6), (6, 7), (7, 7)])
def test_big_grids(rows: int, cols: int) -> None:
    rng = random.Random(rows * cols)
    n = rows * cols
    grid = solved_grid(rows, cols, rng)
    puzzles = [with_holes(grid, n * n * k // 10, rng) for k in (6, 7, 9)]
    for puzzle, solution in zip(puzzles, sf.solve_many(puzzles), strict=True):
        check_solution(solution, puzzle)
    assert sf.count_solutions(grid) == 1
    assert sf.count_solutions("." * (n * n), limit=3) == 3
    check_solution(sf.solve("." * (n * n)), "." * (n * n))


def test_64x64_with_an_alphabet() -> None:
    symbols = "".join(chr(c) for c in range(0x3A0, 0x3A0 + 64) if chr(c).isalnum())[:40]
    symbols = DEFAULT_SYMBOLS[:24] + symbols  # 64 symbols, some non-ASCII
    assert len(set(symbols)) == 64
    rng = random.Random(64)
    grid = solved_grid(8, 8, rng, symbols)
    puzzle = with_holes(grid, 64 * 64 * 7 // 10, rng)
    solution = sf.solve(puzzle, alphabet=symbols)
    check_solution(solution, puzzle, symbols=symbols)
    assert sf.parse(sf.show(puzzle, alphabet=symbols), alphabet=symbols) == puzzle
    with pytest.raises(ValueError, match="unexpected character"):
        sf.parse(puzzle)  # without the alphabet these symbols are foreign
    with pytest.raises(ValueError, match="found 4096"):
        sf.parse("." * 4096)  # and 64x64 has no default symbols


HEX = "0123456789ABCDEF"
DEFAULT16 = DEFAULT_SYMBOLS[:16]


def test_16x16_written_in_hex() -> None:
    records = load_rows("sudoku16_goomii_1000_with_solutions.csv")[:30]
    to_hex = str.maketrans(DEFAULT16, HEX)
    puzzles = [r["puzzle"].translate(to_hex) for r in records]
    assert any("0" in p for p in puzzles)
    solutions = sf.solve_many(puzzles, alphabet=HEX)
    for record, puzzle, solution in zip(records, puzzles, solutions, strict=True):
        check_solution(solution, puzzle, symbols=HEX)
        assert solution == record["solution"].translate(to_hex)
        assert sf.solve(puzzle, alphabet=HEX) == solution
        assert sf.is_solution(solution, puzzle, alphabet=HEX)
    assert sf.parse(puzzles[0], alphabet=HEX) == puzzles[0]  # '0' is a symbol here
    assert sf.parse(sf.show(puzzles[0], alphabet=HEX), alphabet=HEX) == puzzles[0]
    assert sf.count_many(puzzles, alphabet=HEX) == [1] * len(puzzles)
    with pytest.raises(ValueError, match="unexpected character '0' at position"):
        sf.solve(next(p for p in puzzles if "0" in p))  # default symbols: '0' is foreign


def test_9x9_with_an_alphabet_uses_the_9x9_engine() -> None:
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    letters = puzzle.translate(str.maketrans("123456789", "ABCDEFGHI"))
    solution = sf.solve(letters, alphabet="ABCDEFGHI")
    assert solution == sf.solve(puzzle).translate(str.maketrans("123456789", "ABCDEFGHI"))  # type: ignore[union-attr]
    assert sf.solve_many([letters], alphabet="ABCDEFGHI") == [solution]


# ---------------------------------------------------------------------------------
# numpy input of other sizes.


def test_numpy_other_sizes() -> None:
    np = pytest.importorskip("numpy")
    records = load_rows("sudoku16_goomii_1000_with_solutions.csv")[:20]
    values = {ch: v for v, ch in enumerate(DEFAULT16, start=1)}
    arr = np.array([[values.get(ch, 0) for ch in r["puzzle"]] for r in records], dtype=np.uint8)
    out = sf.solve_many(arr)
    assert out.shape == (20, 256) and out.dtype == np.uint8
    for row, record in zip(out, records, strict=True):
        assert "".join(DEFAULT16[v - 1] for v in row) == record["solution"]
    out3 = sf.solve_many(arr.reshape(20, 16, 16).astype(np.int32), threads=1)
    assert (out3.reshape(20, 256) == out).all()
    assert sf.count_many(arr) == [1] * 20
    six = np.zeros((2, 36), dtype=np.uint8)
    assert sf.count_many(six, box=(3, 2), limit=5) == [5, 5]
    bad = arr.copy()
    bad[3, 10] = 17
    with pytest.raises(
        ValueError, match=r"puzzle 3: value 17 at cell 10 \(r1c11\) is not a value 0-16"
    ):
        sf.solve_many(bad)
    with pytest.raises(ValueError, match="shape"):
        sf.solve_many(np.zeros((2, 50), dtype=np.uint8))
    with pytest.raises(ValueError, match="no default box shape"):
        sf.solve_many(np.zeros((2, 49), dtype=np.uint8))
    assert sf.count_many(np.zeros((1, 49), dtype=np.uint8), box=(1, 7), limit=2) == [2]
    # 1x1 to 3x3 arrays are taken for puzzles only with a box, as text of 1, 4 or 9 cells.
    for shape in ((2, 1), (2, 1, 1), (2, 4), (2, 3, 3)):
        with pytest.raises(ValueError, match=r"too small to be taken for puzzles"):
            sf.solve_many(np.zeros(shape, dtype=np.uint8))
    assert sf.solve_many(np.zeros((2, 1), dtype=np.uint8), box=(1, 1)).tolist() == [[1], [1]]
    assert sf.count_many(np.zeros((1, 4), dtype=np.uint8), box=(1, 2), limit=3) == [2]


# ---------------------------------------------------------------------------------
# Errors.


@pytest.mark.parametrize("cells", [2, 50, 65, 255, 257, 2402, 2500])
def test_cell_counts_that_fit_no_size(cells: int) -> None:
    with pytest.raises(ValueError, match=f"found {cells} "):
        sf.parse("." * cells)


@pytest.mark.parametrize("size", [0, -4, 65, 2**61 - 1, 10**100])
def test_sizes_out_of_range_are_refused_at_once(size: int) -> None:
    with pytest.raises(ValueError, match=f"grid size must be from 1 to 64, got {size}"):
        sf.geometry_for(size)
    with pytest.raises(TypeError, match="size must be an int"):
        sf.geometry_for(9.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("cells", [25, 49, 121, 169])
def test_prime_sizes_need_a_box(cells: int) -> None:
    with pytest.raises(ValueError, match="no default box shape"):
        sf.solve("." * cells)
    n = int(cells**0.5)
    assert sf.count_solutions("." * cells, box=(1, n)) == 2


def test_tiny_grids_and_known_counts() -> None:
    # Known totals: 288 complete 4x4 Sudoku grids; 12 and 576 Latin squares of order
    # 3 and 4 (boxes that are whole rows add no constraint).
    assert sf.count_solutions("." * 16, limit=1000) == 288
    assert sf.count_solutions("." * 9, box=(1, 3), limit=1000) == 12
    assert sf.count_solutions("." * 16, box=(1, 4), limit=1000) == 576
    assert sf.solve(".", box=(1, 1)) == "1"
    assert sf.count_solutions("1", box=(1, 1), limit=5) == 1
    assert sf.count_solutions("....", box=(1, 2), limit=5) == 2
    assert sf.count_solutions("11..", box=(1, 2)) == 0


def test_foreign_characters_of_other_sizes() -> None:
    rng = random.Random(3)
    puzzle = with_holes(solved_grid(4, 4, rng), 100, rng)
    bad = puzzle[:77] + "H" + puzzle[78:]  # H is the 17th symbol
    with pytest.raises(ValueError, match="unexpected character 'H' at position 77"):
        sf.parse(bad)
    with pytest.raises(ValueError, match="unexpected character 'é' at position 5"):
        sf.solve(puzzle[:5] + "é" + puzzle[6:])
    six = "123456" + "." * 30
    with pytest.raises(ValueError, match="unexpected character '7' at position 2"):
        sf.parse("127456" + "." * 30)
    with pytest.raises(ValueError, match="expected 64 cells, found 36"):
        sf.parse(six, box=(2, 4))
    with pytest.raises(ValueError, match="inconsistent grid size"):
        sf.parse(six, box=(2, 3), alphabet="12345678")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"box": (2, 0)}, ValueError, "not supported"),
        ({"box": (9, 8)}, ValueError, "not supported"),
        ({"box": 6}, TypeError, "box must be"),
        ({"box": (2.0, 3)}, TypeError, "box must be"),
        ({"alphabet": "123455"}, ValueError, "repeats"),
        ({"alphabet": "12345."}, ValueError, "reserved"),
        ({"alphabet": "123|56"}, ValueError, "reserved"),
        ({"alphabet": 123456}, TypeError, "alphabet must be a str"),
    ],
)
def test_bad_box_and_alphabet(kwargs: dict[str, object], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        sf.parse("." * 36, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("func", [sf.parse, sf.show, sf.solve, sf.count_solutions])
def test_non_string_of_other_sizes(func) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="must be a str"):
        func(list("." * 256), box=(4, 4))


def test_mixed_sizes_in_one_batch_name_the_index() -> None:
    nine = "." * 81
    sixteen = "." * 256
    with pytest.raises(ValueError, match="puzzle 2: a 16x16 puzzle in a batch of 9x9 puzzles"):
        sf.solve_many([nine, nine, sixteen])
    with pytest.raises(ValueError, match="puzzle 1: a 9x9 puzzle in a batch of 16x16 puzzles"):
        sf.count_many([sixteen, nine])
    with pytest.raises(ValueError, match="puzzle 1: expected 256 cells, found 255"):
        sf.solve_many([sixteen, sixteen[1:]])
    with pytest.raises(ValueError, match="puzzle 1: expected 81 cells, found 256"):
        sf.solve_many([nine, sixteen], box=(3, 3))
    with pytest.raises(TypeError, match="puzzle 0: must be a str"):
        sf.solve_many([None, sixteen])
    with pytest.raises(ValueError, match="puzzle 0: expected"):
        sf.solve_many(["." * 50, sixteen])


def test_is_solution_of_other_sizes() -> None:
    rng = random.Random(11)
    grid = solved_grid(3, 4, rng)
    puzzle = with_holes(grid, 60, rng)
    assert sf.is_solution(grid, puzzle)
    assert sf.is_solution(grid, puzzle, box=(3, 4))
    assert not sf.is_solution(grid, puzzle, box=(4, 3))  # boxes of the other shape break
    assert not sf.is_solution(puzzle, puzzle)
    swapped = grid[1] + grid[0] + grid[2:]
    assert not sf.is_solution(swapped, "." * 144)
    with pytest.raises(ValueError, match="expected 144 cells, found 81"):
        sf.is_solution("1" * 81, puzzle)


# ---------------------------------------------------------------------------------
# Node budget, stop flag and interruption.

HARD_16 = 33  # the row of sudoku16_misc.csv needing the most nodes with restarts off


def hard_16x16() -> str:
    return load_rows("sudoku16_misc.csv")[HARD_16]["puzzle"]


def test_node_budget_is_a_distinct_outcome() -> None:
    puzzle = hard_16x16()
    with pytest.raises(sf.SearchLimitExceeded, match="the puzzle: no answer within max_nodes=50"):
        sf.solve(puzzle, max_nodes=50)
    with pytest.raises(sf.SearchLimitExceeded) as info:
        sf.count_solutions(puzzle, max_nodes=50)
    assert info.value.indices == [0]
    easy = load_rows("sudoku16_goomii_1000_with_solutions.csv")[0]
    batch = [easy["puzzle"], puzzle, easy["puzzle"], puzzle]
    with pytest.raises(sf.SearchLimitExceeded, match="puzzle 1 and 1 more") as info:
        sf.solve_many(batch, max_nodes=50)
    assert info.value.indices == [1, 3]
    assert info.value.partial == [easy["solution"], None, easy["solution"], None]
    with pytest.raises(sf.SearchLimitExceeded) as info:
        sf.count_many(batch, max_nodes=50)
    assert info.value.partial == [1, -1, 1, -1]
    assert sf.count_many(batch, max_nodes=None) == [1, 1, 1, 1]
    check_solution(sf.solve(puzzle, max_nodes=None), puzzle)


def test_node_budget_argument() -> None:
    with pytest.raises(ValueError, match="max_nodes"):
        sf.solve("." * 256, max_nodes=0)
    with pytest.raises(TypeError, match="max_nodes"):
        sf.count_many(["." * 256], max_nodes=1.5)  # type: ignore[arg-type]
    # 9x9 puzzles always finish fast: the 9x9 engine has no budget to run out of.
    assert sf.count_solutions("." * 81, limit=50, max_nodes=1) == 50


def general_buffers(n: int, cells: int) -> tuple[bytearray, array.array[int], array.array[int]]:
    return bytearray(n * cells), array.array("i", bytes(4 * n)), array.array("q", bytes(8 * n))


def test_stop_flag_stops_the_engine() -> None:
    puzzle = hard_16x16()
    _, grids = encode_texts([puzzle] * 3)
    tables = _general.tables_for(16, 4, 4)
    solutions, counts, scratch = general_buffers(3, 256)
    stop_flag = bytearray(1)
    finished = threading.Event()

    def run() -> None:
        args = (tables, grids, solutions, counts, scratch, scratch, None, 0, 3, 2)
        _general.solve_range(*args, stop_flag=stop_flag, restart_unit=0)
        finished.set()

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.05)
    stop_flag[0] = 1
    assert finished.wait(10)
    worker.join()
    assert list(counts) == [_general.STOPPED] * 3


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX interval timers")
def test_a_signal_interrupts_a_long_puzzle() -> None:
    class Interrupted(Exception):
        pass

    def handler(signum: int, frame: object) -> None:
        raise Interrupted

    puzzle = hard_16x16()
    _, grids = encode_texts([puzzle])
    tables = _general.tables_for(16, 4, 4)
    solutions, counts, scratch = general_buffers(1, 256)
    args = (tables, grids, solutions, counts, scratch, scratch, None, 0, 1, 2)
    previous = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        start = time.perf_counter()
        with pytest.raises(Interrupted):
            for _ in range(1000):  # counting a hard puzzle many times over: seconds
                _general.solve_range(*args, restart_unit=0)
        assert time.perf_counter() - start < 5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_engine_validates_its_input() -> None:
    tables = _general.tables_for(4, 2, 2)
    solutions, counts, scratch = general_buffers(1, 16)
    bad = bytes([0, 0, 0, 5] + [0] * 12)
    with pytest.raises(ValueError, match="puzzle 0: value 5 at cell 3"):
        _general.solve_range(tables, bad, solutions, counts, scratch, scratch, None, 0, 1, 1)
    with pytest.raises(ValueError, match="buffers too small"):
        _general.solve_range(tables, bytes(15), solutions, counts, scratch, scratch, None, 0, 1, 1)
    with pytest.raises(ValueError, match="limit"):
        _general.solve_range(tables, bytes(16), solutions, counts, scratch, scratch, None, 0, 1, 0)
    with pytest.raises(ValueError, match="does not tile"):
        _general.Tables(6, 2, 2)
    assert _general.tables_for(12, 3, 4) is _general.tables_for(12, 3, 4)


def test_threads_give_identical_results() -> None:
    puzzles = [r["puzzle"] for r in load_rows("sudoku16_goomii_1000_with_solutions.csv")]
    puzzles += [r["puzzle"] for r in load_rows("sudoku16_misc.csv")[:5]]
    serial = sf.solve_many(puzzles, threads=1)
    assert sf.solve_many(puzzles, threads=2) == serial
    assert sf.solve_many(puzzles, threads=None) == serial
    assert [sf.solve(p) for p in puzzles[-5:]] == serial[-5:]


def test_vendored_samples_are_listed() -> None:
    readme = (Path(__file__).parent / "data" / "README.md").read_text()
    for name in [*SIZE_FILES, "mixed_validity_other_sizes.csv"]:
        listed = VENDORED_NAME.get(name, name)
        assert (Path(__file__).parent / "data" / listed).exists(), listed
        assert listed in readme
