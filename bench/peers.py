"""tdoku as a Python callable for the benchmarks, when ../shared/peers/build.sh has run.

build.sh compiles tdoku's objects (position-independent) into $SUDOKU_PEERS, default
~/.cache/sudoku_peers, one folder per flavour: obj_native (-march=native), obj_avx2,
obj_sse2 (what a portable build would be). `tdoku(flavour)` links them with
bench/tdoku_batch.c into a shared library (once, cached beside them), loads it with
ctypes and returns a `Tdoku` that takes a list of puzzle strings, as `solve_many` does.
None when the objects or a C compiler are missing: the benchmarks then skip.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS = Path(os.environ.get("SUDOKU_PEERS", Path.home() / ".cache" / "sudoku_peers"))
FLAVOURS = ("native", "avx2", "sse2")


class Tdoku:
    """tdoku's solver over a batch: strings in, strings (or counts) out."""

    def __init__(self, library: ctypes.CDLL, flavour: str) -> None:
        self.flavour = flavour
        self.batch = library.tdoku_batch
        self.batch.restype = None
        self.batch.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_size_t,
            ctypes.c_char_p,
            ctypes.c_void_p,
        ]

    def run(self, puzzles: list[str], limit: int) -> tuple[bytes, list[int]]:
        """(solutions, counts): one call into tdoku for the whole batch."""
        n = len(puzzles)
        # tdoku wants '.' for empty cells, never '0'.
        text = ("\n".join(puzzles) + "\n").replace("0", ".").encode("ascii")
        solutions = ctypes.create_string_buffer(81 * n)
        counts = (ctypes.c_int32 * n)()
        self.batch(text, n, limit, solutions, ctypes.addressof(counts))
        return solutions.raw, list(counts)

    def solve_many(self, puzzles: list[str]) -> list[str | None]:
        """The first solution of each puzzle, None where there is none."""
        raw, counts = self.run(puzzles, 1)
        text = raw.decode("ascii")
        return [text[81 * i : 81 * i + 81] if c else None for i, c in enumerate(counts)]

    def count_many(self, puzzles: list[str], limit: int = 2) -> list[int]:
        """Solutions of each puzzle, counted up to `limit`."""
        return self.run(puzzles, limit)[1]


@cache
def tdoku(flavour: str = "native") -> Tdoku | None:
    """tdoku built by ../shared/peers/build.sh in the given flavour, or None."""
    objects = [PEERS / f"obj_{flavour}" / name for name in ("solver_dpll_triad_simd.o", "util.o")]
    compiler = shutil.which("g++") or shutil.which("c++")
    if not all(o.exists() for o in objects) or compiler is None:
        return None
    library = PEERS / f"libtdoku_batch_{flavour}.so"
    source = HERE / "tdoku_batch.c"
    newest = max(p.stat().st_mtime for p in [*objects, source])
    if not library.exists() or library.stat().st_mtime < newest:
        subprocess.run(
            [
                compiler,
                "-O3",
                "-shared",
                "-fpic",
                "-x",
                "c",
                str(source),
                "-x",
                "none",
                *map(str, objects),
                "-o",
                str(library),
            ],
            check=True,
        )
    return Tdoku(ctypes.CDLL(str(library)), flavour)
