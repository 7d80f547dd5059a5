"""Every solution up to a count: blocking clauses over the cell variables, the 2x2 switch, and
the race of solvers in worker processes."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nonosat import interrupts
from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import TimeUp
from nonosat.model import Grid, Puzzle, Solution
from nonosat.processes import warm_up
from nonosat.solver import race as racing
from nonosat.solver.backends import DEFAULT_SOLVER, rival, runs_apart
from nonosat.solver.encodings.base import FREEING_A_CLAUSE
from nonosat.solver.outcome import verified_within
from nonosat.solver.propagation import Board
from nonosat.solver.session import Search
from nonosat.solver.switch import switched_solution

if TYPE_CHECKING:
    from collections.abc import Callable

    from nonosat.solver.encodings.grid import GridFormula


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
    from nonosat.solver.encodings.base import collection_paused
    from nonosat.solver.encodings.grid import build_formula

    with collection_paused():  # a worker process of its own: no other threads to keep their garbage
        formula = build_formula(job.board, job.encoding)
        search = Search(formula.clauses, job.solver, whole=True)
        try:
            if search.unsatisfiable:
                return True
            for grid in job.grids:
                search.sat.add_clause(formula.blocking_clause_for(grid))
                found.append(grid)
            return bool(collect(search, formula, job.count, found))
        finally:
            search.close()


def enumerate_solutions(
    formula: GridFormula, count: int, solver: str = DEFAULT_SOLVER, deadline: Deadline = NO_DEADLINE, **options: Any
) -> tuple[list[Solution], bool, str | None]:
    """Up to `count` verified solutions of a grid formula (what line logic left open, or a
    partial board), whether that is all of them, and why the search stopped short if it did:
    `enumerate_grids`' grids (`options` are its `race`, `race_after`, `counts` and `loaded`),
    each checked against the clues as far as the deadline allows."""
    grids, whole, why = enumerate_grids(formula, count, solver, deadline, **options)
    return _verified(formula.board.puzzle, grids, whole, why, deadline)


def enumerate_grids(
    formula: GridFormula,
    count: int,
    solver: str = DEFAULT_SOLVER,
    deadline: Deadline = NO_DEADLINE,
    *,
    race: bool = False,
    race_after: float = racing.RACE_AFTER,
    counts: dict[str, int] | None = None,
    loaded: Callable[[], object] | None = None,
    answered: dict[str, Any] | None = None,
) -> tuple[list[Grid], bool, str | None]:
    """Up to `count` grids of a grid formula, not yet checked against the clues (the sat engine's:
    `drive` checks every engine's grids once), whether that is all of them, and why the search
    stopped short if it did.

    With `race`, a search still going after `race_after` seconds is joined by its `rival` in a
    worker process, while it goes on undisturbed here, and the first to finish answers (see
    `racing.Rival`). `counts`, when given, gets the solver's own counts (conflicts, decisions,
    propagations, restarts) where it searched in this process.

    `loaded`, when given, says the formula's clauses are the caller's to let go of: once they are
    in the solver they are emptied here (freed then, not after the search) and `loaded` is called
    (`collection_paused.resume`: the search runs with the collector on).

    `answered`, when given, gets the `solver` whose grids these are and whether it was the
    race's `rival`.
    """
    if answered is not None:
        answered.update(solver=solver, rival=False)
    race = race and racing.can_race()
    if runs_apart(solver, deadline.at is not None) and (interrupts.watched() or apart_from_python(formula)):
        if loaded is not None:
            loaded()  # the wait may be long; the clauses stay (the search runs here if no worker starts)
        elsewhere = search_in_workers(formula, count, solver, deadline, race, race_after)
        if elsewhere is not None:
            if answered is not None:
                answered.update(_answered(solver, elsewhere[3]))
            return elsewhere[:3]
    try:
        search = Search(formula.clauses, solver, deadline)
    except TimeUp as error:
        return [], False, str(error)
    finally:
        if loaded is not None:
            formula.clauses.clear()  # in the solver now (or cut short): freed while the collector rests
            loaded()
    grids: list[Grid] = []
    if search.unsatisfiable:
        search.close()
        return [], True, None
    contender = None
    if race:

        def job() -> RivalJob:
            return RivalJob(formula.board, formula.encoding, rival(solver), count, tuple(grids))

        contender = racing.rival_for(rival_work, job, race_after, search.stop)
        search.stoppable = contender is not None
    try:
        ended = collect(search, formula, count, grids)
    finally:
        theirs, their_ending = contender.stop() if contender is not None else ([], None)
        if counts is not None:
            counts.update(search.counts())
        search.close()
    grids, whole, why, side = racing.race_outcome(grids, ended, theirs, their_ending, count)
    if answered is not None:
        answered.update(_answered(solver, side))
    return grids, whole, why


def _answered(solver: str, side: str) -> dict[str, Any]:
    """The solver whose grids a race's outcome gives (both names, joined by '+', for a merge),
    and whether any of them are its rival's."""
    names = {racing.OURS: solver, racing.THEIRS: rival(solver), racing.BOTH: f"{solver}+{rival(solver)}"}
    return {"solver": names[side], "rival": side != racing.OURS}


