"""A race of SAT solvers on two cores: a search that is still running after a moment is joined
by a rival solver in a worker process, and the first to finish answers.

Hard random puzzles have heavy-tailed solve times that differ from solver to solver: CaDiCaL is
fastest on some, MiniSat on others (bench/README.md has the figures). Racing them costs a
second core and buys the better of the two on every puzzle.

The worker comes from multiprocessing's fork server where the platform has one, spawned
elsewhere (nonosat.processes). Nothing is ever forked from a process with threads (which
Python 3.12+ warns may deadlock), so racing is safe in threaded programs too. The worker is given the job (the
line-solved board and the grids found so far), rebuilds the formula itself, and sends each grid
it finds, then whether its search ended on its own. It dies with its parent: by Ctrl-C (SIGINT
kills it at once), when it is stopped, and when the fork server ends because its owner died.
The search in the parent is not interrupted to let the rival in: a solver resumed after an
interruption restarts, and takes another path.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from nonosat import interrupts
from nonosat.model import Grid
from nonosat.processes import start_worker, usable_cores, wake_pipe, warm_up, worker_context, worker_prologue

Job = TypeVar("Job")

RACE_AFTER = 0.1
"""Seconds one solver gets on its own before a race of solvers starts on a hard puzzle."""

Work = Callable[[Any, list[Grid]], bool]
"""Runs one solver to the end on a job (both picklable: the work a module-level function): appends
the grids it finds, and says whether the search ended on its own (True) rather than by reaching
the count."""


def can_race() -> bool:
    """Whether a rival can run: a second usable core (workers start on every platform)."""
    return usable_cores() > 1


def _worker(results: Any, work: Work, job: Any, ignore_ctrl_c: bool) -> None:
    """The worker's whole life: never returns, never runs cleanup, never prints a traceback. It
    ends when the other end of `results` closes: the parent died, or stopped listening."""
    try:
        worker_prologue(results, ignore_ctrl_c)

        class Streaming(list):  # type: ignore[type-arg]
            def append(self, grid: Grid) -> None:
                super().append(grid)
                results.send(("grid", grid))

        complete = work(job, Streaming())
        results.send(("end", bool(complete)))
    except BaseException:  # noqa: B036 - the parent sees the pipe close and goes on alone
        pass
    finally:
        os._exit(0)


class Rival(Generic[Job]):
    """A second solver that joins a search still running after `after` seconds, without
    stopping it: a thread starts a worker that runs `work(job(), ...)` beside it.

    The search in this process goes on undisturbed (an interrupted solver restarts, which changes
    its path: MiniSat on taai2011 #510 takes 9 s straight, and from under 1 s to 10 s when it is
    interrupted and resumed). `job` is called when the worker starts, so that it can include
    what the search found by then. If the worker finishes first, `on_done` is called (from the
    thread) to stop the search; `stop` then returns the worker's grids and ending. If the worker
    cannot start, or dies, `gone` is set and `on_gone` (if given) is called. With a `relay`, a
    worker of another kind takes the first one's place `relay.at` seconds after the rival was
    made, if neither has answered by then (one core, two kinds of search in turn; one thread).
    With `begins`, `after` counts from when that event is set: `started` of a rival whose worker
    runs the search itself (`enumeration.search_in_workers`: the fork server's start, 0.1 s, is
    not the search's time, and a 4x4 puzzle was answered by the rival in one run of six).
    """

    def __init__(
        self,
        work: Work,
        job: Callable[[], Job],
        after: float,
        on_done: Callable[[], None],
        on_gone: Callable[[], None] | None = None,
        relay: Relay | None = None,
        begins: threading.Event | None = None,
        started: threading.Event | None = None,
    ) -> None:
        self.work = work
        self.begins = begins
        self.started = started
        """Set once this rival's worker has started (or could not)."""
        self.relay = relay
        self._made = time.monotonic()
        self._again = 0
        self.job = job
        self.after = after
        self.on_done = on_done
        self.on_gone = on_gone
        self.gone = False
        self.process: Any | None = None
        self.grids: list[Grid] = []
        self.complete: bool | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._wake_read, self._wake_write = wake_pipe()
        self._thread = interrupts.quiet_thread(self._run, name="nonosat-rival")

    @property
    def forked(self) -> bool:
        """Whether the worker was started (the name is older than the fork server)."""
        return self.process is not None

    def _start(self) -> Any | None:
        """Start the worker; the read end of its results pipe, or None if it could not start."""
        with self._lock:
            if self._stopping.is_set():
                return None
            results = sender = None
            try:  # all of it: a pipe with no file to spare, or a job that fails, is a worker that cannot start
                context = worker_context()
                results, sender = context.Pipe(duplex=True)  # the worker hears this end close
                process = context.Process(
                    target=_worker, args=(sender, self.work, self.job(), interrupts.started_ignoring()), daemon=True
                )
                start_worker(process)
            except Exception:  # noqa: BLE001 - no process to spare, or the fork server died: the search goes on alone
                if results is not None:
                    results.close()
                return None
            finally:
                if sender is not None:
                    sender.close()
            self.process = process
            interrupts.child_started(process.pid)
            return results

    def _run(self) -> None:
        if self.begins is not None:
            self.begins.wait()  # set by the stops too
        if self._stopping.wait(self.after):
            return
        results = self._start()
        if self.started is not None:
            self.started.set()
        if results is None:
            self._lost()
            return
        from multiprocessing import connection  # only here: a puzzle line logic solves never races

        try:
            while self.complete is None:
                relay_in = None if self.relay is None else max(0.0, self._made + self.relay.at - time.monotonic())
                ready = connection.wait([results, self._wake_read], relay_in)
                if not ready and self._receive(results, wait=False) and self.complete is not None:
                    break  # it answered just as its time ran out
                if not ready:
                    results.close()
                    second = self._hand_over()
                    if second is None:  # (closing `results` again is harmless)
                        self._lost()
                        return
                    results = second
                    continue
                if not self._receive(results, wait=self._wake_read not in ready):
                    if not self._stopping.is_set():
                        self._lost()
                    return
            self.on_done()
        finally:
            results.close()

    def _hand_over(self) -> Any | None:
        """The relay's turn: end the first worker, start the second with what the first found (it
        reports those grids again); its results' pipe, or None if it could not start."""
        relay, self.relay = self.relay, None
        assert relay is not None
        with self._lock:
            process, self.process = self.process, None
            found = list(self.grids)  # kept: stopped before the second reports them again, they count
            self._again = len(found)  # the second worker's first grids, passed over (`_receive`)
            self.work = relay.work
            self.job = lambda: relay.job(found)
        if process is not None:
            _end(process)
        return self._start()

    def _lost(self) -> None:
        """The worker could not start, or died before it finished."""
        if self._stopping.is_set():
            return
        self.gone = True
        if self.on_gone is not None:
            self.on_gone()

    def _receive(self, results: Any, wait: bool) -> bool:
        """Take the worker's messages: the next one (with `wait`), or all that have come, when
        the rival is being stopped (its last grids or its ending may be among them). False when
        there is nothing more to wait for."""
        while wait or results.poll():
            try:
                kind, value = results.recv()
            except (EOFError, OSError):  # the worker died: the search goes on alone
                return False
            if kind == "grid" and self._again:
                self._again -= 1  # a grid the first worker found, reported again by the relay's
            elif kind == "grid":
                self.grids.append(value)
            else:
                self.complete = value
                return True
            if wait:
                return True
        return False

    def end_worker(self) -> None:
        """Kill the worker, if it started, without waiting for it (`stop` then does): a process
        with a large formula takes tens of milliseconds to end, and several end side by side."""
        with self._lock:
            self._stopping.set()
            if self.process is not None:
                self.process.kill()
        self._wake_begins()

    def stop(self) -> tuple[list[Grid], bool | None]:
        """End the rival: its grids, and whether its search ended on its own (None when it did
        not finish, or never started)."""
        with self._lock:
            self._stopping.set()
        self._wake_begins()
        self._wake_write.send_bytes(b"x")
        self._thread.join()
        self._wake_read.close()
        self._wake_write.close()
        if self.process is not None:
            _end(self.process)
        return list(self.grids), self.complete

    def _wake_begins(self) -> None:
        """A rival being stopped no longer waits for its `begins`, nor do those that wait for it."""
        for event in (self.begins, self.started):
            if event is not None:
                event.set()


def _end(process: Any) -> None:
    """Kill a worker and wait for it."""
    pid = process.pid
    process.kill()
    process.join()
    process.close()
    interrupts.child_ended(pid)


@dataclass(frozen=True)
class Relay:
    """A worker of another kind that takes a rival's place (see `Rival`)."""

    work: Work
    job: Callable[[list[Grid]], Any]
    """The second worker's job, given the grids the first found."""
    at: float
    """Seconds after the rival was made."""


def rival_for(
    work: Work, job: Callable[[], Job], after: float, on_done: Callable[[], None], relay: Relay | None = None
) -> Rival[Job] | None:
    """A `Rival` for a search that may race (see `Rival`), with the fork server warmed up first;
    None when it cannot start (no processes or files to spare): the search then runs alone."""
    try:
        warm_up()
    except Exception:  # noqa: BLE001 - no fork server: no race
        return None
    return Rival(work, job, after, on_done, relay=relay)


def race_outcome(
    ours: list[Grid], ended: bool | None, theirs: list[Grid], their_ending: bool | None, count: int
) -> tuple[list[Grid], bool, str | None, str]:
    """What a search and its rival came to, from the search's grids and ending (None: stopped,
    by the rival's answer or the time) and the rival's (`Rival.stop`): the grids, whether they
    are all there are, why the search stopped short, and whose they are (`whose`). When neither
    finished, what both found counts: two different grids prove "multiple"."""
    if ended is not None:
        return ours, ended, None, OURS
    if their_ending is not None:
        return theirs, their_ending, None, THEIRS
    known = set(ours)
    mixed = (ours + [grid for grid in theirs if grid not in known])[:count]
    return mixed, False, "time limit reached while searching", whose(mixed, ours)


OURS, THEIRS, BOTH = "ours", "theirs", "both"
"""Whose grids a race's outcome gives: the search's, its rival's (it answered), or some of each
(neither finished: what both found, merged)."""


def whose(merged: list[Grid], ours: list[Grid]) -> str:
    """Whose grids these merged ones are, given the search's own (the rest are the rival's)."""
    mine = set(ours)
    from_us = sum(grid in mine for grid in merged)
    return OURS if from_us == len(merged) else THEIRS if from_us == 0 else BOTH
