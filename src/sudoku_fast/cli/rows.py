"""Rows of results written as a pipeline reads them back: TSV, CSV, JSON lines or Parquet.

`--format` of rate, generate, stats and lab: one header (TSV, CSV), one JSON object per
line, or a Parquet file (with -o). Summaries never go among the rows: the commands
print them on stderr.
"""

from __future__ import annotations

import csv
import json
import sys
from typing import Any, BinaryIO, TextIO

from .._base.optional import optional

__all__ = ["FORMATS", "RowWriter", "add_format"]

FORMATS = ("tsv", "csv", "jsonl", "parquet")
_ARROW_TYPES = {int: "int64", float: "float64", str: "string", bool: "bool_"}
_PARQUET_BATCH = 65_536


def add_format(parser: Any, default: str = "tsv", formats: tuple[str, ...] = FORMATS) -> None:
    """The `--format` option."""
    parser.add_argument(
        "--format",
        choices=formats,
        default=default,
        help=f"output format (default {default}); parquet needs -o FILE; summaries go to "
        "stderr, never among the rows",
    )


class RowWriter:
    """Writes rows (dicts with the fields `fields`, of the types `types`) in `fmt`.

    Text formats go to `text` (a text stream); Parquet goes to `binary` (a binary stream)
    in row groups of _PARQUET_BATCH rows, so memory stays flat.
    """

    def __init__(
        self,
        fmt: str,
        fields: list[str],
        types: dict[str, type],
        text: TextIO | None = None,
        binary: BinaryIO | None = None,
    ) -> None:
        self.fmt = fmt
        self.fields = fields
        self.types = types
        self._text = text if text is not None else sys.stdout
        self._binary = binary
        self._pending: list[dict[str, Any]] = []
        self._writer: Any = None
        self._csv: Any = None
        if fmt == "parquet" and binary is None:
            raise ValueError("--format parquet writes a file: name it with -o")
        if fmt == "tsv":
            self._text.write("\t".join(fields) + "\n")
        elif fmt == "csv":
            self._csv = csv.writer(self._text, lineterminator="\n")
            self._csv.writerow(fields)

    def write(self, row: dict[str, Any]) -> None:
        if self.fmt == "tsv":
            self._text.write("\t".join(_cell(row.get(f)) for f in self.fields) + "\n")
        elif self.fmt == "csv":
            self._csv.writerow([_cell(row.get(f)) for f in self.fields])
        elif self.fmt == "jsonl":
            self._text.write(json.dumps({f: row.get(f) for f in self.fields}) + "\n")
        else:
            self._pending.append(row)
            if len(self._pending) >= _PARQUET_BATCH:
                self._flush()

    def close(self) -> None:
        """Write what is pending (Parquet: the last row group and the footer)."""
        if self.fmt == "parquet":
            self._flush(final=True)
            if self._writer is not None:
                self._writer.close()
        else:
            self._text.flush()

    def _flush(self, final: bool = False) -> None:
        if not self._pending and not final:
            return
        pa, pq = optional(
            "pyarrow", "pyarrow.parquet", needed_for="--format parquet", extra="arrow"
        )
        schema = pa.schema([(f, getattr(pa, _ARROW_TYPES[self.types[f]])()) for f in self.fields])
        if self._writer is None:
            self._writer = pq.ParquetWriter(self._binary, schema)
        if self._pending or final:
            columns = {f: [row.get(f) for row in self._pending] for f in self.fields}
            self._writer.write_table(pa.table(columns, schema=schema))
        self._pending = []


def _cell(value: Any) -> str:
    return "" if value is None else str(value)
