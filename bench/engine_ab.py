"""Two or more versions of the 9x9 engine in one process, timed against each other.

    python bench/engine_ab.py --build main=0e76eb6 --build new=. [--isa avx2]
        [--rounds 30] [--sets FILE[:LIMIT] ...] [--sample 10000]

Each `--build LABEL=SOURCE[@ISA]` is the engine's source at a git revision (`SOURCE` a
commit or branch) or in a working tree (`SOURCE` a folder holding
src/sudoku_fast/_engine/_core.pyx, or src/sudoku_fast/_core.pyx before the engine moved
to its room); it is compiled here as its own module (`sfab._core_<label>`, against the
.pxd files of its own tree, with the flags setup.py gives the `ISA` build, `--isa` when
not given), so all of them load into one process. Every round then runs
each build once over every set (whole passes of `solve_range`, about 30 ms each, one
thread, the order alternating from round to round) and the table gives the median time
per puzzle (CPU time of the thread) and the median of the per-round ratios to the first
build. On a machine shared with other jobs this is steadier than separate processes:
a slow spell lands on neighbouring samples of every build alike.

Before timing, every build's solutions, counts, guesses and node counts must equal the
first build's on every set (same search, same answers), unless `--allow-other-search`
(a change that alters the search itself).

Sets are file names under ../shared/data with the limit after a colon (1: solve, 2:
count); by default the four hard sets in both modes.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
SETS = [
    f"{name}:{limit}"
    for name in (
        "rust_sudoku_crate_hard_with_solutions.csv",
        "norvig_top95.txt",
        "magictour_top1465.txt",
        "serg_benchmark_multi_solution.csv",
    )
    for limit in (1, 2)
]
SAMPLE_SECONDS = 0.03


def isa_flags(isa: str) -> list[str]:
    """The compile flags setup.py gives the `isa` build (its ISA_FLAGS, evaluated alone)."""
    if isa == "baseline":
        return []
    tree = ast.parse((ROOT / "setup.py").read_text())
    # The module-level assignments of plain lists and dicts of strings (ISA_FLAGS and
    # the lists it is made of), run on their own: setup.py itself would build.
    namespace: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(
            node.value, ast.List | ast.Dict
        ):
            try:
                exec(compile(ast.Module([node], []), "setup.py", "exec"), namespace)
            except NameError:
                continue
    if isa not in namespace.get("ISA_FLAGS", {}):
        raise SystemExit(f"setup.py's ISA_FLAGS has no {isa!r}")
    flags: list[str] = namespace["ISA_FLAGS"][isa]
    return flags


# Where the engine's source has lived: its room since the layout, the package before.
CORE_PATHS = ("src/sudoku_fast/_engine/_core.pyx", "src/sudoku_fast/_core.pyx")


def source_tree(spec: str, folder: Path) -> tuple[Path, Path]:
    """The `src` tree of a build (a working tree's, or a revision's written under
    `folder`) and the engine's .pyx in it."""
    tree = Path(spec).resolve()
    if not any((tree / path).exists() for path in CORE_PATHS):
        tree = folder / "trees" / spec.replace("/", "_")
        tree.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", spec, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    for path in CORE_PATHS:
        if (tree / path).exists():
            return tree / "src", tree / path
    raise SystemExit(f"{spec}: no {' or '.join(CORE_PATHS)}")


def compile_builds(builds: list[tuple[str, str, str]], folder: Path) -> None:
    """Write and compile sfab/_core_<label> for every (label, source, isa) into `folder`."""
    package = folder / "sfab"
    package.mkdir()
    (package / "__init__.py").write_text("")
    # module -> (compile flags, the src tree whose .pxd files its cimports read)
    modules: dict[str, tuple[list[str], str]] = {}
    for label, spec, isa in builds:
        src, pyx = source_tree(spec, folder)
        (package / f"_core_{label}.pyx").write_text(pyx.read_text())
        (package / f"_core_{label}.pxd").write_text(pyx.with_suffix(".pxd").read_text())
        modules[f"sfab._core_{label}"] = (["-O3", "-g0", *isa_flags(isa)], str(src))
    setup = f"""
from Cython.Build import cythonize
from setuptools import Extension, setup
directives = {{"language_level": 3, "boundscheck": False, "initializedcheck": False,
               "wraparound": False, "cdivision": True, "autotestdict": False}}
extensions = []
for name, (flags, src) in {modules!r}.items():
    extension = Extension(name, [name.replace(".", "/") + ".pyx"], extra_compile_args=flags)
    extensions += cythonize([extension], compiler_directives=directives,
                            include_path=[src], quiet=True)
setup(ext_modules=extensions)
"""
    (folder / "setup.py").write_text(setup)
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-j", str(os.cpu_count() or 1)],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit("building the engines failed")


