"""Pictures of a puzzle laid out as printed: the empty sheet with its clues, or the solved picture.

One layout, `Sheet`, places the cells, the rules and the clue numbers; `to_svg` (our own small
writer) and `to_png` (Pillow, imported only when needed) draw it. In colour, each cell is filled
with its colour and each clue number sits on a swatch of its block's colour, in white on dark
colours and black on light ones, as printed colour puzzles are; black and white is drawn as
before, in grey levels.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePath
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import UsageError
from nonosat.formats.atomic import ensure_writable, write_bytes_atomic, write_text_atomic
from nonosat.model import Clue, Grid, Puzzle
from nonosat.text import printable

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

Label = tuple[float, float, str, int]
"""A clue number: the centre of its box, the number, and its block's colour (a palette index; 0
for the "0" of an empty line)."""

SWATCH_EDGE = "#999"
"""The outline of a swatch, so that a light colour still shows on the white page."""


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

    def labels(self) -> Iterator[Label]:
        """Each clue number with the centre of its box and its colour: rows top to bottom, then
        columns."""
        half = self.cell / 2
        for r, clue in enumerate(self.puzzle.rows):
            numbers = clue_numbers(clue)
            colours = self.puzzle.colours_of(True, r) or (0,)
            for i, (number, colour) in enumerate(zip(numbers, colours, strict=True)):
                yield self.left - (len(numbers) - i) * self.cell + half, self.top + r * self.cell + half, number, colour
        for c, clue in enumerate(self.puzzle.columns):
            numbers = clue_numbers(clue)
            colours = self.puzzle.colours_of(False, c) or (0,)
            for i, (number, colour) in enumerate(zip(numbers, colours, strict=True)):
                yield self.left + c * self.cell + half, self.top - (len(numbers) - i) * self.cell + half, number, colour

    def swatch(self, x: float, y: float) -> tuple[float, float, float, float]:
        """The box (x0, y0, x1, y1) of the swatch under a clue number centred at (x, y): its
        cell-sized box less a margin, so that two swatches of one colour stay apart."""
        half = self.cell / 2 - max(1, self.cell // 10)
        return x - half, y - half, x + half, y + half

    @property
    def grid_box(self) -> tuple[int, int, int, int]:
        """The box (x0, y0, x1, y1) of the whole grid."""
        return (
            self.cell_box(0, 0, self.puzzle.width)[:2] + self.cell_box(self.puzzle.height - 1, 0, self.puzzle.width)[2:]
        )

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


def filled_runs(grid: Grid) -> Iterator[tuple[int, int, int, int]]:
    """Each horizontal run of filled cells of one colour as (row, first column, length, colour)."""
    for r, row in enumerate(grid):
        start = 0
        for c, value in enumerate((*row, 0)):
            if c and value != row[c - 1]:
                if row[c - 1]:
                    yield r, start, c - start, row[c - 1]
                start = c


def _num(value: float) -> str:
    """A coordinate as SVG wants it: no trailing zeros."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


GAME_ID = re.compile(r"\d+x\d+:")
"""The start of a Tatham game ID, read as a puzzle's source (`4x4:2/1/...`)."""


def sheet_title(puzzle: Puzzle) -> str:
    """A sheet's title: the puzzle's, else its file's name without the folders it was read from
    (a sheet is shared: a review found `/work/.../viceres.g` in one), else its size."""
    if puzzle.title or not puzzle.source or GAME_ID.match(puzzle.source):  # a Tatham ID's slashes are no folders
        return puzzle.name
    return printable(PurePath(puzzle.source).name or puzzle.source)  # as Puzzle.name shows a source


def to_svg(puzzle: Puzzle, grid: Grid | None = None) -> str:
    """The puzzle sheet as SVG: its clues, the grid and, if `grid` is given, the filled cells.

    Filled cells are one path of horizontal runs and each kind of rule one path, so a 512x512 puzzle
    stays about a megabyte.
    """
    sheet = Sheet(puzzle, SVG_CELL)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{sheet.width}" height="{sheet.height}"'
        f' viewBox="0 0 {sheet.width} {sheet.height}">',
        f"<title>{escape(sheet_title(puzzle))}</title>",
        '<rect width="100%" height="100%" fill="#fff"/>',
    ]
    if grid is not None:
        parts.extend(_svg_cells(sheet, grid))
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
    if puzzle.is_colour:
        parts.extend(_svg_swatches(sheet))
    parts.append(
        f'<g class="clues" font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'
        f' font-size="{_num(sheet.font_size)}" text-anchor="middle" fill="#000">'
    )
    parts.extend(
        f'<text x="{_num(x)}" y="{_num(y + lift)}"{_svg_text_fill(puzzle, k)}>{n}</text>'
        for x, y, n, k in sheet.labels()
    )
    parts.append("</g>\n</svg>\n")
    return "\n".join(parts)


