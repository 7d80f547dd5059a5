"""The solver driver: line logic first, then PySAT, then blocking clauses to prove uniqueness."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal

from nonosat import interrupts
from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.encodings import DEFAULT_ENCODING, Clause, check_encoding
from nonosat.errors import CutShort, NonosatError, TimeUp, UsageError
from nonosat.linesolve import Board, Contradiction, line_solve
from nonosat.model import Grid, Puzzle, Solution
from nonosat.swaps import switched_solution

if TYPE_CHECKING:
    from nonosat.cnf import GridFormula

DEFAULT_SOLVER = "minisat22"
"""Fastest on the tournament sets and the n-Dom puzzles (bench/README.md)."""

SOLVERS = (
    "cadical103",
    "cadical153",
    "cadical195",
    "cadical300",
    "glucose3",
    "glucose4",
    "glucose42",
    "gluecard3",
    "gluecard4",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minicard",
    "minisat22",
    "minisatep",
)
"""PySAT's incremental solvers that honour a time limit (by interrupt or conflict budget)."""

_BUDGETED = ("cadical",)  # no interrupt(): time limits by a loop of conflict budgets


class Status(str, Enum):
    """What a solve found out."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    SOLVED = "solved"
    """A solution was found and uniqueness was not asked for."""
    UNKNOWN = "unknown"
    """The time limit ran out before the question was answered."""


class WrongAnswer(NonosatError):
    """A solver produced a grid that breaks the clues: a bug, never shown as a solution."""

    exit_code = 70


@dataclass(frozen=True)
class Result:
    """The outcome of solving a puzzle."""

    puzzle: Puzzle
    status: Status
    solutions: tuple[Solution, ...]
    method: str
    """"line" if line logic alone settled it, "sat" if the SAT solver was needed."""
    seconds: float
    complete: bool
    """True when the search ended on its own, so `len(solutions)` is the exact count."""
    stats: dict[str, int] = field(default_factory=dict)
    cut_short: str | None = None
    """Why the work stopped before an answer, when it did: "time limit reached while building
    the CNF", "the CNF grew past 3000000 clauses"... (status `unknown`)."""

    @property
    def solution(self) -> Solution | None:
        """The first solution found, if any."""
        return self.solutions[0] if self.solutions else None


def resolve_solver(name: str) -> str:
    """The canonical name of a PySAT solver, given any of PySAT's names for it ("g4", "cd19", ...).

    Only solvers that enumerate incrementally and honour a time limit are accepted.
    """
    if name in SOLVERS:
        return name  # without importing PySAT, which a puzzle solved by line logic never needs
    from pysat.solvers import SolverNames

    for canonical in SOLVERS:
        if name == canonical or name in getattr(SolverNames, canonical, ()):
            return canonical
    raise UsageError(f"unknown or unsupported solver {name!r}; choose one of {', '.join(SOLVERS)}")


def _verified(puzzle: Puzzle, grid: Grid) -> Solution:
    """Return the grid as a solution after checking it against every clue."""
    wrong = puzzle.violations(grid)
    if wrong:
        raise WrongAnswer(f"internal error: a solver's grid breaks {', '.join(wrong[:5])}")
    return Solution(grid)


def _status(found: int, count: int, complete: bool) -> Status:
    if found >= 2:
        return Status.MULTIPLE
    if complete:
        return Status.UNIQUE if found == 1 else Status.NONE
    if found == 1 and count == 1:
        return Status.SOLVED
    return Status.UNKNOWN


_RAW_ADD = {"cadical195": ("cadical195_add_cl", "cadical"), "minisat22": ("minisat22_add_cl", "minisat")}
"""PySAT's C function that adds one clause, and the wrapper's handle that it takes, for the
solvers used by default: calling it directly halves the cost of loading a formula."""


LOAD_SLICE = 1 << 16
"""Clauses added between looks at the deadline while a formula is loaded."""


