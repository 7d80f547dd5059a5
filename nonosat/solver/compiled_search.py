"""One of the compiled core's searches (`cdcl` or `dfs`) run from Python: on a board line logic
left open, within a deadline, stoppable from another thread (as Ctrl-C stops it), on the puzzle
as it is or upside down, and raced by itself upside down (in colour: by the SAT engine with
CaDiCaL, on grids of up to COLOUR_RIVAL_MOST open cells and colours).

A hard puzzle's time in either search is heavy tailed: the same puzzle turned upside down (its
rows in the other order) can take a tenth of the time, or ten times. So with a second core, the
same search on the puzzle upside down joins it after a moment in a worker process, and the
first to finish answers (bench/README.md, "The race upside down"; in colour, "The colour race's
rival").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from nonosat import interrupts
from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.limits import held_grids
from nonosat.model import Clue, Grid
from nonosat.processes import warmed
from nonosat.solver import race as racing
from nonosat.solver.compiled import CoreGrids, colour_core, core_for, grid_of
from nonosat.solver.compiled_lines import painted, painted_upside_down
from nonosat.solver.engines import Found, Request
from nonosat.solver.outcome import handing_over
from nonosat.solver.propagation import Board

T = TypeVar("T")

FIRST_TRY = 0.05
"""Seconds a search gets alone, before a race, in a process that has not yet started its fork
server: that takes about 25 ms, and most puzzles are decided sooner. A puzzle that is not starts
again with a rival (the searches are deterministic: the same path)."""


class CoreSearch:
    """The core's `cdcl` or `dfs` on a board line logic left open, with a deadline (and for dfs,
    at most `guesses` guesses): black and white up to 126x126 a line a machine word
    (`compiled.core_for`), any other puzzle a cell its set of colours (`compiled.colour_core`).
    `stop` ends it from another thread, as Ctrl-C does."""

    def __init__(
        self,
        board: Board,
        engine: str,
        deadline: Deadline = NO_DEADLINE,
        upside_down: bool = False,
        guesses: int | None = None,
        written: bool = False,
    ) -> None:
        self.board = board
        self.written = written
        self.each = handing_over(board.puzzle, written)
        """Seconds the core's deadline comes sooner for each grid it keeps (`outcome.handing_over`)."""
        self.engine = engine
        self.deadline = deadline
        self.upside_down = upside_down
        self.guesses = guesses
        self.flag = bytearray(1)
        self.ending = deadline
        self.stats: dict[str, int] = {}

    def stop(self) -> None:
        self.flag[0] = 1

    def run(self, count: int, found: list[Grid], within: float | None = None) -> bool | None:
        """Add the puzzle's grids to `found` until it has `count`: True when the search shows
        there are no more, False when `count` is reached first, None when it was stopped or ran
        out of time (the deadline, or `within` seconds) or guesses first; the grids it found are
        added all the same."""
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        self.ending = self.deadline
        if within is not None:
            remaining = within if remaining is None else min(remaining, within)
            self.ending = self.deadline.within(within)  # the grids of a first try are made by its end
        interrupts.running(self)
        try:
            if core_for(self.board.puzzle) is not None:
                complete, grids = self._in_words(count, remaining or 0.0)
            else:
                count = held_grids(count, self.board.width * self.board.height)
                complete, grids = self._painted(count, remaining or 0.0)
        finally:
            interrupts.finished(self)
        known = set(found)
        for grid in grids:
            if grid not in known and len(found) < count:
                found.append(grid)
                known.add(grid)
        if not complete:
            return None
        return len(grids) < count  # (held's count reached: not all, "at least")

    def _in_words(self, count: int, seconds: float) -> tuple[bool, list[Grid]]:
        """Black and white up to 126x126: core/cdcl_*.c or core/dfs.c, a line a machine word."""
        puzzle = self.board.puzzle
        core = core_for(puzzle)
        assert core is not None
        rows, columns, masks = puzzle.rows, puzzle.columns, self.board.masks()
        if self.upside_down:
            rows, columns, masks = turned_upside_down(rows, columns, masks)
        if self.engine == "cdcl":
            budget = self.guesses or 0  # its conflicts
            complete, grids, self.stats = core.cdcl(
                rows, columns, *masks, count, budget, seconds, True, self.flag, core.BELIEFS_AFTER, self.each
            )
        else:
            budget = self.guesses or 0
            complete, grids, made = core.search(
                rows, columns, *masks, count, budget, seconds, True, self.flag, self.each
            )
            self.stats = {"guesses": int(made)}
        turn = -1 if self.upside_down else 1
        found = CoreGrids(grids, len(rows), core.CELL_BYTES)
        return self._converted(bool(complete), found, lambda rows: grid_of(rows[::turn], puzzle.width))

    def _painted(self, count: int, seconds: float) -> tuple[bool, list[Grid]]:
        """Every other puzzle (colour, or over 126 cells a side): core/paint_*.c or
        core/colour_search.c, a cell its set of colours."""
        core = colour_core()
        assert core is not None, "engines.takes lets cdcl and dfs take such a puzzle only where the core is built"
        board = self.board
        if self.upside_down:
            clues = painted_upside_down(board)
        else:
            row_colours, col_colours, row_not, col_not = painted(board)
            clues = (board.puzzle.rows, row_colours, board.puzzle.columns, col_colours, row_not, col_not)
        if self.engine == "cdcl":
            settled = True  # the board line_solve left: a fixed point of line logic
            budget = self.guesses or 0  # its conflicts
            complete, found, stats = core.cdcl_colours(
                *clues, count, budget, seconds, self.flag, False, settled, self.each
            )
            self.stats = {key: int(value) for key, value in stats.items()}
        else:
            complete, found, made = core.search_colours(*clues, count, self.guesses or 0, seconds, self.flag, self.each)
            self.stats = {"guesses": int(made)}
        width, turn = board.width, -1 if self.upside_down else 1
        rows = range(board.height)[::turn]
        return self._converted(
            bool(complete), found, lambda data: tuple(tuple(data[r * width : (r + 1) * width]) for r in rows)
        )

    def _converted(self, complete: bool, found: Iterable[T], grid: Callable[[T], Grid]) -> tuple[bool, list[Grid]]:
        """The grids the core found, as grids, while the deadline holds (a core asked for a million
        solutions finds them faster than Python makes them grids): not complete when it passed."""
        grids: list[Grid] = []
        ending = self.ending.handing_over()
        puzzle = self.board.puzzle
        later = handing_over(puzzle, self.written, made=False)  # what each grid made still needs
        for number, data in enumerate(found):
            if number % 16 == 15 and (left := ending.remaining()) is not None and left < number * later:
                return False, grids  # (a review: 56,927 made to the deadline, 655 then checked)
            grids.append(grid(data))
        return complete, grids


