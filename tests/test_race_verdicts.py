"""The race of solvers changes no verdict: raced or not, in black and white and in colour, in a
worker or in this process, the verdicts, counts and grids are a single solver's; a race out of
time says unknown, one whose search runs in a worker is raced only after it has run its time,
and a race says whose grids it gives."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from nonosat import load_all, solve
from nonosat.model import Grid, Puzzle
from nonosat.solver import Result, Status, enumeration
from nonosat.solver import race as portfolio

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not portfolio.can_race(), reason="racing needs a fork server and two cores")


HANG = 10.0
"""Seconds after which a process that should have ended is taken to hang (how fast workers end
is measured by `python -m bench.faults`, not asserted)."""


def _same_verdicts(puzzles: list[Puzzle], ones: list[Result], twos: list[Result]) -> None:
    """The same verdict and number of solutions (the same one when unique), every grid checked."""
    for puzzle, one, two in zip(puzzles, ones, twos, strict=True):
        assert one.status is two.status, puzzle.name
        assert one.status in (Status.UNIQUE, Status.MULTIPLE)
        assert len(one.solutions) == len(two.solutions)
        if one.status is Status.UNIQUE:
            assert one.solutions == two.solutions
        for solution in two.solutions:
            assert puzzle.satisfied_by(solution.grid)


@pytest.mark.slow
def test_a_search_in_a_worker_is_raced_only_after_it_has_run_its_time(
    monkeypatch: pytest.MonkeyPatch, rivals: list[Any]
) -> None:
    """The wiring in `search_in_workers`: with the search's own worker slow to start (1.5 s; a
    fork server's first start took 0.1 s here), the rival of a 4x4 ring, due 1 s after (0.1 s on
    the command line), is never forked: the search answers first (a review saw cadical195 answer
    for cadical103). Before, the rival's time ran from before the start."""
    from nonosat import load
    from nonosat.deadline import Deadline
    from nonosat.processes import start_worker as real_start
    from nonosat.solver.encodings.grid import build_formula
    from nonosat.solver.propagation import line_solve

    starts: list[Any] = []

    def slow_first(process: Any) -> None:
        starts.append(process)
        if len(starts) == 1:
            time.sleep(1.5)
        real_start(process)

    monkeypatch.setattr(portfolio, "start_worker", slow_first)
    formula = build_formula(line_solve(load(ROOT / "puzzles" / "ring.non")), "blocks")
    found = enumeration.search_in_workers(formula, 2, "cadical103", Deadline.after(60), True, 1.0)
    assert found is not None and len(found[0]) == 2 and found[3] == portfolio.OURS
    assert len(rivals) == 2 and rivals[0].forked and not rivals[1].forked and len(starts) == 1


@pytest.mark.slow
@pytest.mark.parametrize(("solver", "jobs"), [("cadical195", 1), ("cadical195", 2), ("maplecm", 1)])
def test_the_command_line_runs_cadical_in_a_worker_with_the_same_verdicts(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]], solver: str, jobs: int
) -> None:
    """CaDiCaL holds the GIL, so where Ctrl-C must be heard (the command line's watcher) its
    search runs in a worker; verdicts, counts and grids agree with a search in this process.
    So does MapleCM's, which hears no interrupt while it simplifies a large formula (a review
    saw `--timeout 0.5` end at 1.12 s)."""
    from nonosat import interrupts

    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:40]
    here = [solve(p, jobs=1, solver=solver) for p in puzzles]
    assert not rivals
    monkeypatch.setattr(interrupts, "_watching", True)
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    elsewhere = [solve(p, jobs=jobs, solver=solver) for p in puzzles]
    sat = sum(r.method == "sat" for r in elsewhere)
    assert sat > 20 and len([r for r in rivals if r.forked]) >= sat
    assert all(r.work is enumeration.rival_work for r in rivals)
    _same_verdicts(puzzles, here, elsewhere)


