# cython: language_level=3
# Every other directive (boundscheck, wraparound, cdivision, initializedcheck) is set once
# for all modules in setup.py, where SUDOKU_FAST_DEBUG=1 turns the checks back on.
"""The 9x9 engine: constraint propagation and search on per-digit band bitboards.

The state keeps, for every digit and every band of three rows, a 27-bit mask of the
cells where the digit is still possible (bit 9*row + column). This "digit x band" view
makes the Sudoku rules cheap word operations:

* Within a band a digit occupies exactly one cell per row and one per box, so the 3x3
  pattern of (row, box) pairs that still hold candidates must contain a permutation.
  A table indexed by that 9-bit pattern keeps exactly the pairs used by some permutation:
  one lookup does pointing and claiming inside the band, finds rows and boxes left with
  no place (contradiction), and hidden singles in boxes.
* A row with one candidate left places the digit: its column is cleared in the other
  rows and bands, and the cell is cleared for the other eight digits.
* Naked singles (cells with one digit left) and empty cells come from bit-sliced counts
  over the nine digit masks of a band; hidden singles in columns from counts over bands.

Puzzles still wide open when those rules stall (at least WIDE_OPEN cells unsolved at
the first guess) are the hard ones, and their whole search works harder per node:
* one more rule, the rule of triads, looks across digits: the three cells a row (or
  column) shares with a box hold three different digits, so exactly three digits can
  reach such a triad, and each of the digits that must take it counts towards those
  three. A digit's (row, box) patterns in the three bands and its (band, column) patterns
  in the three stacks fit one 64-bit word, and bit-sliced counters over the nine digits
  give every triad's counts at once;
* the search branches on a digit left two permutations in a band or a stack (two ways
  to take one pair per row and box, or per band and column), in the band or stack with
  the fewest permutations over its digits: each branch fixes three of the digit's
  triads at once, and the tree of such a puzzle has about a third fewer guesses than
  one branching on cells. The same words count the permutations, six bit-parallel
  products each.
Other puzzles guess on a cell with two candidates (the fewest possible), else on the cell
with the fewest. Each branch is tried on a copy of the 228-byte state, on an explicit
stack. The same search counts solutions up to a limit.

Everything below `solve_range` runs without the GIL and without Python objects; the
tables are filled once at import and only read afterwards. The search called from
Python polls a stop flag, and in the main thread Python's signal handlers, every
POLL_EVERY nodes (see _stop.pxd), so Ctrl-C interrupts even one long puzzle;
`solve_grid`, the entry point for C callers, polls nothing.
"""

from cpython.unicode cimport (
    Py_UCS1,
    PyUnicode_1BYTE_DATA,
    PyUnicode_New,
)
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_FromStringAndSize
cimport cython
from cpython cimport array as carray
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF, PyObject
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from sudoku_fast._engine._arenas cimport (
    ArenaAllocator,
    arena_allocator,
    ArenaPool,
    pool_enabled,
    pool_fill,
    pool_new,
    pool_release,
    pool_return,
    pool_serve,
    pool_served,
    pool_unserve,
    pool_wait,
)
from sudoku_fast._engine._atomic cimport (
    sudoku_fast_claim,
    sudoku_fast_publish,
    sudoku_fast_published,
    sudoku_fast_tally,
)
from sudoku_fast._engine._plain cimport encode_plain
from sudoku_fast._base.clock cimport CPU_CLOCK, clock_nanos, elapsed, measurement_overhead
from sudoku_fast._base.stop cimport (
    Stop,
    flag_raise,
    flag_set,
    poll,
    raise_saved,
    signals_due,
    stop_init,
)

import array as pyarray
import os
import sys
import threading

