"""Throughput of a portable build of sudoku_fast against a native-flags build.

The portable build is what the wheels ship (-O3, baseline instruction set); the native
build is compiled with SUDOKU_FAST_NATIVE=1 (-march=native). Each build lives in its own
venv; this script runs both interpreters alternately on the same puzzle files, serially
(threads=1), and reports medians and the native/portable ratio per file.

Make the two venvs from a source tree (takes a few minutes), then measure:

    python bench/native_vs_portable.py --make-venvs /tmp/nvp
    python bench/native_vs_portable.py --perf 3 \\
        --portable /tmp/nvp/portable/bin/python --native /tmp/nvp/native/bin/python

Defaults: ../shared/data/magictour_top1465.txt and sudoku17_49158.txt, 3 runs per build.
Each timed run is `solve_many(puzzles, threads=1)` over the whole file (repeated until it
has taken at least --min-seconds), after one untimed warm-up pass; every puzzle must come
back solved. Rates are reported per wall-clock second and per second of the process's
CPU time. On a busy machine both drift with the other load; `--perf N` adds user-space
cycles and instructions per puzzle from `perf stat` (a process solving each file 1 + N
times minus one solving it once), which only count while the process runs. On x86-64
the script also counts, with objdump, the instructions in each build's extension that
need more than the x86-64 baseline (SSE2).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
DEFAULT_FILES = [DATA / "magictour_top1465.txt", DATA / "sudoku17_49158.txt"]

# Mnemonic patterns of x86-64 instructions beyond the baseline, by extension.
EXTENDED_X86 = {
    "AVX/AVX2/AVX-512 (v-prefixed SIMD)": re.compile(r"^v[a-z0-9]+$"),
    "BMI1/BMI2": re.compile(
        r"^(andn|bextr|blsi|blsmsk|blsr|bzhi|pdep|pext|sarx|shlx|shrx|rorx|mulx)$"
    ),
    # Same bytes as `rep bsf`, which baseline code may use: it runs as BSF on older CPUs.
    "TZCNT (or rep bsf)": re.compile(r"^tzcnt$"),
    "POPCNT/LZCNT": re.compile(r"^(popcnt|lzcnt)$"),
    "SSE3/SSSE3/SSE4": re.compile(
        r"^(pshufb|palignr|pabs[bwd]|phadd[a-z]*|phsub[a-z]*|pmaddubsw|pmulhrsw|psign[bwd]"
        r"|ptest|pblend[a-z]*|blendv?p[sd]|pm(in|ax)(sb|sd|uw|ud)|pmulld|pmuldq"
        r"|pcmpeqq|pcmpgtq|packusdw|pextr[bdq]|pinsr[bdq]|pmov[sz]x[a-z]*|round[sp][sd]"
        r"|dpp[sd]|insertps|extractps|mpsadbw|phminposuw|movntdqa|lddqu|movddup"
        r"|movs[hl]dup|addsubp[sd]|haddp[sd]|hsubp[sd]|crc32[a-z]*|pcmpe?str[im])$"
    ),
}


def worker(files: list[str], min_seconds: float) -> None:
    """Runs inside the interpreter under test: print one JSON line of puzzles/s per file,
    by wall clock and by this process's CPU time."""
    import sudoku_fast as sf
    from sudoku_fast._engine import _core

    rates: dict[str, dict[str, float]] = {"wall": {}, "cpu": {}}
    for name in files:
        puzzles = [line.strip() for line in Path(name).read_text().splitlines() if line.strip()]
        solutions = sf.solve_many(puzzles, threads=1)  # warm-up, and the correctness gate
        if any(s is None for s in solutions):
            raise SystemExit(f"{name}: some puzzles came back unsolved")
        solved = 0
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        while True:
            sf.solve_many(puzzles, threads=1)
            solved += len(puzzles)
            wall = time.perf_counter() - wall_start
            if wall >= min_seconds:
                break
        cpu = time.process_time() - cpu_start
        rates["wall"][name] = solved / wall
        rates["cpu"][name] = solved / cpu
    print(json.dumps({"rates": rates, "extension": _core.__file__}))


Rates = dict[str, dict[str, float]]  # clock ("wall" or "cpu") -> file -> puzzles/s


