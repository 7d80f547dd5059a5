"""Pictures of a puzzle laid out as printed: the empty sheet with its clues, or the solved picture.

One layout, `Sheet`, places the cells, the rules and the clue numbers; `to_svg` (our own small
writer) and `to_png` (Pillow, imported only when needed) draw it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from nonosat.errors import UsageError
from nonosat.formats.atomic import ensure_writable, write_bytes_atomic, write_text_atomic
from nonosat.model import Clue, Grid, Puzzle

if TYPE_CHECKING:
    from PIL import Image, ImageFont

SVG_CELL = 20
"""Cell size of an SVG, in its own units (pixels at 100%); SVGs scale without loss anyway."""

PNG_CELL_LARGEST, PNG_CELL_SMALLEST, PNG_SIDE = 24, 10, 4800
"""PNG cells are as large as fits the longer side in PNG_SIDE pixels, within these bounds."""

RULE_EVERY = 5
"""Every fifth line is a thick rule, as on printed puzzles."""

Line = tuple[int, int, int, int]
"""A straight rule from (x0, y0) to (x1, y1)."""


def clue_numbers(clue: Clue) -> list[str]:
    """The numbers printed for one line's clue: "0" alone for an empty line."""
    return [str(n) for n in clue] or ["0"]


@dataclass(frozen=True)
class Sheet:
    """Where everything goes on a printed puzzle, in pixels, for a given cell size.

    Each clue number sits in a cell-sized box: row clues end at the grid's left edge, column clues
    at its top edge, so the margins are as deep as the longest clues. Half a cell of white
    surrounds the whole.
    """

    puzzle: Puzzle
    cell: int

    @property
    def pad(self) -> int:
        return self.cell // 2

    @cached_property
    def left(self) -> int:
        """The x of the grid's left edge."""
        return self.pad + self.cell * max(len(clue_numbers(c)) for c in self.puzzle.rows)

    @cached_property
    def top(self) -> int:
        """The y of the grid's top edge."""
        return self.pad + self.cell * max(len(clue_numbers(c)) for c in self.puzzle.columns)

    @cached_property
    def width(self) -> int:
        return self.left + self.cell * self.puzzle.width + self.pad

    @cached_property
    def height(self) -> int:
        return self.top + self.cell * self.puzzle.height + self.pad

    @cached_property
    def font_size(self) -> float:
        """Large enough to read, small enough that the longest number fits its box."""
        digits = max(len(n) for c in self.puzzle.rows + self.puzzle.columns for n in clue_numbers(c))
        return round(self.cell * min(0.6, 0.7 / (0.6 * digits)), 1)

    @property
    def thin(self) -> int:
        """The width of the rule between two cells."""
        return max(1, round(self.cell / 20))

    @property
    def thick(self) -> int:
        """The width of every fifth rule and of the border."""
        return max(2, round(self.cell / 8))

    def cell_box(self, row: int, column: int, length: int = 1) -> tuple[int, int, int, int]:
        """The pixel box (x0, y0, x1, y1) of `length` cells from (row, column) rightwards."""
        x, y = self.left + column * self.cell, self.top + row * self.cell
        return x, y, x + length * self.cell, y + self.cell

    def labels(self) -> Iterator[tuple[float, float, str]]:
        """Each clue number with the centre of its box: rows top to bottom, then columns."""
        half = self.cell / 2
        for r, clue in enumerate(self.puzzle.rows):
            numbers = clue_numbers(clue)
            for i, number in enumerate(numbers):
                yield self.left - (len(numbers) - i) * self.cell + half, self.top + r * self.cell + half, number
        for c, clue in enumerate(self.puzzle.columns):
            numbers = clue_numbers(clue)
            for i, number in enumerate(numbers):
                yield self.left + c * self.cell + half, self.top - (len(numbers) - i) * self.cell + half, number

    def rules(self) -> tuple[list[Line], list[Line]]:
        """The thin rules between cells and the thick ones (every fifth, and the border)."""
        thin: list[Line] = []
        thick: list[Line] = []
        right, bottom = self.left + self.puzzle.width * self.cell, self.top + self.puzzle.height * self.cell
        for c in range(self.puzzle.width + 1):
            x = self.left + c * self.cell
            last = c == self.puzzle.width
            (thick if c % RULE_EVERY == 0 or last else thin).append((x, self.top, x, bottom))
        for r in range(self.puzzle.height + 1):
            y = self.top + r * self.cell
            last = r == self.puzzle.height
            (thick if r % RULE_EVERY == 0 or last else thin).append((self.left, y, right, y))
        return thin, thick

    def guides(self) -> list[Line]:
        """Faint rules that carry each row and column out through its clues."""
        xs = [self.left + c * self.cell for c in range(self.puzzle.width + 1)]
        ys = [self.top + r * self.cell for r in range(self.puzzle.height + 1)]
        return [(x, self.pad, x, self.top) for x in xs] + [(self.pad, y, self.left, y) for y in ys]


def filled_runs(grid: Grid) -> Iterator[tuple[int, int, int]]:
    """Each horizontal run of filled cells as (row, first column, length)."""
    for r, row in enumerate(grid):
        start = None
        for c, value in enumerate((*row, 0)):
            if value and start is None:
                start = c
            elif not value and start is not None:
                yield r, start, c - start
                start = None


