"""The generator's changes drawn: a mark stands out on every cell, whatever its colour (an
author's review found a green cell's green mark invisible)."""

from __future__ import annotations

import io

import pytest

from nonosat.palette import Colour
from nonosat.render.changes import ADDED, CELL, changes_png, changes_svg

WHITE = Colour("white", "#ffffff", ".")
GREEN = Colour("green", "#119944", "g")  # near ADDED
BLACK = Colour("black", "#000000", "#")


def test_a_mark_on_a_cell_of_its_own_colour_gets_a_ring_inside() -> None:
    start, final = ((0, 2),), ((1, 2),)  # the first cell made green, the second black all along
    svg = changes_svg(start, final, (WHITE, GREEN, BLACK))
    assert svg.count(f'stroke="{ADDED}"') == 1
    assert svg.count('fill="none" stroke="#ffffff"/>') + svg.count('fill="none" stroke="#000000"/>') == 1
    plain = changes_svg(start, ((2, 2),), (WHITE, GREEN, BLACK))  # made black: the green mark shows
    assert plain.count('fill="none" stroke="#ffffff"/>') + plain.count('fill="none" stroke="#000000"/>') == 0


def test_the_png_draws_the_ring_too() -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    start, final = ((0, 0, 0),), ((1, 0, 0),)
    image = Image.open(io.BytesIO(changes_png(start, final, (WHITE, GREEN, BLACK)))).convert("RGB")
    cell = max(CELL, -(-280 // 3))
    x0, y0 = (3 + 2) * cell, 28  # the final picture's first cell
    ring = image.getpixel((x0 + cell // 2, y0 + 3))
    inside = image.getpixel((x0 + cell // 2, y0 + cell // 2))
    assert inside == (0x11, 0x99, 0x44) and ring != inside
