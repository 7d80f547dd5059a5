"""Make a picture's puzzle uniquely solvable, or solvable by people, by changing few cells.

The search (`nonosat.generate.search`) changes one cell at a time: the change after which line
logic leaves the fewest cells open, for what it costs the picture (grey level or colour, and
shape: see `nonosat.generate.drawing`), and it undoes changes that stopped being needed. After
every step the requirement is tried: line logic alone solves it (`line`), or line logic with
one-cell lookahead does (`probe`), or SAT proves one solution (`unique`). Once it is met, each
change, dearest first, is undone if the requirement holds without it (again, until none is).
It stops with a proof, or fails when the budget (cells changed, or picture distance) is spent or
no change helps: success is never claimed without a proof, found again from the final clues
alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from nonosat.choices import Choice
from nonosat.deadline import Deadline
from nonosat.errors import CutShort, GenerateFailed, TimeUp
from nonosat.explain.steps import trace
from nonosat.generate.checks import checked
from nonosat.generate.drawing import Cost, Drawing, flip_cost, no_cost
from nonosat.generate.progress import SOUGHT, kept, told
from nonosat.generate.search import Search, solve_open
from nonosat.model import Cell, Grid, Puzzle
from nonosat.palette import BLACK_AND_WHITE, Palette
from nonosat.solver import Result, Status

__all__ = ["Cost", "Repaired", "Requirement", "flip_cost", "no_cost", "repair"]


class Requirement(Choice):
    """What a generated puzzle must be, from the strictest."""

    LINE = "line"
    """Solvable by line logic alone, as puzzles for people are (and so unique)."""
    PROBE = "probe"
    """Solvable by line logic and one-cell lookahead (try a cell both ways), the level `rate`
    calls probe."""
    UNIQUE = "unique"
    """One solution, proved by a search (the compiled core's or the SAT engine's)."""


REQUIREMENTS = tuple(Requirement)

PROBE_FROM = 0.25
"""Probing is tried once line logic leaves at most this share of the cells open (before, it
would take long and rarely finish)..."""
PROBE_ALWAYS = 64
"""...or at most this many cells, whatever their share: probing so few takes milliseconds, and a
small drawing that probing solves as it is needs no change (a 6x6 drawing with 20 open cells
had one made before)."""


@dataclass(frozen=True)
class Repaired:
    """A picture that meets the requirement, and the proof."""

    grid: Grid
    changed: tuple[Cell, ...]
    """The (row, column) cells, from 0, changed from the starting picture."""
    result: Result
    """The solver's verdict on the final puzzle: unique, `method` "line" if line logic solved it."""
    distance: float = 0.0
    """How far the picture moved: the cost of every changed cell's colour, where a change of
    full contrast counts 1 (see `nonosat.generate.drawing`)."""


CLOSER_TRIES = 4
"""Once a puzzle is found with n changed cells, the repair is run again with at most n - 1 (then
one fewer than the fewest found or tried), up to this many times, keeping the puzzle closest to
the picture; then up to this many times more holding the distance below NEARER times the
closest's, until one fails. A limit changes the search's path (at its limit it gives cells back
instead of changing more), so a tighter one often ends closer (an author's review: the smiley at
30 wide, 26 cells at distance 21.09 by default, 16 at 13.18 with at most 24 changes; with the
distance held after the tries with fewer changes, 11 at 5.23). The tries with fewer changes come
first, each kind with its own budget (CLOSER_STEPS), so that the second can only come closer: in
the other order a failing try spent the budget that fewer changes needed, further from the
picture on 8 of 60 fresh pictures. For `unique`, the tries look for a puzzle line logic solves
(unique too, and found in a fraction of the time)."""

Limits = tuple[Grid, Cost, Palette, int, float | None, float | None, int, Deadline]  # as `_repair` takes them

UNIQUE_STEPS = 4
"""A `unique` repair looks for a unique puzzle within this many steps (uniqueness checks) for each
cell line logic's repair changed, and 20 more (`_looser_or_line`): a review found its repair of a
45-wide logo in circles for 25 s through 828 steps, where line logic's found a puzzle in 0.5 s."""
CLOSER_STEPS = 3
"""The closing tries' steps, in all, at most this many times the first repair's (and 20 more),
for each kind: a budget of steps, not seconds, so that the puzzle is the same on any machine."""
NEARER: float | None = 0.999
"""The distance the second kind of closing tries hold, a share of the closest's (None: none of
them; `python -m bench.closer_pictures` measures one against the other)."""