def _load(sat: Any, name: str, clauses: list[Clause], deadline: Deadline = NO_DEADLINE) -> bool:
    """Add the clauses to a PySAT solver; False if one of them is empty. Raises TimeUp when the
    deadline passes first."""
    raw = _RAW_ADD.get(name)
    handle = getattr(sat.solver, raw[1], None) if raw else None
    add = getattr(_pysolvers(), raw[0], None) if raw else None
    for start in range(0, len(clauses), LOAD_SLICE):
        deadline.check("loading the CNF into the solver")
        part = clauses[start : start + LOAD_SLICE]
        if handle is None or add is None:
            if not all(part):
                return False
            sat.append_formula(part)
            continue
        for clause in part:
            if not clause:
                return False
            add(handle, clause)
    return True


def _pysolvers() -> Any:
    import pysolvers  # type: ignore[import-not-found]  # PySAT's C extension

    return pysolvers


SLICE_SECONDS = 0.25
"""The longest a conflict budget of a solver without interrupt() (CaDiCaL) should take, so that
a stop (the rival's answer, Ctrl-C) is heard within about this long: CaDiCaL holds Python's GIL
through a slice, so not even the Ctrl-C watcher runs before it ends. Its inprocessing is not
counted in conflicts, and a slice now and then takes over a second: the command line runs
CaDiCaL in a worker instead (`_search_in_workers`)."""


def _keyboard_interrupt(error: Exception) -> bool:
    return "keyboard interrupt" in str(error).lower()


class Search:
    """One incremental PySAT solver over some clauses (a grid formula's), with a deadline.

    Loading the clauses honours the deadline too (TimeUp). Every solve can be ended from another
    thread with `stop`, and by Ctrl-C (see nonosat.interrupts).
    """

    def __init__(
        self, clauses: list[Clause], solver: str, deadline: Deadline = NO_DEADLINE, *, whole: bool = False
    ) -> None:
        from pysat.solvers import Solver

        self.name = solver
        self.deadline = deadline
        self.stoppable = False
        """Whether `stop` may be called from another thread (then every solve can be interrupted)."""
        self.whole = whole
        """Solve in one uninterrupted call, even without Python's SIGINT handling: nothing but the
        end of its process stops it (a race worker). CaDiCaL is not cut into conflict budgets."""
        self.stopped = False
        self.sat = Solver(solver)
        try:
            self.unsatisfiable = not _load(self.sat, solver, clauses, deadline)
        except BaseException:
            self.sat.delete()
            raise

    def stop(self) -> None:
        """End the search from another thread: the solve under way, and any later one, give None."""
        self.stopped = True
        if not self.name.startswith(_BUDGETED):
            self.sat.interrupt()

    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        """Whether the formula (under the assumptions) is satisfiable, or None when the deadline
        passed or `stop` was called first. Ctrl-C stops it too (see nonosat.interrupts)."""
        if self.stopped:
            return None
        if self.deadline.at is None and not self.stoppable and (self.whole or interrupts.wants_keyboard_interrupt()):
            return self._solve_plain(assumptions)
        interrupts.running(self)
        try:
            if self.name.startswith(_BUDGETED):
                answer = self._solve_with_budgets(assumptions)
            else:
                answer = self._solve_with_interrupt(assumptions)
        finally:
            interrupts.finished(self)
        return None if self.stopped else answer

    def next_model(self) -> list[int] | Literal[False] | None:
        """A model, False when there is none, or None when the deadline passed (or `stop` was
        called) first."""
        answer = self.solve()
        if answer is None:
            return None
        return self.sat.get_model() if answer else False

    def _solve_plain(self, assumptions: Sequence[int]) -> bool:
        """A solve with PySAT's own SIGINT handling: Ctrl-C is KeyboardInterrupt, as in Python."""
        try:
            return bool(self.sat.solve(assumptions=list(assumptions)))
        except Exception as error:
            if _keyboard_interrupt(error):
                raise KeyboardInterrupt from None
            raise

    def _solve_with_interrupt(self, assumptions: Sequence[int]) -> bool | None:
        timer = None
        remaining = self.deadline.remaining()
        if remaining is not None:
            if remaining <= 0:
                return None
            timer = interrupts.Timer(remaining, self.sat.interrupt)
            timer.start()
        try:
            answer: bool | None = self.sat.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
        finally:
            if timer is not None:
                timer.cancel()
            if not self.stopped:
                self.sat.clear_interrupt()
        return answer

    def _solve_with_budgets(self, assumptions: Sequence[int]) -> bool | None:
        """Solve in slices of conflicts, each aimed at half of SLICE_SECONDS (or of a tenth of the
        time left, when that is shorter): after each slice the next budget is scaled by how long
        this one took. A stop (the rival's answer, Ctrl-C) is heard between slices, and the
        deadline is overrun by little more than a slice."""
        budget = 1000
        while True:
            started = time.monotonic()
            remaining = self.deadline.remaining()
            if remaining is None:
                remaining = float("inf")
            if remaining <= 0 or self.stopped:
                return None
            self.sat.conf_budget(budget)
            answer = self._budget_slice(assumptions)
            if answer is not None:
                return answer
            took = max(time.monotonic() - started, 1e-4)
            aim = min(remaining / 10, SLICE_SECONDS) / 2
            budget = max(100, min(int(budget * aim / took), 4 * budget))

    def _budget_slice(self, assumptions: Sequence[int]) -> bool | None:
        """One conflict budget of CaDiCaL. PySAT's solve_limited sets up its own SIGINT handler
        in the main thread, which longjmps out of the solver's C++ on Ctrl-C: that leaves it
        broken (freeing it later aborted the process). Where Ctrl-C is heard another way (the
        command line's watcher, or SIGINT ignored in a batch worker), the slice is run through
        PySAT's C function without that handler; the watcher stops the search between slices."""
        solve_lim = getattr(_pysolvers(), f"{self.name}_solve_lim", None)
        inner = self.sat.solver
        handle = getattr(inner, "cadical", None)
        if interrupts.wants_keyboard_interrupt() or solve_lim is None or handle is None:
            try:
                answer: bool | None = self.sat.solve_limited(assumptions=list(assumptions))
            except Exception as error:
                if _keyboard_interrupt(error):
                    raise KeyboardInterrupt from None
                raise
            return answer
        status = solve_lim(handle, list(assumptions), 0)  # 0: not "the main thread", no handler
        inner.status = None if status == 0 else status > 0  # as PySAT's wrapper records it
        inner.prev_assumps = list(assumptions)
        return inner.status  # type: ignore[no-any-return]

    def close(self) -> None:
        self.sat.delete()


