"""The layout as documented and as declared: the docs' table against the tree, the
compiled modules' cimports against the layers, one twin beside every compiled module.

The Python imports are checked by `lint-imports` (the contracts in pyproject.toml);
the compiled modules' `cimport`s are invisible to it, so their layering is checked here
against the same `layers` list.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import sudoku_fast

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(sudoku_fast.__file__).resolve().parent
SOURCES = (".py", ".pyx", ".pxd")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest needs tomli on 3.10
    import tomli as tomllib


def _layout_rows() -> dict[str, str]:
    """The layout table of docs/design.md: each path of the first column, with its description."""
    design = ROOT / "docs" / "design.md"
    if not design.exists():
        pytest.skip("no docs/design.md beside the tests")
    text = design.read_text(encoding="utf-8")
    table = text[text.index("## Layout") :]
    rows: dict[str, str] = {}
    for line in table.splitlines():
        cells = line.split(" | ")
        if not line.startswith("| `") or len(cells) < 2:
            continue
        paths = re.findall(r"`([^`]+)`", cells[0])
        folder = paths[0].rsplit("/", 1)[0] if "/" in paths[0].rstrip("/") else ""
        for k, path in enumerate(paths):
            full = path if k == 0 or "/" in path else f"{folder}/{path}"
            rows[full] = " | ".join(cells[1:])
    return rows


def _package_path(path: str) -> Path | None:
    """Where a documented path of the package lies in this installation (None: not the package)."""
    prefix = "src/sudoku_fast"
    if not path.startswith(prefix):
        return None
    return PACKAGE / path[len(prefix) :].strip("/")


def test_every_path_of_the_layout_table_exists() -> None:
    for path, _ in _layout_rows().items():
        in_package = _package_path(path)
        if in_package is not None:
            assert in_package.exists(), path
        elif (ROOT / "src").exists():  # a source checkout: the repository's own files
            assert (ROOT / path.rstrip("/")).exists(), path


def test_every_room_and_front_is_in_the_table_with_its_files() -> None:
    rows = _layout_rows()
    for entry in sorted(PACKAGE.iterdir()):
        if entry.name.startswith((".", "__pycache__")) or entry.suffix in (".so", ".pyd", ".pyi"):
            continue
        if entry.is_file() and entry.suffix not in (*SOURCES, ".typed"):
            continue
        key = f"src/sudoku_fast/{entry.name}" + ("/" if entry.is_dir() else "")
        assert key in rows, f"{key} is missing from the layout table of docs/design.md"
        if not entry.is_dir() or entry.name == "data":
            continue
        named = set(re.findall(r"`([\w.]+)`", rows[key]))
        for source in sorted(entry.iterdir()):
            if (source.suffix in SOURCES and source.name != "__init__.py") or (
                source.name == "__init__.py" and "`__init__.py`" in rows[key]
            ):
                assert source.name in named, f"{key}{source.name} is not named in its row"
        for name in named:
            if name.endswith(SOURCES):
                assert (entry / name).exists(), f"{key}: {name} named but not there"


def _layers() -> list[list[str]]:
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("no pyproject.toml beside the tests")
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return [re.split(r"\s*[|:]\s*", layer) for layer in contract["layers"]]


def _room(module: str) -> str:
    """The room of a dotted module name inside the package (its first component)."""
    return module.removeprefix("sudoku_fast.").split(".")[0]


def test_compiled_modules_cimport_only_downwards() -> None:
    depth = {room: k for k, layer in enumerate(_layers()) for room in layer}
    sources = [p for p in PACKAGE.rglob("*") if p.suffix in (".pyx", ".pxd")]
    assert any(p.name == "_core.pyx" for p in sources)
    seen = 0
    for source in sources:
        importer = _room(".".join(source.relative_to(PACKAGE).with_suffix("").parts))
        text = source.read_text(encoding="utf-8")
        for found in re.finditer(r"^from (sudoku_fast[\w.]*) cimport (.+)$", text, re.M):
            for name in found[2].split(","):
                target = f"{found[1]}.{name.split(' as ')[0].strip()}"
                imported = _room(target if found[1] == "sudoku_fast" else found[1])
                seen += 1
                if imported != importer:
                    assert depth[imported] > depth[importer], (
                        f"{source.relative_to(PACKAGE)} cimports {target}: {imported} is "
                        f"not below {importer}"
                    )
    assert seen > 10


def test_every_compiled_module_has_its_twin_beside_it() -> None:
    compiled = sorted(p for p in PACKAGE.rglob("*.pyx"))
    assert len(compiled) >= 9
    for source in compiled:
        twin = source.with_name(source.stem + "_py.py")
        assert twin.exists(), f"{source.relative_to(PACKAGE)} has no twin {twin.name}"


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module and its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_the_library_speaks_its_own_words() -> None:
    """Options spelt as on the command line (`--box`) appear in strings under cli/ only:
    the library names its arguments as Python does (`box=`), and cli/words.py turns
    them into the command line's words."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "cli":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and re.search(r"(?<![\w-])--[a-z]", node.value)
            ):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r}")
    assert not offenders, "\n".join(offenders)


