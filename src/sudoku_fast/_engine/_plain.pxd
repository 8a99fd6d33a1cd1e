# cython: language_level=3
"""Reading a plain 81-character puzzle string (digits, '.', '0') into one grid row, on a
borrowed pointer and without the GIL: shared by the 9x9 engine's list reader and the
variant engine, which read a batch's strings on the worker threads."""

from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_1BYTE_KIND
from libc.stdint cimport uint8_t

cdef extern from "Python.h":
    bint plain_exact_str "PyUnicode_CheckExact" (PyObject *o) nogil
    int plain_str_kind "PyUnicode_KIND" (PyObject *o) nogil
    Py_ssize_t plain_str_length "PyUnicode_GET_LENGTH" (PyObject *o) nogil
    const void *plain_str_data "PyUnicode_DATA" (PyObject *o) nogil


cdef inline bint encode_plain(PyObject *item, uint8_t *row) noexcept nogil:
    """Write a plain 81-character puzzle (digits, '.', '0') into row; False if not plain.

    `item` is borrowed and only read: no reference count is touched, so a pass over a
    batch reads each string once and writes nothing to it. (A str is immutable: a
    thread without the GIL may read one that a tuple or a held list keeps alive.)
    """
    cdef const unsigned char *chars
    cdef uint8_t value, is_dot, foreign = 0
    cdef Py_ssize_t k
    # Plain puzzles are ASCII, stored one byte per character.
    if (
        not plain_exact_str(item)
        or plain_str_kind(item) != PyUnicode_1BYTE_KIND
        or plain_str_length(item) != 81
    ):
        return False
    chars = <const unsigned char *>plain_str_data(item)
    # Branch-free byte arithmetic rather than a table lookup per character, so the
    # compiler turns the loop into SIMD (SSE2 is baseline): '0'-'9' -> 0-9, '.' -> 0.
    for k in range(81):
        value = <uint8_t>(chars[k] - 48)
        is_dot = chars[k] == 46
        foreign |= (value > 9) & (is_dot ^ 1)
        row[k] = value & <uint8_t>(is_dot - 1)
    return foreign == 0
