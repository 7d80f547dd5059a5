"""solve and check: the cheap checks, line logic, then the engine on what line logic leaves
open (`engines`), and every grid verified against the clues.

`solve` and `check` take a time limit in seconds; `solve_within` and `check_within` take the
`Deadline` of a whole command and pass it down as it is.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from nonosat.arguments import check_puzzle, check_whole
from nonosat.deadline import NEVER, Deadline, seconds_or_none
from nonosat.errors import CutShort, TimeUp, UsageError
from nonosat.limits import MAX_COUNT, MAX_JOBS
from nonosat.model import Puzzle
from nonosat.solver.backends import DEFAULT_SOLVER, resolve_solver
from nonosat.solver.encodings import DEFAULT_ENCODING, check_encoding
from nonosat.solver.engines import Engine, Request, choose, search_as_asked
from nonosat.solver.outcome import (
    HAND_OVER_EACH,
    HAND_OVER_MOST,
    HAND_OVER_SHARE,
    Method,
    Result,
    Status,
    Verdict,
    status_of,
    verified,
    verified_within,
)
from nonosat.solver.propagation import Contradiction, line_solve


def solve(
    puzzle: Puzzle,
    *,
    count: int = 2,
    timeout: float | Deadline | None = None,
    engine: str = "auto",
    solver: str | None = None,
    encoding: str | None = None,
    jobs: int | None = None,
    race_after: float | None = None,
) -> Result:
    """Solve a puzzle, looking for up to `count` solutions (2 decides uniqueness).

    Line logic runs first; if it finishes the grid the solution is unique, and no engine is
    needed (method `line`). Otherwise the `engine` searches what it left open (see
    `nonosat.solver.engines`): `auto` (the default) is the compiled core's conflict-driven search
    (`cdcl`), but for black and white over 126 cells a side `cdcl` for half a second and then the
    CNF with PySAT (`sat`; `cdcl` again if the formula outgrows the clause limit), and `sat` where
    the core is not built; `dfs` is the compiled core's depth-first search. `solver` (a PySAT solver, default
    minisat22) and `encoding` (`blocks` or `automaton`) are the SAT engine's: naming either
    chooses it, and naming either with `cdcl` or `dfs` is a UsageError, as is an engine that
    cannot take the puzzle. The result's `method` says which engine answered.

    `timeout` (seconds) holds for all of it: line logic, building the CNF and the search; when it
    runs out the status is `unknown` and `cut_short` says where. `jobs` is the number of cores a
    hard puzzle may use (default 1): with two or more, a search that takes more than `race_after`
    seconds (default racing.RACE_AFTER) is joined by a rival in a worker process (the same search
    upside down, the SAT engine against cdcl and dfs in colour, or another PySAT solver: nonosat.solver.race),
    safe in threaded programs too.

    A puzzle with no solution is a `none` result however that was found: by cheap checks before
    any search (a clue that cannot fit its line, row and column totals that differ: method
    `checks`, and `problems` says which), by line logic, or by the engine. Only bad arguments
    raise (UsageError).
    """
    return solve_within(
        puzzle,
        Deadline.of(timeout),
        count=count,
        engine=engine,
        solver=solver,
        encoding=encoding,
        jobs=jobs,
        race_after=race_after,
    )


def solve_within(
    puzzle: Puzzle,
    deadline: Deadline,
    *,
    count: int = 2,
    engine: str = "auto",
    solver: str | None = None,
    encoding: str | None = None,
    jobs: int | None = None,
    race_after: float | None = None,
    guesses: int | None = None,
    written: bool = False,
    line_deadline: Deadline | None = None,
) -> Result:
    """`solve` within a command's deadline. `guesses` bounds the compiled searches' work: the
    dfs engine's guesses, the cdcl engine's conflicts (the generator's checks: `generate.repair`).
    `written`: every grid found is written out (as JSON) by the deadline, so no more are kept than
    can be (`verified_within`). `line_deadline`, where given, is line logic's instead: a caller
    that shows fewer grids when line logic completes the only one keeps less time for that (the
    command line's `check` draws one grid then, and two when a search finds two)."""
    check_puzzle(puzzle)
    check_whole(count, "count", MAX_COUNT)
    if jobs is not None:
        check_whole(jobs, "jobs", MAX_JOBS)
    if race_after is not None:  # "x" was a TypeError from inside the race, -1 taken as 0 (a review)
        given = seconds_or_none(race_after, "race_after")
        race_after = NEVER if given is None else given  # infinity: no race
    if solver is not None:
        solver = resolve_solver(solver)
    if encoding is not None:
        check_encoding(encoding)
    chosen = choose(puzzle, engine, solver, encoding)
    started = time.monotonic()
    problems = tuple(puzzle.problems())
    if problems:
        return Result(puzzle, Status.NONE, (), Method.CHECKS, time.monotonic() - started, True, problems=problems)

    def took() -> float:
        return time.monotonic() - started

    try:
        board = line_solve(puzzle, deadline if line_deadline is None else line_deadline)
    except Contradiction:
        return Result(puzzle, Status.NONE, (), Method.LINE, took(), True)
    except TimeUp as error:
        return Result(puzzle, Status.UNKNOWN, (), Method.LINE, took(), False, cut_short=str(error))
    if board.is_complete():
        solution = verified(puzzle, board.grid())
        return Result(puzzle, Status.UNIQUE, (solution,), Method.LINE, took(), True, {"line_passes": board.passes})
    from nonosat.solver import race as racing  # only now: a puzzle solved by line logic never races
    from nonosat.solver.compiled import grids_kept  # (a 25x25's hand-over time is as it was)

    kept = grids_kept(puzzle, count)
    most = min(HAND_OVER_MOST, kept * HAND_OVER_EACH * max(1.0, puzzle.width * puzzle.height / 625))
    searching, checking = (deadline, deadline) if count <= 2 else deadline.leaving(HAND_OVER_SHARE, most)
    request = Request(
        board,
        count,
        searching,
        race=jobs is not None and jobs > 1,
        race_after=racing.RACE_AFTER if race_after is None else race_after,  # read now: tests change it
        solver=solver or DEFAULT_SOLVER,
        encoding=encoding or DEFAULT_ENCODING,
        guesses=guesses,
        written=written,
    )
    chosen, found = search_as_asked(engine, chosen, request, named=solver is not None or encoding is not None)
    solutions, all_checked = verified_within(puzzle, found.grids, checking, deadline if written else None)
    complete = found.complete and all_checked
    status = status_of(len(solutions), count, complete)
    why = found.cut_short if all_checked else "time limit reached while checking the solutions"
    cut_short = why if status is Status.UNKNOWN else None
    stats = {"line_passes": board.passes, **found.stats}
    answered = complete or bool(solutions)  # else no solver's grids or proof: none is named (a review)
    return Result(
        puzzle,
        status,
        solutions,
        Method(chosen.value),
        took(),
        complete,
        stats,
        cut_short,
        solver=found.solver if answered else None,
        encoding=found.encoding if answered else None,
        rival=found.rival and answered,
    )


def check(
    puzzle: Puzzle,
    *,
    timeout: float | Deadline | None = None,
    engine: str = "auto",
    solver: str | None = None,
    encoding: str | None = None,
    jobs: int | None = None,
    certificate: str | Path | None = None,
    force: bool = False,
) -> Verdict:
    """Decide whether a puzzle has exactly one solution; two solutions are kept when it has more.
    A puzzle with none is a `none` verdict, as `solve` says. The options are `solve`'s.

    With `certificate`, a folder, the verdict's evidence is written there when it is decided
    (`nonosat.certificate.make_certificate`, in `encoding`, else the automaton encoding; existing
    files only with `force`),
    within the same `timeout`; an unknown verdict has none. A black-and-white formula past the
    clause limit raises FormulaTooLarge before the search (its `verdict` None)."""
    if certificate is not None and not isinstance(certificate, str | os.PathLike):
        raise UsageError(f"certificate is a folder's path, not {type(certificate).__name__}")
    from nonosat.arguments import check_flag

    check_flag(force, "force")
    deadline = Deadline.of(timeout)
    if certificate is not None:
        from nonosat.arguments import check_puzzle
        from nonosat.certificate import CERTIFICATE_ENCODING, refuse_past_limit

        check_puzzle(puzzle)
        refuse_past_limit(puzzle, encoding or CERTIFICATE_ENCODING)  # before the search: no verdict
    verdict = check_within(puzzle, deadline, engine=engine, solver=solver, encoding=encoding, jobs=jobs)
    if certificate is None:
        return verdict
    from nonosat.certificate import CERTIFIED, make_certificate

    status = verdict.result.status.value
    if status in CERTIFIED:
        grids = tuple(solution.grid for solution in verdict.result.solutions)
        try:
            make_certificate(
                puzzle,
                status,
                grids,
                certificate,
                encoding=encoding or CERTIFICATE_ENCODING,
                force=force,
                deadline=deadline,
            )
        except CutShort as error:  # the verdict stands: the caller finds it on the error
            error.verdict = verdict
            raise
    return verdict


def check_within(
    puzzle: Puzzle,
    deadline: Deadline,
    *,
    engine: str = "auto",
    solver: str | None = None,
    encoding: str | None = None,
    jobs: int | None = None,
    line_deadline: Deadline | None = None,
) -> Verdict:
    """`check` within a command's deadline (and line logic within `line_deadline`, see `solve_within`)."""
    result = solve_within(
        puzzle,
        deadline,
        count=2,
        engine=engine,
        solver=solver,
        encoding=encoding,
        jobs=jobs,
        line_deadline=line_deadline,
    )
    found = puzzle.goal_problem is None and puzzle.goal in {solution.grid for solution in result.solutions}
    return Verdict(result, True if found else puzzle.goal_fits())  # a solution found was checked already


__all__ = ["Engine", "check", "check_within", "solve", "solve_within"]
