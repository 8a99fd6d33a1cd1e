# cython: language_level=3
"""The clock of per-puzzle times: CPU time of the calling thread, in nanoseconds.

Thread CPU time counts only the time the thread actually ran, so a puzzle's time does not
grow when the machine is busy and the thread is preempted (a wall clock would report a
scheduler slice of milliseconds for a puzzle of microseconds). POSIX has it as
CLOCK_THREAD_CPUTIME_ID (Linux, macOS 10.12+, the BSDs). On Linux reading it is a system
call (about 1.2 us on the 2-core development VM, against 0.05 us for the monotonic clock),
so `measurement_overhead` gives the least time two back-to-back readings show, and the
engines subtract it from every interval they measure. Windows has no fine-grained thread
CPU clock (GetThreadTimes advances in scheduler ticks of about 15.6 ms and
QueryThreadCycleTime counts cycles at a varying frequency), so there the monotonic wall
clock is used, as on any platform without CLOCK_THREAD_CPUTIME_ID.
"""

cdef extern from *:
    """
    #if defined(_WIN32)
    #include <windows.h>
    #define SUDOKU_FAST_CPU_CLOCK 0
    static long long sudoku_fast_thread_nanos(void) {
        LARGE_INTEGER count, freq;
        QueryPerformanceCounter(&count);
        QueryPerformanceFrequency(&freq);
        return (long long)((double)count.QuadPart * 1e9 / (double)freq.QuadPart);
    }
    #else
    #include <time.h>
    #if defined(CLOCK_THREAD_CPUTIME_ID)
    #define SUDOKU_FAST_CPU_CLOCK 1
    #define SUDOKU_FAST_CLOCK CLOCK_THREAD_CPUTIME_ID
    #else
    #define SUDOKU_FAST_CPU_CLOCK 0
    #define SUDOKU_FAST_CLOCK CLOCK_MONOTONIC
    #endif
    static long long sudoku_fast_thread_nanos(void) {
        struct timespec ts;
        clock_gettime(SUDOKU_FAST_CLOCK, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    }
    #endif
    """
    # Nanoseconds of the calling thread's CPU time (wall time where there is none).
    long long thread_nanos "sudoku_fast_thread_nanos" () nogil
    # 1 when thread_nanos is a thread CPU clock, 0 when it falls back to wall time.
    const int CPU_CLOCK "SUDOKU_FAST_CPU_CLOCK"


cdef inline long long measurement_overhead() noexcept nogil:
    """The least interval two back-to-back `thread_nanos` readings show (of 8 tries)."""
    cdef long long best = -1, first, second
    cdef int i
    for i in range(8):
        first = thread_nanos()
        second = thread_nanos()
        if best < 0 or second - first < best:
            best = second - first
    return best


cdef inline long long elapsed(long long start, long long overhead) noexcept nogil:
    """Nanoseconds since `start`, less the reading overhead, never negative."""
    cdef long long interval = thread_nanos() - start - overhead
    return interval if interval > 0 else 0
