"""What the tests of puzzles generated from pictures share (tests/test_generate_*.py, which need
Pillow): a grid drawn as a greyscale picture, blurred and noisy like a real scan; a smiley of thin
lines, as an author draws one (the fixture `smiley`, one a module); a puzzle proved
line-solvable from its clues alone, and a puzzle's clues and palette without its goal; and the
colours of a grid and of a picture's pixels, to compare."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonosat.generate.image import draw_scan
from nonosat.model import Grid, Puzzle
from nonosat.palette import WHITE, Palette
from nonosat.solver import Status, solve
from nonosat.solver.propagation import line_solve

Image = pytest.importorskip("PIL.Image")
ImageDraw = pytest.importorskip("PIL.ImageDraw")

SCALE = 8


def draw(grid: Grid, path: Path, blur: float = 2.0, noise: int = 0, seed: int = 0) -> Path:
    """A greyscale picture of a grid at 8 pixels a cell, blurred and noisy like a real scan."""
    draw_scan(grid, path, scale=SCALE, blur=blur, noise=noise, seed=seed)
    return path


@pytest.fixture(scope="module", name="smiley")
def smiley_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A smiley of thin lines, as an author draws one: line logic cannot start on it."""
    picture = Image.new("L", (800, 800), 255)
    pen = ImageDraw.Draw(picture)
    pen.ellipse((50, 50, 750, 750), outline=0, width=40)
    pen.ellipse((250, 250, 325, 350), fill=0)
    pen.ellipse((475, 250, 550, 350), fill=0)
    pen.arc((225, 350, 575, 625), 20, 160, fill=0, width=40)
    path = tmp_path_factory.mktemp("pictures") / "smiley.png"
    picture.resize((200, 200), Image.LANCZOS).save(path)
    return path


def proved_line_solvable(puzzle: Puzzle) -> None:
    """From the clues alone: line logic finishes it, SAT finds one solution, and it is the goal."""
    bare = Puzzle(
        rows=puzzle.rows,
        columns=puzzle.columns,
        palette=puzzle.palette,
        row_colours=puzzle.row_colours,
        column_colours=puzzle.column_colours,
    )
    assert line_solve(bare).is_complete()
    result = solve(bare, count=2, jobs=1)
    assert result.status is Status.UNIQUE and result.solutions[0].grid == puzzle.goal


def bare(puzzle: Puzzle) -> Puzzle:
    """The puzzle from its clues and palette alone: no goal to lean on."""
    return Puzzle(
        rows=puzzle.rows,
        columns=puzzle.columns,
        palette=puzzle.palette,
        row_colours=puzzle.row_colours,
        column_colours=puzzle.column_colours,
    )


def colours_in(palette: Palette, grid: Grid) -> list[list[str]]:
    return [[palette[cell].rgb for cell in row] for row in grid]


def picture_colours(path: Path) -> list[list[str]]:
    """Each pixel's "#rrggbb", white for transparent."""
    with Image.open(path) as image:
        rgba = image.convert("RGBA")
    pixels = list(rgba.get_flattened_data())
    width = rgba.width
    hexes = [WHITE.rgb if a == 0 else f"#{r:02x}{g:02x}{b:02x}" for r, g, b, a in pixels]
    return [hexes[i : i + width] for i in range(0, len(hexes), width)]
