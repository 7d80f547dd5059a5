"""Small colour grids for the compiled searches' tests (test_colour_search.py, test_colour_cdcl.py):
random grids of a few colours, and every solution of a puzzle found by brute force."""

from __future__ import annotations

import random
from itertools import product

from nonosat import Puzzle
from nonosat.model import Grid, runs_of
from nonosat.palette import BLACK_AND_WHITE, Colour, Palette

RED, GREEN = Colour("red", "#ff0000", "r"), Colour("green", "#00ff00", "g")
PALETTES: dict[int, Palette] = {1: BLACK_AND_WHITE, 2: (*BLACK_AND_WHITE, RED), 3: (*BLACK_AND_WHITE, RED, GREEN)}


def grid_of(rng: random.Random, height: int, width: int, palette: int, fill: float) -> Grid:
    return tuple(
        tuple(rng.randint(1, palette) if rng.random() < fill else 0 for _ in range(width)) for _ in range(height)
    )


def every_solution(puzzle: Puzzle) -> set[Grid]:
    """Every grid that meets the puzzle's clues: each row one of the lines its own clue allows
    (all lines of the width, filtered), then the columns checked."""
    values = range(puzzle.colour_count + 1)
    rows = []
    for r in range(puzzle.height):
        wanted = (puzzle.rows[r], puzzle.colours_of(True, r))
        rows.append([line for line in product(values, repeat=puzzle.width) if runs_of(line) == wanted])
    return {grid for grid in product(*rows) if puzzle.satisfied_by(grid)}
