"""Typed stubs for the compiled text I/O."""

from typing import Any

FLAG_BAD: int
FLAG_GIVEN: int
CSV_ANSWER_ONLY: int
CSV_WITH_PUZZLE: int
CSV_WITH_ROW: int

def record_span(data: Any, max_records: int, comments: bool = True) -> tuple[int, int]: ...
def scan_block(
    data: Any,
    first_line: int,
    puzzle_field: int,
    solution_field: int,
    grids: Any,
    given: Any,
    line_numbers: Any,
    flags: Any,
    spans: Any,
    field_count: int = -1,
    comments: bool = True,
    delimiter: int = 44,
) -> tuple[int, int, list[tuple[int, int, int, int]]]: ...
def format_answers(
    grids: Any,
    solutions: Any,
    counts: Any,
    flags: Any,
    n: int,
    csv_mode: int,
    write_count: bool,
    skip_bad: bool,
    no_solution: bytes,
    bad_record: bytes,
    text: Any,
    spans: Any,
    delimiter: int = 44,
) -> memoryview: ...
def check_range(
    puzzles: Any,
    solutions: Any,
    size: int,
    box_rows: int,
    box_cols: int,
    out: Any,
    start: int,
    stop: int,
) -> None: ...
def check_solutions(grids: Any, solutions: Any, counts: Any, flags: Any, n: int) -> list[int]: ...
def compare_given(solutions: Any, counts: Any, given: Any, flags: Any, n: int) -> list[int]: ...
def encode_rows(data: Any, offsets: Any, table: Any, out: Any) -> list[int]:
    """Encode Arrow-style rows (data, int64 offsets) through `table` into `out` (n x cells).

    Returns the indices of rows that are not plain (another length, a byte the table
    sends to the parser), for the caller to parse in full.
    """
