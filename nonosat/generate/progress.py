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
_CLOSEST: ContextVar[tuple[float, int] | None] = ContextVar("nonosat_repair_closest", default=None)

SOUGHT = {"line": "line-solvable", "probe": "probe-solvable", "unique": "unique"}
"""What each requirement asks of the puzzle, in words (here and in the repair's failure)."""


@contextlib.contextmanager
def watched(watch: Watch | None) -> Iterator[None]:
    """Run the repairs inside with `watch` hearing where they stand (None: no one)."""
    token, closest = _WATCH.set(watch), _CLOSEST.set(None)
    try:
        yield
    finally:
        _CLOSEST.reset(closest)
        _WATCH.reset(token)


def kept(changed: int, distance: float) -> None:
    """A puzzle is in hand, the closest to the picture so far: `changed` cells at `distance`.
    What the repairs after it say comes with it (a review: the closing tries of a colour picture
    at 60 wide ran for a minute, their line starting again at "0 changed" for each, with no word
    that a puzzle had been found after 8 s)."""
    closest = _CLOSEST.get()
    if _WATCH.get() is not None and (closest is None or (distance, changed) < closest):
        _CLOSEST.set((distance, changed))


def told(require: str, changed: int, left: int) -> None:
    """Where a repair toward `require` stands: `changed` cells changed, `left` left open by line
    logic."""
    watch = _WATCH.get()
    if watch is not None:
        closest = _CLOSEST.get()
        text = f"toward a {SOUGHT.get(require, require)} puzzle: {changed} changed, {left} open"
        if closest is not None:
            distance, cells = closest
            text += f" · closest so far {cells} {'cell' if cells == 1 else 'cells'} at {distance:.2f}"
        watch(text)