def repair(
    grid: Grid,
    cost: Cost,
    require: Requirement = Requirement.UNIQUE,
    *,
    palette: Palette = BLACK_AND_WHITE,
    max_changes: int,
    max_distance: float | None = None,
    unit: float | None = None,
    seed: int = 0,
    timeout: float | Deadline | None = None,
    tries: int | None = None,
    line_first: bool = True,
) -> Repaired:
    """Change few cells of `grid` until its puzzle meets `require`.

    `cost(r, c, k)` is the cost of giving a cell colour k (see `Cost`); a cell of `grid` holds
    an index into `palette`. Raises `GenerateFailed` when meeting it would change more than
    `max_changes` cells (or move the picture further than `max_distance`, in changes of full
    contrast: `unit` is what `cost` says of one; by default, the dearest change there is), and
    `TimeUp` when the whole repair runs past `timeout` seconds. Then `tries` closing repairs with
    tighter limits (default CLOSER_TRIES), the closest puzzle kept, in the time left after the
    first, less as long as it took (the caller's, to write and draw what it found: `_later`).
    `unique` and `probe` look for a puzzle line logic solves first (`_looser_or_line`), unless
    `line_first` is False. Deterministic for a given seed, but where a time limit cuts it short.
    """
    if require not in REQUIREMENTS:
        raise ValueError(f"require is one of {', '.join(REQUIREMENTS)}, not {require!r}")
    require = Requirement(require)
    deadline = Deadline.of(timeout)
    limits = (grid, cost, palette, max_changes, max_distance, unit, seed, deadline)
    spent, started = [0], time.monotonic()
    closing = CLOSER_TRIES if tries is None else tries
    if require is not Requirement.LINE and line_first:
        return _looser_or_line(require, limits, started, closing)
    try:
        found = _repair(require, *limits, counted=spent)
    except GenerateFailed as failed:
        if require is not Requirement.UNIQUE:
            raise
        spent = [0]  # a puzzle line logic solves is unique too
        try:
            found = _repair(Requirement.LINE, *limits, counted=spent)
        except GenerateFailed:
            raise failed from None
        require = Requirement.LINE
    return _closing(found, require, limits, closing, spent[0], started)


def _closing(found: Repaired, require: Requirement, limits: Limits, tries: int, spent: int, started: float) -> Repaired:
    """`found`, or a closer puzzle of the closing tries (`_closer`) in the time after it."""
    later = _later(limits[7], started)  # a review's --preview ran out of time after the tries
    if later is None:
        return found  # a limit this near: no tries (as before them, the caller's time is its own)
    return _closer(found, require, limits, tries, CLOSER_STEPS * spent + 20, later)


def _later(deadline: Deadline, started: float) -> Deadline | None:
    """The time after a puzzle is found: that left, less as long as it took, which is kept for
    the caller to write and draw the puzzle (None: none). It was half that left at most, so that
    a limit the whole run fits in (the page's 30 s) ended the closing tries early: further from
    the picture than no limit (a review: 41 cells at distance 8.38 against 19 at 4.62)."""
    left = deadline.remaining()
    if left is None:
        return deadline
    seconds = left - (time.monotonic() - started)
    return None if seconds <= 0 else deadline.within(seconds)


def _looser_or_line(require: Requirement, limits: Limits, started: float, tries: int) -> Repaired:
    """A `unique` or `probe` repair's puzzle: the picture as it is if it meets `require`; else line
    logic's repair and its closing tries first, then `require`'s (unique's within UNIQUE_STEPS) in
    the time after them, the closest kept: without a time limit never further from the picture
    than `line` (a review: `unique` was, within one; `probe` on 4 of 71 pictures)."""
    try:
        return _repair(require, *limits, counted=[0], budget=0)
    except GenerateFailed:
        pass
    line_spent, spent = [0], [0]
    try:
        line = _repair(Requirement.LINE, *limits, counted=line_spent)
    except GenerateFailed:
        found = _repair(require, *limits, counted=spent)
        return _closing(found, require, limits, tries, spent[0], started)
    closest = _closing(line, Requirement.LINE, limits, tries, line_spent[0], started)
    later = _later(limits[7], started)  # a puzzle in hand: the looser repair within the time after it
    if later is None:
        return closest
    budget = UNIQUE_STEPS * len(line.changed) + 20 if require is Requirement.UNIQUE else None
    try:
        found = _repair(require, *limits[:7], later, spent, budget)
    except (GenerateFailed, CutShort):  # (a diff's review: a time limit there lost line logic's puzzle)
        return closest
    if require is Requirement.UNIQUE and (line.distance, len(line.changed)) <= (found.distance, len(found.changed)):
        return closest
    found = _closing(found, require, limits, tries, spent[0], started)
    return closest if (closest.distance, len(closest.changed)) < (found.distance, len(found.changed)) else found


