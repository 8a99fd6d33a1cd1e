"""The file reader and the compiled text I/O, in process: blocks, formats, line numbers."""

from __future__ import annotations

import csv
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from checks import check_solution
from conftest import VENDORED, read_csv

from sudoku_fast._base.grid import geometry_for
from sudoku_fast._engine import _textio
from sudoku_fast._files import stream
from sudoku_fast._files.progress import Progress
from sudoku_fast._files.stream import (
    FLAG_BAD,
    FLAG_GIVEN,
    PuzzleReader,
    SolveOptions,
    grid_text,
    solve_stream,
)
from sudoku_fast.cli.words import Messages
from sudoku_fast.datasets import load_embedded

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def records(data: bytes, want_given: bool = False) -> list[tuple[int, str, int, str]]:
    """(line, puzzle, flags, given) of every record the reader makes of `data`."""
    reader = PuzzleReader(io.BytesIO(data), "test", want_given=want_given)
    found = []
    for batch in reader:
        for i in range(batch.n):
            cells = slice(i * 81, (i + 1) * 81)
            given = grid_text(batch.given[cells]) if batch.flags[i] & FLAG_GIVEN else ""
            puzzle = "" if batch.flags[i] & FLAG_BAD else grid_text(batch.grids[cells])
            found.append((batch.line_numbers[i], puzzle, batch.flags[i], given))
    return found


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of a few hundred bytes, so that lines straddle block boundaries."""
    monkeypatch.setattr(stream, "FIRST_BLOCK", 100)
    monkeypatch.setattr(stream, "MAX_BLOCK", 700)


@pytest.mark.usefixtures("tiny_blocks")
def test_lines_across_blocks_keep_order_and_line_numbers() -> None:
    puzzles = load_embedded("norvig_top95")
    rng = random.Random(3)
    lines: list[str] = []
    expected = []
    for p in puzzles:
        for _ in range(rng.randrange(3)):
            lines.append(rng.choice(["", "# comment", "   ", "\t"]))
        notation = rng.randrange(3)
        text = p if notation == 0 else p.replace(".", "0") if notation == 1 else " ".join(p)
        lines.append(text)
        expected.append((len(lines), p))
    data = "\r\n".join(lines).encode()  # CRLF, and no newline after the last line
    found = records(data)
    assert [(line, puzzle) for line, puzzle, _, _ in found] == expected


@pytest.mark.usefixtures("tiny_blocks")
def test_csv_headers_and_fields() -> None:
    for header in (
        "quizzes,solutions",
        "puzzle,solution",
        "Puzzle , Solution",
        '"puzzle","solution"',
    ):
        data = f"# made by hand\n\n{header}\n{PUZZLE},{SOLUTION}\n".encode()
        assert records(data, want_given=True) == [(4, PUZZLE, FLAG_GIVEN, SOLUTION)]
    # Extra columns, the puzzle not first, a quoted field, a UTF-8 byte order mark.
    data = (
        "\ufeffid,solution,label,puzzle\n"
        f"1,{SOLUTION},x,{PUZZLE}\n"
        f'2,"{SOLUTION}","a, b","{PUZZLE}"\n'
        f"3,,y,{PUZZLE.replace('.', '0')}\n"
        "4,5\n"
    ).encode()
    found = records(data, want_given=True)
    assert found[:3] == [
        (2, PUZZLE, FLAG_GIVEN, SOLUTION),
        (3, PUZZLE, FLAG_GIVEN, SOLUTION),
        (4, PUZZLE, 0, ""),
    ]
    assert found[3][0] == 5 and found[3][2] == FLAG_BAD
    reader = PuzzleReader(io.BytesIO(data), "t", want_given=False)
    assert reader.is_csv and reader.puzzle_field == 3 and not reader.has_solutions


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_utf16_file_is_refused_by_name(encoding: str) -> None:
    """A byte order mark of UTF-16 (or UTF-32) stops the run with one clear error,
    rather than a malformed record per line and extra ones made of NULs."""
    data = f"{PUZZLE}\n{PUZZLE}\n".encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    with pytest.raises(ValueError, match=r"^f\.txt: the file is UTF-16 .* save it as UTF-8"):
        PuzzleReader(io.BytesIO(data), "f.txt")


def test_format_detection() -> None:
    assert not PuzzleReader(io.BytesIO(PUZZLE.encode()), "t").is_csv
    assert not PuzzleReader(io.BytesIO(b""), "t").is_csv
    assert not PuzzleReader(io.BytesIO(b"# only a comment\n\n"), "t").is_csv
    # Commas alone do not make CSV: a comma-separated grid is one puzzle per line.
    line = ",".join(PUZZLE)
    assert records(line.encode()) == [(1, PUZZLE, 0, "")]


@pytest.mark.parametrize("puzzle", [PUZZLE, "1...........4..."])
def test_form_feeds_and_vertical_tabs_are_blanks(puzzle: str) -> None:
    """Lines of only ASCII whitespace (form feed and vertical tab too) are blank lines,
    and such characters around a puzzle are not part of it."""
    data = f"\f\n{puzzle}\n\x0b \t\n\x0c{puzzle}\x0b\r\n".encode()
    text, _, report = solve_text(data.decode())
    assert report.malformed == 0 and len(text.splitlines()) == 2
    for answer in text.splitlines():
        check_solution(answer, puzzle)


@pytest.mark.parametrize("puzzle", [PUZZLE, "1...........4..."])
def test_csv_rows_starting_with_hash_are_rows(puzzle: str) -> None:
    """'#' comments end at a CSV header: below it "#17,..." is a row with the id "#17"."""
    data = f"# made by hand\nid,puzzle\n#1,{puzzle}\n  #2,{puzzle}\n3,{puzzle}\n".encode()
    found = records(data) if puzzle == PUZZLE else []
    if found:
        assert [(line, p, flags) for line, p, flags, _ in found] == [
            (3, PUZZLE, 0),
            (4, PUZZLE, 0),
            (5, PUZZLE, 0),
        ]
    text, _, report = solve_text(data.decode())
    rows = list(csv.reader(io.StringIO(text)))
    assert [row[0] for row in rows] == ["id", "#1", "#2", "3"]  # blanks around a row go
    assert report.malformed == 0 and len(rows) == 4
    for row in rows[1:]:
        check_solution(row[2], row[1])
    # A '#' row too long to be a puzzle is a malformed row, not a skipped comment.
    long_row = b"#" + b"x" * (stream.MAX_LINE + 10)
    text, err, report = solve_text((data + long_row + f"\n4,{puzzle}\n".encode()).decode())
    assert report.malformed == 1 and "t:6: line longer" in err
    lines = text.splitlines()
    assert len(lines) == 6 and lines[-1].startswith(f"4,{puzzle},")


@pytest.mark.parametrize("first", [True, False])
def test_a_line_too_long_is_one_malformed_record(first: bool) -> None:
    """A line over MAX_LINE bytes is reported like any malformed line; reading goes on."""
    huge = b"." * (stream.MAX_LINE + 10)
    head = b"" if first else f"# a comment\n{PUZZLE}\n".encode()
    data = head + huge + f"\n\n{PUZZLE}\n{PUZZLE}".encode()
    reader = PuzzleReader(io.BytesIO(data), "t")
    found = []
    for batch in reader:
        found += [(batch.line_numbers[i], batch.flags[i]) for i in range(batch.n)]
        for _, reason in batch.problems:
            assert f"line longer than {stream.MAX_LINE:,} bytes" in reason
    skipped = 1 if first else 3
    expected = [(skipped, FLAG_BAD), (skipped + 2, 0), (skipped + 3, 0)]
    assert found == ([] if first else [(2, 0)]) + expected
    text, err, report = solve_text(data.decode())
    assert text.splitlines()[-3:] == ["error", SOLUTION, SOLUTION]
    assert report.malformed == 1 and f"t:{skipped}: line longer" in err


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("kind", ["comment", "blank", "blanks then text"])
def test_a_long_blank_or_comment_line_is_skipped(first: bool, kind: str) -> None:
    """Blank and '#' lines make no record however long; blanks then text make a bad one."""
    many = 3 * stream.MAX_LINE  # past what one read keeps: skipped as it is read
    line = {
        "comment": b"  #" + b"x" * many,
        "blank": b" \t" * many,
        "blanks then text": b" " * many + b"x",
    }[kind]
    head = b"" if first else f"{PUZZLE}\n".encode()
    data = head + line + f"\n{PUZZLE}\n".encode()
    found = []
    for batch in PuzzleReader(io.BytesIO(data), "t"):
        found += [(batch.line_numbers[i], batch.flags[i]) for i in range(batch.n)]
    at = 1 if first else 2
    bad = [(at, FLAG_BAD)] if kind == "blanks then text" else []
    assert found == ([] if first else [(1, 0)]) + bad + [(at + 1, 0)]
    text, _, report = solve_text(data.decode())
    assert text.splitlines() == [SOLUTION] * (not first) + ["error"] * len(bad) + [SOLUTION]
    assert report.malformed == len(bad)


def test_bad_records_get_reasons() -> None:
    data = f"{PUZZLE}\n{PUZZLE[:79]}\n{PUZZLE}z\n{PUZZLE}\n".encode()
    reader = PuzzleReader(io.BytesIO(data), "t")
    (batch,) = list(reader)
    assert batch.n == 4
    expected = [
        (1, "expected 81 cells, found 79"),
        (2, "unexpected character 'z' at position 81"),
    ]
    assert len(batch.problems) == len(expected)
    for (record, reason), (want_record, want_reason) in zip(batch.problems, expected, strict=True):
        assert record == want_record and reason.startswith(want_reason)
    assert list(batch.flags[:4]) == [0, FLAG_BAD, FLAG_BAD, 0]
    grids, n = batch.good_grids()
    assert n == 2 and grid_text(grids[81:162]) == PUZZLE


def solve_text(
    data: str, box: object = None, alphabet: object = None, **options: object
) -> tuple[str, str, stream.RunReport]:
    out = io.BytesIO()
    err = io.StringIO()
    reader = PuzzleReader(
        io.BytesIO(data.encode()),
        "t",
        want_given=bool(options.get("verify")),
        box=box,
        alphabet=alphabet,
    )
    options.setdefault("csv_output", reader.is_csv)
    opts = SolveOptions(**options)  # type: ignore[arg-type]
    report = solve_stream(reader, out, opts, Messages(err), Progress(err, None))
    return out.getvalue().decode(), err.getvalue(), report


def test_solve_stream_in_process() -> None:
    text, err, report = solve_text(f"{PUZZLE}\n55{'.' * 79}\nxyz\n", threads=1)
    assert text.splitlines() == [SOLUTION, "none", "error"]
    assert "t:3: unexpected character 'x'" in err
    assert (report.records, report.solved, report.no_solution, report.malformed) == (3, 1, 1, 1)
    text, _, report = solve_text(f"{PUZZLE}\n{'.' * 81}\n", count=True, limit=3)
    assert text.splitlines() == ["1", "3"]
    text, err, report = solve_text(f"puzzle,solution\n{PUZZLE},{SOLUTION}\n", verify=True)
    assert text.splitlines() == [
        "puzzle,solution,found_solution",
        f"{PUZZLE},{SOLUTION},{SOLUTION}",
    ]
    assert report.checked == 1 and report.mismatches == 0 and err == ""


def test_compiled_checker_agrees_with_the_independent_check() -> None:
    rng = random.Random(9)
    puzzle = bytes(".123456789".index(c) for c in PUZZLE)
    solution = bytes(int(c) for c in SOLUTION)
    cases = [solution]
    for _ in range(300):
        grid = bytearray(solution)
        kind = rng.randrange(3)
        a, b = rng.randrange(81), rng.randrange(81)
        if kind == 0:
            grid[a], grid[b] = grid[b], grid[a]
        elif kind == 1:
            grid[a] = rng.randrange(10)
        else:
            grid[a] = 10 + rng.randrange(200)
        cases.append(bytes(grid))
    n = len(cases)
    grids = puzzle * n
    solutions = b"".join(cases)
    counts = _int32([1] * n)
    wrong = set(_textio.check_solutions(grids, solutions, counts, bytearray(n), n))
    for i, grid in enumerate(cases):
        text = "".join(str(v) if 1 <= v <= 9 else "?" for v in grid)
        try:
            check_solution(text, PUZZLE)
            independent_ok = True
        except AssertionError:
            independent_ok = False
        assert (i not in wrong) == independent_ok, text
    assert 0 < len(wrong) < n
    # No solution found, or a malformed record: nothing to check.
    assert _textio.check_solutions(grids, solutions, _int32([0] * n), bytearray(n), n) == []
    flags = bytearray([FLAG_BAD]) * n
    assert _textio.check_solutions(grids, solutions, counts, flags, n) == []


def _int32(values: list[int]) -> object:
    from array import array

    return array("i", values)


def test_compare_given() -> None:
    solution = bytes(int(c) for c in SOLUTION)
    other = bytes([solution[1], solution[0]]) + solution[2:]
    solutions = solution * 4
    given = solution + other + solution + other
    flags = bytearray([FLAG_GIVEN, FLAG_GIVEN, 0, FLAG_GIVEN | FLAG_BAD])
    counts = _int32([1, 1, 1, 1])
    assert _textio.compare_given(solutions, counts, given, flags, 4) == [1]
    assert _textio.compare_given(solutions, _int32([0, 1, 1, 1]), given, flags, 4) == [0, 1]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    terminal = FakeTerminal()
    bar = Progress(terminal, total_bytes=1000)
    bar.update(500, 250, force=True)
    drawn = terminal.getvalue()
    assert drawn.startswith("\r[######") and "25%" in drawn and "500 puzzles" in drawn
    assert "ETA" in drawn
    bar.clear()
    assert terminal.getvalue().endswith("\r\x1b[K")
    piped = io.StringIO()
    quiet = Progress(piped, total_bytes=1000)
    quiet.update(500, 250, force=True)
    quiet.clear()
    assert piped.getvalue() == "" and not quiet.enabled
    off = Progress(FakeTerminal(), total_bytes=None, enabled=False)
    assert not off.enabled


# ---------------------------------------------------------------- every geometry

SIXTEEN = read_csv(VENDORED / "sudoku16_goomii_sample100_with_solutions.csv")


def sized_records(
    data: bytes, **kwargs: object
) -> tuple[PuzzleReader, list[tuple[int, str, int, str]]]:
    """The reader and (line, puzzle, flags, given) of every record, in any geometry."""
    reader = PuzzleReader(io.BytesIO(data), "test", **kwargs)  # type: ignore[arg-type]
    found = []
    for batch in reader:
        geometry, cells = batch.geometry, batch.geometry.cells
        for i in range(batch.n):
            grid = slice(i * cells, (i + 1) * cells)
            bad = batch.flags[i] & FLAG_BAD
            given = batch.flags[i] & FLAG_GIVEN
            found.append(
                (
                    batch.line_numbers[i],
                    "" if bad else grid_text(batch.grids[grid], geometry),
                    batch.flags[i],
                    grid_text(batch.given[grid], geometry) if given else "",
                )
            )
    return reader, found


@pytest.mark.usefixtures("tiny_blocks")
def test_other_sizes_across_blocks() -> None:
    rng = random.Random(5)
    lines: list[str] = []
    expected = []
    for row in SIXTEEN[:30]:
        for _ in range(rng.randrange(3)):
            lines.append(rng.choice(["", "# comment", "   "]))
        p = row["puzzle"]
        lines.append(
            p if rng.random() < 0.5 else " ".join(p[r * 16 : r * 16 + 16] for r in range(16))
        )
        expected.append((len(lines), p))
    reader, found = sized_records("\r\n".join(lines).encode())
    assert reader.geometry == geometry_for(16)
    assert [(line, puzzle) for line, puzzle, _, _ in found] == expected


def test_csv_of_another_size_with_solutions() -> None:
    rows = SIXTEEN[:5]
    data = "puzzle,solution\n" + "".join(f"{r['puzzle']},{r['solution']}\n" for r in rows)
    reader, found = sized_records(data.encode(), want_given=True)
    assert reader.is_csv and reader.geometry == geometry_for(16)
    assert found == [(i + 2, r["puzzle"], FLAG_GIVEN, r["solution"]) for i, r in enumerate(rows)]


def test_the_first_puzzle_that_parses_decides() -> None:
    six = [r["puzzle"] for r in read_csv(VENDORED / "sudoku6_2x3.csv")]
    nine = PUZZLE
    data = f"# a 6x6 file\n{six[0][:-1]}\n{six[0]}\n{nine}\n{six[1]}\n".encode()
    reader, found = sized_records(data)
    assert reader.geometry == geometry_for(6)
    assert [(line, puzzle, flags) for line, puzzle, flags, _ in found] == [
        (2, "", FLAG_BAD),
        (3, six[0], 0),
        (4, "", FLAG_BAD),
        (5, six[1], 0),
    ]
    (batch,) = list(PuzzleReader(io.BytesIO(data), "t"))
    reasons = dict(batch.problems)
    assert reasons[0].startswith("expected 36 cells, found 35 (a 6x6 grid")
    assert reasons[2].startswith("a 9x9 puzzle in a file of 6x6 puzzles")
    # With the geometry fixed, a puzzle of another size is just a malformed one.
    (batch,) = list(PuzzleReader(io.BytesIO(data), "t", box=(2, 3)))
    assert dict(batch.problems)[2].startswith("unexpected character '8' at position 6")
    # Nothing parses: each line says what is wrong with it alone.
    (batch,) = list(PuzzleReader(io.BytesIO(b"12345\nxyz\n"), "t"))
    assert PuzzleReader(io.BytesIO(b""), "t").geometry is None
    assert [r for _, r in batch.problems] == [
        "expected 81 cells, found 5 (or N*N cells for another grid size N: 16, 36, 64, 100, "
        "144, ... 2401; up to 64x64 with an alphabet=)",
        "unexpected character 'x' at position 0",
    ]


def test_box_and_alphabet_fix_the_geometry() -> None:
    hexed = [
        r["puzzle"].translate(str.maketrans("123456789ABCDEFG", "0123456789ABCDEF"))
        for r in SIXTEEN[:3]
    ]
    data = "".join(p + "\n" for p in hexed).encode()
    reader, found = sized_records(data, alphabet="0123456789ABCDEF")
    assert reader.geometry == geometry_for(16, None, "0123456789ABCDEF")
    assert [puzzle for _, puzzle, _, _ in found] == hexed
    with pytest.raises(ValueError, match="inconsistent grid size"):
        PuzzleReader(io.BytesIO(data), "t", box=(3, 3), alphabet="0123456789ABCDEF")


def test_solve_stream_other_sizes() -> None:
    rows = SIXTEEN[:6]
    data = "".join(f"{r['puzzle']}\n" for r in rows) + "1" * 256 + "\nxyz\n"
    text, err, report = solve_text(data, threads=1)
    assert text.splitlines() == [r["solution"] for r in rows] + ["none", "error"]
    assert (report.records, report.solved, report.no_solution, report.malformed) == (8, 6, 1, 1)
    assert "t:8: unexpected character 'x' at position 0 (cell r1c1; a 16x16 grid" in err
    text, _, _ = solve_text(data, count=True, limit=3, on_error="skip")
    assert text.splitlines() == ["1"] * 6 + ["0"]
    lines = ["puzzle,solution"] + [f"{r['puzzle']},{r['solution']}" for r in rows]
    text, err, report = solve_text("\n".join(lines) + "\n,\n", verify=True)
    assert text.splitlines() == [
        "puzzle,solution,found_solution",
        *(f"{r['puzzle']},{r['solution']},{r['solution']}" for r in rows),
        ",,error",
    ]
    assert report.checked == 6 and report.mismatches == 0


def test_verify_other_sizes_reports_differences() -> None:
    rows = SIXTEEN[:4]
    broken = rows[1]["solution"]
    broken = broken[1] + broken[0] + broken[2:]  # breaks the rules
    lines = [
        "puzzle,solution",
        f"{rows[0]['puzzle']},{rows[0]['solution']}",
        f"{rows[1]['puzzle']},{broken}",
        f"{rows[2]['puzzle']},{rows[2]['solution'][:255]}",  # malformed
        f"{'.' * 256},{rows[3]['solution']}",  # several solutions; maybe another one found
        f"{'1' * 256},{rows[3]['solution']}",  # no solution
    ]
    text, err, report = solve_text("\n".join(lines) + "\n", verify=True)
    assert "t:3: mismatch: the given solution is not a solution of the puzzle" in err
    assert "t:4: mismatch: the given solution is malformed: expected 256 cells" in err
    assert "t:6: mismatch: no solution found, and the given solution is not valid" in err
    found = text.splitlines()[4].split(",")[2]
    check_solution(found, "." * 256)
    several = "t:5: mismatch: several solutions; the given one differs" in err
    assert several == (found != rows[3]["solution"])
    assert report.checked == 5 and report.mismatches == 3 + several


def test_node_budget_in_a_stream() -> None:
    # The first five puzzles of sudoku16_misc need 7, 2, 1, 1 and 6 search nodes.
    rows = read_csv(VENDORED / "sudoku16_misc.csv")[:5]
    data = "".join(f"{r['puzzle']}\n" for r in rows)
    text, err, report = solve_text(data, threads=1, max_nodes=3)
    out = text.splitlines()
    assert out[0] == out[4] == "unknown"
    assert (report.solved, report.unknown, report.no_solution) == (3, 2, 0)
    assert "t:5: unknown: no answer within 3 search nodes" in err
    text, _, report = solve_text(data, threads=1, max_nodes=None)
    assert report.solved == 5 and "unknown" not in text


def test_csv_output_keeps_every_column_and_the_text_of_malformed_rows() -> None:
    sixteen = SIXTEEN[0]
    for puzzle, solution in ((PUZZLE, SOLUTION), (sixteen["puzzle"], sixteen["solution"])):
        data = (
            "id,puzzle,note\n"
            f"7,{puzzle},first\n"
            f'8,"{puzzle}","a, b"\n'  # quoted fields
            f"9,{puzzle[:-1]}x,bad\n"  # malformed: a foreign character
            "10,,empty\n"
        )
        text, _, report = solve_text(data)
        assert text.splitlines() == [
            "id,puzzle,note,solution",
            f"7,{puzzle},first,{solution}",
            f'8,"{puzzle}","a, b",{solution}',
            f"9,{puzzle[:-1]}x,bad,error",
            "10,,empty,error",
        ]
        assert report.malformed == 2
        text, _, _ = solve_text(data, count=True, on_error="skip")
        assert text.splitlines() == [
            "id,puzzle,note,count",
            f"7,{puzzle},first,1",
            f'8,"{puzzle}","a, b",1',
        ]
    # Lines in, CSV out: the canonical puzzle, and a malformed line's own text, quoted.
    for puzzle, solution in ((PUZZLE, SOLUTION), (sixteen["puzzle"], sixteen["solution"])):
        text, _, _ = solve_text(f'{" ".join(puzzle)}\nx"y, z\n', csv_output=True)
        assert text.splitlines() == [
            "puzzle,solution",
            f"{puzzle},{solution}",
            '"x""y, z",error',
        ]


def _memory_growth(data: bytes, tmp_path: Path) -> int:
    """How far the peak resident memory of a process grows while it solves `data`.

    Measured in a fresh process (`sudoku-fast solve` through `main`), from after the
    imports to the end of the run.
    """
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    # VmHWM, the peak resident size of this process's memory: unlike ru_maxrss, it is
    # not inherited from the parent across exec.
    code = (
        "import re, sys\n"
        "from sudoku_fast.cli import main\n"
        "def peak():\n"
        "    status = open('/proc/self/status').read()\n"
        "    return int(re.search(r'VmHWM:\\s*(\\d+) kB', status)[1])\n"
        "before = peak()\n"
        "status = main(['solve', '-q', '-o', sys.argv[1] + '.out', sys.argv[1]])\n"
        "print(status, (peak() - before) * 1024)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    status, growth = proc.stdout.split()
    assert status in ("0", "3")
    return int(growth)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory from Linux /proc")
def test_memory_stays_flat_whatever_lies_between_puzzles(tmp_path: Path) -> None:
    """Blank and comment lines, and short malformed lines, cost no grid memory each."""
    blanks = b"\n" * 1_000_000
    comments = b"# a comment\n" * 300_000
    data = blanks + comments + f"{PUZZLE}\n".encode() + blanks + f"{PUZZLE}\n".encode()
    assert _memory_growth(data, tmp_path) < 16 << 20  # was 120 MB: 81 bytes per line
    big = read_csv(VENDORED / "sudoku25_misc.csv")[0]["puzzle"]
    junk = b"x\n" * 100_000  # each a malformed 25x25 record
    assert _memory_growth(f"{big}\n".encode() + junk, tmp_path) < 16 << 20  # was 90 MB


def solve_file(path: Path) -> subprocess.CompletedProcess[str]:
    """`sudoku-fast solve PATH` in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", "solve", str(path)], capture_output=True, text=True
    )


