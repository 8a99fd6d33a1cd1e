"""Runtime instruction-set dispatch: the CPU probe, the choice, the override, the builds.

Every build this CPU runs is compared with the baseline on public puzzles (answers and
search figures alike), and the baseline against the solutions the data's sources give.
The whole suite runs once per build in CI (.ci/run, SUDOKU_FAST_ISA=...).
"""

from __future__ import annotations

import importlib.util
import os
import platform
import re
import shutil
import subprocess
import sys
from array import array
from pathlib import Path
from types import ModuleType

import pytest
from conftest import data_file, read_csv, read_lines

import sudoku_fast as sf
from sudoku_fast._engine import _cpu, isa
from sudoku_fast._engine import run as run_module
from sudoku_fast._engine.encode import encode_puzzles

X86 = platform.machine().lower() in ("x86_64", "amd64")
AVX2_CPU = frozenset({"avx", "avx2", "bmi1", "bmi2", "popcnt", "lzcnt", "fma", "f16c", "movbe"})
AVX512_CPU = AVX2_CPU | {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"}
ALL_BUILT = ("avx512", "avx2", "baseline")
# /proc/cpuinfo's names where the kernel's differ from the ones _cpu reports.
KERNEL_NAMES = {"sse3": "pni", "lzcnt": "abm"}


def test_engine_info_names_the_module_that_runs() -> None:
    info = sf.engine_info()
    assert info.variant in info.supported
    assert set(info.supported) <= set(info.built)
    assert "baseline" in info.built
    assert info.modules[0] == run_module._core.__name__
    expected = os.environ.get(isa.ISA_ENV, "").strip().lower()
    if expected in ("", "auto"):
        assert info.requested is None
        assert info.variant == info.supported[0]  # the most capable one
    else:
        assert info.variant == expected == info.requested


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists() or not X86, reason="needs Linux on x86")
def test_cpu_features_agree_with_the_kernel() -> None:
    flags = set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    for name in _cpu.FEATURE_BITS:
        if name == "osxsave":  # the kernel does not list it
            continue
        assert (name in _cpu.features()) == (KERNEL_NAMES.get(name, name) in flags), name


def test_cpu_features_are_empty_off_x86() -> None:
    if X86:
        assert "sse3" in _cpu.features()  # every x86-64 CPU since 2005
    else:
        assert _cpu.features() == frozenset()


@pytest.mark.parametrize(
    ("requested", "built", "cpu", "expected"),
    [
        (None, ("avx2", "baseline"), AVX2_CPU, "avx2"),
        ("auto", ("avx2", "baseline"), AVX2_CPU, "avx2"),
        (" AVX2 ", ("avx2", "baseline"), AVX2_CPU | {"sse3"}, "avx2"),
        (None, ("avx2", "baseline"), AVX2_CPU - {"bmi2"}, "baseline"),
        (None, ("baseline",), AVX2_CPU, "baseline"),
        ("baseline", ("avx2", "baseline"), AVX2_CPU, "baseline"),
        ("", ("avx2", "baseline"), frozenset(), "baseline"),
        (None, ALL_BUILT, AVX512_CPU, "avx512"),
        ("avx512", ALL_BUILT, AVX512_CPU | {"sse3"}, "avx512"),
        ("avx2", ALL_BUILT, AVX512_CPU, "avx2"),
        (None, ALL_BUILT, AVX512_CPU - {"avx512bw"}, "avx2"),
        (None, ALL_BUILT, AVX2_CPU | {"avx512f"}, "avx2"),  # AVX-512 F alone (Knights Landing)
        (None, ("avx2", "baseline"), AVX512_CPU, "avx2"),
        (None, ALL_BUILT, AVX512_CPU - {"bmi2"}, "baseline"),
    ],
)
def test_choice(
    requested: str | None, built: tuple[str, ...], cpu: frozenset[str], expected: str
) -> None:
    assert isa.choose(requested, built, cpu).name == expected


def test_choice_refuses_what_cannot_run() -> None:
    with pytest.raises(ValueError, match=r"SUDOKU_FAST_ISA='sse9': not a variant"):
        isa.choose("sse9", ("avx2", "baseline"), AVX2_CPU)
    with pytest.raises(RuntimeError, match="has no avx2 build"):
        isa.choose("avx2", ("baseline",), AVX2_CPU)
    with pytest.raises(RuntimeError, match="lacks bmi2, lzcnt, which the avx2 build"):
        isa.choose("avx2", ("avx2", "baseline"), AVX2_CPU - {"bmi2", "lzcnt"})
    with pytest.raises(RuntimeError, match="lacks avx512vl, which the avx512 build"):
        isa.choose("avx512", ALL_BUILT, AVX512_CPU - {"avx512vl"})
    with pytest.raises(RuntimeError, match="no build"):
        isa.choose(None, (), AVX2_CPU)


