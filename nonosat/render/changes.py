"""What the generator changed, drawn: the picture it started from beside the final one, with the
changed cells marked (added in one colour, removed in another), as SVG or PNG."""

from __future__ import annotations

import io
from pathlib import Path

from nonosat.deadline import NO_DEADLINE, Deadline, finished_by
from nonosat.errors import UsageError
from nonosat.formats.atomic import write_bytes_atomic, write_text_atomic
from nonosat.model import Grid
from nonosat.palette import Palette
from nonosat.render.sheets import check_picture_path

ADDED = "#1f9e4a"
"""Cells the generator filled (in colour: a blank cell given a colour), marked green."""
REMOVED = "#d7263d"
"""Cells it emptied, marked red."""
RECOLOURED = "#f28c28"
"""In colour, cells it gave another colour, marked orange."""
CELL = 16
"""Pixels a cell, at least: small grids get larger cells, so that the captions fit."""
CAPTION_WIDTH = 280
"""Pixels the longer caption needs."""
GAP = 2
"""Cells between the two pictures."""
CAPTION = 28
"""Pixels above the pictures for their captions."""


def marks(start: Grid, final: Grid) -> list[tuple[int, int, str]]:
    """Each changed cell (row, column) with the colour that marks it."""
    found = []
    for r, (before_row, after_row) in enumerate(zip(start, final, strict=True)):
        for c, (before, after) in enumerate(zip(before_row, after_row, strict=True)):
            if before != after:
                found.append((r, c, ADDED if not before else REMOVED if not after else RECOLOURED))
    return found


CLOSE = 150
"""How near (the distance of two RGB colours, 0-441) a cell's own colour may come to its mark's
before the mark gets a ring of its own inside it: a green cell's green mark was invisible (an
author's review)."""


def _ring(mark: str, fill: str) -> str | None:
    """The colour of a thin ring inside a mark on a cell of colour `fill`: black or white, the
    one that stands out on it; None where the mark stands out by itself."""
    a, b = (tuple(int(rgb[i : i + 2], 16) for i in (1, 3, 5)) for rgb in (mark, fill))
    if sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 > CLOSE:
        return None
    return "#000000" if 0.299 * b[0] + 0.587 * b[1] + 0.114 * b[2] > 140 else "#ffffff"


