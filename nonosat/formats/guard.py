"""Reading a file so that whatever goes wrong is one ParseError naming it (and its line)."""

from __future__ import annotations

from collections.abc import Callable

from nonosat.errors import NonosatError, ParseError
from nonosat.formats.common import PathName

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")


def guarded(read: Callable[[], T], path: PathName, fmt: str | None, text: str | None = None) -> T:
    """Run a reader (or the format's detection, with `fmt` None) so that whatever goes wrong is
    a ParseError naming the file: a reader's own errors pass through, and anything else (a
    RecursionError from 100,000 nested brackets, a number of 5,000 digits, a MemoryError, a bug)
    says the file cannot be read, at the line where that begins when `text` is given."""
    try:
        return read()
    except NonosatError:
        raise
    except Exception as error:  # noqa: BLE001 - bad input must never end in a traceback
        as_format = f" as {fmt}" if fmt else ""
        if isinstance(error, ValueError) and "digits" in str(error):
            line = _line_of(text, r"[0-9]{4301,}")  # Python's limit of digits to read (a fuzz review: no line)
            raise ParseError(path, line, f"cannot be read{as_format}: it holds a number too long to read") from error
        if isinstance(error, RecursionError):  # named for what it is, not as Python's exception (a review)
            line = _line_of(text, r'(?:[\[{(]\s*(?:"[^"\n]*"\s*:\s*)?){100}')
            raise ParseError(path, line, f"cannot be read{as_format}: it is nested too deeply") from error
        raise ParseError(path, None, f"cannot be read{as_format} ({type(error).__name__})") from error


def _line_of(text: str | None, pattern: str) -> int | None:
    """The line where `pattern` is first found in `text`, if it is."""
    import re

    from nonosat.formats.files import line_at

    found = None if text is None else re.search(pattern, text)
    return None if text is None or found is None else line_at(text, found.start())
