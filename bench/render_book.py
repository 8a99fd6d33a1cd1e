"""Rendering speed: a 100-puzzle book with answers, one thread, and its page count.

    python bench/render_book.py                 # 9x9, kaggle, 7 rounds
    python bench/render_book.py --size 16 --rounds 5

Each round times, in this process, the whole path of `sudoku-fast render -o book.pdf`:
`render_book` (parse, solve with threads=1 for the answers, lay out 100 puzzles and
100 answers) and `Pages.pdf()` (the PDF file), and separately `Pages` written as SVG
pages. It prints each round, the median and the goal (under 2 s), and checks the page
count against the layout's arithmetic (puzzle pages, then answer pages) and against
the PDF's own page tree; with pdftoppm installed, poppler must read every page.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sudoku_fast as sf

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
VENDORED = ROOT / "tests" / "data"
GOAL_SECONDS = 2.0


def puzzles(size: int, count: int) -> tuple[str, list[str]]:
    """`count` puzzles of the size and the name of their set."""
    if size == 9:
        name = "kaggle_bryanpark_10k_with_solutions.csv"
        path = (
            SHARED / name
            if (SHARED / name).exists()
            else (VENDORED / "kaggle_bryanpark_sample500_with_solutions.csv")
        )
    elif size == 16:
        path = VENDORED / "sudoku16_goomii_sample100_with_solutions.csv"
    else:
        return f"generated {size}x{size} (seed 36)", sf.generate_many(count, size=size, seed=36)
    with path.open(newline="") as f:
        rows = list(csv.reader(f))[1 : count + 1]
    return path.name, [row[0] for row in rows]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9, choices=(6, 9, 16))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--per-page", type=int, default=4)
    args = parser.parse_args()
    name, book_puzzles = puzzles(args.size, args.count)
    n = len(book_puzzles)
    answers_per_page = 12 if args.size <= 9 else 6
    expected = math.ceil(n / args.per_page) + math.ceil(n / answers_per_page)
    pdf_times, svg_times = [], []
    pdf = b""
    pages = 0
    for round_ in range(args.rounds):
        start = time.perf_counter()
        book = sf.render_book(book_puzzles, per_page=args.per_page, title="Bench", threads=1)
        pdf = book.pdf()
        pdf_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        svgs = [str(page) for page in book]
        svg_times.append(time.perf_counter() - start)
        pages = len(book)
        print(
            f"round {round_ + 1}: book + PDF {pdf_times[-1]:.3f} s, SVG pages {svg_times[-1]:.3f} s"
            f" ({len(pdf):,} bytes of PDF, {sum(map(len, svgs)):,} of SVG)"
        )
    in_pdf = len(re.findall(rb"/Type /Page\b", pdf))
    print(
        f"\n{n} puzzles of {name}, {args.size}x{args.size}, {args.per_page} a page, answers "
        f"{answers_per_page} a page; one thread; Python {sys.version.split()[0]}"
    )
    median = statistics.median(pdf_times)
    print(f"book with answers, to PDF: median {median:.3f} s of {args.rounds} rounds "
          f"(min {min(pdf_times):.3f}, max {max(pdf_times):.3f}); goal < {GOAL_SECONDS} s: "
          f"{'met' if median < GOAL_SECONDS else 'MISSED'}")  # fmt: skip
    print(f"SVG pages of the same book: median {statistics.median(svg_times):.3f} s")
    print(f"pages: {pages} (expected {expected}: {math.ceil(n / args.per_page)} + "
          f"{math.ceil(n / answers_per_page)}); in the PDF's page tree: {in_pdf}")  # fmt: skip
    ok = pages == expected == in_pdf
    if shutil.which("pdftoppm"):
        with tempfile.TemporaryDirectory() as work:
            target = Path(work) / "book.pdf"
            target.write_bytes(pdf)
            subprocess.run(
                ["pdftoppm", "-r", "10", "-png", str(target), str(Path(work) / "p")], check=True
            )
            read = len(list(Path(work).glob("p-*.png")))
        print(f"pdftoppm rasterised {read} pages")
        ok = ok and read == expected
    return 0 if ok and median < GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
