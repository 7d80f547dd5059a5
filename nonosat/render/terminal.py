"""What reaches a terminal is safe: no control characters from the input, messages cut to a
sensible length on one line, and a standard output that a closed pipe or a narrow encoding
cannot turn into a crash.

A puzzle's title, a file name or a clue echoed in an error could hold terminal escapes (ESC [31m
recolours the terminal; others move the cursor or retitle the window) or lone surrogates (which
cannot be encoded). `clean` replaces them. `guard_stdout` makes writes to a closed standard output
(`nonosat solve cat.non | head -1`) vanish quietly, so the command still ends with its verdict's
exit code, and lets standard output and standard error write what their encoding cannot hold
(a Windows console's cp1252, `PYTHONIOENCODING=ascii`) as the nearest ASCII (`FALLBACK`: `·`
as `-`, `…` as `...`), else `?`. `draws_blocks` tells the command line to draw grids in `#` and
`.` where the block characters cannot be written.
"""

from __future__ import annotations

import codecs
import errno
import os
import sys

from nonosat.text import printable as clean

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any, TextIO

__all__ = [
    "FALLBACK",
    "MESSAGE_LIMIT",
    "GuardedStdout",
    "clean",
    "draws_blocks",
    "guard_stdout",
    "one_line",
    "shown_chars",
    "writes",
]

MESSAGE_LIMIT = 300
"""Characters of an error message shown at most (a message that echoes input could be huge)."""


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A message made `clean` (so on one line), cut to `limit` characters with an ellipsis."""
    text = clean(text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class GuardedStdout:
    """Standard output that, once its reader has gone, drops what is written instead of raising;
    for standard error (`messages`), also once it cannot be written at all (a full disk under a
    log, `2>/dev/full`): a message lost is no reason to change the exit code, nor to throw away
    a puzzle made (a review: `generate ... 2>/dev/full` exited 74 after its work, the file unwritten)."""

    def __init__(self, stream: TextIO, messages: bool = False) -> None:
        self._stream = stream
        self.closed_pipe = False
        self.messages = messages

    def _run(self, method: str, *args: Any) -> Any:
        if self.closed_pipe:
            return len(args[0]) if method == "write" else None
        try:
            return getattr(self._stream, method)(*args)
        except OSError as error:
            if not self.messages and not isinstance(error, BrokenPipeError) and error.errno != errno.EPIPE:
                error.writing_stdout = True  # type: ignore[attr-defined]  # exit 74, not a bug (__main__)
                raise
            self._close_pipe()
            return len(args[0]) if method == "write" else None

    def _close_pipe(self) -> None:
        """Point file descriptor 1 at /dev/null, so that nothing (not even Python's last flush at
        exit) writes to the closed pipe again."""
        self.closed_pipe = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass

    def write(self, text: str) -> int:
        return int(self._run("write", text) or 0)

    def flush(self) -> None:
        self._run("flush")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard_stdout() -> None:
    """Replace sys.stdout and sys.stderr with GuardedStdouts (once), and let them write what their
    encoding cannot hold as its nearest ASCII (see `fall_back`). (A closed standard error turned
    `convert`'s note into exit 1, which Click gives any broken pipe.)"""
    for stream in (sys.stdout, sys.stderr):
        fall_back(stream)
    if not isinstance(sys.stdout, GuardedStdout) and sys.stdout is not None:
        sys.stdout = GuardedStdout(sys.stdout)
    if not isinstance(sys.stderr, GuardedStdout) and sys.stderr is not None:
        sys.stderr = GuardedStdout(sys.stderr, messages=True)


FALLBACK = {
    "\u00b7": "-",  # · between the parts of a status line
    "\u2026": "...",
    "\u2013": "-",
    "\u2014": "-",
    "\u2192": "->",
    "\u00d7": "x",
    "\u2588": "#",  # █ ▀ ▄: grids are drawn in # and . where these cannot be written (draws_blocks)
    "\u2580": "#",
    "\u2584": "#",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
}
"""What a character the output's encoding cannot hold is written as; any other becomes `?`."""

FALLBACK_ERRORS = "nonosat-ascii"
"""The name of the codecs error handler that writes `FALLBACK`."""


def _nearest_ascii(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(FALLBACK.get(char, "?") for char in text), error.end


codecs.register_error(FALLBACK_ERRORS, _nearest_ascii)


def fall_back(stream: object) -> None:
    """Let a text stream whose encoding is not UTF write what it cannot encode as `FALLBACK`
    says, instead of raising UnicodeEncodeError. Streams that cannot be reconfigured (a test's
    capture) are left as they are."""
    encoding = str(getattr(stream, "encoding", None) or "utf-8").lower().replace("_", "-")
    reconfigure = getattr(stream, "reconfigure", None)
    if encoding.startswith("utf") or reconfigure is None:
        return
    try:
        reconfigure(errors=FALLBACK_ERRORS)
    except (ValueError, OSError):
        pass


def writes(text: str, stream: object = None) -> bool:
    """Whether a stream (standard output by default) can write the text as it is."""
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def draws_blocks(stream: object = None) -> bool:
    """Whether a stream (standard output by default) can write the block characters grids are
    drawn with; where it cannot, the command line draws them in `#` and `.` (as `--ascii`)."""
    return writes("\u2588\u2580\u2584\u00b7", stream)


SPARE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*+=%@$&!~^<>/|"
"""Where the output cannot write a colour's character, the first of these no colour uses."""


def shown_chars(chars: list[str], stream: object = None) -> list[str]:
    """The palette's characters as a grid drawn in characters shows them: each its own, but one
    the output cannot write (`é` in ASCII, a cp1252 console's missing ones) a spare ASCII
    character no other colour has, so that two colours never look alike (both were `?`)."""
    if writes("".join(chars), stream):
        return chars
    spare = (char for char in SPARE_CHARS if char not in chars)
    return [char if writes(char, stream) else next(spare, "?") for char in chars]
