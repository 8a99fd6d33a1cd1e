# cython: language_level=3
"""Atomic counters shared by the threads of a batch, as plain C on int64 words.

`sudoku_fast_claim` hands out indices (an atomic add, relaxed order: nothing is passed
with an index); `sudoku_fast_tally` counts work done (an atomic add, release order: the
work's writes come before it), `publish` passes a count from one thread to others (a
release store after the data it covers is written), and `published` reads either (an
acquire load before that data is used). Every count another thread reads to decide that
results are ready goes through a release and an acquire: x86 orders plain stores anyway,
arm64 does not.
"""

from libc.stdint cimport int64_t

cdef extern from *:
    """
    /* Claim `step` items of a batch from a counter shared by the worker threads: returns
       the counter's value before the addition, atomically (relaxed order: the counter
       only hands out indices; the results are published by the threads' join). */
    #if defined(_MSC_VER)
    #include <intrin.h>
    #define sudoku_fast_claim(counter, step) \
        _InterlockedExchangeAdd64((volatile __int64 *)(counter), (__int64)(step))
    #else
    #define sudoku_fast_claim(counter, step) \
        __atomic_fetch_add((counter), (step), __ATOMIC_RELAXED)
    #endif
    """
    int64_t sudoku_fast_claim(int64_t *counter, int64_t step) nogil

cdef extern from *:
    """
    /* Add `step` to a count of work done, after the work's results are written (release
       order: a thread that reads the count with sudoku_fast_published sees them). */
    #if defined(_MSC_VER)
    #include <intrin.h>
    #define sudoku_fast_tally(counter, step) \
        ((void)_InterlockedExchangeAdd64((volatile __int64 *)(counter), (__int64)(step)))
    #else
    #define sudoku_fast_tally(counter, step) \
        ((void)__atomic_fetch_add((counter), (step), __ATOMIC_RELEASE))
    #endif
    """
    void sudoku_fast_tally(int64_t *counter, int64_t step) nogil

cdef extern from *:
    """
    /* A count one thread publishes and others read: a release store after the data it
       covers is written, an acquire load before that data is used. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    #define sudoku_fast_publish(counter, value) \
        ((void)_InterlockedExchange64((volatile __int64 *)(counter), (__int64)(value)))
    #define sudoku_fast_published(counter) \
        ((int64_t)_InterlockedOr64((volatile __int64 *)(counter), 0))
    #else
    #define sudoku_fast_publish(counter, value) \
        __atomic_store_n((counter), (value), __ATOMIC_RELEASE)
    #define sudoku_fast_published(counter) __atomic_load_n((counter), __ATOMIC_ACQUIRE)
    #endif
    """
    void sudoku_fast_publish(int64_t *counter, int64_t value) nogil
    int64_t sudoku_fast_published(int64_t *counter) nogil
