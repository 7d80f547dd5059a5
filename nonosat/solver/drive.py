"""solve and check: line logic first, then the CNF of what is left, then the SAT search."""

from __future__ import annotations

import time

from nonosat.deadline import Deadline
from nonosat.errors import CutShort, TimeUp, UsageError
from nonosat.model import Grid, Puzzle, Solution
from nonosat.solver.backends import DEFAULT_SOLVER, resolve_solver
from nonosat.solver.compiled import core_for, fits, grid_of
from nonosat.solver.encodings import DEFAULT_ENCODING, check_encoding
from nonosat.solver.outcome import Method, Result, Status, Verdict, status_of, verified
from nonosat.solver.propagation import Board, Contradiction, line_solve

SEARCH_NODES: int | None = None
"""The default of `solve`'s `search_nodes`. None: the compiled core's conflict-driven search at
once. N > 0: its depth-first search first, for up to N guesses (it was 200 until the
conflict-driven search got faster; now the tournament sets take 1-4 s less without it:
bench/README.md, "The conflict-driven search alone"). 0: SAT alone."""
SEARCH_SECONDS = 0.2
"""And the longest it may take, for grids larger than 25x25 (a tenth of the time left, when
that is less)."""


def solve(
    puzzle: Puzzle,
    *,
    count: int = 2,
    timeout: float | None = None,
    solver: str = DEFAULT_SOLVER,
    encoding: str = DEFAULT_ENCODING,
    jobs: int | None = None,
    race_after: float | None = None,
    search_nodes: int | None = None,
) -> Result:
    """Solve a puzzle, looking for up to `count` solutions (2 decides uniqueness).

    Line logic runs first; if it finishes the grid the solution is unique without SAT. Otherwise
    the unsolved remainder is encoded and solved with PySAT, and each solution found is blocked
    to look for the next. `timeout` (seconds) holds for all of it: line logic, building the CNF
    and the search; when it runs out the status is `unknown` and `cut_short` says where.

    `jobs` is the number of cores a hard puzzle may use (default 1): with two or more, a search
    that takes more than `race_after` seconds (default racing.RACE_AFTER) is joined by a rival solver
    in a worker process (see nonosat.solver.race), safe in threaded programs too.

    A puzzle with no solution is a `none` result however that was found: by cheap checks before
    any search (a clue that cannot fit its line, row and column totals that differ: method
    `checks`, and `problems` says which), by line logic, or by the search. Only bad arguments
    raise (UsageError).

    A black-and-white puzzle of up to 126x126 never needs a CNF: the compiled core
    (`nonosat.solver.compiled`) runs its conflict-driven search, raced on a second core by the same
    search on the puzzle upside down (`nonosat.solver.cdcl`): `solver` and `encoding` are for
    the CNF, which it needs only with `search_nodes=0`. `search_nodes=N` (N > 0) runs the core's
    depth-first search first, with line logic and probing at every node, for up to N guesses;
    `search_nodes=0` skips both searches, for SAT alone.
    """
    if count < 1:
        raise UsageError("count must be at least 1")
    if jobs is not None and jobs < 1:
        raise UsageError("jobs must be at least 1")
    solver = resolve_solver(solver)
    check_encoding(encoding)
    started = time.monotonic()
    deadline = Deadline.after(timeout)
    problems = tuple(puzzle.problems())
    if problems:
        return Result(puzzle, Status.NONE, (), Method.CHECKS, time.monotonic() - started, True, problems=problems)

    def result(
        status: Status,
        solutions: list[Solution],
        method: Method,
        complete: bool,
        cut_short: str | None = None,
        **stats: int,
    ) -> Result:
        took = time.monotonic() - started
        return Result(puzzle, status, tuple(solutions), method, took, complete, stats, cut_short)

    try:
        board = line_solve(puzzle, deadline)
    except Contradiction:
        return result(Status.NONE, [], Method.LINE, True)
    except TimeUp as error:
        return result(Status.UNKNOWN, [], Method.LINE, False, str(error))
    if board.is_complete():
        return result(Status.UNIQUE, [verified(puzzle, board.grid())], Method.LINE, True, line_passes=board.passes)
    nodes = SEARCH_NODES if search_nodes is None else search_nodes  # read now, so tests can change it
    race = jobs is not None and jobs > 1
    from nonosat.solver import race as racing  # only now: a puzzle solved by line logic never races

    wait = racing.RACE_AFTER if race_after is None else race_after  # read now, so tests can change it
    if (nodes is None or nodes > 0) and fits(puzzle):
        if nodes is not None and count <= 2:
            searched = search_compiled(board, count, nodes, deadline)
            if searched is not None:
                grids, complete, made = searched
                status = status_of(len(grids), count, complete)
                found = [verified(puzzle, grid) for grid in grids]
                return result(status, found, Method.SEARCH, complete, line_passes=board.passes, search_nodes=made)
        from nonosat.solver.cdcl import learn_solutions

        grids, complete, cut, counts = learn_solutions(board, count, deadline, race=race, race_after=wait)
        status = status_of(len(grids), count, complete)
        found = [verified(puzzle, grid) for grid in grids]
        cut = cut if status is Status.UNKNOWN else None
        return result(status, found, Method.CDCL, complete, cut, line_passes=board.passes, **counts)
    from nonosat.solver.encodings.grid import build_formula  # only now: a puzzle solved by line logic needs no PySAT
    from nonosat.solver.enumeration import enumerate_solutions

    try:
        formula = build_formula(board, encoding, deadline)
    except CutShort as error:
        return result(Status.UNKNOWN, [], Method.SAT, False, str(error), line_passes=board.passes)
    stats = dict(
        line_passes=board.passes,
        unknown_cells=formula.open_cells,
        variables=formula.variables,
        clauses=len(formula.clauses),
    )
    solutions, complete, cut = enumerate_solutions(formula, count, solver, deadline, race=race, race_after=wait)
    status = status_of(len(solutions), count, complete)
    return result(status, solutions, Method.SAT, complete, cut if status is Status.UNKNOWN else None, **stats)


def search_compiled(board: Board, count: int, nodes: int, deadline: Deadline) -> tuple[list[Grid], bool, int] | None:
    """Up to `count` (1 or 2) grids by the compiled core's search from a board line logic left
    open, whether those are all there are, and the guesses made; None when the budget of
    `nodes` guesses or SEARCH_SECONDS ran out first."""
    puzzle = board.puzzle
    core = core_for(puzzle)
    assert core is not None
    left = deadline.remaining()
    if left is not None and left <= 0:
        return None  # out of time already: the CNF's builder says so
    seconds = SEARCH_SECONDS if left is None else max(min(left / 10, SEARCH_SECONDS), 1e-3)
    complete, found, made = core.search(puzzle.rows, puzzle.columns, *board.masks(), count, nodes, seconds)
    if not complete:
        return None
    grids = [grid_of(rows, puzzle.width) for rows in found]
    return grids, len(grids) < count, int(made)


def check(
    puzzle: Puzzle,
    *,
    timeout: float | None = None,
    solver: str = DEFAULT_SOLVER,
    encoding: str = DEFAULT_ENCODING,
    jobs: int | None = None,
) -> Verdict:
    """Decide whether a puzzle has exactly one solution; two solutions are kept when it has more.
    A puzzle with none is a `none` verdict, as `solve` says."""
    result = solve(puzzle, count=2, timeout=timeout, solver=solver, encoding=encoding, jobs=jobs)
    return Verdict(result, puzzle.goal_fits())
