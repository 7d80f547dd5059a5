"""The compiled check of a grid against its clues (core/clue_check.c, `broken_lines`) against
Python's `Puzzle.violations`, on random colour and black-and-white grids and on those grids with
cells changed; and `verified`, which uses it, refusing every grid that breaks a clue."""

from __future__ import annotations

import random

import pytest
from colour_grids import PALETTES, grid_of

from nonosat import Puzzle
from nonosat.errors import WrongAnswer
from nonosat.model import Grid
from nonosat.solver.compiled import colour_core
from nonosat.solver.outcome import verified

pytestmark = pytest.mark.skipif(colour_core() is None, reason="the compiled core was not built")


def broken(puzzle: Puzzle, grid: object) -> list[int]:
    core = colour_core()
    assert core is not None
    row_colours = [puzzle.colours_of(True, r) for r in range(puzzle.height)]
    column_colours = [puzzle.colours_of(False, c) for c in range(puzzle.width)]
    lines: list[int] = core.broken_lines(puzzle.rows, row_colours, puzzle.columns, column_colours, grid)
    return lines


def named(puzzle: Puzzle, lines: list[int]) -> list[str]:
    return [f"row {n + 1}" if n < puzzle.height else f"column {n - puzzle.height + 1}" for n in lines]


def changed(rng: random.Random, grid: Grid, colours: int, cells: int) -> Grid:
    rows = [list(row) for row in grid]
    for _ in range(cells):
        r, c = rng.randrange(len(rows)), rng.randrange(len(rows[0]))
        rows[r][c] = rng.randint(0, colours)
    return tuple(tuple(row) for row in rows)


@pytest.mark.parametrize("palette", [1, 2, 3])
def test_the_compiled_check_finds_the_lines_python_finds(palette: int) -> None:
    rng = random.Random(palette)
    changes = 0
    for _ in range(300):
        height, width = rng.randint(1, 9), rng.randint(1, 9)
        goal = grid_of(rng, height, width, palette, rng.random())
        puzzle = Puzzle.from_grid(goal, palette=PALETTES[palette])
        assert broken(puzzle, goal) == []
        other = changed(rng, goal, palette, rng.randint(1, 3))
        lines = broken(puzzle, other)
        assert named(puzzle, lines) == puzzle.violations(other)
        changes += bool(lines)
    assert changes > 150  # most changed grids break a line, and each time the same lines as Python's


def test_a_grid_of_the_wrong_shape_or_with_a_cell_out_of_range_is_refused() -> None:
    puzzle = Puzzle.from_grid(((1, 2), (0, 1)), palette=PALETTES[2])
    for grid, error in [
        (((1, 2),), ValueError),
        (((1, 2), (0,)), ValueError),
        (((1, 2), (0, 256)), ValueError),
        (((1, 2), (0, -1)), ValueError),
        (((1, 2), (0, "a")), TypeError),
        (((1, 2), 5), TypeError),
    ]:
        with pytest.raises(error):
            broken(puzzle, grid)


def test_verified_refuses_a_large_or_colour_grid_that_breaks_a_clue_and_names_the_line() -> None:
    rng = random.Random(7)
    for height, width, palette in [(130, 127, 1), (40, 30, 3)]:
        goal = grid_of(rng, height, width, palette, 0.5)
        puzzle = Puzzle.from_grid(goal, palette=PALETTES[palette])
        assert verified(puzzle, goal).grid == goal
        wrong = tuple(row if r != 3 else (0 if row[0] else 1,) + row[1:] for r, row in enumerate(goal))
        with pytest.raises(WrongAnswer, match="row 4"):
            verified(puzzle, wrong)
        with pytest.raises(WrongAnswer, match="not 130 rows|not 40 rows"):
            verified(puzzle, goal[:-1])
