/* A batch entry point over tdoku's solver for bench/peers.py (linked with the objects
 * ../shared/peers/build.sh compiles; never part of the package).
 *
 * text: n puzzles of 81 characters ('1'-'9', '.'), each followed by one newline.
 * For each puzzle: counts[i] = solutions found up to `limit`; with limit 1 the solution
 * is written to solutions[81 * i ...], otherwise that slot is left as it was. */
#include <stddef.h>
#include <stdint.h>

size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

void tdoku_batch(const char *text, size_t n, size_t limit, char *solutions, int32_t *counts) {
    size_t guesses = 0;
    for (size_t i = 0; i < n; i++) {
        counts[i] = (int32_t)TdokuSolverDpllTriadSimd(text + 82 * i, limit, 0,
                                                      solutions + 81 * i, &guesses);
    }
}