RACE_AFTER = 0.1
"""Seconds one solver gets on its own before a race of solvers starts on a hard puzzle."""


def solve(
    puzzle: Puzzle,
    *,
    count: int = 2,
    timeout: float | None = None,
    solver: str = DEFAULT_SOLVER,
    encoding: str = DEFAULT_ENCODING,
    jobs: int | None = None,
    race_after: float | None = None,
) -> Result:
    """Solve a puzzle, looking for up to `count` solutions (2 decides uniqueness).

    Line logic runs first; if it finishes the grid the solution is unique without SAT. Otherwise
    the unsolved remainder is encoded and solved with PySAT, and each solution found is blocked
    to look for the next. `timeout` (seconds) holds for all of it: line logic, building the CNF
    and the search; when it runs out the status is `unknown` and `cut_short` says where.

    `jobs` is the number of cores a hard puzzle may use (default 1): with two or more, a search
    that takes more than `race_after` seconds (default RACE_AFTER) is joined by a rival solver
    in a worker process (see nonosat.portfolio), safe in threaded programs too. Raises
    `ImpossiblePuzzle` before any search when a clue cannot fit its line or the row and column
    totals differ.
    """
    if count < 1:
        raise UsageError("count must be at least 1")
    if jobs is not None and jobs < 1:
        raise UsageError("jobs must be at least 1")
    solver = resolve_solver(solver)
    check_encoding(encoding)
    started = time.monotonic()
    deadline = Deadline.after(timeout)
    puzzle.ensure_possible()

    def result(
        status: Status,
        solutions: list[Solution],
        method: str,
        complete: bool,
        cut_short: str | None = None,
        **stats: int,
    ) -> Result:
        took = time.monotonic() - started
        return Result(puzzle, status, tuple(solutions), method, took, complete, stats, cut_short)

    try:
        board = line_solve(puzzle, deadline)
    except Contradiction:
        return result(Status.NONE, [], "line", True)
    except TimeUp as error:
        return result(Status.UNKNOWN, [], "line", False, str(error))
    if board.is_complete():
        return result(Status.UNIQUE, [_verified(puzzle, board.grid())], "line", True, line_passes=board.passes)
    from nonosat.cnf import build_formula  # only now: a puzzle solved by line logic needs no PySAT

    try:
        formula = build_formula(board, encoding, deadline)
    except CutShort as error:
        return result(Status.UNKNOWN, [], "sat", False, str(error), line_passes=board.passes)
    stats = dict(
        line_passes=board.passes,
        unknown_cells=len(formula.unknown),
        variables=formula.variables,
        clauses=len(formula.clauses),
    )
    race = jobs is not None and jobs > 1
    wait = RACE_AFTER if race_after is None else race_after  # read now, so tests can change it
    solutions, complete, cut = enumerate_solutions(formula, count, solver, deadline, race=race, race_after=wait)
    status = _status(len(solutions), count, complete)
    return result(status, solutions, "sat", complete, cut if status is Status.UNKNOWN else None, **stats)