@pytest.mark.slow
def test_a_worker_that_cannot_start_leaves_the_search_here(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from nonosat import interrupts

    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:10]
    here = [solve(p, jobs=1, solver="cadical195").status for p in puzzles]
    monkeypatch.setattr(interrupts, "_watching", True)
    monkeypatch.setattr(portfolio.Rival, "_start", lambda self: None)
    for puzzle, status in zip(puzzles, here, strict=True):
        result = solve(puzzle, jobs=1, solver="cadical195", timeout=60)
        assert status in (Status.UNIQUE, Status.MULTIPLE) and result.status is status, puzzle.name
        assert puzzle.satisfied_by(result.solutions[0].grid)


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["minisat22", "cadical195"])
def test_racing_gives_the_same_verdicts_as_one_solver(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]], solver: str
) -> None:
    """With the race starting at once, every SAT puzzle is raced; verdicts and counts agree with
    a single solver's, and every grid is verified against the clues by the parent."""
    puzzles = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[:40]
    single = [solve(p, jobs=1, solver=solver) for p in puzzles]
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    raced = [solve(p, jobs=2, solver=solver) for p in puzzles]
    assert sum(r.method == "sat" for r in raced) == len(rivals) > 20
    assert sum(r.forked for r in rivals) > 10  # a rival starts at once, but the search may end first
    _same_verdicts(puzzles, single, raced)


@pytest.mark.slow
def test_a_race_that_runs_out_of_time_says_unknown(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_all(str(corpus / "tcga" / "question" / "taai2011.txt"))[509]  # #510, seconds
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    result = solve(
        puzzle, jobs=2, timeout=1.5, engine="sat"
    )  # the CNF in well under that, even on a loaded machine; the search ~7 s
    assert result.status is Status.UNKNOWN
    assert not result.complete and result.cut_short == "time limit reached while searching"


@pytest.mark.slow
def test_the_colour_search_is_raced_by_the_sat_engine(
    monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]]
) -> None:
    """In colour, the compiled searches' rival is the SAT engine (bench/README.md, "The colour
    race's rival") up to COLOUR_RIVAL_MOST open cells and colours; in black and white,
    and beyond, itself upside down. With the race at once, the
    verdicts are a single search's; and where the search here does not end, the SAT engine's
    answer stands, checked by the parent."""
    from bench.colour_set import noise_puzzle
    from nonosat.processes import warm_up
    from nonosat.solver import compiled_search

    warm_up()  # else a first try without a rival settles these
    monkeypatch.setattr(portfolio, "RACE_AFTER", 0.0)
    puzzles = [noise_puzzle(25, 25, 2, seed) for seed in range(4)]
    single = [solve(p, jobs=1) for p in puzzles]
    raced = [solve(p, jobs=2) for p in puzzles]
    _same_verdicts(puzzles, single, raced)
    assert len(rivals) == len(puzzles) and all(rival.work is enumeration.rival_work for rival in rivals)
    # the depth-first search in colour alike (35 of 40 hard grids undecided within 30 s upside down)
    depth_first = [solve(p, jobs=2, engine="dfs") for p in puzzles]
    _same_verdicts(puzzles, single, depth_first)
    assert len(rivals) == 2 * len(puzzles) and all(rival.work is enumeration.rival_work for rival in rivals)
    del rivals[len(puzzles) :]
    solve(load_all(str(Path(__file__).parent.parent / "puzzles" / "webpbn-06574-forever.non"))[0], jobs=2)
    assert len(rivals) == len(puzzles) + 1 and rivals[-1].work is compiled_search.upside_down_work
    monkeypatch.setattr(compiled_search, "COLOUR_RIVAL_MOST", 10)  # a grid this large races upside down
    assert solve(puzzles[0], jobs=2).status is single[0].status
    assert len(rivals) == len(puzzles) + 2 and rivals[-1].work is compiled_search.upside_down_work

    def stalled(self: Any, count: int, found: list[Grid], within: float | None = None) -> bool | None:
        while not self.flag[0]:  # as a search that has not ended when the rival answers
            time.sleep(0.01)
        return None

    monkeypatch.setattr(compiled_search.CoreSearch, "run", stalled)
    monkeypatch.setattr(compiled_search, "COLOUR_RIVAL_MOST", 7_500)
    answered = solve(puzzles[0], jobs=2, timeout=HANG)
    assert answered.status is single[0].status and answered.method == "cdcl"
    assert answered.solutions == single[0].solutions or answered.status is Status.MULTIPLE
    # who answered is said: the rival, the SAT engine with CaDiCaL (a review: nothing said so)
    assert (answered.rival, answered.solver, answered.encoding) == (True, "cadical195", "blocks")
    assert not single[0].rival and single[0].solver is None
    from nonosat.render.records import result_record
    from nonosat.render.text import status_line

    assert "CDCL, with its rival: SAT (cadical195, blocks)" in status_line(answered)
    assert {k: result_record(answered, "p")[k] for k in ("method", "solver", "encoding", "rival")} == {
        "method": "cdcl",
        "solver": "cadical195",
        "encoding": "blocks",
        "rival": True,
    }