def run_python(code: str, variant: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, isa.ISA_ENV: variant}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )


@pytest.mark.parametrize("variant", isa.runnable())
def test_override_picks_the_build(variant: str) -> None:
    code = (
        "import sudoku_fast as sf\n"
        "from sudoku_fast._engine import run\n"
        "print(sf.engine_info().variant, run._core.__name__)\n"
        "print(sf.solve('4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2"
        ".....1.4......'))\n"
    )
    proc = run_python(code, variant)
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.split("\n")[:2]
    suffix = isa.BY_NAME[variant].suffix
    assert first == f"{variant} sudoku_fast._engine._core{suffix}"
    assert (
        second
        == "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    )


# Every batch path, then the compiled modules built per variant that the process loaded.
EVERY_PATH = (
    "import sys, sudoku_fast as sf\n"
    "from sudoku_fast import lab\n"
    "p = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'\n"
    "puzzles = sf.generate_many(4, seed=1, difficulty='hard', threads=2)\n"
    "assert sf.count_many(puzzles) == [1] * 4\n"
    "sf.solve_many([p] * 40, threads=2); sf.rate_many(puzzles, score=True, threads=2)\n"
    "sf.canonical_many(puzzles, threads=2); sf.solve_stats([p] * 20, threads=2)\n"
    "lab.run_many(puzzles, 'dlx', threads=2); sf.solve_path(p); sf.render(puzzles[0])\n"
    "loaded = sorted(m for m in sys.modules if m.startswith('sudoku_fast')\n"
    "                and m.endswith(('_core', '_generate', '_avx2', '_avx512')))\n"
    "print(sf.engine_info().variant, *sf.engine_info().modules)\n"
    "print(*loaded)\n"
)


@pytest.mark.parametrize("variant", isa.runnable())
def test_every_batch_path_runs_on_the_chosen_build(variant: str) -> None:
    """Generation, rating, canonical forms, statistics and the lab load the engine (and
    the generator, which calls it from C) of the build the dispatch chose, and no other;
    `engine_info()` names exactly those modules."""
    proc = run_python(EVERY_PATH, variant)
    assert proc.returncode == 0, proc.stderr
    info, loaded = proc.stdout.split("\n")[:2]
    suffix = isa.BY_NAME[variant].suffix
    modules = [f"sudoku_fast._engine._core{suffix}", f"sudoku_fast._generation._generate{suffix}"]
    assert info.split() == [variant, *modules]
    assert loaded.split() == sorted(modules)


@pytest.mark.skipif(isa.runnable()[0] == "baseline", reason="this CPU or build has no AVX2")
def test_generation_runs_on_the_widest_build_where_the_cpu_has_it() -> None:
    """The default choice on an AVX2 (or AVX-512) CPU: generation calls the engine build
    of the most capable variant this CPU runs, and the baseline engine stays out."""
    widest = isa.runnable()[0]
    env = {k: v for k, v in os.environ.items() if k != isa.ISA_ENV}
    proc = subprocess.run(
        [sys.executable, "-c", EVERY_PATH], capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    info, loaded = proc.stdout.split("\n")[:2]
    assert info.split()[0] == widest
    assert f"sudoku_fast._generation._generate_{widest}" in loaded.split()
    assert "sudoku_fast._engine._core" not in loaded.split()  # the baseline engine stays out


@pytest.mark.parametrize(
    ("value", "message"),
    [("sse9", "not a variant"), *([] if "avx2" in isa.built_variants() else [("avx2", "no avx2")])],
)
def test_override_that_cannot_run_fails_the_import_with_a_reason(value: str, message: str) -> None:
    proc = run_python("import sudoku_fast", value)
    assert proc.returncode == 1  # an exception, not a signal
    assert isa.ISA_ENV in proc.stderr and message in proc.stderr


KAGGLE = (
    "kaggle_bryanpark_10k_with_solutions.csv",
    "kaggle_bryanpark_sample500_with_solutions.csv",
)
HARD = ("rust_sudoku_crate_hard_with_solutions.csv",) * 2


def sample() -> list[str]:
    """Public puzzles of every kind: easy, 17-clue, hard, several solutions, none."""
    kaggle = [r["puzzle"] for r in read_csv(data_file(*KAGGLE))][:300]
    seventeen = read_lines(data_file("sudoku17_49158.txt", "sudoku17_sample.txt"))[:300]
    hard = [r["puzzle"] for r in read_csv(data_file(*HARD))]
    serg = data_file("serg_benchmark_multi_solution.csv", "serg_benchmark_sample.csv")
    several = [r["puzzle"] for r in read_csv(serg)][:200]
    mixed = [r["puzzle"] for r in read_csv(data_file(*("mixed_validity_9x9.csv",) * 2))]
    return [*kaggle, *seventeen, *hard, *several, *mixed]


def engine_run(module: ModuleType, grids: bytearray, n: int, limit: int) -> tuple[bytes, list[int]]:
    solutions = bytearray(81 * n)
    counts = array("i", bytes(4 * n))
    guesses = array("q", bytes(8 * n))
    nodes = array("q", bytes(8 * n))
    module.solve_range(grids, solutions, counts, guesses, nodes, None, 0, n, limit)
    return bytes(solutions), [*counts, *guesses, *nodes]


@pytest.mark.parametrize("variant", [v for v in isa.runnable() if v != "baseline"])
@pytest.mark.parametrize("limit", [1, 2, 50])
def test_every_build_matches_the_baseline(variant: str, limit: int) -> None:
    puzzles = sample()
    grids = encode_puzzles(puzzles)
    expected = engine_run(isa.variant_module("baseline"), grids, len(puzzles), limit)
    assert engine_run(isa.variant_module(variant), grids, len(puzzles), limit) == expected


def test_baseline_agrees_with_the_published_solutions() -> None:
    rows = read_csv(data_file(*KAGGLE))[:500] + read_csv(data_file(*HARD))
    grids = encode_puzzles([r["puzzle"] for r in rows])
    solutions, figures = engine_run(isa.variant_module("baseline"), grids, len(rows), 2)
    assert figures[: len(rows)] == [1] * len(rows)
    for i, row in enumerate(rows):
        assert "".join(map(str, solutions[81 * i : 81 * (i + 1)])) == row["solution"]


def extended_instructions(path: str) -> int:
    """AVX (v-prefixed), BMI and POPCNT instructions in a compiled module's machine code.

    TZCNT is left out: it is encoded as `rep bsf`, which baseline code may use (older
    CPUs run it as BSF)."""
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True, check=True
    ).stdout
    pattern = re.compile(
        r"^\s*[0-9a-f]+:\s+(v[a-z0-9]+|andn|bextr|blsr|blsi|shlx|shrx|sarx|pdep|pext|bzhi"
        r"|popcnt)\s"
    )
    return sum(1 for line in listing.splitlines() if pattern.match(line))


@pytest.mark.skipif(
    not X86 or shutil.which("objdump") is None or "avx2" not in isa.built_variants(),
    reason="needs objdump and an x86-64 build with its avx2 variant (not a native build)",
)
def test_baseline_builds_stay_baseline_and_the_variant_does_not() -> None:
    from sudoku_fast._engine import _core, _general

    for module in (_core, _general, _cpu):
        assert module.__file__ is not None
        assert extended_instructions(module.__file__) == 0, module.__name__
    avx2 = isa.variant_module("avx2")
    assert avx2.__file__ is not None
    assert extended_instructions(avx2.__file__) > 0
    assert avx512_instructions(avx2.__file__) == 0
    if "avx512" in isa.built_variants():
        # Only its file is read: this CPU need not run it.
        path = importlib.util.find_spec(isa.module_name(isa.BY_NAME["avx512"]))
        assert path is not None and path.origin is not None
        assert avx512_instructions(path.origin) > 0


def avx512_instructions(path: str) -> int:
    """Instructions on 512-bit registers or AVX-512 masks in a compiled module."""
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True, check=True
    ).stdout
    return sum(1 for line in listing.splitlines() if "%zmm" in line or "%k" in line)


@pytest.mark.skipif(
    not X86 or not sys.platform.startswith("linux") or shutil.which("readelf") is None,
    reason="needs readelf and an x86-64 Linux build",
)
def test_no_module_tells_auditwheel_it_needs_more_than_baseline() -> None:
    # auditwheel constrains the whole wheel to the highest x86-64 level that any ELF
    # file's "x86 ISA needed" note names (toolchains that emit the note by default would
    # mark the avx2 build x86-64-v3): every module, the avx2 build included, must name
    # none beyond the baseline, since the dispatcher only loads that build where it runs.
    import sudoku_fast

    folder = Path(sudoku_fast.__file__).parent
    for path in folder.glob("*.so"):
        notes = subprocess.run(
            ["readelf", "-n", str(path)], capture_output=True, text=True, check=True
        ).stdout
        needed = [line for line in notes.splitlines() if "ISA needed" in line]
        assert all(re.search(r"x86-64-v[234]", line) is None for line in needed), (path, needed)
