"""A repair's uniqueness checks: the first two solutions of a picture's puzzle, within bounds of
work so that the same picture, options and seed give the same puzzle on any machine.
"""

from __future__ import annotations

from nonosat.deadline import Deadline
from nonosat.errors import CutShort, TimeUp
from nonosat.model import Puzzle
from nonosat.solver import Result, Status
from nonosat.solver.compiled import colour_core, fits
from nonosat.solver.drive import solve_within

__all__ = ["checked", "cut_short", "out_of_time"]

FIRST_GUESSES = 200
FIRST_SECONDS = 0.2
"""The repair steers by the cells where the first two solutions differ, and it was tuned on the
pairs the compiled core's depth-first search finds, so it asks that engine first (for up to 200
guesses and 0.2 s), then the conflict-driven one. With the conflict-driven search's pairs the
15-wide smiley took 7 changed cells instead of 4."""


STEP_CONFLICTS = 20_000
"""The most conflicts one uniqueness check of a picture on the way may take, in a `unique`
repair (about a second of the conflict-driven search): a review found one hard picture on the
way taking the whole time limit (and, without one, running on for good) where `--require line`,
stricter, finished in 1.5 s. Undecided within them, the picture is taken as not yet unique, and
the repair goes on as line logic steers it (toward a puzzle line logic solves, which is then
proved at once). A bound of work, not time: the same picture, options and seed give the same
puzzle on any machine."""

STEP_SECONDS = 1.0
"""The same bound, in time, where the compiled core was not built (its searches count the work)."""


def checked(puzzle: Puzzle, deadline: Deadline, stage: str, bounded: bool = False) -> Result:
    """The first two solutions (a verdict); `bounded`, an unknown result when the check takes
    more than STEP_CONFLICTS (but not past the deadline, which raises TimeUp naming `stage`)."""
    result = None
    if fits(puzzle):
        first = solve_within(
            puzzle, deadline.within(FIRST_SECONDS), count=2, jobs=1, engine="dfs", guesses=FIRST_GUESSES
        )
        result = first if first.status is not Status.UNKNOWN else None
    if result is None and not bounded:
        result = solve_within(puzzle, deadline, count=2, jobs=1)
    elif result is None and colour_core() is not None:
        result = solve_within(puzzle, deadline, count=2, jobs=1, engine="cdcl", guesses=STEP_CONFLICTS)
    elif result is None:
        result = solve_within(puzzle, deadline.within(STEP_SECONDS), count=2, jobs=1)
    if result.status is Status.UNKNOWN and (not bounded or deadline.passed() or not out_of_time(result)):
        raise cut_short(result, stage)
    return result


def out_of_time(result: Result) -> bool:
    """Whether a check gave up for its bound (time, or its conflicts), not for a formula too large."""
    why = result.cut_short
    return why is None or why.startswith("time limit") or why.startswith("the conflict-driven search met")


def cut_short(result: Result, stage: str) -> CutShort:
    """Why a check in the repair gave no verdict: the time limit, or a formula too large."""
    if out_of_time(result):
        return TimeUp(stage)
    return CutShort(f"{result.cut_short}, while {stage}")
