"""Run the variant engine over a batch of encoded grids, on threads, keeping input order.

The caller has parsed the puzzles into one buffer of N*N values each; here each puzzle's
rules are checked (once per distinct rule set) and encoded into one record buffer
(`encode.py`), then worker threads take chunks from a shared counter and call the
engine, which releases the GIL for the whole chunk.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from .._base.checks import check_limit
from .._base.grid import CLASSIC, Geometry, default_box
from .._base.rules import Rules, as_rules, rules_key
from .._engine.encode import decode_range
from .._engine.isa import core as _core
from .._engine.results import EngineResults
from .._engine.run import NotPlain, shared_buffers
from .._parallel.fanout import MAX_CHUNK, run_chunks, run_workers
from .._parallel.threads import resolve_threads
from . import _variant
from .big import BigGridCounter, run_big_rules
from .encode import RuleList, checked_record, encode_batch

__all__ = [
    "MIN_CHUNK",
    "GridCounter",
    "box_for",
    "checked_count",
    "per_puzzle",
    "read_rules",
    "rules_at",
    "run_one",
    "run_plain_list",
    "run_rules",
    "screen_box",
]

MIN_CHUNK = 4  # a variant puzzle costs tens of microseconds: small chunks balance well
_CLASSIC = Rules()
_CLASSIC_KEY = rules_key(_CLASSIC)
_REGIONS: Callable[[Rules], str | None] = operator.attrgetter("regions")
_is_not_none: Callable[[object], bool] = partial(operator.is_not, None)


def read_rules(rules: object) -> Rules | list[Rules | None] | None:
    """What a batch's `rules=` says: one rule set for every puzzle (a Rules, a JSON
    mapping or text, a preset name), a list of one per puzzle (None where a puzzle has
    classic rules), or None when every puzzle is classic.

    Each distinct object of a list is read once, in order of first appearance (a
    batch usually repeats a few rule sets, or one), and every rule set equal to one
    read before it comes back as that first object. A list comes back as a
    `encode.RuleList`, which keeps each puzzle's position among the distinct rule sets
    and the first rule set of each, so that the steps after this one
    (`encode.encode_batch`, `box_for`) need not look at every puzzle again. The
    per-puzzle pass runs in C (`_variant.index_rules`): a file's puzzles, one `Rules`
    object each, cost no Python call apiece.

    Raises ValueError / TypeError naming the puzzle whose rules are malformed.
    """
    if rules is None:
        return None
    if isinstance(rules, (Rules, str)) or hasattr(rules, "keys"):
        return as_rules(rules)
    try:
        items = list(rules)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(
            "rules must be a Rules, a JSON object or text, a preset name, or a sequence "
            f"of them (one per puzzle), not {type(rules).__name__}"
        ) from None
    # One C pass over the puzzles (`_variant.index_rules`): their rule sets' keys, the
    # first rule set of each key, and each puzzle's position among them.
    indexed = _variant.index_rules(items, Rules)
    if indexed is None:  # some item is another form (JSON, text, a preset, None)
        indexed = _variant.index_rules(_read_each(items), Rules)
        assert indexed is not None  # every item is a Rules now
    first, which, each = indexed
    if _CLASSIC_KEY in first or not first:
        if len(first) <= 1:  # every puzzle is classic (or there is none)
            return None
        classic = first[_CLASSIC_KEY]  # every classic puzzle's `each` is this object
        first[_CLASSIC_KEY] = None
        each = [None if rules is classic else rules for rules in each]
    firsts = RuleList(each)
    firsts.which, firsts.firsts = which, first
    return firsts


def _read_each(items: list[Any]) -> list[Rules]:
    """`as_rules` of each item (a classic rule set for None), each distinct object
    read once, in order of first appearance; an error names the first puzzle."""
    # `items` holds every object, so an id names one object for the whole reading.
    ids = list(map(id, items))
    read: dict[int, Any] = dict(zip(ids, items, strict=True))  # in order of first appearance
    for key, item in read.items():
        if type(item) is not Rules:
            try:
                got = as_rules(item)
            except (ValueError, TypeError) as error:
                raise type(error)(f"puzzle {ids.index(key)}: {error}") from None
            read[key] = _CLASSIC if got is None else got
    return list(map(read.__getitem__, ids))


def per_puzzle(rules: Rules | list[Rules | None], n: int) -> list[Rules | None]:
    """The rules of each of n puzzles (see `read_rules`); ValueError on a count mismatch."""
    if isinstance(rules, Rules):
        return [rules] * n
    if len(rules) != n:
        raise ValueError(f"rules: {len(rules)} rule sets for {n} puzzles")
    return rules


def checked_count(
    rules: Rules | list[Rules | None] | None, puzzles: Any
) -> Rules | list[Rules | None] | None:
    """`rules` as they are, once a list of one per puzzle is checked against the number of
    puzzles (ValueError as `per_puzzle`): a batch that leaves items out or cuts itself in
    blocks (on_error, progress) would otherwise hide a mismatch or shift the rules."""
    if isinstance(rules, list) and hasattr(puzzles, "__len__"):
        per_puzzle(rules, len(puzzles))
    return rules


def rules_at(
    rules: Rules | list[Rules | None] | None, rows: list[int] | None
) -> Rules | list[Rules | None] | None:
    """The rules of the items at `rows` (all of them when None) of a forgiving batch: one
    rule set stays as it is, a list of one per puzzle is taken at the same positions (a
    list of the wrong length goes whole, for the batch function's own error)."""
    if rows is None or not isinstance(rules, list):
        return rules
    if rows and max(rows) >= len(rules):
        return rules
    return [rules[i] for i in rows]


def screen_box(rules: Rules | list[Rules | None] | None, box: object, alphabet: object) -> object:
    """The box a forgiving batch screens its items with (a jigsaw of prime size has none)."""
    return box if rules is None else box_for(rules, box, alphabet)


def box_for(rules: Rules | list[Rules | None], box: object, alphabet: object) -> object:
    """The `box` to parse puzzles with: as given, or (1, N) for a jigsaw of a prime size
    N (its regions replace boxes it has none of), when neither box nor alphabet is given."""
    if box is not None or alphabet is not None:
        return box
    if isinstance(rules, Rules):
        items: Iterable[Rules | None] = [rules]
    elif type(rules) is RuleList:  # each rule set once
        items = rules.firsts.values()
    else:
        items = rules
    # The first rule set with regions decides; the others are passed over in C.
    present: Iterable[Rules] = filter(_is_not_none, items)  # type: ignore[arg-type]
    regions = next(filter(_is_not_none, map(_REGIONS, present)), None)
    if regions is not None:
        size = math.isqrt(len(regions))
        if size > 1 and size * size == len(regions) and default_box(size) is None:
            return (1, size)
    return None


def run_rules(
    grids: Any,
    n: int,
    rules: Rules | Sequence[Rules | None],
    limit: int = 1,
    threads: int | None = None,
    *,
    geometry: Geometry,
    max_nodes: int = 0,
    timed: bool = False,
    stop_flag: bytearray | None = None,
    single: bool = False,
    decode: bool = False,
    source: tuple[Any, ...] | None = None,
) -> EngineResults:
    """Solve (limit 1) or count (up to `limit`) n puzzles of `geometry` under their rules.

    `grids` holds n*N*N values 0..N; `rules` is one rule set for all of them, or
    `rules[i]` puzzle i's (None: classic, run by this engine too, so one batch may mix
    both). A puzzle that needs more than `max_nodes` search nodes (0: no budget) gets
    count -1. Raises ValueError naming the first puzzle whose rules do not fit the
    grid, before any puzzle is solved (without the index when `single`: a one-puzzle
    call). `decode` asks for the solution strings (`texts`) of a 9x9 batch in the
    classic symbols: each thread makes those of the chunk it has just solved.

    `source`, a tuple of n puzzle strings of a 9x9 batch, is read by the threads into
    `grids` (then a writable buffer of n*81 bytes, left uninitialised), each chunk's
    strings just before they are solved, so the reading of a batch is shared out too.
    Raises NotPlain if one of them is not a plain 81-character puzzle string; the
    caller then reads the batch with the full parser.
    """
    if geometry.size > _variant.MAX_SIZE:  # bigger grids: the general engine's path
        each = [rules] * n if isinstance(rules, Rules) else rules
        return run_big_rules(
            grids, n, each, limit, threads, geometry=geometry, max_nodes=max_nodes,
            timed=timed, stop_flag=stop_flag, single=single,
        )  # fmt: skip
    check_limit(limit)
    workers = resolve_threads(threads)
    size = geometry.size
    box = (geometry.box_rows, geometry.box_cols)
    records, starts = encode_batch(rules, n, size, box, single=single)
    results = EngineResults.unfilled(n, geometry, timed=timed, on_core=False)
    texts = results.texts = [None] * n if decode and geometry == CLASSIC else None
    if n == 0:
        return results
    stop = bytearray(1) if stop_flag is None else stop_flag
    # One view of each buffer for all the threads' calls (see `shared_buffers`); the
    # records are immutable bytes, whose buffers keep no export count to share.
    starts_v, grids_v, solutions, counts, guesses, nodes, nanos = shared_buffers(
        workers,
        starts,
        grids,
        results.solutions,
        results.counts,
        results.guesses,
        results.nodes,
        results.nanos,
    )
    stop_view = shared_buffers(workers, stop)[0]
    parsed = None if source is None else grids_v

    def solve(start: int, end: int, **claiming: Any) -> None:
        # A view of the records per call: a memoryview's export count is not for
        # threads to share.
        words = memoryview(records).cast("h")
        not_plain = _variant.solve_range(
            words, starts_v, grids_v, solutions, counts, guesses, nodes, nanos,
            start, end, size, limit, max_nodes, stop_view, **claiming,
            texts=source, parsed=parsed,
        )  # fmt: skip
        if not_plain >= 0:
            raise NotPlain

    def work(start: int, end: int) -> None:
        solve(start, end)
        if texts is not None:
            decode_range(solutions, counts, texts, start, end)

    if n <= MIN_CHUNK:  # one chunk (a one-puzzle call): no fan-out to set up
        work(0, n)
        return results

    def abort() -> None:
        stop[0] = 1

    if texts is None:
        # Each thread makes one call that takes chunks from a shared counter without the
        # GIL (see `solve_range`'s `claim`), so the threads do not hand the GIL over at
        # every chunk; the chunks shrink towards the end as `run_chunks(taper=True)`'s.
        threads = max(1, min(workers, -(-n // MIN_CHUNK)))
        claim = shared_buffers(threads, array("q", [0]))[0]
        chunks = {"claim": claim, "share": 2 * threads, "min_chunk": MIN_CHUNK}
        results.threads = run_workers(
            threads, lambda: solve(0, n, **chunks, max_chunk=MAX_CHUNK), on_abort=abort
        )
        return results

    # Chunks that shrink towards the end: a batch of a few thousand puzzles has too few
    # chunks of the plain size for the threads to finish together (see `run_chunks`).
    results.threads = run_chunks(
        n, workers, MIN_CHUNK, work, caller_works=True, on_abort=abort, taper=True
    )
    return results


def run_plain_list(
    puzzles: object,
    rules: Rules | list[Rules | None],
    limit: int,
    threads: int | None,
    *,
    max_nodes: int = 0,
    decode: bool = False,
) -> EngineResults | None:
    """`run_rules` on a list of plain 81-character puzzle strings (digits, '.'), read
    by the worker threads chunk by chunk (see `run_rules`' `source`) rather than by the
    calling thread before they start; None, having solved nothing that is kept, when
    `puzzles` is not such a list or an item or a rule set is found wrong on the way:
    the caller then reads the batch with the full parser, which names the bad item.
    """
    if type(puzzles) is not list or not puzzles:
        return None
    first = puzzles[0]
    if type(first) is not str or len(first) != CLASSIC.cells:
        return None
    # A tuple keeps every string alive and the same while threads without the GIL read
    # them, whatever another thread does to the list meanwhile.
    source = tuple(puzzles)
    n = len(source)
    grids = _core.new_buffer(n * CLASSIC.cells)  # every row is written before it is read
    try:
        each = rules if isinstance(rules, Rules) else per_puzzle(rules, n)
        return run_rules(
            grids, n, each, limit, threads, geometry=CLASSIC, max_nodes=max_nodes,
            decode=decode, source=source,
        )  # fmt: skip
    except (NotPlain, ValueError, TypeError):
        return None  # the full parser's path says what is wrong, in its own order


def run_one(
    values: Any, rules: Rules, limit: int, *, geometry: Geometry, max_nodes: int = 0
) -> EngineResults:
    """`run_rules` for one puzzle under one rule set, with its batch set-up left out
    (threads, chunks, shared views): what `solve(p, rules=...)` and
    `count_solutions` cost beside the search. ValueError names no puzzle.
    """
    if geometry.size > _variant.MAX_SIZE:  # bigger grids: the general engine's path
        return run_big_rules(
            values, 1, [rules], limit, 1, geometry=geometry, max_nodes=max_nodes, single=True
        )
    check_limit(limit)
    size = geometry.size
    record = checked_record(rules, size, (geometry.box_rows, geometry.box_cols))
    results = EngineResults.zeroed(1, geometry, on_core=False)
    _variant.solve_range(
        memoryview(record).cast("h"),
        array("q", [0]),
        values,
        results.solutions,
        results.counts,
        results.guesses,
        results.nodes,
        None,
        0,
        1,
        size,
        limit,
        max_nodes,
    )
    return results


class GridCounter:
    """Counts of one grid at a time under one checked rule set, on the variant engine,
    with the batch machinery left out (a generator calls it thousands of times a puzzle).

    `count(grid, limit)` returns the number of solutions up to `limit`, -1 past
    `max_nodes` search nodes (0: no budget); after a count of 1 or more, `solution`
    holds the first solution found. The GIL is released inside each count.
    """

    def __init__(
        self, rules: Rules, size: int, box: tuple[int, int] | None = None, max_nodes: int = 0
    ) -> None:
        self.size = size
        self.max_nodes = max_nodes
        # Bigger grids: the general engine's path (big.py), which `count` hands over to.
        self._big = (
            BigGridCounter(rules, size, box, max_nodes) if size > _variant.MAX_SIZE else None
        )
        self.solution = bytearray(size * size) if self._big is None else self._big.solution
        if self._big is not None:
            return
        self._records = memoryview(checked_record(rules, size, box)).cast("h")
        self._starts = array("q", [0])
        self._counts = array("i", [0])
        self._guesses = array("q", [0])
        self._nodes = array("q", [0])

    def count(self, grid: bytearray, limit: int = 2) -> int:
        """The number of solutions of `grid` (N*N values 0..N, 0 = empty) up to `limit`."""
        if self._big is not None:
            return self._big.count(grid, limit)
        _variant.solve_range(
            self._records,
            self._starts,
            grid,
            self.solution,
            self._counts,
            self._guesses,
            self._nodes,
            None,
            0,
            1,
            self.size,
            limit,
            self.max_nodes,
        )
        found = self._counts[0]
        return -1 if found < 0 else found
