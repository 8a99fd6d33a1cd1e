"""Deduplicate a file of puzzles up to symmetry: the pipeline of `sudoku-fast dedup`.

Each batch the reader gives is put in canonical form on threads (`_symmetry.canon`);
a record whose form was seen before is left out, the others are copied as written.

A record that carries variant rules of its own (a JSON line's `rules`, a CSV `rules`
column, puzzle TAB rules) is not a classic puzzle: its symmetries move its rules too (a
killer's cages move with its cells), and only those its rules keep count. Such a record
is left out when an earlier one has the same key from `canonical_variant` (canonical
givens and rules together).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import BinaryIO

from .._base.reports import LineReport
from .._parallel.threads import resolve_threads
from .._symmetry.canon import (
    DEFAULT_CANONICAL_NODES,
    STATUS_BUDGET,
    STATUS_MEMORY,
    STATUS_REPEAT,
    check_no_repeat,
    run_canonical,
)
from .._symmetry.variant import canonical_pair
from .progress import Progress
from .stream import PuzzleReader

__all__ = ["DedupReport", "dedup_stream"]


@dataclass
class DedupReport:
    """What `dedup_stream` did: records read, kept, dropped as equivalent to an earlier
    one (`exact`: of those, the ones with the same grid as an earlier record, the same
    values in the same cells, whatever the notation), malformed (left out), undecided
    (out of budget, kept), seconds and threads."""

    records: int = 0
    kept: int = 0
    equivalent: int = 0
    exact: int = 0
    malformed: int = 0
    undecided: int = 0
    seconds: float = 0.0
    threads: int = 1


def dedup_stream(
    reader: PuzzleReader,
    out: BinaryIO,
    messages: LineReport,
    progress: Progress,
    *,
    threads: int | None = None,
    max_nodes: int | None = DEFAULT_CANONICAL_NODES,
) -> DedupReport:
    """Copy the records of `reader` to `out`, leaving out every puzzle equivalent to an
    earlier one (first occurrences are kept, in input order; CSV rows are copied whole,
    after the header).

    A malformed record, or one with a symbol repeated in a row or column, is reported
    through `messages` and left out. A puzzle whose search runs out of `max_nodes` is
    reported and kept (undecided). Memory grows with the number of distinct puzzles
    (their canonical forms are kept), not with the file.
    """
    resolve_threads(threads)  # refused before any work if it is not a thread count
    report = DedupReport()
    started = time.perf_counter()
    seen: dict[bytes, int] = {}  # canonical form -> hash of the first grid with it
    others: dict[bytes, set[int]] = {}  # the same for later, different grids of a form
    # The same for records with rules of their own: key -> hash of the first (grid,
    # rules), and of the later different ones.
    variants: dict[str, int] = {}
    variant_others: dict[str, set[int]] = {}
    if reader.is_csv:
        out.write(reader.header.encode() + b"\n")
    for batch in reader:
        geometry, n, cells = batch.geometry, batch.n, batch.geometry.cells
        forms, status, _moves, used = run_canonical(
            geometry, batch.grids, n, threads, max_nodes, False
        )
        report.threads = max(report.threads, used)
        if STATUS_MEMORY in status:
            raise MemoryError("not enough memory for the search of a canonical form")
        problems = dict(batch.problems)
        for i in range(n):
            report.records += 1
            line = batch.line_numbers[i]
            grid = bytes(batch.grids[i * cells : (i + 1) * cells])
            if i in problems:
                report.malformed += 1
                messages.line(reader.name, line, problems[i])
                continue
            own = batch.own_rules.get(i)
            if own is not None:  # a variant puzzle: givens and rules together
                try:
                    own.check(geometry.size, (geometry.box_rows, geometry.box_cols))
                except ValueError as err:
                    report.malformed += 1
                    messages.line(reader.name, line, f"rules: {err}")
                    continue
                variant = canonical_pair(grid, own, geometry).key
                pair_hash = hash((grid, own))
                first_pair = variants.get(variant)
                if first_pair is not None:
                    report.equivalent += 1
                    later_pairs = variant_others.setdefault(variant, set())
                    if pair_hash == first_pair or pair_hash in later_pairs:
                        report.exact += 1
                    else:
                        later_pairs.add(pair_hash)
                    continue
                variants[variant] = pair_hash
            elif status[i] == STATUS_REPEAT:
                report.malformed += 1
                try:
                    check_no_repeat(grid, geometry)
                except ValueError as err:
                    messages.line(reader.name, line, str(err))
                continue
            elif status[i] == STATUS_BUDGET:
                report.undecided += 1
                messages.line(
                    reader.name,
                    line,
                    f"kept: no canonical form within {max_nodes:,} search steps "
                    "(pass a larger max_nodes, or None)",
                )
            else:
                form = bytes(forms[i * cells : (i + 1) * cells])
                first = seen.get(form)
                if first is not None:
                    report.equivalent += 1
                    grid_hash = hash(grid)
                    later = others.setdefault(form, set())
                    if grid_hash == first or grid_hash in later:
                        report.exact += 1
                    else:
                        later.add(grid_hash)
                    continue
                seen[form] = hash(grid)
            report.kept += 1
            begin, end = batch.spans[2 * i], batch.spans[2 * i + 1]
            out.write(bytes(batch.text[begin:end]) + b"\n")
        progress.update(report.records, batch.bytes_end)
    report.seconds = time.perf_counter() - started
    return report
