"""The variant engine in plain Python: the slow, obviously correct twin of `_variant.pyx`.

It reads the same rule records (`encode.py`) and gives the same counts. Every cell holds
the set of digits still possible; propagation repeats, until nothing changes:

* a cell with one digit removes it from its peers (the other cells of its units,
  partial sets and cages, its knight / king moves) and, under the non-consecutive rule,
  removes the digits one above and one below from its orthogonal neighbours;
* a digit with one place left in a complete unit goes there; with none, the state is dead;
* in every killer cage and along every thermometer, a digit stays in a cell only if some
  filling of the whole cage (distinct digits, the right sum) or thermometer (strictly
  increasing from the bulb) from the cells' candidates uses it there: found by trying
  every such filling.

Search picks an open cell with the fewest candidates and tries its digits in order on
a copy of the state.
"""

from __future__ import annotations

import itertools
import threading
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

MAX_SIZE = 11
LIMITS = {"units": 128, "cages": 128, "thermos": 128}
BUDGET_EXHAUSTED = -1
STOPPED = -2

Candidates = list[set[int]]
_CLAIM_LOCK = threading.Lock()  # the compiled claim is one atomic addition
_PLAIN_SYMBOLS = frozenset("0123456789.")


@dataclass(frozen=True)
class Constraints:
    """A rule record read back: units, peers, neighbours, cages and thermometers."""

    size: int
    units: list[list[int]]
    peers: list[set[int]]
    neighbours: list[set[int]]  # orthogonal, under the non-consecutive rule only
    cages: list[tuple[list[int], int]]
    thermos: list[list[int]]


def read_record(words: Sequence[int], at: int) -> Constraints:
    """The constraints of the record starting at words[at]."""
    pos = at

    def take(count: int) -> list[int]:
        nonlocal pos
        if count < 0 or pos + count > len(words):
            raise ValueError("malformed rules record")
        out = [int(w) for w in words[pos : pos + count]]
        pos += count
        return out

    size, flags = take(2)
    cells = size * size
    units = [take(size) for _ in range(take(1)[0])]
    partial = [take(take(1)[0]) for _ in range(take(1)[0])]
    cages = []
    for _ in range(take(1)[0]):
        length, total = take(2)
        cages.append((take(length), total))
    thermos = [take(take(1)[0]) for _ in range(take(1)[0])]
    peers: list[set[int]] = [set() for _ in range(cells)]
    for group in [*units, *partial, *(c for c, _ in cages)]:
        for cell in group:
            peers[cell].update(group)
    knight = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
    king = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
    steps = (knight if flags & 1 else []) + (king if flags & 2 else [])
    orthogonal = [(-1, 0), (1, 0), (0, -1), (0, 1)] if flags & 4 else []
    neighbours: list[set[int]] = [set() for _ in range(cells)]
    for r in range(size):
        for c in range(size):
            for dr, dc in steps:
                if 0 <= r + dr < size and 0 <= c + dc < size:
                    peers[r * size + c].add((r + dr) * size + c + dc)
            for dr, dc in orthogonal:
                if 0 <= r + dr < size and 0 <= c + dc < size:
                    neighbours[r * size + c].add((r + dr) * size + c + dc)
    for cell in range(cells):
        peers[cell].discard(cell)
    return Constraints(size, units, peers, neighbours, cages, thermos)


def _fillings(
    cells: list[int], cands: Candidates, fits: Callable[[list[int]], bool]
) -> list[set[int]]:
    """For each cell, the digits some complete filling accepted by `fits` gives it.

    `fits` sees each prefix of a filling and must reject every prefix no filling
    extends (a complete filling is one of len(cells) digits)."""
    used: list[set[int]] = [set() for _ in cells]
    chosen: list[int] = []

    def extend() -> None:
        if len(chosen) == len(cells):
            for k, digit in enumerate(chosen):
                used[k].add(digit)
            return
        for digit in sorted(cands[cells[len(chosen)]]):
            chosen.append(digit)
            if fits(chosen):
                extend()
            chosen.pop()

    extend()
    return used


