"""A race's rival: forked beside a running search after its delay (counted from when the search's
own worker started), the first to finish answers, one stopped gives what it found so far, one
that dies or cannot start says it is gone and leaves the search alone, none outlives its stop,
and each hears Ctrl-C."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bench.processes import alive
from nonosat.model import Grid
from nonosat.solver import race as portfolio

pytestmark = pytest.mark.skipif(not portfolio.can_race(), reason="racing needs a fork server and two cores")


A: Grid = ((1, 0), (0, 1))
B: Grid = ((0, 1), (1, 0))

Plan = tuple[float, list[Grid], bool]
"""What a fake solver does: reports its grids, waits, then says whether its search ended."""


def fake_work(plan: Plan, found: list[Grid]) -> bool:
    """A module-level fake enumerator (the worker imports it by name)."""
    delay, grids, complete = plan
    for grid in grids:
        found.append(grid)
    time.sleep(delay)
    return complete


def broken_work(plan: Plan, found: list[Grid]) -> bool:
    raise RuntimeError("boom")


def _rival(plan: Plan, after: float, work: portfolio.Work = fake_work) -> tuple[portfolio.Rival[Plan], threading.Event]:
    done = threading.Event()
    return portfolio.Rival(work, lambda: plan, after, done.set), done


def test_a_rival_that_finishes_first_stops_the_search_and_answers() -> None:
    rival, done = _rival((0.0, [B], True), 0.0)
    assert done.wait(10), "on_done was not called"
    assert rival.forked
    assert rival.stop() == ([B], True)


def test_a_rival_joins_only_after_its_delay() -> None:
    rival, done = _rival((0.0, [B], True), 30.0)
    time.sleep(0.2)
    assert rival.stop() == ([], None)  # stop does not wait for the delay
    assert not rival.forked and not done.is_set()


def test_a_rivals_time_counts_from_when_the_searchs_own_worker_started() -> None:
    """Where the search runs in a worker (CaDiCaL on the command line), the fork server's start
    is not the search's time: the rival of a 4x4 puzzle answered one run in six (a review)."""
    begun = threading.Event()
    done = threading.Event()
    rival = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, done.set, begins=begun)
    time.sleep(0.3)
    assert not rival.forked and not done.is_set()
    begun.set()
    assert done.wait(10), "on_done was not called"
    assert rival.stop() == ([B], True)
    waiting = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, done.set, begins=threading.Event())
    stopped: list[Any] = []
    stopper = threading.Thread(target=lambda: stopped.append(waiting.stop()))
    stopper.start()
    stopper.join(10)  # (a bound on the wait: stuck for an event no one sets, it fails, not hangs)
    assert not stopper.is_alive() and stopped == [([], None)] and not waiting.forked


def test_a_worker_that_cannot_even_get_a_pipe_is_gone_and_says_it_started(monkeypatch: pytest.MonkeyPatch) -> None:
    """A diff's review: an error before the worker's start (no file to spare for its pipe) ended
    the rival's thread with `started` never set: a rival waiting on it waited for ever."""

    def no_files() -> Any:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(portfolio, "worker_context", no_files)
    started, gone = threading.Event(), threading.Event()
    own = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, lambda: None, on_gone=gone.set, started=started)
    assert started.wait(10) and gone.wait(10) and own.gone and not own.forked
    assert own.stop() == ([], None)


def test_a_rival_stopped_before_it_ends_gives_what_it_found_so_far() -> None:
    rival, done = _rival((30.0, [A], True), 0.0)
    deadline = time.monotonic() + 10
    while not rival.grids and time.monotonic() < deadline:
        time.sleep(0.01)
    grids, complete = rival.stop()
    assert (grids, complete) == ([A], None) and not done.is_set()


@pytest.mark.slow
def test_a_rival_that_dies_leaves_the_search_alone() -> None:
    rival, done = _rival((0.0, [], True), 0.0, broken_work)
    deadline = time.monotonic() + 10
    while not rival.forked and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    assert rival.stop() == ([], None) and not done.is_set()


@pytest.mark.slow
def test_a_rival_that_dies_or_cannot_start_says_it_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = threading.Event()
    rival: portfolio.Rival[Any] = portfolio.Rival(
        broken_work, lambda: (0.0, [], True), 0.0, lambda: None, on_gone=gone.set
    )
    assert gone.wait(10) and rival.gone
    assert rival.stop() == ([], None)
    gone.clear()
    stopped: portfolio.Rival[Any] = portfolio.Rival(
        fake_work, lambda: (30.0, [], True), 0.0, lambda: None, on_gone=gone.set
    )
    time.sleep(0.2)
    stopped.stop()
    assert not stopped.gone and not gone.is_set()  # stopped is not gone
    monkeypatch.setattr(portfolio.Rival, "_start", lambda self: None)
    rival = portfolio.Rival(fake_work, lambda: (0.0, [B], True), 0.0, lambda: None, on_gone=gone.set)
    assert gone.wait(10) and rival.gone and not rival.forked
    rival.stop()


def test_no_rival_outlives_its_stop() -> None:
    rival, _ = _rival((30.0, [], True), 0.0)
    deadline = time.monotonic() + 10
    while not rival.forked and time.monotonic() < deadline:
        time.sleep(0.01)
    assert rival.process is not None
    pid = rival.process.pid
    assert alive(pid)
    rival.stop()
    assert not alive(pid)


HEARS = """
import os, sys, time
sys.path[:0] = [sys.argv[1], os.path.dirname(sys.argv[1])]
from bench.processes import sigint_blocked_and_ignored
from nonosat import processes
from nonosat.solver import race as portfolio
from test_race_rivals import fake_work
processes.warm_up()  # as a search that may race starts it: in the main thread, SIGINT held back
rival = portfolio.Rival(fake_work, lambda: (30.0, [], True), 0.0, lambda: None)
while rival.process is None:
    time.sleep(0.01)
time.sleep(0.5)  # the worker has begun its work
masks = sigint_blocked_and_ignored(rival.process.pid)
rival.stop()
print(*(int(mask) for mask in masks))
"""


@pytest.mark.slow
def test_a_rival_hears_ctrl_c() -> None:
    """The fork server starts with SIGINT held back and ignored (interrupts.held); its workers
    must neither block nor ignore it, or a Ctrl-C at the terminal would not end them."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", HEARS, str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["0", "0"]  # SIGINT (bit 2 of the masks) neither blocked nor ignored
