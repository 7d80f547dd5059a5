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


_XML_ENCODING = re.compile(rb"""\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']""")
"""The encoding an XML file declares in its first line (`<?xml version="1.0" encoding="..."?>`)."""

_BYTE_ORDER_MARKS = (
    (b"\xff\xfe\0\0", "utf-32"),
    (b"\0\0\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
"""The byte order marks of UTF-32 and UTF-16 (UTF-32's first: it starts as UTF-16's little-endian one)."""


def text_encoding(data: bytes, path: str) -> str:
    """The encoding a file's bytes say they are in: UTF-16 or UTF-32 by a byte order mark (as
    Windows' Notepad saves "Unicode"), the encoding an XML file declares, else UTF-8 (a review of
    the formats: an XML file declaring ISO-8859-1 was refused as "not a text file")."""
    import codecs

    for mark, encoding in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return encoding
    declared = _XML_ENCODING.match(data[:200])
    if declared is None:
        return "utf-8-sig"
    name = declared.group(1).decode("ascii")
    try:
        encoding = codecs.lookup(name).name
    except LookupError:
        raise ParseError(path, 1, f"the XML declares the encoding {name!r}, which nonosat cannot read") from None
    return "utf-8-sig" if encoding == "utf-8" else encoding


def decode_text(data: bytes, path: str) -> str:
    """Decode a file's bytes as text (UTF-8, or see text_encoding), refusing empty and binary files."""
    if not data.strip():
        raise ParseError(path, None, "the file is empty")
    encoding = text_encoding(data, path)
    if b"\0" in data and not encoding.startswith("utf-16") and not encoding.startswith("utf-32"):
        raise ParseError(
            path, line_at(data.decode("latin-1"), data.index(b"\0")), "not a text file (it holds NUL bytes)"
        )
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        before = data[: error.start].decode(encoding, "replace")
        line = line_at(before, len(before))
        said = "UTF-8" if encoding == "utf-8-sig" else encoding
        raise ParseError(
            path,
            line,
            f"not {said} text (byte 0x{data[error.start]:02x}): puzzle files are read as UTF-8, as UTF-16 after a "
            "byte order mark, or in the encoding an XML file declares",
        ) from error
    if "\0" in text:
        raise ParseError(path, line_at(text, text.index("\0")), "not a text file (it holds NUL characters)")
    control = _CONTROL_CHARACTER.search(text)
    if control:
        raise ParseError(path, line_at(text, control.start()), "not a text file (it holds control characters)")
    return text.removeprefix("\ufeff")


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