cdef extern from *:
    """
    /* Index of the lowest set bit (x != 0): one instruction on every compiler. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static CYTHON_INLINE int sudoku_fast_lowest_bit(unsigned int x) {
        unsigned long index;
        _BitScanForward(&index, x);
        return (int)index;
    }
    #else
    #define sudoku_fast_lowest_bit(x) __builtin_ctz(x)
    #endif

    /* Bits set in x. Portable builds (wheels) cannot assume the POPCNT instruction and
       count with shifts and masks; a build for a CPU that has it (SUDOKU_FAST_NATIVE=1)
       uses it. */
    #if defined(__POPCNT__)
    #define sudoku_fast_popcount64(x) __builtin_popcountll(x)
    #else
    static CYTHON_INLINE int sudoku_fast_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    int sudoku_fast_lowest_bit(unsigned int x) nogil
    int sudoku_fast_popcount64(unsigned long long x) nogil

cdef extern from *:
    """
    /* Bit i set where a[i] != b[i], for i < 27. SSE2 is part of x86-64 (every wheel
       has it): four words (or sixteen bytes) per compare; elsewhere one at a time
       (also where SUDOKU_FAST_NO_SIMD is defined: to check those plain C paths on x86). */
    #if !defined(SUDOKU_FAST_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
    #include <emmintrin.h>
    static CYTHON_INLINE unsigned int sudoku_fast_differ27(const uint32_t *a, const uint32_t *b) {
        unsigned int same = 0;
        int i;
        for (i = 0; i < 24; i += 4) {
            __m128i eq = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + i)),
                                         _mm_loadu_si128((const __m128i *)(b + i)));
            same |= (unsigned int)_mm_movemask_ps(_mm_castsi128_ps(eq)) << i;
        }
        {   /* words 23-26: the last four, one of them already compared */
            __m128i eq = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + 23)),
                                         _mm_loadu_si128((const __m128i *)(b + 23)));
            same |= (unsigned int)_mm_movemask_ps(_mm_castsi128_ps(eq)) << 23;
        }
        return ~same & 0x7FFFFFFu;
    }
    /* Bit k set where row[k] != 0, for k < 27: two overlapping 16-byte compares. */
    static CYTHON_INLINE unsigned int sudoku_fast_nonzero27(const uint8_t *row) {
        __m128i zero = _mm_setzero_si128();
        unsigned int low = (unsigned int)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)row), zero));
        unsigned int high = (unsigned int)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(row + 11)), zero));
        return ~(low | (high << 11)) & 0x7FFFFFFu;
    }
    /* Over the nine digit words of a band: the cells that at least one digit (`once`)
       and at least two digits (`twice`) may take. Eight words in two vectors, folded
       pairwise across lanes (a cell is in `twice` if two lanes hold it, or one lane's
       `twice` does), then the ninth word. */
    static CYTHON_INLINE void sudoku_fast_band_counts(const uint32_t *cand, uint32_t *once,
                                                      uint32_t *twice) {
        __m128i a = _mm_loadu_si128((const __m128i *)cand);
        __m128i b = _mm_loadu_si128((const __m128i *)(cand + 4));
        __m128i t = _mm_and_si128(a, b), o = _mm_or_si128(a, b), r;
        unsigned int folded_once, folded_twice;
        r = _mm_shuffle_epi32(o, 0x4E);  /* lanes 2, 3, 0, 1 */
        t = _mm_or_si128(_mm_or_si128(t, _mm_shuffle_epi32(t, 0x4E)), _mm_and_si128(o, r));
        o = _mm_or_si128(o, r);
        r = _mm_shuffle_epi32(o, 0xB1);  /* lanes 1, 0, 3, 2 */
        t = _mm_or_si128(_mm_or_si128(t, _mm_shuffle_epi32(t, 0xB1)), _mm_and_si128(o, r));
        o = _mm_or_si128(o, r);
        folded_once = (unsigned int)_mm_cvtsi128_si32(o);
        folded_twice = (unsigned int)_mm_cvtsi128_si32(t);
        *twice = folded_twice | (folded_once & cand[8]);
        *once = folded_once | cand[8];
    }
    #else
    static CYTHON_INLINE void sudoku_fast_band_counts(const uint32_t *cand, uint32_t *once,
                                                      uint32_t *twice) {
        uint32_t seen = 0, again = 0;
        int digit;
        for (digit = 0; digit < 9; digit++) {
            again |= seen & cand[digit];
            seen |= cand[digit];
        }
        *once = seen;
        *twice = again;
    }
    static CYTHON_INLINE unsigned int sudoku_fast_differ27(const uint32_t *a, const uint32_t *b) {
        unsigned int differ = 0;
        int i;
        for (i = 0; i < 27; i++) differ |= (unsigned int)(a[i] != b[i]) << i;
        return differ;
    }
    static CYTHON_INLINE unsigned int sudoku_fast_nonzero27(const uint8_t *row) {
        unsigned int nonzero = 0;
        int k;
        for (k = 0; k < 27; k++) nonzero |= (unsigned int)(row[k] != 0) << k;
        return nonzero;
    }
    #endif
    """
    uint32_t sudoku_fast_differ27(const uint32_t *a, const uint32_t *b) nogil
    uint32_t sudoku_fast_nonzero27(const uint8_t *row) nogil
    void sudoku_fast_band_counts(const uint32_t *cand, uint32_t *once, uint32_t *twice) nogil

cdef extern from *:
    """
    /* Word operations on several digits at once: lanes of 32-bit words in the widest
       vectors the build assumes (AVX2: 8; x86-64's SSE2: 4), one plain word elsewhere
       (and where SUDOKU_FAST_NO_SIMD is defined). A rule written with them visits the
       nine digits of a band in passes over overlapping runs (LANES_STARTS): one that
       reads and writes only each digit's own words, and changes nothing when applied
       twice, gives the same board however often it sees a digit. */
    #if !defined(SUDOKU_FAST_NO_SIMD) && defined(__AVX2__)
    #include <immintrin.h>
    typedef __m256i lanes;
    static const int LANES_STARTS[] = {0, 1};
    #define lanes_load(p) _mm256_loadu_si256((const __m256i *)(p))
    #define lanes_store(p, v) _mm256_storeu_si256((__m256i *)(p), v)
    #define lanes_set1(x) _mm256_set1_epi32((int)(x))
    #define lanes_and(a, b) _mm256_and_si256(a, b)
    #define lanes_or(a, b) _mm256_or_si256(a, b)
    #define lanes_andnot(a, b) _mm256_andnot_si256(a, b)  /* ~a & b */
    #define lanes_srl(v, n) _mm256_srli_epi32(v, n)
    #define lanes_sll(v, n) _mm256_slli_epi32(v, n)
    #define lanes_differ(a, b) (_mm256_movemask_epi8(_mm256_cmpeq_epi32(a, b)) != -1)
    #elif !defined(SUDOKU_FAST_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
    #include <emmintrin.h>
    typedef __m128i lanes;
    static const int LANES_STARTS[] = {0, 4, 5};
    #define lanes_load(p) _mm_loadu_si128((const __m128i *)(p))
    #define lanes_store(p, v) _mm_storeu_si128((__m128i *)(p), v)
    #define lanes_set1(x) _mm_set1_epi32((int)(x))
    #define lanes_and(a, b) _mm_and_si128(a, b)
    #define lanes_or(a, b) _mm_or_si128(a, b)
    #define lanes_andnot(a, b) _mm_andnot_si128(a, b)
    #define lanes_srl(v, n) _mm_srli_epi32(v, n)
    #define lanes_sll(v, n) _mm_slli_epi32(v, n)
    #define lanes_differ(a, b) (_mm_movemask_epi8(_mm_cmpeq_epi32(a, b)) != 0xFFFF)
    #else
    typedef uint32_t lanes;
    static const int LANES_STARTS[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    #define lanes_load(p) (*(p))
    #define lanes_store(p, v) (*(p) = (v))
    #define lanes_set1(x) ((uint32_t)(x))
    #define lanes_and(a, b) ((a) & (b))
    #define lanes_or(a, b) ((a) | (b))
    #define lanes_andnot(a, b) (~(a) & (b))
    #define lanes_srl(v, n) ((v) >> (n))
    #define lanes_sll(v, n) ((v) << (n))
    #define lanes_differ(a, b) ((a) != (b))
    #endif
    #define LANES_PASSES ((int)(sizeof(LANES_STARTS) / sizeof(LANES_STARTS[0])))
    /* (m & a) | (~m & b) */
    #define lanes_blend(m, a, b) lanes_or(lanes_and(m, a), lanes_andnot(m, b))
    /* The same 9-bit mask in each of three groups, at bits 0, 9 and 18. */
    #define IN_EACH_GROUP(x) ((uint32_t)(x) * 0x40201u)

    /* Bit 9i + 3j + c <-> bit 9j + 3i + c (i, j, c < 3): a 3x3 transpose of 3-bit groups. */
    static CYTHON_INLINE lanes lanes_transpose3(lanes x) {
        lanes moved = lanes_or(lanes_sll(lanes_and(x, lanes_set1(0x38038)), 6),
                               lanes_and(lanes_srl(x, 6), lanes_set1(0x38038)));
        moved = lanes_or(moved, lanes_sll(lanes_and(x, lanes_set1(0x1C0)), 12));
        moved = lanes_or(moved, lanes_and(lanes_srl(x, 12), lanes_set1(0x1C0)));
        return lanes_or(moved, lanes_and(x, lanes_set1(0x7007007)));
    }

    /* Three 3x3 patterns (bits 9g + 3r + c) each cut to the pairs some permutation of
       it uses, without a table: pair (r, c) stays when the 2x2 minor its row and column
       leave holds a permutation of its own, (r+1, c+1) and (r+2, c+2) or (r+1, c+2) and
       (r+2, c+1), indices mod 3. Rows and columns turn within their group by a shift
       each way and a blend. */
    static CYTHON_INLINE lanes lanes_permutation_pairs(lanes p) {
        const lanes rows01 = lanes_set1(IN_EACH_GROUP(0x3F)), row0 = lanes_set1(IN_EACH_GROUP(0x7));
        const lanes cols01 = lanes_set1(IN_EACH_GROUP(0xDB)), col0 = lanes_set1(IN_EACH_GROUP(0x49));
        lanes r1 = lanes_blend(rows01, lanes_srl(p, 3), lanes_sll(p, 6));  /* row r+1 at r */
        lanes r2 = lanes_blend(row0, lanes_srl(p, 6), lanes_sll(p, 3));    /* row r+2 at r */
        lanes r1c1 = lanes_blend(cols01, lanes_srl(r1, 1), lanes_sll(r1, 2));
        lanes r1c2 = lanes_blend(col0, lanes_srl(r1, 2), lanes_sll(r1, 1));
        lanes r2c1 = lanes_blend(cols01, lanes_srl(r2, 1), lanes_sll(r2, 2));
        lanes r2c2 = lanes_blend(col0, lanes_srl(r2, 2), lanes_sll(r2, 1));
        return lanes_and(p, lanes_or(lanes_and(r1c1, r2c2), lanes_and(r1c2, r2c1)));
    }

    /* The columns holding a candidate in each band word, as a 9-bit set. */
    static CYTHON_INLINE lanes lanes_columns(lanes w) {
        return lanes_and(lanes_or(lanes_or(w, lanes_srl(w, 9)), lanes_srl(w, 18)), lanes_set1(0x1FF));
    }

    /* A 9-bit column set in all three rows of a band word. */
    static CYTHON_INLINE lanes lanes_repeat_rows(lanes c) {
        return lanes_or(lanes_or(c, lanes_sll(c, 9)), lanes_sll(c, 18));
    }

    /* The stack rules (see stack_rules) for the nine digits: -1 on a contradiction, 1 if
       a candidate went, 0 if none did. A digit's three stack patterns share one word: its
       column sets of the three bands side by side, transposed. */
    static CYTHON_INLINE int lanes_stack_rules(uint32_t *cand) {
        int pass, result = 0;
        for (pass = 0; pass < LANES_PASSES; pass++) {
            uint32_t *at = cand + LANES_STARTS[pass];
            lanes w0 = lanes_load(at), w1 = lanes_load(at + 9), w2 = lanes_load(at + 18);
            lanes pattern = lanes_transpose3(lanes_or(
                lanes_or(lanes_columns(w0), lanes_sll(lanes_columns(w1), 9)),
                lanes_sll(lanes_columns(w2), 18)));
            lanes usable = lanes_permutation_pairs(pattern), folded, gone;
            if (!lanes_differ(usable, pattern)) continue;
            /* A stack with no permutation left has no pair left: fold each group onto
               its lowest bit, which must then be set in all three. */
            folded = lanes_or(usable, lanes_srl(usable, 1));
            folded = lanes_or(folded, lanes_srl(folded, 2));
            folded = lanes_or(lanes_or(folded, lanes_srl(folded, 4)), lanes_srl(usable, 8));
            if (lanes_differ(lanes_and(folded, lanes_set1(0x40201)), lanes_set1(0x40201))) {
                return -1;
            }
            gone = lanes_transpose3(lanes_andnot(usable, pattern));  /* 9 * band + column */
            w0 = lanes_andnot(lanes_repeat_rows(lanes_and(gone, lanes_set1(0x1FF))), w0);
            w1 = lanes_andnot(lanes_repeat_rows(lanes_and(lanes_srl(gone, 9), lanes_set1(0x1FF))), w1);
            w2 = lanes_andnot(lanes_repeat_rows(lanes_srl(gone, 18)), w2);
            lanes_store(at, w0);
            lanes_store(at + 9, w1);
            lanes_store(at + 18, w2);
            result = 1;
        }
        return result;
    }
    """
    int lanes_stack_rules(uint32_t *cand) nogil


cdef extern from *:
    """
    /* The AVX-512 build's propagation: every rule on every digit-band at once, in waves.

       The board stays in three 512-bit registers, one per band, digit d in lane d (lanes
       9-15 zero). A wave applies, in order:
       - the band rules to all 27 digit-bands: a digit's (row, box) triads cut to those
         some permutation uses (the table-free test of lanes_permutation_pairs, on the
         triads' first cells), its candidates to the cells of those triads;
       - hidden singles in rows: a cell a digit has alone in its row is taken from every
         other digit (a cell two digits each have alone in a row keeps both: a
         contradiction, caught by the count that follows);
       - naked singles: per band, the cells one digit (once) and two digits (twice) may
         take, folded across the lanes; a cell left with one digit takes that digit out
         of the rest of its row (its box and column follow from the band and stack rules
         of the next wave), two such cells of one digit in a row are a contradiction, a
         cell with none is one;
       - the stack rules (as lanes_stack_rules), on the nine digits at once.
       Waves repeat until one changes nothing. The board they stop at is the one the
       other builds' rules (naked_singles, band_rules, stack_rules, run one after the
       other) stop at, as every rule only removes candidates and each is applied until
       none applies, so the search, its guesses and its answers are the same; each wave
       is a few hundred vector operations with two branches, where the rules one after
       the other take a branch, often mispredicted, per single placed and per word
       changed.

       Ternary logic: the first operand is the 0xF0 column of the truth table, the
       second 0xCC, the third 0xAA. */
    #if !defined(SUDOKU_FAST_NO_SIMD) && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
    #include <immintrin.h>
    #define WAVES 1
    typedef __m512i wave_vec;
    #define WAVE_LANES ((__mmask16)0x1FF)   /* the nine digits */
    #define wv_set1(x) _mm512_set1_epi32((int)(x))
    #define wv_and(a, b) _mm512_and_si512(a, b)
    #define wv_or(a, b) _mm512_or_si512(a, b)
    #define wv_andnot(a, b) _mm512_andnot_si512(a, b)   /* ~a & b */
    #define wv_srl(v, n) _mm512_srli_epi32(v, n)
    #define wv_sll(v, n) _mm512_slli_epi32(v, n)
    #define wv_sub(a, b) _mm512_sub_epi32(a, b)
    #define wv_or3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0xFE)
    #define wv_blend(m, a, b) _mm512_ternarylogic_epi32(m, a, b, 0xCA)      /* m ? a : b */
    #define wv_and_or(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0xEA)     /* (a & b) | c */
    #define wv_keep_not(w, x, y) _mm512_ternarylogic_epi32(w, x, y, 0xB0)   /* w & ~(x & ~y) */
    #define wv_differ(a, b) _mm512_mask_cmpneq_epi32_mask(WAVE_LANES, a, b)

    /* Each lane's (row, box) triads cut to those some permutation uses, the lane's
       candidates to their cells. Triad (r, k) is bit 9r + 3k, its first cell. A lane left
       with no permutation is marked in *fail. */
    static CYTHON_INLINE wave_vec wv_band_rules(wave_vec s, __mmask16 *fail) {
        const wave_vec boxes01 = wv_set1(0x9 * 0x40201), box0 = wv_set1(0x40201);
        wave_vec p = wv_and(wv_or3(s, wv_srl(s, 1), wv_srl(s, 2)), wv_set1(0x1249249));
        wave_vec r1 = wv_or(wv_srl(p, 9), wv_sll(p, 18));   /* row r+1 at row r */
        wave_vec r2 = wv_or(wv_srl(p, 18), wv_sll(p, 9));   /* row r+2 at row r */
        wave_vec r1c1 = wv_blend(boxes01, wv_srl(r1, 3), wv_sll(r1, 6));
        wave_vec r1c2 = wv_blend(box0, wv_srl(r1, 6), wv_sll(r1, 3));
        wave_vec r2c1 = wv_blend(boxes01, wv_srl(r2, 3), wv_sll(r2, 6));
        wave_vec r2c2 = wv_blend(box0, wv_srl(r2, 6), wv_sll(r2, 3));
        wave_vec usable = wv_and(p, wv_and_or(r1c1, r2c2, wv_and(r1c2, r2c1)));
        *fail |= _mm512_testn_epi32_mask(usable, usable);
        return wv_and(s, wv_or3(usable, wv_sll(usable, 1), wv_sll(usable, 2)));
    }

    /* Which lanes have a bit in row 0, 1, 2 of x: one mask test each (a fold by shifts
       would load the one port that shifts 512-bit registers). */
    #define WV_ROW0 wv_set1(0x1FF)
    #define WV_ROW1 wv_set1(0x1FF << 9)
    #define WV_ROW2 wv_set1(0x1FF << 18)

    /* The candidates each lane has alone in their row. Every row of every lane holds a
       candidate here (its triads hold a permutation), so subtracting 1 from each row
       clears the row's lowest candidate and borrows nothing from the next row; a row
       with a candidate left then has two or more. */
    static CYTHON_INLINE wave_vec wv_alone_in_row(wave_vec w) {
        wave_vec rest = wv_and(w, wv_sub(w, wv_set1(0x40201)));
        w = _mm512_mask_andnot_epi32(w, _mm512_test_epi32_mask(rest, WV_ROW0), WV_ROW0, w);
        w = _mm512_mask_andnot_epi32(w, _mm512_test_epi32_mask(rest, WV_ROW1), WV_ROW1, w);
        return _mm512_mask_andnot_epi32(w, _mm512_test_epi32_mask(rest, WV_ROW2), WV_ROW2, w);
    }

    /* Bits set in any of the sixteen lanes, in every lane. */
    static CYTHON_INLINE wave_vec wv_fold_any(wave_vec x) {
        x = wv_or(x, _mm512_shuffle_i32x4(x, x, 0x4E));
        x = wv_or(x, _mm512_shuffle_i32x4(x, x, 0xB1));
        x = wv_or(x, _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4E));
        return wv_or(x, _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0xB1));
    }

    /* Bits set in at least one (*once) and at least two (*twice) of the sixteen lanes,
       in every lane: pairs of lanes, then pairs of pairs, ... */
    static CYTHON_INLINE void wv_fold_count(wave_vec x, wave_vec *once, wave_vec *twice) {
        wave_vec o = x, t, r;
        r = _mm512_shuffle_i32x4(o, o, 0x4E);
        t = wv_and(o, r);
        o = wv_or(o, r);
        r = _mm512_shuffle_i32x4(o, o, 0xB1);
        t = wv_or3(t, _mm512_shuffle_i32x4(t, t, 0xB1), wv_and(o, r));
        o = wv_or(o, r);
        r = _mm512_shuffle_epi32(o, (_MM_PERM_ENUM)0x4E);
        t = wv_or3(t, _mm512_shuffle_epi32(t, (_MM_PERM_ENUM)0x4E), wv_and(o, r));
        o = wv_or(o, r);
        r = _mm512_shuffle_epi32(o, (_MM_PERM_ENUM)0xB1);
        t = wv_or3(t, _mm512_shuffle_epi32(t, (_MM_PERM_ENUM)0xB1), wv_and(o, r));
        *once = wv_or(o, r);
        *twice = t;
    }

    /* One band after its band rules, given what each digit has alone in a row: those
       cells are taken from the other digits, then the naked singles' rows are cleared.
       *unsolved gets the cells with two digits or more. */
    static CYTHON_INLINE wave_vec wv_singles(wave_vec w, wave_vec alone, __mmask16 *fail,
                                             wave_vec *unsolved) {
        wave_vec placed = wv_fold_any(alone), once, twice, single, g;
        __mmask16 rows0, rows1, rows2;
        w = wv_keep_not(w, placed, alone);
        wv_fold_count(w, &once, &twice);
        /* a cell left empty, or one that two digits each have alone (it kept both) */
        *fail |= _mm512_mask_cmpneq_epi32_mask(1, once, wv_set1(0x7FFFFFF))
            | _mm512_mask_test_epi32_mask(1, placed, twice);
        single = wv_and(w, wv_andnot(twice, once));
        rows0 = _mm512_test_epi32_mask(single, WV_ROW0);
        rows1 = _mm512_test_epi32_mask(single, WV_ROW1);
        rows2 = _mm512_test_epi32_mask(single, WV_ROW2);
        /* two single cells of one digit in a row: subtracting 1 from the row leaves one */
        g = _mm512_maskz_mov_epi32(rows0, wv_set1(1));
        g = _mm512_mask_or_epi32(g, rows1, g, wv_set1(1 << 9));
        g = _mm512_mask_or_epi32(g, rows2, g, wv_set1(1 << 18));
        *fail |= _mm512_mask_test_epi32_mask(WAVE_LANES, single, wv_sub(single, g));
        *unsolved = twice;
        w = _mm512_mask_ternarylogic_epi32(w, rows0, WV_ROW0, single, 0xB0);
        w = _mm512_mask_ternarylogic_epi32(w, rows1, WV_ROW1, single, 0xB0);
        return _mm512_mask_ternarylogic_epi32(w, rows2, WV_ROW2, single, 0xB0);
    }

    /* lanes_transpose3 with blends: bit 9i + 3j + c <-> bit 9j + 3i + c. */
    static CYTHON_INLINE wave_vec wv_transpose3(wave_vec x) {
        wave_vec t = wv_blend(wv_set1(0x38038), wv_srl(x, 6), wv_and(wv_sll(x, 12), wv_set1(0x1C0000)));
        t = wv_blend(wv_set1(0xE00E00), wv_sll(x, 6), t);
        t = wv_blend(wv_set1(0x1C0), wv_srl(x, 12), t);
        return wv_blend(wv_set1(0x7007007), x, t);
    }

    /* lanes_permutation_pairs with blends. */
    static CYTHON_INLINE wave_vec wv_permutation_pairs(wave_vec p) {
        const wave_vec rows01 = wv_set1(IN_EACH_GROUP(0x3F)), row0 = wv_set1(IN_EACH_GROUP(0x7));
        const wave_vec cols01 = wv_set1(IN_EACH_GROUP(0xDB)), col0 = wv_set1(IN_EACH_GROUP(0x49));
        wave_vec r1 = wv_blend(rows01, wv_srl(p, 3), wv_sll(p, 6));
        wave_vec r2 = wv_blend(row0, wv_srl(p, 6), wv_sll(p, 3));
        wave_vec r1c1 = wv_blend(cols01, wv_srl(r1, 1), wv_sll(r1, 2));
        wave_vec r1c2 = wv_blend(col0, wv_srl(r1, 2), wv_sll(r1, 1));
        wave_vec r2c1 = wv_blend(cols01, wv_srl(r2, 1), wv_sll(r2, 2));
        wave_vec r2c2 = wv_blend(col0, wv_srl(r2, 2), wv_sll(r2, 1));
        return wv_and(p, wv_and_or(r1c1, r2c2, wv_and(r1c2, r2c1)));
    }

    static CYTHON_INLINE wave_vec wv_columns(wave_vec w) {
        return wv_and(wv_or3(w, wv_srl(w, 9), wv_srl(w, 18)), wv_set1(0x1FF));
    }

    static CYTHON_INLINE wave_vec wv_repeat_rows(wave_vec c) {
        return wv_or3(c, wv_sll(c, 9), wv_sll(c, 18));
    }

    /* Waves from the board in w0-w2 to a fixed point, written to cand (27 words) and
       unsolved (3): -1 on a contradiction, else 1 if every cell has one digit left (a
       solution), 0 if not. */
    static int waves_run(wave_vec w0, wave_vec w1, wave_vec w2, uint32_t *cand,
                         uint32_t *unsolved) {
        /* The band rules and the rows' singles go lane by lane: they run on the 27 words
           packed into two registers (band 0 and band 1's digits 0-6; band 1's digits 7-8
           and band 2) rather than three of nine lanes each. */
        const wave_vec pack_low = _mm512_set_epi32(22, 21, 20, 19, 18, 17, 16, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        const wave_vec pack_high = _mm512_set_epi32(0, 0, 0, 0, 0, 24, 23, 22, 21, 20, 19, 18, 17, 16, 8, 7);
        const wave_vec band1 = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 17, 16, 15, 14, 13, 12, 11, 10, 9);
        const wave_vec band2 = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 10, 9, 8, 7, 6, 5, 4, 3, 2);
        wave_vec u0, u1, u2;
        int first = 1;
        for (;;) {
            wave_vec s0 = w0, s1 = w1, s2 = w2, low, high, alone_low, alone_high;
            wave_vec pattern, usable;
            __mmask16 fail = 0, fail_high = 0, changed;
            low = _mm512_permutex2var_epi32(w0, pack_low, w1);
            high = _mm512_maskz_permutex2var_epi32((__mmask16)0x7FF, w1, pack_high, w2);
            low = wv_band_rules(low, &fail);
            high = wv_band_rules(high, &fail_high);
            if (fail | (fail_high & 0x7FF)) return -1;
            alone_low = wv_alone_in_row(low);
            alone_high = wv_alone_in_row(high);
            w0 = _mm512_maskz_mov_epi32(WAVE_LANES, low);
            w1 = _mm512_maskz_permutex2var_epi32(WAVE_LANES, low, band1, high);
            w2 = _mm512_maskz_permutexvar_epi32(WAVE_LANES, band2, high);
            w0 = wv_singles(w0, _mm512_maskz_mov_epi32(WAVE_LANES, alone_low), &fail, &u0);
            w1 = wv_singles(w1, _mm512_maskz_permutex2var_epi32(WAVE_LANES, alone_low, band1,
                                                                 alone_high), &fail, &u1);
            w2 = wv_singles(w2, _mm512_maskz_permutexvar_epi32(WAVE_LANES, band2, alone_high),
                            &fail, &u2);
            if (fail) return -1;
            changed = wv_differ(w0, s0) | wv_differ(w1, s1) | wv_differ(w2, s2);
            /* Unchanged since the stack rules last held: they hold still. */
            if (!changed && !first) break;
            first = 0;
            pattern = wv_transpose3(wv_or3(wv_columns(w0), wv_sll(wv_columns(w1), 9),
                                           wv_sll(wv_columns(w2), 18)));
            usable = wv_permutation_pairs(pattern);
            if (wv_differ(usable, pattern)) {
                wave_vec gone = wv_transpose3(wv_andnot(usable, pattern));
                /* a stack with no permutation left has no pair left */
                if (_mm512_mask_testn_epi32_mask(WAVE_LANES, usable, WV_ROW0)
                    | _mm512_mask_testn_epi32_mask(WAVE_LANES, usable, WV_ROW1)
                    | _mm512_mask_testn_epi32_mask(WAVE_LANES, usable, WV_ROW2)) return -1;
                w0 = wv_andnot(wv_repeat_rows(wv_and(gone, wv_set1(0x1FF))), w0);
                w1 = wv_andnot(wv_repeat_rows(wv_and(wv_srl(gone, 9), wv_set1(0x1FF))), w1);
                w2 = wv_andnot(wv_repeat_rows(wv_srl(gone, 18)), w2);
                changed = 1;
            }
            if (!changed) break;
        }
        /* w0 spills zeros over band 1's first words, which w1 then writes. */
        _mm512_storeu_si512(cand, w0);
        _mm512_storeu_si512(cand + 9, w1);
        _mm512_mask_storeu_epi32(cand + 18, WAVE_LANES, w2);
        unsolved[0] = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(u0));
        unsolved[1] = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(u1));
        unsolved[2] = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(u2));
        return (unsolved[0] | unsolved[1] | unsolved[2]) == 0;
    }

    /* The waves from a puzzle's clues (81 digits 0-9, 0 = empty), written to cand and
       unsolved; `ruled_out_digit` (1-9) is taken from the empty cell `ruled_out_cell`
       (-1: none). The board is built in the registers: each digit's clues of a band
       are one byte compare of the band's 27 cells, a digit loses the rows and boxes of
       its clues in their band and their columns everywhere, and every other digit the
       clue cells. Clues that clash (a digit twice in a unit) are left for the waves to
       find: two cells with one digit in a row, or a row, box or column with none. */
    static int waves_puzzle(const uint8_t *puzzle, int ruled_out_cell, int ruled_out_digit,
                            uint32_t *cand, uint32_t *unsolved) {
        const wave_vec rows[3] = {WV_ROW0, WV_ROW1, WV_ROW2};
        wave_vec given[3], columns[3], all_columns, w[3];
        uint32_t open[3];
        int band, digit, i;
        for (band = 0; band < 3; band++) {
            __m256i cells = _mm256_maskz_loadu_epi8((__mmask32)0x7FFFFFF, puzzle + 27 * band);
            given[band] = _mm512_setzero_si512();
            for (digit = 0; digit < 9; digit++) {
                __mmask32 at = _mm256_cmpeq_epi8_mask(cells, _mm256_set1_epi8((char)(digit + 1)));
                given[band] = _mm512_mask_set1_epi32(given[band], (__mmask16)(1u << digit),
                                                     (int)_cvtmask32_u32(at));
            }
            open[band] = (uint32_t)_cvtmask32_u32(
                _mm256_cmpeq_epi8_mask(cells, _mm256_setzero_si256())) & 0x7FFFFFF;
            columns[band] = wv_columns(given[band]);
        }
        all_columns = wv_repeat_rows(wv_or3(columns[0], columns[1], columns[2]));
        for (band = 0; band < 3; band++) {
            wave_vec seen = all_columns;
            for (i = 0; i < 3; i++) {
                /* the rows and boxes holding one of the digit's clues */
                seen = _mm512_mask_or_epi32(seen, _mm512_test_epi32_mask(given[band], rows[i]),
                                            seen, rows[i]);
                seen = _mm512_mask_or_epi32(
                    seen, _mm512_test_epi32_mask(columns[band], wv_set1(7u << (3 * i))),
                    seen, wv_set1(IN_EACH_GROUP(7u << (3 * i))));
            }
            /* (open cells the digit's clues do not see) and its clues */
            w[band] = _mm512_maskz_ternarylogic_epi32(WAVE_LANES, wv_set1(open[band]), seen,
                                                      given[band], 0xBA);
        }
        if (ruled_out_cell >= 0) {
            band = ruled_out_cell / 27;
            w[band] = _mm512_mask_andnot_epi32(
                w[band], (__mmask16)(1u << (ruled_out_digit - 1)),
                wv_set1(1u << (ruled_out_cell - 27 * band)), w[band]);
        }
        return waves_run(w[0], w[1], w[2], cand, unsolved);
    }

    /* The waves from a board (27 words at cand), in place. */
    static int waves(uint32_t *cand, uint32_t *unsolved) {
        return waves_run(_mm512_maskz_loadu_epi32(WAVE_LANES, cand),
                         _mm512_maskz_loadu_epi32(WAVE_LANES, cand + 9),
                         _mm512_maskz_loadu_epi32(WAVE_LANES, cand + 18), cand, unsolved);
    }

    /* The waves from a parent board with a branch taken: the digit's words of the three
       bands ANDed with masks[0..2] and, in band `band` (0-2; 3: none), the other digits'
       words without `cell`. The child's board is written to cand and unsolved: no copy
       of the parent, which is only read. */
    static int waves_from(const uint32_t *parent, uint32_t *cand, uint32_t *unsolved,
                          int digit, const uint32_t *masks, int band, uint32_t cell) {
        __mmask16 lane = (__mmask16)(1u << digit);
        __mmask16 others = (__mmask16)(WAVE_LANES & ~(1u << digit));
        wave_vec w[3];
        int i;
        for (i = 0; i < 3; i++) {
            w[i] = _mm512_maskz_loadu_epi32(WAVE_LANES, parent + 9 * i);
            w[i] = _mm512_mask_and_epi32(w[i], lane, w[i], wv_set1(masks[i]));
        }
        if (band < 3) w[band] = _mm512_mask_andnot_epi32(w[band], others, wv_set1(cell), w[band]);
        return waves_run(w[0], w[1], w[2], cand, unsolved);
    }
    #else
    #define WAVES 0
    static int waves_puzzle(const uint8_t *puzzle, int ruled_out_cell, int ruled_out_digit,
                            uint32_t *cand, uint32_t *unsolved) {
        (void)puzzle; (void)ruled_out_cell; (void)ruled_out_digit; (void)cand; (void)unsolved;
        return -1;
    }
    static int waves(uint32_t *cand, uint32_t *unsolved) {
        (void)cand; (void)unsolved;
        return -1;
    }
    static int waves_from(const uint32_t *parent, uint32_t *cand, uint32_t *unsolved,
                          int digit, const uint32_t *masks, int band, uint32_t cell) {
        (void)parent; (void)cand; (void)unsolved; (void)digit; (void)masks; (void)band;
        (void)cell;
        return -1;
    }
    #endif
    """
    int WAVES
    int waves(uint32_t *cand, uint32_t *unsolved) nogil
    int waves_puzzle(
        const uint8_t *puzzle, int ruled_out_cell, int ruled_out_digit, uint32_t *cand,
        uint32_t *unsolved
    ) nogil
    int waves_from(
        const uint32_t *parent, uint32_t *cand, uint32_t *unsolved, int digit,
        const uint32_t *masks, int band, uint32_t cell
    ) nogil


# A triad_rules word: six 3x3 patterns of 9 bits, at bits 0, 9, 18, 32, 41, 50.
cdef uint64_t ALL_TRIADS = 0x7FFFFFF07FFFFFF
cdef uint64_t PATTERN_LOW = 0x4020100040201    # the lowest bit of each pattern of a word
cdef uint64_t TRIAD_AT_0 = 0x124924901249249     # first pair of each row of each pattern
cdef uint64_t TRIAD_AT_01 = 0x36DB6DB036DB6DB
cdef uint64_t TRIAD_AT_12 = 0x6DB6DB606DB6DB6
cdef uint64_t TRIAD_AT_2 = 0x492492404924924
cdef uint64_t TRIAD_ROWS_0 = 0x1C0E07001C0E07     # first row of each pattern
cdef uint64_t TRIAD_ROWS_01 = 0xFC7E3F00FC7E3F
cdef uint64_t TRIAD_ROWS_12 = 0x7E3F1F807E3F1F8
cdef uint64_t TRIAD_ROWS_2 = 0x70381C0070381C0

cdef extern from *:
    """
    /* Ask the kernel to back a large buffer with huge pages where it can (Linux with
       transparent huge pages in "madvise" mode; elsewhere nothing). A buffer's pages
       are first touched by the threads that write it, and faulting in 2 MiB pages
       instead of 4 KiB ones costs a fraction (81 MB: 12 against 51 ms), and fewer
       faults contend less in one process's address space. Only the page-aligned
       interior of the buffer is advised; an error leaves the buffer as it was. */
    #if defined(__linux__)
    #include <sys/mman.h>
    #include <unistd.h>
    static void sudoku_fast_advise_huge(char *start, Py_ssize_t size) {
    #ifdef MADV_HUGEPAGE
        long page = sysconf(_SC_PAGESIZE);
        if (page <= 0 || size <= 0) return;
        uintptr_t mask = (uintptr_t)page - 1;
        uintptr_t first = ((uintptr_t)start + mask) & ~mask;
        uintptr_t last = ((uintptr_t)start + (uintptr_t)size) & ~mask;
        if (last > first) (void)madvise((void *)first, last - first, MADV_HUGEPAGE);
    #else
        (void)start; (void)size;
    #endif
    }
    #else
    static void sudoku_fast_advise_huge(char *start, Py_ssize_t size) { (void)start; (void)size; }
    #endif
    """
    void sudoku_fast_advise_huge(char *start, Py_ssize_t size) nogil

cdef extern from *:
    """
    /* Raise a shared maximum to `value` (release order on success, as a tally: read with
       an acquire load once the threads have left). */
    #if defined(_MSC_VER)
    static void sudoku_fast_raise_max(int64_t *target, int64_t value) {
        int64_t seen = *(volatile int64_t *)target;
        while (seen < value) {
            int64_t before = _InterlockedCompareExchange64(
                (volatile __int64 *)target, (__int64)value, (__int64)seen);
            if (before == seen) break;
            seen = before;
        }
    }
    #else
    static void sudoku_fast_raise_max(int64_t *target, int64_t value) {
        int64_t seen = __atomic_load_n(target, __ATOMIC_RELAXED);
        while (seen < value && !__atomic_compare_exchange_n(
                   target, &seen, value, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
        }
    }
    #endif
    /* A hint to start loading memory a loop will read soon; nothing where unsupported. */
    #if defined(__GNUC__) || defined(__clang__)
    #define sudoku_fast_prefetch(address) __builtin_prefetch((const void *)(address))
    #else
    #define sudoku_fast_prefetch(address) ((void)(address))
    #endif
    """
    void sudoku_fast_raise_max(int64_t *target, int64_t value) nogil
    void sudoku_fast_prefetch(const void *address) nogil

cdef extern from *:
    """
    /* A short wait in a spin loop, and giving the core to another thread. */
    #if defined(_MSC_VER)
    #include <windows.h>
    #define sudoku_fast_pause() YieldProcessor()
    #define sudoku_fast_yield() ((void)SwitchToThread())
    #else
    #include <sched.h>
    #if defined(__x86_64__) || defined(__i386__)
    #define sudoku_fast_pause() __builtin_ia32_pause()
    #else
    #define sudoku_fast_pause() ((void)0)
    #endif
    #define sudoku_fast_yield() ((void)sched_yield())
    #endif
    """
    void sudoku_fast_pause() nogil
    void sudoku_fast_yield() nogil

cdef extern from *:
    """
    /* Write one byte per 4 KB page of a fresh buffer, so that the page faults of its
       first use are taken here (by a thread not holding the GIL) instead. */
    static void sudoku_fast_touch_pages(unsigned char *start, Py_ssize_t size) {
        Py_ssize_t offset;
        for (offset = 0; offset < size; offset += 4096) {
            ((volatile unsigned char *)start)[offset] = 0;
        }
    }
    """
    void sudoku_fast_touch_pages(uint8_t *start, Py_ssize_t size) nogil

cdef extern from "Python.h":
    # The sequence protocol's view of a list's item array, and the data of a compact
    # one-byte string, as plain C accessors on borrowed pointers.
    PyObject **PySequence_Fast_ITEMS(object o)
    Py_UCS1 *string_bytes "PyUnicode_1BYTE_DATA" (PyObject *o) nogil
    void PyObject_GC_Track(object o)
    void PyObject_GC_UnTrack(object o)
    void decref "Py_DECREF" (PyObject *o)
    const Py_ssize_t PY_SSIZE_T_MAX

cdef enum:
    CELLS = 81
    BANDS = 3
    DIGIT_BANDS = 27        # band * 9 + digit
    ROW_BITS = 0x1FF        # one row of a band
    BAND_BITS = 0x7FFFFFF   # the 27 cells of a band
    REPEAT_ROWS = 0x40201   # times a 9-bit row pattern: the same columns in all 3 rows
    NOT_A_CELL = 0x80       # char_value of a character that is not a plain cell
    FAILED = -1             # a rule found a contradiction
    UNCHANGED = 0
    CHANGED = 1
    COUNT_STOPPED = -2      # counts[i] of a puzzle abandoned at a stop request
    POLL_EVERY = 1024       # search nodes between looks at the stop flag and at signals
    WIDE_OPEN = 48          # unsolved cells at the first guess that make a puzzle hard
    SCORE_FROM = 44         # unsolved cells from which a node's branch cell is scored
    SOLVE_LIST_LOOK = 16    # puzzles of solve_list between two looks at that clock
    # How long a helper done with a batch waits for the lead to take the GIL back
    # (wait_lead_back): a few microseconds when the threads finish together.
    LEAD_BACK_WAIT_NANOS = 200000
    # Result strings made between two publications of their count (SolutionTexts).
    MAKE_BLOCK = 256
    # Batches from this many result strings (two arenas and more) have the memory for
    # them faulted in by all their threads first (see _arenas.pxd).
    PREFAULT_FROM = 16384
    # Items ahead of the one being read whose memory a pass over a batch asks for.
    PREFETCH_AHEAD = 8
    # Uninitialised buffers from this size up are advised to use huge pages (4 MiB: two
    # huge pages at least, so that one lies wholly inside whatever the allocator gives).
    HUGE_BUFFER = 4194304

STOPPED = COUNT_STOPPED
THREAD_CPU_CLOCK = CPU_CLOCK != 0  # False where the "CPU" clock is the wall clock

# Python's small-object allocator on 64-bit CPython 3.10 and later (Objects/obmalloc.c):
# 1 MiB arenas of 16 KiB pools, each pool with a 48-byte header, blocks in multiples of
# 16 bytes; an arena can lose a pool to alignment. It is in use unless the process
# asked for another allocator.
cdef size_t ARENA_BYTES = 1 << 20
cdef Py_ssize_t STRINGS_PER_ARENA = (
    (16384 - 48) // ((sys.getsizeof("1" * CELLS) + 15) // 16 * 16) * 63
)
# Never on free-threaded builds (pool_enabled): their allocator is mimalloc.
cdef bint prefault_arenas = (
    pool_enabled()
    and sys.maxsize > 2**32
    and os.environ.get("PYTHONMALLOC", "") in ("", "default", "debug", "pymalloc", "pymalloc_debug")
)
PREFAULT_ARENAS = prefault_arenas  # whether large batches of strings use an ArenaPool
PREFAULT_STRINGS_FROM = PREFAULT_FROM  # from how many strings a batch uses one


def arena_allocator_now():
    """Python's arena allocator, as (context, alloc, free) addresses: to check that a
    batch leaves it as it found it."""
    cdef size_t parts[3]
    arena_allocator(parts)
    return (parts[0], parts[1], parts[2])

# Tables, filled once at import and read-only afterwards.
cdef uint32_t row_info[512]          # 9-bit row -> bits 0-2: boxes holding candidates,
                                     #   bit 3: exactly one candidate
cdef uint32_t band_patterns[512]     # (row, box) pattern -> the band cells still usable
cdef uint32_t pattern_cells[512]     # (row, box) pattern -> the band cells of its pairs
cdef uint32_t first_permutation[512] # 3x3 pattern -> the pairs of the first permutation
cdef uint32_t second_permutation[512] #   it contains, and of the second (0 if none)
cdef uint32_t rows_cells[8]          # 3-bit set of rows -> their 27-bit cell mask
cdef uint32_t peers_in_band[27]      # cell bit -> its row, column and box in the band
cdef uint32_t column_in_band[27]     # cell bit -> its column in a band (all 3 rows)
cdef uint8_t bit_count[512]
cdef uint8_t char_value[256]         # '1'-'9' -> 1-9, '.' and '0' -> 0, others NOT_A_CELL
cdef uint8_t value_char[256]         # 1-9 -> '1'-'9', 0 -> '.', others '?'
cdef int next_band[4]                # next_band[b], next_band[b + 1]: the two other bands


cdef struct Board:
    uint32_t cand[DIGIT_BANDS]      # band * 9 + digit -> cells where the digit may go
    uint32_t settled[DIGIT_BANDS]   # cand as it was when the band rules last ran on it
    uint32_t unsolved[BANDS]        # cells without a placed digit


# Outcome (count, guesses, nodes of one solve) is declared in _core.pxd, with solve_grid.


cdef void build_tables() noexcept:
    cdef int v, k, r, c, p, pattern
    cdef uint32_t pairs
    # The six ways to give each of 3 rows (or bands) its own box (or column).
    cdef int perms[6][3]
    perms[0][:] = [0, 1, 2]
    perms[1][:] = [0, 2, 1]
    perms[2][:] = [1, 0, 2]
    perms[3][:] = [1, 2, 0]
    perms[4][:] = [2, 0, 1]
    perms[5][:] = [2, 1, 0]
    for v in range(512):
        row_info[v] = 0
        bit_count[v] = 0
        for k in range(9):
            if v & (1 << k):
                bit_count[v] += 1
        for k in range(3):
            if v & (7 << (3 * k)):
                row_info[v] |= 1u << k
        if bit_count[v] == 1:
            row_info[v] |= 8
    for pattern in range(512):
        band_patterns[pattern] = 0
        first_permutation[pattern] = 0
        second_permutation[pattern] = 0
        for p in range(6):
            if all(pattern & (1 << (3 * r + perms[p][r])) for r in range(3)):
                pairs = 0
                for r in range(3):
                    pairs |= 1u << (3 * r + perms[p][r])
                    band_patterns[pattern] |= 7u << (9 * r + 3 * perms[p][r])
                if first_permutation[pattern] == 0:
                    first_permutation[pattern] = pairs
                elif second_permutation[pattern] == 0:
                    second_permutation[pattern] = pairs
    for pattern in range(512):
        pattern_cells[pattern] = 0
        for p in range(9):
            if pattern & (1 << p):
                r = p // 3
                c = p % 3
                pattern_cells[pattern] |= 7u << (9 * r + 3 * c)
    for v in range(8):
        rows_cells[v] = 0
        for r in range(3):
            if v & (1 << r):
                rows_cells[v] |= (<uint32_t>ROW_BITS) << (9 * r)
    for v in range(256):
        char_value[v] = NOT_A_CELL
        value_char[v] = ord("?")
    char_value[ord(".")] = 0
    char_value[ord("0")] = 0
    value_char[0] = ord(".")
    for v in range(1, 10):
        char_value[ord("0") + v] = v
        value_char[v] = ord("0") + v
    next_band[0] = 1
    next_band[1] = 2
    next_band[2] = 0
    next_band[3] = 1
    for k in range(27):
        r = k // 9
        c = k % 9
        column_in_band[k] = (1u << c) * REPEAT_ROWS
        peers_in_band[k] = ((<uint32_t>ROW_BITS) << (9 * r)) | column_in_band[k] \
            | ((7u << (3 * (c // 3))) * REPEAT_ROWS)
        peers_in_band[k] &= ~(1u << k)


build_tables()


cdef inline bint place(Board *b, int band, int digit, uint32_t cell_bit) noexcept nogil:
    """Put the digit in the cell: clear the cell for the other digits and the digit from
    the cell's row, column and box. False if the digit is no longer possible there."""
    cdef int i = band * 9 + digit, k, other
    cdef uint32_t *cand = &b.cand[band * 9]
    if not (b.cand[i] & cell_bit):
        return False
    k = sudoku_fast_lowest_bit(cell_bit)
    for other in range(9):
        cand[other] &= ~cell_bit
    b.cand[i] = (b.cand[i] & ~peers_in_band[k]) | cell_bit
    b.cand[next_band[band] * 9 + digit] &= ~column_in_band[k]
    b.cand[next_band[band + 1] * 9 + digit] &= ~column_in_band[k]
    b.unsolved[band] &= ~cell_bit
    return True


cdef inline bint place_single(Board *b, int band, int digit, uint32_t cell_bit) noexcept nogil:
    """`place` for a cell whose only candidate is the digit (a naked single): no other
    digit has the cell, so only the digit's peers are cleared. False if the digit is no
    longer possible there either (a placement made since took it: the cell is empty)."""
    cdef int i = band * 9 + digit, k
    if not (b.cand[i] & cell_bit):
        return False
    k = sudoku_fast_lowest_bit(cell_bit)
    b.cand[i] = (b.cand[i] & ~peers_in_band[k]) | cell_bit
    b.cand[next_band[band] * 9 + digit] &= ~column_in_band[k]
    b.cand[next_band[band + 1] * 9 + digit] &= ~column_in_band[k]
    b.unsolved[band] &= ~cell_bit
    return True


cdef inline uint32_t cell_digits(const Board *b, int band, int k) noexcept nogil:
    """The candidates of cell k of a band, as a 9-bit digit mask."""
    cdef uint32_t mask = 0
    cdef int digit
    for digit in range(9):
        mask |= ((b.cand[band * 9 + digit] >> k) & 1) << digit
    return mask


cdef int naked_singles(Board *b) noexcept nogil:
    """Place every cell that has one digit left; FAILED if some cell has none."""
    cdef int band, digit, k
    cdef uint32_t once, twice, singles, any_single = 0, empty = 0
    cdef uint32_t band_singles[BANDS]
    cdef uint32_t index0, index1, index2, index3  # bit j of the (only) digit's index
    cdef const uint32_t *cand
    for band in range(BANDS):
        sudoku_fast_band_counts(&b.cand[band * 9], &once, &twice)
        empty |= b.unsolved[band] & ~once
        band_singles[band] = once & ~twice & b.unsolved[band]
        any_single |= band_singles[band]
    if empty:
        return FAILED
    if any_single == 0:
        return UNCHANGED
    for band in range(BANDS):
        singles = band_singles[band]
        if singles == 0:
            continue
        cand = &b.cand[band * 9]
        index0 = cand[1] | cand[3] | cand[5] | cand[7]
        index1 = cand[2] | cand[3] | cand[6] | cand[7]
        index2 = cand[4] | cand[5] | cand[6] | cand[7]
        index3 = cand[8]
        while singles:
            k = sudoku_fast_lowest_bit(singles)
            singles &= singles - 1
            digit = <int>(((index0 >> k) & 1) | (((index1 >> k) & 1) << 1)
                          | (((index2 >> k) & 1) << 2) | (((index3 >> k) & 1) << 3))
            # A placement made above may have taken this cell's last digit: it fails.
            if not place_single(b, band, digit, 1u << k):
                return FAILED
    return CHANGED


cdef int band_rules(Board *b) noexcept nogil:
    """The per-digit band rules, on every digit-band changed since they last ran on it.

    Within a band a digit takes exactly one cell per row and per box, so the 3x3 pattern
    of (row, box) pairs holding candidates must contain a permutation; a table keeps the
    pairs some permutation uses. That one lookup does pointing and claiming in the band,
    hidden singles in boxes, and finds rows or boxes with no place left. A row left with
    one candidate places the digit there (hidden single in the row).
    """
    cdef int i, band, digit, result = UNCHANGED
    cdef uint32_t s, kept, top, mid, low, singles, cell_bit
    cdef uint32_t todo = sudoku_fast_differ27(b.cand, b.settled)
    while todo:
        i = sudoku_fast_lowest_bit(todo)
        todo &= todo - 1
        s = b.cand[i]
        band = i // 9
        digit = i - 9 * band
        while True:
            top = row_info[s & ROW_BITS]
            mid = row_info[(s >> 9) & ROW_BITS]
            low = row_info[s >> 18]
            # The table keeps what some permutation uses: applying it twice changes nothing.
            kept = s & band_patterns[(top & 7) | ((mid & 7) << 3) | ((low & 7) << 6)]
            if kept != s:
                if kept == 0:
                    return FAILED
                s = kept
                b.cand[i] = s
                result = CHANGED
                top = row_info[s & ROW_BITS]
                mid = row_info[(s >> 9) & ROW_BITS]
                low = row_info[s >> 18]
            singles = s & rows_cells[(top >> 3) | ((mid >> 3) << 1) | ((low >> 3) << 2)] \
                & b.unsolved[band]
            if singles == 0:
                break
            while singles:
                cell_bit = singles & (~singles + 1)
                singles ^= cell_bit
                if not place(b, band, digit, cell_bit):
                    return FAILED
            result = CHANGED
            s = b.cand[i]
        b.settled[i] = s
    return result


cdef inline int stack_rules(Board *b) noexcept nogil:
    """The band rules turned sideways, for every digit and stack of three columns.

    A digit takes exactly one cell in each column and each box of a stack, so the 3x3
    pattern of (band, column) pairs holding candidates must contain a permutation. Pairs
    used by no permutation are cleared: pointing and claiming between boxes and columns,
    and hidden singles in columns (the band rules then place them). Several digits at a
    time where the build has vectors (see lanes_stack_rules); the hard sets took about
    3% less time than with a table lookup per digit and stack.
    """
    return lanes_stack_rules(b.cand)


cdef inline uint64_t swap_bands_stacks(uint64_t x) noexcept nogil:
    """Bit 9*i + 3*j + c -> bit 9*j + 3*i + c (i, j, c < 3): a 3x3 transpose of 3-bit groups
    (of the low 27 bits; in 64 bits, as the words of triad_rules are)."""
    return (x & 0x7007007) | ((x & 0x38038) << 6) | ((x >> 6) & 0x38038) \
        | ((x & 0x1C0) << 12) | ((x >> 12) & 0x1C0)


cdef inline uint64_t forced_in(uint64_t w) noexcept nogil:
    """The pairs of each 3x3 pattern in a word (see triad_rules) alone in their row or in
    their column: bit-parallel over the six patterns."""
    cdef uint64_t in_row = ((w >> 1) & TRIAD_AT_01) | ((w >> 2) & TRIAD_AT_0) \
        | ((w << 1) & TRIAD_AT_12) | ((w << 2) & TRIAD_AT_2)
    cdef uint64_t in_column = ((w >> 3) & TRIAD_ROWS_01) | ((w >> 6) & TRIAD_ROWS_0) \
        | ((w << 3) & TRIAD_ROWS_12) | ((w << 6) & TRIAD_ROWS_2)
    return w & ~(in_row & in_column)


cdef inline uint64_t crossing(uint64_t w) noexcept nogil:
    """The pairs that share a row or a column with a pair of w, in each 3x3 pattern of a
    word (see triad_rules), w's own included."""
    return w | ((w >> 1) & TRIAD_AT_01) | ((w >> 2) & TRIAD_AT_0) \
        | ((w << 1) & TRIAD_AT_12) | ((w << 2) & TRIAD_AT_2) \
        | ((w >> 3) & TRIAD_ROWS_01) | ((w >> 6) & TRIAD_ROWS_0) \
        | ((w << 3) & TRIAD_ROWS_12) | ((w << 6) & TRIAD_ROWS_2)


cdef inline uint64_t band_triads(uint64_t s) noexcept nogil:
    """The 3x3 (row, box) pattern of a digit's candidates in a band, bit 3 * row + box:
    one bit per triad (at its first cell), then the three of each row brought together
    by one multiplication (no two partial products meet): bits 4-6, 13-15 and 22-24."""
    cdef uint64_t boxes = ((s | (s >> 1) | (s >> 2)) & 0x1249249) * 0x15
    return ((boxes >> 4) & 7) | ((boxes >> 10) & 0x38) | ((boxes >> 16) & 0x1C0)


cdef inline uint64_t triad_word(uint64_t s0, uint64_t s1, uint64_t s2) noexcept nogil:
    """A digit's six 3x3 patterns in one word (see triad_rules), from its candidates in
    the three bands. Plain 64-bit arithmetic, so that a loop over the digits runs on
    several of them at once where the build has vector instructions."""
    cdef uint64_t columns = ((s0 | (s0 >> 9) | (s0 >> 18)) & ROW_BITS) \
        | (((s1 | (s1 >> 9) | (s1 >> 18)) & ROW_BITS) << 9) \
        | (((s2 | (s2 >> 9) | (s2 >> 18)) & ROW_BITS) << 18)
    return band_triads(s0) | (band_triads(s1) << 9) | (band_triads(s2) << 18) \
        | (swap_bands_stacks(columns) << 32)


cdef int triad_rules(Board *b, uint64_t *word) noexcept nogil:
    """The rule of triads, on every band and every stack at once; across digits.

    A triad, the three cells a row shares with a box (or a column with a box), holds
    three different digits. In a band a digit's candidates make a 3x3 pattern of (row,
    box) pairs, each pair a triad; in a stack, of (band, column) pairs. Each digit's six
    patterns share one 64-bit word (bands at bits 0, 9, 18; stacks at 32, 41, 50), and
    counters sliced by bit count, over the nine digits, how many digits reach each
    triad and how many must take it:
    * a triad fewer than three digits reach is a contradiction; when exactly three do,
      all three are there, and each loses the other pairs of the triad's two lines;
    * a digit left one pair in a line of its pattern must take that triad; four such
      digits in one triad are a contradiction, three leave no room for any other.
    Called only once the per-digit rules have nothing left to do, in every node of the
    search of a hard puzzle (see `search`).

    The words, and what each digit loses, are made in loops with no dependence between
    digits, which the AVX2 build runs four digits at a time (the hard lists took about 8%
    less time than with the counters in the same loop). The words are left in `word` (nine):
    when the rule changes nothing they describe the board as it stays.
    """
    cdef uint64_t forced[9]
    cdef uint64_t lost_pairs[9]
    cdef uint64_t w, f, lost, t, kept
    cdef uint64_t reach1 = 0, reach2 = 0, reach3 = 0, reach4 = 0
    cdef uint64_t need1 = 0, need2 = 0, need3 = 0, need4 = 0, exact, full
    cdef uint32_t s, columns, gone
    cdef int digit, band, result = UNCHANGED
    for digit in range(9):
        word[digit] = triad_word(b.cand[digit], b.cand[9 + digit], b.cand[18 + digit])
        forced[digit] = forced_in(word[digit])
    for digit in range(9):
        w = word[digit]
        reach4 |= reach3 & w
        reach3 |= reach2 & w
        reach2 |= reach1 & w
        reach1 |= w
        f = forced[digit]
        need4 |= need3 & f
        need3 |= need2 & f
        need2 |= need1 & f
        need1 |= f
    if reach3 != ALL_TRIADS or need4:
        return FAILED
    exact = reach3 & ~reach4     # triads exactly three digits reach
    full = need3 & ~need4        # triads three digits must take
    if exact == 0 and full == 0:
        return UNCHANGED
    for digit in range(9):
        t = word[digit] & exact
        lost_pairs[digit] = word[digit] & ((full & ~forced[digit]) | (crossing(t) & ~t))
    for digit in range(9):
        lost = lost_pairs[digit]
        if lost == 0:
            continue
        result = CHANGED
        kept = word[digit] & ~lost
        for band in range(BANDS):
            if (lost >> (9 * band)) & ROW_BITS:
                s = b.cand[band * 9 + digit] & pattern_cells[(kept >> (9 * band)) & ROW_BITS]
                if s == 0:
                    return FAILED
                b.cand[band * 9 + digit] = s
        gone = <uint32_t>swap_bands_stacks(lost >> 32)
        for band in range(BANDS):
            columns = (gone >> (9 * band)) & ROW_BITS
            if columns:
                b.cand[band * 9 + digit] &= ~(columns * REPEAT_ROWS)
    return result


cdef inline int unsolved_cells(const Board *b) noexcept nogil:
    """How many cells have no digit placed yet."""
    return sudoku_fast_popcount64(b.unsolved[0] | (<uint64_t>b.unsolved[1] << 27)) \
        + sudoku_fast_popcount64(b.unsolved[2])


cdef inline bint is_solved(const Board *b) noexcept nogil:
    return (b.unsolved[0] | b.unsolved[1] | b.unsolved[2]) == 0


cdef void write_solution(const Board *b, uint8_t *solution) noexcept nogil:
    """The digits 1-9 of a solved board: each cell is left in one digit's mask."""
    cdef int band, digit
    cdef uint32_t w
    cdef uint8_t *row
    for band in range(BANDS):
        row = &solution[27 * band]
        for digit in range(9):
            w = b.cand[band * 9 + digit]
            # Solved: one cell per row of the band, so three bits.
            row[sudoku_fast_lowest_bit(w)] = <uint8_t>(digit + 1)
            w &= w - 1
            row[sudoku_fast_lowest_bit(w)] = <uint8_t>(digit + 1)
            w &= w - 1
            row[sudoku_fast_lowest_bit(w)] = <uint8_t>(digit + 1)


cdef bint propagate(Board *b, bint triads, uint64_t *words) noexcept nogil:
    """Run the rules to a fixed point, cheapest first. False on contradiction.

    `triads` adds the rule of triads, the one rule across digits, run last; a board it
    leaves unsolved then has its triad words in `words` (see pick_permutation_branch).
    The AVX-512 build runs the per-digit rules in waves instead (see the waves C code);
    they stop at the same board.
    """
    cdef int result
    if WAVES:
        return after_waves(b, triads, words, waves(b.cand, b.unsolved))
    while True:
        result = naked_singles(b)
        if result == FAILED:
            return False
        if is_solved(b):
            return True
        if result == CHANGED:
            continue
        result = band_rules(b)
        if result == FAILED:
            return False
        if result == CHANGED:
            continue
        result = stack_rules(b)
        if result == FAILED:
            return False
        if result == CHANGED:
            continue
        if not triads:
            return True
        result = triad_rules(b, words)
        if result == FAILED:
            return False
        if result == UNCHANGED:
            return True


cdef bint after_waves(Board *b, bint triads, uint64_t *words, int result) noexcept nogil:
    """`propagate` in the AVX-512 build, from the outcome of the waves that made b (see
    `waves`): the rule of triads where asked, and waves again after each change it makes."""
    while True:
        if result < 0:
            return False
        if result == 1 or not triads:
            return True
        result = triad_rules(b, words)
        if result == FAILED:
            return False
        if result == UNCHANGED:
            return True
        result = waves(b.cand, b.unsolved)


cdef inline bint worth_scoring(const Board *b, bint wide_open) noexcept nogil:
    """Whether pick_branch_cell should score the two-candidate cells of this node.

    Scoring pays where the tree below is large: in every node of a puzzle that was
    wide open at its first guess, and in nodes with many cells left. Elsewhere (near
    the leaves, in puzzles with many solutions) the first such cell leads to about as
    few guesses, and choosing it costs nothing: on the serg set (count to 2) the time
    falls to about 0.78 of scoring everywhere; the other sets move by 0 to +4%
    (bench/README.md, "Scoring the branch cell only where it pays").
    """
    return wide_open or unsolved_cells(b) >= SCORE_FROM


cdef int pick_branch_cell(const Board *b, uint32_t *digits, bint scored) noexcept nogil:
    """The cell to branch on, with its candidates as a digit mask; returns band * 27 + bit.

    Among cells with two candidates: with `scored`, the one whose digits appear in the
    most other two-candidate cells it sees (either choice then turns those into
    singles, so both branches propagate far); without, the first one. Without such a
    cell, a cell with the fewest candidates.
    """
    cdef int band, digit, best = -1, best_score = -1, count, k, other1, other2, d1, d2
    cdef uint32_t once, twice, thrice, w, any_pairs = 0, p, mask, column
    cdef uint32_t pairs[BANDS]
    cdef uint32_t in_pairs[DIGIT_BANDS]    # cells with two candidates, one being the digit
    cdef uint32_t column_hits
    for band in range(BANDS):
        once = 0
        twice = 0
        thrice = 0
        for digit in range(9):
            w = b.cand[band * 9 + digit]
            thrice |= twice & w
            twice |= once & w
            once |= w
        pairs[band] = twice & ~thrice & b.unsolved[band]
        if pairs[band] and not scored:
            k = sudoku_fast_lowest_bit(pairs[band])
            digits[0] = cell_digits(b, band, k)
            return band * 27 + k
        any_pairs |= pairs[band]
    if any_pairs:
        for digit in range(DIGIT_BANDS):
            in_pairs[digit] = b.cand[digit] & pairs[digit // 9]
        for band in range(BANDS):
            other1 = next_band[band] * 9
            other2 = next_band[band + 1] * 9
            p = pairs[band]
            while p:
                k = sudoku_fast_lowest_bit(p)
                p &= p - 1
                mask = cell_digits(b, band, k)
                d1 = sudoku_fast_lowest_bit(mask)
                d2 = sudoku_fast_lowest_bit(mask & (mask - 1))
                column = column_in_band[k]
                # Each term has bits only in this column (rows 0, 9, 18 after the shift):
                # their sum counts per row, and the multiply adds the three rows up.
                column_hits = (((in_pairs[other1 + d1] & column) >> (k % 9))
                               + ((in_pairs[other2 + d1] & column) >> (k % 9))
                               + ((in_pairs[other1 + d2] & column) >> (k % 9))
                               + ((in_pairs[other2 + d2] & column) >> (k % 9)))
                count = <int>(((column_hits * REPEAT_ROWS) >> 18) & ROW_BITS) + sudoku_fast_popcount64(
                    ((<uint64_t>(in_pairs[band * 9 + d1] & peers_in_band[k])) << 32)
                    | (in_pairs[band * 9 + d2] & peers_in_band[k]))
                if count > best_score:
                    best_score = count
                    best = band * 27 + k
    else:
        best_score = 10
        for band in range(BANDS):
            p = b.unsolved[band]
            while p:
                k = sudoku_fast_lowest_bit(p)
                p &= p - 1
                count = bit_count[cell_digits(b, band, k)]
                if count < best_score:
                    best_score = count
                    best = band * 27 + k
    band = best // 27
    digits[0] = cell_digits(b, band, best - 27 * band)
    return best


cdef inline uint64_t permutations_in(uint64_t w) noexcept nogil:
    """How many of the six permutations each 3x3 pattern of a word (see triad_rules)
    contains: 0-6 at the lowest bit of each pattern (bits 0, 9, 18, 32, 41, 50). A
    permutation's three pairs are bits (0, 4, 8), (0, 5, 7), (1, 3, 8), (1, 5, 6),
    (2, 3, 7) and (2, 4, 6) of its pattern; the counts cannot carry into the next one."""
    return (((w >> 0) & (w >> 4) & (w >> 8) & PATTERN_LOW)
            + ((w >> 0) & (w >> 5) & (w >> 7) & PATTERN_LOW)
            + ((w >> 1) & (w >> 3) & (w >> 8) & PATTERN_LOW)
            + ((w >> 1) & (w >> 5) & (w >> 6) & PATTERN_LOW)
            + ((w >> 2) & (w >> 3) & (w >> 7) & PATTERN_LOW)
            + ((w >> 2) & (w >> 4) & (w >> 6) & PATTERN_LOW))


cdef inline int pattern_offset(int area) noexcept nogil:
    """Where the pattern of band `area` (0-2) or stack `area` - 3 starts in a word."""
    return 9 * area + (5 if area >= 3 else 0)


cdef int pick_permutation_branch(const uint64_t *words) noexcept nogil:
    """A digit left exactly two permutations in a band or a stack, as 9 * area + digit
    (areas 0-2 the bands, 3-5 the stacks), in the area with the fewest permutations over
    all its digits (the most settled, so both branches propagate far); -1 if none.

    `words` are the board's nine triad words, as the rule of triads left them.
    """
    cdef uint64_t two[9]        # digit -> the patterns where it has exactly two
    cdef uint64_t counts, total = 0, any_two = 0, area_total, best_total = 1000
    cdef int digit, area, best = -1
    for digit in range(9):
        counts = permutations_in(words[digit])
        total += counts         # at most 9 * 6 per pattern: fits its 9 bits
        two[digit] = (counts >> 1) & ~(counts | (counts >> 2)) & PATTERN_LOW
    for digit in range(9):
        any_two |= two[digit]
    if any_two == 0:
        return -1
    for area in range(6):
        area_total = (total >> pattern_offset(area)) & ROW_BITS
        if (any_two >> pattern_offset(area)) & 1 and area_total < best_total:
            best_total = area_total
            best = area
    for digit in range(9):
        if (two[digit] >> pattern_offset(best)) & 1:
            return 9 * best + digit
    return -1


cdef void permutation_masks(
    const Board *b, int area, int digit, bint second, uint32_t *masks
) noexcept nogil:
    """What keeping only the first (or the second) of the digit's two permutations in the
    area leaves of its words: masks[band] to AND each band's word of the digit with."""
    cdef uint32_t pattern = 0, pairs, w
    cdef int band, shift
    masks[0] = masks[1] = masks[2] = BAND_BITS
    if area < 3:
        pattern = <uint32_t>band_triads(b.cand[area * 9 + digit])
        pairs = second_permutation[pattern] if second else first_permutation[pattern]
        masks[area] = pattern_cells[pairs]
    else:
        # The one stack's pattern, not the whole triad word (about 3% of the hard lists).
        shift = 3 * (area - 3)
        for band in range(BANDS):
            w = b.cand[band * 9 + digit]
            pattern |= (((w | (w >> 9) | (w >> 18)) >> shift) & 7) << (3 * band)
        pairs = second_permutation[pattern] if second else first_permutation[pattern]
        for band in range(BANDS):
            # Pair (band, c) of a stack pattern is column shift + c of that band.
            masks[band] = ~(((7 & ~(pairs >> (3 * band))) << shift) * REPEAT_ROWS)


cdef inline int pick_branch(
    const Board *b, uint32_t *rest, bint wide_open, const uint64_t *words
) noexcept nogil:
    """What the search branches on next: a cell (band * 27 + bit, `rest` its candidates as
    a digit mask) or, in a wide-open puzzle (whose `words` propagate left), -1 - (9 *
    area + digit) for a digit's two permutations (`rest` 0b11: the first, then the second)."""
    cdef int choice
    if wide_open:
        choice = pick_permutation_branch(words)
        if choice >= 0:
            rest[0] = 3
            return -1 - choice
    return pick_branch_cell(b, rest, worth_scoring(b, wide_open))


cdef bint set_clues(Board *b, const uint8_t *puzzle) noexcept nogil:
    """The board of a puzzle's clues (digits 0-9, 0 = empty); False if two clues clash.

    The same board as placing the clues one by one, built in one pass: each digit's
    candidates in a band are the band's cells minus every clue's cell and minus the
    cells its own clues see, plus its own clues. Two clues of a digit that see each
    other clash. The clue cells of a band are found first as a bit mask (no branch per
    cell, so the layout of the clues costs no mispredictions), then visited bit by bit.
    """
    cdef uint32_t given[DIGIT_BANDS]    # band * 9 + digit -> cells of its clues
    cdef uint32_t seen[DIGIT_BANDS]     # band * 9 + digit -> cells its clues see
    cdef uint32_t clues, cell_bit, column, clash = 0
    cdef const uint8_t *row
    cdef int band, k, digit, i
    memset(given, 0, sizeof(given))
    memset(seen, 0, sizeof(seen))
    for band in range(BANDS):
        row = &puzzle[27 * band]
        clues = sudoku_fast_nonzero27(row)
        b.unsolved[band] = BAND_BITS & ~clues
        while clues:
            k = sudoku_fast_lowest_bit(clues)
            clues &= clues - 1
            digit = row[k] - 1
            column = column_in_band[k]
            given[band * 9 + digit] |= 1u << k
            seen[band * 9 + digit] |= peers_in_band[k]
            seen[next_band[band] * 9 + digit] |= column
            seen[next_band[band + 1] * 9 + digit] |= column
    for i in range(DIGIT_BANDS):
        clash |= given[i] & seen[i]
        b.cand[i] = (b.unsolved[i // 9] & ~seen[i]) | given[i]
        b.settled[i] = BAND_BITS
    return clash == 0


cdef Outcome solve_grid(const uint8_t *puzzle, uint8_t *solution, int limit) noexcept nogil:
    """Solve one puzzle (digits 0-9, 0 = empty); write the first solution found.

    Nothing can interrupt it: for C callers whose puzzles are small enough.
    """
    return search(puzzle, -1, 0, solution, limit, NULL)


cdef Outcome solve_without(
    const uint8_t *puzzle, int ruled_out_cell, int ruled_out_digit, uint8_t *solution, int limit
) noexcept nogil:
    """solve_grid, with `ruled_out_digit` (1-9) taken from the candidates of the empty cell
    `ruled_out_cell` (-1: none): the solutions that differ from a known one there."""
    return search(puzzle, ruled_out_cell, ruled_out_digit, solution, limit, NULL)


cdef Outcome search(
    const uint8_t *puzzle,
    int ruled_out_cell,
    int ruled_out_digit,
    uint8_t *solution,
    int limit,
    Stop *stop,
) noexcept nogil:
    """`solve_without`, polling `stop` (when not NULL) every POLL_EVERY nodes.

    A poll that finds a reason to stop ends the search with `stop.stopped` set; the
    outcome is then incomplete and the caller discards it.
    """
    cdef Board stack[CELLS + 1]
    cdef int branch_on[CELLS + 1]       # what each depth branches on (see pick_branch)
    cdef uint32_t branch_rest[CELLS + 1]
    cdef Outcome out
    cdef Board *b
    cdef Board *child
    cdef int choice, depth, band, cell = 0, digit, k
    cdef uint64_t words[9]   # the triad words of the last board propagated wide open
    cdef uint32_t rest, digit_bit
    cdef uint32_t masks[BANDS]  # a permutation branch's (or, waves, a cell's) AND masks
    cdef bint wide_open

    out.count = 0
    out.guesses = 0
    out.nodes = 1
    b = &stack[0]
    if WAVES:
        if not after_waves(
            b, False, words, waves_puzzle(puzzle, ruled_out_cell, ruled_out_digit, b.cand, b.unsolved)
        ):
            return out  # clashing clues, or a contradiction
    else:
        if not set_clues(b, puzzle):
            return out  # clashing clues
        if ruled_out_cell >= 0:
            band = ruled_out_cell // 27
            b.cand[band * 9 + ruled_out_digit - 1] &= ~(1u << (ruled_out_cell - 27 * band))
        if not propagate(b, False, words):
            return out
    if is_solved(b):
        write_solution(b, solution)
        out.count = 1
        return out
    # A puzzle still wide open when the per-digit rules stall is a hard one: every node
    # of its search gets the rule of triads, and branches on permutations where it can
    # (see the module's docstring). Easier puzzles, and the multi-solution ones of the
    # serg set, settle with fewer guesses than those cost.
    wide_open = unsolved_cells(b) >= WIDE_OPEN
    if wide_open and not propagate(b, True, words):
        return out
    if is_solved(b):
        write_solution(b, solution)
        out.count = 1
        return out

    depth = 0
    branch_on[0] = pick_branch(b, &branch_rest[0], wide_open, words)
    while True:
        rest = branch_rest[depth]
        if rest == 0:
            if depth == 0:
                break
            depth -= 1
            continue
        digit_bit = rest & (~rest + 1)
        rest ^= digit_bit
        branch_rest[depth] = rest
        if rest:
            out.guesses += 1
        out.nodes += 1
        if stop != NULL and (out.nodes & (POLL_EVERY - 1)) == 0 and poll(stop):
            break
        child = &stack[depth + 1]
        choice = branch_on[depth]
        if choice >= 0:
            band = choice // 27
            cell = choice - 27 * band
            digit = sudoku_fast_lowest_bit(digit_bit)
        else:
            choice = -1 - choice
            band = 3  # no cell is placed
            digit = choice % 9
            permutation_masks(&stack[depth], choice // 9, digit, digit_bit == 2, masks)
        if WAVES:
            # The branch is taken on the parent's words as they are loaded, and the
            # child's board is written by the waves: no copy of the parent.
            if band < 3:
                masks[0] = masks[1] = masks[2] = ~column_in_band[cell]
                masks[band] = ~peers_in_band[cell]
            if not after_waves(
                child,
                wide_open,
                words,
                waves_from(stack[depth].cand, child.cand, child.unsolved, digit, masks, band,
                           (1u << cell) if band < 3 else 0),
            ):
                continue
        else:
            child[0] = stack[depth]
            if band < 3:
                place(child, band, digit, 1u << cell)
            else:
                for k in range(BANDS):
                    child.cand[k * 9 + digit] &= masks[k]
            if not propagate(child, wide_open, words):
                continue
        if is_solved(child):
            out.count += 1
            if out.count == 1:
                write_solution(child, solution)
            if out.count >= limit:
                break
            continue
        depth += 1
        branch_on[depth] = pick_branch(child, &branch_rest[depth], wide_open, words)
    return out


def solve_range(
    const uint8_t[::1] grids,
    uint8_t[::1] solutions,
    int32_t[::1] counts,
    int64_t[::1] guesses,
    int64_t[::1] nodes,
    int64_t[::1] nanos,
    Py_ssize_t start,
    Py_ssize_t stop,
    int limit,
    const uint8_t[::1] stop_flag=None,

    bint cpu_clock=False,
):
    """Solve puzzles start..stop-1 of a flat buffer of 81-byte grids, without the GIL.

    `grids` holds digits 0-9 (0 = empty). For each puzzle i the first solution found is
    written to solutions[81*i:81*(i+1)] (left untouched when there is none), the number
    of solutions found, capped at `limit`, to counts[i], and the search figures to
    guesses[i] and nodes[i]. When `nanos` is not None, nanos[i] gets the puzzle's solving
    time in nanoseconds: the thread's CPU time with `cpu_clock`, else the monotonic wall
    clock (see _clock.pxd).

    `stop_flag`, a one-byte buffer, makes every puzzle not finished yet get
    counts[i] = STOPPED (-2) once another thread sets it to a nonzero value. In the main
    thread a signal handler that raises (Ctrl-C) stops the range and its exception
    propagates. Both are looked at every POLL_EVERY search nodes, so even one long
    puzzle stops promptly.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if start < 0 or stop < start:
        raise ValueError("bad range")
    if (
        grids.shape[0] < stop * CELLS
        or solutions.shape[0] < stop * CELLS
        or counts.shape[0] < stop
        or guesses.shape[0] < stop
        or nodes.shape[0] < stop
        or (nanos is not None and nanos.shape[0] < stop)
    ):
        raise ValueError("buffers too small for the requested range")
    if stop_flag is not None and stop_flag.shape[0] < 1:
        raise ValueError("stop_flag must hold one byte")
    cdef Stop halt
    stop_init(
        &halt,
        &stop_flag[0] if stop_flag is not None else NULL,
        threading.current_thread() is threading.main_thread(),
    )
    cdef Py_ssize_t i, k
    cdef Outcome res
    cdef bint timed = nanos is not None
    cdef long long t0 = 0, overhead = 0
    with nogil:
        if timed:
            overhead = measurement_overhead(cpu_clock)
        for i in range(start, stop):
            if timed:
                t0 = clock_nanos(cpu_clock)
            res = search(&grids[i * CELLS], -1, 0, &solutions[i * CELLS], limit, &halt)
            if timed:
                nanos[i] = elapsed(t0, overhead, cpu_clock)
            if halt.stopped:
                for k in range(i, stop):
                    counts[k] = COUNT_STOPPED
                break
            counts[i] = res.count
            guesses[i] = res.guesses
            nodes[i] = res.nodes
    raise_saved(&halt)


cdef struct Crew:
    # What the threads of one batch share beyond its buffers (see Fanout).
    int64_t engaged        # helper threads that have entered the engine
    int64_t left           # helper threads that have left it again
    int64_t helpers        # helper threads the batch was handed to
    int64_t lead_back      # 1 once the lead holds the GIL again after the solving
    bint has_source        # the puzzles come from a list of strings, encoded by the lead
    int64_t encoded        # puzzles of that list encoded so far (published, release order)
    int64_t failed         # 1 once an item of that list was found not plain: all stop
    bint has_texts         # the batch makes solution strings
    PyObject **strings     # the result list's items, once made; valid below `made`
    int64_t made           # strings made so far (published, release order)
    uint8_t *written       # written[i] = 1 once puzzle i's digits are in its string
    int64_t unwritten_end  # every puzzle solved but not written lies below this
    int64_t unsolved       # puzzles found to have no solution
    int64_t solved         # puzzles finished (solution found or not)
    ArenaPool *arenas      # memory for the strings, filled by every thread (or NULL)


cdef struct Share:
    # What one worker of a batch works on: the buffers of solve_batch, its cursor, and
    # the batch's Crew (NULL for plain buffers in and out).
    const uint8_t *grids   # the puzzles; the solution rows themselves for a list source
    uint8_t *solutions
    int32_t *counts
    int64_t *guesses
    int64_t *nodes
    int64_t *cursor
    Py_ssize_t n
    Py_ssize_t chunk
    int limit
    Crew *crew


cdef enum:
    # What take_chunks returned for.
    CHUNKS_DONE = 0        # nothing left to claim, or a stop
    CHUNKS_ENGAGED = 1     # (lead, early) every helper has entered the engine
    CHUNKS_UNENCODED = 2   # (lead, early) it claimed a chunk not encoded yet
    # Its modes.
    AS_HELPER = 0          # a helper: waits for the lead to encode what it claims
    AS_EARLY_LEAD = 1      # the caller's thread before its GIL-held work
    AS_LEAD = 2            # the caller's thread after it (everything encoded)


cdef inline void write_digits(PyObject *text, const uint8_t *solution) noexcept nogil:
    """Write a solved grid's digits '1'-'9' into a string made by Fanout."""
    cdef Py_UCS1 *chars = string_bytes(text)
    cdef Py_ssize_t k
    for k in range(CELLS):  # byte arithmetic, not a table: the compiler makes it SIMD
        chars[k] = <Py_UCS1>(solution[k] + 48)


cdef inline void back_off(int *spins) noexcept nogil:
    """One turn of a spin wait: a pause instruction for the first 64 turns (the wait is
    usually that short), then the core is offered to another thread at every turn."""
    spins[0] += 1
    if spins[0] < 64:
        sudoku_fast_pause()
    else:
        sudoku_fast_yield()


cdef bint wait_encoded(Crew *crew, int64_t end, Stop *halt) noexcept nogil:
    """Wait until the lead has encoded puzzles below `end`; False on a failure or stop.

    The lead encodes hundreds of times faster than puzzles are solved, so this only
    waits at the start of a batch, for a few microseconds.
    """
    cdef int spins = 0
    while sudoku_fast_published(&crew.encoded) < end:
        if sudoku_fast_published(&crew.failed) or flag_set(halt.flag):
            return False
        back_off(&spins)
    return not sudoku_fast_published(&crew.failed)


cdef void wait_helpers(Crew *crew, Stop *halt, long long *last_signal_check) noexcept nogil:
    """Wait, without the GIL, until the helpers in the engine have left it (the lead).

    They are finishing their last chunks. The caller would otherwise go to sleep on
    their futures and pay an operating-system wake-up once they are done; here it is
    awake when they return. Helpers not in the engine yet are waited for by the caller,
    through their futures. In the main thread, signal handlers run about every 20 ms.
    """
    cdef int spins = 0
    if halt.stopped:  # the lead is leaving on an error: the caller stops the helpers
        return
    while sudoku_fast_published(&crew.left) < sudoku_fast_published(&crew.engaged):
        if signals_due(halt, last_signal_check) and poll(halt):
            return
        back_off(&spins)


cdef void wait_lead_back(Crew *crew, Stop *halt) noexcept nogil:
    """A helper that has left the engine: wait, briefly and without the GIL, for the lead
    to take the GIL back before taking it to return to the pool (the helper).

    Both want the GIL at the end of a batch. If a helper took it first, the lead would
    wait for it to return to the pool and then be woken by the operating system: tens of
    microseconds per batch. A helper that leaves well before the others (a long last
    puzzle) stops waiting after LEAD_BACK_WAIT_NANOS, and returns while the lead waits
    for the rest without the GIL.
    """
    cdef int spins = 0
    cdef long long since = clock_nanos(False)
    while not sudoku_fast_published(&crew.lead_back):
        if flag_set(halt.flag) or clock_nanos(False) - since > LEAD_BACK_WAIT_NANOS:
            return
        back_off(&spins)


cdef void solve_chunk(Share *s, Py_ssize_t start, Py_ssize_t end, Stop *halt) noexcept nogil:
    """Solve puzzles start..end-1, writing each solution (and string) as it comes."""
    cdef Py_ssize_t i, k
    cdef Outcome res
    cdef Crew *crew = s.crew
    cdef bint texts = crew != NULL and crew.has_texts
    cdef int64_t made = sudoku_fast_published(&crew.made) if texts else 0
    cdef int64_t unwritten_end = 0, unsolved = 0, finished = 0
    cdef uint8_t grid[CELLS]
    cdef const uint8_t *puzzle = grid
    for i in range(start, end):
        if crew != NULL and crew.has_source:  # the grid sits in the solution's own row
            memcpy(grid, &s.grids[i * CELLS], CELLS)
        else:
            puzzle = &s.grids[i * CELLS]
        res = search(puzzle, -1, 0, &s.solutions[i * CELLS], s.limit, halt)
        if halt.stopped:
            for k in range(i, end):
                s.counts[k] = COUNT_STOPPED
            break
        s.counts[i] = res.count
        s.guesses[i] = res.guesses
        s.nodes[i] = res.nodes
        finished += 1
        if res.count == 0:  # the buffer may be uninitialised (new_buffer)
            memset(&s.solutions[i * CELLS], 0, CELLS)
            unsolved += 1
        elif i < made:
            write_digits(crew.strings[i], &s.solutions[i * CELLS])
            crew.written[i] = 1
        else:
            unwritten_end = i + 1
    if texts:
        if unwritten_end:
            sudoku_fast_raise_max(&crew.unwritten_end, unwritten_end)
        if unsolved:
            sudoku_fast_tally(&crew.unsolved, unsolved)
        sudoku_fast_tally(&crew.solved, finished)  # last: it says the chunk's results are in


cdef int take_chunks(
    Share *s, Stop *halt, long long *last_signal_check, int mode, Py_ssize_t *pending
) noexcept nogil:
    """Claim and solve chunks of the batch until it is done or a stop is asked for.

    As the early lead, return CHUNKS_ENGAGED as soon as every helper has entered the
    engine, and CHUNKS_UNENCODED (its start in `pending`) on claiming a chunk of a list
    source not encoded yet: the lead encodes with the GIL, which it does not hold here.
    """
    cdef Py_ssize_t start, end
    cdef Crew *crew = s.crew
    while not halt.stopped:
        if flag_set(halt.flag):
            halt.stopped = True
            break
        if signals_due(halt, last_signal_check) and poll(halt):
            break
        if crew != NULL and sudoku_fast_published(&crew.failed):
            break
        if mode == AS_EARLY_LEAD and sudoku_fast_published(&crew.engaged) >= crew.helpers:
            return CHUNKS_ENGAGED
        start = sudoku_fast_claim(s.cursor, s.chunk)
        if start >= s.n:
            break
        end = min(s.n, start + s.chunk)
        if crew != NULL and crew.has_source:
            if mode == AS_EARLY_LEAD and sudoku_fast_published(&crew.encoded) < end:
                pending[0] = start
                return CHUNKS_UNENCODED
            if mode == AS_HELPER and not wait_encoded(crew, end, halt):
                break
        solve_chunk(s, start, end, halt)
    return CHUNKS_DONE


@cython.auto_pickle(False)
@cython.no_gc  # not traversed: nothing reaches its strings through the collector
cdef class Fanout:
    """What the threads of one batch of n puzzles share, and the caller's part in it.

    Python objects can only be read or made while holding the GIL. So when the batch
    comes as a list of strings (`source`) or goes out as strings (`texts`), one thread,
    the caller's (`solve_batch` with lead=True), does that work with the GIL, in as few
    stretches as it can and while the helper threads solve without it:

    * A list source is read by the lead: a first block of puzzles (two chunks) when it
      starts, then, once every helper has entered the engine, all the rest in one pass
      (more blocks, each twice the size, if it runs out of encoded puzzles before the
      helpers arrive; short stretches, so they can take the GIL to enter). Each plain
      81-character string is encoded straight into its puzzle's solution row, which
      the solving thread copies out before writing the solution there; helpers wait
      for the chunks they claim to be encoded. The list is only ever read with the GIL
      held, so no copy of it (and no reference count per item) is needed; if it
      shrinks during the call, or an item is not a plain puzzle string, `failed` is
      set, every thread stops, and the caller takes the general path instead.
    * Solution strings are made by the lead, empty, in the same stretches of GIL-held
      work (with a list source, each block's strings before its puzzles are published
      as encoded, so every string exists before its puzzle is solved; otherwise all at
      once); whichever thread solves a puzzle whose string exists writes the digits into
      it without the GIL, and `finish` writes those of the puzzles solved before their
      string was made and puts None where there is no solution. Until then the strings
      stay in a list no Python code can reach (untracked by the garbage collector,
      referenced only here), so no one sees a string before its digits are in it.
    * For large batches the memory those strings take is faulted in first by every
      thread, without the GIL, and handed to Python's allocator while the lead makes
      them (an ArenaPool, see _arenas.pxd): a string then costs the lead about a
      quarter of what it costs in fresh memory.

    `helpers` is the number of helper threads the lead waits for; `lead_ns` the time it
    spent holding the GIL inside `solve_batch`, of which `first_block_ns` before any
    thread could solve.
    """

    cdef Crew crew
    cdef readonly Py_ssize_t n
    cdef readonly long long lead_ns
    cdef readonly long long first_block_ns
    cdef list source
    cdef list strings
    cdef bint lead_active  # the lead's solve_batch call is running (GIL held to change)
    cdef bint finished

    def __cinit__(self, Py_ssize_t n, Py_ssize_t helpers, list source=None, bint texts=False):
        if n < 0 or helpers < 0:
            raise ValueError("n and helpers must not be negative")
        if source is not None and (type(source) is not list or len(source) < n):
            raise ValueError("source must be a list of at least n items")
        self.n = n
        self.crew.helpers = helpers
        self.source = source
        self.crew.has_source = source is not None
        self.crew.has_texts = texts
        if texts:
            self.crew.written = <uint8_t *>malloc(n if n > 0 else 1)
            if self.crew.written == NULL:
                raise MemoryError()
            memset(self.crew.written, 0, n)
            if prefault_arenas and helpers > 0 and n >= PREFAULT_FROM:
                self.crew.arenas = pool_new(
                    (n + STRINGS_PER_ARENA - 1) // STRINGS_PER_ARENA, ARENA_BYTES
                )

    def __dealloc__(self):
        free(self.crew.written)
        pool_release(self.crew.arenas)  # every thread of the batch has returned

    @property
    def arenas_served(self):
        """Arenas of memory faulted in by the batch's threads that the strings took."""
        return pool_served(self.crew.arenas)

    @property
    def failed(self):
        """True when the list source held an item that is not a plain puzzle string."""
        return self.crew.failed != 0

    cdef void encode(self, uint8_t *rows, Py_ssize_t end) noexcept:
        """Encode the source's puzzles up to `end` into their rows (GIL held)."""
        cdef Py_ssize_t i, start = self.crew.encoded
        cdef PyObject *ahead
        cdef list source = self.source
        if self.crew.failed or end <= start:
            return
        if PyList_GET_SIZE(source) < self.n:  # shrunk by another thread since the start
            sudoku_fast_publish(&self.crew.failed, 1)
            return
        for i in range(start, end):
            if i + PREFETCH_AHEAD < end:  # the strings are scattered: load them ahead
                ahead = PyList_GET_ITEM(source, i + PREFETCH_AHEAD)
                sudoku_fast_prefetch(ahead)
                sudoku_fast_prefetch(<char *>ahead + 64)
                sudoku_fast_prefetch(<char *>ahead + 128)
            if not encode_plain(PyList_GET_ITEM(source, i), &rows[i * CELLS]):
                sudoku_fast_publish(&self.crew.failed, 1)
                return
            if (i + 1 - start) % MAKE_BLOCK == 0:
                sudoku_fast_publish(&self.crew.encoded, i + 1)
        sudoku_fast_publish(&self.crew.encoded, end)

    cdef int make(self, Py_ssize_t upto, bint pooled=False) except -1:
        """Make the empty strings of the puzzles below `upto`, publishing them in blocks.

        With `pooled`, their memory comes from the batch's ArenaPool, if it has one,
        which must be filled (pool_wait) and no longer filled by any thread.
        """
        cdef Py_ssize_t i, start, end
        cdef ArenaAllocator saved
        cdef bint serving = False
        if not self.crew.has_texts:
            return 0
        if self.strings is None:
            strings = PyList_New(self.n)  # items NULL until set; no Python code runs below
            PyObject_GC_UnTrack(strings)
            self.strings = strings
            self.crew.strings = PySequence_Fast_ITEMS(strings)
        if pooled and self.crew.arenas != NULL:
            serving = pool_serve(self.crew.arenas, &saved)
        try:
            for start in range(self.crew.made, upto, MAKE_BLOCK):
                end = min(upto, start + MAKE_BLOCK)
                for i in range(start, end):
                    text = PyUnicode_New(CELLS, 127)
                    Py_INCREF(text)
                    PyList_SET_ITEM(self.strings, i, text)
                sudoku_fast_publish(&self.crew.made, end)
        finally:
            if serving:
                pool_unserve(&saved)
        return 0

    cdef int lead_work(self, uint8_t *rows, Py_ssize_t end) except -1:
        """The lead's GIL-held work: the strings and the encoded puzzles up to `end`.

        The strings come first, so a helper that sees a puzzle encoded sees its string.
        Without a list source the strings are only made once, all of them.
        """
        cdef long long t0
        cdef ArenaPool *arenas = self.crew.arenas if end == self.n else NULL
        if arenas != NULL:  # the bulk of the strings: their memory first
            with nogil:
                pool_wait(arenas)
        t0 = clock_nanos(False)
        if self.crew.has_source:
            if not self.crew.failed:
                self.make(end, arenas != NULL)
            self.encode(rows, end)
        elif end == self.n:
            self.make(end, arenas != NULL)
        self.lead_ns += clock_nanos(False) - t0
        if arenas != NULL:
            with nogil:
                pool_return(arenas)  # what the strings did not take
        return 0

    def finish(self, const uint8_t[::1] solutions, const int32_t[::1] counts):
        """The list of solution strings: None where counts[i] is not positive.

        Call once, after the lead's `solve_batch` call has returned (it waits for every
        helper that entered the engine to leave it; helpers still returning to their
        pool write nothing), or after every call if there was no lead, with the batch's
        solutions and counts; makes the strings first if no call did.
        """
        if solutions.shape[0] < self.n * CELLS or counts.shape[0] < self.n:
            raise ValueError("buffers too small for the batch")
        return self.hand_over(
            &solutions[0] if self.n > 0 else NULL, &counts[0] if self.n > 0 else NULL
        )

    cdef list hand_over(self, const uint8_t *solutions, const int32_t *counts):
        """`finish` with the batch's buffers (of n rows, n counts) as pointers."""
        cdef Py_ssize_t i, end
        cdef PyObject *item
        if not self.crew.has_texts:
            raise ValueError("this batch makes no strings")
        if self.finished:
            raise ValueError("the strings of this batch were handed over already")
        # A helper still in the engine writes strings only while puzzles are left: one
        # that enters after the lead has returned finds nothing to claim and leaves.
        if self.lead_active or (
            sudoku_fast_published(&self.crew.left) < sudoku_fast_published(&self.crew.engaged)
            and sudoku_fast_published(&self.crew.solved) < self.n
        ):
            raise RuntimeError("a solve_batch call is still writing these strings")
        if self.crew.failed:
            raise ValueError("the batch failed: its source held a puzzle that is not plain")
        self.make(self.n)
        # The threads counted what is left to do here: when they solved every puzzle
        # and each has a solution, only those solved before their string was made (the
        # first chunks) are looked at, not the whole batch.
        end = self.n
        if (
            sudoku_fast_published(&self.crew.solved) == self.n
            and sudoku_fast_published(&self.crew.unsolved) == 0
        ):
            end = min(self.n, sudoku_fast_published(&self.crew.unwritten_end))
        for i in range(end):
            item = self.crew.strings[i]
            if counts[i] <= 0:
                Py_INCREF(None)
                self.crew.strings[i] = <PyObject *>None
                decref(item)
            elif not self.crew.written[i]:
                write_digits(item, &solutions[i * CELLS])
        strings = self.strings
        self.strings = None
        self.crew.strings = NULL
        self.finished = True
        PyObject_GC_Track(strings)
        return strings


cdef int run_share(Share *share, Fanout fanout, const uint8_t *stop_byte, bint lead) except -1:
    """One worker's share of a batch whose buffers are checked (see solve_batch).

    `stop_byte` (or NULL) is the batch's stop flag. Only the lead can be the main
    thread, which runs Python's signal handlers: helpers are threads of the pool.
    """
    cdef bint from_source = share.crew != NULL and share.crew.has_source
    cdef Stop halt
    stop_init(&halt, stop_byte, threading.current_thread() is threading.main_thread())
    cdef long long last_signal_check = clock_nanos(False), t0
    cdef Py_ssize_t pending = 0, pending_end
    cdef int why
    if lead:
        fanout.lead_active = True
    try:
        if lead:
            if from_source:  # a first block, for the threads to start on
                t0 = clock_nanos(False)
                fanout.lead_work(share.solutions, min(share.n, 2 * share.chunk))
                fanout.first_block_ns += clock_nanos(False) - t0
            while True:
                with nogil:
                    why = take_chunks(share, &halt, &last_signal_check, AS_EARLY_LEAD, &pending)
                if why != CHUNKS_UNENCODED:
                    break
                # Helpers still on their way: encode a little more (twice as much as
                # so far) and solve on, leaving the GIL to them in between.
                pending_end = min(share.n, pending + share.chunk)
                fanout.lead_work(
                    share.solutions, max(pending_end, min(share.n, 2 * fanout.crew.encoded))
                )
                if fanout.crew.failed:
                    break
                with nogil:
                    solve_chunk(share, pending, pending_end, &halt)
            if not halt.stopped:
                if from_source and not fanout.crew.failed:
                    pending = fanout.crew.encoded
                    with nogil:  # the rows are written next, with the GIL
                        sudoku_fast_touch_pages(
                            share.solutions + pending * CELLS, (share.n - pending) * CELLS
                        )
                fanout.lead_work(share.solutions, share.n)  # the rest, and the strings
        elif share.crew != NULL:
            with nogil:
                sudoku_fast_claim(&share.crew.engaged, 1)
                pool_fill(share.crew.arenas)  # the strings' memory, before solving
        with nogil:
            take_chunks(share, &halt, &last_signal_check, AS_LEAD if lead else AS_HELPER, &pending)
            if lead:
                wait_helpers(share.crew, &halt, &last_signal_check)
            elif share.crew != NULL:
                sudoku_fast_tally(&share.crew.left, 1)  # after its last results
                wait_lead_back(share.crew, &halt)
    finally:
        if lead:
            fanout.lead_active = False
            sudoku_fast_publish(&fanout.crew.lead_back, 1)
    raise_saved(&halt)
    return 0


def solve_batch(
    const uint8_t[::1] grids,
    uint8_t[::1] solutions,
    int32_t[::1] counts,
    int64_t[::1] guesses,
    int64_t[::1] nodes,
    int64_t[::1] cursor,
    Py_ssize_t n,
    Py_ssize_t chunk,
    int limit,
    const uint8_t[::1] stop_flag=None,
    Fanout fanout=None,
    bint lead=False,
):
    """One worker's share of a batch of n puzzles, taken chunk by chunk, without the GIL.

    Every worker thread of a batch calls this once with the same buffers (as in
    `solve_range`) and the same `cursor`, a one-item int64 buffer starting at 0: each
    claims the next `chunk` puzzles by an atomic add on cursor[0], solves them, and
    claims again until the batch is done. So the GIL is taken twice per thread per
    batch, not once per chunk. The stop flag is read between chunks (and every
    POLL_EVERY search nodes); in the main thread Python's signal handlers run about
    every 20 ms and inside long searches, and an exception they raise (Ctrl-C) ends
    this worker's share and propagates. A puzzle abandoned at a stop gets
    counts[i] = STOPPED; puzzles nobody claimed keep their counts. A puzzle with no
    solution gets an all-zero solution row, so `solutions` may start uninitialised.

    `fanout` (a Fanout for n puzzles, the same for every worker) brings a list source
    (then `grids` is None) and/or asks for solution strings; the one worker called
    with `lead` (the caller's thread) does their GIL-held work (see Fanout), and
    `fanout.finish` hands the strings over once it has returned. The lead returns
    once every helper that entered the engine has left it, so the batch is done then;
    helpers wait a moment for it to hold the GIL before they take it to return.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if n < 0 or chunk < 1:
        raise ValueError("bad batch size or chunk")
    if fanout is not None and (fanout.n != n or fanout.finished):
        raise ValueError("fanout must be the unfinished Fanout of this batch")
    if lead and fanout is None:
        raise ValueError("lead needs a fanout")
    cdef bint from_source = fanout is not None and fanout.crew.has_source
    if (
        (not from_source and (grids is None or grids.shape[0] < n * CELLS))
        or solutions.shape[0] < n * CELLS
        or counts.shape[0] < n
        or guesses.shape[0] < n
        or nodes.shape[0] < n
        or cursor.shape[0] < 1
    ):
        raise ValueError("buffers too small for the batch")
    if stop_flag is not None and stop_flag.shape[0] < 1:
        raise ValueError("stop_flag must hold one byte")
    cdef Share share
    share.solutions = &solutions[0] if n > 0 else NULL
    share.grids = share.solutions  # a list source: the solution rows hold the puzzles
    if not from_source:
        share.grids = &grids[0] if n > 0 else NULL
    share.counts = &counts[0] if n > 0 else NULL
    share.guesses = &guesses[0] if n > 0 else NULL
    share.nodes = &nodes[0] if n > 0 else NULL
    share.cursor = &cursor[0]
    share.n = n
    share.chunk = chunk
    share.limit = limit
    share.crew = &fanout.crew if fanout is not None else NULL
    run_share(&share, fanout, &stop_flag[0] if stop_flag is not None else NULL, lead)


cdef carray.array INT32_ARRAY = pyarray.array("i")  # templates of the figures' arrays
cdef carray.array INT64_ARRAY = pyarray.array("q")


cdef carray.array uninitialised_array(carray.array template, Py_ssize_t n):
    """An array like `template` of n items left as the allocator gives them."""
    cdef carray.array items = carray.clone(template, n, False)
    cdef Py_ssize_t size = n * items.ob_descr.itemsize
    if size >= HUGE_BUFFER:
        sudoku_fast_advise_huge(items.data.as_chars, size)
    return items


@cython.auto_pickle(False)
@cython.no_gc  # its buffers and Fanout hold nothing that leads back to it
cdef class BatchRun:
    """A batch of n 9x9 puzzles for `solve_batch`'s workers, in buffers of its own.

    What batch.run_engine hands its threads: the same work as `solve_batch` calls on
    one `Fanout` (made here, from `source`, `helpers` and `texts`), with the solutions,
    counts, guesses and nodes allocated here (left uninitialised: the threads write
    every row) and every buffer held as a pointer. A call of `helper()` (on a pool
    thread) or `lead()` (on the caller's) then parses no argument and acquires no
    buffer while it holds the GIL, which the caller's thread holds alone before and
    after the solving: on a batch of a thousand hard puzzles, a share of its time that
    bounds the speed-up on any number of cores.

    `grids` (n*81 digits) is None when the puzzles come from a list `source`.
    `stop_flag`, a writable one-byte buffer (one of its own when None), stops the batch
    once set (see `solve_batch`), as `stop()` does. `first_entry_ns` and `lead_exit_ns`
    are the monotonic clock (`now_ns`) when the first worker started and when the lead
    returned, 0 until then: the span in which threads solve.
    """

    cdef Share share
    cdef const uint8_t[::1] grids
    cdef uint8_t[::1] stop_flag
    cdef int64_t cursor
    cdef readonly bytearray solutions
    cdef readonly carray.array counts
    cdef readonly carray.array guesses
    cdef readonly carray.array nodes
    cdef readonly Fanout fanout
    cdef readonly long long first_entry_ns
    cdef readonly long long lead_exit_ns

    def __cinit__(
        self,
        object grids,
        list source,
        Py_ssize_t n,
        Py_ssize_t chunk,
        int limit,
        Py_ssize_t helpers,
        bint texts,
        object stop_flag=None,
    ):
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if n < 0 or chunk < 1:
            raise ValueError("bad batch size or chunk")
        if source is None:
            if grids is None:
                raise ValueError("grids are needed without a list source")
            self.grids = grids
            if self.grids.shape[0] < n * CELLS:
                raise ValueError("buffers too small for the batch")
        self.stop_flag = bytearray(1) if stop_flag is None else stop_flag
        if self.stop_flag.shape[0] < 1:
            raise ValueError("stop_flag must hold one byte")
        self.fanout = Fanout(n, helpers, source, texts)
        self.solutions = PyByteArray_FromStringAndSize(NULL, n * CELLS)
        if n * CELLS >= HUGE_BUFFER:
            sudoku_fast_advise_huge(PyByteArray_AS_STRING(self.solutions), n * CELLS)
        self.counts = uninitialised_array(INT32_ARRAY, n)
        self.guesses = uninitialised_array(INT64_ARRAY, n)
        self.nodes = uninitialised_array(INT64_ARRAY, n)
        cdef uint8_t *solutions = <uint8_t *>PyByteArray_AS_STRING(self.solutions)
        self.share.solutions = solutions
        if source is not None:  # each puzzle is encoded into its solution's row
            self.share.grids = solutions
        else:
            self.share.grids = &self.grids[0] if n > 0 else NULL
        self.share.counts = <int32_t *>self.counts.data.as_voidptr
        self.share.guesses = <int64_t *>self.guesses.data.as_voidptr
        self.share.nodes = <int64_t *>self.nodes.data.as_voidptr
        self.share.cursor = &self.cursor
        self.share.n = n
        self.share.chunk = chunk
        self.share.limit = limit
        self.share.crew = &self.fanout.crew

    @property
    def failed(self):
        """True when the list source held an item that is not a plain puzzle string."""
        return self.fanout.crew.failed != 0

    @property
    def threads(self):
        """The threads the batch was made for: its helpers and the lead."""
        return self.fanout.crew.helpers + 1

    def stop(self):
        """Set the stop flag: the workers abandon their puzzles and return."""
        flag_raise(&self.stop_flag[0])

    def helper(self):
        """A helper thread's share of the batch (see `solve_batch`)."""
        if self.first_entry_ns == 0:
            self.first_entry_ns = clock_nanos(False)
        run_share(&self.share, self.fanout, &self.stop_flag[0], False)

    def lead(self):
        """The caller's share, the Fanout's GIL-held work included (see `solve_batch`).

        Returns once every helper that entered the engine has left it.
        """
        if self.fanout.lead_active or self.lead_exit_ns != 0:
            raise ValueError("a batch has one lead")
        if self.first_entry_ns == 0:
            self.first_entry_ns = clock_nanos(False)
        try:
            run_share(&self.share, self.fanout, &self.stop_flag[0], True)
        finally:
            self.lead_exit_ns = clock_nanos(False)

    def finish(self):
        """The solution strings, as `Fanout.finish` with this batch's buffers."""
        return self.fanout.hand_over(self.share.solutions, self.share.counts)


def now_ns():
    """The engine's monotonic clock in nanoseconds (as stamped in `BatchRun`)."""
    return clock_nanos(False)


def new_buffer(Py_ssize_t size):
    """A bytearray of `size` bytes whose contents are left as the allocator gives them.

    For buffers every byte of which is written before it is read (the grids of a batch,
    the solutions `solve_batch` writes): zero-filling them under the GIL would touch
    every page of a multi-megabyte buffer on the caller's thread, while left alone their
    pages are first touched by whoever writes them (the worker threads).
    """
    if size < 0:
        raise ValueError("size must not be negative")
    buffer = PyByteArray_FromStringAndSize(NULL, size)
    if size >= HUGE_BUFFER:
        sudoku_fast_advise_huge(PyByteArray_AS_STRING(buffer), size)
    return buffer


cdef object uint8_view(const uint8_t[::1] buffer):
    return buffer


cdef object int32_view(const int32_t[::1] buffer):
    return buffer


cdef object int64_view(const int64_t[::1] buffer):
    return buffer


cdef object uint64_view(const uint64_t[::1] buffer):
    return buffer


def shared_view(object buffer):
    """`buffer` (bytes-like, or an array.array of int32, int64, uint64 or uint8 items)
    as a memoryview of this extension's own kind, for the threads of a batch to pass to
    compiled calls.

    Each call taking a buffer argument acquires a buffer of the object it is given.
    Given one bytearray or array.array from several threads at once, free-threaded
    CPython 3.13 counts those exports without a lock, and a lost count leaves the
    object marked exported (it can no longer be resized, and its deallocation prints a
    SystemError) or unmarked while in use. A view made here, once, on one thread holds
    a single export for as long as it lives, and compiled calls given the view share it
    by an atomic count instead. (Not a fused function: its dispatch imports numpy.)
    """
    cdef str typecode = getattr(buffer, "typecode", "B")  # an array.array, else bytes
    if typecode == "B":
        return uint8_view(buffer)
    if typecode == "i":
        return int32_view(buffer)
    if typecode == "q" or (typecode == "l" and sizeof(long) == 8):
        return int64_view(buffer)
    if typecode == "Q" or (typecode == "L" and sizeof(long) == 8):
        return uint64_view(buffer)
    raise TypeError(f"no shared view for array typecode {typecode!r}")


cdef inline str decode_plain(const uint8_t *solution):
    """The canonical 81-character string of a solved grid (digits 1-9 only)."""
    cdef str text = PyUnicode_New(CELLS, 127)
    cdef Py_UCS1 *chars = PyUnicode_1BYTE_DATA(text)
    cdef Py_ssize_t k
    for k in range(CELLS):  # byte arithmetic, not a table: the compiler makes it SIMD
        chars[k] = <Py_UCS1>(solution[k] + 48)
    return text


def encode_strings(list items, uint8_t[::1] out):
    """Write each plain 81-character puzzle string (digits, '.') into `out` as digits 0-9.

    Returns the indices of the items that are not in that plain form; the caller parses
    those with the full notation parser (or reports them).
    """
    cdef Py_ssize_t n = len(items), i
    cdef list slow = []
    if out.shape[0] < n * CELLS:
        raise ValueError("output buffer too small")
    for i in range(n):
        if not encode_plain(PyList_GET_ITEM(items, i), &out[i * CELLS]):
            slow.append(i)
    return slow


def new_array(str typecode, Py_ssize_t n):
    """An array.array of n items of `typecode` whose contents are left uninitialised.

    For the per-puzzle figures `solve_batch` writes for every puzzle of a batch (see
    `new_buffer`).
    """
    if n < 0:
        raise ValueError("n must not be negative")
    return uninitialised_array(pyarray.array(typecode), n)


def solve_plain(object text, int limit):
    """Solve one puzzle given as 81 plain characters (digits, '.' or '0'), GIL released.

    Returns (solutions found up to `limit`, the first solution or None), or None when
    `text` is not in that plain form, for the caller to parse it in full.
    """
    cdef uint8_t grid[CELLS]
    cdef uint8_t solution[CELLS]
    cdef Outcome res
    cdef Stop halt
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if not encode_plain(<PyObject *>text, grid):
        return None
    stop_init(&halt, NULL, threading.current_thread() is threading.main_thread())
    with nogil:
        res = search(grid, -1, 0, solution, limit, &halt)
    raise_saved(&halt)
    if res.count == 0:
        return 0, None
    return res.count, decode_plain(solution)


def solve_list(list source, int limit, bint texts):
    """Solve a list of plain 81-character puzzles one after the other in the caller's
    thread, the GIL released once for them all.

    Returns the solution strings (None where there is none) when `texts`, else the
    solution counts up to `limit`, as a list in input order; None, before any puzzle is
    solved, when an item is not a plain puzzle string (the caller parses the list in
    full). The serial batch without `BatchRun`'s machinery for helper threads, whose
    set-up costs microseconds a call: what a batch of a few puzzles, or one run on one
    thread, is charged before its first puzzle. The same search as every other path,
    so the same answers; in the main thread Ctrl-C interrupts it and propagates.
    """
    cdef Py_ssize_t i, n = len(source)
    cdef bytearray buffer
    cdef int32_t *counts
    cdef uint8_t *rows
    cdef uint8_t grid[CELLS]
    cdef Outcome res
    cdef Stop halt
    cdef long long last_signal_check
    cdef list out
    if limit < 1:
        raise ValueError("limit must be at least 1")
    # The counts first, then one row per puzzle: the puzzle, then its solution.
    buffer = PyByteArray_FromStringAndSize(NULL, n * (4 + CELLS))
    counts = <int32_t *>PyByteArray_AS_STRING(buffer)
    rows = <uint8_t *>PyByteArray_AS_STRING(buffer) + 4 * n
    for i in range(n):  # the GIL is held: the list cannot change under the reader
        if not encode_plain(PyList_GET_ITEM(source, i), &rows[i * CELLS]):
            return None
    stop_init(&halt, NULL, threading.current_thread() is threading.main_thread())
    last_signal_check = clock_nanos(False)
    with nogil:
        for i in range(n):
            # The clock is read once per SOLVE_LIST_LOOK puzzles, as take_chunks reads it
            # once a chunk: on easy puzzles a read at every one costs 5% of their time.
            if (
                i % SOLVE_LIST_LOOK == 0
                and signals_due(&halt, &last_signal_check)
                and poll(&halt)
            ):
                break
            memcpy(grid, &rows[i * CELLS], CELLS)
            res = search(grid, -1, 0, &rows[i * CELLS], limit, &halt)
            if halt.stopped:
                break
            counts[i] = res.count
    raise_saved(&halt)
    out = PyList_New(n)
    for i in range(n):
        if not texts:
            item = counts[i]
        elif counts[i] > 0:
            item = decode_plain(&rows[i * CELLS])
        else:
            item = None
        Py_INCREF(item)
        PyList_SET_ITEM(out, i, item)
    return out


def decode_solutions(const uint8_t[::1] solutions, const int32_t[::1] counts):
    """The solution strings of a batch, None where counts[i] is not positive."""
    cdef list out = [None] * counts.shape[0]
    decode_range(solutions, counts, out, 0, counts.shape[0])
    return out


def decode_range(
    const uint8_t[::1] solutions,
    const int32_t[::1] counts,
    list out,
    Py_ssize_t start,
    Py_ssize_t stop,
):
    """Write the solution strings of puzzles start..stop-1 into out[start:stop].

    Lets each worker thread decode the chunk it has just solved, while the other threads
    are still inside the engine, instead of one serial pass after the whole batch.
    """
    cdef Py_ssize_t i
    if not 0 <= start <= stop <= counts.shape[0] or stop > len(out):
        raise ValueError("range outside the batch")
    if solutions.shape[0] < stop * CELLS:
        raise ValueError("solutions buffer too small")
    for i in range(start, stop):
        if counts[i] > 0:
            out[i] = decode_plain(&solutions[i * CELLS])
        else:
            out[i] = None