def _closer(
    found: Repaired, require: Requirement, limits: Limits, tries: int, budget: int, deadline: Deadline
) -> Repaired:
    """The closest to the picture of `found` and the puzzles of the closing tries (see
    CLOSER_TRIES): `tries` with fewer changes allowed each time, then `tries` holding the
    distance below NEARER times the closest's, each kind within `budget` steps in all and
    `deadline` (the time after the first repair, `_later`)."""
    grid, cost, palette, max_changes, max_distance, unit, seed, _ = limits
    asked = Requirement.LINE if require is Requirement.UNIQUE else require  # line-solvable is unique too
    best, most, left = found, len(found.changed) - 1, budget
    kept(len(best.changed), best.distance)
    for _ in range(tries):
        if most < 1 or left <= 0:
            break
        spent = [0]
        try:
            tried = _repair(asked, grid, cost, palette, most, max_distance, unit, seed, deadline, spent, left)
        except GenerateFailed:
            most -= 1
        except CutShort:  # the time limit among the closing tries: the closest found so far
            return best
        else:
            best = min(best, tried, key=_closeness)
            kept(len(best.changed), best.distance)
            most = min(most, len(tried.changed)) - 1
        left -= spent[0]
    for _ in range(tries):
        nearer = best.distance * (NEARER or 0.0)
        if nearer <= 0 or budget <= 0:
            break
        spent, held = [0], min(nearer, max_distance or nearer)
        try:
            tried = _repair(asked, grid, cost, palette, max_changes, held, unit, seed, deadline, spent, budget)
        except (GenerateFailed, CutShort):
            break
        best = min(best, tried, key=_closeness)
        kept(len(best.changed), best.distance)
        budget -= spent[0]
    return best


def _closeness(found: Repaired) -> tuple[float, int]:
    return found.distance, len(found.changed)


def _repair(
    require: Requirement,
    grid: Grid,
    cost: Cost,
    palette: Palette,
    max_changes: int,
    max_distance: float | None,
    unit: float | None,
    seed: int,
    deadline: Deadline,
    counted: list[int],
    budget: int | None = None,
) -> Repaired:
    """`repair` for one requirement, within `budget` steps if given (each counted in `counted[0]`)."""
    drawing, started = Drawing(grid, palette, cost, unit), time.monotonic()
    search = Search(drawing, deadline, seed)
    steps, most_steps = 0, 4 * max_changes + 20
    if budget is not None:
        most_steps = min(most_steps, budget)
    while True:
        changed = drawing.changed()
        deadline.check(f"repairing the picture (after {len(changed)} changed cells)")
        told(require, len(changed), search.open)
        met = _met(require, drawing, search.open, changed, deadline)
        if met is not None and met.status is Status.UNIQUE:
            later = _later(deadline, started)  # the caller's time to write and draw is kept (the review of a mend)
            return _proved(drawing, met if later is None else _pruned(require, drawing, met, later), deadline)
        focus = None if met is None else set(met.solutions[0].differences(met.solutions[1]))
        room = None if max_distance is None else max_distance - drawing.distance()
        within = len(changed) < max_changes and (room is None or room > 0)
        if steps >= most_steps or not search.step(within, focus, room):
            what = SOUGHT[require]
            count = f"{len(changed)} changed {'cell' if len(changed) == 1 else 'cells'}"
            spent = count if not within else f"{steps} steps" if steps >= most_steps else "no change helped any more"
            limits, larger = f"{max_changes} changed {'cell' if max_changes == 1 else 'cells'}", "{max_changes}"
            if max_distance is not None:
                limits += f" and a picture distance of {max_distance:g}"
                larger += " or {max_distance}"
                spent += f", distance {drawing.distance():.2f}"
            raise GenerateFailed(
                f"no {what} puzzle found within {limits} (stopped after {spent});"
                f" try a larger {larger}, another size or another {{seed}}",
                max_changes="max_changes",
                max_distance="max_distance",
                seed="seed",
            )
        steps += 1
        counted[0] += 1


