"""The colour puzzle the render tests draw (a palette of four, a grid and another solution that
differs from it in two cells, and a black-and-white grid), and how they read what was drawn: a
terminal view as styled characters, an SVG's filled cells by their colour."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from rich.console import Console, RenderableType
from rich.style import Style

from nonosat.model import Grid, Puzzle, Solution
from nonosat.palette import Colour
from nonosat.render.sheets import SVG_CELL, Sheet
from nonosat.solver.outcome import Method, Result, Status

SVG = "{http://www.w3.org/2000/svg}"
PALETTE = (
    Colour("white", "#ffffff", "."),
    Colour("navy", "#000080", "n"),
    Colour("yellow", "#ffff00", "y"),
    Colour("red", "#ff0000", "r"),
)
GRID: Grid = (
    (1, 1, 0, 2, 2),
    (0, 2, 3, 3, 0),
    (3, 0, 1, 2, 1),
    (2, 2, 2, 0, 0),
)
OTHER: Grid = (
    (3, 1, 0, 2, 2),
    (2, 2, 3, 3, 0),
    (3, 0, 1, 2, 1),
    (2, 2, 2, 0, 0),
)
DIFFER = [(0, 0), (1, 0)]
BW: Grid = ((1, 1, 0, 1), (0, 1, 1, 1), (1, 0, 0, 0))


def puzzle() -> Puzzle:
    return Puzzle.from_grid(GRID, palette=PALETTE)


def result_of(found: Puzzle, *grids: Grid, status: Status = Status.UNIQUE) -> Result:
    return Result(found, status, tuple(Solution(g) for g in grids), Method.LINE, 0.01, True)


def ansi(renderable: RenderableType, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system="truecolor", force_terminal=True)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def styled(renderable: RenderableType, width: int = 80) -> list[list[tuple[str, Style | None]]]:
    """Each line of the rendered view as (character, style) pairs."""
    console = Console(width=width, color_system="truecolor", force_terminal=True, file=io.StringIO())
    lines = console.render_lines(renderable, console.options, pad=False, new_lines=False)
    return [[(char, segment.style) for segment in line for char in segment.text] for line in lines]


def hex_of(style: Style | None, background: bool = False) -> str | None:
    colour = None if style is None else style.bgcolor if background else style.color
    return None if colour is None else colour.get_truecolor().hex


def svg_fills(svg: str, found: Puzzle) -> dict[str, set[tuple[int, int]]]:
    """The cells each filled path of an SVG covers, by its fill."""
    sheet = Sheet(found, SVG_CELL)
    cells: dict[str, set[tuple[int, int]]] = {}
    for path in ET.fromstring(svg).iter(f"{SVG}path"):
        if path.get("class") == "filled":
            for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v", path.get("d", "")):
                row, column = (int(y) - sheet.top) // SVG_CELL, (int(x) - sheet.left) // SVG_CELL
                cells.setdefault(path.get("fill", ""), set()).update(
                    (row, column + i) for i in range(int(w) // SVG_CELL)
                )
    return cells
