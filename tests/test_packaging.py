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
from conftest import COMPILED_MODULES

import sudoku_fast
from sudoku_fast._engine import _core

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
        "_symmetry/_canon.pyi",
        "_engine/_core.pyi",
        "_engine/_general.pyi",
        "_generation/_generate.pyi",
        "_techniques/_logic.pyi",
        "_techniques/_se.pyi",
        "_engine/_textio.pyi",
        "_engine/_cpu.pyi",
        "_engine/_core_avx2.pyi",
        "_generation/_generate_avx2.pyi",
        "_engine/_core_avx512.pyi",
        "_generation/_generate_avx512.pyi",
        "lab/_lab.pyi",
        "_variants/_variant.pyi",
    ):
        assert package.joinpath(*stub.split("/")).is_file(), stub


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
def test_free_threaded_python_keeps_the_gil_off(tmp_path: Path) -> None:
    # An extension module not declared free-threading compatible turns the GIL back on
    # when it is imported (with a RuntimeWarning, an error under -W error): import every
    # compiled module, each build of the 9x9 engine this CPU runs among them, and use
    # each on threads, then ask.
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("\n".join(["." * 81] * 4) + "\n")
    code = f"""
import importlib, sys
import sudoku_fast as sf
from sudoku_fast import cli, lab
from sudoku_fast._engine import isa
modules = {COMPILED_MODULES!r}
for name in modules:
    importlib.import_module(name)
for variant in isa.runnable():
    for base in isa.DISPATCHED:
        importlib.import_module(isa.module_name(isa.BY_NAME[variant], base))
p = sf.generate_many(4, "hard", seed=1, threads=2)[0]
sf.solve_many([p] * 500, threads=2)
sf.count_many(["." * 256] * 4, threads=2, max_nodes=None)
sf.rate_many([p] * 20, threads=2, score=True)
sf.canonical_many([p] * 20, threads=2)
lab.run_many([p] * 20, threads=2)
assert cli.main(["solve", {str(puzzles)!r}, "-o", {str(tmp_path / "out.txt")!r}, "-q"]) == 0
print(sys._is_gil_enabled())
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
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


def test_classifiers_state_the_development_status_and_no_os_independence() -> None:
    classifiers = importlib.metadata.metadata("sudoku_fast").get_all("Classifier") or []
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    # A compiled extension runs only where a wheel (or a compiler) exists for it.
    assert "Operating System :: OS Independent" not in classifiers
    assert "Operating System :: POSIX :: Linux" in classifiers


_DECLARATION = re.compile(r"^\s*cdef\s+(?:const\s+)?[A-Za-z_][\w.]*\s+([^=(:]*)")


def test_compiled_sources_declare_pointers_and_arrays_on_their_own_lines() -> None:
    """Cython warns ("Non-trivial type declarators in shared declaration") when one
    `cdef` line mixes plain names with pointers or arrays; none may."""
    package = Path(sudoku_fast.__file__).parent
    sources = [f for f in package.rglob("*") if f.suffix in (".pyx", ".pxd")]
    assert any(f.name == "_core.pyx" for f in sources)
    mixed = []
    for source in sources:
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            match = _DECLARATION.match(line.split("#", 1)[0])
            if match is None or line.lstrip().startswith(("cdef class", "cdef struct")):
                continue
            names = [name.strip() for name in match[1].split(",")]
            fancy = [("*" in name or "[" in name) for name in names]
            if len(names) > 1 and any(fancy) and not all(fancy):
                mixed.append(f"{source.name}:{number}: {line.strip()}")
    assert not mixed, mixed


ROOT = Path(__file__).resolve().parent.parent
CI_RUN = ROOT / ".ci" / "run"
WORKFLOW = ROOT / ".github" / "workflows" / "tests.yml"


@pytest.mark.skipif(
    not CI_RUN.exists(), reason="no checkout: an installed wheel is tested without CI files"
)
def test_ci_run_tests_with_the_readme_command_then_lints_like_github() -> None:
    script = CI_RUN.read_text(encoding="utf-8").splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = 'pip install ".[test]" && pytest'
    assert f"```bash\n{command}\n```" in readme
    assert command in script
    # Every step of the workflow's lint job, after the test command.
    lint_job = WORKFLOW.read_text(encoding="utf-8").split("\n  lint:", 1)[1].split("\n  test:")[0]
    steps = [m[1].strip() for m in re.finditer(r"^\s+run: (.+)$", lint_job, re.MULTILINE)]
    steps = [step for step in steps if not step.startswith("python -m pip install")]
    assert {"ruff check .", "ruff format --check .", "mypy"} <= set(steps)
    assert any(step.startswith("python -m mypy.stubtest") for step in steps)
    for step in steps:
        assert step in script, step
        assert script.index(step) > script.index(command)
