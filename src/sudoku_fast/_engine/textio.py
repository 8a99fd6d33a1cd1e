"""The compiled text I/O (`_textio.pyx`) for the rooms that read and write puzzle text: the
stream pipeline (records, answers, checks) and the column readers (rows to grids).

Its pure-Python twin is `_textio_py.py`.
"""

from __future__ import annotations

from ._textio import (
    CSV_ANSWER_ONLY,
    CSV_WITH_PUZZLE,
    CSV_WITH_ROW,
    FLAG_BAD,
    FLAG_GIVEN,
    check_range,
    check_solutions,
    compare_given,
    encode_rows,
    format_answers,
    record_span,
    scan_block,
)

__all__ = [
    "CSV_ANSWER_ONLY",
    "CSV_WITH_PUZZLE",
    "CSV_WITH_ROW",
    "FLAG_BAD",
    "FLAG_GIVEN",
    "check_range",
    "check_solutions",
    "compare_given",
    "encode_rows",
    "format_answers",
    "record_span",
    "scan_block",
]
