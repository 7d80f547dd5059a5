"""The race's relay in black and white: from SAT_AFTER the SAT engine takes the place of the
search upside down (nonosat.solver.compiled_search._rival; bench/README.md, "A rival of
another kind from 3 s")."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from core_marks import needs_core

from nonosat import load, solve
from nonosat.model import Grid
from nonosat.solver import Status, compiled_search, enumeration
from nonosat.solver import race as portfolio

pytestmark = [needs_core, pytest.mark.skipif(not portfolio.can_race(), reason="racing needs two cores")]

FOREVER = Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-06574-forever.non"
"""A black-and-white puzzle line logic leaves open (the search decides it in a moment)."""

HANG = 10.0
"""Seconds after which a search that should have been stopped is taken to hang."""


def finding_work(grid: Grid, found: list[Grid]) -> bool:
    """A side that finds one grid, then never answers."""
    found.append(grid)
    time.sleep(3 * HANG)
    return True


def slow_to_start_work(job: Any, found: list[Grid]) -> bool:
    """A relay that takes long to build its formula before it reports anything."""
    time.sleep(3 * HANG)
    return True


def sleeping_work(job: Any, found: list[Grid]) -> bool:
    """In place of the search upside down, in the worker (imported there by name): a side that
    never answers."""
    time.sleep(3 * HANG)
    return True


def stalled(self: Any, count: int, found: list[Grid], within: float | None = None) -> bool | None:
    """In place of the search in this process: one that ends only when a rival stops it."""
    started = time.monotonic()
    while not self.flag[0] and time.monotonic() < started + HANG:
        time.sleep(0.01)
    return None


def test_the_sat_engine_takes_the_place_of_the_search_upside_down(
    monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]]
) -> None:
    """With neither side of the race answering, the SAT engine relays the side upside down (whose
    worker is ended as it starts, so that two processes share two cores) and its answer
    stands, named as the rival's (`CDCL, with its rival: SAT (minisat22, blocks)`)."""
    from nonosat.processes import warm_up

    puzzle = load(str(FOREVER))
    alone = solve(puzzle, jobs=1)
    assert alone.status is Status.UNIQUE and alone.method == "cdcl"
    warm_up()  # else the first try, with no rival, would run the stalled search
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    monkeypatch.setattr(compiled_search, "SAT_AFTER", 0.3)
    monkeypatch.setattr(compiled_search, "upside_down_work", sleeping_work)
    monkeypatch.setattr(compiled_search.CoreSearch, "run", stalled)
    relayed = solve(puzzle, jobs=2, timeout=HANG)
    assert relayed.status is Status.UNIQUE and relayed.solutions == alone.solutions
    assert (relayed.method, relayed.rival, relayed.solver, relayed.encoding) == ("cdcl", True, "minisat22", "blocks")
    (rival,) = rivals
    assert rival.work is compiled_search.sat_relay_work and rival.relay is None  # handed over
    assert rival.process is not None and rival.complete is True


def test_the_relay_reports_the_first_workers_grids_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the side upside down found before the relay is handed to the SAT engine, which
    blocks it and reports it again: a grid is neither lost nor counted twice."""
    from nonosat.processes import warm_up
    from nonosat.solver.propagation import line_solve

    warm_up()
    puzzle = load(str(FOREVER))
    (grid,) = [solution.grid for solution in solve(puzzle, jobs=1).solutions]
    job = enumeration.RivalJob(line_solve(puzzle), "blocks", "minisat22", 2, ())
    relay = portfolio.Relay(enumeration.rival_work, lambda found: dataclasses.replace(job, grids=tuple(found)), 0.2)
    done = threading.Event()
    rival = portfolio.Rival(finding_work, lambda: grid, 0.0, done.set, relay=relay)
    assert done.wait(HANG)
    grids, complete = rival.stop()
    assert complete is True and grids == [grid]


def test_no_relay_where_the_search_is_bounded_by_its_work(
    monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]]
) -> None:
    """With `guesses` (the generator's checks), the answer must not depend on the machine's
    speed: the search upside down races alone, as before the relay."""
    from nonosat.deadline import Deadline
    from nonosat.processes import warm_up
    from nonosat.solver.drive import solve_within

    warm_up()  # else the first try, with no rival, decides it
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    puzzle = load(str(FOREVER))
    bounded = solve_within(puzzle, Deadline.after(HANG), jobs=2, guesses=100_000)
    assert bounded.status is Status.UNIQUE
    assert [(rival.work, rival.relay) for rival in rivals] == [(compiled_search.upside_down_work, None)]


def test_what_the_first_worker_found_counts_until_the_relay_reports_it_again() -> None:
    """Stopped (the time limit) while the relay's worker still builds its formula, the rival
    gave none of the grids the first worker had found: emptied at the hand-over, they came back
    only when the second reported them again (the diff's review)."""
    from nonosat.processes import warm_up

    warm_up()
    grid: Grid = ((1, 0), (0, 1))
    relay = portfolio.Relay(slow_to_start_work, lambda found: tuple(found), 1.0)  # after the grid (0.2 s: a CI flake)
    rival = portfolio.Rival(finding_work, lambda: grid, 0.0, lambda: None, relay=relay)
    deadline = time.monotonic() + HANG
    while rival.relay is not None and time.monotonic() < deadline:  # handed over
        time.sleep(0.01)
    time.sleep(0.1)
    grids, complete = rival.stop()
    assert rival.work is slow_to_start_work and complete is None and grids == [grid]


def test_a_race_in_black_and_white_imports_no_pysat_until_the_relay() -> None:
    """PySAT's import (25 ms) in every process that raced made each batch worker's first hard
    puzzle that much slower, and the README's batch example gave its records in another order
    (CI): the relay's job and work import it in the worker, when the relay comes."""
    script = (
        "import sys\n"
        "from nonosat import load, solve\n"
        "from nonosat.processes import warm_up\n"
        "warm_up()\n"
        f"result = solve(load({str(FOREVER)!r}), jobs=2)\n"
        "print(result.status.value, 'pysat' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["unique", "False"], done.stderr
