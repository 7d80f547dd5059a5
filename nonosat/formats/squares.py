"""A picture drawn with Unicode's coloured squares, one a cell (number-loom's "char grid" of them).

Each line is a row: ⬜ (U+2B1C) is blank, and ⬛ 🟥 🟧 🟨 🟩 🟦 🟪 🟫 are black, red, orange,
yellow, green, blue, purple and brown. The puzzle's goal is the picture. Blank lines are
skipped; every row must be as wide as the first. A file whose first line is made of these
squares is read as such a picture.
"""

from __future__ import annotations

from nonosat.errors import ParseError
from nonosat.formats.colour import PaletteDraft, Swatch, colour_puzzle
from nonosat.formats.common import PathName, refuse_many_lines, split_lines
from nonosat.model import Puzzle, runs_of

BLANK = "\u2b1c"
SQUARES = {
    "\u2b1b": Swatch("black", "#000000", "#"),
    "\U0001f7e5": Swatch("red", "#ff0000", "r"),
    "\U0001f7e7": Swatch("orange", "#ffa500", "o"),
    "\U0001f7e8": Swatch("yellow", "#ffff00", "y"),
    "\U0001f7e9": Swatch("green", "#008000", "g"),
    "\U0001f7e6": Swatch("blue", "#0000ff", "b"),
    "\U0001f7ea": Swatch("purple", "#800080", "p"),
    "\U0001f7eb": Swatch("brown", "#8b4513", "n"),
}
"""Each coloured square, as number-loom colours it."""


def looks_like_squares(lines: list[str]) -> bool:
    """Whether the first stripped line is made of coloured squares only."""
    return bool(lines) and bool(lines[0]) and set(lines[0]) <= SQUARES.keys() | {BLANK}


def load_squares(text: str, path: PathName = None) -> Puzzle:
    """Read a picture of coloured squares as the goal of a colour puzzle."""
    refuse_many_lines(text, path)
    draft = PaletteDraft(path)
    grid: list[tuple[int, ...]] = []
    lines = [(number, line.strip()) for number, line in enumerate(split_lines(text), start=1) if line.strip()]
    for number, line in lines:
        row = []
        for char in line:
            if char == BLANK:
                row.append(0)
            elif char in SQUARES:
                row.append(draft.index(char) or draft.declare(char, SQUARES[char], number, given=False))
            else:
                raise ParseError(
                    path, number, f"expected a row of coloured squares such as \u2b1c\u2b1b, found {char!r}"
                )
        if grid and len(row) != len(grid[0]):
            raise ParseError(path, number, f"expected {len(grid[0])} squares like the first row, found {len(row)}")
        grid.append(tuple(row))
    if not grid:
        raise ParseError(path, None, "expected rows of coloured squares, found none")
    rows = [runs_of(row) for row in grid]
    columns = [runs_of(column) for column in zip(*grid, strict=True)]
    return colour_puzzle(draft, lines[0][0], rows, columns, tuple(grid))