def load_set(spec: str, sample: int) -> tuple[str, int, list[str]]:
    name, _, limit = spec.partition(":")
    rows = [line.split(",")[0].strip() for line in (SHARED / name).read_text().splitlines()]
    return name, int(limit or 1), [r for r in rows if len(r) == 81][:sample]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--build", action="append", required=True, help="LABEL=REVISION|FOLDER[@ISA]"
    )
    parser.add_argument("--isa", default="avx2", choices=("baseline", "avx2", "avx512"))
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--sets", nargs="*", default=SETS)
    parser.add_argument("--sample", type=int, default=10_000)
    parser.add_argument("--allow-other-search", action="store_true")
    args = parser.parse_args()
    builds: list[tuple[str, str, str]] = []
    for spec in args.build:
        label, _, source = spec.partition("=")
        source, _, isa = source.partition("@")
        if not label.isidentifier() or not source:
            raise SystemExit("--build takes LABEL=REVISION|FOLDER[@ISA], LABEL a name")
        builds.append((label, source, isa or args.isa))

    import numpy as np

    from sudoku_fast._engine.encode import encode_puzzles

    folder = Path(tempfile.mkdtemp(prefix="engine_ab_"))
    try:
        compile_builds(builds, folder)
        sys.path.insert(0, str(folder))
        modules: list[tuple[str, ModuleType]] = [
            (label, importlib.import_module(f"sfab._core_{label}")) for label, _, _ in builds
        ]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    kinds = ", ".join(f"{label}: {isa}" for label, _, isa in builds)
    print(f"builds {kinds}; {sysconfig.get_platform()}; {args.rounds} rounds")
    print()
    labels = [label for label, _ in modules]
    print("| set | limit | puzzles |" + "".join(f" {b} us |" for b in labels), end="")
    print("".join(f" {b}/{labels[0]} |" for b in labels[1:]))
    print("|" + "---|" * (3 + 2 * len(labels) - 1))
    failures = 0
    for spec in args.sets:
        name, limit, puzzles = load_set(spec, args.sample)
        n = len(puzzles)
        grids = np.frombuffer(bytes(encode_puzzles(puzzles)), dtype=np.uint8)
        buffers: dict[str, tuple[Any, ...]] = {}
        for label, module in modules:
            out: tuple[Any, ...] = (np.zeros(81 * n, np.uint8), np.zeros(n, np.int32))
            out = (*out, np.zeros(n, np.int64), np.zeros(n, np.int64))
            module.solve_range(grids, *out, None, 0, n, limit)
            buffers[label] = out
        first = buffers[labels[0]]
        for label in labels[1:]:
            same = [bool((a == b).all()) for a, b in zip(buffers[label], first, strict=True)]
            if not all(same[:2]) or not (all(same) or args.allow_other_search):
                print(f"{label} differs from {labels[0]} on {name} (limit {limit})")
                failures += 1
        t0 = time.thread_time()
        modules[0][1].solve_range(grids, *first, None, 0, n, limit)
        passes = max(1, int(SAMPLE_SECONDS / max(time.thread_time() - t0, 1e-6)))
        times: dict[str, list[float]] = {label: [] for label in labels}
        for round_ in range(args.rounds):
            order = modules if round_ % 2 == 0 else modules[::-1]
            for label, module in order:
                out = buffers[label]
                t0 = time.thread_time()
                for _ in range(passes):
                    module.solve_range(grids, *out, None, 0, n, limit)
                times[label].append(1e6 * (time.thread_time() - t0) / (passes * n))
        row = f"| {Path(name).stem} | {limit} | {n} |"
        row += "".join(f" {statistics.median(times[b]):.2f} |" for b in labels)
        for label in labels[1:]:
            ratios = [a / b for a, b in zip(times[label], times[labels[0]], strict=True)]
            row += f" {statistics.median(ratios):.3f} |"
        print(row, flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
