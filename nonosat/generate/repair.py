"""Make a picture's puzzle uniquely solvable (or solvable by line logic) by changing few cells.

Each round proves or refutes the requirement, then changes one cell of the picture:
- a cell that line logic cannot decide (for `line`), or on which two solutions found by SAT
  disagree (for `unique`): changing such a cell changes the clues right where the ambiguity is;
- among those, the few changes that cost the picture least (in black and white, a flip of the
  cells whose grey level lies nearest the threshold; in colour, a cell may take any other colour
  or the blank, and the cost is how much further from the picture's colour it moves), and of
  these the one after which line logic leaves the fewest cells open.
A cell is changed at most once, so the search cannot cycle, and never so as to take a colour's
last cell away. It stops with a proof, or fails when `max_changes` cells have been changed:
success is never claimed without a proof.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nonosat.basics import Choice
from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import CutShort, GenerateFailed, TimeUp
from nonosat.linesolve import Board, line_solve
from nonosat.model import Cell, Grid, Puzzle
from nonosat.palette import BLACK_AND_WHITE, Palette
from nonosat.solver import Result, Status, solve


class Requirement(Choice):
    """What a generated puzzle must be."""

    UNIQUE = "unique"
    """One solution, proved by SAT."""
    LINE = "line"
    """Solvable by line logic alone, as puzzles for people are (and so unique)."""


REQUIREMENTS = tuple(Requirement)

LOOKAHEAD = 4
"""How many of the cheapest candidate changes are tried with line logic before one is made."""

Cost = Callable[[int, int, int], float]
"""cost(row, column, colour): how much further from the picture a cell moves when it takes
`colour` (0 the blank) instead of its colour in the picture."""


def flip_cost(margin: Sequence[Sequence[float]]) -> Cost:
    """In black and white, the cost of flipping a cell: its grey level's distance from the threshold."""
    return lambda row, column, colour: margin[row][column]


def no_cost(row: int, column: int, colour: int) -> float:
    """Every change as cheap (a random grid): the seed breaks the ties."""
    return 0.0


@dataclass(frozen=True)
class Repaired:
    """A picture that meets the requirement, and the proof."""

    grid: Grid
    changed: tuple[Cell, ...]
    """The (row, column) cells, from 0, changed from the starting picture."""
    result: Result
    """The solver's verdict on the final puzzle: unique, with `method` "line" when line logic
    alone solved it."""


def open_cells(puzzle: Puzzle, deadline: Deadline = NO_DEADLINE) -> list[Cell]:
    """The cells line logic leaves undecided (a puzzle made from a picture is never refuted)."""
    board: Board = line_solve(puzzle, deadline)
    full = (1 << puzzle.width) - 1
    found = []
    for r in range(puzzle.height):
        unknown = full & ~board.known(True, r)
        while unknown:
            low = unknown & -unknown
            found.append((r, low.bit_length() - 1))
            unknown ^= low
    return found


def _changed(grid: list[list[int]], cell: Cell, colour: int) -> list[list[int]]:
    other = [list(row) for row in grid]
    r, c = cell
    other[r][c] = colour
    return other


def _mix(seed: int, row: int, column: int, colour: int) -> float:
    """A seeded tie-break in [0, 1) for one colour of one cell (random.Random is too slow to
    make one a change)."""
    value = (seed * 0x9E3779B1 + row * 0x85EBCA77 + column * 0xC2B2AE3D + colour * 0x27D4EB2F) & 0xFFFFFFFF
    for shift, factor in ((16, 0x7FEB352D), (15, 0x846CA68B)):
        value = ((value ^ (value >> shift)) * factor) & 0xFFFFFFFF
    return (value ^ (value >> 16)) / 2**32


