"""What reaches a terminal is safe: no control characters from the input, messages cut to a
sensible length on one line, and a standard output that a closed pipe cannot turn into a crash.

A puzzle's title, a file name or a clue echoed in an error could hold terminal escapes (ESC [31m
recolours the terminal; others move the cursor or retitle the window) or lone surrogates (which
cannot be encoded). `clean` replaces them. `guard_stdout` makes writes to a closed standard output
(`nonosat solve cat.non | head -1`) vanish quietly, so the command still ends with its verdict's
exit code.
"""

from __future__ import annotations

import errno
import os
import sys

from nonosat.basics import printable as clean

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Any, TextIO

__all__ = ["MESSAGE_LIMIT", "GuardedStdout", "clean", "guard_stdout", "one_line"]

MESSAGE_LIMIT = 300
"""Characters of an error message shown at most (a message that echoes input could be huge)."""


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A message made `clean` (so on one line), cut to `limit` characters with an ellipsis."""
    text = clean(text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class GuardedStdout:
    """Standard output that, once its reader has gone, drops what is written instead of raising."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.closed_pipe = False

    def _run(self, method: str, *args: Any) -> Any:
        if self.closed_pipe:
            return len(args[0]) if method == "write" else None
        try:
            return getattr(self._stream, method)(*args)
        except OSError as error:
            if not isinstance(error, BrokenPipeError) and error.errno != errno.EPIPE:
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
    """Replace sys.stdout with a GuardedStdout (once)."""
    if not isinstance(sys.stdout, GuardedStdout) and sys.stdout is not None:
        sys.stdout = GuardedStdout(sys.stdout)
