"""What a solve found out: its status, the result with its solutions, and the uniqueness verdict."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from nonosat.choices import Choice
from nonosat.deadline import Deadline
from nonosat.errors import WrongAnswer
from nonosat.model import Grid, Puzzle, Solution

WIDE_SIDE = 126
"""The side up to which Python checks a black-and-white grid (as fast as the compiled core there)."""


class Status(Choice):
    """What a solve found out."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    SOLVED = "solved"
    """A solution was found and uniqueness was not asked for."""
    UNKNOWN = "unknown"
    """The time limit ran out before the question was answered."""


class Method(Choice):
    """How a result was decided: before any engine (`checks`, `line`), or by which engine."""

    LINE = "line"
    """Line logic alone."""
    SAT = "sat"
    """The sat engine: the CNF of what line logic left open, and a PySAT solver."""
    DFS = "dfs"
    """The dfs engine: the compiled core's depth-first search with line logic at every node, on
    what line logic left open (any puzzle; probing too in black and white up to 126x126)."""
    CDCL = "cdcl"
    """The cdcl engine: the compiled core's conflict-driven search, with line logic as every
    line's propagator (any puzzle: a line a machine word in black and white up to 126x126, a
    cell its set of colours otherwise)."""
    CHECKS = "checks"
    """Cheap checks before any search: a clue longer than its line, row and column totals that
    differ (`Result.problems` says which; the status is `none`)."""


@dataclass(frozen=True)
class Result:
    """The outcome of solving a puzzle."""

    puzzle: Puzzle
    status: Status
    solutions: tuple[Solution, ...]
    method: Method
    seconds: float
    complete: bool
    """True when the search ended on its own, so `len(solutions)` is the exact count."""
    stats: dict[str, int] = field(default_factory=dict)
    cut_short: str | None = None
    """Why the work stopped before an answer, when it did: "time limit reached while building
    the CNF", "the CNF grew past 3000000 clauses"... (status `unknown`)."""
    problems: tuple[str, ...] = ()
    """The cheap checks that refuted the puzzle before any search (method `checks`, status
    `none`): "row 3: the clue 4 2 needs 7 cells but the line has 5"..."""
    solver: str | None = None
    """The PySAT solver whose grids these are: the SAT engine's (or its rival's), or the SAT
    engine's as the compiled search's rival in colour; None where no PySAT solver answered."""
    encoding: str | None = None
    """That solver's encoding of the clues ("blocks" or "automaton")."""
    rival: bool = False
    """Whether the race's rival's grids are among these (with `--jobs 2`: see
    `nonosat.solver.race`): it answered, or neither side finished and both sides' grids are
    shown (then `solver` names both, "minisat22+cadical195"). `stats` stay the search's own."""

    @property
    def solution(self) -> Solution | None:
        """The first solution found, if any."""
        return self.solutions[0] if self.solutions else None


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
    def solutions(self) -> tuple[Solution, ...]:
        """The solutions found (`result.solutions`): two, side by side, when there are several."""
        return self.result.solutions

    @property
    def differences(self) -> list[tuple[int, int]]:
        """The (row, column) cells, from 0, where the first two solutions differ (the command
        line and the JSON count from 1)."""
        if len(self.result.solutions) < 2:
            return []
        return self.result.solutions[0].differences(self.result.solutions[1])


def verified(puzzle: Puzzle, grid: Grid) -> Solution:
    """Return the grid as a solution after checking it against every clue: in the compiled core
    for colour grids and grids over 126 cells a side (core/clue_check.c, 20 times faster than
    Python on a 300x300 grid and sharing nothing with the searches), else `Puzzle.violations`,
    which also names the lines a grid breaks."""
    if _meets_clues_compiled(puzzle, grid):
        return Solution(grid)
    wrong = puzzle.violations(grid)
    if wrong:
        raise WrongAnswer(f"internal error: a solver's grid breaks {', '.join(wrong[:5])}")
    return Solution(grid)


LATER_EACH = 1.2e-4
"""Seconds each grid a compiled search found takes after it is made a grid (a 25x25 grid; in
proportion for larger ones): told from the grids it found, the race's outcome, and checked
against the clues. A core asked for 100,000 of LalaFrogKK's grids under `--timeout 6` found
56,927 in 1.8 s, Python made them all grids by the search's deadline, and then had time to
check 655: the command ended at 6.9 s. Making grids stops where those after would not be done
(`handing_over`, which adds writing each out for JSON's callers)."""

