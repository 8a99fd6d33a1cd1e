"""Nothing lost at the edges of the commands: inputs that are not regular files (a pipe
given as /dev/stdin, a process substitution, a FIFO) are read whole, and file outputs
appear whole or not at all (a file-size limit, Ctrl-C, SIGKILL, --on-error fail).

Answers are checked by the independent rules check in checks.py, never by the engine.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from checks import check_solution
from conftest import needs_sigint, start_interruptible

from sudoku_fast.datasets import load_embedded

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and FIFOs")
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

# 7,325 puzzles, about 600 KB: far more than one read of a pipe.
MANY = load_embedded("magictour_top1465") * 5
FEW = load_embedded("norvig_top95")
COMMAND = [sys.executable, "-m", "sudoku_fast"]


def run(
    args: list[str], stdin: str | None = None, timeout: float = 300, **options: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        input=stdin,
        capture_output=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
        **options,  # type: ignore[arg-type]
    )


def lines_text(puzzles: list[str]) -> str:
    return "".join(p + "\n" for p in puzzles)


def check_answers(puzzles: list[str], out: str) -> None:
    answers = out.splitlines()
    assert len(answers) == len(puzzles)
    for puzzle, answer in zip(puzzles, answers, strict=True):
        check_solution(answer, puzzle)


# ---------------------------------------------------------------- inputs


@posix_only
def test_solve_reads_a_pipe_given_as_dev_stdin() -> None:
    proc = run([*COMMAND, "solve", "/dev/stdin"], stdin=lines_text(FEW))
    assert proc.returncode == 0, proc.stderr
    check_answers(FEW, proc.stdout)


@posix_only
@needs_bash
@pytest.mark.parametrize("command", ["solve", "rate", "dedup", "stats"])
def test_process_substitution_reads_as_the_regular_file(command: str, tmp_path: Path) -> None:
    source = tmp_path / "puzzles.txt"
    puzzles = MANY if command in ("solve", "dedup") else MANY[:1000]
    source.write_text(lines_text(puzzles))
    from_file = run([*COMMAND, command, str(source)])
    substituted = run(
        [
            "bash",
            "-c",
            f'exec "$0" -m sudoku_fast {command} <(cat "$1")',
            sys.executable,
            str(source),
        ]
    )
    assert substituted.returncode == from_file.returncode == 0, substituted.stderr
    if command == "solve":
        check_answers(puzzles, substituted.stdout)
    if command == "stats":  # timings differ; the table's puzzle counts do not
        assert f"{len(puzzles):,}" in substituted.stdout
    else:
        assert substituted.stdout == from_file.stdout


@posix_only
def test_a_fifo_is_read_whole_and_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "puzzles.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as f:
            f.write(lines_text(MANY))

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    proc = run([*COMMAND, "solve", "-q", str(fifo)], timeout=120)
    writer.join(timeout=10)
    assert proc.returncode == 0, proc.stderr
    check_answers(MANY, proc.stdout)


@posix_only
def test_a_fifo_is_read_whole_by_lab(tmp_path: Path) -> None:
    fifo = tmp_path / "puzzles.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(lines_text(FEW)), daemon=True)
    writer.start()
    proc = run([*COMMAND, "lab", "--algorithms", "ac+dual", str(fifo)], timeout=120)
    writer.join(timeout=10)
    assert proc.returncode == 0, proc.stderr
    assert f" {len(FEW)} " in proc.stdout  # the table's N column


@posix_only
def test_parquet_through_a_pipe_is_refused_by_name(tmp_path: Path) -> None:
    # (A regular file given as /dev/stdin is a regular file: it is read as Parquet.)
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"puzzle": FEW[:5]}), path)
    with subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE) as cat:
        proc = subprocess.run(
            [*COMMAND, "solve", "/dev/stdin", "-o", str(tmp_path / "out.parquet")],
            stdin=cat.stdout,
            capture_output=True,
            timeout=120,
            check=False,
        )
    assert proc.returncode == 2
    assert b"/dev/stdin: a Parquet file must be given as a regular file" in proc.stderr
    assert not (tmp_path / "out.parquet").exists()


# ---------------------------------------------------------------- outputs


def _limit_file_size(limit: int) -> None:
    """In the child: files may grow to `limit` bytes (ulimit -f); Python ignores SIGXFSZ,
    so a write past it fails with EFBIG, as on a full disk."""
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


OUTPUT_COMMANDS = {
    # command -> arguments writing OUT from the input file IN
    "solve": ["solve", "IN", "-o", "OUT"],
    "rate": ["rate", "IN", "-o", "OUT"],
    "dedup": ["dedup", "IN", "-o", "OUT"],
    "generate": ["generate", "-n", "3000", "--seed", "1", "-o", "OUT"],
}


def _args(command: str, source: Path, out: Path) -> list[str]:
    words = {"IN": str(source), "OUT": str(out)}
    return [*COMMAND, *(words.get(w, w) for w in OUTPUT_COMMANDS[command])]


@pytest.fixture
def source(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "in.txt"
    path.write_text(lines_text(MANY[:3000]))
    yield path


def _hidden_partials(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.endswith(".partial")]


@posix_only
@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
def test_output_past_a_file_size_limit_leaves_the_old_file(
    command: str, source: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.txt"
    out.write_text("the previous output\n")
    proc = run(_args(command, source, out), preexec_fn=lambda: _limit_file_size(50_000))
    assert proc.returncode == 2, proc.stderr
    assert str(out) in proc.stderr  # the error names the user's file, not a temporary one
    assert ".partial" not in proc.stderr
    assert out.read_text() == "the previous output\n"
    assert _hidden_partials(tmp_path) == []


@posix_only
def test_an_output_appears_whole_and_keeps_the_old_file_s_mode(
    source: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    out.chmod(0o640)
    proc = run(_args("solve", source, out))
    assert proc.returncode == 0, proc.stderr
    check_answers(MANY[:3000], out.read_text())
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert _hidden_partials(tmp_path) == []


@posix_only
def test_output_into_a_fifo_is_streamed(source: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    proc = run(_args("solve", source, fifo), timeout=120)
    reader.join(timeout=30)
    assert proc.returncode == 0, proc.stderr
    check_answers(MANY[:3000], got[0])
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@posix_only
def test_on_error_fail_leaves_no_output(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text(lines_text([*FEW[:10], "not a puzzle", *FEW[10:20]]))
    out = tmp_path / "out.txt"
    proc = run([*COMMAND, "solve", str(source), "-o", str(out), "--on-error", "fail"])
    assert proc.returncode == 4, proc.stderr
    assert not out.exists()
    assert _hidden_partials(tmp_path) == []


def _slow_input(tmp_path: Path) -> Path:
    """Enough hard puzzles to run for a while at one thread."""
    path = tmp_path / "slow.txt"
    path.write_text(lines_text(load_embedded("magictour_top1465") * 200))
    return path


@posix_only
@needs_sigint
@pytest.mark.parametrize("command", ["solve", "rate"])
def test_ctrl_c_leaves_no_partial_output(command: str, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    proc = start_interruptible(
        [*COMMAND, command, str(_slow_input(tmp_path)), "-o", str(out), "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _wait_for_partial(tmp_path, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert not out.exists()
    assert _hidden_partials(tmp_path) == []


@posix_only
def test_sigkill_leaves_no_partial_output_under_the_final_name(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    proc = subprocess.Popen(
        [*COMMAND, "solve", str(_slow_input(tmp_path)), "-o", str(out), "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait_for_partial(tmp_path, proc)
    proc.kill()
    proc.wait(timeout=60)
    assert not out.exists()  # only the hidden temporary file can stay behind


@posix_only
@needs_sigint
def test_ctrl_c_keeps_the_puzzles_generated_so_far(tmp_path: Path) -> None:
    out = tmp_path / "made.txt"
    proc = start_interruptible(
        [*COMMAND, "generate", "-n", "1000000", "--seed", "3", "-o", str(out), "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _wait_for_partial(tmp_path, proc, size=1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    text = out.read_text()
    assert text.endswith("\n")
    made = text.splitlines()
    assert made and f"{len(made):,} puzzle(s) written to {out}" in err
    assert all(len(p) == 81 for p in made)
    assert _hidden_partials(tmp_path) == []


def _wait_for_partial(
    folder: Path, proc: subprocess.Popen[str] | subprocess.Popen[bytes], size: int = 0
) -> None:
    """Wait until the command has opened its temporary output (and written `size`
    bytes into it)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "ended before it could be stopped"
        partials = _hidden_partials(folder)
        if partials and partials[0].stat().st_size >= size:
            return
        time.sleep(0.05)
    proc.kill()
    pytest.fail("no temporary output appeared")
