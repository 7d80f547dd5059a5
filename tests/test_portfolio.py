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
    raced = [solve(p, jobs=2, solver=solver) for p in puzzles]
    assert sum(r.method == "sat" for r in raced) > 20
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
