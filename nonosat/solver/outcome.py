"""What a solve found out: its status, the result with its solutions, and the uniqueness verdict."""

from __future__ import annotations

from dataclasses import dataclass, field

from nonosat.choices import Choice
from nonosat.errors import WrongAnswer
from nonosat.model import Grid, Puzzle, Solution


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
    """The dfs engine: the compiled core's depth-first search with line logic and probing at
    every node, on what line logic left open (black and white, up to 126x126)."""
    CDCL = "cdcl"
    """The cdcl engine: the compiled core's conflict-driven search, with line logic as every
    line's propagator (black and white, up to 126x126)."""
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
    def differences(self) -> list[tuple[int, int]]:
        """The (row, column) cells, from 0, where the first two solutions differ."""
        if len(self.result.solutions) < 2:
            return []
        return self.result.solutions[0].differences(self.result.solutions[1])


def verified(puzzle: Puzzle, grid: Grid) -> Solution:
    """Return the grid as a solution after checking it against every clue."""
    wrong = puzzle.violations(grid)
    if wrong:
        raise WrongAnswer(f"internal error: a solver's grid breaks {', '.join(wrong[:5])}")
    return Solution(grid)


def status_of(found: int, count: int, complete: bool) -> Status:
    if found >= 2:
        return Status.MULTIPLE
    if complete:
        return Status.UNIQUE if found == 1 else Status.NONE
    if found == 1 and count == 1:
        return Status.SOLVED
    return Status.UNKNOWN
