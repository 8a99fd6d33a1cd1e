# cython: language_level=3
"""Stopping a search from outside: a stop flag set by another thread, and Ctrl-C.

Both engines release the GIL for a whole range of puzzles, so Python cannot interrupt
them. Instead their search loops call `poll` every few hundred nodes: it reads an
optional one-byte flag (another thread sets it to abandon the batch) and, in the main
thread only, takes the GIL for a moment to let Python run its signal handlers. A handler
that raises (KeyboardInterrupt) stops the search; its exception is kept here and raised
by `raise_saved` once the GIL is held again, since left pending inside a nogil function
it would be reported as unraisable and lost.
"""

from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject

from sudoku_fast._base.clock cimport clock_nanos

# How often a loop that runs many short steps (puzzles, chunks, spins) in the main thread
# lets Python run its signal handlers (each look takes the GIL, so not at every step).
cdef enum:
    SIGNAL_CHECK_NANOS = 20000000  # 20 ms

cdef extern from *:
    """
    /* The flag is written by another thread; read it fresh each time (an atomic load:
       relaxed, as nothing is passed with the flag but the wish to stop). */
    static int sudoku_fast_flag_set(const unsigned char *flag) {
    #if defined(_MSC_VER)
        return flag != NULL && *(volatile const unsigned char *)flag != 0;
    #else
        return flag != NULL && __atomic_load_n(flag, __ATOMIC_RELAXED) != 0;
    #endif
    }
    """
    bint flag_set "sudoku_fast_flag_set" (const unsigned char *flag) nogil

cdef extern from *:
    """
    /* Set the flag while other threads read it (an atomic store, relaxed as the load).
       Inline: a module that cimports this file without calling it gets no unused-function
       warning. */
    static CYTHON_INLINE void sudoku_fast_flag_raise(unsigned char *flag) {
    #if defined(_MSC_VER)
        *(volatile unsigned char *)flag = 1;
    #else
        __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
    #endif
    }
    """
    void flag_raise "sudoku_fast_flag_raise" (unsigned char *flag) nogil

cdef extern from "Python.h":
    # Declared as a plain C call (cpython.exc says `except -1`), so that the handler's
    # exception can be saved in the Stop and raised later.
    int check_signals "PyErr_CheckSignals" () noexcept


cdef struct Stop:
    const unsigned char *flag  # NULL, or a byte another thread sets to stop
    bint check_signals         # true in the main thread only
    bint stopped               # a poll found a reason to stop
    bint interrupted           # a signal handler raised; its exception is saved below
    PyObject *exc_type
    PyObject *exc_value
    PyObject *exc_traceback


cdef inline void stop_init(Stop *stop, const unsigned char *flag, bint main_thread) noexcept nogil:
    stop.flag = flag
    stop.check_signals = main_thread
    stop.stopped = False
    stop.interrupted = False
    stop.exc_type = NULL
    stop.exc_value = NULL
    stop.exc_traceback = NULL


cdef inline bint poll(Stop *stop) noexcept nogil:
    """True (and `stopped` set) when the flag is set or a signal handler raised."""
    if flag_set(stop.flag) or stop.interrupted:
        stop.stopped = True
        return True
    if stop.check_signals:
        with gil:
            if check_signals() != 0:
                PyErr_Fetch(&stop.exc_type, &stop.exc_value, &stop.exc_traceback)
                stop.interrupted = True
                stop.stopped = True
                return True
    return False


cdef inline bint signals_due(Stop *stop, long long *last_signal_check) noexcept nogil:
    """Whether the main thread should let Python run its signal handlers now: about
    every SIGNAL_CHECK_NANOS of the wall clock since `last_signal_check` (updated then).
    Always False outside the main thread, which has no signals to look at."""
    cdef long long now
    if not stop.check_signals:
        return False
    now = clock_nanos(False)
    if now - last_signal_check[0] < SIGNAL_CHECK_NANOS:
        return False
    last_signal_check[0] = now
    return True


cdef inline int raise_saved(Stop *stop) except -1:
    """Raise the exception a signal handler raised during the search (if any)."""
    if stop.interrupted:
        stop.interrupted = False
        PyErr_Restore(stop.exc_type, stop.exc_value, stop.exc_traceback)  # steals them
        return -1
    return 0
