"""A race of SAT solvers on the two cores: forked workers enumerate the same grid formula, each
with its own solver, and the first to finish answers.

Hard random puzzles have heavy-tailed solve times that differ from solver to solver: CaDiCaL is
fastest on some, MiniSat on others (bench/README.md has the figures). Racing them costs a
second core and buys the better of the two on every puzzle.

Workers are forked (`os.fork`), so they share the parent's formula without copying it through a
pipe. Each sends one line per solution it finds, then one line saying whether its search ended
on its own. The parent only waits and reads: it holds no solver while the race runs.
"""

from __future__ import annotations

import os
import select
import signal
import time
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


def race(
    enumerate_with: Enumerator, solvers: tuple[str, ...], deadline: Optional[float]
) -> tuple[list[Grid], bool, str]:
    """Run `enumerate_with` once per solver in forked workers; the first to finish wins.

    Returns the winner's grids, whether its search ended on its own (False also when the deadline
    passed first; then the grids are those of the worker that found the most), and its solver.
    """
    runners: list[_Runner] = []
    parent = os.getpid()
    try:
        for solver in solvers:
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read_end)
                _worker(enumerate_with, solver, write_end, parent)
            os.close(write_end)
            runners.append(_Runner(solver, pid, read_end))
        while True:
            waiting = [r for r in runners if r.alive and r.complete is None]
            if not waiting:
                break
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([r.pipe for r in waiting], [], [], timeout)
            if not ready:
                break  # the deadline passed
            for runner in waiting:
                if runner.pipe in ready:
                    runner.read()
                    if runner.complete is not None:
                        return runner.grids, runner.complete, runner.solver
        if not any(r.grids or r.complete is not None for r in runners) and all(not r.alive for r in runners):
            raise RuntimeError("every solver worker died without an answer")
        best = max(runners, key=lambda r: len(r.grids))
        return best.grids, False, best.solver
    finally:
        for runner in runners:
            runner.stop()
