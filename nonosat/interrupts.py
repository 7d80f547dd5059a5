"""Ctrl-C: every running search can be stopped, and the command line ends within a second.

Python runs a signal handler only in the main thread, between bytecodes: a SAT search running
in C would not notice Ctrl-C until it ended. So searches register here while they run, and
`stop_all` interrupts them from any thread. The command line calls `watch_ctrl_c` once: a
watcher thread hears SIGINT (through `signal.set_wakeup_fd`), stops every search, and lets the
main thread unwind through its `finally` blocks (which end the rival solvers and batch workers)
to "nonosat: interrupted" and exit 130. If the main thread has not finished within `GRACE`
seconds, the watcher ends the process itself: it kills the child processes it knows, says the
same line, and exits with 130. SIGTERM (`kill`, `timeout`) is heard the same way and ends the
command with "nonosat: terminated" and exit 143; whichever of the two comes first says how, and
only the first raises KeyboardInterrupt (a second, raised while the first unwound, broke it).

Only the main thread hears SIGINT: every thread nonosat starts blocks it (`quiet_thread`,
`Timer`), so that the main thread can hold it back for a moment without it being lost
(`processes.warm_up`).

A library caller that does not call `watch_ctrl_c` keeps Python's usual KeyboardInterrupt, and
its own signal handlers run during a search: in the main thread, MiniSat-like searches are
interrupted through `nonosat.handlers.heard_by` so that Python can run the handler (PySAT's own SIGINT handling,
`solve()`, would hold Python's lock and freeze the caller's other threads for the whole search),
and CaDiCaL's conflict budgets return before Python raises it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import weakref
from collections.abc import Callable, Iterator

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from typing import Protocol

    class Stoppable(Protocol):
        def stop(self) -> None: ...


GRACE = 0.6
"""Seconds the main thread has to unwind after Ctrl-C before the watcher ends the process."""

EXIT_INTERRUPTED = 130


_running: weakref.WeakSet[Stoppable] = weakref.WeakSet()
_children: set[int] = set()
_lock = threading.RLock()  # re-entrant: end_now may run from a hook inside a locked block
_watching = False
_announced = False
_finished = False


def main_thread_only() -> None:
    """Block SIGINT in the calling thread (one nonosat started): the main thread hears it."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def quiet_thread(target: Callable[..., object], *args: object, name: str) -> threading.Thread:
    """Start a daemon thread that does not hear SIGINT."""

    def run() -> None:
        main_thread_only()
        target(*args)

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


class Timer(threading.Timer):
    """threading.Timer as a daemon that does not hear SIGINT."""

    def __init__(self, interval: float, function: Callable[[], object]) -> None:
        super().__init__(interval, function)
        self.daemon = True

    def run(self) -> None:
        main_thread_only()
        super().run()


@contextlib.contextmanager
def deaf_threads() -> Iterator[None]:
    """Threads started in this block (by Rich, say) never take SIGINT: they inherit a signal
    mask that blocks it. A Ctrl-C meanwhile is delivered to the main thread at the end."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold SIGINT back in this block, and let processes started in it begin life ignoring it:
    a Ctrl-C while a fresh interpreter starts would print its traceback. A Ctrl-C that comes
    meanwhile is delivered at the end of the block, not lost (nonosat's other threads never take
    it: see `main_thread_only`), as long as nothing in the block unblocks SIGINT itself
    (multiprocessing's resource tracker does, when it starts: start it before). Outside the main
    thread this does nothing."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is None
        or not hasattr(signal, "pthread_sigmask")  # Windows: no signal masks, and no fork server to shield
    ):
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def running(search: Stoppable) -> None:
    """Register a search while it runs, so that `stop_all` reaches it."""
    with _lock:
        _running.add(search)


def finished(search: Stoppable) -> None:
    with _lock:
        _running.discard(search)


def stop_all() -> None:
    """Stop every registered search (from any thread): each gives up as if out of time."""
    with _lock:
        searches = list(_running)
    for search in searches:
        search.stop()


def child_started(pid: int) -> None:
    """Remember a child process to kill if the process has to end at once."""
    with _lock:
        _children.add(pid)


def child_ended(pid: int) -> None:
    with _lock:
        _children.discard(pid)


def wants_keyboard_interrupt() -> bool:
    """Whether this thread should hear Ctrl-C as KeyboardInterrupt from PySAT's own handler: the
    main thread of a program that keeps Python's default SIGINT handling and no watcher."""

    return (
        not _watching
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )


def watched() -> bool:
    """Whether the command line's watcher hears Ctrl-C (see `watch_ctrl_c`)."""
    return _watching