def repair(
    grid: Grid,
    cost: Cost,
    require: Requirement = Requirement.UNIQUE,
    *,
    palette: Palette = BLACK_AND_WHITE,
    max_changes: int,
    seed: int = 0,
    timeout: float | None = None,
) -> Repaired:
    """Change as few cells of `grid` as this greedy search finds to meet `require`.

    `cost(r, c, k)` is the cost of giving a cell colour k (see `Cost`); a cell of `grid` holds
    an index into `palette`. Raises `GenerateFailed` after `max_changes` changes, and `TimeUp`
    when the whole repair runs past `timeout` seconds. Deterministic for a given seed.
    """
    if require not in REQUIREMENTS:
        raise ValueError(f"require is 'unique' or 'line', not {require!r}")
    deadline = Deadline.after(timeout)
    rng = random.Random(seed)
    height, width = len(grid), len(grid[0])
    tie = [[rng.random() for _ in range(width)] for _ in range(height)]  # seeded tie-breaks
    current = [list(row) for row in grid]
    changed: list[Cell] = []
    while True:
        deadline.check(f"repairing the picture (after {len(changed)} changed cells)")
        puzzle = Puzzle.from_grid(current, palette=palette)
        undecided = open_cells(puzzle, deadline)
        if not undecided:
            return _proved(puzzle, current, changed, deadline)
        candidates = undecided
        if require == "unique":
            result = solve(puzzle, count=2, timeout=deadline.remaining(), jobs=1)
            if result.status is Status.UNIQUE:
                return _proved(puzzle, current, changed, deadline, result)
            if result.status is not Status.MULTIPLE:
                raise _cut_short(result, f"checking uniqueness (after {len(changed)} changed cells)")
            disputed = result.solutions[0].differences(result.solutions[1])
            candidates = disputed or undecided
        options = _options(current, candidates, set(changed), len(palette) - 1)
        if len(changed) >= max_changes or not options:
            why = "its ambiguous cells were all changed already" if not options else f"{len(changed)} changes"
            raise GenerateFailed(
                f"no {'line-solvable' if require == 'line' else 'unique'} puzzle found within {max_changes}"
                f" changed cells (stopped after {why}); try a larger {{max_changes}} or another size",
                max_changes="max_changes",
            )

        def order(option: tuple[Cell, int]) -> tuple[float, float]:
            (r, c), colour = option
            # in colour, a tie per colour too, so that four equal changes are not one cell's
            return cost(r, c, colour), tie[r][c] if len(palette) == 2 else _mix(seed, r, c, colour)

        cheapest = sorted(options, key=order)[:LOOKAHEAD]
        if len(cheapest) > 1:
            cheapest.sort(key=lambda o: len(open_cells(Puzzle.from_grid(_changed(current, *o), palette), deadline)))
        cell, colour = cheapest[0]
        current = _changed(current, cell, colour)
        changed.append(cell)


def _options(current: list[list[int]], cells: list[Cell], changed: set[Cell], colours: int) -> list[tuple[Cell, int]]:
    """Every other colour (or the blank) each cell not yet changed could take, unless it holds
    the last cell of its colour."""
    left = Counter(k for row in current for k in row)
    return [
        (cell, k)
        for cell in cells
        if cell not in changed and (left[own := current[cell[0]][cell[1]]] > 1 or own == 0)
        for k in range(colours + 1)
        if k != own
    ]


def _proved(
    puzzle: Puzzle,
    current: list[list[int]],
    changed: list[Cell],
    deadline: Deadline,
    result: Result | None = None,
) -> Repaired:
    """Check the final puzzle with the solver (again, from its clues alone) before claiming it."""
    if result is None:
        result = solve(puzzle, count=2, timeout=deadline.remaining(), jobs=1)
    grid = tuple(tuple(row) for row in current)
    if result.status is Status.UNKNOWN:
        raise _cut_short(result, "proving the final puzzle unique")
    if result.status is not Status.UNIQUE or result.solutions[0].grid != grid:
        raise GenerateFailed(f"internal error: the final puzzle was not proved unique ({result.status.value})")
    return Repaired(grid, tuple(changed), result)


def _cut_short(result: Result, stage: str) -> CutShort:
    """Why a check in the repair gave no verdict: the time limit, or a formula too large."""
    if result.cut_short is None or result.cut_short.startswith("time limit"):
        return TimeUp(stage)
    return CutShort(f"{result.cut_short}, while {stage}")
