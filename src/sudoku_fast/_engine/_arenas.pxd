# cython: language_level=3
"""Memory for Python's object allocator, faulted in by threads that do not hold the GIL.

A batch that returns a list of strings makes one `str` per puzzle, with the GIL held.
Python's small-object allocator (pymalloc) carves them out of 1 MiB arenas it maps
from the operating system as it needs them, and the first write to each page of a new
arena is a page fault: on the development VM that made a string cost 75-115 ns instead
of about 25 ns, nearly all of it on the one thread that holds the GIL.

An ArenaPool moves those faults to the batch's other threads. Before the strings are
made, every worker thread takes arenas of the pool to fill (`pool_fill`, without the
GIL): it asks Python's own arena allocator for one and writes to each of its pages.
Then, for the stretch in which the strings are made (GIL held, no Python code running),
the pool is installed as Python's arena allocator (`pool_serve`): each arena pymalloc
asks for is taken from the pool, already in memory, and anything else goes to the
allocator that was in place. `pool_return` gives the arenas nobody took back to that
allocator, and `pool_release` frees the pool. Arenas handed out are freed by pymalloc later, through whatever allocator is
installed then; they came from the same one, so they go back where they came from.

The pool does nothing where pymalloc does not use arenas this way: free-threaded
builds (no GIL, another allocator), and processes that asked for another allocator
(PYTHONMALLOC=malloc). If pymalloc asks for another size than the pool's, it gets its
arena from the allocator in place and the pool is left unused.
"""

from libc.stdint cimport int64_t

from sudoku_fast._engine._atomic cimport sudoku_fast_claim

