"""Colour on the terminal: swatches, clue numbers on their block's colour, --ascii letters, marks,
two solutions side by side and half blocks; black and white must look exactly as it did before
colour."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from colour_views import BW, DIFFER, GRID, OTHER, PALETTE, ansi, hex_of, puzzle, styled
from rich.style import Style

from nonosat import load
from nonosat.model import Grid, Line, Puzzle
from nonosat.palette import Colour
from nonosat.render.views import cell_width, fitted_grid, grid_view, grid_width, half_block_grid, side_by_side

WHITE, BLACK_INK = "#ffffff", "#000000"

ROOT = Path(__file__).resolve().parent.parent


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


def test_every_cell_is_drawn_on_the_puzzles_background_not_the_terminals() -> None:
    """Black cells with no background of their own vanished in a dark terminal (a review): every
    cell, blank or filled, in the grid view and in half blocks, sits on the palette's background."""
    lines = styled(grid_view(puzzle(), GRID))
    cells = [line[-2 * len(GRID[0]) :] for line in lines[len(lines) - len(GRID) :]]
    grounds = {hex_of(style, True) for line in cells for _, style in line}
    halves = [
        hex_of(style, True) for line in styled(half_block_grid(((0, 0), (0, 1), (1, 0)), PALETTE)) for _, style in line
    ]
    assert grounds == {PALETTE[0].rgb} and halves == [PALETTE[0].rgb, PALETTE[1].rgb, PALETTE[0].rgb, PALETTE[0].rgb]


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


@pytest.mark.parametrize("background", [".", "+"])
def test_ascii_cells_are_the_palette_characters_with_no_colour_codes(background: str) -> None:
    """Every cell is its colour's character, the background's too: Olsak's dvekocky.g has white
    `+` and black `.`, and both were drawn `.` (found by a review)."""
    mine = (Colour("white", "#ffffff", "+"), Colour("navy", "#000080", "."))
    palette: tuple[Colour, ...] = PALETTE if background == "." else mine + PALETTE[len(mine) :]
    p = Puzzle.from_grid(GRID, palette=palette)
    text = ansi(grid_view(p, GRID, ascii_cells=True))
    assert "\x1b" not in text
    lines = text.rstrip("\n").split("\n")
    width = cell_width(p, [[("2y", None)]], ascii_cells=True)
    assert width == 3  # "2y" and one space, so that neighbouring column clues stay apart
    rows = [line[-p.width * width :] for line in lines[-p.height :]]
    assert [row[::width] for row in rows] == ["".join(palette[v].char for v in row) for row in GRID]
    assert lines[-p.height].lstrip().startswith(f"2{palette[1].char} 2y ")  # row 1's clue names its colours


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
    assert [same_look(ansi(view, 60)) for view in views if view is not None] == list(map(same_look, BW_VIEWS))


def same_look(text: str) -> str:
    """ANSI text with neighbouring spans of one style joined into one: a terminal shows the same
    (the grid's runs of cells of one style are one span each since a 512x512 grid took seconds)."""
    import re

    while True:
        joined = re.sub(r"(\x1b\[[0-9;]+m)([^\x1b]*)\x1b\[0m\1", r"\1\2", text)
        if joined == text:
            return text
        text = joined


