"""The cores of a batch run, shared between its worker processes: a puzzle that races takes two.

A batch worker solves its puzzle on one core until `RACE_AFTER` seconds have passed; then a
second solver races it on a forked process (nonosat.solver.race). With every worker still taking
new puzzles, the racing pair and the other workers' puzzles share the cores, and the hard
puzzle, the one that needs them most, gets a fraction of a core per solver. So a worker about to
start a puzzle first waits until the cores are not all taken: each busy worker counts one core,
or two once its puzzle has run past `RACE_AFTER`. The work done per set is the same, only its
order changes: the cores stay busy, and the hard puzzle is done sooner.

Each worker has a slot in a shared array of start times (`time.monotonic()`, a clock shared by
the processes of one machine; 0 is an idle worker). Only `nonosat.batch` sets this up, in its
pool's initializer; anywhere else `join` was never called and nothing waits.
"""

from __future__ import annotations

import time
from typing import Any

POLL = 0.002
"""Seconds between looks at the other workers while waiting for a core."""

_table: Any | None = None
_lock: Any | None = None
_slot = -1
_race_after = 0.0


def table(context: Any, workers: int) -> tuple[Any, Any]:
    """The shared state for `workers` workers of a multiprocessing context: one start time per
    worker, and a counter that hands out the slots."""
    return context.Array("d", workers, lock=False), context.Value("i", 0)


def join(shared: tuple[Any, Any], race_after: float) -> None:
    """Take this worker's slot (a pool initializer): from now on `wait_for_core` and `done` count."""
    global _table, _lock, _slot, _race_after
    starts, counter = shared
    _lock = counter.get_lock()
    with _lock:
        _slot = counter.value
        counter.value += 1
    _race_after = race_after
    _table = starts if _slot < len(starts) else None  # more workers than slots: this one does not take part


def cores_taken(starts: list[float], now: float, race_after: float, mine: int) -> int:
    """The cores the other workers' puzzles take: one each, two once it has run past race_after."""
    return sum(
        (2 if now - started > race_after else 1) for slot, started in enumerate(starts) if slot != mine and started > 0
    )


def wait_for_core() -> None:
    """Wait until this worker's next puzzle can have a core of its own, then mark it started.
    Looking and taking happen under one lock, so two workers never take the same free core. (A
    semaphore would not do: a puzzle's second core is taken by the passing of time, when its
    race starts, not by a call.)"""
    if _table is None or _lock is None:
        return
    while True:
        with _lock:
            if cores_taken(list(_table), time.monotonic(), _race_after, _slot) + 1 <= len(_table):
                _table[_slot] = time.monotonic()
                return
        time.sleep(POLL)


def done() -> None:
    """This worker's puzzle is finished: its cores are free."""
    if _table is not None:
        _table[_slot] = 0.0