def test_a_csv_answer_column_never_takes_a_name_in_use(tmp_path: Path) -> None:
    row = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[0]
    path = tmp_path / "in.csv"
    path.write_text(f"puzzle,solution,found_solution\n{row['puzzle']},a,b\n")
    proc = solve_file(path)
    assert proc.returncode == 0
    out = proc.stdout.splitlines()
    assert out == [
        "puzzle,solution,found_solution,found_solution_2",
        f"{row['puzzle']},a,b,{row['solution']}",
    ]


def test_a_csv_row_with_other_than_the_headers_fields_is_malformed(tmp_path: Path) -> None:
    rows = read_csv(VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")[:4]
    p = [r["puzzle"] for r in rows]
    path = tmp_path / "in.csv"
    # Short, long, right (plain), right (quoted): an answer appended to the first two
    # would land under another column. The short row's marker goes in the answer column
    # after an empty field; the long row is written whole in its first field (nothing is
    # dropped, and the output has the header's fields).
    path.write_text(f'id,puzzle\n{p[0]}\n1,{p[1]},extra\n2,{p[2]}\n3,"{p[3]}"\n')
    proc = solve_file(path)
    assert proc.returncode == 3
    assert proc.stdout.splitlines() == [
        "id,puzzle,solution",
        f"{p[0]},,error",
        f'"1,{p[1]},extra",,error',
        f"2,{p[2]},{rows[2]['solution']}",
        f'3,"{p[3]}",{rows[3]["solution"]}',
    ]
    assert f"{path}:2: 1 field(s) where the header has 2" in proc.stderr
    assert f"{path}:3: 3 field(s) where the header has 2" in proc.stderr
    short, long, *_ = csv.DictReader(io.StringIO(proc.stdout))
    assert short == {"id": p[0], "puzzle": "", "solution": "error"}
    assert long == {"id": f"1,{p[1]},extra", "puzzle": "", "solution": "error"}
    # A quoted field over two lines (each line is read as a record) and a quote left
    # open: each such line is kept whole in its first field, and the rest stays apart.
    path.write_text(f'id,note,puzzle\n1,"two\nlines",{p[0]}\n2,"open,{p[1]}\n3,x,{p[2]}\n')
    proc = solve_file(path)
    assert proc.returncode == 3
    answered = list(csv.reader(io.StringIO(proc.stdout)))
    assert answered == [
        ["id", "note", "puzzle", "solution"],
        ['1,"two', "", "", "error"],
        [f'lines",{p[0]}', "", "", "error"],
        [f'2,"open,{p[1]}', "", "", "error"],
        ["3", "x", p[2], rows[2]["solution"]],
    ]
    # A header field may hold a quoted comma, as any other field may.
    path.write_text(f'"id, x",puzzle\n0,{p[0]}\n1,"{p[1]}"\n')
    proc = solve_file(path)
    assert proc.returncode == 0
    answered = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [(r["id, x"], r["solution"]) for r in answered] == [
        ("0", rows[0]["solution"]),
        ("1", rows[1]["solution"]),
    ]
