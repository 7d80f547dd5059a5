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
import os
import signal
import threading
import time
from collections.abc import Iterator

from nonosat.errors import TimeUp, UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)

__all__ = ["NO_DEADLINE", "Deadline", "TimeUp", "seconds_or_none"]


if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType
    from typing import Any, TypeAlias, TypeVar

    T = TypeVar("T")

    Handler: TypeAlias = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
    """What signal.getsignal gives: a function, SIG_DFL or SIG_IGN, or None (not set from Python)."""

NEVER = 1e9
"""Seconds (about 31 years) beyond which a time limit is taken as none: the clocks and timers a
deadline arms cannot count that far (threading.TIMEOUT_MAX, setitimer)."""


def seconds_or_none(seconds: float | None, name: str = "timeout") -> float | None:
    """A time limit as given by a caller: None, infinity or over NEVER for none, else a number of
    seconds >= 0. Raises UsageError for a negative number or NaN, which no clock can reach."""
    if seconds is None:
        return None
    # `seconds != seconds` is NaN's test: math.isnan overflows on a whole number past any float
    # (10**400 is no limit, below)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds != seconds or seconds < 0:
        raise UsageError(f"{name} must be a number of seconds, at least 0, not {seconds!r}")
    return None if seconds > NEVER else float(seconds)


GRACE = 0.1
"""Seconds from the moment a search's findings are handed over, when it ran to its deadline or
past it, that the grids it found may still be made grids and checked: a search that runs to
the deadline keeps what it found, not 63."""


