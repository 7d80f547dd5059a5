"""A puzzle file's bytes and text: read within the size limit, refused when it is missing, a
folder or a device, empty, or not text (NUL bytes, invalid UTF-8, control characters), always
as a ParseError naming the file (and the line, where there is one)."""

from __future__ import annotations

import os
import re

from nonosat.errors import ParseError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from pathlib import Path

_CONTROL_CHARACTER = re.compile(r"[\x01-\x08\x0e-\x1f\x7f]")


def line_at(text: str, index: int) -> int:
    """The 1-based line number of a character offset, whatever the line endings."""
    return text[:index].replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1


def decode_text(data: bytes, path: str) -> str:
    """Decode a file's bytes as UTF-8 text, refusing empty and binary files."""
    if not data.strip():
        raise ParseError(path, None, "the file is empty")
    if b"\0" in data:
        raise ParseError(
            path, line_at(data.decode("latin-1"), data.index(b"\0")), "not a text file (it holds NUL bytes)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = line_at(data.decode("latin-1"), error.start)
        raise ParseError(path, line, "not a text file (it is not valid UTF-8)") from error
    control = _CONTROL_CHARACTER.search(text)
    if control:
        raise ParseError(path, line_at(text, control.start()), "not a text file (it holds control characters)")
    return text


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a puzzle file, or a ParseError saying why it cannot be read: it is missing, a
    folder or a device rather than a regular file, or larger than MAX_FILE_BYTES."""
    import stat

    from nonosat.limits import MAX_FILE_BYTES

    try:
        status = os.stat(path)
        if stat.S_ISDIR(status.st_mode):
            raise ParseError(path, None, "this is a folder, not a puzzle file")
        if not stat.S_ISREG(status.st_mode):
            raise ParseError(path, None, "not a regular file (a device, pipe or socket cannot hold a puzzle)")
        if status.st_size > MAX_FILE_BYTES:
            raise ParseError(path, None, f"the file has {status.st_size} bytes, over the limit of {MAX_FILE_BYTES}")
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError as error:
        raise ParseError(path, None, "no such file") from error
    except IsADirectoryError as error:
        raise ParseError(path, None, "this is a folder, not a puzzle file") from error
    except OSError as error:
        raise ParseError(path, None, f"cannot be read: {error.strerror or error}") from error


def read_text(path: str | Path) -> str:
    """The text of a puzzle file, or a ParseError saying why it cannot be read."""
    return decode_text(read_bytes(path), str(path))
