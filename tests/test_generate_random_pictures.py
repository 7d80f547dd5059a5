"""Random pictures for `nonosat random`: about the density asked for, no blank or full line,
shapes and not noise, and their line-solvable puzzles proved."""

from __future__ import annotations

import itertools
import random

import pytest
from generate_shared import proved_line_solvable

from nonosat.generate import random_puzzle
from nonosat.generate.random_picture import random_picture
from nonosat.model import Grid

pytest.importorskip("PIL.Image")


@pytest.mark.parametrize("seed", range(1, 9))
def test_random_pictures_have_no_blank_or_full_line_and_about_the_density(seed: int) -> None:
    grid = random_picture(20, 15, 0.4, 1, random.Random(seed))
    assert abs(sum(map(sum, grid)) - 0.4 * 300) <= 30  # the fixes move a few cells
    assert grid == random_picture(20, 15, 0.4, 1, random.Random(seed))
    for width, height, density in itertools.product(range(2, 11), range(2, 11), (0.1, 0.25, 0.5, 0.75, 0.9)):
        grid = random_picture(width, height, density, 1, random.Random(seed))
        assert all(0 < sum(row) < width for row in grid), (width, height, density)
        assert all(0 < sum(column) < height for column in zip(*grid, strict=True)), (width, height, density)


def test_random_pictures_have_shapes_not_noise() -> None:
    """Smoothed: a filled cell has more filled neighbours than in uniform noise of the same density."""

    def alike(grid: Grid) -> float:
        pairs = [(grid[r][c], grid[r][c + 1]) for r in range(len(grid)) for c in range(len(grid[0]) - 1)]
        return sum(a == b for a, b in pairs) / len(pairs)

    rng = random.Random(9)
    noise = tuple(tuple(int(rng.random() < 0.5) for _ in range(30)) for _ in range(30))
    assert alike(random_picture(30, 30, 0.5, 1, random.Random(9))) > alike(noise) + 0.1


@pytest.mark.parametrize("size", [25, 30])
def test_random_line_puzzles_are_proved(size: int) -> None:
    made = random_puzzle(size, size, seed=4, require="line")
    proved_line_solvable(made.puzzle)
    assert made.distance == len(made.changed)
