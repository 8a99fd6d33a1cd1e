"""parse / show / is_solution on every notation, round trips and error cases."""

from __future__ import annotations

import pytest

import sudoku_fast as sf
from sudoku_fast.datasets import load_embedded

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"

PRETTY = """
4 . . |. . . |8 . 5
. 3 . |. . . |. . .
. . . |7 . . |. . .
------+------+------
. 2 . |. . . |. 6 .
. . . |. 8 . |4 . .
. . . |. 1 . |. . .
------+------+------
. . . |6 . 3 |. 7 .
5 . . |2 . . |. . .
1 . 4 |. . . |. . .
"""


def test_dots_and_zeros_are_the_same_puzzle() -> None:
    assert sf.parse(PUZZLE) == PUZZLE
    assert sf.parse(PUZZLE.replace(".", "0")) == PUZZLE


def test_rows_separated_by_newlines_and_spaces() -> None:
    rows = [PUZZLE[i : i + 9] for i in range(0, 81, 9)]
    assert sf.parse("\n".join(rows)) == PUZZLE
    assert sf.parse(" ".join(rows)) == PUZZLE
    assert sf.parse("\r\n".join(" ".join(r.replace(".", "0")) for r in rows)) == PUZZLE
    assert sf.parse("\t".join(rows) + "\n") == PUZZLE


def test_pretty_form_with_separators() -> None:
    assert sf.parse(PRETTY) == PUZZLE


def test_show_draws_boxes_and_round_trips() -> None:
    text = sf.show(PUZZLE)
    lines = text.splitlines()
    assert len(lines) == 11
    assert lines[0] == "4 . . | . . . | 8 . 5"
    assert lines[3] == "------+-------+------"
    assert sf.parse(text) == PUZZLE
    for puzzle in load_embedded("norvig_top95"):
        assert sf.parse(sf.show(puzzle)) == sf.parse(puzzle)


def test_show_accepts_any_notation() -> None:
    assert sf.show(PRETTY) == sf.show(PUZZLE)


@pytest.mark.parametrize("n", [0, 1, 80, 82, 162])
def test_wrong_cell_count_says_how_many(n: int) -> None:
    with pytest.raises(ValueError, match=f"expected 81 cells, found {n}"):
        sf.parse("1" * n)


@pytest.mark.parametrize("bad", ["x", "A", "é", "٣"])
def test_foreign_characters_are_named_with_position(bad: str) -> None:
    text = PUZZLE[:10] + bad + PUZZLE[11:]
    with pytest.raises(ValueError, match=f"unexpected character '{bad}' at position 10"):
        sf.parse(text)


def test_punctuation_is_layout() -> None:
    assert sf.parse("|".join(PUZZLE)) == PUZZLE
    assert sf.parse(PUZZLE + "  ;; --") == PUZZLE
    assert sf.parse("\u2502".join(PUZZLE) + " \u00a7 \u2500\u253c") == PUZZLE  # box drawing


@pytest.mark.parametrize("junk", ["\x00", "\x07", "\ufffd", "\U0001f600", "\u0301", "\u200b"])
def test_characters_that_are_neither_cells_nor_layout_are_errors(junk: str) -> None:
    # A NUL, U+FFFD (an undecodable byte), an emoji, a combining mark: a corrupted line.
    for text in (PUZZLE[:10] + junk + PUZZLE[10:], PUZZLE + junk):
        at = text.index(junk)
        with pytest.raises(ValueError, match=f"unexpected character .* at position {at}"):
            sf.parse(text)


@pytest.mark.parametrize("func", [sf.parse, sf.show, sf.solve, sf.count_solutions])
@pytest.mark.parametrize("value", [None, 123, b"." * 81, ["."] * 81])
def test_non_string_puzzle_raises_type_error(func, value) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="must be a str"):
        func(value)


def test_is_solution_accepts_valid_solution_in_any_notation() -> None:
    assert sf.is_solution(SOLUTION, PUZZLE)
    assert sf.is_solution(sf.show(SOLUTION), PRETTY)


def test_is_solution_rejects_changed_clue() -> None:
    # A valid grid (digits relabelled) that does not keep the clues.
    other = SOLUTION.translate(str.maketrans("12", "21"))
    assert sf.is_solution(other, other)
    assert not sf.is_solution(other, PUZZLE)


def test_is_solution_rejects_incomplete_and_invalid_grids() -> None:
    assert not sf.is_solution(PUZZLE, PUZZLE)
    assert not sf.is_solution("." + SOLUTION[1:], PUZZLE)
    swapped = SOLUTION[1] + SOLUTION[0] + SOLUTION[2:]  # breaks two columns
    assert not sf.is_solution(swapped, "." * 81)
    assert not sf.is_solution("123456789" * 9, "." * 81)  # rows fine, columns not


def test_is_solution_malformed_text_raises() -> None:
    with pytest.raises(ValueError, match="found 80"):
        sf.is_solution(SOLUTION[:80], PUZZLE)
    with pytest.raises(TypeError, match="candidate must be a str"):
        sf.is_solution(None, PUZZLE)  # type: ignore[arg-type]


def test_a_grid_above_49x49_asks_for_an_alphabet() -> None:
    for side in (50, 64):
        with pytest.raises(ValueError, match=rf"a {side}x{side} grid: .* pass alphabet=") as err:
            sf.solve("." * side * side)
        suggested = str(err.value).split("alphabet='")[1].split("'")[0]
        assert len(set(suggested)) == side
        assert sf.parse("." * side * side, alphabet=suggested) == "." * side * side
    with pytest.raises(ValueError, match=r"up to 64x64 with an alphabet="):
        sf.parse("." * 80)


def test_parse_reads_another_empty_character_as_the_cli_s_empty_option() -> None:
    rows = "1 2 _ _\n_ _ _ _\n2 _ _ _\n_ _ _ 1"
    with pytest.raises(ValueError, match="expected 81 cells, found 4"):  # '_' is layout
        sf.parse(rows)
    assert sf.parse(rows, empty="_") == "12......2......1"
    assert sf.parse("12**\n****\n2***\n***1", empty="*") == "12......2......1"
    assert sf.parse("12  \n    \n2   \n   1", empty=" ") == "12......2......1"
    kaggle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    assert sf.parse(kaggle.replace(".", "x"), empty="x") == kaggle
    with pytest.raises(ValueError, match="empty='1' is a symbol of the grid"):
        sf.parse("1234" * 4, empty="1")
    with pytest.raises(ValueError, match="empty must be one character"):
        sf.parse(rows, empty="__")
    with pytest.raises(TypeError, match="empty must be a str"):
        sf.parse(rows, empty=0)  # type: ignore[arg-type]