def announce() -> None:
    """Say "nonosat: interrupted" on standard error, once per process."""
    global _announced
    with _lock:
        if _announced:
            return
        _announced = True
    try:
        sys.stderr.write("nonosat: terminated\n" if exit_code() == EXIT_TERMINATED else "nonosat: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


KILL = getattr(signal, "SIGKILL", signal.SIGTERM)
"""The signal that ends a child at once: SIGKILL, or on Windows (which has none) SIGTERM, which
os.kill carries out there by ending the process outright."""


_at_end: list[Callable[[], object]] = []


def at_end(action: Callable[[], object]) -> None:
    """Have `action` run when an interrupted command ends at once (`os._exit`, which skips
    atexit's functions): a batch run lets go of its results file (`batch.holding`)."""
    with _lock:
        _at_end.append(action)


def run_at_end() -> None:
    """Run (once) what `at_end` was given; an action that fails is passed over."""
    with _lock:
        actions = list(_at_end)
        _at_end.clear()
    for action in actions:
        try:
            action()
        except Exception:  # noqa: BLE001, S110 - ending anyway: the next action still runs
            pass


def end_now() -> None:
    """End the process at once: kill the known children, say so, exit 130 (143 after SIGTERM)."""
    run_at_end()
    with _lock:
        children = list(_children)
    for pid in children:
        try:
            os.kill(pid, KILL)
        except OSError:
            pass
    announce()
    os._exit(exit_code())


def watch_ctrl_c() -> None:
    """For the command line: on SIGINT, stop every search and end the process within GRACE s.

    Must be called from the main thread, once. The main thread still gets KeyboardInterrupt,
    until `finish` says the command is over. A process started ignoring SIGINT (a shell
    script's background job, `nohup`) keeps ignoring it, as Unix programs and Python itself do:
    Ctrl-C at the script's terminal is not for it.
    """
    global _watching, _ignoring
    if _watching:
        return
    read, write_end = wakeup_channel()
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    _ignoring = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if not _ignoring:
        signal.signal(signal.SIGINT, _on_sigint)
    if hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:  # (an ignored one stays so)
        signal.signal(signal.SIGTERM, _on_sigterm)
    sys.unraisablehook = _unraisable
    _watching = True
    quiet_thread(_listen, read, _stop_and_end_soon, name="nonosat-ctrl-c")


_ignoring = False
"""Whether the command line was started ignoring SIGINT (`watch_ctrl_c`)."""


def started_ignoring() -> bool:
    """Whether the command line was started ignoring Ctrl-C, which its workers then ignore too."""
    return _ignoring


def ignoring_for_workers(ignoring: bool) -> None:
    """In a worker of the command line (a batch worker): its command's `started_ignoring`, which
    the workers it starts in turn (a race's rival) follow."""
    global _ignoring
    _ignoring = ignoring


def wakeup_channel(sockets: bool = os.name == "nt") -> tuple[Callable[[], bytes], int]:
    """Where the C-level signal handler writes the signal's number (`signal.set_wakeup_fd`): a
    function that waits for the next bytes (b"" when the channel closed), and the descriptor to
    write to, non-blocking. A pipe; on Windows, whose wakeup descriptor must be a socket, a
    socket pair (not imported elsewhere: it costs start-up)."""
    if sockets:
        import socket

        reader, writer = socket.socketpair()
        writer.setblocking(False)
        _keep.append((reader, writer))
        return lambda: reader.recv(64), writer.fileno()
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    return lambda: os.read(read_end, 64), write_end


_keep: list[object] = []
"""The socket pair of `wakeup_channel`, kept open for the life of the process."""


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """A KeyboardInterrupt that lands where Python cannot raise it (a weakref callback, a
    __del__) is swallowed there: end the process now instead of printing it."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt) and not _finished:
        end_now()
    sys.__unraisablehook__(unraisable)


def finish() -> None:
    """The command is over (its exit code known): a Ctrl-C from now on changes nothing. It is
    ignored from here on: Python puts back the default handler as it shuts down, and a Ctrl-C
    then would end the process by SIGINT, not with its exit code. SIGTERM gets its default
    back: a command stuck at its end (a full pipe) can still be ended by `kill`."""
    global _finished
    _finished = True
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) is _on_sigterm:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a command stuck at its end can still be killed


def _on_sigint(signum: int, frame: object) -> None:
    if not _finished and _heard(signal.SIGINT):
        raise KeyboardInterrupt


def _on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM (`kill`, `timeout`, a service manager) ends a command as Ctrl-C does, workers,
    locks and multiprocessing's semaphores let go of, with exit code 143 (128 + 15): killed
    outright, a batch left its lock file, and multiprocessing's resource tracker printed a
    warning of leaked semaphores."""
    if not _finished and _heard(signal.SIGTERM):
        raise KeyboardInterrupt


_first: int | None = None
"""The first of SIGINT and SIGTERM the command line heard: what it says and its exit code."""

_raised = False
"""Whether a handler has raised KeyboardInterrupt: only the first signal does. A second one
raised while the first unwound (Ctrl-C and SIGTERM together: two handlers, where two Ctrl-Cs
make one call) broke the unwinding itself: a Condition's lock released unheld, exit 70. The
watcher ends the process within GRACE seconds whatever the main thread does."""


def _heard(signum: int, raising: bool = True) -> bool:
    """Note a signal (the first one heard says how the command ends); whether its handler is
    the first to raise."""
    global _first, _raised
    with _lock:
        if _first is None:
            _first = signum
        first_raise = raising and not _raised
        _raised = _raised or raising
    return first_raise


EXIT_TERMINATED = 143


def heard_a_signal() -> bool:
    """Whether the command line heard Ctrl-C or SIGTERM (see `watch_ctrl_c`)."""
    return _first is not None


def exit_code() -> int:
    """An interrupted command's exit code: 143 when SIGTERM came first, else 130 (Ctrl-C)."""
    return EXIT_TERMINATED if _first == getattr(signal, "SIGTERM", None) else EXIT_INTERRUPTED


def _listen(read: Callable[[], bytes], heard: Callable[[], object]) -> None:
    """Call `heard` for each SIGINT the wakeup channel carries, until it closes."""
    while True:
        try:
            data = read()
        except OSError:  # closed under it
            return
        if not data:
            return
        for signum in data:  # (the watcher may hear it before the main thread's handler runs)
            if signum == signal.SIGINT or signum == getattr(signal, "SIGTERM", None):
                _heard(signum, raising=False)
                heard()
                break


def _stop_and_end_soon() -> None:
    """The command line's answer to Ctrl-C: every search stopped, the process ended in GRACE s."""
    if not _finished:
        stop_all()
        Timer(GRACE, _end_unless_finished).start()


def _end_unless_finished() -> None:
    if not _finished:
        end_now()