cdef extern from *:
    """
    #include <Python.h>
    #include <stdlib.h>
    #if defined(_WIN32)
    #include <windows.h>
    #else
    #include <sched.h>
    #include <sys/mman.h>
    #endif
    /* Arenas of Python's allocator, filled ahead by worker threads (see _arenas.pxd). */
    typedef struct {
        PyObjectArenaAllocator original;  /* the arena allocator the pool draws on */
        void **slots;     /* filled arenas; NULL once handed out (or if allocation failed) */
        size_t size;      /* bytes per arena */
        int64_t count;    /* arenas in the pool */
        int64_t claimed;  /* arenas a thread has taken to fill (atomic) */
        int64_t filled;   /* arenas filled (atomic, release order) */
        int64_t served;   /* arenas handed to Python (GIL held) */
    } sudoku_fast_ArenaPool;

    static int sudoku_fast_pool_enabled(void) {
    #if defined(Py_GIL_DISABLED)
        return 0;
    #else
        return 1;
    #endif
    }

    /* Fill arenas of the pool until none is left to claim (any thread, no GIL). */
    static void sudoku_fast_pool_fill(sudoku_fast_ArenaPool *pool) {
        int64_t i;
        size_t offset;
        char *arena;
        if (pool == NULL) return;
        while ((i = sudoku_fast_claim(&pool->claimed, 1)) < pool->count) {
            arena = (char *)pool->original.alloc(pool->original.ctx, pool->size);
            if (arena != NULL) {
                int populated = 0;
    #if defined(MADV_POPULATE_WRITE)
                /* One call faults the whole range in (Linux 5.14+); else page by page. */
                populated = madvise(arena, pool->size, MADV_POPULATE_WRITE) == 0;
    #endif
                for (offset = 0; !populated && offset < pool->size; offset += 4096) {
                    ((volatile char *)arena)[offset] = 0;  /* fresh memory: zero already */
                }
            }
            pool->slots[i] = arena;
    #if defined(_MSC_VER)
            _InterlockedExchangeAdd64((volatile __int64 *)&pool->filled, 1);
    #else
            __atomic_fetch_add(&pool->filled, 1, __ATOMIC_RELEASE);
    #endif
        }
    }

    /* Help fill the pool, then wait until every arena of it is filled (no GIL). */
    static void sudoku_fast_pool_wait(sudoku_fast_ArenaPool *pool) {
        int spins = 0;
        if (pool == NULL) return;
        sudoku_fast_pool_fill(pool);
    #if defined(_MSC_VER)
        while (_InterlockedOr64((volatile __int64 *)&pool->filled, 0) < pool->count) {
            if (++spins > 64) SwitchToThread(); else YieldProcessor();
        }
    #else
        while (__atomic_load_n(&pool->filled, __ATOMIC_ACQUIRE) < pool->count) {
            if (++spins > 64) sched_yield();
    #if defined(__x86_64__) || defined(__i386__)
            else __builtin_ia32_pause();
    #endif
        }
    #endif
    }

    /* Python's arena allocator while the pool serves (ctx is the pool; GIL held). */
    static void *sudoku_fast_pool_alloc(void *ctx, size_t size) {
        sudoku_fast_ArenaPool *pool = (sudoku_fast_ArenaPool *)ctx;
        void *arena;
        while (size == pool->size && pool->served < pool->count) {
            arena = pool->slots[pool->served];
            pool->slots[pool->served++] = NULL;
            if (arena != NULL) return arena;
        }
        return pool->original.alloc(pool->original.ctx, size);
    }

    static void sudoku_fast_pool_free(void *ctx, void *ptr, size_t size) {
        sudoku_fast_ArenaPool *pool = (sudoku_fast_ArenaPool *)ctx;
        pool->original.free(pool->original.ctx, ptr, size);
    }

    /* A pool of `count` arenas of `size` bytes on the arena allocator in place now;
       NULL where pools are disabled or memory is short (GIL held). */
    static sudoku_fast_ArenaPool *sudoku_fast_pool_new(int64_t count, size_t size) {
        sudoku_fast_ArenaPool *pool;
        if (!sudoku_fast_pool_enabled() || count <= 0 || size == 0) return NULL;
        pool = (sudoku_fast_ArenaPool *)calloc(1, sizeof(sudoku_fast_ArenaPool));
        if (pool == NULL) return NULL;
        pool->slots = (void **)calloc((size_t)count, sizeof(void *));
        if (pool->slots == NULL) {
            free(pool);
            return NULL;
        }
        PyObject_GetArenaAllocator(&pool->original);
        pool->size = size;
        pool->count = count;
        return pool;
    }

    /* Install the pool as Python's arena allocator; `saved` gets the one in place. 1 if
       installed, 0 if that is no longer the allocator the pool draws on (GIL held). */
    static int sudoku_fast_pool_serve(sudoku_fast_ArenaPool *pool,
                                      PyObjectArenaAllocator *saved) {
        PyObjectArenaAllocator mine;
        if (pool == NULL) return 0;
        PyObject_GetArenaAllocator(saved);
        if (saved->ctx != pool->original.ctx || saved->alloc != pool->original.alloc
                || saved->free != pool->original.free) {
            return 0;
        }
        mine.ctx = pool;
        mine.alloc = sudoku_fast_pool_alloc;
        mine.free = sudoku_fast_pool_free;
        PyObject_SetArenaAllocator(&mine);
        return 1;
    }

    static void sudoku_fast_pool_unserve(PyObjectArenaAllocator *saved) {
        PyObject_SetArenaAllocator(saved);
    }

    /* Python's arena allocator now, as three addresses: context, alloc, free. */
    static void sudoku_fast_arena_allocator(size_t *out) {
        PyObjectArenaAllocator now;
        PyObject_GetArenaAllocator(&now);
        out[0] = (size_t)now.ctx;
        out[1] = (size_t)now.alloc;
        out[2] = (size_t)now.free;
    }

    /* Arenas the pool handed to Python so far. */
    static int64_t sudoku_fast_pool_served(const sudoku_fast_ArenaPool *pool) {
        return pool == NULL ? 0 : pool->served;
    }

    /* Give the arenas nobody took back to the allocator they came from (once no
       thread fills the pool any more: after sudoku_fast_pool_wait, or once the batch's
       threads have returned). */
    static void sudoku_fast_pool_return(sudoku_fast_ArenaPool *pool) {
        int64_t i;
        if (pool == NULL) return;
        for (i = 0; i < pool->count; i++) {
            if (pool->slots[i] != NULL) {
                pool->original.free(pool->original.ctx, pool->slots[i], pool->size);
                pool->slots[i] = NULL;
            }
        }
    }

    /* Return what is left and free the pool (once the batch's threads have returned). */
    static void sudoku_fast_pool_release(sudoku_fast_ArenaPool *pool) {
        if (pool == NULL) return;
        sudoku_fast_pool_return(pool);
        free(pool->slots);
        free(pool);
    }
    """
    ctypedef struct ArenaPool "sudoku_fast_ArenaPool":
        pass
    ctypedef struct ArenaAllocator "PyObjectArenaAllocator":
        pass
    bint pool_enabled "sudoku_fast_pool_enabled" () noexcept nogil
    ArenaPool *pool_new "sudoku_fast_pool_new" (int64_t count, size_t size) noexcept
    void pool_fill "sudoku_fast_pool_fill" (ArenaPool *pool) noexcept nogil
    void pool_wait "sudoku_fast_pool_wait" (ArenaPool *pool) noexcept nogil
    bint pool_serve "sudoku_fast_pool_serve" (ArenaPool *pool, ArenaAllocator *saved) noexcept
    void pool_unserve "sudoku_fast_pool_unserve" (ArenaAllocator *saved) noexcept
    int64_t pool_served "sudoku_fast_pool_served" (const ArenaPool *pool) noexcept
    void arena_allocator "sudoku_fast_arena_allocator" (size_t *out) noexcept
    void pool_return "sudoku_fast_pool_return" (ArenaPool *pool) noexcept nogil
    void pool_release "sudoku_fast_pool_release" (ArenaPool *pool) noexcept nogil
