"""A library caller's own signal handlers during a SAT search (`heard_by`).

Python runs a signal handler only in the main thread, between bytecodes: while MiniSat or
Glucose searches in C, a caller's handler (Ctrl-C's KeyboardInterrupt, a server's SIGTERM
handler, an alarm that ends a test) would wait for the search to end, hours perhaps. So, in a
library caller's main thread, a solve points Python's wakeup descriptor at a pipe that a
listening thread reads: it interrupts the solver, Python runs the handler, and the search ends if
the handler raises or goes on if it returns (`handler_ran`). The command line has its own
watcher for Ctrl-C (`nonosat.interrupts.watch_ctrl_c`) and needs none of this.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator

from nonosat import interrupts

STOPPING = frozenset(
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2")
    if hasattr(signal, name)
)
"""Signals that ask a program to stop or turn: each interrupts a solve at once."""

OTHERS_EVERY = 0.5
"""Seconds between two interrupts for any other signal with a Python handler: a profiler's
SIGPROF or a 2 ms SIGALRM restarted the solver each time (a search 19 times slower), while an
alarm that ends a test must still end the search."""


@contextlib.contextmanager
def heard_by(stop: Callable[[], object]) -> Iterator[None]:
    """While a solver runs in C in a library caller's main thread: each signal with a Python
    handler calls `stop` (at once for `STOPPING`, else at most every OTHERS_EVERY seconds), the
    solver returns, and Python runs the handler there, as it would anywhere else. Every byte the
    pipe reads is passed on to the wakeup descriptor the caller had (an event loop's), so that it
    misses no signal. The pipe and the thread are made once a process; a solve only points the
    wakeup descriptor at the pipe and back. Elsewhere (the command line's watcher, other
    threads, Windows) it does nothing."""
    global _heard, _passed_to, _handler_due
    if interrupts.watched() or os.name == "nt" or threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        before = signal.set_wakeup_fd(_library_pipe(), warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter
        yield
        return
    with _hearing:
        _heard, _passed_to, _handler_due = stop, before, False
    try:
        yield
    finally:
        with _hearing:  # no listener calls `stop` after this: the solve has ended
            _heard = None
        signal.set_wakeup_fd(before)
        _passed_to = -1


def handler_ran() -> bool:
    """Whether a signal's Python handler stopped the solve under `heard_by` (once asked, false
    until the next): it has run by now, and it raised nothing, so the search may go on."""
    global _handler_due
    due, _handler_due = _handler_due, False
    return due


_handler_due = False
"""A signal with a Python handler stopped the solve under `heard_by`."""
_hearing = threading.Lock()
"""Held while `heard_by` changes what it stops and while the listener stops it."""
_heard: Callable[[], object] | None = None
"""What a signal stops now (None: no solve is under way)."""
_passed_to = -1
"""The wakeup descriptor `heard_by` took the place of (-1: none), which its pipe's bytes go on to."""
_library: tuple[int, int] | None = None  # (the process, the pipe's write end) of `_library_pipe`


def _library_pipe() -> int:
    """The write end of `heard_by`'s pipe, made with its listener the first time in a process."""
    global _library
    if _library is None or _library[0] != os.getpid():  # a forked child has the pipe, not the thread
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        interrupts.quiet_thread(_listen, read_end, name="nonosat-ctrl-c-library")
        _library = (os.getpid(), write_end)
    return _library[1]


def _listen(read_end: int) -> None:
    """Read the wakeup bytes until the pipe closes: stop the solve at once for a signal of
    `STOPPING`, and for any other at most every OTHERS_EVERY seconds (one that comes sooner is
    served when that time has passed)."""
    due: float | None = None  # when another signal is to stop the solve
    last = -math.inf
    while True:
        wait = None if due is None else max(0.0, due - time.monotonic())
        try:
            ready, _, _ = select.select([read_end], [], [], wait)
            data = _passed_on(os.read(read_end, 64)) if ready else b""
        except OSError:  # closed under it
            return
        if ready and not data:
            return
        if any(number in STOPPING for number in data):
            due, last = None, time.monotonic()
            _heard_now()
        elif data and due is None:
            due = max(time.monotonic(), last + OTHERS_EVERY)
        if due is not None and time.monotonic() >= due:
            due, last = None, time.monotonic()
            _heard_now()


def _passed_on(data: bytes) -> bytes:
    """The wakeup bytes `heard_by`'s pipe read, written on to the descriptor it replaced."""
    if _passed_to >= 0 and data:
        try:
            os.write(_passed_to, data)
        except OSError:  # closed, or full (a loop that does not read it): as the kernel would drop them
            pass
    return data


def _heard_now() -> None:
    global _handler_due
    with _hearing:
        if _heard is not None:
            _handler_due = True
            _heard()
