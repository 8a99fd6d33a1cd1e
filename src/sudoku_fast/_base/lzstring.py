"""LZ-String's base64 form: the compression f-puzzles and SudokuPad links are made of.

LZ-String is an LZW variant over UTF-16 code units. The compressor keeps a dictionary
of the phrases seen so far (codes 0, 1 and 2 are reserved: "an 8-bit character follows",
"a 16-bit character follows", "end of stream"; the phrases start at 3) and writes each
code in as many bits as the dictionary currently needs, least significant bit first;
a new single character is sent literally, after code 0 or 1. The bit stream is cut into
6-bit groups, each written as one base64 character (most significant bit first), and
the text padded with "=" to a multiple of four characters. The URI-safe variant writes
"-" for "/" and no padding; `decompress_base64` reads both.
"""

from __future__ import annotations

__all__ = ["compress_base64", "decompress_base64"]

_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {ch: v for v, ch in enumerate(_BASE64)} | {"-": 63}


def _units(text: str) -> list[str]:
    """The UTF-16 code units of `text`, each as a one-character string."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [chr(int.from_bytes(data[i : i + 2], "little")) for i in range(0, len(data), 2)]


def _from_units(units: list[str]) -> str:
    """Text from UTF-16 code units (surrogate pairs joined)."""
    data = b"".join(ord(u).to_bytes(2, "little") for u in units)
    return data.decode("utf-16-le", "surrogatepass")


class _BitWriter:
    """Bits into 6-bit base64 characters, most significant bit first."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.value = 0
        self.filled = 0

    def write(self, value: int, bits: int) -> None:
        """`value` in `bits` bits, least significant first."""
        for _ in range(bits):
            self.value = (self.value << 1) | (value & 1)
            value >>= 1
            self.filled += 1
            if self.filled == 6:
                self.out.append(_BASE64[self.value])
                self.value = self.filled = 0

    def finish(self) -> str:
        # The last character is always written, all padding bits when the stream
        # ended on a character boundary (as LZString's own flush does).
        self.out.append(_BASE64[self.value << (6 - self.filled)])
        text = "".join(self.out)
        return text + "=" * (-len(text) % 4)


def compress_base64(text: str) -> str:
    """`text` compressed by LZ-String, in its base64 form (LZString.compressToBase64).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        The base64 characters, padded with "=".

    Examples
    --------
    >>> decompress_base64(compress_base64('{"size": 9}'))
    '{"size": 9}'
    """
    writer = _BitWriter()
    codes: dict[str, int] = {}
    pending: set[str] = set()  # single characters not yet sent literally
    next_code, bits, room = 3, 2, 2
    phrase = ""

    def emit(phrase: str) -> None:
        nonlocal bits, room
        if phrase in pending:
            unit = ord(phrase)
            wide = unit > 255
            writer.write(1 if wide else 0, bits)
            writer.write(unit, 16 if wide else 8)
            pending.discard(phrase)
            room -= 1
            if room == 0:
                room, bits = 1 << bits, bits + 1
        else:
            writer.write(codes[phrase], bits)
        room -= 1
        if room == 0:
            room, bits = 1 << bits, bits + 1

    for unit in _units(text):
        if unit not in codes:
            codes[unit] = next_code
            next_code += 1
            pending.add(unit)
        if phrase + unit in codes:
            phrase += unit
            continue
        emit(phrase)
        codes[phrase + unit] = next_code
        next_code += 1
        phrase = unit
    if phrase:
        emit(phrase)
    writer.write(2, bits)
    return writer.finish()


def decompress_base64(payload: str) -> str:
    """The text LZ-String's base64 form (or its URI-safe form) holds.

    Parameters
    ----------
    payload : str
        The compressed text; whitespace is ignored, a space is read as "+" (a link
        whose "+" became a space), "=" padding is optional.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        For a character outside the alphabets, a code the dictionary does not hold,
        or a stream that ends before its end marker.

    Examples
    --------
    >>> decompress_base64("N4IgzglgXgpiBcBOAvkA")
    '{"size":9}'
    """
    values = []
    for ch in payload.replace(" ", "+"):
        if ch in "=\n\r\t":
            continue
        if ch not in _VALUE:
            raise ValueError(f"not LZ-String base64: character {ch!r}")
        values.append(_VALUE[ch])
    position = 0  # bit index into the stream of 6-bit values

    def read(count: int) -> int:
        nonlocal position
        if position + count > 6 * len(values):
            raise ValueError("LZ-String data ends before its end marker")
        out = 0
        for k in range(count):
            index, bit = divmod(position, 6)
            if values[index] & (32 >> bit):
                out |= 1 << k
            position += 1
        return out

    if not values:
        raise ValueError("no LZ-String data")
    phrases: list[str | list[str]] = ["", "", ""]  # codes 0-2 are markers
    bits, room = 3, 4
    first = read(2)
    if first == 2:
        return ""
    if first not in (0, 1):
        raise ValueError("LZ-String data starts with a bad code")
    previous = [chr(read(8 if first == 0 else 16))]
    phrases.append(previous)
    result = list(previous)
    while True:
        code = read(bits)
        if code in (0, 1):
            phrases.append([chr(read(8 if code == 0 else 16))])
            code = len(phrases) - 1
            room -= 1
            if room == 0:
                room, bits = 1 << bits, bits + 1
        elif code == 2:
            return _from_units(result)
        if code < len(phrases):
            entry = list(phrases[code])
        elif code == len(phrases):
            entry = previous + previous[:1]
        else:
            raise ValueError(f"LZ-String data holds code {code}, beyond its dictionary")
        result += entry
        phrases.append(previous + entry[:1])
        room -= 1
        if room == 0:
            room, bits = 1 << bits, bits + 1
        previous = entry
