# cython: language_level=3
# Every other directive is set once for all modules in setup.py.
"""Compiled text I/O for puzzle files: lines -> grids, answers -> lines, solution checks.

Files of millions of puzzles are read in blocks of whole lines. `scan_block` turns the
common case (a plain 81-character puzzle, alone on its line or in a CSV column) into
engine grids without creating a Python object per line, and hands every other line back
to the caller, which runs the full notation parser on it and reports what is wrong.
`format_answers` writes a whole batch of answers in one buffer. `check_solutions` and
`compare_given` check solutions by the rules and against a file's own solutions; they
share no code with the engine, so they are an independent check of it.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memchr, memcmp, memcpy

cdef enum:
    CELLS = 81
    SIDE = 9
    NOT_A_CELL = 255

# Record flags, shared with stream.py.
FLAG_BAD = 1     # malformed record: no puzzle, answered with an error marker
FLAG_GIVEN = 2   # the record carries a given solution (CSV solution column)

# CSV layouts of format_answers, shared with stream.py.
cdef enum:
    CSV_NONE = 0     # the answer alone
    CSV_PUZZLE = 1   # canonical puzzle, answer
    CSV_ROW = 2      # the input's own row, answer

CSV_ANSWER_ONLY = CSV_NONE
CSV_WITH_PUZZLE = CSV_PUZZLE
CSV_WITH_ROW = CSV_ROW

cdef uint8_t cell_value[256]   # '.', '0'-'9' -> 0-9; anything else NOT_A_CELL
cdef uint8_t digit_char[10]    # 0-9 -> '.', '1'-'9'


cdef void build_tables() noexcept:
    cdef int c
    for c in range(256):
        cell_value[c] = NOT_A_CELL
    cell_value[ord('.')] = 0
    for c in range(10):
        cell_value[ord('0') + c] = <uint8_t>c
    digit_char[0] = ord('.')
    for c in range(1, 10):
        digit_char[c] = <uint8_t>(ord('0') + c)


build_tables()


cdef inline bint is_blank(uint8_t c) noexcept nogil:
    return c == 32 or (9 <= c <= 13 and c != 10)  # space, tab, VT, FF, CR (not newline)


cdef inline bint encode_puzzle(const uint8_t *text, uint8_t *row) noexcept nogil:
    """Encode 81 plain cell characters; False (row written with junk) on anything else."""
    cdef int k
    cdef uint8_t v, seen = 0
    for k in range(CELLS):
        v = cell_value[text[k]]
        row[k] = v
        seen |= v  # branch-free: NOT_A_CELL sets bits no cell value has
    return seen < 16


cdef inline bint encode_solution(const uint8_t *text, uint8_t *row) noexcept nogil:
    """Encode 81 digits 1-9; False on anything else (an empty cell included)."""
    cdef int k
    cdef uint8_t v
    for k in range(CELLS):
        v = cell_value[text[k]]
        if v == 0 or v == NOT_A_CELL:
            return False
        row[k] = v
    return True


cdef inline Py_ssize_t count_byte(
    const uint8_t *text, Py_ssize_t length, uint8_t byte
) noexcept nogil:
    """How many times `byte` occurs in text[:length]."""
    cdef Py_ssize_t i, found = 0
    for i in range(length):
        found += text[i] == byte
    return found


cdef inline bint find_field(
    const uint8_t *line, Py_ssize_t length, Py_ssize_t index,
    Py_ssize_t *start, Py_ssize_t *stop, uint8_t delimiter,
) noexcept nogil:
    """Bounds of `delimiter`-separated field `index` (blanks around it trimmed); False if
    absent."""
    cdef Py_ssize_t i, field = 0, begin = 0, end = -1
    for i in range(length):
        if line[i] == delimiter:
            if field == index:
                end = i
                break
            field += 1
            begin = i + 1
    if end < 0:
        if field != index:
            return False
        end = length
    while begin < end and is_blank(line[begin]):
        begin += 1
    while end > begin and is_blank(line[end - 1]):
        end -= 1
    start[0] = begin
    stop[0] = end
    return True


def record_span(const uint8_t[::1] data, Py_ssize_t max_records, bint comments=True):
    """How much of a block of whole lines makes at most `max_records` records.

    Returns (records, end): the records (lines neither blank nor, with `comments`, '#'
    comments) among the lines of data[:end], where `end` follows the line of record
    number `max_records`, or is the block's size when it holds fewer. Blank and comment
    lines cost no record, so a batch's buffers are sized by its records, whatever lies
    between them.
    """
    cdef Py_ssize_t size = data.shape[0], pos = 0, begin, stop, records = 0
    cdef const uint8_t *base = &data[0] if size else NULL
    cdef const uint8_t *newline
    while pos < size and records < max_records:
        newline = <const uint8_t *>memchr(base + pos, 10, <size_t>(size - pos))
        stop = (newline - base) if newline != NULL else size
        begin = pos
        pos = stop + 1
        while begin < stop and is_blank(base[begin]):
            begin += 1
        if begin < stop and not (comments and base[begin] == 35):  # not blank, no comment
            records += 1
    return records, min(pos, size)


def scan_block(
    const uint8_t[::1] data,
    long long first_line,
    Py_ssize_t puzzle_field,
    Py_ssize_t solution_field,
    uint8_t[::1] grids,
    uint8_t[::1] given,
    int64_t[::1] line_numbers,
    uint8_t[::1] flags,
    int64_t[::1] spans,
    Py_ssize_t field_count=-1,
    bint comments=True,
    uint8_t delimiter=44,
):
    """Scan a block of whole lines into puzzle records.

    Blank lines are skipped, and with `comments` lines starting with '#' (a CSV row may
    start with '#': its first field is data). `puzzle_field` < 0 means one
    puzzle per line; otherwise the puzzle is that comma-separated field, and when
    `solution_field` >= 0 the given solution is read from that field into `given`
    (flag FLAG_GIVEN). Record k gets its grid in grids[81k:81k+81], the 1-based line
    number `first_line` + offset in line_numbers[k], and the bounds of its text (the
    line without surrounding blanks) in spans[2k] and spans[2k+1]. Buffers must hold
    one record per record line of the block. A CSV line with other than `field_count`
    fields (the header's; -1: not checked) is not in the plain form. CSV fields are
    separated by `delimiter` (a byte: ',' by default; ';', tab, '|').

    Returns (records, lines, slow): `slow` lists (record, line number, start, stop) for
    the lines not in the plain form; the caller parses those (or marks them bad).
    """
    cdef Py_ssize_t size = data.shape[0]
    cdef Py_ssize_t pos = 0, end, begin, stop, fstart = 0, fstop = 0, records = 0
    cdef long long line = first_line
    cdef const uint8_t *base = &data[0] if size else NULL
    cdef const uint8_t *newline
    cdef bint plain
    cdef list slow = []
    while pos < size:
        newline = <const uint8_t *>memchr(base + pos, 10, <size_t>(size - pos))
        end = (newline - base) if newline != NULL else size
        begin = pos
        stop = end
        pos = end + 1
        while begin < stop and is_blank(base[begin]):
            begin += 1
        while stop > begin and is_blank(base[stop - 1]):
            stop -= 1
        if begin == stop or (comments and base[begin] == 35):  # blank or '#' comment
            line += 1
            continue
        if records >= flags.shape[0]:
            raise ValueError("record buffers too small for the block")
        line_numbers[records] = line
        flags[records] = 0
        spans[2 * records] = begin
        spans[2 * records + 1] = stop
        if puzzle_field < 0:
            plain = stop - begin == CELLS and encode_puzzle(
                base + begin, &grids[records * CELLS]
            )
        elif memchr(base + begin, 34, <size_t>(stop - begin)) != NULL:  # '"': quoted CSV
            plain = False
        else:
            plain = (
                (field_count < 0 or count_byte(base + begin, stop - begin, delimiter) + 1 == field_count)
                and find_field(base + begin, stop - begin, puzzle_field, &fstart, &fstop, delimiter)
                and fstop - fstart == CELLS
                and encode_puzzle(base + begin + fstart, &grids[records * CELLS])
            )
            if plain and solution_field >= 0:
                if find_field(
                    base + begin, stop - begin, solution_field, &fstart, &fstop, delimiter
                ):
                    if fstop - fstart == CELLS and encode_solution(
                        base + begin + fstart, &given[records * CELLS]
                    ):
                        flags[records] = FLAG_GIVEN
                    elif fstop > fstart:
                        plain = False  # let the full parser say what is wrong
        if not plain:
            slow.append((records, line, begin, stop))
        records += 1
        line += 1
    return records, line - first_line, slow


cdef inline Py_ssize_t write_quoted(uint8_t *out, const uint8_t *text, Py_ssize_t length) noexcept:
    """Write `text` as one CSV field in double quotes (quotes inside doubled)."""
    cdef Py_ssize_t k, pos = 1
    out[0] = 34
    for k in range(length):
        out[pos] = text[k]
        pos += 1
        if text[k] == 34:
            out[pos] = 34
            pos += 1
    out[pos] = 34
    return pos + 1


def format_answers(
    const uint8_t[::1] grids,
    const uint8_t[::1] solutions,
    const int32_t[::1] counts,
    const uint8_t[::1] flags,
    Py_ssize_t n,
    int csv_mode,
    bint write_count,
    bint skip_bad,
    bytes no_solution,
    bytes bad_record,
    const uint8_t[::1] text,
    const int64_t[::1] spans,
    uint8_t delimiter=44,
):
    """One output line per record, as a memoryview of a new buffer.

    A line's answer is the solution (or, with `write_count`, the number of solutions
    found), or `no_solution` when there is none, or `bad_record` for a malformed record
    (no line at all when `skip_bad`). `csv_mode` CSV_ANSWER_ONLY writes the answer
    alone; CSV_WITH_PUZZLE puts the canonical puzzle and a comma before it (for a
    malformed record: its text, quoted); CSV_WITH_ROW puts the record's own CSV row and
    a comma before it, so every column of the input is kept. Record i's text is
    text[spans[2i]:spans[2i+1]]. The answer's field is set off by `delimiter` (the
    input's, for CSV_WITH_ROW).
    """
    cdef Py_ssize_t answer_max = max(CELLS, len(no_solution), len(bad_record), 11)
    cdef Py_ssize_t i, k, pos = 0, capacity = n * (answer_max + CELLS + 4) + 1
    cdef Py_ssize_t begin, length
    if csv_mode != CSV_NONE:
        if spans.shape[0] < 2 * n:
            raise ValueError("spans buffer too small")
        for i in range(n):
            if spans[2 * i] < 0 or spans[2 * i] > spans[2 * i + 1] or spans[2 * i + 1] > text.shape[0]:
                raise ValueError("span outside the text")
            capacity += 2 * (spans[2 * i + 1] - spans[2 * i])  # quoted: every quote doubled
    cdef bytearray buffer = bytearray(capacity)
    cdef uint8_t *out = <uint8_t *><char *>buffer
    cdef const uint8_t *none_text = <const uint8_t *><const char *>no_solution
    cdef const uint8_t *bad_text = <const uint8_t *><const char *>bad_record
    cdef const uint8_t *rows = &text[0] if text.shape[0] else NULL
    cdef Py_ssize_t none_len = len(no_solution), bad_len = len(bad_record)
    cdef int32_t count
    cdef char digits[12]
    cdef int ndigits
    cdef bint bad
    for i in range(n):
        bad = flags[i] & FLAG_BAD
        if bad and skip_bad:
            continue
        if csv_mode != CSV_NONE:
            begin = spans[2 * i]
            length = spans[2 * i + 1] - begin
            if csv_mode == CSV_ROW:
                if length:
                    memcpy(out + pos, rows + begin, length)
                pos += length
            elif bad:
                pos += write_quoted(out + pos, rows + begin if length else NULL, length)
            else:
                for k in range(CELLS):
                    out[pos + k] = digit_char[grids[i * CELLS + k]]
                pos += CELLS
            out[pos] = delimiter
            pos += 1
        count = counts[i]
        if bad:
            memcpy(out + pos, bad_text, bad_len)
            pos += bad_len
        elif write_count:
            ndigits = 0
            while True:
                digits[ndigits] = <char>(48 + count % 10)
                ndigits += 1
                count //= 10
                if count == 0:
                    break
            while ndigits:
                ndigits -= 1
                out[pos] = digits[ndigits]
                pos += 1
        elif count == 0:
            memcpy(out + pos, none_text, none_len)
            pos += none_len
        else:
            for k in range(CELLS):
                out[pos + k] = digit_char[solutions[i * CELLS + k]]
            pos += CELLS
        out[pos] = 10
        pos += 1
    return memoryview(buffer)[:pos]


cdef inline bint valid_solution(const uint8_t *puzzle, const uint8_t *grid) noexcept nogil:
    """Every row, column and box holds 1-9 once, and every clue is kept."""
    cdef uint16_t rows[SIDE]
    cdef uint16_t cols[SIDE]
    cdef uint16_t boxes[SIDE]
    cdef int r, c, v
    cdef uint16_t bit
    for r in range(SIDE):
        rows[r] = 0
        cols[r] = 0
        boxes[r] = 0
    for r in range(SIDE):
        for c in range(SIDE):
            v = grid[r * SIDE + c]
            if v < 1 or v > 9:
                return False
            if puzzle[r * SIDE + c] and puzzle[r * SIDE + c] != v:
                return False
            bit = <uint16_t>(1 << v)
            rows[r] |= bit
            cols[c] |= bit
            boxes[(r // 3) * 3 + c // 3] |= bit
    for r in range(SIDE):
        if rows[r] != 0x3FE or cols[r] != 0x3FE or boxes[r] != 0x3FE:
            return False
    return True


def check_solutions(
    const uint8_t[::1] grids,
    const uint8_t[::1] solutions,
    const int32_t[::1] counts,
    const uint8_t[::1] flags,
    Py_ssize_t n,
):
    """Indices of the records whose solution breaks the rules or changes a clue.

    Only records that are not malformed and have a solution (count > 0) are checked.
    """
    cdef list wrong = []
    cdef Py_ssize_t i
    for i in range(n):
        if counts[i] > 0 and not (flags[i] & FLAG_BAD):
            if not valid_solution(&grids[i * CELLS], &solutions[i * CELLS]):
                wrong.append(i)
    return wrong


def compare_given(
    const uint8_t[::1] solutions,
    const int32_t[::1] counts,
    const uint8_t[::1] given,
    const uint8_t[::1] flags,
    Py_ssize_t n,
):
    """Indices of the records with a given solution that differs from the one found.

    A record with a given solution but no solution found is included.
    """
    cdef list differ = []
    cdef Py_ssize_t i
    for i in range(n):
        if (flags[i] & (FLAG_GIVEN | FLAG_BAD)) == FLAG_GIVEN:
            if counts[i] == 0 or memcmp(&solutions[i * CELLS], &given[i * CELLS], CELLS) != 0:
                differ.append(i)
    return differ


cdef bint is_digit_table(const uint8_t[::1] table) noexcept:
    """True for the classic table: '.' and '0'-'9' -> 0-9, every other byte -> 254 or more."""
    cdef int c
    for c in range(256):
        if c == 46:
            if table[c] != 0:
                return False
        elif 48 <= c <= 57:
            if table[c] != c - 48:
                return False
        elif table[c] < 254:
            return False
    return True


cdef inline bint encode_digits(
    const uint8_t *text, uint8_t *row, Py_ssize_t cells
) noexcept nogil:
    """The classic table by arithmetic; False on another byte (the row is written anyway).

    c - 48 wraps above 9 for every byte but '0'-'9', and '.' is masked to 0. No branch
    depends on the text (a '.' is as likely as not: a branch on it would be mispredicted
    half the time), so the compiler vectorises the loop.
    """
    cdef Py_ssize_t k
    cdef uint8_t v, over = 0
    for k in range(cells):
        v = <uint8_t>((text[k] - 48) & -(text[k] != 46))
        row[k] = v
        over |= v > 9
    return not over


def encode_rows(
    const uint8_t[::1] data,
    const int64_t[::1] offsets,
    const uint8_t[::1] table,
    uint8_t[:, ::1] out,
):
    """Encode rows of text stored Arrow-style into grids, without the GIL.

    Row i is data[offsets[i]:offsets[i + 1]]; when it has exactly `out.shape[1]` bytes
    and `table` maps each to a value below 254, the values go to out[i]. Returns the
    indices of the other rows (another length, layout or a foreign character), which
    the caller parses in full.
    """
    cdef Py_ssize_t n = out.shape[0], cells = out.shape[1], i, k
    cdef int64_t start
    cdef uint8_t value, worst
    cdef list slow = []
    cdef uint8_t *row
    if offsets.shape[0] < n + 1 or table.shape[0] < 256:
        raise ValueError("offsets or table too small")
    if n and (offsets[0] < 0 or offsets[n] > data.shape[0]):
        raise ValueError("offsets outside the data buffer")
    cdef uint8_t[::1] bad = bytearray(n)
    cdef bint digits = is_digit_table(table)
    with nogil:
        for i in range(n):
            start = offsets[i]
            if offsets[i + 1] - start != cells or start < 0 or offsets[i + 1] > data.shape[0]:
                bad[i] = 1
                continue
            row = &out[i, 0]
            if digits:
                bad[i] = not encode_digits(&data[start], row, cells)
                continue
            worst = 0
            for k in range(cells):
                value = table[data[start + k]]
                row[k] = value
                worst |= value & 0x80
            if worst:
                for k in range(cells):
                    if row[k] >= 254:
                        bad[i] = 1
                        break
    for i in range(n):
        if bad[i]:
            slow.append(i)
    return slow


def check_range(
    const uint8_t[::1] puzzles,
    const uint8_t[::1] solutions,
    int size,
    int box_rows,
    int box_cols,
    uint8_t[::1] out,
    Py_ssize_t start,
    Py_ssize_t stop,
):
    """out[i] = 1 when solution i is a complete grid by the rules of one size that keeps
    every clue of puzzle i, else 0, for i in start..stop-1 (values 0..size, N*N per grid).

    Runs with the GIL released: the batch's threads each take ranges of the same buffers.
    Shares no code with the engines, so it is an independent check of them.
    """
    cdef Py_ssize_t cells = <Py_ssize_t>size * size
    cdef Py_ssize_t c
    if size < 1 or size > 49 or box_rows * box_cols != size:
        raise ValueError(f"no geometry of size {size} with {box_rows}x{box_cols} boxes")
    if (puzzles.shape[0] < stop * cells or solutions.shape[0] < stop * cells
            or out.shape[0] < stop or start < 0):
        raise ValueError("check_range: buffers too small for the range")
    with nogil:
        for c in range(start, stop):
            out[c] = check_one(&puzzles[c * cells], &solutions[c * cells], size, box_rows, box_cols)


cdef bint check_one(
    const uint8_t *puzzle, const uint8_t *grid, int size, int box_rows, int box_cols
) noexcept nogil:
    """True when `grid` is complete, has each value once per row, column and box, and
    keeps the clues of `puzzle`.

    A unit of N cells holds each of the N values once exactly when the OR of its cells'
    bits is all N bits, so each unit is one OR reduction (no per-cell bookkeeping); a
    value outside 1..N has no bit, so it leaves its units short.
    """
    cdef uint64_t bits[2401]
    cdef uint64_t full = ((<uint64_t>1) << size) - 1 if size < 64 else ~(<uint64_t>0)
    cdef uint64_t acc
    cdef int cells = size * size
    cdef int i, r, k, b, top, left, v, p
    cdef bint changed = False
    for i in range(cells):
        v = grid[i]
        p = puzzle[i]
        changed |= (p != 0) & (p != v)
        bits[i] = ((<uint64_t>1) << (v - 1)) if <unsigned int>(v - 1) < <unsigned int>size else 0
    if changed:
        return False
    for r in range(size):
        acc = 0
        for k in range(size):
            acc |= bits[r * size + k]
        if acc != full:
            return False
    for k in range(size):
        acc = 0
        for r in range(size):
            acc |= bits[r * size + k]
        if acc != full:
            return False
    for b in range(size):
        top = (b // box_rows) * box_rows
        left = (b % box_rows) * box_cols
        acc = 0
        for r in range(box_rows):
            for k in range(box_cols):
                acc |= bits[(top + r) * size + left + k]
        if acc != full:
            return False
    return True
