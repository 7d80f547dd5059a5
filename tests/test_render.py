"""Pictures (SVG and PNG sheets laid out as printed) and terminal views of large grids."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from nonosat import Puzzle, UsageError, load
from nonosat.cli import app
from nonosat.model import Grid
from nonosat.render.sheets import SVG_CELL, Sheet, png_cell, save_picture, to_png, to_svg
from nonosat.render.views import half_block_grid

ROOT = Path(__file__).resolve().parent.parent
DANCER = str(ROOT / "puzzles" / "webpbn-00001-dancer.non")
KNOT = str(ROOT / "puzzles" / "webpbn-00016-knot.non")
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def goal_of(path: str) -> tuple[Puzzle, Grid]:
    puzzle = load(path)
    assert puzzle.goal is not None
    return puzzle, puzzle.goal


def svg_runs(svg: str, puzzle: Puzzle) -> list[tuple[int, int, int]]:
    """The runs of filled cells an SVG draws, as (row, first column, length)."""
    sheet = Sheet(puzzle, SVG_CELL)
    runs = []
    for path in ET.fromstring(svg).iter(f"{SVG}path"):
        if path.get("class") != "filled":
            continue
        d = path.get("d", "")
        steps = re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z", d)
        assert "".join(f"M{x} {y}h{w}v{h}h-{b}z" for x, y, w, h, b in steps) == d
        for x, y, w, h, back in steps:
            assert int(h) == SVG_CELL and int(w) == int(back) and int(w) % SVG_CELL == 0
            runs.append(((int(y) - sheet.top) // SVG_CELL, (int(x) - sheet.left) // SVG_CELL, int(w) // SVG_CELL))
    return runs


def svg_cells(svg: str, puzzle: Puzzle) -> set[tuple[int, int]]:
    """The (row, column) cells an SVG fills."""
    return {(r, c + i) for r, c, n in svg_runs(svg, puzzle) for i in range(n)}


def filled(grid: Grid) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(grid) for c, value in enumerate(row) if value}


# SVG


@pytest.mark.slow
@pytest.mark.parametrize("path", [DANCER, KNOT])
def test_svg_fills_exactly_the_goal_cells_with_merged_runs(path: str) -> None:
    puzzle, goal = goal_of(path)
    svg = to_svg(puzzle, goal)
    assert svg_cells(svg, puzzle) == filled(goal)
    assert len(svg_runs(svg, puzzle)) == sum(len(clue) for clue in puzzle.rows)  # one per block


@pytest.mark.parametrize("odd", ["\ufffe", "\uffff", "\U0010ffff", "\ufdd0"])
def test_a_title_with_a_noncharacter_gives_svg_and_xml_that_read(odd: str) -> None:
    """A review found a title holding U+FFFF (from a .non file or JSON) copied into the SVG and
    into convert's XML, which XML forbids: neither file could be read, nor the XML by nonosat."""
    from nonosat.formats import dumps, loads

    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), title=f"bad {odd} end")
    assert puzzle.title == "bad \ufffd end"
    assert "bad \ufffd end" in ET.tostring(ET.fromstring(to_svg(puzzle)), encoding="unicode")
    assert loads(dumps(puzzle, "xml"), fmt="xml").title == "bad \ufffd end"


def test_the_empty_sheet_fills_no_cell() -> None:
    puzzle, _ = goal_of(KNOT)
    svg = to_svg(puzzle)
    assert 'class="filled"' not in svg and not svg_cells(svg, puzzle)


def test_svg_clues_are_right_aligned_left_of_rows_and_bottom_aligned_above_columns() -> None:
    puzzle = Puzzle(rows=((2,), (1, 3), (), (12,)), columns=((1, 2), (1,)) + ((1,),) * 10)
    sheet = Sheet(puzzle, SVG_CELL)
    texts = [
        (float(t.get("x", 0)), float(t.get("y", 0)), t.text) for t in ET.fromstring(to_svg(puzzle)).iter(f"{SVG}text")
    ]
    half = SVG_CELL / 2
    for r, clue in enumerate(puzzle.rows):
        centre = sheet.top + r * SVG_CELL + half
        mine = sorted((x, n) for x, y, n in texts if x < sheet.left and centre < y < centre + half)
        assert [n for _, n in mine] == ([str(n) for n in clue] or ["0"])
        assert mine[-1][0] == sheet.left - half  # the last number touches the grid
    for c, clue in enumerate(puzzle.columns):
        mine = sorted((y, n) for x, y, n in texts if y < sheet.top and x == sheet.left + c * SVG_CELL + half)
        assert [n for _, n in mine] == [str(n) for n in clue]
        assert sheet.top - SVG_CELL < mine[-1][0] < sheet.top  # the last number sits on the grid