def measure(python: str, files: list[Path], min_seconds: float) -> tuple[Rates, str]:
    """One run of every file in a fresh process of the given interpreter (run from /, so
    only the installed package can be imported): puzzles/s, extension path."""
    args = [python, str(Path(__file__).resolve()), "--worker", "--min-seconds", str(min_seconds)]
    proc = subprocess.run(
        [*args, *map(str, files)], capture_output=True, text=True, check=True, cwd="/"
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    rates = {
        clock: {str(k): float(v) for k, v in by_file.items()}
        for clock, by_file in result["rates"].items()
    }
    return rates, str(result["extension"])


def solve_passes(files: list[str], passes: int) -> None:
    """Runs inside the interpreter under test: solve each file `passes` times, untimed."""
    import sudoku_fast as sf

    for name in files:
        puzzles = [line.strip() for line in Path(name).read_text().splitlines() if line.strip()]
        for _ in range(passes):
            if any(s is None for s in sf.solve_many(puzzles, threads=1)):
                raise SystemExit(f"{name}: some puzzles came back unsolved")


def perf_counts(python: str, puzzle_file: Path, passes: int) -> dict[str, float]:
    """User-space cycles and instructions of one process solving a file `passes` times."""
    script = str(Path(__file__).resolve())
    perf = ["perf", "stat", "-x", ",", "-e", "cycles:u,instructions:u", "--"]
    proc = subprocess.run(
        [*perf, python, script, "--passes", str(passes), str(puzzle_file)],
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
    )
    counts = {}
    for line in proc.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].split(":")[0] in ("cycles", "instructions"):
            counts[fields[2].split(":")[0]] = float(fields[0])
    if len(counts) != 2:
        raise SystemExit(f"perf stat gave no counters:\n{proc.stderr}")
    return counts


def perf_per_puzzle(python: str, puzzle_file: Path, extra_passes: int) -> dict[str, float]:
    """Cycles and instructions per puzzle: a process solving the file 1 + extra_passes
    times minus one solving it once, so start-up, import and warm-up cancel out."""
    n = sum(1 for line in puzzle_file.read_text().splitlines() if line.strip())
    once = perf_counts(python, puzzle_file, 1)
    more = perf_counts(python, puzzle_file, 1 + extra_passes)
    return {key: (more[key] - once[key]) / (extra_passes * n) for key in once}


def extended_instruction_counts(extension: str) -> dict[str, int] | None:
    """Instructions beyond x86-64 baseline in a compiled extension (None: not checkable)."""
    if platform.machine().lower() not in ("x86_64", "amd64") or not shutil.which("objdump"):
        return None
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", extension],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    counts = dict.fromkeys(EXTENDED_X86, 0)
    for line in listing.splitlines():
        fields = line.split("\t")
        if len(fields) < 2 or not fields[0].rstrip().endswith(":"):
            continue
        mnemonic = fields[1].split()[0] if fields[1].split() else ""
        for group, pattern in EXTENDED_X86.items():
            if pattern.match(mnemonic):
                counts[group] += 1
    return counts


