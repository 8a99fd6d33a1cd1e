"""Typed stubs for the compiled 9x9 engine (`_core.pyx`).

Buffers are C-contiguous objects supporting the buffer protocol (bytes, bytearray,
array.array, memoryview, numpy arrays) with the item type each parameter names; the
engine checks item type and writability when it is called, not the type checker.
"""

from array import array
from typing import Any, Final

from typing_extensions import Buffer, disjoint_base

__pyx_capi__: Final[dict[str, Any]]  # the C functions other compiled modules cimport
STOPPED: Final[int]
THREAD_CPU_CLOCK: Final[bool]

def solve_range(
    grids: Buffer,
    solutions: Buffer,
    counts: Buffer,
    guesses: Buffer,
    nodes: Buffer,
    nanos: Buffer | None,
    start: int,
    stop: int,
    limit: int,
    stop_flag: Buffer | None = None,
    cpu_clock: bool = False,
) -> None:
    """Solve puzzles start..stop-1 of a flat buffer of 81-byte grids, without the GIL.

    grids: uint8 digits 0-9 (read only); solutions: writable uint8, 81 per puzzle;
    counts: writable int32; guesses, nodes and nanos (None = untimed): writable int64
    (nanos per puzzle: the thread's CPU time with cpu_clock, else the wall clock).
    stop_flag: one byte; once another thread sets it, the puzzles not finished get
    counts[i] = STOPPED. In the main thread Ctrl-C interrupts the range. Raises
    ValueError for limit < 1, a bad range or buffers too small for it.
    """

def solve_list(source: list[Any], limit: int, texts: bool) -> list[Any] | None:
    """Solve a list of plain 81-character puzzles one after the other in the caller's
    thread, the GIL released once for them all.

    Returns the solution strings (None where there is none) when `texts`, else the
    counts up to `limit`, in input order; None, before any puzzle is solved, when an
    item is not a plain puzzle string. In the main thread Ctrl-C interrupts it. Raises
    ValueError for limit < 1.
    """

def solve_batch(
    grids: Buffer,
    solutions: Buffer,
    counts: Buffer,
    guesses: Buffer,
    nodes: Buffer,
    cursor: Buffer,
    n: int,
    chunk: int,
    limit: int,
    stop_flag: Buffer | None = None,
    fanout: Fanout | None = None,
    lead: bool = False,
) -> None:
    """One worker's share of a batch of n puzzles, taken chunk by chunk, without the GIL.

    Buffers as in `solve_range` (grids may be None when `fanout` has a list source);
    cursor: writable int64, cursor[0] = 0 before the first worker starts. Every worker
    of a batch calls this once with the same buffers; each claims `chunk` puzzles at a
    time by an atomic add on cursor[0] until none are left. Stops (counts[i] = STOPPED
    for a puzzle abandoned) on the stop flag, and in the main thread on Ctrl-C, whose
    exception propagates. `fanout`: the batch's Fanout, the same for every worker; the
    one worker called with `lead` (the caller's thread) does its GIL-held work. Raises
    ValueError for limit < 1, n < 0, chunk < 1, buffers too small for n puzzles, or a
    fanout of another batch.
    """

@disjoint_base
class Fanout:
    """What the threads of one batch of n puzzles share, and the caller's part in it.

    `source`: a list whose first n items the lead reads (with the GIL, beside the
    solving) instead of a grids buffer; `texts`: make the solution strings. A list
    source needs exactly one `solve_batch(..., lead=True)` call: the helpers wait for
    the lead to encode the puzzles they claim.
    """

    @property
    def n(self) -> int: ...
    @property
    def lead_ns(self) -> int:
        """Nanoseconds the lead spent holding the GIL inside solve_batch."""
    @property
    def first_block_ns(self) -> int:
        """Of those, the ones before any thread could solve (the first block)."""
    @property
    def failed(self) -> bool:
        """True when the list source held an item that is not a plain puzzle string."""
    @property
    def arenas_served(self) -> int:
        """Arenas of memory faulted in by the batch's threads that the strings took."""
    def __new__(
        cls, n: int, helpers: int, source: list[Any] | None = None, texts: bool = False
    ) -> Fanout: ...
    def finish(self, solutions: Buffer, counts: Buffer) -> list[str | None]:
        """The solution strings (None where counts[i] <= 0), once every call returned."""

