"""Colour on SVG and PNG sheets: coloured cells, clue numbers on swatches in legible ink, a
background that is not white; black and white must look exactly as it did before colour."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from dataclasses import replace

from colour_views import GRID, PALETTE, SVG, puzzle, svg_fills

from nonosat.model import Puzzle
from nonosat.palette import Colour
from nonosat.render.sheets import Sheet, png_cell, to_png, to_svg


def test_svg_fills_each_cell_with_its_colour() -> None:
    p = puzzle()
    expected = {
        PALETTE[k].rgb: {(r, c) for r, row in enumerate(GRID) for c, v in enumerate(row) if v == k} for k in (1, 2, 3)
    }
    assert svg_fills(to_svg(p, GRID), p) == expected
    assert svg_fills(to_svg(p), p) == {}


def test_svg_clue_numbers_sit_on_swatches_with_white_text_on_dark_colours() -> None:
    p = puzzle()
    root = ET.fromstring(to_svg(p))
    swatches = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "swatches")
    clues = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "clues")
    blocks = [k for r in range(p.height) for k in p.colours_of(True, r)]
    blocks += [k for c in range(p.width) for k in p.colours_of(False, c)]
    assert [rect.get("fill") for rect in swatches] == [PALETTE[k].rgb for k in blocks]
    texts = list(clues)
    assert len(texts) == len(blocks)
    for text, k in zip(texts, blocks, strict=True):
        assert text.get("fill") == ("#fff" if PALETTE[k].is_dark else None), text.text  # None: the group's black
        rect = swatches[texts.index(text)]
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        assert float(rect.get("x", 0)) < x < float(rect.get("x", 0)) + float(rect.get("width", 0))
        assert float(rect.get("y", 0)) < y < float(rect.get("y", 0)) + float(rect.get("height", 0))
    assert clues.get("fill") == "#000"


def test_a_background_that_is_not_white_fills_the_solved_grid() -> None:
    palette = (Colour("grey", "#c0c0c0", "."), *PALETTE[1:])
    p = Puzzle.from_grid(GRID, palette=palette)
    root = ET.fromstring(to_svg(p, GRID))
    assert [r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("class") == "background"] == ["#c0c0c0"]
    assert not [r for r in ET.fromstring(to_svg(p)).iter(f"{SVG}rect") if r.get("class") == "background"]
    assert png_pixels(to_png(p, GRID), p)[0][2] == (192, 192, 192)


BW_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">
<title>2x2 puzzle</title>
<rect width="100%" height="100%" fill="#fff"/>
<path class="filled" fill="#000" d="M30 30h20v20h-20zM30 50h40v20h-40z"/>
<path class="guide" fill="none" stroke="#ddd" stroke-width="1" stroke-linecap="square" shape-rendering="crispEdges" \
d="M30 10L30 30M50 10L50 30M70 10L70 30M10 30L30 30M10 50L30 50M10 70L30 70"/>
<path class="thin" fill="none" stroke="#999" stroke-width="1" stroke-linecap="square" shape-rendering="crispEdges" \
d="M50 30L50 70M30 50L70 50"/>
<path class="thick" fill="none" stroke="#000" stroke-width="2" stroke-linecap="square" shape-rendering="crispEdges" \
d="M30 30L30 70M70 30L70 70M30 30L70 30M30 70L70 70"/>
<g class="clues" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="12" text-anchor="middle" \
fill="#000">
<text x="20" y="44.3">1</text>
<text x="20" y="64.3">2</text>
<text x="40" y="24.3">2</text>
<text x="60" y="24.3">1</text>
</g>
</svg>
"""


def test_black_and_white_svg_is_unchanged_and_png_stays_greyscale() -> None:
    from PIL import Image

    p = Puzzle.from_grid(((1, 0), (1, 1)))
    assert to_svg(p, p.goal) == BW_SVG
    assert Image.open(io.BytesIO(to_png(p, p.goal))).mode == "L"


def png_pixels(png: bytes, found: Puzzle) -> list[list[tuple[int, int, int]]]:
    """The colour at the centre of each cell of a PNG sheet."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    sheet = Sheet(found, png_cell(found))
    half = sheet.cell // 2

    def colour(x: int, y: int) -> tuple[int, int, int]:
        pixel = image.getpixel((x, y))
        assert isinstance(pixel, tuple)  # mode RGB: three numbers
        red, green, blue = pixel
        return int(red), int(green), int(blue)

    return [
        [colour(sheet.left + c * sheet.cell + half, sheet.top + r * sheet.cell + half) for c in range(found.width)]
        for r in range(found.height)
    ]


def test_png_cells_are_their_colours() -> None:
    p = puzzle()
    assert png_pixels(to_png(p, GRID), p) == [[PALETTE[v].red_green_blue for v in row] for row in GRID]


def test_png_clue_numbers_are_white_on_dark_swatches_and_black_on_light_ones() -> None:
    from PIL import Image

    p = puzzle()
    image = Image.open(io.BytesIO(to_png(p))).convert("RGB")
    sheet = Sheet(p, png_cell(p))
    seen = set()
    for x, y, _, k in sheet.labels():
        x0, y0, x1, y1 = (round(v) for v in sheet.swatch(x, y))
        box = image.crop((x0 + 2, y0 + 2, x1 - 2, y1 - 2))
        colours = {colour for _, colour in box.getcolors(box.width * box.height) or []}
        assert image.getpixel((x0 + 2, y0 + 2)) == PALETTE[k].red_green_blue  # the swatch
        ink = (255, 255, 255) if PALETTE[k].is_dark else (0, 0, 0)
        assert ink in colours, (x, y, k)  # the number, in legible ink
        seen.add(ink)
    assert len(seen) == 2


def test_a_sheet_without_a_title_is_named_by_its_files_name_not_its_folders() -> None:
    """A sheet is shared: the path as typed (`/home/me/puzzles/viceres.g`) named it (a review)."""
    untitled = replace(Puzzle.from_grid([[1, 0]]), source="/home/me/puzzles/set.txt#7")
    assert "<title>set.txt#7</title>" in to_svg(untitled)
    assert "<title>Mine</title>" in to_svg(replace(untitled, title="Mine"))
    game = replace(untitled, source="2x1:1/0/1")  # a Tatham ID's slashes are no folders (a review: "1")
    assert "<title>2x1:1/0/1</title>" in to_svg(game)