class Deadline:
    """A moment on the monotonic clock by which the work must end, or none (`at` is None), and
    the grace for handing over what a search found by then (`handing_over`)."""

    def __init__(self, at: float | None = None, grace: float = GRACE) -> None:
        if at is not None:
            _check_moment(at)
        self.at = at
        self.grace = grace

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline `seconds` from now (None or infinity: no deadline)."""
        limit = seconds_or_none(seconds)
        return cls(None if limit is None else time.monotonic() + limit)

    @classmethod
    def for_command(cls, seconds: float | None) -> Deadline:
        """The deadline `seconds` after the command started, for its `--timeout`: in the
        `nonosat` program (`command_started`), from the process's start, so that the limit holds
        for the whole command as its user times it, Python's start-up and the imports included
        (a fifth of a second or more on a loaded machine), and EXITING before that, so that the
        process has ended by then; elsewhere (a command run in a long-lived process, by typer's
        CliRunner, say), `seconds` from now."""
        limit = seconds_or_none(seconds)
        if limit is None:
            return cls(None)
        if _command_started is None:
            return cls(time.monotonic() + limit)
        return cls(_command_started + max(0.0, limit - EXITING))

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
        return Deadline(at if self.at is None else min(at, self.at), self.grace)

    def handing_over(self) -> Deadline:
        """This deadline, or its `grace` from now when less is left: the time to make and check
        what a search found by its end (a search stops a little after its deadline, and what it
        found then must not be cut to nothing)."""
        if self.at is None:
            return self
        return Deadline(max(self.at, time.monotonic() + self.grace))

    def leaving(self, share: float, most: float) -> tuple[Deadline, Deadline]:
        """Two earlier deadlines, for a search whose findings take time to hand over (a count of
        thousands of grids, each made a grid, checked and written out): `share` of the time
        left, at most `most` seconds, is kept from the search; the grids are made and checked
        in the first half of that, each step with an eighth of it as grace; the second half is
        for writing them."""
        if self.at is None:
            return self, self
        kept = min(most, max(0.0, share * (self.at - time.monotonic())))
        grace = min(GRACE, kept / 8)
        return Deadline(self.at - kept, grace), Deadline(self.at - kept / 2, grace)

    def passed(self) -> bool:
        """Whether the deadline has come (never, without one)."""
        return self.at is not None and time.monotonic() >= self.at

    def check(self, stage: str, keep: float = 0.0) -> None:
        """Raise TimeUp naming `stage` if the deadline has passed, or is less than `keep` seconds
        away (the time to let go of what the stage made: a large formula's clauses)."""
        if self.at is not None and time.monotonic() >= self.at - keep:
            raise TimeUp(stage)

    def sooner(self, seconds: float) -> Deadline:
        """This deadline `seconds` sooner (none stays none): for a stage whose end takes that long
        after it stops."""
        return self if self.at is None else Deadline(self.at - seconds, self.grace)


def _check_moment(at: object) -> None:
    """A deadline's moment is a number on time.monotonic()'s clock: Deadline("x") was taken, NaN
    meant passed at once, and a moment on time.time()'s clock (decades ahead of the monotonic
    one) meant never."""
    if isinstance(at, bool) or not isinstance(at, int | float) or math.isnan(at):
        raise UsageError(f"a Deadline's moment is a number on time.monotonic()'s clock, not {at!r:.40}")
    if at - time.monotonic() > NEVER:
        raise UsageError(
            f"a Deadline at {at:.0f} is more than {NEVER:.0e} s ahead of time.monotonic() (time.time()'s clock?): "
            "make one with Deadline.after(seconds)"
        )


NO_DEADLINE = Deadline()


EXITING = 0.05
"""Seconds a `nonosat` command takes to end after its work: stopping a race's worker, and the
process's own end, which shuts its fork server and resource tracker down (35-40 ms measured; 4 ms
without workers). Measured here after a review's new-user check: `solve dom_14.dzn --timeout 1`
ended at 1.02-1.05 s, its last line written at 1.00-1.015 s."""

START_UP_CREDIT = 0.5
"""The most seconds of a process's age counted as the command's start-up (0.08 s on a loaded
machine here): a process a wrapper started long before and then made nonosat (`sleep 3; exec
nonosat ...`) does not find its deadline passed."""

_command_started: float | None = None
"""When the `nonosat` program's process started, on the monotonic clock (`command_started`)."""


def command_started() -> None:
    """Note, in the `nonosat` program's entry point, that this process is one command: its
    `--timeout` counts from the process's start (`Deadline.for_command`)."""
    global _command_started
    _command_started = time.monotonic() - min(process_age(), START_UP_CREDIT)


def process_age() -> float:
    """Seconds since this process started (to the kernel's clock tick, 10 ms), from
    /proc/self/stat; 0.0 where that cannot be read."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: starttime, in ticks since boot
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


@contextlib.contextmanager
def alarm(deadline: Deadline, stage: str) -> Iterator[None]:
    """Hold Python code that does not look at the clock (a file's reader) to the deadline: a
    timer signal raises TimeUp(stage) in it when the deadline passes. Only in the main thread of
    a program that has SIGALRM (elsewhere the code runs to its end). A caller's own timer
    (setitimer's ITIMER_REAL) goes on: its handler is called when it is due, and what is left of
    it is set again at the end."""
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
    theirs = _TheirTimer(signal.getsignal(signal.SIGALRM), *signal.getitimer(signal.ITIMER_REAL))

    def ring(signum: int, frame: object) -> None:
        if not theirs.ring(signum, frame):
            raise TimeUp(stage)
        theirs.arm(deadline)

    signal.signal(signal.SIGALRM, ring)
    theirs.arm(deadline)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if theirs.handler is None else theirs.handler)
        theirs.restore()


_ENDS_WITH_ITS_WORK = False
"""Whether this process ends when its work is cut short (`ends_with_its_work`)."""


def ends_with_its_work() -> None:
    """Note that this process ends soon after its work is cut short (a `nonosat` command, a web
    worker): `finished_by` may then leave work running in a thread of its own at the deadline."""
    global _ENDS_WITH_ITS_WORK
    _ENDS_WITH_ITS_WORK = True


def finished_by(deadline: Deadline, stage: str, work: Callable[[], T]) -> T:
    """What `work` gives, or TimeUp(stage) at the deadline, held to it in a command or a web
    worker even where `work` sits in C code that no timer signal cuts short (`alarm` is heard
    only between two steps of Python code: a review found Pillow's decoding of a 40-megapixel
    picture and its encoding of a preview 0.1-0.3 s past --timeout). There the work runs in a
    thread of its own (a daemon that does not hear Ctrl-C), left to end by itself when the
    deadline comes first: the process ends soon after. A library caller's process goes on, and
    such threads would pile up (the review of the mend: three calls of `from_image` cut short
    left two or three threads decoding, 900 MB, slowing the calls after them): there the work
    runs in the caller's own thread, under `alarm`."""
    remaining = deadline.remaining()
    if remaining is None:
        return work()
    if remaining <= 0:
        raise TimeUp(stage)
    if not _ENDS_WITH_ITS_WORK:
        with alarm(deadline, stage):
            value = work()
        deadline.check(stage)  # off the main thread no alarm rings: late, but nothing made of it (a review)
        return value
    from nonosat.interrupts import quiet_thread

    done = threading.Event()
    found: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            found.append(work())
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(error)
        finally:
            done.set()

    quiet_thread(run, name=f"nonosat {stage}")
    if not done.wait(remaining):
        raise TimeUp(stage)
    if failed:
        raise failed[0]
    return found[0]


class _TheirTimer:
    """A caller's interval timer and SIGALRM handler, found when `alarm` starts."""

    def __init__(self, handler: Handler, delay: float, interval: float) -> None:
        self.handler = handler
        self.due = time.monotonic() + delay if delay > 0 else None
        self.interval = interval

    def arm(self, deadline: Deadline) -> None:
        """Set the timer for whichever comes first, their moment or the deadline."""
        at = deadline.at if self.due is None or deadline.at is None else min(self.due, deadline.at)
        signal.setitimer(signal.ITIMER_REAL, max(1e-6, (at or 0.0) - time.monotonic()))

    def ring(self, signum: int, frame: object) -> bool:
        """Whether the signal was theirs: their handler is called, their next moment set."""
        if self.due is None or time.monotonic() < self.due:
            return False
        self.due = time.monotonic() + self.interval if self.interval > 0 else None
        if callable(self.handler):
            self.handler(signum, frame)  # type: ignore[arg-type]
        elif self.handler == signal.SIG_DFL:  # a watchdog's: the process ends, as it would have
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGALRM)
        return True

    def restore(self) -> None:
        """Set their timer again for what is left of it (not where their handler was set from C,
        which cannot be put back: the timer would end the process instead)."""
        if self.due is not None and self.handler is not None:
            signal.setitimer(signal.ITIMER_REAL, max(1e-6, self.due - time.monotonic()), self.interval)