def rival(solver: str) -> str:
    """The solver raced against the chosen one: CaDiCaL, or MiniSat when CaDiCaL was chosen.
    On hard tournament puzzles each is the faster on a good share of them (bench/README.md)."""
    return "cadical195" if solver != "cadical195" else "minisat22"


@dataclass(frozen=True)
class RivalJob:
    """What a rival worker needs to search on its own: the line-solved board (the formula is
    rebuilt from it, with the same cell variables), and the grids the search had found."""

    board: Board
    encoding: str
    solver: str
    count: int
    grids: tuple[Grid, ...]


def rival_work(job: RivalJob, found: list[Grid]) -> bool:
    """In the rival worker: the grids found before it started are blocked and reported again,
    like the grids found later; True when its search ended on its own."""
    from nonosat.cnf import build_formula

    formula = build_formula(job.board, job.encoding)
    search = Search(formula.clauses, job.solver, whole=True)
    try:
        if search.unsatisfiable:
            return True
        for grid in job.grids:
            search.sat.add_clause(formula.blocking_clause_for(grid))
            found.append(grid)
        return bool(_collect(search, formula, job.count, found))
    finally:
        search.close()


def enumerate_solutions(
    formula: GridFormula,
    count: int,
    solver: str = DEFAULT_SOLVER,
    deadline: Deadline = NO_DEADLINE,
    *,
    race: bool = False,
    race_after: float = RACE_AFTER,
) -> tuple[list[Solution], bool, str | None]:
    """Up to `count` verified solutions of a grid formula (what line logic left open, or a
    partial board), whether that is all of them, and why the search stopped short if it did.

    With `race`, a search still going after `race_after` seconds is joined by its `rival` in a
    worker process, while it goes on undisturbed here, and the first to finish answers (see
    `portfolio.Rival`).
    """
    from nonosat import portfolio

    puzzle = formula.board.puzzle
    race = race and portfolio.can_race()
    if solver.startswith(_BUDGETED) and interrupts.watched() and portfolio.can_fork():
        elsewhere = _search_in_workers(formula, count, solver, deadline, race, race_after)
        if elsewhere is not None:
            found, whole, why = elsewhere
            return [_verified(puzzle, grid) for grid in found], whole, why
    try:
        search = Search(formula.clauses, solver, deadline)
    except TimeUp as error:
        return [], False, str(error)
    grids: list[Grid] = []
    if search.unsatisfiable:
        search.close()
        return [], True, None
    contender = None
    if race:
        try:
            portfolio.warm_up()
        except Exception:  # noqa: BLE001 - no fork server (no processes or files to spare): no race
            race = False
    if race:
        search.stoppable = True

        def job() -> RivalJob:
            return RivalJob(formula.board, formula.encoding, rival(solver), count, tuple(grids))

        contender = portfolio.Rival(rival_work, job, race_after, search.stop)
    try:
        ended = _collect(search, formula, count, grids)
    finally:
        theirs, their_ending = contender.stop() if contender is not None else ([], None)
        search.close()
    cut = None
    if ended is None:  # stopped by the rival's answer, or out of time
        if their_ending is not None:
            grids, ended = theirs, their_ending
        else:  # neither finished: what both found counts (two different grids prove "multiple")
            grids = (grids + [grid for grid in theirs if grid not in grids])[:count]
            cut = "time limit reached while searching"
    return [_verified(puzzle, grid) for grid in grids], bool(ended), cut


