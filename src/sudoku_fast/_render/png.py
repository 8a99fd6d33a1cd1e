"""PNG pictures: a PDF page rasterised by PDFium (the optional `png` extra), then
written as a PNG by a small encoder here (8-bit RGB, no filter, deflated).

PDFium comes as `pypdfium2`, a self-contained wheel for every platform this package
has wheels for (no system library, its own copies of the standard fonts), under
Apache-2.0 / BSD-3-Clause; the PDF it reads is the one `pdf.py` writes, so a PNG shows
exactly what prints.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

INSTALL_HINT = "PNG output needs pypdfium2: pip install 'sudoku_fast[png]'"


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return pypdfium2


def png_bytes(rgb: bytes, width: int, height: int) -> bytes:
    """An 8-bit RGB image (rows top to bottom, no padding) as a PNG file."""
    if len(rgb) != 3 * width * height:
        raise ValueError(f"expected {3 * width * height} bytes of RGB, got {len(rgb)}")
    row = 3 * width
    raw = b"".join(b"\x00" + rgb[y * row : (y + 1) * row] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def pdf_to_png(pdf: bytes, dpi: float) -> list[bytes]:
    """Every page of `pdf` as a PNG at `dpi` dots per inch.

    Raises
    ------
    ImportError
        Without pypdfium2 (the `png` extra).
    """
    pdfium = _pdfium()
    document = pdfium.PdfDocument(pdf)
    out = []
    try:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=dpi / 72, rev_byteorder=True)
            width, height, stride = bitmap.width, bitmap.height, bitmap.stride
            channels = bitmap.n_channels
            buffer = bytes(bitmap.buffer)
            if channels == 3 and stride == 3 * width:
                rgb = buffer
            else:
                rows = []
                for y in range(height):
                    line = buffer[y * stride : y * stride + channels * width]
                    if channels == 4:
                        keep = bytearray(3 * width)
                        keep[0::3], keep[1::3], keep[2::3] = line[0::4], line[1::4], line[2::4]
                        line = bytes(keep)
                    rows.append(line)
                rgb = b"".join(rows)
            out.append(png_bytes(rgb, width, height))
            bitmap.close()
            page.close()
    finally:
        document.close()
    return out