def _num(value: float) -> str:
    """A coordinate as SVG wants it: no trailing zeros."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def to_svg(puzzle: Puzzle, grid: Grid | None = None) -> str:
    """The puzzle sheet as SVG: its clues, the grid and, if `grid` is given, the filled cells.

    Filled cells are one path of horizontal runs and each kind of rule one path, so a 512x512 puzzle
    stays about a megabyte.
    """
    sheet = Sheet(puzzle, SVG_CELL)
    cell = sheet.cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{sheet.width}" height="{sheet.height}"'
        f' viewBox="0 0 {sheet.width} {sheet.height}">',
        f"<title>{escape(puzzle.name)}</title>",
        '<rect width="100%" height="100%" fill="#fff"/>',
    ]
    if grid is not None:
        runs = "".join(
            f"M{x} {y}h{x1 - x}v{cell}h-{x1 - x}z"
            for x, y, x1, _ in (sheet.cell_box(r, c, n) for r, c, n in filled_runs(grid))
        )
        if runs:
            parts.append(f'<path class="filled" fill="#000" d="{runs}"/>')
    thin, thick = sheet.rules()
    rules = (
        ("guide", sheet.guides(), "#ddd", sheet.thin),
        ("thin", thin, "#999", sheet.thin),
        ("thick", thick, "#000", sheet.thick),
    )
    for name, lines, colour, width in rules:
        if lines:
            d = "".join(f"M{_num(x0)} {_num(y0)}L{_num(x1)} {_num(y1)}" for x0, y0, x1, y1 in lines)
            parts.append(
                f'<path class="{name}" fill="none" stroke="{colour}" stroke-width="{width}"'
                f' stroke-linecap="square" shape-rendering="crispEdges" d="{d}"/>'
            )
    lift = 0.36 * sheet.font_size  # from the middle of a digit down to its baseline
    parts.append(
        f'<g class="clues" font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'
        f' font-size="{_num(sheet.font_size)}" text-anchor="middle" fill="#000">'
    )
    parts.extend(f'<text x="{_num(x)}" y="{_num(y + lift)}">{n}</text>' for x, y, n in sheet.labels())
    parts.append("</g>\n</svg>\n")
    return "\n".join(parts)


def png_cell(puzzle: Puzzle) -> int:
    """The PNG cell size: as large as fits the longer side in about PNG_SIDE pixels, within bounds."""
    cells = max(Sheet(puzzle, 2).width, Sheet(puzzle, 2).height) // 2
    return max(PNG_CELL_SMALLEST, min(PNG_CELL_LARGEST, PNG_SIDE // cells))


def _font(size: float) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1 has one small bitmap font
        return ImageFont.load_default()


def to_png(puzzle: Puzzle, grid: Grid | None = None) -> bytes:
    """The puzzle sheet as a greyscale PNG, drawn like `to_svg`; needs Pillow (`nonosat[image]`)."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise UsageError("PNG needs Pillow: pip install 'nonosat[image]'") from None
    sheet = Sheet(puzzle, png_cell(puzzle))
    image = Image.new("L", (sheet.width, sheet.height), 255)
    draw = ImageDraw.Draw(image)
    if grid is not None:
        for r, c, n in filled_runs(grid):
            x0, y0, x1, y1 = sheet.cell_box(r, c, n)
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=0)
    thin, thick = sheet.rules()
    for lines, shade, width in ((sheet.guides(), 221, sheet.thin), (thin, 153, sheet.thin), (thick, 0, sheet.thick)):
        below = width // 2  # a rule of width w covers [x - w//2, x - w//2 + w)
        for x0, y0, x1, y1 in lines:
            draw.rectangle((x0 - below, y0 - below, x1 - below + width - 1, y1 - below + width - 1), fill=shade)
    stamps = _number_stamps(sheet, {n for _, _, n in sheet.labels()})
    half = sheet.cell / 2
    for x, y, number in sheet.labels():
        image.paste(0, (round(x - half), round(y - half)), stamps[number])
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _number_stamps(sheet: Sheet, numbers: set[str]) -> dict[str, Image.Image]:
    """Each distinct clue number drawn once, centred in a cell-sized mask, to paste many times."""
    from PIL import Image, ImageDraw

    font = _font(sheet.font_size)
    stamps = {}
    for number in numbers:
        stamp = Image.new("L", (sheet.cell, sheet.cell), 0)
        pen = ImageDraw.Draw(stamp)
        x0, y0, x1, y1 = pen.textbbox((0, 0), number, font=font)
        pen.text(((sheet.cell - x0 - x1) / 2, (sheet.cell - y0 - y1) / 2), number, fill=255, font=font)
        stamps[number] = stamp
    return stamps


def check_picture_path(path: str | Path, *, force: bool = False) -> None:
    """Raise UsageError unless `path` is an .svg or .png that may be written (see `save_picture`)."""
    target = Path(path)
    kind = target.suffix.lower()
    if kind not in (".svg", ".png"):
        raise UsageError(f"{target}: a picture is .svg or .png, not {kind or 'a file without a suffix'}")
    ensure_writable(target, force=force)


def save_picture(puzzle: Puzzle, grid: Grid | None, path: str | Path, *, force: bool = False) -> None:
    """Draw the puzzle (with `grid` filled in, if given) to an .svg or .png file, atomically.

    An existing file is replaced only with `force`; otherwise this raises UsageError, before
    any drawing.
    """
    target = Path(path)
    check_picture_path(target, force=force)
    if target.suffix.lower() == ".svg":
        write_text_atomic(target, to_svg(puzzle, grid), force=force)
    else:
        write_bytes_atomic(target, to_png(puzzle, grid), force=force)
