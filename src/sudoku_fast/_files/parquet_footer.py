"""Parquet footers read and written as data: Thrift's compact protocol, without the IDL.

A Parquet file is `PAR1`, the column chunks of each row group, the footer (a Thrift
`FileMetaData` struct in the compact protocol), the footer's length (4 bytes, little
endian) and `PAR1` again. Every offset that says where a column chunk's pages are is
in the footer, so a file can be built from the byte ranges of other files: copy a row
group's column chunks, add the chunks of new columns beside them, and write a footer
whose offsets point at the new places. `parquet_io` does this to add answer columns to
a file without decoding and encoding the columns it does not read.

The compact protocol describes itself well enough to be read with no schema: each field
carries its id and its type, and containers carry their element types. A struct is read
into a dict {field id: (type, value)} and written back field by field in ascending id
order, as Parquet's writers write them, so reading and writing a footer gives back the
same bytes. Field ids that matter here are named below from the `parquet.thrift` of the
Parquet format; the others travel unread.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any, BinaryIO

# Compact protocol types (a bool field carries its value in its type: 1 true, 2 false).
BOOL, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT, UUID = (
    1,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
)
_FALSE = 2
_MAX_DEPTH = 64

MAGIC = b"PAR1"
ENCRYPTED_MAGIC = b"PARE"

# FileMetaData
FILE_VERSION, FILE_SCHEMA, FILE_NUM_ROWS, FILE_ROW_GROUPS, FILE_KEY_VALUES = 1, 2, 3, 4, 5
FILE_CREATED_BY, FILE_COLUMN_ORDERS = 6, 7
FILE_ENCRYPTION = (8, 9)  # encryption algorithm, footer signing key
# SchemaElement
SCHEMA_NAME, SCHEMA_NUM_CHILDREN = 4, 5
# RowGroup
GROUP_COLUMNS, GROUP_BYTES, GROUP_NUM_ROWS, GROUP_FILE_OFFSET, GROUP_COMPRESSED = 1, 2, 3, 5, 6
GROUP_ORDINAL = 7
# ColumnChunk
CHUNK_FILE_PATH, CHUNK_FILE_OFFSET, CHUNK_META = 1, 2, 3
CHUNK_PAGE_INDEX = (4, 5, 6, 7)  # offset index offset / length, column index offset / length
CHUNK_CRYPTO = (8, 9)
# ColumnMetaData
META_TOTAL_COMPRESSED, META_DATA_PAGE, META_INDEX_PAGE, META_DICTIONARY_PAGE = 7, 9, 10, 11
META_BLOOM = (14, 15)  # bloom filter offset / length
# KeyValue
KEY, VALUE = 1, 2

Struct = dict[int, tuple[int, Any]]


@dataclass
class Seq:
    """A Thrift list or set: its kind (LIST or SET), its element type and its items."""

    kind: int
    element: int
    items: list[Any]


@dataclass
class Map:
    """A Thrift map: key type, value type and (key, value) pairs in order."""

    key: int
    value: int
    items: list[tuple[Any, Any]]


class FooterError(ValueError):
    """The bytes are not a Parquet footer this module can read (or the file is encrypted)."""


# ---------------------------------------------------------------- reading


class _Reader:
    """A cursor over compact-protocol bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise FooterError("truncated Thrift data")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise FooterError("truncated Thrift data")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def varint(self) -> int:
        shift = value = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7
            if shift > 70:
                raise FooterError("varint too long")

    def zigzag(self) -> int:
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def size(self) -> int:
        n = self.varint()
        if n > len(self.data) - self.pos:  # every element takes at least one byte
            raise FooterError("container larger than the data")
        return n

    def value(self, kind: int, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise FooterError("Thrift data nested too deeply")
        if kind == BOOL:
            return self.byte() == BOOL
        if kind == BYTE:
            return self.byte()
        if kind in (I16, I32, I64):
            return self.zigzag()
        if kind == DOUBLE:
            return struct.unpack("<d", self.take(8))[0]
        if kind == BINARY:
            return self.take(self.size())
        if kind == UUID:
            return self.take(16)
        if kind in (LIST, SET):
            head = self.byte()
            n = head >> 4
            if n == 15:
                n = self.size()
            element = _normal(head & 0x0F)
            return Seq(kind, element, [self.value(element, depth + 1) for _ in range(n)])
        if kind == MAP:
            n = self.size()
            if n == 0:
                return Map(0, 0, [])
            types = self.byte()
            key, value = _normal(types >> 4), _normal(types & 0x0F)
            return Map(
                key,
                value,
                [(self.value(key, depth + 1), self.value(value, depth + 1)) for _ in range(n)],
            )
        if kind == STRUCT:
            return self.struct(depth + 1)
        raise FooterError(f"unknown Thrift type {kind}")

    def struct(self, depth: int = 0) -> Struct:
        fields: Struct = {}
        last = 0
        while True:
            head = self.byte()
            if head == 0:
                return fields
            kind, delta = head & 0x0F, head >> 4
            fid = last + delta if delta else self.zigzag()
            if kind in (BOOL, _FALSE):
                fields[fid] = (BOOL, kind == BOOL)
            else:
                fields[fid] = (kind, self.value(kind, depth))
            last = fid


def _normal(kind: int) -> int:
    """An element type with the two bool codes made one."""
    return BOOL if kind == _FALSE else kind


def decode_struct(data: bytes) -> Struct:
    """The struct encoded in `data`, which must hold exactly one. Raises FooterError."""
    reader = _Reader(data)
    fields = reader.struct()
    if reader.pos != len(data):
        raise FooterError("bytes left after the Thrift struct")
    return fields


# ---------------------------------------------------------------- writing


def _varint(out: bytearray, n: int) -> None:
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _zigzag(out: bytearray, n: int) -> None:
    _varint(out, (n << 1) ^ (n >> 63))


def _write_value(out: bytearray, kind: int, value: Any) -> None:
    if kind == BOOL:
        out.append(BOOL if value else _FALSE)
    elif kind == BYTE:
        out.append(value & 0xFF)
    elif kind in (I16, I32, I64):
        _zigzag(out, value)
    elif kind == DOUBLE:
        out += struct.pack("<d", value)
    elif kind == BINARY:
        _varint(out, len(value))
        out += value
    elif kind == UUID:
        out += value
    elif kind in (LIST, SET):
        n = len(value.items)
        if n < 15:
            out.append((n << 4) | value.element)
        else:
            out.append(0xF0 | value.element)
            _varint(out, n)
        for item in value.items:
            _write_value(out, value.element, item)
    elif kind == MAP:
        _varint(out, len(value.items))
        if value.items:
            out.append((value.key << 4) | value.value)
        for k, v in value.items:
            _write_value(out, value.key, k)
            _write_value(out, value.value, v)
    elif kind == STRUCT:
        _write_struct(out, value)
    else:
        raise FooterError(f"unknown Thrift type {kind}")


def _write_struct(out: bytearray, fields: Struct) -> None:
    last = 0
    for fid in sorted(fields):
        kind, value = fields[fid]
        head = (BOOL if value else _FALSE) if kind == BOOL else kind
        if 0 < fid - last <= 15:
            out.append(((fid - last) << 4) | head)
        else:
            out.append(head)
            _zigzag(out, fid)
        if kind != BOOL:
            _write_value(out, kind, value)
        last = fid
    out.append(0)


def encode_struct(fields: Struct) -> bytes:
    """`fields` in the compact protocol (the inverse of `decode_struct`)."""
    out = bytearray()
    _write_struct(out, fields)
    return bytes(out)


# ---------------------------------------------------------------- files


def read_footer(f: BinaryIO) -> tuple[Struct, int]:
    """(FileMetaData, where the footer starts) of the Parquet file open in `f`.

    Raises FooterError for a file that does not end as a plain Parquet file does,
    including one whose footer is encrypted.
    """
    size = f.seek(0, 2)
    if size < 12:
        raise FooterError("too short for a Parquet file")
    f.seek(size - 8)
    start = _footer_start(f.read(8), size)
    f.seek(start)
    return decode_struct(f.read(size - 8 - start)), start


def footer_of(data: Any) -> tuple[Struct, int]:
    """`read_footer` for a whole Parquet file in memory (any buffer)."""
    view = memoryview(data).cast("B")
    size = len(view)
    if size < 12:
        raise FooterError("too short for a Parquet file")
    start = _footer_start(bytes(view[-8:]), size)
    return decode_struct(bytes(view[start : size - 8])), start


def _footer_start(tail: bytes, size: int) -> int:
    """Where the footer starts, from the file's last 8 bytes and its size."""
    if tail[4:] == ENCRYPTED_MAGIC:
        raise FooterError("the footer is encrypted")
    if tail[4:] != MAGIC:
        raise FooterError("no Parquet magic at the end")
    start = size - 8 - int.from_bytes(tail[:4], "little")
    if start < 4:
        raise FooterError("footer length out of range")
    return start


def footer_bytes(meta: Struct) -> bytes:
    """The end of a Parquet file: `meta` encoded, its length and the magic."""
    data = encode_struct(meta)
    return data + len(data).to_bytes(4, "little") + MAGIC


def field(fields: Struct, fid: int, default: Any = None) -> Any:
    """The value of field `fid`, or `default` when absent."""
    entry = fields.get(fid)
    return default if entry is None else entry[1]