class _Waiting:
    """The command line's side of a search run in worker processes: `stop` (a worker's answer,
    Ctrl-C) ends `wait`."""

    def __init__(self) -> None:
        import threading

        self.event = threading.Event()

    def stop(self) -> None:
        self.event.set()

    def wait(self, deadline: Deadline) -> None:
        """Until `stop`, or the deadline. Ctrl-C raises KeyboardInterrupt here at once."""
        while not self.event.is_set():
            remaining = deadline.remaining()
            if remaining is not None and remaining <= 0:
                return
            self.event.wait(1.0 if remaining is None else min(remaining, 1.0))


def _search_in_workers(
    formula: GridFormula, count: int, solver: str, deadline: Deadline, race: bool, race_after: float
) -> tuple[list[Grid], bool, str | None] | None:
    """For the command line: a solver without interrupt() (CaDiCaL) holds Python's GIL through a
    solve, so that not even Ctrl-C is heard in the process that runs it (a conflict budget's
    inprocessing can take seconds). So its search runs in a worker from the fork server, and
    this process only waits; with the race, the rival joins after `race_after` as usual. The
    grids, whether they are all, and why the search stopped short; None when the worker could
    not start or died (the search then runs here)."""
    from nonosat import portfolio

    try:
        portfolio.warm_up()
    except Exception:  # noqa: BLE001 - no fork server (no processes or files to spare)
        return None
    waiting = _Waiting()

    def job(name: str) -> Any:
        return lambda: RivalJob(formula.board, formula.encoding, name, count, ())

    own = portfolio.Rival(rival_work, job(solver), 0.0, waiting.stop, on_gone=waiting.stop)
    workers = [own]
    if race:
        workers.append(portfolio.Rival(rival_work, job(rival(solver)), race_after, waiting.stop))
    interrupts.running(waiting)
    try:
        waiting.wait(deadline)
    finally:
        interrupts.finished(waiting)
        outcomes = [worker.stop() for worker in workers]
    for grids, ended in outcomes:
        if ended is not None:
            return grids, ended, None
    if own.gone and deadline.remaining() != 0:
        return None
    merged: list[Grid] = []
    for grids, _ in outcomes:
        merged += [grid for grid in grids if grid not in merged]
    return merged[:count], False, "time limit reached while searching"


def _collect(search: Search, formula: GridFormula, count: int, grids: list[Grid]) -> bool | None:
    """Add grids to `grids` until there are `count`: True when the search shows there are no
    more, False when `count` is reached first, None when the deadline passes first."""
    puzzle = formula.board.puzzle
    while len(grids) < count:
        model = search.next_model()
        if model is None:
            return None
        if model is False:
            return True
        grid = formula.grid(model)
        _verified(puzzle, grid)
        grids.append(grid)
        if not formula.unknown:
            return True
        if len(grids) == 1 and count == 2:
            switched = switched_solution(puzzle, grid)
            if switched is not None:
                grids.append(switched)
                return False
        search.sat.add_clause(formula.blocking_clause(model))
    return False


@dataclass(frozen=True)
class Verdict:
    """The uniqueness verdict on a puzzle, and how its own goal (if it has one) fares."""

    result: Result
    goal_satisfies_clues: bool | None
    """None when the puzzle file gives no goal."""

    @property
    def status(self) -> Status:
        return self.result.status

    @property
    def differences(self) -> list[tuple[int, int]]:
        """The (row, column) cells, from 0, where the first two solutions differ."""
        if len(self.result.solutions) < 2:
            return []
        return self.result.solutions[0].differences(self.result.solutions[1])


def check(
    puzzle: Puzzle,
    *,
    timeout: float | None = None,
    solver: str = DEFAULT_SOLVER,
    encoding: str = DEFAULT_ENCODING,
    jobs: int | None = None,
) -> Verdict:
    """Decide whether a puzzle has exactly one solution; two solutions are kept when it has more."""
    result = solve(puzzle, count=2, timeout=timeout, solver=solver, encoding=encoding, jobs=jobs)
    goal_ok = None if puzzle.goal is None else puzzle.satisfied_by(puzzle.goal)
    return Verdict(result, goal_ok)
