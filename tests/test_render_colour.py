"""Colour on every display: the terminal grid (swatches, --ascii letters, two solutions side by
side), SVG and PNG sheets (coloured cells, clue numbers on swatches), and the JSON records (the
palette, background first; solutions as rows of the palette's characters). Black and white must
look exactly as it did before colour."""

from __future__ import annotations

import hashlib
import io
import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from rich.style import Style
from typer.testing import CliRunner

from nonosat.cli import app
from nonosat.formats.jsonfmt import dump_json, palette_list
from nonosat.model import Grid, Line, Puzzle, Solution
from nonosat.palette import Colour
from nonosat.render.records import (
    RECORD_KEYS,
    batch_record,
    refuted_record,
    result_record,
    solution_sha1,
    verdict_record,
)
from nonosat.render.sheets import SVG_CELL, Sheet, png_cell, to_png, to_svg
from nonosat.render.views import cell_width, fitted_grid, grid_view, half_block_grid, side_by_side
from nonosat.solver.outcome import Method, Result, Status, Verdict

SVG = "{http://www.w3.org/2000/svg}"
WHITE, BLACK_INK = "#ffffff", "#000000"
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


# The terminal


def test_each_cell_is_drawn_in_its_palette_colour() -> None:
    lines = styled(grid_view(puzzle(), GRID))
    for r, row in enumerate(GRID):
        cells = lines[len(lines) - len(GRID) + r][-2 * len(row) :]
        for c, value in enumerate(row):
            glyph = "".join(char for char, _ in cells[2 * c : 2 * c + 2])
            if value:
                assert glyph == "██" and hex_of(cells[2 * c][1]) == PALETTE[value].rgb, (r, c)
            else:
                assert glyph == "· ", (r, c)


def test_clue_numbers_sit_on_their_block_colour_in_legible_ink() -> None:
    """Row clues read, left to right, as (number, swatch colour, ink): white on navy and red,
    black on yellow."""
    p = puzzle()
    lines = styled(grid_view(p, GRID))
    inks = set()
    for r in range(p.height):
        line = lines[len(lines) - p.height + r][: -2 * p.width]
        digits = [(char, hex_of(style, True), hex_of(style)) for char, style in line if char.isdigit()]
        expected = [
            (str(n), PALETTE[k].rgb, WHITE if PALETTE[k].is_dark else BLACK_INK)
            for n, k in zip(p.rows[r], p.colours_of(True, r), strict=True)
        ]
        assert digits == expected
        inks |= {ink for _, _, ink in digits}
    assert inks == {WHITE, BLACK_INK}  # the test covers both a dark and a light colour


def test_column_clues_are_on_swatches_above_their_column() -> None:
    p = puzzle()
    lines = styled(grid_view(p, GRID))
    depth = len(lines) - p.height
    start = len(lines[-1]) - 2 * p.width
    for c in range(p.width):
        column = [line[start + 2 * c : start + 2 * c + 2] for line in lines[:depth]]
        found = [(char, hex_of(style, True)) for pair in column for char, style in pair if char.isdigit()]
        assert found == [(str(n), PALETTE[k].rgb) for n, k in zip(p.columns[c], p.colours_of(False, c), strict=True)]


def test_ascii_cells_are_the_palette_characters_with_no_colour_codes() -> None:
    p = puzzle()
    text = ansi(grid_view(p, GRID, ascii_cells=True))
    assert "\x1b" not in text
    lines = text.rstrip("\n").split("\n")
    width = cell_width(p, [[("2y", None)]], ascii_cells=True)
    assert width == 3  # "2y" and one space, so that neighbouring column clues stay apart
    rows = [line[-p.width * width :] for line in lines[-p.height :]]
    assert [row[::width] for row in rows] == ["".join(PALETTE[v].char for v in row) for row in GRID]
    assert lines[-p.height].lstrip().startswith("2n 2y ")  # row 1's clue names its colours