ENDING_A_WORKER = 6e-8
"""Seconds, per clause of the formula, that the workers of `search_in_workers` take to be killed
and gone, and the command to end after them: kept from their wait (with the time to let go of
the formula here), so that a search cut short by the deadline has ended by it. A review found
`--timeout 2` with CaDiCaL on a random 130x130 grid (1.1 million clauses) ending at 2.05 s: its
two workers took 55 ms to end one after the other (25-38 ms killed side by side), the process
35 ms after its last line."""

STARTING_A_WORKER = 0.15
"""Seconds that the first worker of `search_in_workers` may take to start (0.09-0.12 s measured,
from the fork server, for Forever and for a 130x130 puzzle alike): a worker still starting
cannot be killed until it has, so with less time left than this none is started. A review found
`--timeout 0.6` with CaDiCaL on a 130x130 puzzle ending at 0.68-0.72 s: the wait had 0.04 s or
none left, and the kill waited 0.05-0.11 s for the worker's start."""

APART_CLAUSES = 100_000
"""Clauses from which a library caller's CaDiCaL (or MapleCM) search runs in a worker too, as
the command line's always does: on a random 70x70 puzzle (190,000 clauses) a slice of conflicts
took up to 0.9 s, on 140x140 (1.4 million) 3-5 s, and a caller's `timeout=2` ended at 4.8 s,
Ctrl-C heard 2.3 s late; on 50x50 (65,000) no slice took 0.05 s. Rebuilding the formula in the
worker costs a tenth of the time CaDiCaL takes to search such a formula for a second."""


def apart_from_python(formula: GridFormula) -> bool:
    """Whether a library caller's search of `formula` by a solver that holds Python's lock runs
    in a worker: a large formula, where the fork server starts workers (spawning them would run
    a caller's unguarded script again, which a caller who asked for one core did not agree to)."""
    from nonosat.processes import start_method

    return len(formula.clauses) >= APART_CLAUSES and start_method() == "forkserver"


def _verified(
    puzzle: Puzzle, grids: list[Grid], whole: bool, why: str | None, deadline: Deadline
) -> tuple[list[Solution], bool, str | None]:
    """The grids verified, as far as the deadline allows (`verified_within`): tens of thousands
    found by the deadline took a second more to check."""
    solutions, all_checked = verified_within(puzzle, grids, deadline)
    if all_checked:
        return list(solutions), whole, why
    return list(solutions), False, why or "time limit reached while checking the grids found"


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


def search_in_workers(
    formula: GridFormula, count: int, solver: str, deadline: Deadline, race: bool, race_after: float
) -> tuple[list[Grid], bool, str | None, str] | None:
    """For the command line, and a library call on a large formula (`apart_from_python`): a
    solver without interrupt() (CaDiCaL) holds Python's GIL through a
    solve, so that not even Ctrl-C is heard in the process that runs it (a conflict budget's
    inprocessing can take seconds). So its search runs in a worker from the fork server, and
    this process only waits; with the race, the rival joins after `race_after` as usual. The
    grids, whether they are all, why the search stopped short, and whose they are (`race.whose`);
    None when the worker could not start or died (the search then runs here)."""

    until = deadline.sooner(len(formula.clauses) * (FREEING_A_CLAUSE + ENDING_A_WORKER))
    left = until.remaining()
    if left is not None and left < STARTING_A_WORKER:  # (no worker could answer by then anyway)
        return [], False, "time limit reached while searching", racing.OURS
    try:
        warm_up()
    except Exception:  # noqa: BLE001 - no fork server (no processes or files to spare)
        return None
    waiting = _Waiting()

    def job(name: str) -> Any:
        return lambda: RivalJob(formula.board, formula.encoding, name, count, ())

    begun = threading.Event()  # the rival's time counts from when the search's own worker started
    own = racing.Rival(rival_work, job(solver), 0.0, waiting.stop, on_gone=waiting.stop, started=begun)
    workers = [own]
    if race:
        workers.append(racing.Rival(rival_work, job(rival(solver)), race_after, waiting.stop, begins=begun))
    interrupts.running(waiting)
    try:
        waiting.wait(until)
    finally:
        interrupts.finished(waiting)
        for worker in workers:
            worker.end_worker()
        outcomes = [worker.stop() for worker in workers]
    for side, (grids, ended) in enumerate(outcomes):
        if ended is not None:
            return grids, ended, None, racing.THEIRS if side else racing.OURS
    if own.gone and deadline.remaining() != 0:
        return None
    merged: dict[Grid, None] = {}  # in order, each once (a list's `in` made this quadratic: 5 s past the deadline)
    for grids, _ in outcomes:
        merged.update(dict.fromkeys(grids))
    shown = list(merged)[:count]
    return shown, False, "time limit reached while searching", racing.whose(shown, outcomes[0][0])


def collect(search: Search, formula: GridFormula, count: int, grids: list[Grid]) -> bool | None:
    """Add grids to `grids` until there are `count`: True when the search shows there are no
    more, False when `count` is reached first, None when the deadline passes first."""
    puzzle = formula.board.puzzle
    while len(grids) < count:
        model = search.next_model()
        if model is None:
            return None
        if model is False:
            return True
        grid = formula.grid(model)  # verified with the rest when the search hands them over (`_verified`)
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
