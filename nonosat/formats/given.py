"""The readers' checks of what a library caller gives them, before any reading: a file's text or
bytes, the name it goes by, the number of the puzzle wanted. Each wrong one is a UsageError
saying what was expected (README, "Python API"), never a TypeError from inside a reader."""

from __future__ import annotations

import os
import re

from nonosat.errors import ParseError, UsageError


def check_number(number: object) -> None:
    """A puzzle's number in a file of several: a whole number of at least 1, or None."""
    if number is not None and (isinstance(number, bool) or not isinstance(number, int) or number < 1):
        raise UsageError(f"number: expected a whole number of at least 1 (or None), not {number!r:.40}")


PICKED = re.compile(r"(\.[A-Za-z0-9]+)#([1-9][0-9]*)$")
"""A file's name ending in the command line's FILE#N (after a suffix: `taai2011.txt#5`)."""


def check_name_and_number(name: object, number: object, picks: bool = True) -> None:
    """The library's callers name the bytes with a str, and pick a puzzle by a whole number of at
    least 1 (a str such as "1", from a query, said "there is no puzzle $1 (the file holds $1 to
    $1000)"; True was taken as 1). A name that picks a puzzle as the command line does (FILE#N)
    is told where the number goes (`picks`: the caller takes one), or that every puzzle is read."""
    if not isinstance(name, str):
        raise UsageError(f"name: expected the file's name as a str, not {type(name).__name__}")
    picked = PICKED.search(name)
    if picked is not None:  # the command line's FILE#N: "unknown format: no reader takes .txt#5 files"
        bare, number_text = name[: picked.start(2) - 1][:60], picked[2]
        where = f"and give {{number}}={number_text}" if picks else "(every puzzle of the file is read)"
        raise UsageError(
            f"{{name}} {name[:60]!r} picks puzzle {number_text} as the command line does; here name the file"
            f" {bare!r} {where}",
            number="number",
            name="the name",
        )
    check_number(number)


def check_text(text: object, fmt: object, path: object, number: object) -> None:
    """`loads`'s arguments, checked as `load_bytes` checks its own (a review: bytes, None or
    number="1" raised bare TypeErrors or said "there is no puzzle $1 (the file holds $1 to $2)")."""
    from nonosat.limits import MAX_FILE_BYTES

    if not isinstance(text, str):
        hint = " (decode it, or read it with load_bytes)" if isinstance(text, bytes | bytearray) else ""
        raise UsageError(f"text: expected the file's text as a str, not {type(text).__name__}{hint}")
    if fmt is not None and not isinstance(fmt, str):
        raise UsageError(f"fmt: expected a format's name as a str (or None), not {type(fmt).__name__}")
    if path is not None and not isinstance(path, str | os.PathLike):
        raise UsageError(f"path: expected the file's name as a str (or None), not {type(path).__name__}")
    check_number(number)
    if len(text) > MAX_FILE_BYTES:  # (a character is at least a byte in the file it came from)
        raise ParseError(
            None if path is None else str(path),
            None,
            f"the text has {len(text)} characters, over the limit of {MAX_FILE_BYTES}",
        )


def check_bytes(data: object, name: str) -> bytes:
    """The library's callers pass bytes, or a bytearray or memoryview of them (taken as bytes); a
    str read as text is a UsageError, never a TypeError."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise UsageError(f"{name}: the file's bytes are wanted, not {type(data).__name__} (encode a str first)")
    return bytes(data)
