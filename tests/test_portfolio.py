"""The race of solvers: a rival forked beside a running search, the first to finish answers, and
nothing else changes."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from nonosat import load_all, solve
from nonosat import portfolio
from nonosat import solver as solver_module
from nonosat.model import Grid
from nonosat.solver import Status

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="racing needs os.fork")

A: Grid = ((1, 0), (0, 1))
B: Grid = ((0, 1), (1, 0))


def fake(plan: dict[str, tuple[float, list[Grid], bool]]) -> portfolio.Enumerator:
    """An enumerator that, for each solver name, waits, then reports its grids and ending."""

    def enumerate_with(name: str, found: list[Grid]) -> bool:
        delay, grids, complete = plan[name]
        for grid in grids:
            found.append(grid)
        time.sleep(delay)
        return complete

    return enumerate_with


def _rival(plan: dict[str, tuple[float, list[Grid], bool]], name: str, after: float) -> tuple[portfolio.Rival, threading.Event]:
    done = threading.Event()
    return portfolio.Rival(fake(plan), name, after, done.set), done


def test_a_rival_that_finishes_first_stops_the_search_and_answers() -> None:
    rival, done = _rival({"fast": (0.0, [B], True)}, "fast", 0.0)
    assert done.wait(10), "on_done was not called"
    assert rival.forked
    assert rival.stop() == ([B], True)


def test_a_rival_joins_only_after_its_delay() -> None:
    rival, done = _rival({"fast": (0.0, [B], True)}, "fast", 30.0)
    time.sleep(0.2)
    started = time.monotonic()
    assert rival.stop() == ([], None)
    assert not rival.forked and not done.is_set()
    assert time.monotonic() - started < 5  # stop does not wait for the delay


def test_a_rival_stopped_before_it_ends_gives_what_it_found_so_far() -> None:
    rival, done = _rival({"slow": (30.0, [A], True)}, "slow", 0.0)
    time.sleep(0.5)
    grids, complete = rival.stop()
    assert (grids, complete) == ([A], None) and not done.is_set()


def test_a_rival_that_dies_leaves_the_search_alone() -> None:
    def enumerate_with(name: str, found: list[Grid]) -> bool:
        raise RuntimeError("boom")

    done = threading.Event()
    rival = portfolio.Rival(enumerate_with, "broken", 0.0, done.set)
    time.sleep(0.5)
    assert rival.stop() == ([], None) and not done.is_set()


def test_no_rival_outlives_its_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    rival, _ = _rival({"slow": (30.0, [], True)}, "slow", 0.0)
    while not rival.forked:
        time.sleep(0.01)
    rival.stop()
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):  # killed and reaped: not even a zombie
        os.waitpid(forked[0], os.WNOHANG)
    with pytest.raises(ProcessLookupError):
        os.kill(forked[0], 0)


@pytest.mark.parametrize("solver", ["minisat22", "cadical195"])
def test_racing_gives_the_same_verdicts_as_one_solver(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival], solver: str
) -> None:
    """With the race starting at once, every SAT puzzle is raced; verdicts and counts agree with
    a single solver's, and every grid is verified against the clues by the parent."""
    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:40]
    single = [solve(p, jobs=1, solver=solver) for p in puzzles]
    monkeypatch.setattr(solver_module, "RACE_AFTER", 0.0)
    raced = [solve(p, jobs=2, solver=solver) for p in puzzles]
    assert sum(r.method == "sat" for r in raced) == len(rivals) > 20
    assert sum(r.forked for r in rivals) > 20  # a rival forks at once, but the search may end first
    for puzzle, one, two in zip(puzzles, single, raced):
        assert one.status is two.status, puzzle.name
        assert one.status in (Status.UNIQUE, Status.MULTIPLE)
        assert len(one.solutions) == len(two.solutions)
        if one.status is Status.UNIQUE:
            assert one.solutions == two.solutions
        for solution in two.solutions:
            assert puzzle.satisfied_by(solution.grid)


def test_a_race_that_runs_out_of_time_says_unknown(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[509]  # #510, seconds
    monkeypatch.setattr(solver_module, "RACE_AFTER", 0.0)
    result = solve(puzzle, jobs=2, timeout=0.3)
    assert result.status is Status.UNKNOWN
    assert not result.complete
    assert result.seconds < 5


KILLED_MID_RACE = """
import sys
from nonosat import load_all, solve
from nonosat import solver
solver.RACE_AFTER = 0.0
solve(load_all(sys.argv[1])[509], jobs=2)  # taai2011 #510: seconds for either solver
"""


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not yet reaped by init, does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc")
def test_workers_die_with_a_killed_parent(corpus: Path) -> None:
    """SIGKILL gives the parent no chance to stop its workers; they must not go on solving."""
    import signal
    import subprocess
    import sys

    path = str(corpus / "tcga" / "question" / "taai2011.txt")
    parent = subprocess.Popen([sys.executable, "-c", KILLED_MID_RACE, path])
    children: list[int] = []
    deadline = time.monotonic() + 30
    while not children and time.monotonic() < deadline and parent.poll() is None:
        time.sleep(0.05)
        children = []
        for task in os.listdir(f"/proc/{parent.pid}/task"):  # the rival is forked by a thread
            try:
                with open(f"/proc/{parent.pid}/task/{task}/children") as listing:
                    children += [int(pid) for pid in listing.read().split()]
            except FileNotFoundError:
                continue  # a thread that ended meanwhile
    assert len(children) == 1, "the race never started"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in children)