# What a twin leaves out on purpose: the machinery that makes the compiled side fast or
# probes the CPU, not the answers (threads claiming chunks, arenas, the CPUID bits, the
# generator's phase counters, the classes of 9x9 row pairs the canonical search uses).
TWIN_LEAVES_OUT = {
    "sudoku_fast._engine._core": {
        "Fanout",
        "PREFAULT_ARENAS",
        "PREFAULT_STRINGS_FROM",
        "arena_allocator_now",
        "new_array",
        "now_ns",
        "solve_batch",
    },
    "sudoku_fast._engine._cpu": {"FEATURE_BITS", "NEEDS_AVX_STATE", "XCR0_AVX", "XCR0_AVX512"},
    "sudoku_fast._generation._generate": {"STAT_NAMES"},
    "sudoku_fast._symmetry._canon": {"pair_classes", "pair_rank"},
}


def test_every_twin_has_its_compiled_modules_functions_and_constants() -> None:
    """The same names, the same parameters (by name, in order), the same constants: the
    twin convention, which is what lets a test run unchanged on both sides."""
    import importlib
    import inspect
    from types import ModuleType

    from conftest import COMPILED_MODULES

    for name in COMPILED_MODULES:
        compiled = importlib.import_module(name)
        twin = importlib.import_module(name + "_py")
        left_out = TWIN_LEAVES_OUT.get(name, set())
        for attribute in sorted(vars(compiled)):
            value = getattr(compiled, attribute)
            if attribute.startswith("_") or isinstance(value, ModuleType) or attribute in left_out:
                continue
            if isinstance(value, type) and value.__module__ != name:
                continue  # an import (array), not the module's own
            assert hasattr(twin, attribute), f"{name}_py has no {attribute}"
            mirror = getattr(twin, attribute)
            if callable(value) and not isinstance(value, type):
                expected = list(inspect.signature(value).parameters)
                assert list(inspect.signature(mirror).parameters) == expected, attribute
            elif not callable(value):
                assert mirror == value, f"{name}_py.{attribute}"


LOADED_AT_IMPORT = {
    "sudoku_fast",
    "sudoku_fast._version",
    "sudoku_fast._engine",
    "sudoku_fast._engine.isa",
    "sudoku_fast._engine._cpu",
    "sudoku_fast._generation",  # found, not run: is each build of the generator there?
}


def test_import_loads_the_engine_build_and_nothing_else() -> None:
    """`import sudoku_fast` chooses the engine build (and fails there when it cannot
    run); everything else loads when a name of it is first used."""
    import subprocess

    code = "import sys, sudoku_fast\nprint(*sorted(m for m in sys.modules if 'sudoku_fast' in m))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(proc.stdout.split())
    engine = {m for m in loaded - LOADED_AT_IMPORT if m.startswith("sudoku_fast._engine._core")}
    assert len(engine) == 1, loaded
    assert loaded - engine == LOADED_AT_IMPORT


def test_every_public_name_is_its_homes_object() -> None:
    """A name of `sf.__all__` is the object its module defines, loaded or not, and
    `sf.render` stays the function once the module `sudoku_fast.render` has loaded."""
    import subprocess

    code = (
        "import importlib, sys, types, sudoku_fast as sf\n"
        "import sudoku_fast.render\n"
        "assert isinstance(sf.render, types.FunctionType), sf.render\n"
        "from sudoku_fast import render\n"
        "assert render is sf.render is sys.modules['sudoku_fast.render'].render\n"
        "for name in sf.__all__:\n"
        "    home = sf._HOMES.get(name)\n"
        "    if home:\n"
        "        module = importlib.import_module('sudoku_fast.' + home)\n"
        "        assert getattr(sf, name) is getattr(module, name), name\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.strip() == "ok", proc.stderr
