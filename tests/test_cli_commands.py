"""The `sudoku-fast` commands, driven as a subprocess: solve, stats, show, count, check.

Answers are checked against the solutions given in the public data files and by the
independent rules check in checks.py, never by the engine alone.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from checks import check_solution
from conftest import (
    VENDORED,
    interrupt,
    needs_sigint,
    read_csv,
    read_lines,
    run_cli,
    start_interruptible,
)

import sudoku_fast as sf
from sudoku_fast._files.progress import Progress
from sudoku_fast.datasets import EMBEDDED_SETS, load_embedded

KAGGLE = VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv"
MIXED = VENDORED / "mixed_validity_9x9.csv"
SEVENTEEN = VENDORED / "sudoku17_sample.txt"
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
CLASH = "55" + "." * 79  # two 5s in the first row

# Exit statuses, as documented in `sudoku-fast --help`.
OK, CHECK_FAILED, USAGE, MALFORMED, STOPPED = 0, 1, 2, 3, 4


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run `python -m sudoku_fast ARGS` and capture its output as text."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args],
        input=stdin,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
        env=env,
    )


def answers(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return proc.stdout.splitlines()


def write(path: Path, lines: list[str]) -> Path:
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))
    return path


# ---------------------------------------------------------------- solve: good input


def test_solve_lines_file() -> None:
    puzzles = read_lines(SEVENTEEN)
    proc = run("solve", str(SEVENTEEN), "--threads", "2")
    assert proc.returncode == OK, proc.stderr
    out = answers(proc)
    assert len(out) == len(puzzles)
    for puzzle, solution in zip(puzzles, out, strict=True):
        check_solution(solution, puzzle)
    assert f"{len(puzzles):,} puzzles" in proc.stderr


def test_solve_csv_matches_the_given_solutions() -> None:
    rows = read_csv(KAGGLE)
    proc = run("solve", str(KAGGLE))
    assert proc.returncode == OK, proc.stderr
    out = answers(proc)
    # The input's rows, with the solution found added as a column.
    assert out[0] == "puzzle,solution,found_solution"
    assert out[1:] == [f"{r['puzzle']},{r['solution']},{r['solution']}" for r in rows]


def test_kaggle_header_and_format_override(tmp_path: Path) -> None:
    rows = read_csv(KAGGLE)[:50]
    lines = ["quizzes,solutions"] + [f"{r['puzzle']},{r['solution']}" for r in rows]
    path = write(tmp_path / "kaggle.csv", [line.replace(".", "0") for line in lines])
    proc = run("solve", str(path), "--format", "lines", "--verify")
    assert proc.returncode == OK, proc.stderr
    assert answers(proc) == [r["solution"] for r in rows]
    assert "50 checked against the rules and the file's solutions: 0 problem(s)" in proc.stderr


def test_solve_stdin_and_output_file(tmp_path: Path) -> None:
    puzzles = load_embedded("norvig_top95")
    text = "".join(p + "\n" for p in puzzles)
    for args in (("solve",), ("solve", "-")):
        proc = run(*args, stdin=text)
        assert proc.returncode == OK, proc.stderr
        for puzzle, solution in zip(puzzles, answers(proc), strict=True):
            check_solution(solution, puzzle)
    out = tmp_path / "out.txt"
    proc = run("--threads", "2", "solve", "-", "-o", str(out), "-q", stdin=text)
    assert proc.returncode == OK, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    assert out.read_text().splitlines() == answers(run("solve", stdin=text))


def test_answers_come_out_before_the_input_ends() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_fast", "solve", "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    got: list[bytes] = []
    try:
        for puzzle, expected in ((PUZZLE, SOLUTION), (CLASH, "none")):
            proc.stdin.write(f"{puzzle}\n".encode())
            proc.stdin.flush()
            reader = threading.Thread(target=lambda: got.append(proc.stdout.readline()))
            reader.start()
            reader.join(timeout=60)
            assert not reader.is_alive(), "no answer while the input is still open"
            assert got.pop().decode().strip() == expected
        proc.stdin.close()
        assert proc.wait(timeout=60) == OK
    finally:
        proc.kill()
        proc.wait()


def test_many_blocks_keep_order_and_notations(tmp_path: Path) -> None:
    # Larger than the first read blocks, in mixed notations and line endings, so that
    # lines are split across blocks and both the fast and the full parser are used.
    puzzles = load_embedded("magictour_top1465") * 3
    lines = []
    for i, p in enumerate(puzzles):
        if i % 3 == 1:
            p = p.replace(".", "0")
        elif i % 3 == 2:
            p = " ".join(p[r * 9 : r * 9 + 9] for r in range(9))
        lines.append(p)
    path = tmp_path / "mixed.txt"
    path.write_bytes("".join(line + "\r\n" for line in lines).encode())
    proc = run("solve", str(path), "--threads", "2")
    assert proc.returncode == OK, proc.stderr
    out = answers(proc)
    assert len(out) == len(puzzles)
    for puzzle, solution in zip(puzzles, out, strict=True):
        check_solution(solution, puzzle)


# ---------------------------------------------------------------- solve: bad input


def bad_file(tmp_path: Path) -> tuple[Path, dict[int, str], dict[int, str]]:
    """A file of good and malformed lines: (path, good puzzles by line, reasons by line)."""
    good = load_embedded("norvig_top95")
    lines = [
        "# puzzles, with a few broken lines",  # line 1
        good[0],  # 2
        good[1][:80],  # 3: 80 cells
        "",  # 4
        good[2],  # 5
        good[3] + "7",  # 6: 82 cells
        good[4][:40] + "x" + good[4][41:],  # 7: a foreign character
        good[5],  # 8
        good[6][:10] + "é" + good[6][11:],  # 9: a non-ASCII character
        "   " + good[7] + "   ",  # 10: blanks around are fine
    ]
    path = write(tmp_path / "bad.txt", lines)
    puzzles = {2: good[0], 5: good[2], 8: good[5], 10: good[7]}
    reasons = {
        3: "expected 81 cells, found 80",
        6: "expected 81 cells, found 82",
        7: "unexpected character 'x' at position 40",
        9: "unexpected character 'é' at position 10",
    }
    return path, puzzles, reasons


def test_bad_lines_reported_and_every_good_line_answered(tmp_path: Path) -> None:
    path, puzzles, reasons = bad_file(tmp_path)
    proc = run("solve", str(path))
    assert proc.returncode == MALFORMED
    records = sorted([*puzzles, *reasons])
    out = answers(proc)
    assert len(out) == len(records)
    for line, answer in zip(records, out, strict=True):
        if line in puzzles:
            check_solution(answer, puzzles[line])
        else:
            assert answer == "error"
            assert f"{path}:{line}: {reasons[line]}" in proc.stderr
    assert "4 malformed" in proc.stderr


def test_on_error_skip_and_fail(tmp_path: Path) -> None:
    path, puzzles, reasons = bad_file(tmp_path)
    skip = run("solve", str(path), "--on-error", "skip")
    assert skip.returncode == OK
    assert len(answers(skip)) == len(puzzles)
    for line, answer in zip(sorted(puzzles), answers(skip), strict=True):
        check_solution(answer, puzzles[line])
    assert all(f":{line}: " in skip.stderr for line in reasons)

    fail = run("solve", str(path), "--on-error", "fail")
    assert fail.returncode == STOPPED
    out = answers(fail)
    assert len(out) == 1  # only line 2 comes before the first malformed line (3)
    check_solution(out[0], puzzles[2])
    stop_line = next(line for line in fail.stderr.splitlines() if line.startswith(f"{path}:3: "))
    assert reasons[3] in stop_line and stop_line.endswith("(stopping here)")
    assert f":{6}:" not in fail.stderr


def test_no_solution_is_an_answer_not_an_error() -> None:
    rows = read_csv(MIXED)
    proc = run("solve", str(MIXED), "--format", "lines")
    assert proc.returncode == OK, proc.stderr
    counted = run("solve", str(MIXED), "--count", "--format", "lines")
    assert counted.returncode == OK, counted.stderr
    no_solution = 0
    for row, answer, count in zip(rows, answers(proc), answers(counted), strict=True):
        given = int(row["num_solutions"])
        assert int(count) == min(given, 2)
        if given == 0:
            assert answer == "none"
            no_solution += 1
        else:
            check_solution(answer, row["puzzle"])
    assert no_solution == 19  # 14 without solution, 5 with clashing clues


def test_clashing_clues_on_lines() -> None:
    proc = run("solve", stdin=f"{CLASH}\n{PUZZLE}\n")
    assert proc.returncode == OK
    assert answers(proc) == ["none", SOLUTION]
    assert "1 without solution, 0 malformed" in proc.stderr


def test_verify_catches_corrupted_solutions(tmp_path: Path) -> None:
    rows = read_csv(KAGGLE)[:40]
    lines = ["puzzle,solution"] + [f"{r['puzzle']},{r['solution']}" for r in rows]
    good = run("solve", str(write(tmp_path / "good.csv", lines)), "--verify")
    assert good.returncode == OK, good.stderr
    # Line 6: two cells swapped in the given solution, so it breaks the rules.
    solution = rows[4]["solution"]
    broken = solution[1] + solution[0] + solution[2:]
    assert broken != solution
    lines[5] = f"{rows[4]['puzzle']},{broken}"
    # Line 11: a given solution with a letter in it.
    lines[10] = f"{rows[9]['puzzle']},{rows[9]['solution'][:80]}x"
    proc = run("solve", str(write(tmp_path / "bad.csv", lines)), "--verify")
    assert proc.returncode == CHECK_FAILED
    assert ":6: mismatch: the given solution is not a solution of the puzzle" in proc.stderr
    assert ":11: mismatch: the given solution is malformed" in proc.stderr
    assert "2 problem(s)" in proc.stderr
    # The answers themselves are still the right ones.
    assert [line.split(",")[2] for line in answers(proc)[1:]] == [r["solution"] for r in rows]


def test_verify_several_solutions_and_missing_solution(tmp_path: Path) -> None:
    # The empty grid has many solutions: a valid given one that differs is reported as
    # such; a clashing puzzle with a given "solution" is a mismatch too.
    empty = "." * 81
    lines = ["puzzle,solution", f"{empty},{SOLUTION}", f"{CLASH},{SOLUTION}", f"{PUZZLE},"]
    proc = run("solve", str(write(tmp_path / "multi.csv", lines)), "--verify")
    assert proc.returncode == CHECK_FAILED
    stderr = proc.stderr
    found = answers(proc)[1].split(",")[2]
    check_solution(found, empty)
    if found != SOLUTION:
        assert ":2: mismatch: several solutions" in stderr
    assert ":3: mismatch: no solution found, and the given solution is not valid" in stderr
    assert ":4:" not in stderr  # no given solution: only the rules check


def test_malformed_and_mismatch_together_give_the_higher_status(tmp_path: Path) -> None:
    rows = read_csv(KAGGLE)[:3]
    lines = ["puzzle,solution"] + [f"{r['puzzle']},{r['solution']}" for r in rows]
    lines[1] = f"{rows[0]['puzzle']},{SOLUTION}"  # wrong given solution
    lines.append("not a puzzle,")
    proc = run("solve", str(write(tmp_path / "both.csv", lines)), "--verify")
    assert proc.returncode == MALFORMED
    assert ":2: mismatch" in proc.stderr and ":5: puzzle field:" in proc.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("solve", str(tmp_path / "missing.txt")).returncode == USAGE
    assert run("solve", "--threads", "0", str(SEVENTEEN)).returncode == USAGE
    assert run("solve", "--on-error", "ignore", str(SEVENTEEN)).returncode == USAGE
    proc = run("solve", "--max-messages", "-1", str(SEVENTEEN))
    assert proc.returncode == USAGE and "--max-messages: must be at least 0" in proc.stderr
    assert run("no-such-command").returncode == USAGE


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_names_the_output(tmp_path: Path) -> None:
    """A failed write names no file by itself: the message names the output."""
    path = write(tmp_path / "p.txt", [PUZZLE])
    proc = run("solve", str(path), "-q", "-o", "/dev/full")
    assert proc.returncode == USAGE
    assert "error: /dev/full: [Errno 28] No space left on device" in proc.stderr
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "sudoku_fast", "solve", str(path), "-q"],
            stdout=full,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            timeout=300,
            check=False,
        )
    assert proc.returncode == USAGE
    assert "error: standard output: [Errno 28] No space left on device" in proc.stderr


@pytest.mark.parametrize("command", ["solve", "stats", "rate", "dedup"])
def test_an_invalid_thread_setting_is_a_usage_error(command: str, tmp_path: Path) -> None:
    """SUDOKU_FAST_NUM_THREADS=abc stops every file command before any output (rate
    once took it for a puzzle's fault and rated one puzzle at a time instead)."""
    path = write(tmp_path / "p.txt", [PUZZLE])
    env = dict(os.environ, SUDOKU_FAST_NUM_THREADS="abc")
    proc = subprocess.run(
        [sys.executable, "-m", "sudoku_fast", command, str(path)],
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
        env=env,
    )
    assert proc.returncode == USAGE and proc.stdout == ""
    assert "SUDOKU_FAST_NUM_THREADS must be a whole number of threads" in proc.stderr


def test_a_line_over_1_mib_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_bytes(b"1" * (2 << 20) + f"\n{PUZZLE}\n".encode())
    proc = run("solve", str(path))
    assert proc.returncode == MALFORMED
    assert answers(proc) == ["error", SOLUTION]
    assert f"{path}:1: line longer than 1,048,576 bytes" in proc.stderr


def test_help_documents_the_exit_codes() -> None:
    proc = run("--help")
    assert proc.returncode == OK
    for code in ("0", "1", "2", "3", "4", "130"):
        assert f"\n  {code} " in proc.stdout
    for command in ("solve", "stats", "show", "count", "check"):
        assert command in proc.stdout


# ---------------------------------------------------------------- stats


def check_stats_block(block: str, name: str, puzzles: int) -> None:
    lines = block.splitlines()
    assert lines[0].startswith(f"{name}: {puzzles:,} puzzles")
    text = "\n".join(lines)
    for label in (
        "puzzles/s",
        "time per puzzle (us)",
        "mean",
        "stddev",
        "max",
        "solved without guessing",
        "guesses per puzzle",
    ):
        assert label in text
    header = lines.index("  search-tree size (nodes) percentiles:")
    assert lines[header + 1].split() == [
        "1%",
        "10%",
        "25%",
        "50%",
        "75%",
        "90%",
        "99%",
        "99.9%",
        "100%",
    ]
    values = [int(v.replace(",", "")) for v in lines[header + 2].split()]
    assert len(values) == 9 and values == sorted(values) and values[0] >= 1
    by_count = lines.index("  max time (us) over the first N puzzles:")
    counts = [int(c[2:].replace(",", "")) for c in lines[by_count + 1].split()]
    assert counts[-1] == puzzles and counts == sorted(counts)


def test_stats_on_files(tmp_path: Path) -> None:
    path, _, _ = bad_file(tmp_path)
    proc = run("stats", str(SEVENTEEN), str(path), "--threads", "2")
    assert proc.returncode == MALFORMED  # the second file has malformed lines
    blocks = proc.stdout.strip().split("\n\n")
    assert len(blocks) == 2
    check_stats_block(blocks[0], str(SEVENTEEN), len(read_lines(SEVENTEEN)))
    check_stats_block(blocks[1], str(path), 4)
    assert f"{path}:3: expected 81 cells" in proc.stderr


def test_stats_embedded_and_json() -> None:
    proc = run("stats")
    assert proc.returncode == OK, proc.stderr
    blocks = proc.stdout.strip().split("\n\n")
    for name, block in zip(EMBEDDED_SETS, blocks, strict=True):
        check_stats_block(block, name, len(load_embedded(name)))
    proc = run("stats", "--json", "-", stdin=f"{PUZZLE}\n{CLASH}\n{'.' * 81}\n")
    assert proc.returncode == OK, proc.stderr
    data = json.loads(proc.stdout)
    assert data["puzzles"] == 3 and data["solved"] == 2
    assert (data["no_solution"], data["unknown"]) == (1, 0)  # the clash
    assert list(data["node_percentiles"]) == [
        "1",
        "10",
        "25",
        "50",
        "75",
        "90",
        "99",
        "99.9",
        "100",
    ]
    assert data["puzzles_per_second"] > 0 and data["max_us"] >= data["mean_us"] > 0


def test_stats_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "times.png"
    proc = run("stats", str(SEVENTEEN), "--plot", str(png))
    assert proc.returncode == OK, proc.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- show / count / check


def test_show() -> None:
    proc = run("show", PUZZLE)
    assert proc.returncode == OK
    lines = proc.stdout.splitlines()
    assert len(lines) == 11
    assert lines[0] == "4 . . | . . . | 8 . 5"
    assert lines[3] == "------+-------+------"
    again = run("show", "-", stdin=proc.stdout)  # the grid form reads back
    assert again.stdout == proc.stdout
    bad = run("show", PUZZLE[:80])
    assert bad.returncode == USAGE and "expected 81 cells, found 80" in bad.stderr


def test_count() -> None:
    assert run("count", PUZZLE).stdout.strip() == "1"
    assert run("count", CLASH).stdout.strip() == "0"
    assert run("count", "." * 81).stdout.strip() == "2"
    assert run("count", "." * 81, "--limit", "7").stdout.strip() == "7"
    proc = run("count", PUZZLE.replace("4", "q", 1))
    assert proc.returncode == USAGE and "unexpected character 'q'" in proc.stderr


def test_check() -> None:
    proc = run("check", PUZZLE, SOLUTION)
    assert proc.returncode == OK and "valid: the only solution" in proc.stdout
    swapped = SOLUTION[1] + SOLUTION[0] + SOLUTION[2:]
    proc = run("check", PUZZLE, swapped)
    assert proc.returncode == CHECK_FAILED and "not a solution" in proc.stdout
    proc = run("check", PUZZLE, SOLUTION[:80] + ".")
    assert proc.returncode == CHECK_FAILED and "1 empty cell(s)" in proc.stdout
    other = "." * 81
    proc = run("check", other, SOLUTION)
    assert proc.returncode == OK and "one of several solutions" in proc.stdout
    proc = run("check", PUZZLE[:80], SOLUTION)
    assert proc.returncode == USAGE and "error: PUZZLE: expected 81 cells, found 80" in proc.stderr
    # A malformed SOLUTION solves nothing: status 1, and the message says it is SOLUTION.
    proc = run("check", PUZZLE, SOLUTION[:80])
    assert proc.returncode == CHECK_FAILED
    assert "not a solution: SOLUTION is malformed: expected 81 cells, found 80" in proc.stdout


def test_check_other_sizes() -> None:
    puzzle, solution = "1.3..4.........2", "1234342121434312"
    assert run("check", puzzle, solution).returncode == OK
    proc = run("check", puzzle, "1234342121434321")
    assert proc.returncode == CHECK_FAILED and "is changed to 1" in proc.stdout
    proc = run("check", puzzle, SOLUTION)
    assert proc.returncode == CHECK_FAILED
    assert "SOLUTION is malformed: a 9x9 grid, not a 4x4 one" in proc.stdout


# ---------------------------------------------------------------- rough edges


UNDECIDED, INTERRUPTED = 5, 130
COMMANDS = ("solve", "stats", "show", "count", "check", "generate", "rate", "hint")


def listed_exit_codes(help_text: str) -> list[int]:
    """The codes of the 'exit status:' table of a help text."""
    table = help_text.split("exit status:\n", 1)[1]
    return [int(line.split()[0]) for line in table.splitlines() if line[:3].strip().isdigit()]


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == OK and proc.stdout.strip() == f"sudoku-fast {sf.__version__}"


def test_help_is_wrapped_to_the_terminal() -> None:
    env = {"COLUMNS": "60"}
    for args in ([], *([command] for command in COMMANDS)):
        text = run_env(env, *args, "--help").stdout
        # Only an option's list of choices (one word to argparse) may stick out.
        long = [line for line in text.splitlines() if len(line) > 60 and "{" not in line]
        assert not long, (args, long)


def test_each_command_lists_the_exit_codes_it_can_return() -> None:
    expected = {
        "solve": [OK, CHECK_FAILED, USAGE, MALFORMED, STOPPED, UNDECIDED, INTERRUPTED, 141],
        "stats": [OK, USAGE, MALFORMED, UNDECIDED, INTERRUPTED, 141],
        "show": [OK, USAGE],
        "count": [OK, USAGE, UNDECIDED, INTERRUPTED],
        "check": [OK, CHECK_FAILED, USAGE, INTERRUPTED],
        "generate": [OK, CHECK_FAILED, USAGE, INTERRUPTED, 141],
        "rate": [OK, CHECK_FAILED, USAGE, MALFORMED, UNDECIDED, INTERRUPTED, 141],
        "hint": [OK, USAGE, UNDECIDED, INTERRUPTED, 141],
    }
    for command, codes in expected.items():
        assert listed_exit_codes(run(command, "--help").stdout) == codes, command
    top = listed_exit_codes(run("--help").stdout)
    assert top == [OK, CHECK_FAILED, USAGE, MALFORMED, STOPPED, UNDECIDED, INTERRUPTED, 141]


def run_env(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`run` with extra environment variables."""
    return run_cli(*args, env=env)


def test_limits_beyond_the_engine_types_are_usage_errors() -> None:
    proc = run("count", "." * 81, "--limit", str(2**31))
    assert proc.returncode == USAGE and "must be from 1 to 2,147,483,647" in proc.stderr
    proc = run("count", "." * 256, "--max-nodes", str(2**63))
    assert proc.returncode == USAGE and "9,223,372,036,854,775,807" in proc.stderr
    proc = run("solve", "--count", "--limit", str(2**40), stdin=PUZZLE + "\n")
    assert proc.returncode == USAGE and "Traceback" not in proc.stderr
    proc = run("solve", "--limit", "5", stdin=PUZZLE + "\n")  # a limit of nothing counted
    assert proc.returncode == USAGE and "pass --count too" in proc.stderr


def test_count_and_check_when_the_budget_runs_out() -> None:
    proc = run("count", "." * 256, "--limit", "100000000", "--max-nodes", "2000")
    assert proc.returncode == UNDECIDED and "Traceback" not in proc.stderr
    assert proc.stdout.strip() == "unknown"
    assert "budget of 2,000 search nodes before the count was decided" in proc.stderr
    solution = sf.solve("." * 256)
    assert solution is not None
    proc = run("check", "." * 256, solution, "--max-nodes", "1")
    assert proc.returncode == OK and "Traceback" not in proc.stderr
    assert "valid; whether it is the only solution was not decided" in proc.stdout


@needs_sigint
def test_ctrl_c_interrupts_count_inside_one_puzzle() -> None:
    command = [sys.executable, "-m", "sudoku_fast", "count", "." * 81, "--limit", "1000000000"]
    status, err, seconds = interrupt(command, after=2.0)
    assert status == INTERRUPTED and "interrupted" in err, err
    assert seconds < 5


@needs_sigint
@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_interrupts_a_file_inside_one_big_puzzle(tmp_path: Path, threads: str) -> None:
    # The file's batches are solved on another thread than the one Ctrl-C reaches.
    path = write(tmp_path / "empty16.txt", ["." * 256] * 8)
    command = [sys.executable, "-m", "sudoku_fast", "solve", "--count", "--limit", "2000000000"]
    command += ["--max-nodes", "0", "--threads", threads, "-q", str(path)]
    status, err, seconds = interrupt(command, after=2.0)
    assert status == INTERRUPTED and "interrupted" in err, err
    assert seconds < 5


def test_output_file_that_is_the_input_is_refused(tmp_path: Path) -> None:
    puzzles = read_lines(SEVENTEEN)[:50]
    path = write(tmp_path / "same.txt", puzzles)
    before = path.read_bytes()
    os.link(path, tmp_path / "link.txt")  # another name of the same file
    for output in (path, tmp_path / "link.txt"):
        proc = run("solve", "-q", str(path), "-o", str(output))
        assert proc.returncode == USAGE and "the output file is the input file" in proc.stderr
        assert path.read_bytes() == before
    proc = run("solve", "-q", "-", "-o", str(path), stdin=before.decode())
    assert proc.returncode == OK  # standard input from a pipe: nothing to protect
    assert run("solve", "-q", str(tmp_path / "link.txt"), "-o", str(tmp_path / "x")).returncode == 0


def test_count_mode_summary_tells_unique_from_several(tmp_path: Path) -> None:
    path = write(tmp_path / "p.txt", [PUZZLE, "." * 81, "." * 81, CLASH])
    proc = run("solve", "--count", str(path))
    assert proc.returncode == OK
    assert "1 with one solution, 2 with several, 1 without solution" in proc.stderr
    assert "solved" not in proc.stderr
    proc = run("solve", "--count", "--limit", "1", str(path))
    assert "3 with at least one solution, 1 without solution" in proc.stderr
    assert "3 solved, 1 without solution" in run("solve", str(path)).stderr


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_fits_narrow_terminals(monkeypatch: pytest.MonkeyPatch) -> None:
    for columns in (20, 40, 50, 74, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        stream = FakeTerminal()
        progress = Progress(stream, 10_000_000)
        progress.update(123_456, 4_000_000, force=True)
        drawn = stream.getvalue().removeprefix("\r").removesuffix("\x1b[K")
        assert 0 < len(drawn) < columns, (columns, drawn)
        assert ("[" in drawn) == (columns > 74)  # the bar itself goes first
        assert drawn.startswith(" 40%") or drawn.startswith("[")


def test_histogram_keeps_empty_bins() -> None:
    from sudoku_fast.cli.stats import histogram_steps
    from sudoku_fast.stats import BINS_PER_OCTAVE, StatsBuilder

    builder = StatsBuilder()
    nanos = [1000, 1000, 1010, 8000]  # three in the bin of 1 us, one in that of 8 us
    builder.add([1] * 4, [0] * 4, [1] * 4, nanos, 0.001, 1)
    summary = builder.summary()
    edges, shares = histogram_steps(summary)
    assert len(edges) == len(shares) + 1
    assert len(shares) == 3 * BINS_PER_OCTAVE + 1  # 1 us to 8 us: three octaves
    assert shares[0] == 75.0 and shares[-1] == 25.0 and sum(shares) == 100.0
    assert shares.count(0.0) == len(shares) - 2
    ratios = {round(high / low, 9) for low, high in itertools.pairwise(edges)}
    assert ratios == {round(2 ** (1 / BINS_PER_OCTAVE), 9)}  # every bin its own width
    for low, high, count in summary.time_histogram:  # the summary's bins, unchanged
        k = edges.index(next(e for e in edges if abs(e - low) < 1e-9))
        assert abs(edges[k + 1] - high) < 1e-9 and shares[k] == 100 * count / 4


def test_output_options_write_where_they_say(tmp_path: Path) -> None:
    generated = tmp_path / "gen.txt"
    proc = run("generate", "-n", "2", "--seed", "4", "-o", str(generated))
    assert proc.returncode == OK and proc.stdout == ""
    puzzles = generated.read_text().split()
    assert puzzles == sf.generate_many(2, seed=4)
    rated = tmp_path / "rated.tsv"
    proc = run("rate", str(generated), "-o", str(rated))
    assert proc.returncode == OK and proc.stdout == ""
    lines = rated.read_text().splitlines()
    assert (
        lines[0].startswith("line\tlevel") and len(lines) == 1 + 2
    )  # header, rows (summary: stderr)
    proc = run("rate", str(generated), "-o", str(generated))
    assert proc.returncode == USAGE and "the output file is the input file" in proc.stderr
    assert generated.read_text().split() == puzzles
    proc = run("generate", "-n", "5", "--format", "parquet")  # refused before any work
    assert proc.returncode == USAGE and "name it with -o" in proc.stderr
    out = tmp_path / "big_seed.parquet"  # the rows' seeds fit the int64 column whatever --seed
    proc = run("generate", "-n", "2", "--seed", str(2**64), "--format", "parquet", "-o", str(out))
    assert proc.returncode == OK, proc.stderr


def test_text_commands_refuse_parquet_files_clearly(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"puzzle": [PUZZLE]}), path)
    for command in ("stats", "lab"):
        proc = run(command, str(path))
        assert proc.returncode == USAGE, proc.stderr
        assert "Parquet files are read by solve, rate, dedup, canonical and augment" in proc.stderr


def test_negative_seeds_are_refused() -> None:
    proc = run("generate", "-n", "1", "--seed", "-1")
    assert proc.returncode == USAGE and "seed must not be negative" in proc.stderr
    with pytest.raises(ValueError, match="seed must not be negative"):
        sf.generate_many(1, seed=-2)


def test_lab_reads_csv_as_the_other_commands_do(tmp_path: Path) -> None:
    for name, text in (
        ("bom.csv", f"\ufeffpuzzle,x\n{PUZZLE},1\n"),
        ("quizzes.csv", f"quizzes,solutions\n{PUZZLE},{SOLUTION}\n"),
    ):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        proc = run("lab", str(path), "--algorithms", "dlx")
        assert proc.returncode == OK, proc.stderr


def test_a_quoted_field_over_two_lines_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text(f'x,puzzle\n"a\nb",{PUZZLE}\nc,{PUZZLE}\n')
    proc = run("solve", str(path))
    assert proc.returncode == MALFORMED
    assert f"{path}:2: a quoted field runs on past the end of the line" in proc.stderr
    assert proc.stdout.splitlines()[-1] == f"c,{PUZZLE},{SOLUTION}"


@needs_sigint
def test_generate_writes_puzzles_as_they_are_made(tmp_path: Path) -> None:
    out = tmp_path / "gen.txt"
    command = [sys.executable, "-m", "sudoku_fast", "generate", "-n", "100000", "--size", "16"]
    with out.open("w") as f:
        proc = start_interruptible(command, stdout=f, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 600  # a sanitizer build is many times slower
        while out.stat().st_size == 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    made = out.read_text().split()
    assert made and all(sf.count_solutions(p) == 1 for p in made[:3])


def test_generate_errors_name_its_options() -> None:
    proc = run("generate", "--size", "5", "-n", "1")
    assert proc.returncode == USAGE and "box=" not in proc.stderr
    assert "sizes with a default box shape, not 5x5" in proc.stderr
    proc = run("generate", "--size", "16", "--difficulty", "easy", "-n", "1")
    assert proc.returncode == USAGE and "pass --not-minimal" in proc.stderr
    proc = run("generate", "--size", "4", "--difficulty", "medium", "--not-minimal")
    assert proc.returncode == USAGE and "4x4 puzzles are practically never medium" in proc.stderr


def test_puzzle_commands_refuse_a_file_and_speak_in_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_fast.cli import main

    path = write(tmp_path / "p.txt", [PUZZLE])
    name = str(path)
    for args, files in (
        (["count", name], "solve FILE --count"),
        (["show", name], "solve FILE`"),
        (["check", name, SOLUTION], "solve FILE --verify"),
    ):
        assert main(args) == USAGE
        err = capsys.readouterr().err
        assert f"{name!r} is a file; this command takes one PUZZLE" in err and files in err
    # The other way round: a puzzle where a file is wanted.
    for command in ("solve", "stats", "rate", "dedup"):
        assert main([command, PUZZLE]) == USAGE
        assert f"no file {PUZZLE!r}; it reads as a puzzle" in capsys.readouterr().err
    sixteen = sf.solve("." * 256)  # a name too long for a file on most systems
    assert sixteen is not None
    assert main(["solve", sixteen]) == USAGE
    assert f"no file {sixteen[:87]!r}"[:-1] in (err := capsys.readouterr().err)
    assert "...'; it reads as a puzzle" in err
    # The library's `box=(rows, cols)` is `--box R C` on the command line.
    assert main(["count", "." * 49]) == USAGE
    assert "7x7 grid, which has no default box shape; pass --box R C" in capsys.readouterr().err
    seven = write(tmp_path / "seven.txt", ["." * 49])
    assert main(["solve", str(seven)]) == MALFORMED
    assert "seven.txt:1: found 49 cells, a 7x7 grid" in (err := capsys.readouterr().err)
    assert "pass --box R C" in err and "box=(" not in err