def test_svg_has_a_thick_rule_every_five_cells_and_a_border() -> None:
    puzzle, goal = goal_of(KNOT)
    sheet = Sheet(puzzle, SVG_CELL)
    paths = {p.get("class"): p for p in ET.fromstring(to_svg(puzzle, goal)).iter(f"{SVG}path")}
    thick_x = {int(x0) for x0, x1 in re.findall(r"M(\d+) \d+L(\d+) \d+", paths["thick"].get("d", "")) if x0 == x1}
    thin_x = {int(x0) for x0, x1 in re.findall(r"M(\d+) \d+L(\d+) \d+", paths["thin"].get("d", "")) if x0 == x1}
    assert thick_x == {sheet.left + c * SVG_CELL for c in (0, 5, 10, 15, 20, 25, 30, 34)}
    assert thin_x == {sheet.left + c * SVG_CELL for c in range(35)} - thick_x
    assert float(paths["thick"].get("stroke-width", 0)) > float(paths["thin"].get("stroke-width", 0))


def test_svg_title_is_escaped() -> None:
    puzzle = Puzzle(rows=((1,),), columns=((1,),), title="Cats & <Dogs>")
    root = ET.fromstring(to_svg(puzzle, ((1,),)))
    assert root.findtext(f"{SVG}title") == "Cats & <Dogs>"


@pytest.fixture(scope="module")
def cauldron(corpus: Path) -> tuple[Puzzle, Grid]:
    from nonosat import solve

    puzzle = load(str(corpus / "webpbn" / "cauldron-512x512.non"))
    solution = solve(puzzle, count=1).solution
    assert solution is not None
    return puzzle, solution.grid


@pytest.mark.slow
def test_cauldron_draws_to_files_of_sensible_size(cauldron: tuple[Puzzle, Grid]) -> None:
    """How fast it draws is measured in bench/README.md, not asserted here."""
    puzzle, grid = cauldron
    svg = to_svg(puzzle, grid)
    png = to_png(puzzle, grid)
    assert len(svg) < 3_000_000 and len(png) < 3_000_000
    assert len(svg_cells(svg, puzzle)) == sum(map(sum, grid))


# PNG