@pytest.mark.slow
def test_a_library_callers_cadical_runs_in_a_worker_on_a_large_formula(
    monkeypatch: pytest.MonkeyPatch, rivals: list[portfolio.Rival[Any]]
) -> None:
    """A review found `solve(puzzle, timeout=2, solver="cadical300")` on a 140x140 puzzle ending
    at 4.8 s, and Ctrl-C heard 2.3 s late: a slice of CaDiCaL's conflicts holds Python's lock
    through its inprocessing, 3-5 s on 1.4 million clauses. From APART_CLAUSES on, a library
    caller's CaDiCaL (and MapleCM) search runs in a worker from the fork server, as the command
    line's always does; not MiniSat's (interrupted where it is), not a small formula's, and not
    where workers would be spawned (which imports the caller's script again)."""
    from nonosat import processes

    forever = load_all(str(ROOT / "puzzles" / "webpbn-06574-forever.non"))[0]
    here = solve(forever, solver="cadical195")
    assert here.method == "sat" and not rivals  # 8,786 clauses: in this process
    monkeypatch.setattr(enumeration, "APART_CLAUSES", 1000)
    for solver, apart in (("cadical195", True), ("maplecm", True), ("glucose4", True), ("minisat22", False)):
        rivals.clear()
        result = solve(forever, solver=solver, timeout=60)
        assert result.status is here.status and [s.grid for s in result.solutions] == [s.grid for s in here.solutions]
        assert [r.work is enumeration.rival_work and r.forked for r in rivals] == ([True] if apart else []), solver
    rivals.clear()
    # Glucose stops late, not too late for Ctrl-C: apart under a time limit only (above), else
    # here, with its counts (the review of the mend: a worker's 0.1 s and no counts, always)
    result = solve(forever, solver="glucose4")
    assert not rivals and result.status is here.status and result.stats.get("conflicts") is not None
    monkeypatch.setattr(processes, "start_method", lambda: "spawn")
    assert solve(forever, solver="cadical195").status is here.status and not rivals


def test_a_race_says_whose_grids_it_gives() -> None:
    """A review found a race that neither side finished reported as the search's own (solver
    minisat22, rival false) while half its grids, or all of them, were the rival's. A race's
    outcome says whose grids it gives, and the result names both solvers for a merge."""
    from dataclasses import replace

    from nonosat.render.text import status_line

    g1, g2, g3 = ((0,),), ((1,),), ((2,),)
    assert portfolio.race_outcome([g1], True, [g2], None, 2)[3] == portfolio.OURS
    assert portfolio.race_outcome([g1], None, [g2], False, 2)[3] == portfolio.THEIRS
    assert portfolio.race_outcome([g1], None, [g1, g2], None, 2)[::3] == ([g1, g2], portfolio.BOTH)
    assert portfolio.race_outcome([], None, [g2, g3], None, 2)[::3] == ([g2, g3], portfolio.THEIRS)
    assert portfolio.race_outcome([g1, g3], None, [g2], None, 2)[::3] == ([g1, g3], portfolio.OURS)
    assert enumeration._answered("minisat22", portfolio.BOTH) == {"solver": "minisat22+cadical195", "rival": True}
    assert enumeration._answered("cadical195", portfolio.THEIRS) == {"solver": "minisat22", "rival": True}
    assert enumeration._answered("glucose4", portfolio.OURS) == {"solver": "glucose4", "rival": False}
    two = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    result = replace(solve(two, engine="sat"), solver="minisat22+cadical195", rival=True)
    assert "· SAT (minisat22+cadical195, blocks) ·" in status_line(result)
    assert "SAT (cadical195, blocks), the race's rival" in status_line(replace(result, solver="cadical195"))