def cpu_model() -> str:
    """A human name for this machine's CPU."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def make_venvs(where: Path) -> None:
    """Build the portable and the native venv from this source tree."""
    for name, native in (("portable", False), ("native", True)):
        target = where / name
        venv.create(target, with_pip=True, clear=True)
        python = target / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
        env = {k: v for k, v in os.environ.items() if k != "SUDOKU_FAST_NATIVE"}
        if native:
            env["SUDOKU_FAST_NATIVE"] = "1"
        print(f"building {name} into {target} ...", flush=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--no-cache-dir", str(ROOT)],
            env=env,
            check=True,
        )
        print(f"  {python}")


def print_perf_table(builds: dict[str, str], files: list[Path], runs: int, passes: int) -> None:
    """Median cycles and instructions per puzzle of each build, alternating builds."""
    if not shutil.which("perf"):
        print("perf not found: no cycle counts")
        return
    counts: dict[str, dict[str, dict[str, list[float]]]] = {
        b: {str(f): {"cycles": [], "instructions": []} for f in files} for b in builds
    }
    for run in range(runs):
        order = list(builds) if run % 2 == 0 else list(reversed(builds))
        for build in order:
            for f in files:
                for key, value in perf_per_puzzle(builds[build], f, passes).items():
                    counts[build][str(f)][key].append(value)
    print(f"perf stat, user space, per puzzle (median of {runs}, {passes} extra passes)")
    print(
        f"{'file':<24}{'cycles portable':>16}{'native':>10}{'portable/native':>17}"
        f"{'instr portable':>16}{'native':>10}"
    )
    for f in files:
        med = {
            (b, key): statistics.median(counts[b][str(f)][key])
            for b in builds
            for key in ("cycles", "instructions")
        }
        speedup = med["portable", "cycles"] / med["native", "cycles"]
        print(
            f"{f.name:<24}{med['portable', 'cycles']:>16,.0f}{med['native', 'cycles']:>10,.0f}"
            f"{speedup:>17.3f}{med['portable', 'instructions']:>16,.0f}"
            f"{med['native', 'instructions']:>10,.0f}"
        )
    print()


def main() -> None:
    """Parse the command line and run the comparison (or the worker, or the venv setup)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="puzzle files, one per line")
    parser.add_argument("--portable", help="python of the venv with the portable build")
    parser.add_argument("--native", help="python of the venv with the SUDOKU_FAST_NATIVE build")
    parser.add_argument("--runs", type=int, default=3, help="runs per build (median taken)")
    parser.add_argument("--min-seconds", type=float, default=1.0, help="time per timed run")
    parser.add_argument("--make-venvs", type=Path, help="build both venvs here, then stop")
    parser.add_argument(
        "--perf",
        type=int,
        metavar="PASSES",
        default=0,
        help="also count user-space cycles and instructions per puzzle with `perf stat`,"
        " over PASSES extra passes per file (immune to time lost waiting for a core)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--passes", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        worker([str(f) for f in args.files], args.min_seconds)
        return
    if args.passes:
        solve_passes([str(f) for f in args.files], args.passes)
        return
    if args.make_venvs:
        make_venvs(args.make_venvs)
        return
    if not (args.portable and args.native):
        parser.error("give --portable and --native interpreters (or --make-venvs DIR first)")
    files = args.files or DEFAULT_FILES
    builds = {"portable": args.portable, "native": args.native}

    clocks = ("cpu", "wall")
    # build -> clock -> file -> one rate per run
    rates = {b: {c: {str(f): list[float]() for f in files} for c in clocks} for b in builds}
    extensions: dict[str, str] = {}
    for run in range(args.runs):
        # Alternate the order (ABBA...), so slow drift of the machine hits both builds alike.
        order = list(builds) if run % 2 == 0 else list(reversed(builds))
        for build in order:
            run_rates, extensions[build] = measure(builds[build], files, args.min_seconds)
            for clock in clocks:
                for name, rate in run_rates[clock].items():
                    rates[build][clock][name].append(rate)
            print(f"run {run + 1}/{args.runs} {build}: done", file=sys.stderr, flush=True)

    print(f"machine: {cpu_model()}, {os.cpu_count()} logical CPUs, {platform.platform()}")
    print(f"threads=1, {args.runs} runs per build alternated, median puzzles/s")
    print("cpu = puzzles per second of the process's CPU time (time spent waiting for a")
    print("busy machine's cores is not counted); wall = puzzles per wall-clock second")
    for build, python in builds.items():
        print(f"{build:>9}: {python}  ({extensions[build]})")
    for clock in clocks:
        print()
        print(f"{'file':<24}{'clock':>6}{'portable':>11}{'native':>11}{'native/portable':>17}")
        for f in files:
            portable = statistics.median(rates["portable"][clock][str(f)])
            native = statistics.median(rates["native"][clock][str(f)])
            ratio = native / portable
            print(f"{f.name:<24}{clock:>6}{portable:>11,.0f}{native:>11,.0f}{ratio:>17.3f}")
    print()
    for clock in clocks:
        for f in files:
            for build in builds:
                runs = ", ".join(f"{rate:,.0f}" for rate in rates[build][clock][str(f)])
                print(f"{f.name} {clock} {build} runs: {runs}")
    print()
    if args.perf:
        print_perf_table(builds, files, args.runs, args.perf)
    for build in builds:
        counts = extended_instruction_counts(extensions[build])
        if counts is not None:
            found = ", ".join(f"{group}: {n}" for group, n in counts.items())
            print(f"{build} extension, instructions beyond x86-64 baseline: {found}")


if __name__ == "__main__":
    main()