Masks = tuple[list[int], list[int], list[int], list[int]]


def clues_upside_down(rows: tuple[Clue, ...], columns: tuple[Clue, ...]) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """A puzzle's clues with its rows in the other order: the rows' clues reversed in order,
    each column's clue reversed."""
    return rows[::-1], tuple(clue[::-1] for clue in columns)


def turned_upside_down(
    rows: tuple[Clue, ...], columns: tuple[Clue, ...], masks: Masks
) -> tuple[tuple[Clue, ...], tuple[Clue, ...], Masks]:
    """A puzzle's clues and board (`Board.masks`) with its rows in the other order: the clues as
    `clues_upside_down` turns them, each column's cells reversed too."""
    height = len(rows)

    def reversed_cells(mask: int) -> int:
        return int(format(mask, f"0{height}b")[::-1], 2) if height else 0

    row_filled, row_empty, col_filled, col_empty = masks
    turned = (
        row_filled[::-1],
        row_empty[::-1],
        [reversed_cells(mask) for mask in col_filled],
        [reversed_cells(mask) for mask in col_empty],
    )
    return (*clues_upside_down(rows, columns), turned)


@dataclass(frozen=True)
class UpsideDownJob:
    """What the rival worker needs: the board line logic left, the search, how many grids."""

    board: Board
    engine: str
    count: int
    guesses: int | None = None


def upside_down_work(job: UpsideDownJob, found: list[Grid]) -> bool:
    """In the rival worker: the search on the puzzle upside down, from the start (the grids the
    search here found are found again); True when it ended on its own, not by the count."""
    search = CoreSearch(job.board, job.engine, upside_down=True, guesses=job.guesses)
    return bool(search.run(job.count, found))


COLOUR_RIVAL = "cadical195"
"""The PySAT solver of the SAT engine that races the compiled searches in colour (in a
worker, where CaDiCaL holding Python's lock stops nothing): on 50 random 40x40 grids in two
colours that the search takes over 0.25 s, the race worked out from each side's time (starting
after 1 s) comes to 121 s in all and 3 over 6 s with it, 154 s and 6 with MiniSat, one not
within 30 s with Glucose, and three with the search upside down (bench/README.md, "The colour
race's rival"). The depth-first search in colour too: on 40 more such grids (seeds 400-439) it
leaves 35 undecided within 30 s raced by itself upside down, none raced by CaDiCaL (slowest
7.5 s)."""


