"""How hard a puzzle is for a person: the technique it needs, and a 1-5 score.

Levels, from easiest:
- `line`: line logic alone solves it;
- `probe`: it needs one-cell lookahead (try a cell both ways with line logic, keep the value that
  does not lead to a contradiction), like pbnsolve's depth-2 probing;
- `search`: it is unique, but only search finishes it;
- `ambiguous`: it has several solutions (`none` when it has none).

The score: `line` puzzles get 1, 2 or 3 by how many line passes they need per line, cut at the
thirds of the line-solvable corpus puzzles (webpbn, nonogram-db, jwilk; see
bench/calibrate_rating.py, which recomputes the cuts); `probe` is 4; `search` and `ambiguous`
are 5. A puzzle with no solution, or not rated in time, has no score (0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nonosat.choices import Choice
from nonosat.deadline import Deadline
from nonosat.errors import UsageError
from nonosat.explain.trace import Trace
from nonosat.model import Puzzle
from nonosat.solver import Result, Status, solve
from nonosat.solver.propagation import solved_board


class Level(Choice):
    """How a person gets to the solution, from the easiest."""

    LINE = "line"
    """Line logic alone."""
    PROBE = "probe"
    """Line logic, and probing where it stalls (try a cell both ways)."""
    SEARCH = "search"
    """Unique, but logic and probing stall: guessing further is needed."""
    AMBIGUOUS = "ambiguous"
    """Several solutions."""
    NONE = "none"
    """No solution."""
    UNKNOWN = "unknown"
    """The time limit ran out first."""


LEVELS = tuple(Level)
"""`unknown`: the time limit ran out before the level was known."""

PASS_CUTS = (3.79, 5.21)
"""Line passes per line that separate scores 1|2 and 2|3 among line-solvable puzzles: the
first and second thirds of the 184 line-solvable corpus puzzles up to 100x100
(bench/calibrate_rating.py)."""


@dataclass(frozen=True)
class Rating:
    level: Level
    score: int | None
    """1 to 5; None with no solution, or not rated in time (`unknown`), as the command line's
    `"difficulty": null` (a review: `rate()` said 0, which a site would list as the easiest)."""
    passes: int
    """Line passes of the logical solve (line logic, and probing's resumed line logic)."""
    probes: int
    """Cells tried both ways while probing (a unique puzzle's only)."""
    trace: Trace = field(repr=False)
    """The logical solve's steps and board; without steps when the solver's line logic had
    already finished the grid (the same passes: `rate` does not run them again). Not in the
    rating's repr (`print(rate(puzzle))` printed every step and the board: 7 KB for Dancer)."""
    result: Result | None = field(repr=False)
    """The solver's verdict, when logic alone did not finish the grid."""
    cut_short: str | None = None
    """Why the rating stopped before it knew the level (level `unknown`)."""
    bounded: bool = False
    """Whether it was the bound on probing (`probing_seconds`) that stopped it, not the time limit."""

    @property
    def passes_per_line(self) -> float:
        board = self.trace.board
        return self.passes / (board.width + board.height)


def score_for(level: str, passes_per_line: float) -> int | None:
    if level == "line":
        low, high = PASS_CUTS
        return 1 if passes_per_line <= low else 2 if passes_per_line <= high else 3
    return 4 if level == "probe" else None if level in ("unknown", "none") else 5


def may_probe(result: Result) -> bool:
    """Whether probing can tell the level: it can finish only a grid with one solution (with
    several, or none, the verdict is the level, and probing a big open grid takes minutes; a
    verdict cut short by the deadline leaves no time to probe)."""
    return result.status is Status.UNIQUE


def _traced(
    puzzle: Puzzle, result: Result | None, deadline: Deadline, bound: Deadline, engine: str
) -> tuple[Trace, Result | None]:
    """Line logic's steps, and probing's for a unique puzzle (solving first, within `deadline`,
    when no `result` was given and line logic stalls; logic and probing within `bound`). The
    steps' machinery is imported only here: a check whose solver's line logic finished the grid
    needs none of it."""
    from nonosat.explain.steps import trace

    if result is not None:
        return trace(puzzle, probing=may_probe(result), deadline=bound), result
    logic = trace(puzzle, probing=False, deadline=bound)
    if logic.contradiction is None and logic.cut_short is None and not logic.complete:
        result = solve(puzzle, count=2, timeout=deadline, engine=engine)
        if may_probe(result):
            logic = trace(puzzle, deadline=bound)
    return logic, result


def rate(
    puzzle: Puzzle,
    *,
    timeout: float | Deadline | None = None,
    result: Result | None = None,
    probing_seconds: float | None = None,
    engine: str = "auto",
) -> Rating:
    """Rate a puzzle; raises `ImpossiblePuzzle` for plainly impossible ones, like `solve`.

    Line logic first; where it stalls, the solver's verdict, and for a unique puzzle probing,
    which says `probe` if it finishes the grid and `search` if not. A puzzle with several
    solutions (or none) is not probed: `passes` and `probes` are then line logic's alone.

    `result`, a `solve(puzzle, count=2)` already made, saves solving again; without one, the
    `engine` solves (see `nonosat.solver.solve`). `timeout` holds for
    the whole rating (probing can take long on big open grids): when it runs out the level is
    `unknown`, the score 0, and `cut_short` says where. `probing_seconds` bounds the logic and
    probing after the verdict, within `timeout` (`check` bounds them so, see
    `nonosat.reports.rating_bound`): when the bound stops them, the level is `unknown` too, and
    `bounded` is set.
    """
    from nonosat.arguments import check_puzzle
    from nonosat.solver.engines import choose

    check_puzzle(puzzle)
    if result is not None and (not isinstance(result, Result) or result.puzzle != puzzle):
        raise UsageError("result must be solve's Result for this same puzzle, not another's")  # it was rated
    if probing_seconds is not None and (
        isinstance(probing_seconds, bool) or not isinstance(probing_seconds, int | float) or not probing_seconds >= 0
    ):
        raise UsageError(f"probing_seconds must be a number of seconds, at least 0, not {probing_seconds!r}")
    choose(puzzle, engine, None, None)  # an engine that cannot take the puzzle is refused at once
    deadline = Deadline.of(timeout)
    bound = deadline if probing_seconds is None else deadline.within(probing_seconds)
    puzzle.ensure_possible()
    passes = None if result is None else result.stats.get("line_passes")
    if (
        result is not None
        and result.method == "line"
        and result.status is Status.UNIQUE
        and passes is not None
        and not puzzle.is_colour
    ):
        # Line logic finished the grid in the solver: the same passes a trace would make again
        # (in colour, a trace first rules out each line's missing colours, a step of its own).
        logic = Trace(solved_board(puzzle, result.solutions[0].grid), passes=passes)
    else:
        logic, result = _traced(puzzle, result, deadline, bound, engine)
    cut_short = logic.cut_short
    bounded = cut_short is not None and bound is not deadline and not deadline.passed()
    if bounded:  # "time limit reached while probing" (or line logic): the bound's, not the command's
        assert cut_short is not None
        cut_short = cut_short.replace("time limit", f"the rating's bound of {probing_seconds:.3g} s", 1)
    if logic.contradiction is not None:
        level = Level.NONE
    elif cut_short is not None:
        level = Level.UNKNOWN
    elif logic.complete:
        level = Level(logic.level)
    else:
        assert result is not None  # logic stalled: the solver was asked
        level = {
            Status.UNIQUE: Level.SEARCH,
            Status.MULTIPLE: Level.AMBIGUOUS,
            Status.NONE: Level.NONE,
        }.get(result.status, Level.UNKNOWN)
        if level is Level.UNKNOWN:
            cut_short = result.cut_short
    passes_per_line = logic.passes / (puzzle.width + puzzle.height)
    score = score_for(level, passes_per_line)
    return Rating(level, score, logic.passes, logic.probes, logic, result, cut_short, bounded)
