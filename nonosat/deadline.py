"""One time limit for a whole piece of work: every stage that can run long checks the same deadline.

A command's `--timeout` becomes one `Deadline` when the command starts, and is passed down as it
is: every function that takes a `timeout` takes a Deadline there too (`Deadline.of`). Line logic,
building the CNF, loading it into the solver, the search, rating, the minimal set of conflicting
lines and the generator's repair all check it, so the limit holds for the whole command, not only
for the SAT search. A stage cut short raises `TimeUp`, which names the stage; the caller reports what it
knows (the verdict so far, or "unknown") and never guesses.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections.abc import Iterator

from nonosat.errors import TimeUp, UsageError

__all__ = ["NO_DEADLINE", "Deadline", "TimeUp", "seconds_or_none"]


NEVER = 1e9
"""Seconds (about 31 years) beyond which a time limit is taken as none: the clocks and timers a
deadline arms cannot count that far (threading.TIMEOUT_MAX, setitimer)."""


def seconds_or_none(seconds: float | None, name: str = "timeout") -> float | None:
    """A time limit as given by a caller: None, infinity or over NEVER for none, else a number of
    seconds >= 0. Raises UsageError for a negative number or NaN, which no clock can reach."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds) or seconds < 0:
        raise UsageError(f"{name} must be a number of seconds, at least 0, not {seconds!r}")
    return None if seconds > NEVER else float(seconds)


class Deadline:
    """A moment on the monotonic clock by which the work must end, or none (`at` is None)."""

    def __init__(self, at: float | None = None) -> None:
        self.at = at

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline `seconds` from now (None or infinity: no deadline)."""
        limit = seconds_or_none(seconds)
        return cls(None if limit is None else time.monotonic() + limit)

    @classmethod
    def of(cls, limit: float | Deadline | None) -> Deadline:
        """A time limit as the library's functions take it: seconds from now (None or infinity:
        none), or the `Deadline` of a whole command, passed down as it is (never turned back
        into seconds and made again)."""
        return limit if isinstance(limit, Deadline) else cls.after(limit)

    def remaining(self) -> float | None:
        """Seconds left (0 once passed), or None without a deadline."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def within(self, seconds: float) -> Deadline:
        """This deadline or the one `seconds` from now, whichever comes first: a bound on one
        stage inside the whole command's limit."""
        at = time.monotonic() + seconds
        return Deadline(at if self.at is None else min(at, self.at))

    def passed(self) -> bool:
        """Whether the deadline has come (never, without one)."""
        return self.at is not None and time.monotonic() >= self.at

    def check(self, stage: str) -> None:
        """Raise TimeUp naming `stage` if the deadline has passed."""
        if self.at is not None and time.monotonic() >= self.at:
            raise TimeUp(stage)


NO_DEADLINE = Deadline()


@contextlib.contextmanager
def alarm(deadline: Deadline, stage: str) -> Iterator[None]:
    """Hold Python code that does not look at the clock (a file's reader) to the deadline: a
    timer signal raises TimeUp(stage) in it when the deadline passes. Only in the main thread of
    a program that has SIGALRM (elsewhere the code runs to its end)."""
    remaining = deadline.remaining()
    if (
        remaining is None
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    if remaining <= 0:
        raise TimeUp(stage)

    def ring(signum: int, frame: object) -> None:
        raise TimeUp(stage)

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, remaining)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