@disjoint_base
class BatchRun:
    """A batch of n 9x9 puzzles for the workers of `solve_batch`, in buffers of its own.

    The same work as `solve_batch` calls sharing a `Fanout(n, helpers, source, texts)`,
    with the solutions, counts, guesses and nodes allocated here (uninitialised until
    the workers write them): each helper thread calls `helper()`, the caller's thread
    `lead()` (once), and `finish()` hands the strings over. `grids` is None when the
    puzzles come from a list `source`; `stop_flag` a writable byte (None: its own).
    """

    @property
    def solutions(self) -> bytearray: ...
    @property
    def counts(self) -> array[int]: ...
    @property
    def guesses(self) -> array[int]: ...
    @property
    def nodes(self) -> array[int]: ...
    @property
    def fanout(self) -> Fanout: ...
    @property
    def failed(self) -> bool:
        """True when the list source held an item that is not a plain puzzle string."""
    @property
    def threads(self) -> int:
        """The threads the batch was made for: its helpers and the lead."""
    @property
    def first_entry_ns(self) -> int:
        """`now_ns()` when the first worker entered the engine (0 before)."""
    @property
    def lead_exit_ns(self) -> int:
        """`now_ns()` when the lead returned (0 before)."""
    def __new__(
        cls,
        grids: Buffer | None,
        source: list[Any] | None,
        n: int,
        chunk: int,
        limit: int,
        helpers: int,
        texts: bool,
        stop_flag: Buffer | None = None,
    ) -> BatchRun: ...
    def stop(self) -> None:
        """Set the stop flag: the workers abandon their puzzles and return."""
    def helper(self) -> None:
        """A helper thread's share of the batch."""
    def lead(self) -> None:
        """The caller's share; returns once every helper that entered has left."""
    def finish(self) -> list[str | None]:
        """The solution strings (None where there is no solution)."""

def now_ns() -> int:
    """The engine's monotonic clock in nanoseconds."""

PREFAULT_STRINGS_FROM: int
"""Batches of at least this many result strings have their memory faulted in first."""
PREFAULT_ARENAS: bool
"""Whether such batches use an ArenaPool (64-bit, Python's own small-object allocator)."""

def arena_allocator_now() -> tuple[int, int, int]:
    """Python's arena allocator, as (context, alloc, free) addresses: to check that a
    batch leaves it as it found it."""

def new_array(typecode: str, n: int) -> array[int]:
    """An array.array of n items of `typecode`, left uninitialised.

    Raises ValueError for a negative n.
    """

def new_buffer(size: int) -> bytearray:
    """A bytearray of `size` bytes left uninitialised, for buffers written before read.

    Raises ValueError for a negative size.
    """

def shared_view(buffer: Buffer) -> Buffer:
    """`buffer` as a memoryview of the extension's own kind, for a batch's threads to pass
    to compiled calls: one buffer export taken here, shared by atomic counts after.

    buffer: uint8 (bytes-like), or an array.array of int32, int64, uint64 or uint8 items.
    Raises TypeError for another typecode.
    """

def encode_strings(items: list[Any], out: Buffer) -> list[int]:
    """Write each plain 81-character puzzle string of `items` into `out` as digits 0-9.

    out: writable uint8, 81 per item. Returns the indices of the items that are not in
    that plain form (any other object included), for the caller to parse or reject.
    """

def decode_solutions(solutions: Buffer, counts: Buffer) -> list[str | None]:
    """The canonical solution strings of a batch, None where counts[i] is 0.

    solutions: uint8, 81 digits per puzzle; counts: int32, one per puzzle.
    """

def decode_range(
    solutions: Buffer, counts: Buffer, out: list[str | None], start: int, stop: int
) -> None:
    """Write the solution strings of puzzles start..stop-1 into out[start:stop]."""

def solve_plain(text: object, limit: int) -> tuple[int, str | None] | None:
    """Solve one puzzle given as 81 plain characters (digits, '.' or '0').

    Returns (solutions found up to `limit`, the first solution or None), or None when
    `text` is not in that plain form, for the caller to parse it in full.
    """
