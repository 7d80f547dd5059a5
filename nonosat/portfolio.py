"""A race of SAT solvers on two cores: a search that is still running after a moment is joined
by a rival solver in a forked worker, and the first to finish answers.

Hard random puzzles have heavy-tailed solve times that differ from solver to solver: CaDiCaL is
fastest on some, MiniSat on others (bench/README.md has the figures). Racing them costs a
second core and buys the better of the two on every puzzle.

The worker is forked (`os.fork`), so it shares the parent's formula without copying it through a
pipe. It sends one line per solution it finds, then one line saying whether its search ended on
its own. The search in the parent is not interrupted to let the rival in: a solver resumed
after an interruption restarts, and takes another path.
"""

from __future__ import annotations

import os
import select
import signal
import threading
from typing import Callable, Optional

from nonosat.model import Grid

Enumerator = Callable[[str, list[Grid]], bool]
"""Runs one solver to the end: appends the grids it finds, and says whether the search ended on
its own (True) rather than by reaching the count."""


def can_race() -> bool:
    """Whether this platform can fork workers, and there is more than one core to run them."""
    return hasattr(os, "fork") and (os.cpu_count() or 1) > 1


def _encode(grid: Grid) -> bytes:
    return ("S " + "/".join("".join(map(str, row)) for row in grid) + "\n").encode()


def _decode(line: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in line[2:].split("/"))


def _die_with(parent: int) -> None:
    """Have Linux kill this worker when its parent dies, so that no solver goes on for nobody
    after a `nonosat` (or a batch worker) is killed with SIGKILL. Elsewhere this does nothing,
    and a worker ends when its search does."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _worker(enumerate_with: Enumerator, solver: str, pipe: int, parent: int) -> None:
    """The forked worker's whole life: never returns, never runs the parent's cleanup."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        _die_with(parent)
        found: list[Grid] = []

        class Streaming(list):  # type: ignore[type-arg]
            def append(self, grid: Grid) -> None:
                super().append(grid)
                os.write(pipe, _encode(grid))

        complete = enumerate_with(solver, Streaming(found))
        os.write(pipe, b"E 1\n" if complete else b"E 0\n")
        code = 0
    finally:
        os._exit(code)


class _Runner:
    def __init__(self, solver: str, pid: int, pipe: int) -> None:
        self.solver = solver
        self.pid = pid
        self.pipe = pipe
        self.buffer = ""
        self.grids: list[Grid] = []
        self.complete: Optional[bool] = None
        self.alive = True

    def read(self) -> None:
        chunk = os.read(self.pipe, 1 << 16)
        if not chunk:
            self.alive = False
            return
        self.buffer += chunk.decode()
        *lines, self.buffer = self.buffer.split("\n")
        for line in lines:
            if line.startswith("S "):
                self.grids.append(_decode(line))
            elif line.startswith("E "):
                self.complete = line == "E 1"

    def stop(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.pipe)


class Rival:
    """A second solver that joins a search still running after `after` seconds, without
    stopping it: a thread forks a worker that runs `enumerate_with(solver, ...)` beside it.

    The search in this process goes on undisturbed (an interrupted solver restarts, which changes
    its path: MiniSat on taai2011 #510 takes 9 s straight, and from under 1 s to 10 s when it is
    interrupted and resumed). If the worker finishes first, `on_done` is called (from the
    thread) to stop the search; `stop` then returns the worker's grids and ending. The worker is
    forked by the thread, which outlives it, so Linux's parent-death signal reaches it if this
    process is killed.
    """

    def __init__(self, enumerate_with: Enumerator, solver: str, after: float, on_done: Callable[[], None]) -> None:
        self.enumerate_with = enumerate_with
        self.solver = solver
        self.after = after
        self.on_done = on_done
        self.runner: Optional[_Runner] = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._wake_read, self._wake_write = os.pipe()
        self._thread = threading.Thread(target=self._run, name="nonosat-rival", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        if self._stopping.wait(self.after):
            return
        with self._lock:
            if self._stopping.is_set():
                return
            parent = os.getpid()
            read_end, write_end = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # no process to spare: the search goes on alone
                os.close(read_end)
                os.close(write_end)
                return
            if pid == 0:
                os.close(read_end)
                _worker(self.enumerate_with, self.solver, write_end, parent)
            os.close(write_end)
            self.runner = _Runner(self.solver, pid, read_end)
        runner = self.runner
        while runner.alive and runner.complete is None:
            ready, _, _ = select.select([runner.pipe, self._wake_read], [], [])
            if self._wake_read in ready:
                return
            runner.read()
        if runner.complete is not None:
            self.on_done()

    @property
    def forked(self) -> bool:
        return self.runner is not None

    def stop(self) -> tuple[list[Grid], Optional[bool]]:
        """End the rival: its grids, and whether its search ended on its own (None when it did
        not finish, or never started)."""
        with self._lock:
            self._stopping.set()
        os.write(self._wake_write, b"x")
        self._thread.join()
        os.close(self._wake_read)
        os.close(self._wake_write)
        runner = self.runner
        if runner is None:
            return [], None
        runner.stop()
        return runner.grids, runner.complete
