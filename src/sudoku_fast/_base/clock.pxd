# cython: language_level=3
"""The clocks of per-puzzle times: the monotonic wall clock and the thread's CPU time.

A puzzle's time should not grow when the machine is busy and the thread is preempted (a
wall clock then reports a scheduler slice of milliseconds for a puzzle of microseconds),
so the time that counts is the CPU time of the thread that solved it. POSIX has it as
CLOCK_THREAD_CPUTIME_ID (Linux, macOS 10.12+, the BSDs), but on Linux reading it is a
system call (about 1.2 us on the 2-core development VM, against 0.05 us for the
monotonic clock), which would double the time of `solve_stats` on the easiest sets.
So the engines time each puzzle with the clock their caller picks (`cpu_clock`), and
batch.py times a chunk with the wall clock first and solves it again with the CPU clock
only when the chunk's puzzle times add up to more than the CPU time its thread spent,
that is, when the thread was preempted during a puzzle (see `batch._timed`).

Windows has no fine-grained thread CPU clock (GetThreadTimes advances in scheduler
ticks of about 15.6 ms and QueryThreadCycleTime counts cycles at a varying frequency),
so there, as on any platform without CLOCK_THREAD_CPUTIME_ID, the "CPU" clock is the
wall clock and CPU_CLOCK is 0.
"""

cdef extern from *:
    """
    #if defined(_WIN32)
    #include <windows.h>
    #define SUDOKU_FAST_CPU_CLOCK 0
    static long long sudoku_fast_wall_nanos(void) {
        LARGE_INTEGER count, freq;
        QueryPerformanceCounter(&count);
        QueryPerformanceFrequency(&freq);
        return (long long)((double)count.QuadPart * 1e9 / (double)freq.QuadPart);
    }
    static long long sudoku_fast_thread_nanos(void) { return sudoku_fast_wall_nanos(); }
    #else
    #include <time.h>
    static long long sudoku_fast_read_clock(clockid_t clock) {
        struct timespec ts;
        clock_gettime(clock, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    }
    static long long sudoku_fast_wall_nanos(void) {
        return sudoku_fast_read_clock(CLOCK_MONOTONIC);
    }
    #if defined(CLOCK_THREAD_CPUTIME_ID)
    #define SUDOKU_FAST_CPU_CLOCK 1
    static long long sudoku_fast_thread_nanos(void) {
        return sudoku_fast_read_clock(CLOCK_THREAD_CPUTIME_ID);
    }
    #else
    #define SUDOKU_FAST_CPU_CLOCK 0
    static long long sudoku_fast_thread_nanos(void) { return sudoku_fast_wall_nanos(); }
    #endif
    #endif
    """
    # Nanoseconds of the monotonic wall clock; of the calling thread's CPU time.
    long long wall_nanos "sudoku_fast_wall_nanos" () nogil
    long long thread_nanos "sudoku_fast_thread_nanos" () nogil
    # 1 when thread_nanos is a thread CPU clock, 0 when it falls back to wall time.
    const int CPU_CLOCK "SUDOKU_FAST_CPU_CLOCK"


cdef inline long long clock_nanos(bint cpu) noexcept nogil:
    """The thread's CPU time when `cpu`, else the wall clock, in nanoseconds."""
    return thread_nanos() if cpu else wall_nanos()


cdef inline long long measurement_overhead(bint cpu) noexcept nogil:
    """The least interval two back-to-back readings of a clock show (of 8 tries)."""
    cdef long long best = -1, first, second
    cdef int i
    for i in range(8):
        first = clock_nanos(cpu)
        second = clock_nanos(cpu)
        if best < 0 or second - first < best:
            best = second - first
    return best


cdef inline long long elapsed(long long start, long long overhead, bint cpu) noexcept nogil:
    """Nanoseconds since `start` on the clock, less the reading overhead, never negative."""
    cdef long long interval = clock_nanos(cpu) - start - overhead
    return interval if interval > 0 else 0