MAKING_EACH = 1e-4
"""Seconds to make one 25x25 grid of the compiled core's packed rows or bytes (0.066 ms
measured; in proportion for larger ones)."""


def handing_over(puzzle: Puzzle, written: bool, made: bool = True) -> float:
    """Seconds one grid a compiled search keeps takes Python to hand over: made a grid (unless
    `made` is False: already made), told from the rest and checked, and with `written` written
    out as JSON. The core's deadline comes that much sooner for each it keeps (`each`), so that
    a search that finds grids far faster than that stops in time to hand them over:
    LalaFrogKK's `--count 100000 --timeout 6` kept 56,927, made them grids to the deadline,
    checked 655 and ended at 6.9 s."""
    cells = puzzle.width * puzzle.height
    each = (MAKING_EACH * made + LATER_EACH) * max(1.0, cells / 625)
    return each + WRITING_A_CELL * cells if written else each


HAND_OVER_SHARE = 0.2
HAND_OVER_MOST = 0.5
HAND_OVER_EACH = 1e-4
"""A search for more grids than a verdict needs stops this share of the time left before the
deadline, at most this many seconds, and at most this many for each grid of 25x25 cells asked
for, in proportion for larger ones (`Deadline.leaving`): a core finds grids far faster than
Python makes them grids, checks them and writes them out (about 10,000 25x25 grids a second in
all), and a command's deadline is for all of that; a count of 3 keeps back a third of a
millisecond, a million half a second."""


def verified_within(
    puzzle: Puzzle, grids: Sequence[Grid], deadline: Deadline, written_by: Deadline | None = None
) -> tuple[tuple[Solution, ...], bool]:
    """Every grid verified (`verified`), in order, while the deadline holds, and whether all were:
    a search asked for a million solutions can find hundreds of thousands faster than Python
    checks them. With `written_by`, no more grids than can be written out by then (WRITING_A_CELL:
    a review found 209 grids of 200x200 found by 1.6 s of `--timeout 2.5` written out by 2.8 s)."""
    solutions: list[Solution] = []
    ending = deadline.handing_over()
    writing = WRITING_A_CELL * puzzle.width * puzzle.height
    for number, grid in enumerate(grids):
        if number % 16 == 15 and ending.passed():
            return tuple(solutions), False
        left = written_by.remaining() if written_by is not None and number >= 2 else None
        if left is not None and left < writing * (number + 1):
            return tuple(solutions), False
        solutions.append(verified(puzzle, grid))
    return tuple(solutions), True


WRITING_A_CELL = 0.3e-6
"""Seconds to write out a cell of a grid found as JSON (209 grids of 200x200 took 1.2 s, 0.14 us
a cell; twice that for a loaded machine; the command line keeps as much for JSON): a search
whose grids are all written (`solve_within(written=True)`) keeps no more than can be written by
its deadline (two always: a verdict needs them)."""


def _meets_clues_compiled(puzzle: Puzzle, grid: Grid) -> bool:
    """True when the compiled check finds every line's runs as its clue says; False when it finds
    one that is not, or is not built, or the puzzle is small and black and white (Python decides)."""
    from nonosat.solver.compiled import colour_core

    core = colour_core()
    if core is None or not (puzzle.is_colour or max(puzzle.width, puzzle.height) > WIDE_SIDE):
        return False
    row_colours = [puzzle.colours_of(True, r) for r in range(puzzle.height)]
    column_colours = [puzzle.colours_of(False, c) for c in range(puzzle.width)]
    try:
        broken: list[int] = core.broken_lines(puzzle.rows, row_colours, puzzle.columns, column_colours, grid)
    except (ValueError, TypeError, OverflowError):
        return False  # not a grid of the puzzle's shape: violations says how
    return not broken


def status_of(found: int, count: int, complete: bool) -> Status:
    if found >= 2:
        return Status.MULTIPLE
    if complete:
        return Status.UNIQUE if found == 1 else Status.NONE
    if found == 1 and count == 1:
        return Status.SOLVED
    return Status.UNKNOWN
