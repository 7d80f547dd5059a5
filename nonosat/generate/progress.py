"""Where a repair stands, for a caller who shows it while it runs (the command line, on a
terminal: `generate` toward `unique` can take a minute on a hard picture).

The repair says where it stands at each step (`told`); whoever asked, by running it `watched`,
hears it, in the same thread. Nothing is said, and nothing costs, when no one watches (the web
API, a library caller who does not ask).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Watch = Callable[[str], None]
"""Hears where the repair stands: "toward a line-solvable puzzle: 14 changed, 230 open" (cells
changed so far, cells line logic leaves open)."""

_WATCH: ContextVar[Watch | None] = ContextVar("nonosat_repair_watch", default=None)

SOUGHT = {"line": "line-solvable", "probe": "probe-solvable", "unique": "unique"}
"""What each requirement asks of the puzzle, in words (here and in the repair's failure)."""


@contextlib.contextmanager
def watched(watch: Watch | None) -> Iterator[None]:
    """Run the repairs inside with `watch` hearing where they stand (None: no one)."""
    token = _WATCH.set(watch)
    try:
        yield
    finally:
        _WATCH.reset(token)


def told(require: str, changed: int, left: int) -> None:
    """Where a repair toward `require` stands: `changed` cells changed, `left` left open by line
    logic."""
    watch = _WATCH.get()
    if watch is not None:
        watch(f"toward a {SOUGHT.get(require, require)} puzzle: {changed} changed, {left} open")