def _cage_fits(length: int, total: int) -> Callable[[list[int]], bool]:
    def fits(digits: list[int]) -> bool:
        if len(set(digits)) != len(digits):
            return False
        if len(digits) == length:
            return sum(digits) == total
        return sum(digits) < total

    return fits


def _thermo_fits(digits: list[int]) -> bool:
    return all(a < b for a, b in itertools.pairwise(digits))


def _propagate(rules: Constraints, cands: Candidates) -> bool:
    """Apply every rule until nothing changes; False when a cell or unit runs dry."""
    size = rules.size
    changed = True
    while changed:
        changed = False
        for cell, digits in enumerate(cands):
            if len(digits) != 1:
                continue
            (digit,) = digits
            for peer in rules.peers[cell]:
                if digit in cands[peer]:
                    cands[peer].discard(digit)
                    changed = True
            for neighbour in rules.neighbours[cell]:
                if cands[neighbour] & {digit - 1, digit + 1}:
                    cands[neighbour] -= {digit - 1, digit + 1}
                    changed = True
        if not all(cands):
            return False
        for unit in rules.units:
            for digit in range(1, size + 1):
                places = [cell for cell in unit if digit in cands[cell]]
                if not places:
                    return False
                if len(places) == 1 and len(cands[places[0]]) > 1:
                    cands[places[0]] = {digit}
                    changed = True
        groups = [(cells, _cage_fits(len(cells), total)) for cells, total in rules.cages]
        groups += [(cells, _thermo_fits) for cells in rules.thermos]
        for cells, fits in groups:
            used = _fillings(cells, cands, fits)
            for cell, digits in zip(cells, used, strict=True):
                if not digits:
                    return False
                if digits != cands[cell]:
                    cands[cell] = set(digits)
                    changed = True
    return all(cands)


class _OutOfNodes(Exception):
    """The search used up its node budget."""


@dataclass
class _Figures:
    nodes: int = 0
    guesses: int = 0
    budget: int = 0


def _search(
    rules: Constraints, cands: Candidates, limit: int, found: list[list[int]], figures: _Figures
) -> None:
    figures.nodes += 1
    if figures.budget and figures.nodes > figures.budget:
        raise _OutOfNodes
    if not _propagate(rules, cands):
        return
    open_cells = [c for c in range(len(cands)) if len(cands[c]) > 1]
    if not open_cells:
        found.append([min(s) for s in cands])
        return
    cell = min(open_cells, key=lambda c: len(cands[c]))
    digits = sorted(cands[cell])
    for k, digit in enumerate(digits):
        if k < len(digits) - 1:
            figures.guesses += 1
        trial = [set(s) for s in cands]
        trial[cell] = {digit}
        _search(rules, trial, limit, found, figures)
        if len(found) >= limit:
            return


def solve_values(
    values: Sequence[int], rules: Constraints, limit: int, max_nodes: int = 0
) -> tuple[int, list[int] | None, int, int]:
    """(count up to `limit` or BUDGET_EXHAUSTED, first solution or None, guesses, nodes)."""
    every = set(range(1, rules.size + 1))
    cands: Candidates = [{v} if v else set(every) for v in values]
    if any(v > rules.size for v in values):
        return 0, None, 0, 1
    found: list[list[int]] = []
    figures = _Figures(budget=max_nodes)
    try:
        _search(rules, cands, limit, found, figures)
    except _OutOfNodes:
        return BUDGET_EXHAUSTED, None, figures.guesses, figures.nodes
    return len(found), (found[0] if found else None), figures.guesses, figures.nodes


