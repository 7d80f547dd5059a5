"""The race of solvers in forked workers: the first to finish answers, and nothing else changes."""

from __future__ import annotations

import os
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


def test_the_first_worker_to_finish_answers() -> None:
    plan = {"slow": (5.0, [A, B], False), "fast": (0.0, [B], True)}
    started = time.monotonic()
    grids, complete, winner = portfolio.race(fake(plan), ("slow", "fast"), None)
    assert (grids, complete, winner) == ([B], True, "fast")
    assert time.monotonic() - started < 4.0  # the slow worker was not waited for


def test_at_the_deadline_the_most_grids_found_are_kept_and_the_count_is_not_exact() -> None:
    plan = {"one": (5.0, [A], True), "two": (5.0, [A, B], True)}
    grids, complete, winner = portfolio.race(fake(plan), ("one", "two"), time.monotonic() + 0.5)
    assert (grids, complete, winner) == ([A, B], False, "two")


def test_a_worker_that_dies_leaves_the_other_to_answer() -> None:
    def enumerate_with(name: str, found: list[Grid]) -> bool:
        if name == "broken":
            raise RuntimeError("boom")
        time.sleep(0.2)
        found.append(A)
        return True

    assert portfolio.race(enumerate_with, ("broken", "sound"), None) == ([A], True, "sound")


def test_if_every_worker_dies_the_race_says_so() -> None:
    def enumerate_with(name: str, found: list[Grid]) -> bool:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="died"):
        portfolio.race(enumerate_with, ("a", "b"), None)


def test_no_worker_outlives_the_race(monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    plan = {"slow": (30.0, [], True), "fast": (0.0, [A], True)}
    portfolio.race(fake(plan), ("slow", "fast"), None)
    assert len(forked) == 2
    for pid in forked:  # both killed (the slow one) or ended, and reaped: not even zombies
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.parametrize("solver", ["minisat22", "cadical195"])
def test_racing_gives_the_same_verdicts_as_one_solver(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, solver: str
) -> None:
    """With the race starting at once, every SAT puzzle is raced; verdicts and counts agree with
    a single solver's, and every grid is verified against the clues by the parent."""
    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:40]
    single = [solve(p, jobs=1, solver=solver) for p in puzzles]
    monkeypatch.setattr(solver_module, "RACE_AFTER", 0.0)
    races = []
    real_race = portfolio.race

    def counted(*args: object, **kwargs: object) -> object:
        races.append(1)
        return real_race(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(portfolio, "race", counted)
    raced = [solve(p, jobs=2, solver=solver) for p in puzzles]
    assert len(races) > 20 and sum(r.method == "sat" for r in raced) == len(races)
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
    while len(children) < 2 and time.monotonic() < deadline and parent.poll() is None:
        time.sleep(0.05)
        with open(f"/proc/{parent.pid}/task/{parent.pid}/children") as listing:
            children = [int(pid) for pid in listing.read().split()]
    assert len(children) == 2, "the race never started"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in children)