def test_a_marked_cell_in_colour_is_an_x_on_its_own_colour() -> None:
    lines = styled(grid_view(puzzle(), GRID, highlight=DIFFER))
    for r, c in DIFFER:
        cells = lines[len(lines) - len(GRID) + r][-2 * len(GRID[0]) :]
        assert "".join(char for char, _ in cells[2 * c : 2 * c + 2]) == "XX"
        assert hex_of(cells[2 * c][1], True) == PALETTE[GRID[r][c]].rgb


def test_marked_lines_keep_their_swatches_and_get_pointers() -> None:
    p = puzzle()
    lines = styled(grid_view(p, None, lines=[Line("row", 1), Line("column", 3)]))
    text = ["".join(char for char, _ in line) for line in lines]
    assert text[-4].endswith(" <") and text[-1].strip() == "^"  # row 2 of 4, then the column pointer
    assert all(hex_of(style, True) for char, style in lines[-4] if char.isdigit())


def test_side_by_side_in_colour_marks_the_differing_cells_on_both() -> None:
    p = puzzle()
    view = side_by_side(p, GRID, OTHER, width=100)
    assert view is not None
    marks = [
        (hex_of(style, True))
        for line in styled(view, 100)
        for i, (char, style) in enumerate(line)
        if char == "X" and line[i + 1][0] == "X"
    ]
    expected = sorted(PALETTE[g[r][c]].rgb for g in (GRID, OTHER) for r, c in DIFFER)
    assert sorted(m for m in marks if m) == expected


def test_side_by_side_ascii_in_colour_adds_a_grid_of_the_cells_that_differ() -> None:
    p = puzzle()
    view = side_by_side(p, GRID, OTHER, width=100, ascii_cells=True)
    assert view is not None
    text = ansi(view, 100)
    assert "\x1b" not in text
    lines = text.rstrip("\n").split("\n")
    assert lines[0].split() == ["solution", "1", "solution", "2", "differ"]
    grids = list(zip(*(line.split() for line in lines[1:]), strict=True))
    chars = ["".join(PALETTE[v].char for v in row) for row in GRID]
    assert list(grids[0]) == chars
    assert list(grids[1]) == ["".join(PALETTE[v].char for v in row) for row in OTHER]
    assert [(r, c) for r, row in enumerate(grids[2]) for c, mark in enumerate(row) if mark == "X"] == DIFFER


def decode_half_blocks(lines: list[list[tuple[str, Style | None]]], palette: tuple[Colour, ...]) -> list[list[int]]:
    index = {colour.rgb: k for k, colour in enumerate(palette)}
    rows: list[list[int]] = []
    for line in lines:
        top, bottom = [], []
        for char, style in line:
            fg, bg = hex_of(style), hex_of(style, True)
            top.append(index[fg] if char in "▀█" and fg else 0)
            lower = fg if char in "▄█" else bg if char == "▀" else None
            bottom.append(index[lower] if lower else 0)
        rows += [top, bottom]
    return rows


def test_half_blocks_in_colour_decode_back_to_the_grid() -> None:
    generator = random.Random(16)
    for _ in range(30):
        height, width = generator.randint(1, 7), generator.randint(1, 7)
        grid = tuple(tuple(generator.randint(0, 3) for _ in range(width)) for _ in range(height))
        decoded = decode_half_blocks(styled(half_block_grid(grid, PALETTE)), PALETTE)
        assert decoded[:height] == [list(row) for row in grid]
        assert not any(decoded[height:][0] if len(decoded) > height else [])


def test_a_colour_grid_too_wide_for_its_clues_is_drawn_in_coloured_half_blocks_or_letters() -> None:
    p = puzzle()
    view = fitted_grid(p, GRID, False, p.width)
    assert view is not None
    assert decode_half_blocks(styled(view), PALETTE)[: p.height] == [list(row) for row in GRID]
    letters = fitted_grid(p, GRID, True, p.width)
    assert letters is not None
    assert ansi(letters).split() == ["".join(PALETTE[v].char for v in row) for row in GRID]