def solve_range(
    records: Any,
    starts: Any,
    grids: Any,
    solutions: Any,
    counts: Any,
    guesses: Any,
    nodes: Any,
    nanos: Any,
    start: int,
    stop: int,
    size: int,
    limit: int,
    max_nodes: int = 0,
    stop_flag: Any = None,
    cpu_clock: bool = False,
    claim: Any = None,
    share: int = 2,
    min_chunk: int = 4,
    max_chunk: int = 256,
    texts: tuple[Any, ...] | None = None,
    parsed: Any = None,
) -> int:
    """The compiled `solve_range`'s arguments and results (see `_variant.pyx`)."""
    if texts is not None and (
        size != 9 or len(texts) < stop or parsed is None or len(parsed) < stop * size * size
    ):
        raise ValueError("texts need a 9x9 batch, one string per puzzle and a parsed buffer")
    if claim is not None:
        if len(claim) < 1 or share < 1 or min_chunk < 1 or max_chunk < min_chunk:
            raise ValueError("claim must hold one item; share and chunk sizes must be positive")
        while True:  # chunks from the shared counter, each claimed under a lock
            with _CLAIM_LOCK:
                low = int(claim[0])
                take = min(max_chunk, max(min_chunk, (stop - low) // share))
                claim[0] = low + take
            if low >= stop:
                return -1
            not_plain = solve_range(
                records, starts, grids, solutions, counts, guesses, nodes, nanos, low,
                min(stop, low + take), size, limit, max_nodes, stop_flag, cpu_clock,
                texts=texts, parsed=parsed,
            )  # fmt: skip
            if not_plain >= 0:
                with _CLAIM_LOCK:  # nothing more for any thread to take
                    claim[0] = int(claim[0]) + stop
                return not_plain
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if size < 1 or size > MAX_SIZE:
        raise ValueError(
            f"the variant engine takes grids up to {MAX_SIZE}x{MAX_SIZE}, not {size}x{size}"
        )
    cells = size * size
    view = memoryview(grids if texts is None else parsed).cast("B")
    read: dict[int, Constraints] = {}
    for i in range(start, stop):
        if stop_flag is not None and stop_flag[0]:
            solutions[i * cells : (i + 1) * cells] = bytes(cells)
            counts[i], guesses[i], nodes[i] = STOPPED, 0, 0
            if nanos is not None:
                nanos[i] = 0
            continue
        if texts is not None:
            grid = _plain_grid(texts[i])
            if grid is None:
                return i
            view[i * cells : (i + 1) * cells] = grid
        began = time.thread_time_ns() if cpu_clock else time.perf_counter_ns()
        at = int(starts[i])
        if at not in read:
            read[at] = read_record(records, at)
        rules = read[at]
        if rules.size != size:
            raise ValueError(f"puzzle {i}: malformed rules record")
        count, solution, tried, visited = solve_values(
            list(view[i * cells : (i + 1) * cells]), rules, limit, max_nodes
        )
        # Every item of the range is written (zeros for no solution), as compiled.
        solutions[i * cells : (i + 1) * cells] = bytes(cells if solution is None else solution)
        counts[i], guesses[i], nodes[i] = count, tried, visited
        if nanos is not None:
            ended = time.thread_time_ns() if cpu_clock else time.perf_counter_ns()
            nanos[i] = ended - began
    return -1


def _plain_grid(text: object) -> bytes | None:
    """The 81 values of a plain puzzle string (digits, '.' or '0' for an empty cell),
    or None for anything else."""
    if type(text) is not str or len(text) != 81 or not set(text) <= _PLAIN_SYMBOLS:
        return None
    return bytes(0 if symbol == "." else int(symbol) for symbol in text)


def index_rules(
    items: list[Any], kind: type
) -> tuple[dict[Any, Any], array[int], list[Any]] | None:
    """The compiled `index_rules`' answer: (firsts, which, each), or None when an item
    is not a `kind`."""
    if not all(isinstance(item, kind) for item in items):
        return None
    firsts: dict[Any, Any] = {}
    for item in items:
        firsts.setdefault(item._key, item)
    position = {key: k for k, key in enumerate(firsts)}
    which = array("i", [position[item._key] for item in items])
    each = [firsts[item._key] for item in items]
    return firsts, which, each


def gather_starts(at: Sequence[int], which: Sequence[int]) -> array[int]:
    """The compiled `gather_starts`' answer: at[which[i]] for each i, as int64."""
    for i, position in enumerate(which):
        if not 0 <= position < len(at):
            raise ValueError(f"item {i}: position {position} outside 0..{len(at) - 1}")
    return array("q", [at[position] for position in which])
