"""Shared fixtures: where the puzzle data lives, and how to read it."""

from __future__ import annotations

import csv
import importlib
import os
import pkgutil
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENDORED = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data"


def pytest_report_header() -> str:
    """Say which puzzle data the data-driven tests read."""
    if SHARED.is_dir():
        return f"puzzle data: the full public sets in {SHARED} (../shared/data)"
    return f"puzzle data: the vendored samples in {VENDORED} (no ../shared/data beside the repo)"


def data_file(full: str, vendored: str) -> Path:
    """The full shared file when present, else the vendored sample."""
    path = SHARED / full
    return path if path.exists() else VENDORED / vendored


def read_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def run_cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m sudoku_fast ARGS` in a process of its own (with `env` added to the
    environment), its output as text."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "sudoku_fast", *args],
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
        env=env,
        cwd=cwd,
    )


def _default_sigint() -> None:
    """In a child before it runs: Ctrl-C acts as from a terminal. A test run started as a
    shell's background job has SIGINT ignored, and children inherit that (Python then
    installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_interruptible(args: list[str], **options: Any) -> subprocess.Popen[str]:
    """`subprocess.Popen(args, text=True, **options)`, with SIGINT at its default."""
    if sys.platform != "win32":
        options["preexec_fn"] = _default_sigint
    return subprocess.Popen(args, text=True, **options)


# Runs `python -m sudoku_fast ARGS` once the CLI is imported, after telling the parent so
# on the file descriptor given first: a slow start (a loaded machine, a sanitizer build)
# then cannot turn "Ctrl-C while solving" into "Ctrl-C while importing".
_REPORT_LOADED = (
    "import os, runpy, sys\n"
    "import sudoku_fast.cli\n"
    "os.write(int(sys.argv.pop(1)), b'1')\n"
    "runpy.run_module('sudoku_fast', run_name='__main__', alter_sys=True)\n"
)


def _wait_until_loaded(
    args: list[str], options: dict[str, Any], timeout: float
) -> subprocess.Popen[str]:
    """Start `args`; for `python -m sudoku_fast ...`, return once its CLI is imported."""
    if args[1:3] != ["-m", "sudoku_fast"] or sys.platform == "win32":
        return start_interruptible(args, **options)
    read_end, write_end = os.pipe()
    try:
        command = [args[0], "-c", _REPORT_LOADED, str(write_end), *args[3:]]
        proc = start_interruptible(command, pass_fds=(write_end,), **options)
        os.close(write_end)
        write_end = -1
        ready, _, _ = select.select([read_end], [], [], timeout)
        assert ready and os.read(read_end, 1) == b"1", f"not started in {timeout:.0f} s: {args}"
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    return proc


def interrupt(args: list[str], after: float = 1.5, timeout: float = 15.0) -> tuple[int, str, float]:
    """Start `args`, send it Ctrl-C (SIGINT) `after` seconds later, let it end.

    For `python -m sudoku_fast ...` the `after` seconds count from the moment its CLI is
    imported. Returns its exit status, its stderr and the seconds it took to exit after
    the signal; fails the test when it does not exit within `timeout` seconds.
    """
    options: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    proc = _wait_until_loaded(args, options, timeout=120.0)
    time.sleep(after)
    assert proc.poll() is None, "ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running {timeout:.0f} s after Ctrl-C: {args}")
    return proc.returncode, err, time.perf_counter() - sent


needs_sigint = pytest.mark.skipif(
    sys.platform == "win32", reason="Windows cannot send SIGINT to a child process"
)


# ---------------------------------------------------------------- compiled and twin

# Every compiled module and its pure-Python twin beside it: `_x` (an ISA build `_x_avx2`
# too) and `_x_py`, with the same functions, arguments and results.
COMPILED_MODULES = (
    "sudoku_fast._engine._core",
    "sudoku_fast._engine._general",
    "sudoku_fast._engine._textio",
    "sudoku_fast._engine._cpu",
    "sudoku_fast._techniques._logic",
    "sudoku_fast._techniques._se",
    "sudoku_fast._generation._generate",
    "sudoku_fast._symmetry._canon",
    "sudoku_fast._variants._variant",
    "sudoku_fast.lab._lab",
)


def _compiled_name(module: ModuleType) -> str | None:
    """The dotted name a compiled module (or one of its ISA builds) is listed under."""
    name = module.__name__
    for compiled in COMPILED_MODULES:
        if name == compiled or (name.startswith(compiled + "_") and not name.endswith("_py")):
            return compiled
    return None


def twin_of(module: ModuleType) -> ModuleType:
    """The pure-Python twin of a compiled module (of any of its ISA builds)."""
    compiled = _compiled_name(module)
    assert compiled is not None, f"{module.__name__} is no compiled module"
    return importlib.import_module(compiled + "_py")


class Side:
    """Which side a test runs on: "compiled", or "twin" (every compiled module replaced)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def module(self, compiled: ModuleType) -> ModuleType:
        """`compiled` on the compiled side, its twin on the other."""
        return compiled if self.name == "compiled" else twin_of(compiled)

    def __repr__(self) -> str:
        return self.name


def _package_modules() -> list[ModuleType]:
    """Every module of the package that its optional dependencies let load."""
    import sudoku_fast

    modules = []
    for info in pkgutil.walk_packages(sudoku_fast.__path__, "sudoku_fast."):
        if info.name == "sudoku_fast.__main__":
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except ImportError:  # sudoku_fast.dask without dask
            continue
    return modules


def use_twins(patch: pytest.MonkeyPatch, *compiled: str) -> None:
    """Replace the compiled modules named (all when none is) by their twins in every
    module of the package that holds them or one of their functions."""
    wanted = set(compiled or COMPILED_MODULES)
    for caller in _package_modules():
        if _compiled_name(caller) is not None or caller.__name__.endswith("_py"):
            continue
        for attribute, value in list(vars(caller).items()):
            if isinstance(value, ModuleType):
                home: ModuleType | None = value
                replacement: Any = twin_of(value) if _compiled_name(value) in wanted else None
            elif callable(value) and not isinstance(value, type):
                home = sys.modules.get(getattr(value, "__module__", None) or "")
                replacement = None
                if home is not None and _compiled_name(home) in wanted:
                    replacement = getattr(twin_of(home), getattr(value, "__name__", ""), None)
            else:
                continue
            if replacement is not None:
                patch.setattr(caller, attribute, replacement)


@pytest.fixture(params=["compiled", "twin"])
def side(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Side:
    """Run a test on the compiled modules, then again on their pure-Python twins.

    On the twin side every module of the package that holds a compiled module (or one
    of its functions) holds the twin's instead, so the public API itself runs on the
    twins: the same test, the same inputs, both implementations.
    """
    chosen = Side(request.param)
    if chosen.name == "twin":
        use_twins(monkeypatch)
    return chosen


def generate_many_reference(n: int, **kwargs: Any) -> list[str]:
    """`generate_many` on the pure-Python twins of the generator and the raters (the
    engines stay compiled: they only count solutions here)."""
    import sudoku_fast as sf

    with pytest.MonkeyPatch.context() as patch:
        use_twins(
            patch,
            "sudoku_fast._generation._generate",
            "sudoku_fast._techniques._logic",
            "sudoku_fast._techniques._se",
        )
        return sf.generate_many(n, threads=1, **kwargs)
