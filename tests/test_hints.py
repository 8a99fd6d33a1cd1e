"""Hints: repeated hints solve easy puzzles step by step; mistakes are reported; pencil marks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import VENDORED, data_file, read_csv

import sudoku_fast as sf
from sudoku_fast.cli import main
from sudoku_fast.datasets import load_embedded

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# norvig_hardest #2: even trial and error gets stuck at some point
NIGHTMARE = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."
# b-nguyen/theory-final-project multi9x9.txt (via ../shared/data/mixed_validity_9x9.csv)
TWO_SOLUTIONS = "9.6.7.4.3...4..2...7..23.1.5.....1...4.2.8.6...3.....5.3.7...5...7..5...4.5.1.7.8"


def _play(puzzle: str, solution: str, box: tuple[int, int] | None = None) -> list[sf.Hint]:
    """Apply hints until solved, checking each one against the known solution."""
    board = sf.Board.new(puzzle, box=box)
    symbols = board.geometry.symbols
    steps = []
    while (step := sf.hint(board)) is not None:
        assert not step.is_mistake, step
        for cell, digit in step.placements:
            assert solution[cell] == symbols[digit - 1], step
        for cell, digit in step.eliminations:
            assert solution[cell] != symbols[digit - 1], step
        assert step.placements or step.eliminations
        assert not steps or step != steps[-1]
        steps.append(step)
        board = board.apply(step)
        assert len(steps) < 1000
    assert board.grid == solution
    return steps


def test_hints_solve_easy50_without_guessing() -> None:
    # norvig easy50 with solutions from another source (rust_sudoku_crate_easy = easy50)
    name = "rust_sudoku_crate_easy_with_solutions.csv"
    rows = read_csv(data_file(name, name))
    assert [r["puzzle"] for r in rows] == load_embedded("norvig_easy50")
    solved = 0
    for row in rows:
        steps = _play(row["puzzle"], row["solution"])
        assert all(s.technique not in ("guess", "trial and error") for s in steps)
        solved += 1
    assert solved == 49


def test_hints_reach_the_end_of_a_nightmare() -> None:
    solution = sf.solve(NIGHTMARE)
    assert solution is not None
    steps = _play(NIGHTMARE, solution)
    assert "guess" in {s.technique for s in steps}


def test_hint_on_a_string_is_the_first_step() -> None:
    step = sf.hint(EASY)
    assert step is not None
    assert step == sf.hint(sf.Board.new(EASY))
    assert step == sf.hint(sf.show(EASY))
    assert step.technique in ("full house", "hidden single", "naked single")
    assert step.explanation


def test_wrong_value_is_reported() -> None:
    cell = EASY.index(".")
    right = int(EASY_SOLUTION[cell])
    wrong = right % 9 + 1
    board = sf.Board.new(EASY).set_value(cell, wrong)
    step = sf.hint(board)
    assert step is not None and step.is_mistake
    assert (step.technique, step.cells, step.digits) == ("wrong value", (cell,), (wrong,))
    assert "r1c1" in step.explanation
    fixed = board.apply(step)
    assert fixed.values == "." * 81
    # A right value is no mistake: the next hint is a deduction.
    step = sf.hint(board.set_value(cell, right))
    assert step is not None and not step.is_mistake


def test_clashing_value_names_the_clash() -> None:
    board = sf.Board.new(EASY).set_value(0, 3)  # r1c3 holds the given 3
    step = sf.hint(board)
    assert step is not None and step.technique == "wrong value"
    assert "clashes with the 3 in r1c3" in step.explanation


def test_wrong_value_on_a_full_board() -> None:
    values = "".join(s if p == "." else "." for p, s in zip(EASY, EASY_SOLUTION, strict=True))
    board = sf.Board(EASY, values)
    assert sf.hint(board) is None
    cells = [i for i, ch in enumerate(EASY) if ch == "."]
    a, b = cells[0], next(c for c in cells[1:] if c // 9 == cells[0] // 9)
    swapped = list(values)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    step = sf.hint(sf.Board(EASY, "".join(swapped)))
    assert step is not None and step.technique == "wrong value" and step.cells == (a,)


def test_wrong_pencil_marks_are_reported() -> None:
    cell = EASY.index(".")
    right = int(EASY_SOLUTION[cell])
    board = sf.Board.new(EASY).set_pencil(cell, {d for d in range(1, 10) if d != right})
    step = sf.hint(board)
    assert step is not None
    assert (step.technique, step.cells, step.digits) == ("wrong pencil marks", (cell,), (right,))
    assert sf.hint(board.apply(step)) == sf.hint(EASY)


def test_elimination_hints_move_on() -> None:
    # norvig_easy50 #6 needs pointing: after it is applied to the pencil marks, the next
    # hint is a different one.
    puzzle = "1..92....524.1...........7..5...81.2.........4.27...9..6...........3.945....71..6"
    board = sf.Board.new(puzzle)
    while (step := sf.hint(board)) is not None and step.technique != "pointing":
        board = board.apply(step)
    assert step is not None
    after = board.apply(step)
    for cell, digit in step.eliminations:
        assert after.pencil[cell] and digit not in after.pencil[cell]
        assert after.pencil[cell] == {d for d in sf.candidates(board)[cell] if d != digit}
    assert sf.hint(after) != step


def test_hints_need_one_solution() -> None:
    with pytest.raises(ValueError, match="several solutions"):
        sf.hint(TWO_SOLUTIONS)
    with pytest.raises(ValueError, match="no solution"):
        sf.hint("11" + "." * 79)
    with pytest.raises(TypeError):
        sf.hint(42)  # type: ignore[arg-type]


def _rule_candidates(grid: str) -> list[set[int]]:
    """Candidates written from the rules, independently of the package."""
    out = []
    for cell in range(81):
        if grid[cell] != ".":
            out.append(set())
            continue
        r, c = divmod(cell, 9)
        seen = {grid[r * 9 + k] for k in range(9)} | {grid[k * 9 + c] for k in range(9)}
        br, bc = r - r % 3, c - c % 3
        seen |= {grid[(br + i) * 9 + bc + j] for i in range(3) for j in range(3)}
        out.append({d for d in range(1, 10) if str(d) not in seen})
    return out


def test_candidates() -> None:
    for puzzle in [*load_embedded("norvig_top95")[:10], EASY]:
        assert sf.candidates(puzzle) == _rule_candidates(puzzle)
    board = sf.Board.new(EASY).set_value(0, 4)
    assert sf.candidates(board) == _rule_candidates(board.grid)
    assert sf.candidates(EASY_SOLUTION) == [set()] * 81
    with pytest.raises(ValueError):
        sf.candidates("11" + "." * 79)


def test_cli_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", EASY]) == 0
    out = capsys.readouterr().out
    step = sf.hint(EASY)
    assert step is not None and out.startswith(step.technique)
    assert main(["hint", "--all", EASY]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "solved" and len(lines) > 40
    assert main(["hint", TWO_SOLUTIONS]) == 2
    assert "several solutions" in capsys.readouterr().err


def test_cli_hint_on_a_missing_file_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "missing_board.json"]) == 2
    assert "'missing_board.json' is no file, and as a puzzle:" in capsys.readouterr().err


def test_cli_hint_on_a_saved_board(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    board = sf.Board.new(EASY).set_value(0, 5)
    sf.save_board(board, path)
    assert main(["hint", str(path)]) == 0
    assert capsys.readouterr().out.startswith("wrong value")


# ---------------------------------------------------------------- every geometry


def _transpose(puzzle: str, size: int) -> str:
    return "".join(puzzle[c * size + r] for r in range(size) for c in range(size))


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("sudoku6_2x3.csv", 4),
        ("sudoku12_3x4.csv", 5),
        ("sudoku16_misc.csv", 3),
        ("sudoku16_goomii_sample100_with_solutions.csv", 3),
    ],
)
def test_hints_solve_other_sizes(name: str, count: int) -> None:
    for row in read_csv(VENDORED / name)[:count]:
        puzzle = row["puzzle"]
        solution = sf.solve(puzzle)
        assert solution is not None
        if row["solution"]:
            assert solution == row["solution"]
        steps = _play(puzzle, solution)
        assert all(s.technique != "guess" for s in steps)
        assert all(s.explanation for s in steps)


def test_hints_on_rectangular_boxes_both_ways() -> None:
    puzzle = read_csv(VENDORED / "sudoku6_2x3.csv")[0]["puzzle"]
    transposed = _transpose(puzzle, 6)
    solution = sf.solve(transposed, box=(3, 2))
    assert solution is not None and solution == _transpose(sf.solve(puzzle) or "", 6)
    _play(transposed, solution, box=(3, 2))
    step = sf.hint(transposed, box=(3, 2))
    assert step == sf.hint(sf.Board.new(transposed, box=(3, 2)))
    with pytest.raises(ValueError, match="a Board has its geometry"):
        sf.hint(sf.Board.new(puzzle), box=(2, 3))


def test_hints_in_another_alphabet() -> None:
    puzzle = read_csv(VENDORED / "sudoku16_misc.csv")[0]["puzzle"]
    hex_puzzle = puzzle.translate(str.maketrans("123456789ABCDEFG", "0123456789ABCDEF"))
    board = sf.Board.new(hex_puzzle, alphabet="0123456789ABCDEF")
    mine, theirs = sf.hint(board), sf.hint(puzzle)
    assert mine is not None and theirs is not None
    # The same step on the same values, each explained in its own board's symbols.
    assert replace(mine, explanation="") == replace(theirs, explanation="")
    value = mine.digits[0]
    hex_symbol, default_symbol = "0123456789ABCDEF"[value - 1], "123456789ABCDEFG"[value - 1]
    assert mine.explanation == theirs.explanation.replace(default_symbol, hex_symbol, 1)
    assert mine.explanation.startswith(f"{hex_symbol} has only one place left")
    cell = hex_puzzle.index(".")
    solution = sf.solve(hex_puzzle, alphabet="0123456789ABCDEF")
    assert solution is not None
    right = "0123456789ABCDEF".index(solution[cell]) + 1
    wrong = right % 16 + 1
    step = sf.hint(board.set_value(cell, wrong))
    assert step is not None and step.technique == "wrong value"
    symbol = "0123456789ABCDEF"[wrong - 1]
    assert f"the {symbol} entered in r1c{cell + 1} is wrong" in step.explanation


def _rule_candidates_any(grid: str, rows: int, cols: int, symbols: str) -> list[set[int]]:
    """Candidates of any geometry, from the rules alone."""
    n = rows * cols
    out = []
    for cell in range(n * n):
        if grid[cell] != ".":
            out.append(set())
            continue
        r, c = divmod(cell, n)
        seen = {grid[r * n + k] for k in range(n)} | {grid[k * n + c] for k in range(n)}
        top, left = r - r % rows, c - c % cols
        seen |= {grid[(top + i) * n + left + j] for i in range(rows) for j in range(cols)}
        out.append({v + 1 for v, s in enumerate(symbols) if s not in seen})
    return out


def test_candidates_of_other_sizes() -> None:
    six = read_csv(VENDORED / "sudoku6_2x3.csv")[1]["puzzle"]
    cases = [
        (six, None, 2, 3),
        (_transpose(six, 6), (3, 2), 3, 2),
        (read_csv(VENDORED / "sudoku12_3x4.csv")[0]["puzzle"], None, 3, 4),
        (read_csv(VENDORED / "sudoku16_misc.csv")[0]["puzzle"], None, 4, 4),
        (read_csv(VENDORED / "sudoku25_misc.csv")[0]["puzzle"], None, 5, 5),
    ]
    symbols = "123456789ABCDEFGHIJKLMNOP"
    for puzzle, box, rows, cols in cases:
        expected = _rule_candidates_any(puzzle, rows, cols, symbols[: rows * cols])
        assert sf.candidates(puzzle, box=box) == expected


def test_hint_needs_a_decided_search(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = read_csv(VENDORED / "sudoku16_misc.csv")[5]["puzzle"]
    with pytest.raises(sf.SearchLimitExceeded, match="more than 1 search nodes"):
        sf.hint(puzzle, max_nodes=1)
    assert main(["hint", puzzle, "--max-nodes", "1"]) == 5  # undecided, as --help says
    assert "--max-nodes N raises it" in capsys.readouterr().err
    assert sf.hint(puzzle, max_nodes=None) == sf.hint(puzzle)  # the default decides it
    with pytest.raises(ValueError, match="max_nodes must be from 1"):
        sf.hint(puzzle, max_nodes=0)


def test_cli_hint_other_sizes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    six = read_csv(VENDORED / "sudoku6_2x3.csv")[0]["puzzle"]
    transposed = _transpose(six, 6)
    assert main(["hint", "--all", "--box", "3x2", transposed]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "solved" and len(lines) > 10
    assert main(["hint", "--box", "3", "2", transposed]) == 0
    step = sf.hint(transposed, box=(3, 2))
    assert step is not None and capsys.readouterr().out.startswith(step.technique)
    sixteen = read_csv(VENDORED / "sudoku16_misc.csv")[0]["puzzle"]
    assert main(["hint", "--all", sixteen]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "solved"
    assert any("=G" in line or "=A" in line for line in out)  # values shown as symbols
    path = tmp_path / "board.json"
    sf.save_board(sf.Board.new(transposed, box=(3, 2)), path)
    assert main(["hint", str(path)]) == 0
    assert capsys.readouterr().out.startswith(step.technique)
    assert main(["hint", str(path), "--box", "3x2"]) == 2  # a saved board has its geometry
    assert "a saved board has its own" in capsys.readouterr().err
