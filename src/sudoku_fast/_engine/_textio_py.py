"""Text I/O for puzzle files in plain Python: the slow, obviously correct twin of `_textio.pyx`.

The same functions with the same arguments and results: `record_span` and `scan_block`
read blocks of whole lines into records, `format_answers` writes a batch of answers,
`check_solutions` and `compare_given` check solutions by the rules and against a file's
own, `encode_rows` turns Arrow-style rows of text into grids. Each works one line (one
row, one grid) at a time with the plainest Python there is.
"""

from __future__ import annotations

from typing import Any

FLAG_BAD = 1  # malformed record: no puzzle, answered with an error marker
FLAG_GIVEN = 2  # the record carries a given solution (CSV solution column)
CSV_ANSWER_ONLY = 0  # the answer alone
CSV_WITH_PUZZLE = 1  # canonical puzzle, answer
CSV_WITH_ROW = 2  # the input's own row, answer

CELLS = 81
SIDE = 9
BLANKS = b" \t\x0b\x0c\r"  # what is trimmed around a line (not the newline)
SLOW = 254  # a table value at or above this needs the full parser


def _lines(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of every line of `data`, the newline excluded; a last line without one too."""
    out = []
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        if end < 0:
            end = len(data)
        out.append((start, end))
        start = end + 1
    return out


def _trimmed(data: bytes, start: int, end: int) -> tuple[int, int]:
    while start < end and data[start] in BLANKS:
        start += 1
    while end > start and data[end - 1] in BLANKS:
        end -= 1
    return start, end


def _skipped(data: bytes, start: int, end: int, comments: bool) -> bool:
    """A blank line, or (with `comments`) a '#' comment."""
    begin, stop = _trimmed(data, start, end)
    return begin == stop or (comments and data[begin] == ord("#"))


def _plain_values(text: bytes, solution: bool = False) -> list[int] | None:
    """81 cells ('.', '0'-'9'; for a solution '1'-'9' only) as values, else None."""
    if len(text) != CELLS:
        return None
    values = []
    for byte in text:
        if byte == ord("."):
            value = 0
        elif ord("0") <= byte <= ord("9"):
            value = byte - ord("0")
        else:
            return None
        if solution and value == 0:
            return None
        values.append(value)
    return values


def record_span(data: Any, max_records: int, comments: bool = True) -> tuple[int, int]:
    """(records, end): the records among the lines of data[:end], at most `max_records`."""
    raw = bytes(data)
    records = 0
    end = 0
    for start, stop in _lines(raw):
        if records >= max_records:
            break
        end = min(stop + 1, len(raw))
        if not _skipped(raw, start, stop, comments):
            records += 1
    return records, end


def _field(line: bytes, index: int, delimiter: int = 44) -> bytes | None:
    """`delimiter`-separated field `index` of a line, blanks around it trimmed; None if absent."""
    fields = line.split(bytes([delimiter]))
    if index >= len(fields):
        return None
    return fields[index].strip(BLANKS)


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
) -> tuple[int, int, list[tuple[int, int, int, int]]]:
    """Scan a block of whole lines into puzzle records (see `_textio.scan_block`)."""
    raw = bytes(data)
    records = 0
    line = first_line
    slow: list[tuple[int, int, int, int]] = []
    for start, end in _lines(raw):
        if _skipped(raw, start, end, comments):
            line += 1
            continue
        if records >= len(flags):
            raise ValueError("record buffers too small for the block")
        begin, stop = _trimmed(raw, start, end)
        text = raw[begin:stop]
        line_numbers[records] = line
        flags[records] = 0
        spans[2 * records] = begin
        spans[2 * records + 1] = stop
        values: list[int] | None = None
        if puzzle_field < 0:
            values = _plain_values(text)
        elif b'"' not in text and (
            field_count < 0 or text.count(bytes([delimiter])) + 1 == field_count
        ):
            puzzle = _field(text, puzzle_field, delimiter)
            values = None if puzzle is None else _plain_values(puzzle)
            if values is not None and solution_field >= 0:
                answer = _field(text, solution_field, delimiter)
                solution = None if answer is None else _plain_values(answer, solution=True)
                if solution is not None:
                    given[records * CELLS : (records + 1) * CELLS] = bytes(solution)
                    flags[records] = FLAG_GIVEN
                elif answer:
                    values = None  # let the full parser say what is wrong
        if values is None:
            slow.append((records, line, begin, stop))
        else:
            grids[records * CELLS : (records + 1) * CELLS] = bytes(values)
        records += 1
        line += 1
    return records, line - first_line, slow


def _cells_text(values: Any) -> bytes:
    return bytes(ord(".") if v == 0 else ord("0") + v for v in values)


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
) -> memoryview:
    """One output line per record (see `_textio.format_answers`)."""
    rows = bytes(text)
    lines = []
    for i in range(n):
        bad = flags[i] & FLAG_BAD
        if bad and skip_bad:
            continue
        prefix = b""
        if csv_mode != CSV_ANSWER_ONLY:
            begin, stop = spans[2 * i], spans[2 * i + 1]
            if begin < 0 or begin > stop or stop > len(rows):
                raise ValueError("span outside the text")
            own = rows[begin:stop]
            if csv_mode == CSV_WITH_ROW:
                prefix = own + bytes([delimiter])
            elif bad:
                prefix = b'"' + own.replace(b'"', b'""') + b'",'
            else:
                prefix = _cells_text(grids[i * CELLS : (i + 1) * CELLS]) + b","
        if bad:
            answer = bad_record
        elif write_count:
            answer = str(counts[i]).encode()
        elif counts[i] == 0:
            answer = no_solution
        else:
            answer = _cells_text(solutions[i * CELLS : (i + 1) * CELLS])
        lines.append(prefix + answer + b"\n")
    return memoryview(b"".join(lines))


def _valid_solution(puzzle: Any, grid: Any) -> bool:
    """Every row, column and box holds 1-9 once, and every clue is kept."""
    if any(not 1 <= v <= 9 for v in grid):
        return False
    if any(clue and clue != v for clue, v in zip(puzzle, grid, strict=True)):
        return False
    full = set(range(1, 10))
    for k in range(SIDE):
        row = {grid[k * SIDE + c] for c in range(SIDE)}
        column = {grid[r * SIDE + k] for r in range(SIDE)}
        top, left = 3 * (k // 3), 3 * (k % 3)
        box = {grid[(top + r) * SIDE + left + c] for r in range(3) for c in range(3)}
        if row != full or column != full or box != full:
            return False
    return True


def check_solutions(grids: Any, solutions: Any, counts: Any, flags: Any, n: int) -> list[int]:
    """Records (not malformed, with a solution) whose solution breaks the rules or a clue."""
    return [
        i
        for i in range(n)
        if counts[i] > 0
        and not flags[i] & FLAG_BAD
        and not _valid_solution(
            grids[i * CELLS : (i + 1) * CELLS], solutions[i * CELLS : (i + 1) * CELLS]
        )
    ]


def compare_given(solutions: Any, counts: Any, given: Any, flags: Any, n: int) -> list[int]:
    """Records with a given solution that differs from the one found (or none was found)."""
    return [
        i
        for i in range(n)
        if flags[i] & (FLAG_GIVEN | FLAG_BAD) == FLAG_GIVEN
        and (
            counts[i] == 0
            or bytes(solutions[i * CELLS : (i + 1) * CELLS])
            != bytes(given[i * CELLS : (i + 1) * CELLS])
        )
    ]


def encode_rows(data: Any, offsets: Any, table: Any, out: Any) -> list[int]:
    """Rows of text stored Arrow-style into grids, one row at a time with `bytes.translate`;
    returns the rows left to the full parser (see `_textio.encode_rows`)."""
    cells = len(out[0]) if len(out) else 0
    raw, table_bytes = bytes(data), bytes(table)
    slow = []
    for i in range(len(out)):
        start, stop = int(offsets[i]), int(offsets[i + 1])
        values = raw[start:stop].translate(table_bytes)
        if stop - start != cells or any(v >= SLOW for v in values):
            slow.append(i)
            continue
        out[i] = list(values)
    return slow


def check_range(
    puzzles: Any,
    solutions: Any,
    size: int,
    box_rows: int,
    box_cols: int,
    out: Any,
    start: int,
    stop: int,
) -> None:
    """out[i] = 1 when solution i keeps puzzle i's clues and is complete and valid by the
    rules, else 0, for i in start..stop-1 (see `_textio.check_range`)."""
    if size < 1 or size > 49 or box_rows * box_cols != size:
        raise ValueError(f"no geometry of size {size} with {box_rows}x{box_cols} boxes")
    cells = size * size
    if len(puzzles) < stop * cells or len(solutions) < stop * cells or len(out) < stop:
        raise ValueError("check_range: buffers too small for the range")
    units = [[r * size + c for c in range(size)] for r in range(size)]
    units += [[r * size + c for r in range(size)] for c in range(size)]
    units += [
        [(top + r) * size + left + c for r in range(box_rows) for c in range(box_cols)]
        for top in range(0, size, box_rows)
        for left in range(0, size, box_cols)
    ]
    every_value = set(range(1, size + 1))
    for i in range(start, stop):
        clues = puzzles[i * cells : (i + 1) * cells]
        grid = solutions[i * cells : (i + 1) * cells]
        keeps = all(p == 0 or p == v for p, v in zip(clues, grid, strict=True))
        out[i] = int(keeps and all({grid[k] for k in unit} == every_value for unit in units))