def _layout(start: Grid) -> tuple[int, int, int, int]:
    """The picture's width and height in pixels, where the second picture starts, and the cell."""
    height, width = len(start), len(start[0])
    cell = max(CELL, -(-CAPTION_WIDTH // width))
    return (2 * width + GAP) * cell, height * cell + CAPTION, (width + GAP) * cell, cell


def _legend(found: list[tuple[int, int, str]]) -> list[tuple[str, str]]:
    """The caption of the final picture, as (text, colour) pieces."""
    pieces = [("the puzzle: ", "#000000"), ("added", ADDED), (", ", "#000000"), ("removed", REMOVED)]
    if any(mark == RECOLOURED for _, _, mark in found):
        pieces += [(", ", "#000000"), ("recoloured", RECOLOURED)]
    return pieces


def _fill(palette: Palette, colour: int) -> str:
    return palette[colour].rgb if colour else "#ffffff"


def changes_svg(start: Grid, final: Grid, palette: Palette) -> str:
    """The two pictures as SVG: the start on the left, the final one on the right with each
    changed cell outlined in its mark's colour and crossed when emptied."""
    total_width, total_height, second, cell = _layout(start)
    found = marks(start, final)
    legend = "".join(f'<tspan fill="{ink}">{text}</tspan>' for text, ink in _legend(found))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_width}" height="{total_height}"'
        f' viewBox="0 0 {total_width} {total_height}">',
        f'<rect width="{total_width}" height="{total_height}" fill="#ffffff"/>',
        '<text x="0" y="18" font-family="sans-serif" font-size="14">the picture</text>',
        f'<text x="{second}" y="18" font-family="sans-serif" font-size="14" xml:space="preserve">{legend}</text>',
    ]
    for left, grid in ((0, start), (second, final)):
        height, width = len(grid), len(grid[0])
        parts.append(
            f'<rect x="{left}" y="{CAPTION}" width="{width * cell}" height="{height * cell}" fill="#ffffff"'
            ' stroke="#999999"/>'
        )
        for r, row in enumerate(grid):
            for c, colour in enumerate(row):
                if colour:
                    x, y = left + c * cell, CAPTION + r * cell
                    fill = _fill(palette, colour)
                    parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}"/>')
    for r, c, mark in found:
        x, y = second + c * cell, CAPTION + r * cell
        parts.append(
            f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{cell - 3}" height="{cell - 3}" fill="none" stroke="{mark}"'
            ' stroke-width="3"/>'
        )
        ring = _ring(mark, _fill(palette, final[r][c]))
        if ring is not None:
            inner = f'x="{x + 3.5}" y="{y + 3.5}" width="{cell - 7}" height="{cell - 7}"'
            parts.append(f'<rect {inner} fill="none" stroke="{ring}"/>')
        if mark == REMOVED:
            parts.append(f'<path d="M{x + 4} {y + 4}L{x + cell - 4} {y + cell - 4}" stroke="{mark}" stroke-width="2"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def changes_png(start: Grid, final: Grid, palette: Palette) -> bytes:
    """The two pictures as PNG, drawn like `changes_svg`; needs Pillow (`nonosat[image]`)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UsageError("PNG needs Pillow: pip install 'nonosat[image]'") from None
    total_width, total_height, second, cell = _layout(start)
    found = marks(start, final)
    image = Image.new("RGB", (total_width, total_height), "#ffffff")
    pen = ImageDraw.Draw(image)
    try:
        font: ImageFont.ImageFont | ImageFont.FreeTypeFont = ImageFont.load_default(size=14)
    except TypeError:  # Pillow before 10.1
        font = ImageFont.load_default()
    pen.text((0, 6), "the picture", fill="#000000", font=font)
    x = float(second)
    for text, ink in _legend(found):
        pen.text((x, 6), text, fill=ink, font=font)
        x += pen.textlength(text, font=font)
    for left, grid in ((0, start), (second, final)):
        height, width = len(grid), len(grid[0])
        pen.rectangle((left, CAPTION, left + width * cell - 1, CAPTION + height * cell - 1), outline="#999999")
        for r, row in enumerate(grid):
            for c, colour in enumerate(row):
                if colour:
                    x0, y0 = left + c * cell, CAPTION + r * cell
                    pen.rectangle((x0, y0, x0 + cell - 1, y0 + cell - 1), fill=_fill(palette, colour))
    for r, c, mark in found:
        x0, y0 = second + c * cell, CAPTION + r * cell
        pen.rectangle((x0, y0, x0 + cell - 1, y0 + cell - 1), outline=mark, width=3)
        ring = _ring(mark, _fill(palette, final[r][c]))
        if ring is not None:
            pen.rectangle((x0 + 3, y0 + 3, x0 + cell - 4, y0 + cell - 4), outline=ring)
        if mark == REMOVED:
            pen.line((x0 + 4, y0 + 4, x0 + cell - 5, y0 + cell - 5), fill=mark, width=2)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def save_changes(
    start: Grid,
    final: Grid,
    palette: Palette,
    path: str | Path,
    *,
    force: bool = False,
    deadline: Deadline = NO_DEADLINE,
) -> None:
    """Draw the two pictures to an .svg or .png file, atomically (an existing file only with
    `force`). The drawing is held to `deadline` (TimeUp, and nothing written, when it passes)."""
    target = Path(path)
    check_picture_path(target, force=force)
    svg = target.suffix.lower() == ".svg"
    drawn: str | bytes = finished_by(  # Pillow's encoding of a big picture hears no timer signal
        deadline,
        f"drawing {target.name}",
        lambda: changes_svg(start, final, palette) if svg else changes_png(start, final, palette),
    )
    if isinstance(drawn, str):
        write_text_atomic(target, drawn, force=force)
    else:
        write_bytes_atomic(target, drawn, force=force)
