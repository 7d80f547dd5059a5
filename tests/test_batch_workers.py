"""A batch run's workers: a few puzzles are shared among them, a worker hands back what it has
solved without waiting for its whole chunk, one that races a slow puzzle records what one solver
records while the others wait for a core, and one that dies ends the run with an error, not a
hang."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from batch_shared import tournament_fixture  # noqa: F401  (fixture)

from nonosat import NonosatError
from nonosat.batch import executors, solve_task, tasks, work
from nonosat.batch import sharing as cores
from nonosat.batch.work import RunOptions


def test_a_few_puzzles_are_shared_among_the_workers() -> None:
    """Six puzzles on two workers went in one chunk of eight, one after the other."""
    from nonosat.batch.executors import LOCAL_CHUNK, chunks

    assert [len(chunk) for chunk in chunks(list(range(6)), 2)] == [1] * 6
    assert [len(chunk) for chunk in chunks(list(range(20)), 2)] == [3] * 6 + [2]
    assert {len(chunk) for chunk in chunks(list(range(1000)), 2)} == {LOCAL_CHUNK}
    assert list(chunks([], 2)) == []


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="the race needs fork and two cores")
def test_a_worker_that_races_a_slow_puzzle_records_what_one_solver_records(
    tournament: Path, monkeypatch: pytest.MonkeyPatch, rivals: list[Any]
) -> None:
    """Workers race puzzles that take over work.RACE_AFTER; with that at 0 every puzzle that
    needs SAT goes through the race, and the records must not change."""
    monkeypatch.setattr(work, "RACE_AFTER", 0.0)
    found = list(tasks([str(tournament)]))[100:110]
    sat = RunOptions(engine="sat")
    raced = [solve_task(task, sat, race=True) for task in found]  # SAT's race
    alone = [solve_task(task, sat, race=False) for task in found]
    assert [record["method"] for record in raced].count("sat") == len(rivals) >= 5
    assert sum(rival.forked for rival in rivals) >= 5
    for one, other in zip(raced, alone, strict=True):  # the first of several solutions depends on the solver
        assert (one["path"], one["status"], one["solutions"]) == (other["path"], other["status"], other["solutions"])
        if one["status"] == "unique":
            assert one["solution_sha1"] == other["solution_sha1"]


def test_a_racing_puzzle_counts_two_cores_and_a_young_one_counts_one() -> None:
    now = 100.0
    starts = [0.0, now - 0.5, now - 2.0, now - 2.0]  # idle, young, racing, and this worker's own
    assert cores.cores_taken(starts, now, 1.0, mine=3) == 3
    assert cores.cores_taken(starts, now, 1.0, mine=1) == 4
    assert cores.cores_taken([0.0, 0.0], now, 1.0, mine=0) == 0


@pytest.mark.slow
def test_a_worker_waits_for_a_core_while_another_races(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers: while the other one's puzzle is past race_after (two solvers), this worker
    does not start its next puzzle; it starts as soon as that puzzle is done."""
    import multiprocessing
    import threading

    for name in ("_table", "_slot", "_race_after"):
        monkeypatch.setattr(cores, name, getattr(cores, name))  # restored after the test
    shared = cores.table(multiprocessing.get_context("spawn"), 2)
    cores.join(shared, 0.05)
    starts = shared[0]
    starts[1] = time.monotonic() - 1.0  # the other worker (slot 1) is racing
    started = threading.Event()

    def wait_then_say() -> None:
        cores.wait_for_core()
        started.set()

    waiter = threading.Thread(target=wait_then_say)
    waiter.start()
    assert not started.wait(0.3) and starts[0] == 0.0
    starts[1] = 0.0  # the race is over
    assert started.wait(5)
    waiter.join()
    assert starts[0] > 0
    cores.done()
    assert starts[0] == 0.0
    starts[1] = time.monotonic()  # a young puzzle takes one core: this worker does not wait
    cores.wait_for_core()
    assert starts[0] > 0


def test_outside_a_batch_pool_nothing_waits() -> None:
    assert cores._table is None
    cores.wait_for_core()  # returns at once
    cores.done()


def dies_on_three(item: int) -> int:
    """A worker's work that kills its own process on item 3 (as the system would, for memory)."""
    if item == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_a_worker_that_dies_ends_the_run_with_an_error_not_a_hang() -> None:
    results: list[int] = []
    with pytest.raises(NonosatError, match="a worker process died"):
        for done in executors.pooled(dies_on_three, iter([[k] for k in range(8)]), 2):
            results.extend(done)
    assert 3 not in results


def slow_square(item: int) -> int:
    time.sleep(0.03)
    return item * item


@pytest.mark.slow
def test_a_worker_hands_back_what_it_solved_without_waiting_for_its_whole_chunk() -> None:
    """A review interrupted a batch of slow puzzles after about 12 had been solved and found 0
    records: a worker handed back its records only when its whole chunk of 8 was done. It now
    hands back what it has after HAND_BACK seconds, and the rest of the chunk is queued again."""
    done, rest = executors.for_a_while(slow_square, list(range(8)))
    assert 1 <= len(done) < 8 and done + [k * k for k in rest] == [k * k for k in range(8)]
    results = [result for chunk in executors.pooled(slow_square, iter([list(range(8)), [8, 9]]), 2) for result in chunk]
    assert sorted(results) == [k * k for k in range(10)]
