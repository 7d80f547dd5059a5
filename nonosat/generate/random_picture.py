"""Random pictures for `random`: shapes, as Simon Tatham's Pattern makes them, not noise; and
the palette of a random colour puzzle."""

from __future__ import annotations

import colorsys
import math
import random

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.generate.quantise import names
from nonosat.model import Grid
from nonosat.palette import BLACK, BLACK_AND_WHITE, CHARS, SPARE_RGB, WHITE, Colour, Palette


def random_picture(
    width: int, height: int, density: float, colours: int, rng: random.Random, deadline: Deadline = NO_DEADLINE
) -> Grid:
    """A random picture as Simon Tatham's Pattern draws one: random numbers, each replaced by
    the mean of its 3x3 neighbourhood, and the cells with the highest `density` share of them
    filled; then no row or column is left all blank or all filled (unless the density asks
    for it). In colour, each filled cell takes the colour whose own smoothed field is highest
    there, so colours come in patches. Raises TimeUp past `deadline` (256x256 in colour takes
    a second)."""
    filled = _smoothed(width, height, rng, deadline)
    ranked = sorted(v for row in filled for v in row)
    share = round(density * width * height)
    cut = ranked[-share] if share else math.inf
    grid = [[int(v >= cut) for v in row] for row in filled]
    if 0.0 < density < 1.0:
        _no_flat_lines(grid, filled)
    if colours == 1:
        return tuple(tuple(row) for row in grid)
    fields = [_smoothed(width, height, rng, deadline) for _ in range(colours)]
    return tuple(
        tuple(1 + max(range(colours), key=lambda k: fields[k][r][c]) if cell else 0 for c, cell in enumerate(row))
        for r, row in enumerate(grid)
    )


def _smoothed(width: int, height: int, rng: random.Random, deadline: Deadline) -> list[list[float]]:
    """Uniform random numbers, each replaced by the mean of its 3x3 neighbourhood (within the grid)."""
    noise = [[rng.random() for _ in range(width)] for _ in range(height)]
    smoothed = []
    for r in range(height):
        deadline.check("drawing the random picture")
        row = []
        for c in range(width):
            around = [
                noise[i][j]
                for i in range(r - 1, r + 2)
                for j in range(c - 1, c + 2)
                if 0 <= i < height and 0 <= j < width
            ]
            row.append(sum(around) / len(around))
        smoothed.append(row)
    return smoothed


def _no_flat_lines(grid: list[list[int]], field: list[list[float]]) -> None:
    """Fill the strongest cell of every blank line, and clear the weakest of every full one,
    choosing among the cells whose crossing line the change leaves neither blank nor full."""
    height, width = len(grid), len(grid[0])

    def fix(cells: list[tuple[int, int]], crossing: list[list[tuple[int, int]]]) -> bool:
        values = [grid[r][c] for r, c in cells]
        if len(cells) < 2 or 0 < sum(values) < len(cells):
            return False
        fill = not any(values)

        def harmless(index: int) -> bool:
            others = [grid[r][c] for r, c in crossing[index]]
            return len(others) < 2 or (sum(others) < len(others) - 1 if fill else sum(others) > 1)

        choices = [i for i in range(len(cells)) if harmless(i)] or list(range(len(cells)))
        pick = max if fill else min
        r, c = cells[pick(choices, key=lambda i: field[cells[i][0]][cells[i][1]])]
        grid[r][c] ^= 1
        return True

    columns = [[(r, c) for r in range(height)] for c in range(width)]
    rows = [[(r, c) for c in range(width)] for r in range(height)]
    for _ in range(2 * (width + height)):
        fixed = False
        for r in range(height):
            fixed |= fix(rows[r], columns)
        for c in range(width):
            fixed |= fix(columns[c], rows)
        if not fixed:
            return


def random_palette(colours: int) -> Palette:
    """Black, then Trubetskoy's distinct colours, then hues a golden angle apart at three
    lightnesses; each named after its nearest CSS colour."""
    if colours == 1:
        return BLACK_AND_WHITE
    rgbs = [BLACK.rgb, *SPARE_RGB[: colours - 1]]
    step = 0
    while len(rgbs) < colours:
        red, green, blue = colorsys.hls_to_rgb(step * 0.618034 % 1, (0.3, 0.5, 0.7)[step % 3], 0.8)
        rgb = "#" + "".join(f"{round(255 * v):02x}" for v in (red, green, blue))
        if rgb not in rgbs:
            rgbs.append(rgb)
        step += 1
    return (WHITE, *(Colour(name, rgb, CHARS[i]) for i, (name, rgb) in enumerate(zip(names(rgbs), rgbs, strict=True))))
