"""Make a picture's puzzle uniquely solvable (or solvable by line logic) by changing few cells.

Each round proves or refutes the requirement, then flips one cell of the picture:
- a cell that line logic cannot decide (for `line`), or on which two solutions found by SAT
  disagree (for `unique`): flipping such a cell changes the clues right where the ambiguity is;
- among those, the few whose grey level lies nearest the threshold, since flipping them changes
  the picture least, and of these the one after which line logic leaves the fewest cells open.
A cell is flipped at most once, so the search cannot cycle. It stops with a proof, or fails
when `max_changes` cells have been flipped: success is never claimed without a proof.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from nonosat.basics import Choice
from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import CutShort, GenerateFailed, TimeUp
from nonosat.linesolve import Board, line_solve
from nonosat.model import Cell, Grid, Puzzle
from nonosat.solver import Result, Status, solve


class Requirement(Choice):
    """What a generated puzzle must be."""

    UNIQUE = "unique"
    """One solution, proved by SAT."""
    LINE = "line"
    """Solvable by line logic alone, as puzzles for people are (and so unique)."""


REQUIREMENTS = tuple(Requirement)

LOOKAHEAD = 4
"""How many of the cheapest candidate cells are tried with line logic before one is flipped."""


@dataclass(frozen=True)
class Repaired:
    """A picture that meets the requirement, and the proof."""

    grid: Grid
    changed: tuple[Cell, ...]
    """The (row, column) cells, from 0, flipped from the starting picture."""
    result: Result
    """The solver's verdict on the final puzzle: unique, with `method` "line" when line logic
    alone solved it."""


def open_cells(puzzle: Puzzle, deadline: Deadline = NO_DEADLINE) -> list[Cell]:
    """The cells line logic leaves undecided (a puzzle made from a picture is never refuted)."""
    board: Board = line_solve(puzzle, deadline)
    width = puzzle.width
    full = (1 << width) - 1
    found = []
    for r, (f, e) in enumerate(zip(board.row_filled, board.row_empty, strict=True)):
        unknown = full & ~(f | e)
        while unknown:
            low = unknown & -unknown
            found.append((r, low.bit_length() - 1))
            unknown ^= low
    return found


def _flipped(grid: list[list[int]], cell: Cell) -> list[list[int]]:
    other = [list(row) for row in grid]
    r, c = cell
    other[r][c] = 1 - other[r][c]
    return other


def repair(
    grid: Grid,
    margin: Sequence[Sequence[float]],
    require: Requirement = Requirement.UNIQUE,
    *,
    max_changes: int,
    seed: int = 0,
    timeout: float | None = None,
) -> Repaired:
    """Flip as few cells of `grid` as this greedy search finds to meet `require`.

    `margin[r][c]` is the cost of flipping a cell (its grey level's distance from the
    threshold). Raises `GenerateFailed` after `max_changes` flips, and `TimeUp` when the whole
    repair runs past `timeout` seconds. Deterministic for a given seed.
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
        puzzle = Puzzle.from_grid(current)
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
        fresh = [cell for cell in candidates if cell not in changed]
        if len(changed) >= max_changes or not fresh:
            why = "its ambiguous cells were all changed already" if not fresh else f"{len(changed)} changes"
            raise GenerateFailed(
                f"no {'line-solvable' if require == 'line' else 'unique'} puzzle found within {max_changes}"
                f" changed cells (stopped after {why}); try a larger {{max_changes}} or another size",
                max_changes="max_changes",
            )
        cheapest = sorted(fresh, key=lambda cell: (margin[cell[0]][cell[1]], tie[cell[0]][cell[1]]))[:LOOKAHEAD]
        if len(cheapest) > 1:
            cheapest.sort(key=lambda cell: len(open_cells(Puzzle.from_grid(_flipped(current, cell)), deadline)))
        pick = cheapest[0]
        current = _flipped(current, pick)
        changed.append(pick)


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