def _pruned(require: Requirement, drawing: Drawing, proof: Result, deadline: Deadline) -> Result:
    """Give back, dearest first, each changed cell the requirement no longer needs (each change
    was made for the picture as it was then), and return the proof of the final picture. At the
    time limit, the picture `proof` proved, every change given back put again (a review: a
    --timeout here threw away a puzzle proved unique); a check cut short otherwise keeps its cell."""

    def dearest(cell: Cell) -> tuple[float, Cell]:
        return -drawing.colour_cost(*cell, drawing.cells[cell[0]][cell[1]]), cell

    given_back: list[tuple[int, int, int]] = []  # (row, column, the colour it had), in turn
    try:
        again = True
        while again:  # undoing one change can free another already tried: until none is freed
            again = False
            for r, c in sorted(drawing.changed(), key=dearest):
                deadline.check("giving back changes no longer needed")
                given_back.append((r, c, drawing.cells[r][c]))
                drawing.apply((r, c, drawing.start[r][c]))
                try:
                    held = _holds(require, drawing, solve_open(drawing.puzzle, deadline), deadline)
                except TimeUp:
                    raise
                except CutShort:  # (a formula too large: undecided, so the change stays)
                    held = False
                if held:
                    again = True
                else:
                    drawing.apply(given_back.pop())
        return checked(drawing.puzzle, deadline, "proving the final puzzle unique") if given_back else proof
    except CutShort:
        for change in reversed(given_back):
            drawing.apply(change)
        return proof


def _holds(require: Requirement, drawing: Drawing, left: int, deadline: Deadline) -> bool:
    """Whether the picture meets the requirement: by line logic (and probing) where that is
    enough, by SAT for `unique` when it is not."""
    if left == 0:
        return True
    if require is Requirement.LINE:
        return False
    if require is Requirement.PROBE:
        return _probe_solves(drawing, left, deadline, "giving back changes no longer needed")
    stage = "giving back changes no longer needed"
    return checked(drawing.puzzle, deadline, stage, bounded=True).status is Status.UNIQUE  # undecided: kept


def _probe_solves(drawing: Drawing, left: int, deadline: Deadline, stage: str) -> bool:
    """Whether line logic and probing finish the grid (tried once few cells are left open, and
    on the picture as it is: a review found the smiley at 45 wide, which `rate` calls probe, given
    37 changed cells by `--require probe`)."""
    if left > max(PROBE_FROM * drawing.width * drawing.height, PROBE_ALWAYS) and drawing.changed():
        return False
    logic = trace(drawing.puzzle, probing=True, deadline=deadline)
    if logic.cut_short is not None:
        raise TimeUp(stage)
    return logic.complete


def _met(require: Requirement, drawing: Drawing, left: int, changed: list[Cell], deadline: Deadline) -> Result | None:
    """The proof that the picture meets the requirement now (a unique result); for `unique`,
    the two solutions found instead; or None."""
    if left == 0:
        return checked(drawing.puzzle, deadline, "proving the final puzzle unique")
    if require is Requirement.UNIQUE:
        stage = f"checking uniqueness (after {len(changed)} changed cells)"
        result = checked(drawing.puzzle, deadline, stage, bounded=True)
        return result if result.status in (Status.UNIQUE, Status.MULTIPLE) else None
    if require is Requirement.PROBE and _probe_solves(
        drawing, left, deadline, f"probing (after {len(changed)} changed cells)"
    ):
        return checked(drawing.puzzle, deadline, "proving the final puzzle unique")
    return None


def _proved(drawing: Drawing, result: Result, deadline: Deadline) -> Repaired:
    """The final picture and its proof: the solver, from the clues alone, found it and no other."""
    grid = drawing.grid()
    puzzle = Puzzle.from_grid(grid, drawing.palette)
    if puzzle.rows != drawing.puzzle.rows or puzzle.columns != drawing.puzzle.columns:
        raise GenerateFailed("internal error: the repaired clues drifted from the picture")
    if result.status is not Status.UNIQUE or result.solutions[0].grid != grid:
        raise GenerateFailed(f"internal error: the final puzzle was not proved unique ({result.status.value})")
    return Repaired(grid, tuple(drawing.changed()), result, round(drawing.distance(), 4))
