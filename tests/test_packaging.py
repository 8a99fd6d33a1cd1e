"""What an installed copy must carry: one version, a compiled engine, types, free threading.

These also run against every built wheel (see [tool.cibuildwheel] in pyproject.toml).
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from importlib import resources
from pathlib import Path

import pytest

import sudoku_fast
from sudoku_fast import _core

USER_SCRIPT = Path(__file__).resolve().parent / "typecheck" / "user_script.py"


def test_version_is_defined_once_and_reaches_the_metadata() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]|rc|\.dev|\.post)?\d*", sudoku_fast.__version__)
    assert importlib.metadata.version("sudoku_fast") == sudoku_fast.__version__


def test_engine_is_a_compiled_extension() -> None:
    assert _core.__file__ is not None
    assert _core.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_typing_files_are_shipped() -> None:
    package = resources.files("sudoku_fast")
    assert package.joinpath("py.typed").is_file()
    for stub in (
        "_core.pyi",
        "_general.pyi",
        "_generate.pyi",
        "_logic.pyi",
        "_se.pyi",
        "_textio.pyi",
    ):
        assert package.joinpath(stub).is_file(), stub


@pytest.mark.skipif(
    not os.environ.get("SUDOKU_FAST_TEST_INSTALLED"),
    reason="set SUDOKU_FAST_TEST_INSTALLED=1 when testing an installed wheel",
)
def test_tests_import_the_installed_package_not_the_sources() -> None:
    site_dirs = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    assert Path(sudoku_fast.__file__).resolve().parent.parent in site_dirs


@pytest.mark.skipif(
    not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="needs a free-threaded CPython"
)
def test_free_threaded_python_keeps_the_gil_off() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    code = "import sys, sudoku_fast; sudoku_fast.solve('.' * 81); print(sys._is_gil_enabled())"
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_user_script_runs() -> None:
    pytest.importorskip("numpy")
    proc = subprocess.run(
        [sys.executable, str(USER_SCRIPT)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "every public function called"


@pytest.mark.slow
def test_user_script_passes_mypy_strict(tmp_path: Path) -> None:
    """Type-check a copy of the user script outside the project, against the installed
    package: this only passes if py.typed and the stubs are installed with it."""
    pytest.importorskip("mypy")
    pytest.importorskip("numpy")
    script = tmp_path / "user_script.py"
    shutil.copyfile(USER_SCRIPT, script)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
