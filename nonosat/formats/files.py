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
    (b"\xff\xfe\0\0", "utf-32", "UTF-32"),
    (b"\0\0\xfe\xff", "utf-32", "UTF-32"),
    (b"\xff\xfe", "utf-16", "UTF-16"),
    (b"\xfe\xff", "utf-16", "UTF-16"),
)
"""The byte order marks of UTF-32 and UTF-16 (UTF-32's first: it starts as UTF-16's little-endian
one), each with its codec and its name for messages."""

_READ_AS = (
    "puzzle files are read as UTF-8, as UTF-16 or UTF-32 after a byte order mark, or in the encoding an XML "
    "file declares"
)


def text_encodings(data: bytes, path: str) -> list[tuple[str, str]]:
    """The encodings to read a file's bytes in, each tried in turn, with its name for messages:
    UTF-16 or UTF-32 by a byte order mark (as Windows' Notepad saves "Unicode"); else UTF-8,
    then the encoding an XML file declares (a review of the formats: one declaring ISO-8859-1
    was refused as "not a text file"; the review of the mend: files saved as UTF-8 that still
    declare another encoding are common, and were read right before). A declared UTF-16 or
    UTF-32 without its mark is not believed, as expat does not."""
    import codecs

    for mark, codec, name in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return [(codec, name)]
    utf8 = [("utf-8-sig", "UTF-8")]
    declared = _XML_ENCODING.match(data[:200])
    if declared is None:
        return utf8
    name = declared.group(1).decode("ascii")
    try:
        info = codecs.lookup(name)
        if not getattr(info, "_is_text_encoding", True):  # base64, zlib, rot13: codecs of bytes to bytes
            raise LookupError(name)
    except LookupError:
        raise ParseError(path, 1, f"the XML declares the encoding {name!r}, which nonosat cannot read") from None
    if info.name == "utf-8" or info.name.startswith(("utf-16", "utf-32")):
        return utf8
    return [*utf8, (info.name, name)]


def marked_text(head: bytes) -> str | None:
    """The start of a file that a byte order mark says is UTF-16 or UTF-32, decoded as far as it
    goes; None for any other file."""
    for mark, codec, _ in _BYTE_ORDER_MARKS:
        if head.startswith(mark):
            return head.decode(codec, "ignore")
    return None


def decode_text(data: bytes, path: str) -> str:
    """Decode a file's bytes as text (see text_encodings), refusing empty and binary files."""
    if not data.strip():
        raise ParseError(path, None, "the file is empty")
    encodings = text_encodings(data, path)
    if b"\0" in data and not encodings[0][0].startswith(("utf-16", "utf-32")):
        raise ParseError(
            path, line_at(data.decode("latin-1"), data.index(b"\0")), "not a text file (it holds NUL bytes)"
        )
    for codec, name in encodings:
        try:
            text = data.decode(codec)
            break
        except UnicodeDecodeError as error:
            if (codec, name) != encodings[-1]:
                continue
            before = data[: error.start].decode(codec, "replace")
            raise ParseError(
                path, line_at(before, len(before)), f"not {name} text (byte 0x{data[error.start]:02x}): {_READ_AS}"
            ) from error
        except UnicodeError:  # the codec "undefined"
            raise ParseError(path, 1, f"the XML declares the encoding {name!r}, which nonosat cannot read") from None
    if "\0" in text:
        raise ParseError(path, line_at(text, text.index("\0")), "not a text file (it holds NUL characters)")
    control = _CONTROL_CHARACTER.search(text)
    if control:
        raise ParseError(path, line_at(text, control.start()), "not a text file (it holds control characters)")
    return text.removeprefix("\ufeff")


def read_bytes(path: str | Path, what: str = "puzzle file") -> bytes:
    """The bytes of a puzzle file (or `what` else), or a ParseError saying why it cannot be read:
    it is missing, a folder or a device rather than a regular file, or larger than MAX_FILE_BYTES."""
    import stat

    from nonosat.limits import MAX_FILE_BYTES

    try:
        status = os.stat(path)
        if stat.S_ISDIR(status.st_mode):
            raise ParseError(path, None, f"this is a folder, not a {what}")
        if not stat.S_ISREG(status.st_mode):
            raise ParseError(path, None, f"not a regular file (a device, pipe or socket cannot hold a {what})")
        if status.st_size > MAX_FILE_BYTES:
            raise ParseError(path, None, f"the file has {status.st_size} bytes, over the limit of {MAX_FILE_BYTES}")
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError as error:
        raise ParseError(path, None, missing(path)) from error
    except IsADirectoryError as error:
        raise ParseError(path, None, f"this is a folder, not a {what}") from error
    except OSError as error:
        raise ParseError(path, None, f"cannot be read: {error.strerror or error}") from error


def missing(path: str | Path) -> str:
    """What a missing file is: none, or a symbolic link to none (a review: a dangling link in a
    folder given to batch was "no such file", though `ls` shows it)."""
    if os.path.islink(path):
        try:
            return f"a link to {os.readlink(path)}, which is not there"
        except OSError:
            pass
    if os.fspath(path) == "-":  # (a new user's review: standard input is not read)
        return "no such file (standard input is not read: save the puzzle to a file and name it)"
    return "no such file"


def read_text(path: str | Path, what: str = "puzzle file") -> str:
    """The text of a puzzle file (or `what` else), or a ParseError saying why it cannot be read
    (a review: `hint --state FOLDER` said "this is a folder, not a puzzle file")."""
    return decode_text(read_bytes(path, what), str(path))