def test_a_large_grid_is_drawn_a_run_of_one_look_at_a_time() -> None:
    """A review found `check` on a 512x512 colour grid spending a second drawing each of its two
    solutions: a span a cell (262,144 of them) for rich to lay out. Each run of cells of one
    look is one span now, the cells where two grids differ still marked one by one."""
    from nonosat.render.views import plain_grid

    side = 300
    grid = tuple(tuple(1 + (c >= side // 3) + (c >= 2 * side // 3) for c in range(side)) for _ in range(side))
    marked = [(5, 7), (5, 8), (200, 150)]
    for view in (
        plain_grid(grid, ascii_cells=False, palette=PALETTE, highlight=marked),
        half_block_grid(grid, PALETTE),
    ):
        assert len(view.spans) <= 3 * side + 2 * len(marked)
    cells = styled(plain_grid(grid, ascii_cells=False, palette=PALETTE, highlight=marked), width=side)
    assert [(r, c) for r, line in enumerate(cells) for c, (char, _) in enumerate(line) if char == "X"] == marked
    assert all(hex_of(cells[r][c][1], True) == PALETTE[grid[r][c]].rgb for r, c in marked)


@pytest.mark.parametrize("ascii_cells", [False, True])
def test_column_clues_of_two_digits_stay_apart_and_filled_rows_stay_solid(ascii_cells: bool) -> None:
    """A review: columns of clues 10 and 11 were headed "1011" (each column as wide as its widest
    number, no gap), with and without --ascii."""
    grid = tuple((0, 1) if r == 0 else (1, 1) for r in range(11)) + ((0, 0),)
    twelve = Puzzle.from_grid(grid)
    assert [list(clue) for clue in twelve.columns] == [[10], [11]]
    lines = grid_view(twelve, grid, ascii_cells=ascii_cells).plain.splitlines()
    assert lines[0].split() == ["10", "11"]
    assert lines[2].endswith("# #  " if ascii_cells else "█████"), lines  # no gap in a filled row without --ascii
    # only the column whose number touches its neighbour's widens (the mends' review: every
    # column did, and 25x25 puzzles such as Forever no longer fit 80 columns, their clues lost)
    forever = load(Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-06574-forever.non")
    assert grid_width(forever, ascii_cells) <= 80
    assert "11 9" in grid_view(forever, None, ascii_cells=ascii_cells).plain  # its "11" kept apart from "2"


@pytest.mark.parametrize("colours", [2, 4])
@pytest.mark.parametrize("ascii_cells", [False, True])
def test_a_grid_without_marks_is_drawn_as_cell_by_cell(
    monkeypatch: pytest.MonkeyPatch, colours: int, ascii_cells: bool
) -> None:
    """A row without marks is drawn a run of equal cells at once (a 512x512 grid's cells one by
    one took 0.3 s): the same look as drawn cell by cell, blank cells of a sheet too."""
    from nonosat.render import views

    rng = random.Random(colours)
    grid = tuple(tuple(1 if c < 3 else rng.choice([0, 0, *range(colours)]) for c in range(23)) for _ in range(17))
    palette = PALETTE[:colours] if colours > 2 else None
    picture = Puzzle.from_grid(grid, palette=palette) if palette else Puzzle.from_grid(grid)

    def cell_by_cell(text: object, row: object, widths: list[int], glyphs: list[tuple[str, object]], _: object) -> None:
        drawn = [(" ", None) if value is None else glyphs[value] for value in row]  # type: ignore[attr-defined]
        runs = [(views.fitted(glyph, width), look) for (glyph, look), width in zip(drawn, widths, strict=True)]
        views._append_runs(text, runs)  # type: ignore[arg-type]

    columns = views._all_tokens(picture, False, ascii_cells)
    widths = set(views.column_widths(picture, columns, ascii_cells))
    assert len(widths) == 1 + (colours == 2 or not ascii_cells)  # "17" beside "17": one wider (not beside "17n")
    drawn = [ansi(grid_view(picture, g, ascii_cells=ascii_cells), 200) for g in (grid, None)]
    monkeypatch.setattr(views, "_append_equal_runs", cell_by_cell)
    assert drawn == [ansi(grid_view(picture, g, ascii_cells=ascii_cells), 200) for g in (grid, None)]


def test_a_grid_for_a_pipe_is_written_as_rich_would_write_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where no styles can show (a pipe, a file), the grid is written as plain text, in a third of
    Rich's time: the same characters as Rich's."""
    import io

    from rich.console import Console

    from nonosat.cli import show

    for picture, grid in ((Puzzle.from_grid(BW), BW), (puzzle(), GRID), (load(ROOT / "puzzles" / "knot-25.non"), None)):
        for ascii_cells in (False, True):
            show.show_grid(picture, grid, ascii_cells)
            view = fitted_grid(picture, grid, ascii_cells, 10**6)
            assert view is not None
            rich = Console(file=io.StringIO(), width=10**6, color_system=None)
            rich.print(view, soft_wrap=True)
            assert capsys.readouterr().out == rich.file.getvalue()  # type: ignore[attr-defined]
