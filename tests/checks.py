"""An independent check of solutions: written from the rules, sharing no code with the package."""

from __future__ import annotations

import math

DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"


def box_shape(size: int) -> tuple[int, int]:
    """The usual box of an N x N grid: square root, else the factor pair nearest a square."""
    rows = max(r for r in range(1, math.isqrt(size) + 1) if size % r == 0)
    return rows, size // rows


def check_solution(
    solution: str | None,
    puzzle: str,
    box: tuple[int, int] | None = None,
    symbols: str | None = None,
) -> None:
    """Assert that `solution` is a complete valid grid keeping every clue of `puzzle`.

    Both are plain N*N-character strings ('.' for empty cells, '0' too when N <= 9 and
    '0' is no symbol). N comes from the length; the box shape defaults to the usual
    rule and the symbols to the first N of 1-9, A-Z, a-n.
    """
    assert solution is not None, f"no solution returned for {puzzle}"
    size = math.isqrt(len(puzzle))
    assert size * size == len(puzzle), f"puzzle has {len(puzzle)} characters"
    assert len(solution) == len(puzzle), f"solution has {len(solution)} characters"
    rows, cols = box if box is not None else box_shape(size)
    assert rows * cols == size
    full = set(symbols if symbols is not None else DEFAULT_SYMBOLS[:size])
    assert len(full) == size
    assert set(solution) <= full, f"solution has foreign symbols: {solution}"
    grid = [solution[r * size : (r + 1) * size] for r in range(size)]
    for i in range(size):
        column = {grid[r][i] for r in range(size)}
        top, left = rows * (i // (size // cols)), cols * (i % (size // cols))
        box_cells = {grid[top + r][left + c] for r in range(rows) for c in range(cols)}
        assert set(grid[i]) == full, f"row {i} incomplete in {solution}"
        assert column == full, f"column {i} incomplete in {solution}"
        assert box_cells == full, f"box {i} incomplete in {solution}"
    empty = "." if size > 9 or "0" in full else ".0"
    for k, (clue, value) in enumerate(zip(puzzle, solution, strict=True)):
        if clue not in empty:
            assert clue == value, f"clue {clue} at cell {k} changed to {value}"
