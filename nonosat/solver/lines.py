"""The compiled core's conflict-driven search (`nonosat/_linecore_cdcl.c`), and its race with SAT.

It learns from conflicts as a SAT solver does, but needs no CNF: the cells are its only
variables, and each line's clue is a propagator, line logic, that explains a cell it fixed only
when a conflict's analysis asks (lazy clause generation). On the hard tournament puzzles it is
faster than MiniSat on the CNF on most, and slower on some: so with a second core, MiniSat
joins it after a moment in a worker process, and the first to finish answers (bench/README.md,
"The conflict-driven search").
"""

from __future__ import annotations

from nonosat import interrupts
from nonosat.compiled import board_masks, core_for, grid_of
from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.linesolve import Board
from nonosat.model import Grid
from nonosat.solver import race as racing
from nonosat.solver.outcome import Method

FIRST_TRY = 0.05
"""Seconds the conflict-driven search gets alone, before a race, in a process that has not yet
started its fork server: that takes about 25 ms, and most puzzles are decided sooner. A puzzle
that is not starts again with a rival (the search is deterministic: the same path)."""


class LineSearch:
    """The conflict-driven search on a board line logic left open (black and white, up to 126x126:
    `compiled.fits`), with a deadline. `stop` ends it from another thread, as Ctrl-C does."""

    def __init__(self, board: Board, deadline: Deadline = NO_DEADLINE) -> None:
        self.board = board
        self.deadline = deadline
        self.flag = bytearray(1)
        self.stats: dict[str, int] = {}

    def stop(self) -> None:
        self.flag[0] = 1

    def run(self, count: int, found: list[Grid], within: float | None = None) -> bool | None:
        """Add the puzzle's grids to `found` until it has `count`: True when the search shows
        there are no more, False when `count` is reached first, None when it was stopped or ran
        out of time (the deadline, or `within` seconds) first; the grids it found are added all
        the same."""
        puzzle = self.board.puzzle
        core = core_for(puzzle)
        assert core is not None
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        if within is not None:
            remaining = within if remaining is None else min(remaining, within)
        interrupts.running(self)
        try:
            complete, grids, self.stats = core.cdcl(
                puzzle.rows, puzzle.columns, *board_masks(self.board), count, 0, remaining or 0.0, True, self.flag
            )
        finally:
            interrupts.finished(self)
        for rows in grids:
            grid = grid_of(rows, puzzle.width)
            if grid not in found and len(found) < count:
                found.append(grid)
        if not complete:
            return None
        return len(grids) < count


def learn_solutions(
    board: Board,
    count: int,
    solver: str,
    encoding: str,
    deadline: Deadline = NO_DEADLINE,
    *,
    race: bool = False,
    race_after: float = racing.RACE_AFTER,
) -> tuple[list[Grid], bool, str | None, Method, dict[str, int]]:
    """Up to `count` grids by the conflict-driven search (unverified), whether they are all,
    why it stopped short if it did, which method answered, and the search's counts.

    With `race`, a search still going after `race_after` seconds is joined by the SAT solver
    `solver` on the `encoding`'s CNF in a worker process (see `racing.Rival`); if it finishes
    first, its answer stands, and the method is SAT.
    """
    search = LineSearch(board, deadline)
    grids: list[Grid] = []
    contender = None
    if race and not racing.warmed():  # (not can_race() first: it imports multiprocessing, 10 ms)
        ended = search.run(count, grids, within=FIRST_TRY)  # most puzzles end here, and no process starts
        if ended is not None:
            return grids, ended, None, Method.CDCL, search.stats
        search = LineSearch(board, deadline)  # the same search again, this time with a rival
    if race and racing.can_race():
        from nonosat.solver.enumerate import RivalJob, rival_work

        def job() -> RivalJob:
            return RivalJob(board, encoding, solver, count, tuple(grids))

        contender = racing.rival_for(rival_work, job, race_after, search.stop)
    try:
        ended = search.run(count, grids)
    finally:
        theirs, their_ending = contender.stop() if contender is not None else ([], None)
    grids, whole, theirs_stand, cut = racing.race_outcome(grids, ended, theirs, their_ending, count)
    return grids, whole, cut, Method.SAT if theirs_stand else Method.CDCL, search.stats
