"""Parquet footers as data: the compact protocol read and written, checked against pyarrow."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sudoku_fast._files import parquet_footer as pf

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _table() -> object:
    n = 300
    return pa.table(
        {
            "id": pa.array(range(n), type=pa.int64()),
            "text": pa.array([f"row {i}" if i % 7 else None for i in range(n)]),
            "tags": pa.array([[i, i + 1] if i % 3 else [] for i in range(n)]),
            "point": pa.array([{"x": float(i), "y": i % 5 == 0} for i in range(n)]),
            "kind": pa.array([("a", "b", "c")[i % 3] for i in range(n)]).dictionary_encode(),
        },
        metadata={"origin": "test"},
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"compression": "zstd", "write_page_index": True, "data_page_version": "2.0"},
        {"compression": {"id": "none", "text": "gzip", "tags": "snappy"}, "version": "1.0"},
        {"write_statistics": False, "use_dictionary": False, "store_schema": False},
    ],
)
def test_pyarrow_footers_come_back_byte_for_byte(tmp_path: Path, options: dict) -> None:
    """Writing what was read gives pyarrow's own bytes, and the fields say what pyarrow says."""
    path = tmp_path / "t.parquet"
    pq.write_table(_table(), path, row_group_size=100, **options)
    with path.open("rb") as f:
        meta, start = pf.read_footer(f)
        f.seek(start)
        tail = f.read()
    assert pf.footer_bytes(meta) == tail
    assert pf.footer_of(path.read_bytes()) == (meta, start)
    expected = pq.ParquetFile(path).metadata
    assert pf.field(meta, pf.FILE_NUM_ROWS) == expected.num_rows
    groups = pf.field(meta, pf.FILE_ROW_GROUPS).items
    assert len(groups) == expected.num_row_groups
    for i, group in enumerate(groups):
        chunks = pf.field(group, pf.GROUP_COLUMNS).items
        assert len(chunks) == expected.row_group(i).num_columns
        for j, chunk in enumerate(chunks):
            known = expected.row_group(i).column(j)
            data = pf.field(chunk, pf.CHUNK_META)
            assert pf.field(data, pf.META_DATA_PAGE) == known.data_page_offset
            assert pf.field(data, pf.META_TOTAL_COMPRESSED) == known.total_compressed_size
    names = [pf.field(e, pf.SCHEMA_NAME) for e in pf.field(meta, pf.FILE_SCHEMA).items]
    assert names[1:3] == [b"id", b"text"]


def test_every_type_round_trips() -> None:
    inner = {1: (pf.BOOL, False), 2: (pf.DOUBLE, -2.5), 40: (pf.I16, -300)}
    fields: pf.Struct = {
        1: (pf.BOOL, True),
        2: (pf.BYTE, 200),
        3: (pf.I32, -(2**31)),
        4: (pf.I64, 2**63 - 1),
        5: (pf.I64, -1),
        6: (pf.BINARY, b"\x00\xffbytes"),
        7: (pf.LIST, pf.Seq(pf.LIST, pf.BOOL, [True, False, True])),
        8: (pf.SET, pf.Seq(pf.SET, pf.I32, list(range(-20, 20)))),
        9: (pf.MAP, pf.Map(pf.BINARY, pf.STRUCT, [(b"k", inner), (b"", {})])),
        10: (pf.MAP, pf.Map(0, 0, [])),
        11: (pf.UUID, bytes(range(16))),
        300: (pf.STRUCT, inner),  # a jump of more than 15 ids: the long field header
        301: (pf.LIST, pf.Seq(pf.LIST, pf.STRUCT, [inner] * 20)),
    }
    data = pf.encode_struct(fields)
    assert pf.decode_struct(data) == fields
    assert pf.encode_struct(pf.decode_struct(data)) == data


def test_compact_encoding_by_hand() -> None:
    """A few values written out from the protocol's description (not by this module)."""
    # field 1 i32 = -1: header (delta 1, type 5), zigzag(-1) = 1; field 2 bool true:
    # header (delta 1, type 1); field 20 binary "ab": short form impossible (delta 18),
    # so type byte 8 then zigzag(20) = 40, then length 2 and the bytes; stop.
    data = bytes([0x15, 0x01, 0x11, 0x08, 40, 0x02]) + b"ab" + b"\x00"
    fields = {1: (pf.I32, -1), 2: (pf.BOOL, True), 20: (pf.BINARY, b"ab")}
    assert pf.decode_struct(data) == fields
    assert pf.encode_struct(fields) == data
    # a list of 3 i64 (header 0x36) of 1, -2, 300 (zigzag 2, 3, 600 = 0xD8 0x04)
    data = bytes([0x19, 0x36, 0x02, 0x03, 0xD8, 0x04, 0x00])
    assert pf.decode_struct(data) == {1: (pf.LIST, pf.Seq(pf.LIST, pf.I64, [1, -2, 300]))}


@pytest.mark.parametrize(
    "data",
    [
        b"",  # no stop byte
        bytes([0x18, 0x05]) + b"ab",  # a binary longer than the data
        bytes([0x19, 0xF5, 0xFF, 0xFF, 0xFF, 0x0F]),  # a list longer than the data
        bytes([0x1E, 0x00]),  # type 14 does not exist
        bytes([0x15]) + b"\xff" * 12,  # a varint that never ends
        bytes([0x15, 0x01, 0x00, 0x00]),  # bytes after the struct
        bytes([0x1C]) * 100 + b"\x00" * 100,  # nested too deeply
    ],
)
def test_bad_bytes_are_refused(data: bytes) -> None:
    with pytest.raises(pf.FooterError):
        pf.decode_struct(data)


def test_files_that_are_not_parquet_are_refused() -> None:
    for data in (b"", b"PAR1PAR1", b"PAR1" + b"\x00" * 20 + b"\x05\x00\x00\x00PARX"):
        with pytest.raises(pf.FooterError):
            pf.read_footer(io.BytesIO(data))
    with pytest.raises(pf.FooterError, match="encrypted"):
        pf.footer_of(b"PAR1" + b"\x00" * 20 + b"\x05\x00\x00\x00PARE")
    with pytest.raises(pf.FooterError, match="length"):
        pf.footer_of(b"PAR1" + b"\x00" * 4 + b"\xff\x00\x00\x00PAR1")