# Black and white is drawn exactly as before colour (these strings are the output of the code
# before colour, on a truecolor terminal).

BW: Grid = ((1, 1, 0, 1), (0, 1, 1, 1), (1, 0, 0, 0))
BW_OTHER: Grid = ((1, 1, 0, 1), (0, 1, 1, 1), (0, 1, 0, 0))
BW_VIEWS = [
    "    \x1b[36m 1\x1b[0m\x1b[36m  \x1b[0m\x1b[1;31m  \x1b[0m\x1b[36m  \x1b[0m\n    \x1b[36m 1\x1b[0m"
    "\x1b[36m 2\x1b[0m\x1b[1;31m 1\x1b[0m\x1b[36m 2\x1b[0m\n\x1b[36m2 1 \x1b[0m██\x1b[1;31m██\x1b[0m· █"
    "█\n\x1b[1;31m  3 \x1b[0m· ██████\n\x1b[36m  1 \x1b[0m██· · · \n",
    "    1   \n    1212\n2 1 ##.#\n  3 .### <\n  1 #...\n      ^\n",
    "\x1b[1msolution 1  \x1b[0m    \x1b[1msolution 2  \x1b[0m\n    \x1b[36m 1\x1b[0m\x1b[36m  \x1b[0m"
    "\x1b[36m  \x1b[0m\x1b[36m  \x1b[0m        \x1b[36m 1\x1b[0m\x1b[36m  \x1b[0m\x1b[36m  \x1b[0m\x1b["
    "36m  \x1b[0m\n    \x1b[36m 1\x1b[0m\x1b[36m 2\x1b[0m\x1b[36m 1\x1b[0m\x1b[36m 2\x1b[0m        \x1b"
    "[36m 1\x1b[0m\x1b[36m 2\x1b[0m\x1b[36m 1\x1b[0m\x1b[36m 2\x1b[0m\n\x1b[36m2 1 \x1b[0m████· ██    "
    "\x1b[36m2 1 \x1b[0m████· ██\n\x1b[36m  3 \x1b[0m· ██████    \x1b[36m  3 \x1b[0m· ██████\n\x1b[36m "
    " 1 \x1b[0m\x1b[1;31m██\x1b[0m\x1b[1;31m· \x1b[0m· ·     \x1b[36m  1 \x1b[0m\x1b[1;31m· \x1b[0m\x1b"
    "[1;31m██\x1b[0m· · \n",
    "solution 1    solution 2\n##.#          ##.#      \n.###          .###      \nXo..          oX..      \n",
    "\x1b[1msolution 1\x1b[0m    \x1b[1msolution 2\x1b[0m\n██·█          ██·█      \n·███          ·███"
    "      \n\x1b[1;31m█\x1b[0m\x1b[1;31m·\x1b[0m··          \x1b[1;31m·\x1b[0m\x1b[1;31m█\x1b[0m··    "
    "  \n",
    "▀█▄█\n▀   \n",
    "▀█▄█\n▀   \n",
    "##.#\n.###\n#...\n",
]


def test_black_and_white_views_are_unchanged() -> None:
    p = Puzzle.from_grid(BW)
    marks = {"highlight": [(0, 1)], "lines": [Line("row", 1), Line("column", 2)]}
    views = [
        grid_view(p, BW, **marks),  # type: ignore[arg-type]
        grid_view(p, BW, ascii_cells=True, **marks),  # type: ignore[arg-type]
        side_by_side(p, BW, BW_OTHER, width=60),
        side_by_side(p, BW, BW_OTHER, width=60, ascii_cells=True),
        side_by_side(p, BW, BW_OTHER, width=12),
        half_block_grid(BW),
        fitted_grid(p, BW, False, 5),
        fitted_grid(p, BW, True, 5),
    ]
    assert [ansi(view, 60) for view in views if view is not None] == BW_VIEWS


