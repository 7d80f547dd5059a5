"""The solver's verdicts are sound: counts exact, every encoding and solver agreeing, line logic
proving uniqueness alone, no solution reported (before any search where plainly impossible), a
search cut short or out of time saying only what it proved; `check` comparing the goal and where
two solutions differ; and the same answers without the compiled core, with other threads left to
run during a SAT search."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nonosat import ImpossiblePuzzle, Puzzle, load, solve
from nonosat.explain.rating import rate
from nonosat.solver import Status, check


def test_counting_enumerates_exactly() -> None:
    # a 2x2 with one cell per line has exactly the two diagonals
    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    result = solve(puzzle, count=10)
    assert result.status is Status.MULTIPLE and result.complete
    assert {s.grid for s in result.solutions} == {((1, 0), (0, 1)), ((0, 1), (1, 0))}


@pytest.mark.parametrize("size", [3, 4, 5])
def test_permutation_puzzles_have_factorial_many_solutions(size: int) -> None:
    # every row and column holds one filled cell: the solutions are the permutation matrices
    import math

    puzzle = Puzzle(rows=((1,),) * size, columns=((1,),) * size)
    result = solve(puzzle, count=1000)
    assert result.complete and len(set(result.solutions)) == len(result.solutions) == math.factorial(size)


@pytest.mark.parametrize("encoding", ["blocks", "automaton"])
@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22"])
def test_every_encoding_and_solver_agree(corpus: Path, encoding: str, solver: str) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-06574-forever.non"))
    result = solve(puzzle, encoding=encoding, solver=solver)  # naming them chooses the SAT engine
    assert result.status is Status.UNIQUE and result.method == "sat"
    assert result.solutions[0].grid == puzzle.goal


def test_line_logic_alone_proves_uniqueness(corpus: Path) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-00006-cat.non"))
    result = solve(puzzle)
    assert result.method == "line" and result.status is Status.UNIQUE


def test_no_solution_is_reported() -> None:
    # totals agree and every clue fits, yet no grid meets them all (column 1 needs the empty row 2)
    puzzle = Puzzle(rows=((1, 1), (0,), (1,)), columns=((2,), (0,), (1,)))
    assert solve(puzzle).status is Status.NONE


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_zero_timeout_says_unknown_and_never_guesses(corpus: Path, solver: str) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-06574-forever.non"))
    result = solve(puzzle, timeout=0, solver=solver)
    assert result.status is Status.UNKNOWN and not result.complete


@pytest.mark.parametrize(
    ("found", "count", "complete", "status"),
    [
        (0, 2, True, Status.NONE),
        (1, 2, True, Status.UNIQUE),
        (2, 2, True, Status.MULTIPLE),
        (2, 2, False, Status.MULTIPLE),  # two grids are proof enough
        (1, 1, False, Status.SOLVED),  # one asked for, one found: nothing said of a second
        (1, 2, False, Status.UNKNOWN),  # cut short after one: never "unique" (a review's mutant passed)
        (0, 2, False, Status.UNKNOWN),
        (0, 1, False, Status.UNKNOWN),
    ],
)
def test_a_search_cut_short_says_only_what_it_proved(found: int, count: int, complete: bool, status: Status) -> None:
    from nonosat.solver.outcome import status_of

    assert status_of(found, count, complete) is status


def test_impossible_puzzles_are_refused_before_search_and_are_none_like_any_other() -> None:
    """One behaviour for every puzzle with no solution: a `none` result, whatever found it (cheap
    checks before any search say which in `problems`); rate, explain and hint raise."""
    too_long = Puzzle(rows=((1,), (2, 2)), columns=((1,), (1,), (1,), (1,)))
    totals = Puzzle(rows=((1,), (1,)), columns=((1,), (0,)))
    found_by_logic = Puzzle(rows=((1, 1), (1,), (1,)), columns=((2,), (), (2,)))  # puzzles/broken-cross.non
    for puzzle, problem in ((too_long, "row 2"), (totals, "fill")):
        for answer in (solve(puzzle), check(puzzle).result):
            assert (answer.status, answer.method, answer.complete) == (Status.NONE, "checks", True)
            assert any(problem in text for text in answer.problems) and not answer.solutions
        with pytest.raises(ImpossiblePuzzle, match=problem):
            rate(puzzle)
    by_logic = solve(found_by_logic)
    assert (by_logic.status, by_logic.method, by_logic.problems) == (Status.NONE, "line", ())


def test_check_compares_the_goal(corpus: Path) -> None:
    puzzle = load(str(corpus / "webpbn" / "webpbn-00001-dancer.non"))
    verdict = check(puzzle)
    assert verdict.status is Status.UNIQUE and verdict.goal_satisfies_clues is True
    wrong_goal = tuple(tuple(1 - v for v in row) for row in puzzle.goal)  # type: ignore[union-attr]
    from dataclasses import replace

    assert check(replace(puzzle, goal=wrong_goal)).goal_satisfies_clues is False


def test_check_reports_where_two_solutions_differ() -> None:
    verdict = check(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    assert verdict.status is Status.MULTIPLE
    assert sorted(verdict.differences) == [(0, 0), (0, 1), (1, 0), (1, 1)]


FOREVER = str(Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-06574-forever.non")


def test_without_the_compiled_core_everything_runs_in_python() -> None:
    """NONOSAT_PURE_PYTHON=1 (as if no compiler had built the core): the same answers."""
    code = (
        "from nonosat import load, solve; from nonosat.solver import compiled; assert compiled.core is None; "
        f"r = solve(load({FOREVER!r})); print(r.status.value, r.method.value, r.solutions[0].text())"
    )
    pure = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "NONOSAT_PURE_PYTHON": "1"}
    )
    assert pure.returncode == 0, pure.stderr
    status, method, text = pure.stdout.split(" ", 2)
    puzzle = load(FOREVER)
    assert (status, method) == ("unique", "sat") and text.strip() == solve(puzzle).solutions[0].text()


@pytest.mark.slow
def test_a_main_thread_sat_search_without_a_time_limit_lets_other_threads_run(corpus: Path) -> None:
    """A review found `solve(..., engine="sat")` in the main thread, with no timeout, freezing
    every other thread for the whole search (PySAT's solve() holds Python's lock): here another
    thread sees the search under way and stops it (as Ctrl-C's watcher or a rival would)."""
    import threading

    from nonosat import interrupts

    puzzle = load(corpus / "minizinc" / "dom_12.dzn")  # 2-3 s for MiniSat
    seen = threading.Event()
    done = threading.Event()

    def stop_it_once_seen() -> None:
        while not done.is_set():
            if interrupts._running:
                seen.set()
                interrupts.stop_all()
                return
            done.wait(0.001)

    stopper = threading.Thread(target=stop_it_once_seen, daemon=True)
    stopper.start()
    try:
        result = solve(puzzle, engine="sat", encoding="automaton")
    finally:
        done.set()
        stopper.join()
    assert seen.is_set() and result.status.value == "unknown"


def test_a_colour_solution_without_its_palette_still_tells_its_colours_apart() -> None:
    """A review found `Solution.text()` of a colour solution drawing every colour as '#'."""
    from nonosat.model import Solution

    assert Solution(((0, 1, 2), (62, 10, 0))).text() == ".12\n@a."
    assert Solution(((0, 1), (1, 0))).text() == ".#\n#."
    ring = load(Path(__file__).resolve().parent.parent / "puzzles" / "ring-colour.non")
    solution = solve(ring).solution
    assert solution is not None and len(set(solution.text().replace("\n", ""))) == len(ring.palette)


def test_a_verdict_gives_its_two_solutions_and_where_they_differ_from_0() -> None:
    """A review found the two solutions of a verdict reachable only as `verdict.result.solutions`,
    which the README did not say: `verdict.solutions` now; the differences count from 0."""
    from nonosat import Puzzle, check

    verdict = check(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    first, second = verdict.solutions
    assert verdict.solutions == verdict.result.solutions and first.grid != second.grid
    assert verdict.differences == [(0, 0), (0, 1), (1, 0), (1, 1)] == first.differences(second)