def _svg_cells(sheet: Sheet, grid: Grid) -> list[str]:
    """The filled cells: one path of horizontal runs per colour (black, in black and white), on
    the background's colour when it is not white."""
    puzzle, cell = sheet.puzzle, sheet.cell
    found: dict[int, list[str]] = {}
    for r, c, n, colour in filled_runs(grid):
        x, y, x1, _ = sheet.cell_box(r, c, n)
        found.setdefault(colour, []).append(f"M{x} {y}h{x1 - x}v{cell}h-{x1 - x}z")
    if not puzzle.is_colour:
        return [f'<path class="filled" fill="#000" d="{"".join(runs)}"/>' for runs in found.values()]
    background = puzzle.palette[0].rgb
    x0, y0, x1, y1 = sheet.grid_box
    parts = []
    if background != "#ffffff":
        box = f'x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}"'
        parts.append(f'<rect class="background" {box} fill="{background}"/>')
    parts += [
        f'<path class="filled" fill="{puzzle.palette[colour].rgb}" d="{"".join(found[colour])}"/>'
        for colour in sorted(found)
    ]
    return parts


def on_dark(puzzle: Puzzle, colour: int) -> bool:
    """Whether a clue number of this colour is written in white: on a dark swatch, in colour."""
    return puzzle.is_colour and colour > 0 and puzzle.palette[colour].is_dark


def _svg_text_fill(puzzle: Puzzle, colour: int) -> str:
    """A clue number's fill attribute: white on a dark swatch; else none (the group's black)."""
    return ' fill="#fff"' if on_dark(puzzle, colour) else ""


def _svg_swatches(sheet: Sheet) -> list[str]:
    """A swatch of its block's colour under each clue number of a colour puzzle."""
    palette = sheet.puzzle.palette
    rects = []
    for x, y, _, colour in sheet.labels():
        if colour:
            x0, y0, x1, y1 = sheet.swatch(x, y)
            rects.append(
                f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" height="{_num(y1 - y0)}"'
                f' fill="{palette[colour].rgb}"/>'
            )
    return [f'<g class="swatches" stroke="{SWATCH_EDGE}" stroke-width="{sheet.thin}">', *rects, "</g>"]


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
    """The puzzle sheet as a PNG, drawn like `to_svg` (greyscale in black and white); needs
    Pillow (`nonosat[image]`)."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise UsageError("PNG needs Pillow: pip install 'nonosat[image]'") from None
    sheet = Sheet(puzzle, png_cell(puzzle))
    colour, palette = puzzle.is_colour, puzzle.palette

    def grey(level: int) -> int | tuple[int, int, int]:
        return (level, level, level) if colour else level

    image = Image.new("RGB" if colour else "L", (sheet.width, sheet.height), grey(255))
    draw = ImageDraw.Draw(image)
    if grid is not None:
        if colour and palette[0].rgb != "#ffffff":
            x0, y0, x1, y1 = sheet.grid_box
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=palette[0].red_green_blue)
        for r, c, n, k in filled_runs(grid):
            x0, y0, x1, y1 = sheet.cell_box(r, c, n)
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=palette[k].red_green_blue if colour else 0)
    thin, thick = sheet.rules()
    for lines, shade, width in ((sheet.guides(), 221, sheet.thin), (thin, 153, sheet.thin), (thick, 0, sheet.thick)):
        below = width // 2  # a rule of width w covers [x - w//2, x - w//2 + w)
        for x0, y0, x1, y1 in lines:
            draw.rectangle((x0 - below, y0 - below, x1 - below + width - 1, y1 - below + width - 1), fill=grey(shade))
    labels = list(sheet.labels())
    if colour:
        for x, y, _, k in labels:
            if k:
                box = tuple(round(v) for v in sheet.swatch(x, y))
                draw.rectangle(
                    (box[0], box[1], box[2] - 1, box[3] - 1), fill=palette[k].red_green_blue, outline=grey(153)
                )
    stamps = _number_stamps(sheet, {n for _, _, n, _ in labels})
    half = sheet.cell / 2
    for x, y, number, k in labels:
        image.paste(grey(255 if on_dark(puzzle, k) else 0), (round(x - half), round(y - half)), stamps[number])
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
    if str(path) == "-":  # a review: "-: ... not a file without a suffix"
        raise UsageError("a picture is written to a file (.svg or .png), not to standard output")
    if target.is_dir():
        raise UsageError(f"{target} is a folder, not a file")
    if kind not in (".svg", ".png"):
        raise UsageError(f"{target}: a picture is .svg or .png, not {kind or 'a file without a suffix'}")
    ensure_writable(target, force=force)


def save_picture(
    puzzle: Puzzle, grid: Grid | None, path: str | Path, *, force: bool = False, deadline: Deadline = NO_DEADLINE
) -> None:
    """Draw the puzzle (with `grid` filled in, if given) to an .svg or .png file, atomically.

    An existing file is replaced only with `force`; otherwise this raises UsageError, before
    any drawing. The drawing is held to `deadline` (TimeUp, and nothing written, when it passes).
    """
    from nonosat.deadline import finished_by

    target = Path(path)
    check_picture_path(target, force=force)
    svg = target.suffix.lower() == ".svg"
    drawn: str | bytes = finished_by(  # Pillow's encoding of a big picture hears no timer signal
        deadline, f"drawing {target.name}", lambda: to_svg(puzzle, grid) if svg else to_png(puzzle, grid)
    )
    if isinstance(drawn, str):
        write_text_atomic(target, drawn, force=force)
    else:
        write_bytes_atomic(target, drawn, force=force)
