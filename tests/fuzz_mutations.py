"""The mutations of the fuzz tests (tests/test_fuzz.py), as Hypothesis strategies, so that
Hypothesis shrinks a failure to a small change: characters and bytes flipped, deleted, inserted
(digits, huge numbers, brackets, quotes, Unicode, NUL and control characters), duplicated and cut;
lines dropped, doubled, swapped and repeated; numbers made boundary, negative or huge; brackets and
tags opened deeply; a PNG's header fields changed and its checksums fixed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, AnyStr

from hypothesis import strategies as st

HUGE = str(10**30)
TOKENS = [
    "0",
    "1",
    "9",
    "-1",
    "-",
    "+",
    HUGE,
    "9" * 5000,
    "1.5",
    "1e9",
    "nan",
    "#",
    "$",
    "$1",
    "$0",
    "[",
    "]",
    "[|",
    "{",
    "}",
    "<",
    ">",
    "</",
    "<line>",
    "<count>",
    "&amp;",
    "&#0;",
    "&bogus;",
    '"',
    "'",
    ",",
    ".",
    ":",
    ";",
    "=",
    "/",
    "|",
    "x",
    "====",
    "[clues]",
    "[colors]",
    "rows",
    "columns",
    "width",
    "height",
    "goal",
    ": rows",
    "#d",
    "#t",
    "P1",
    "P4",
    "1a",
    "3r",
    "5x5:",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "\x0b",
    "\x0c",
    "é",
    "🙂",
    "²",
    "٣",
    "１",
    "\u202e",
    "\u2028",
    "\ufeff",
    "\u00a0",
    "\x00",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "\ud800",
]
NUMBERS = ["0", "1", "2", "3", "25", "26", "1024", "1025", "262144", "2147483648", HUGE, "-1", "00", "9" * 5000]
NESTING = ["[", "{", '{"a": ', "<a>", "(", "[|", "<p><q>"]
NUMBER = re.compile(r"[0-9]+")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

Draw = Callable[[st.SearchStrategy[Any]], Any]


def at(draw: Draw, length: int) -> int:
    return int(draw(st.integers(0, max(length, 0))))


def flip(draw: Draw, text: AnyStr) -> AnyStr:
    """Replace one character (or byte)."""
    i = at(draw, len(text) - 1)
    if isinstance(text, bytes):
        return text[:i] + bytes([draw(st.integers(0, 255))]) + text[i + 1 :]
    return text[:i] + str(draw(st.characters())) + text[i + 1 :]


def delete(draw: Draw, text: AnyStr) -> AnyStr:
    i = at(draw, len(text))
    return text[:i] + text[i + int(draw(st.sampled_from([1, 2, 8, 64]))) :]


def insert(draw: Draw, text: AnyStr) -> AnyStr:
    """Insert a token: a digit, a huge number, a bracket, a quote, Unicode, NUL or a control character."""
    i = at(draw, len(text))
    token = str(draw(st.sampled_from(TOKENS) | st.text(max_size=3)))
    if isinstance(text, bytes):
        return text[:i] + token.encode("utf-8", "surrogatepass") + text[i:]
    return text[:i] + token + text[i:]


def duplicate(draw: Draw, text: AnyStr) -> AnyStr:
    i, j = at(draw, len(text)), at(draw, len(text))
    piece = text[i : i + int(draw(st.sampled_from([1, 8, 64])))]
    return text[:j] + piece * int(draw(st.sampled_from([1, 2, 10]))) + text[j:]


def truncate(draw: Draw, text: AnyStr) -> AnyStr:
    return text[: at(draw, len(text))]


def lines(draw: Draw, text: AnyStr) -> AnyStr:
    """Delete, duplicate, swap or repeat lines."""
    parts = text.splitlines(keepends=True)
    if not parts:
        return text
    i, j = at(draw, len(parts) - 1), at(draw, len(parts) - 1)
    how = draw(st.sampled_from(["delete", "duplicate", "swap", "repeat"]))
    if how == "delete":
        del parts[i]
    elif how == "duplicate":
        parts.insert(j, parts[i])
    elif how == "swap":
        parts[i], parts[j] = parts[j], parts[i]
    else:
        parts[i:i] = [parts[i]] * int(draw(st.sampled_from([10, 1000])))
    return text[:0].join(parts)


def number(draw: Draw, text: str) -> str:
    """Replace a number by a boundary, negative or huge one."""
    found = list(NUMBER.finditer(text))
    if not found:
        return insert(draw, text)
    match = found[at(draw, len(found) - 1)]
    new = str(draw(st.sampled_from(NUMBERS) | st.integers(-3, 40).map(str)))
    return text[: match.start()] + new + text[match.end() :]


def nest(draw: Draw, text: str) -> str:
    """Open brackets or tags deeply."""
    i = at(draw, len(text))
    return text[:i] + str(draw(st.sampled_from(NESTING))) * int(draw(st.sampled_from([10, 1000, 10_000]))) + text[i:]


TEXT_MUTATIONS = [flip, delete, insert, duplicate, truncate, lines, number, nest]
BYTE_MUTATIONS = [flip, delete, insert, duplicate, truncate, lines]


@st.composite
def text_mutants(draw: Draw, seeds: tuple[str, ...]) -> str:
    """A seed changed one to four times."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        text = draw(st.sampled_from(TEXT_MUTATIONS))(draw, text)
    return str(text)


def fix_png_checksums(data: bytes) -> bytes:
    """Recompute every whole chunk's CRC, so that the decoder, not the checksum, meets the change."""
    import zlib

    out, at_ = bytearray(data), len(PNG_MAGIC)
    while at_ + 12 <= len(data):
        length = int.from_bytes(data[at_ : at_ + 4], "big")
        if at_ + 12 + length > len(data):
            break
        out[at_ + 8 + length : at_ + 12 + length] = zlib.crc32(data[at_ + 4 : at_ + 8 + length]).to_bytes(4, "big")
        at_ += 12 + length
    return bytes(out)


@st.composite
def byte_mutants(draw: Draw, seeds: tuple[bytes, ...]) -> bytes:
    """An image changed one to four times; a PNG's header fields too, and its checksums fixed."""
    data = draw(st.sampled_from(seeds))
    is_png = data.startswith(PNG_MAGIC)
    if is_png and draw(st.booleans()):
        field, size = draw(st.sampled_from([(16, 4), (20, 4), (24, 1), (25, 1)]))
        value = draw(st.sampled_from([0, 1, 2, 3, 4, 6, 8, 16, 1025, 2**31, 2**32 - 1]))
        data = data[:field] + (value % 256**size).to_bytes(size, "big") + data[field + size :]
    for _ in range(draw(st.integers(0 if is_png else 1, 4))):
        data = draw(st.sampled_from(BYTE_MUTATIONS))(draw, data)
    return fix_png_checksums(data) if is_png and draw(st.booleans()) else bytes(data)