def png_cells(png: bytes, puzzle: Puzzle) -> Grid:
    """The grid a PNG shows, read from the colour at the centre of each cell."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    sheet = Sheet(puzzle, png_cell(puzzle))
    assert image.size == (sheet.width, sheet.height)
    half = sheet.cell // 2

    def dark(x: int, y: int) -> int:
        grey = image.getpixel((x, y))
        assert isinstance(grey, int)  # mode L: one number
        return int(grey < 128)

    return tuple(
        tuple(dark(sheet.left + c * sheet.cell + half, sheet.top + r * sheet.cell + half) for c in range(puzzle.width))
        for r in range(puzzle.height)
    )


@pytest.mark.parametrize("path", [DANCER, KNOT])
def test_png_cell_centres_show_the_goal(path: str) -> None:
    puzzle, goal = goal_of(path)
    assert png_cells(to_png(puzzle, goal), puzzle) == goal
    assert not any(map(any, png_cells(to_png(puzzle), puzzle)))


def test_png_draws_the_clue_numbers() -> None:
    from PIL import Image

    puzzle, goal = goal_of(KNOT)
    image = Image.open(io.BytesIO(to_png(puzzle))).convert("L")
    sheet = Sheet(puzzle, png_cell(puzzle))
    cell = sheet.cell

    def inked(x: int, y: int) -> bool:
        darkest, _ = image.crop((x + 2, y + 2, x + cell - 2, y + cell - 2)).getextrema()
        return bool(darkest < 100)  # type: ignore[operator]

    # Row 1 is "1 1": ink in the two boxes before the grid, none in the third.
    y = sheet.top
    assert inked(sheet.left - cell, y) and inked(sheet.left - 2 * cell, y) and not inked(sheet.left - 3 * cell, y)


def test_missing_pillow_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    puzzle, goal = goal_of(DANCER)
    with pytest.raises(UsageError, match=re.escape("pip install 'nonosat[image]'")):
        to_png(puzzle, goal)
    code, _, stderr = run("render", DANCER, "-o", str(tmp_path / "dancer.png"))
    assert code == 2 and "pip install 'nonosat[image]'" in stderr and stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())


def test_save_picture_chooses_by_suffix_and_never_overwrites(tmp_path: Path) -> None:
    puzzle, goal = goal_of(DANCER)
    save_picture(puzzle, goal, tmp_path / "a.SVG")
    save_picture(puzzle, goal, tmp_path / "a.png")
    assert (tmp_path / "a.SVG").read_text().startswith("<svg")
    assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(UsageError, match="force=True"):
        save_picture(puzzle, None, tmp_path / "a.png")
    save_picture(puzzle, None, tmp_path / "a.png", force=True)
    assert not any(map(any, png_cells((tmp_path / "a.png").read_bytes(), puzzle)))
    with pytest.raises(UsageError, match=r"\.svg or \.png"):
        save_picture(puzzle, goal, tmp_path / "a.gif")
    # a review: "-: a picture is .svg or .png, not a file without a suffix", and the same for a folder
    with pytest.raises(UsageError, match="^a picture is written to a file \\(.svg or .png\\), not to standard output$"):
        save_picture(puzzle, goal, "-")
    (tmp_path / "d").mkdir()
    with pytest.raises(UsageError, match="d is a folder, not a file$"):
        save_picture(puzzle, goal, tmp_path / "d")
    (tmp_path / "d").rmdir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.SVG", "a.png"]  # no temporary files left


def test_drawing_is_held_to_the_commands_time_limit(tmp_path: Path) -> None:
    """A review found `--timeout 1` holding for the search but not the drawing: a 512x512
    picture took seconds more. A drawing the deadline passes during writes nothing."""
    from nonosat.cli.base import draw_solution
    from nonosat.deadline import Deadline
    from nonosat.errors import TimeUp
    from nonosat.solver import solve

    puzzle, goal = goal_of(DANCER)
    with pytest.raises(TimeUp, match="drawing late.svg"):
        save_picture(puzzle, goal, tmp_path / "late.svg", deadline=Deadline.after(0))
    draw_solution(solve(puzzle), tmp_path / "late.png", False, Deadline.after(0))  # solve --render: said, not raised
    assert not list(tmp_path.iterdir())
    save_picture(puzzle, goal, tmp_path / "in-time.svg", deadline=Deadline.after(60))
    assert (tmp_path / "in-time.svg").exists()


# CLI


def test_render_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    target = tmp_path / "knot.svg"
    target.write_text("precious")
    code, _, stderr = run("render", KNOT, "-o", str(target))
    assert code == 2 and "--force" in stderr and target.read_text() == "precious"
    code, _, stderr = run("render", KNOT, "-o", str(target), "--force", "--solution")
    assert code == 0 and stderr == f"wrote {target}\n"
    assert svg_cells(target.read_text(), load(KNOT)) == filled(goal_of(KNOT)[1])


def test_render_solution_says_when_the_grid_drawn_may_not_be_the_only_one(tmp_path: Path) -> None:
    """An author's review: `render --solution` of a puzzle with four solutions drew one and
    said nothing. It draws the first found (a uniqueness proof could take long), and says so
    where no proof came with it; a grid line logic proves is drawn without the remark."""
    ring = str(ROOT / "puzzles" / "ring.non")
    code, _, stderr = run("render", ring, "--solution", "-o", str(tmp_path / "ring.svg"))
    assert code == 0 and "the first solution found" in stderr and f"nonosat check {ring}" in stderr
    code, _, stderr = run("render", DANCER, "--solution", "-o", str(tmp_path / "dancer.svg"))
    assert code == 0 and stderr == f"wrote {tmp_path / 'dancer.svg'}\n"


def test_render_without_solution_draws_the_empty_sheet(tmp_path: Path) -> None:
    target = tmp_path / "dancer.png"
    assert run("render", DANCER, "-o", str(target))[0] == 0
    assert not any(map(any, png_cells(target.read_bytes(), load(DANCER))))


def test_render_solution_of_an_impossible_puzzle_exits_3_unless_the_output_is_taken(tmp_path: Path) -> None:
    path = tmp_path / "none.non"
    path.write_text("width 3\nheight 3\nrows\n1,1\n0\n1\ncolumns\n2\n0\n1\n")
    code, _, stderr = run("render", str(path), "--solution", "-o", str(tmp_path / "none.svg"))
    assert code == 3 and stderr.count("\n") == 1 and not (tmp_path / "none.svg").exists()
    (tmp_path / "none.svg").write_text("precious")  # checked before solving: a usage error
    code, _, stderr = run("render", str(path), "--solution", "-o", str(tmp_path / "none.svg"))
    assert code == 2 and "--force" in stderr


def test_solve_render_draws_the_solved_picture(tmp_path: Path) -> None:
    target = tmp_path / "dancer.png"
    code, stdout, _ = run("solve", DANCER, "--render", str(target))
    assert code == 0 and "unique" in stdout
    assert png_cells(target.read_bytes(), load(DANCER)) == goal_of(DANCER)[1]
    code, _, stderr = run("solve", DANCER, "--render", str(target), "-o", str(tmp_path / "dancer.non"))
    assert code == 2 and "--force" in stderr
    assert not (tmp_path / "dancer.non").exists()  # checked before solving and writing anything
    assert run("solve", DANCER, "--render", str(target), "--force")[0] == 0


# Terminal


def decode_half_blocks(text: str, height: int) -> Grid:
    rows: list[tuple[int, ...]] = []
    for line in text.split("\n"):
        rows.append(tuple(int(ch in "▀█") for ch in line))
        rows.append(tuple(int(ch in "▄█") for ch in line))
    return tuple(rows[:height])


grids = st.integers(1, 9).flatmap(
    lambda width: st.lists(st.lists(st.integers(0, 1), min_size=width, max_size=width), min_size=1, max_size=9)
)


@given(grids)
def test_half_blocks_decode_back_to_the_grid(cells: list[list[int]]) -> None:
    grid = tuple(map(tuple, cells))
    text = half_block_grid(grid).plain
    assert text.count("\n") == (len(grid) + 1) // 2 - 1
    assert decode_half_blocks(text, len(grid)) == grid


def terminal(columns: int, *args: str) -> str:
    env = dict(os.environ, COLUMNS=str(columns), TERM="xterm-256color", FORCE_COLOR="1")
    done = subprocess.run([sys.executable, "-m", "nonosat", *args], env=env, capture_output=True, text=True)
    return done.stdout


def test_a_grid_too_wide_for_its_clues_is_drawn_in_half_blocks() -> None:
    puzzle, goal = goal_of(KNOT)
    lines = terminal(60, "solve", KNOT).splitlines()
    assert len(lines) == 17 + 1 and lines[-1].startswith("unique")
    assert decode_half_blocks("\n".join(lines[:-1]), puzzle.height) == goal


@pytest.mark.slow
def test_ascii_has_no_block_characters_and_no_colour() -> None:
    assert "\x1b[" in terminal(100, "solve", DANCER)  # colour is on in this terminal...
    for columns, path in ((100, DANCER), (60, KNOT)):
        shown = terminal(columns, "solve", path, "--ascii")  # ...but not with --ascii
        grid, status = shown.rstrip("\n").rsplit("\n", 1)
        assert "\x1b" not in shown and not set(grid) & set("█▀▄·") and status.startswith("unique")
    puzzle, goal = goal_of(KNOT)
    drawn = [line for line in terminal(60, "solve", KNOT, "--ascii").splitlines() if set(line) <= {"#", "."}]
    assert drawn == ["".join("#" if v else "." for v in row) for row in goal]


def test_a_grid_too_wide_for_the_terminal_points_to_render() -> None:
    lines = terminal(30, "solve", KNOT).splitlines()
    assert len(lines) == 2 and "nonosat render" in lines[0] and "--solution -o out.png" in lines[0]


def test_ascii_colour_clues_put_a_colon_before_a_colour_whose_character_is_a_digit() -> None:
    """nonogram-db's colour files name a colour "1": its block of 1 was drawn "11", eleven."""
    from nonosat.palette import WHITE, Colour
    from nonosat.render.views import clue_tokens

    palette = (WHITE, Colour("black", "#000000", "1"), Colour("red", "#ff0000", "a"))
    puzzle = Puzzle.from_grid([[1, 0, 2, 2]], palette)
    assert [text for text, _ in clue_tokens(puzzle, True, 0, ascii_cells=True)] == ["1:1", "2a"]
    assert [text for text, _ in clue_tokens(puzzle, True, 0)] == ["1", "2"]