COLOUR_RIVAL_MOST = 7_500
"""The most open cells times colours for which the SAT engine races the search in colour: its
formula's memory grows faster than the cells (noise in two colours, the command's processes
together: 45x45 149 MB, 60x60 209 MB, 100x100 708 MB where the search upside down takes 144
MB), and its gain was measured on 40x40 and 45x45 grids (3,200 to 4,050)."""


SAT_AFTER = 3.0
"""Seconds after which, in black and white, the SAT engine (the request's solver, MiniSat by
default, on its CNF) takes the place of the search upside down in a race that neither side has
won: a rival of another kind for the puzzles both ways of the search are slow on. The minizinc
set's `dom_14` takes the search 7-26 s from run to run, MiniSat 3 s; on the tournament sets'
far tail the relay from 3 s is a draw (bench/README.md, "MiniSat for the far tail" and "A rival
of another kind from 3 s")."""


def _rival(engine: str, request: Request, stop: Callable[[], None]) -> racing.Rival[Any] | None:
    """The rival that joins a search still going after `request.race_after`: the same search on
    the puzzle upside down, in black and white relayed from SAT_AFTER by the SAT engine (not
    where the search's work is bounded, `request.guesses`: its answer must not depend on the
    machine's speed); in colour the SAT engine with COLOUR_RIVAL up to COLOUR_RIVAL_MOST, and
    beyond (where that formula's memory grows too fast) the search upside down alone."""
    board, count = request.board, request.count
    puzzle = board.puzzle
    if puzzle.is_colour and board.unknown_count() * puzzle.colour_count <= COLOUR_RIVAL_MOST:
        from nonosat.solver.enumeration import RivalJob, rival_work

        sat = RivalJob(board, request.encoding, COLOUR_RIVAL, count, ())
        return racing.rival_for(rival_work, lambda: sat, request.race_after, stop)
    job = UpsideDownJob(board, engine, count, request.guesses)
    relay = None
    if not puzzle.is_colour and request.guesses is None:
        solver, encoding = request.solver, request.encoding

        def relayed(grids: list[Grid]) -> Any:
            from nonosat.solver.enumeration import RivalJob  # only now: PySAT's import takes 25 ms

            return RivalJob(board, encoding, solver, count, tuple(grids))

        # at least as long upside down as the search had alone (a later race: `race_after` 5 s
        # started the side upside down only to end it at once; the diff's review)
        relay = racing.Relay(sat_relay_work, relayed, max(SAT_AFTER, 2 * request.race_after))
    return racing.rival_for(upside_down_work, lambda: job, request.race_after, stop, relay)


def sat_relay_work(job: Any, found: list[Grid]) -> bool:
    """In the relay's worker: the SAT engine (`enumeration.rival_work`), imported there, not in
    every process that races (PySAT's import, 25 ms, made each batch worker's first hard puzzle
    that much slower, and reordered the README's batch example)."""
    from nonosat.solver.enumeration import rival_work

    return rival_work(job, found)


def raced(engine: str, request: Request) -> Found:
    """Up to `request.count` grids by one of the core's searches (unverified), and whether they
    are all. With `request.race`, a search still going after `race_after` seconds is joined by
    its rival in a worker process (`_rival`, `racing.Rival`); if it finishes first, its answer
    stands."""
    board, count, deadline = request.board, request.count, request.deadline
    search = CoreSearch(board, engine, deadline, guesses=request.guesses, written=request.written)
    grids: list[Grid] = []
    contender = None
    if request.race and not warmed():  # (not can_race() first: it imports multiprocessing, 10 ms)
        ended = search.run(count, grids, within=FIRST_TRY)  # most puzzles end here, and no process starts
        if ended is not None:
            return Found(grids, ended, None, search.stats)
        search = CoreSearch(board, engine, deadline, guesses=request.guesses, written=request.written)  # again, raced
    if request.race and racing.can_race():
        contender = _rival(engine, request, search.stop)
    try:
        ended = search.run(count, grids)
    finally:
        theirs, their_ending = contender.stop() if contender is not None else ([], None)
    grids, whole, cut, side = racing.race_outcome(grids, ended, theirs, their_ending, count)
    rival_answered = side != racing.OURS
    if cut is not None and request.guesses and not deadline.passed():
        made = "depth-first search made its" if engine == "dfs" else "conflict-driven search met its"
        cut = f"the {made} {request.guesses} {'guesses' if engine == 'dfs' else 'conflicts'}"
    if rival_answered and contender is not None and contender.work is not upside_down_work:
        solver = COLOUR_RIVAL if board.puzzle.is_colour else request.solver  # (the relay's, in black and white)
        return Found(grids, whole, cut, search.stats, solver=solver, encoding=request.encoding, rival=True)
    return Found(grids, whole, cut, search.stats, rival=rival_answered)
