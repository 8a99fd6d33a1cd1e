"""Solve one file serially: a fixed workload for `valgrind --tool=callgrind`.

    valgrind --tool=callgrind --toggle-collect='*solve_range*' \\
        python bench/instructions.py ../shared/data/magictour_top1465.txt [limit]

Instruction counts are repeatable on a noisy machine, unlike timings.
"""

import sys

from sudoku_fast._engine.encode import encode_puzzles
from sudoku_fast._engine.run import run_engine

path = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 1
with open(path) as f:
    lines = [line.split(",")[0].strip() for line in f if line.strip()]
puzzles = [p for p in lines if len(p) == 81]
results = run_engine(encode_puzzles(puzzles), len(puzzles), limit, 1)
print(f"{len(puzzles)} puzzles, guesses {sum(results.guesses)}, nodes {sum(results.nodes)}")
