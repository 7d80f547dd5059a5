"""Processes of ours: how worker processes start, how they die with their parent, and how
many cores this process may use.

Workers (a race's rival, a web request's, CaDiCaL's search in the command line) come from
multiprocessing's fork server where the platform has one (Linux, macOS): a clean
single-threaded process, started once per process, with the solver already imported, that forks
a worker in a few milliseconds. Where there is none (Windows) each worker is spawned: a new
interpreter, a few tenths of a second to start. Nothing is forked from a process with threads.

A `nonosat` killed outright (SIGKILL) runs no cleanup. Its batch workers ask Linux for a
parent-death signal (`PR_SET_PDEATHSIG`): SIGKILL as soon as the thread that started them ends,
which for ours is the parent's end; where that call does not exist, a daemon thread watches the
parent's process id and ends the process within `POLL` seconds of its parent. A worker from the
fork server has the fork server for parent, which lives as long as any of its workers: so it
watches a connection to the process that asked for it instead, and ends when that connection
closes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

from nonosat import interrupts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up (ARCHITECTURE.md)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

PRELOAD = [
    "nonosat.solver.enumeration",
    "nonosat.solver.compiled_search",
    "nonosat.solver.encodings.grid",
    "pysat.solvers",
]
"""What the fork server imports once, so that each worker starts in milliseconds."""

_context: Any | None = None
_context_lock = threading.Lock()
_main_lock = threading.Lock()
_warm = False


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def start_method() -> str:
    """How worker processes start: from the fork server where the platform has one (a clean
    single-threaded process with the solver imported, that forks each worker in a few
    milliseconds), else spawned afresh (Windows: a new interpreter each, a few tenths of a second).
    Never plain fork from a process that may have threads."""
    import multiprocessing

    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def worker_context() -> Any:
    """The multiprocessing context workers start from (`start_method`), set up once."""
    global _context
    with _context_lock:
        if _context is None:
            import multiprocessing

            context = multiprocessing.get_context(start_method())
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload(PRELOAD if _preload_is_ours() else [])
            _context = context
        return _context


def _preload_is_ours() -> bool:
    """Whether the fork server's PRELOAD imports this nonosat. Python 3.10's server (`python -c`:
    the working folder first on its path; PYTHONSAFEPATH is 3.11's) imports it before it takes
    our path, so from a folder holding another nonosat (a checkout beside an installed one) it
    would import that one, and every worker would run its code: there, nothing is preloaded, and
    each worker imports ours with its first job (tens of milliseconds more a worker)."""
    if sys.version_info >= (3, 11):
        return True  # `_no_working_folder_on_the_path` keeps the folder off the server's path
    try:
        folder = os.getcwd()
        if not os.path.exists(os.path.join(folder, "nonosat")):
            return True
        return os.path.samefile(folder, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    except OSError:
        return False


def start_worker(process: Any) -> None:
    """Start one of our worker processes, with the caller's `__main__` hidden (`main_hidden`)."""
    with main_hidden():
        process.start()


@contextlib.contextmanager
def main_hidden() -> Iterator[None]:
    """While this thread starts workers of ours: the caller's `__main__` left out of what
    multiprocessing tells them, which otherwise has every worker import the caller's script
    again from its path: from `python -` (no file) each worker died with a FileNotFoundError
    traceback (a race went on without its rival, `solve_many` ended with "a worker process
    died"); a script without `if __name__ == "__main__":` ran its top level again in every
    worker. A worker's work is ours (nonosat's functions and data), never the script's. Only
    this thread's starts are changed: the caller's other threads, and their own processes, see
    `__main__` as ever (swapping sys.modules' entry broke a caller's pickling in another thread)."""
    _leave_out_main()
    _starting.active = getattr(_starting, "active", 0) + 1
    try:
        yield
    finally:
        _starting.active -= 1


_starting = threading.local()
"""How deep this thread is in `main_hidden` (0 or absent: not starting a worker of ours)."""


def _leave_out_main() -> None:
    """Wrap multiprocessing's `spawn.get_preparation_data` (what a new process is told to set up,
    read by every start method at each start) once, so that within `main_hidden` it leaves out
    the `__main__` to import; elsewhere it answers as before."""
    from multiprocessing import spawn

    with _main_lock:
        told = spawn.get_preparation_data
        if getattr(told, "leaves_out_main", False):
            return

        def get_preparation_data(name: str) -> dict[str, Any]:
            data: dict[str, Any] = told(name)
            if getattr(_starting, "active", 0):
                data.pop("init_main_from_path", None)
                data.pop("init_main_from_name", None)
            return data

        get_preparation_data.leaves_out_main = True  # type: ignore[attr-defined]
        spawn.get_preparation_data = get_preparation_data


def warm_up() -> None:
    """Start the fork server now, from this thread, if it is not running: call it before a search
    that may race (with spawned workers there is nothing to start). From the main thread, SIGINT
    is held back for the few milliseconds the start takes (`interrupts.held`), so that the fork
    server and its resource tracker begin life ignoring it: a Ctrl-C during their own start-up
    would otherwise print a traceback from a half-started interpreter. They end with their owner
    anyway."""
    global _warm
    if worker_context().get_start_method() == "forkserver":
        from multiprocessing import forkserver, resource_tracker

        resource_tracker.ensure_running()  # outside: it unblocks SIGINT itself, which would lose one here
        with interrupts.held(), _no_working_folder_on_the_path():
            forkserver.ensure_running()
    _warm = True


class _no_working_folder_on_the_path:
    """While the fork server starts: PYTHONSAFEPATH=1 in the environment. The server is `python
    -c ...`, which puts the working folder first on its path, and Python 3.11's server imports
    PRELOAD before it takes this process's path: from a folder holding another `nonosat` (a
    source checkout, beside an installed nonosat), every worker ran that one's code (its compiled
    core missing, or another version's). Python 3.10 ignores the variable (`_preload_is_ours`)."""

    def __enter__(self) -> None:
        self.before = os.environ.get("PYTHONSAFEPATH")
        os.environ["PYTHONSAFEPATH"] = "1"

    def __exit__(self, *_: object) -> None:
        if self.before is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = self.before


def warmed() -> bool:
    """Whether `warm_up` has run in this process (it takes about 25 ms the first time)."""
    return _warm


def worker_prologue(lifeline: Any, ignore_ctrl_c: bool = False) -> None:
    """The first steps of any worker from the fork server: it dies with its parent, with the fork
    server's owner, and when the other end of `lifeline` (a Connection) closes; Ctrl-C ends it
    at once, unless `ignore_ctrl_c` (its command was started ignoring it:
    `interrupts.started_ignoring`)."""
    die_with_parent()  # the fork server, first: while it is surely alive
    _let_the_fork_server_go()
    die_when_closed(lifeline)
    signal.signal(signal.SIGINT, signal.SIG_IGN if ignore_ctrl_c else signal.SIG_DFL)  # Ctrl-C ends it at once,
    if hasattr(signal, "pthread_sigmask"):  # unblocked: the server began with it held (not on Windows)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _let_the_fork_server_go() -> None:
    """In a worker: close its copy of the fork server's lifeline, so that the fork server ends
    as soon as the process that started it does, and the kernel's parent-death signal
    (`die_with_parent`) ends this worker then, even in a solver that holds the GIL for minutes
    (CaDiCaL does), where no thread of ours could run to notice."""
    if "multiprocessing.forkserver" not in sys.modules:
        return  # a spawned worker (Windows): no fork server
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    alive = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(alive, int):
        try:
            os.close(alive)
        except OSError:
            pass
        server._forkserver_alive_fd = None  # type: ignore[union-attr]


def end_fork_server() -> None:
    """At the command's end: end the fork server this process started, and wait for it. Left to
    itself it ends when it sees this process gone, but one still importing its preload (a race
    started just before a short --timeout) only looks once that is done, and meanwhile holds the
    command's standard output and error open: `nonosat check p.non --timeout 0.3 | cat` took
    0.4-0.5 s. Its workers end with it (`worker_prologue`)."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    pid = getattr(server, "_forkserver_pid", None)
    if not isinstance(pid, int):
        return
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (OSError, ChildProcessError):
        pass


def wake_pipe() -> tuple[Any, Any]:
    """A pipe whose read end `multiprocessing.connection.wait` can wait on beside a worker's
    results on every platform (an os.pipe's file descriptor cannot be waited on on Windows)."""
    from multiprocessing import Pipe

    return Pipe(duplex=False)


POLL = 0.5
"""Seconds between looks at the parent, where Linux's parent-death signal is not available."""

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Arrange for this process to end when its parent does (call it first thing in a child).
    `parent`: the parent's process id as the parent knew it, for a child that starts slowly (a
    spawned interpreter takes a second to import): a parent killed meanwhile is then noticed,
    where the child's own first look would find the process that adopted it."""
    parent = os.getppid() if parent is None else parent
    if not _parent_death_signal():
        threading.Thread(target=_watch, args=(parent,), name="nonosat-lifeline", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _parent_death_signal() -> bool:
    """Ask Linux to kill this process when its parent ends; False elsewhere (macOS, Windows: the
    watching thread does it)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return bool(ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0)
    except (OSError, AttributeError, TypeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL)
    os._exit(1)


def die_when_closed(connection: Any) -> None:
    """End this process as soon as the other end of `connection` closes (its owner died or let
    go). The connection must carry nothing towards this process."""
    threading.Thread(target=_wait_for_close, args=(connection,), name="nonosat-lifeline", daemon=True).start()


def _wait_for_close(connection: Any) -> None:
    try:
        connection.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)