# SVG and PNG


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
    return [
        [
            image.getpixel((sheet.left + c * sheet.cell + half, sheet.top + r * sheet.cell + half))
            for c in range(found.width)
        ]  # type: ignore[misc]
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


# JSON records


def test_a_colour_result_carries_its_palette_background_first_and_rows_of_its_characters() -> None:
    p = puzzle()
    record = result_record(result_of(p, GRID), "p.json")
    assert list(record)[:4] == ["path", "width", "height", "palette"]
    assert record["palette"] == [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in PALETTE]
    assert record["palette"][0]["name"] == "white"
    assert record["palette"] == palette_list(p) == json.loads(dump_json(p))["palette"]
    assert record["solutions"] == [["nn.yy", ".yrr.", "r.nyn", "yyy.."]]
    assert json.loads(json.dumps(record)) == record
    verdict = verdict_record(Verdict(result_of(p, GRID, OTHER, status=Status.MULTIPLE), None), "p", None, None, False)
    assert verdict["palette"] == record["palette"] and len(verdict["solutions"]) == 2
    assert verdict["differences"] == [[1, 1], [2, 1]]
    refuted = refuted_record(p, ["no"], "p", None, None)
    assert refuted["palette"] == record["palette"]


def test_black_and_white_records_are_unchanged() -> None:
    p = Puzzle.from_grid(BW)
    record = result_record(result_of(p, BW), "bw.non")
    assert list(record) == [
        "path",
        "width",
        "height",
        "status",
        "method",
        "solutions",
        "count_is_exact",
        "seconds",
        "stats",
        "cut_short",
    ]
    assert record["solutions"] == [["##.#", ".###", "#..."]]
    batch = batch_record("bw.non", p, result_of(p, BW))
    assert list(batch) == list(RECORD_KEYS)
    assert batch["solution_sha1"] == hashlib.sha1(b"##.#\n.###\n#...").hexdigest()
    assert "palette" not in refuted_record(p, ["no"], "bw", None, None)


def test_a_colour_batch_record_carries_the_palette_and_hashes_the_colours() -> None:
    p = puzzle()
    record = batch_record("p.json", p, result_of(p, GRID))
    assert list(record) == [*RECORD_KEYS, "palette"]
    assert record["palette"] == palette_list(p)
    assert record["solution_sha1"] == hashlib.sha1(b"nn.yy\n.yrr.\nr.nyn\nyyy..").hexdigest()
    swapped = tuple(tuple({1: 3, 3: 1}.get(v, v) for v in row) for row in GRID)  # same shape, other colours
    assert solution_sha1(swapped, PALETTE) != record["solution_sha1"]
    assert batch_record("p.json", p, error="unreadable")["palette"] == record["palette"]


# The command line, on a colour puzzle file (line logic solves it)


@pytest.fixture
def colour_file(tmp_path: Path) -> Path:
    path = tmp_path / "colour.json"
    path.write_text(dump_json(puzzle()))
    return path


def test_solve_shows_a_colour_puzzle_in_letters_and_its_json(colour_file: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["solve", str(colour_file), "--ascii"])
    assert shown.exit_code == 0, shown.output
    rows = ["".join(PALETTE[v].char for v in row) for row in GRID]
    width = cell_width(puzzle(), [[("2y", None)]], True)
    lines = shown.stdout.split("\n")
    assert [line[-len(GRID[0]) * width :][::width] for line in lines[-2 - len(GRID) : -2]] == rows
    data = json.loads(runner.invoke(app, ["solve", str(colour_file), "--format", "json"]).stdout)
    assert data["palette"] == palette_list(puzzle()) and data["solutions"] == [rows]


def test_render_draws_a_colour_puzzle(colour_file: Path, tmp_path: Path) -> None:
    svg = tmp_path / "colour.svg"
    result = CliRunner().invoke(app, ["render", str(colour_file), "--solution", "-o", str(svg)])
    assert result.exit_code == 0, result.output
    assert set(svg_fills(svg.read_text(), puzzle())) == {c.rgb for c in PALETTE[1:]}
