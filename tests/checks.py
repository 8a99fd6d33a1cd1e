"""An independent check of solutions: written from the rules, sharing no code with the package."""

from __future__ import annotations


def check_solution(solution: str | None, puzzle: str) -> None:
    """Assert that `solution` is a complete valid 9x9 grid keeping every clue of `puzzle`.

    Both are plain 81-character strings ('.' or '0' for empty cells in the puzzle).
    """
    assert solution is not None, f"no solution returned for {puzzle}"
    assert len(solution) == 81, f"solution has {len(solution)} characters"
    assert set(solution) <= set("123456789"), f"solution has non-digits: {solution}"
    full = set("123456789")
    for i in range(9):
        row = solution[9 * i : 9 * i + 9]
        col = solution[i::9]
        br, bc = 3 * (i // 3), 3 * (i % 3)
        box = "".join(solution[9 * (br + r) + bc : 9 * (br + r) + bc + 3] for r in range(3))
        assert set(row) == full, f"row {i} incomplete in {solution}"
        assert set(col) == full, f"column {i} incomplete in {solution}"
        assert set(box) == full, f"box {i} incomplete in {solution}"
    for k, (clue, value) in enumerate(zip(puzzle, solution, strict=True)):
        if clue not in ".0":
            assert clue == value, f"clue {clue} at cell {k} changed to {value}"
