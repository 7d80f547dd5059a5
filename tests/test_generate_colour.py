"""Colour puzzles generated from pictures and at random: quantised near the picture, at most K
colours, proved unique (or line-solvable) from their clues alone."""

from __future__ import annotations

import importlib
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nonosat import load
from nonosat.cli import app
from nonosat.deadline import Deadline
from nonosat.errors import GenerateFailed, UsageError
from nonosat.generate import from_image, random_puzzle
from nonosat.generate.image import Tints, draw_scan, load_tints
from nonosat.generate.quantise import lab, lab_of_hex, names, nearest, quantise, rgb_of
from nonosat.model import Grid, Puzzle
from nonosat.palette import MAX_COLOURS, WHITE, Colour, Palette
from nonosat.solver import Result, Status, solve, solve_within
from nonosat.solver.propagation import line_solve

Image = pytest.importorskip("PIL.Image")

RED, BLUE = Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b")
RED_AND_BLUE: Palette = (WHITE, RED, BLUE)
PICTURES = "colour/number-loom/examples/png"


def bare(puzzle: Puzzle) -> Puzzle:
    """The puzzle from its clues and palette alone: no goal to lean on."""
    return Puzzle(
        rows=puzzle.rows,
        columns=puzzle.columns,
        palette=puzzle.palette,
        row_colours=puzzle.row_colours,
        column_colours=puzzle.column_colours,
    )


def assert_proved(made_puzzle: Puzzle, start: Grid, changed: tuple[tuple[int, int], ...]) -> None:
    """Solved again from its clues alone: unique, and the solution is the repaired picture, which
    differs from the start exactly at the changed cells."""
    goal = made_puzzle.goal
    assert goal is not None and made_puzzle.satisfied_by(goal)
    result = solve(bare(made_puzzle), count=2, jobs=1)
    assert result.status is Status.UNIQUE and result.solutions[0].grid == goal
    differing = {(r, c) for r, row in enumerate(goal) for c, cell in enumerate(row) if cell != start[r][c]}
    assert differing == set(changed) and len(changed) == len(differing)


def colours_in(palette: Palette, grid: Grid) -> list[list[str]]:
    return [[palette[cell].rgb for cell in row] for row in grid]


def picture_colours(path: Path) -> list[list[str]]:
    """Each pixel's "#rrggbb", white for transparent."""
    with Image.open(path) as image:
        rgba = image.convert("RGBA")
    pixels = list(rgba.get_flattened_data())
    width = rgba.width
    hexes = [WHITE.rgb if a == 0 else f"#{r:02x}{g:02x}{b:02x}" for r, g, b, a in pixels]
    return [hexes[i : i + width] for i in range(0, len(hexes), width)]


# --- quantising --------------------------------------------------------------------------------


def test_lab_and_back_gives_the_same_colour() -> None:
    rng = random.Random(3)
    samples = ["#000000", "#ffffff", "#ff0000", "#00ff00", "#0000ff", "#130801", "#f78900"]
    samples += ["#" + "".join(f"{rng.randrange(256):02x}" for _ in range(3)) for _ in range(300)]
    for rgb in samples:
        assert rgb_of(lab_of_hex(rgb)) == rgb


@pytest.mark.parametrize("name", ["fire_submarine", "pill_bottles", "bill_jeb_and_bob", "shirt_and_tie"])
def test_a_flat_colour_picture_at_its_own_size_keeps_every_cell(corpus: Path, name: str) -> None:
    path = corpus / PICTURES / f"{name}.png"
    truth = picture_colours(path)
    count = len({rgb for row in truth for rgb in row} - {WHITE.rgb})
    quantised = quantise(load_tints(path, len(truth[0]), len(truth)), count)
    assert colours_in(quantised.palette, quantised.grid) == truth
    assert quantised.error == pytest.approx(0, abs=1e-9)
    assert len(quantised.palette) == count + 1 and quantised.palette[0] == WHITE


@pytest.mark.parametrize("colours", [1, 2])
def test_fewer_colours_than_the_picture_has_gives_at_most_that_many(corpus: Path, colours: int) -> None:
    path = corpus / PICTURES / "bill_jeb_and_bob.png"  # three colours besides white
    quantised = quantise(load_tints(path, 30, 15), colours)
    assert 2 <= len(quantised.palette) <= colours + 1
    assert {cell for row in quantised.grid for cell in row} <= set(range(colours + 1))
    assert quantised.error > 0


def test_white_and_transparent_are_blank_and_never_a_colour(tmp_path: Path) -> None:
    image = Image.new("RGBA", (4, 1), (255, 255, 255, 255))
    image.putpixel((1, 0), (200, 30, 30, 0))  # red, but fully transparent
    image.putpixel((2, 0), (200, 30, 30, 255))
    image.putpixel((3, 0), (250, 250, 250, 255))  # nearly white
    image.save(tmp_path / "strip.png")
    quantised = quantise(load_tints(tmp_path / "strip.png", 4, 1), 3)
    assert quantised.grid == ((0, 0, 1, 0),)
    assert [c.rgb for c in quantised.palette] == ["#ffffff", "#c81e1e"]


def strokes(path: Path) -> Path:
    """Line art: a grid of thin red lines and a thin blue ring on white, 400 pixels square,
    3-pixel strokes (a cell of 40 cells across is 10 pixels: about a quarter of it inked)."""
    from PIL import ImageDraw

    image = Image.new("RGB", (400, 400), "white")
    draw = ImageDraw.Draw(image)
    for x in range(0, 400, 50):
        draw.line([(x, 0), (x, 399)], fill=(220, 0, 0), width=3)
    draw.ellipse([100, 100, 300, 300], outline=(0, 0, 200), width=3)
    image.save(path)
    return path


@pytest.mark.parametrize("colours", [2, 3])
def test_thin_strokes_keep_their_colours_not_washed_out_with_white(tmp_path: Path, colours: int) -> None:
    """A cell a stroke crosses is mostly white: its mean is pale pink, and the palette showed
    #f7cccd for the red lines and #b3a8e2 for the blue ring. The colours shown are now the
    strokes' own, near enough to see as the same (delta E under 10)."""
    quantised = quantise(load_tints(strokes(tmp_path / "strokes.png"), 40), colours)
    shown = [lab_of_hex(colour.rgb) for colour in quantised.palette[1:]]
    for stroke in ((220, 0, 0), (0, 0, 200)):
        assert min(math.dist(lab(stroke), colour) for colour in shown) < 10, quantised.palette
    used = {cell for row in quantised.grid for cell in row}
    assert used == set(range(len(quantised.palette)))  # every colour shown is used


def test_a_cell_of_one_colour_has_that_colour_as_its_ink(tmp_path: Path) -> None:
    image = Image.new("RGB", (4, 2), "white")
    for x, colour in enumerate([(200, 30, 30), (12, 200, 90), (250, 250, 250)]):
        image.putpixel((x, 0), colour)
        image.putpixel((x, 1), colour)
    image.putpixel((3, 1), (0, 0, 0))  # the last cell: half white, half black
    image.save(tmp_path / "flat.png")
    tints = load_tints(tmp_path / "flat.png", 4, 1)
    assert tints.inks is not None and tints.inkiness is not None
    assert tints.inks[0][:3] == tints.cells[0][:3] == ((200, 30, 30), (12, 200, 90), (250, 250, 250))
    assert tints.inkiness[0] == (1, 1, 0, 0.5)
    assert tints.cells[0][3] == (127.5, 127.5, 127.5) and tints.inks[0][3] == (0, 0, 0)


def tints_of(cells: list[list[tuple[float, float, float]]]) -> Tints:
    return Tints(tuple(tuple(row) for row in cells))


def test_the_cost_of_a_change_is_how_much_further_from_the_picture_it_moves() -> None:
    reddish, red, blue = (230.0, 40.0, 40.0), (255.0, 0.0, 0.0), (0.0, 0.0, 255.0)
    quantised = quantise(tints_of([[red, blue, red, reddish], [blue, red, blue, red]]), 2)
    grid = quantised.grid
    assert grid[0][3] == grid[0][0] != grid[0][1]  # reddish went to red
    for r, row in enumerate(grid):
        for c, own in enumerate(row):
            assert quantised.cost(r, c, own) == 0
            assert all(quantised.cost(r, c, other) > 0 for other in range(3) if other != own)
    red_index = grid[0][0]
    blue_index = grid[0][1]
    assert quantised.cost(0, 3, 0) < quantised.cost(0, 3, blue_index)  # it is nearer white than blue
    here = lab(reddish)
    expected = math.dist(here, quantised.shown[0]) - math.dist(here, quantised.shown[red_index])
    assert quantised.cost(0, 3, 0) == pytest.approx(expected)


@pytest.mark.slow
def test_quantising_a_photograph_like_picture_beats_pillows_median_cut(tmp_path: Path) -> None:
    """The module's claim, on one picture made here: smooth gradients under shapes, with noise."""
    rng = random.Random(8)
    image = Image.new("RGB", (60, 40))
    image.putdata(
        [
            tuple(min(255, max(0, v + rng.randint(-12, 12))) for v in (4 * x, 100 + 3 * y, 255 - 4 * x))
            for y in range(40)
            for x in range(60)
        ]
    )
    image.paste((250, 250, 250), (5, 5, 20, 20))
    image.paste((30, 30, 30), (40, 25, 55, 38))
    image.save(tmp_path / "gradient.png")
    tints = load_tints(tmp_path / "gradient.png", 60, 40)
    for colours in (2, 4, 6):
        ours = quantise(tints, colours).error
        small = Image.new("RGB", (60, 40))
        small.putdata([tuple(round(v) for v in rgb) for row in tints.cells for rgb in row])
        reduced = small.quantize(colours + 1, dither=Image.Dither.NONE)
        entries = reduced.getpalette()
        shown = {i: lab(tuple(entries[3 * i : 3 * i + 3])) for i in set(reduced.get_flattened_data())}
        blank = min(shown, key=lambda i: math.dist(shown[i], lab((255, 255, 255))))
        shown[blank] = lab((255, 255, 255))
        cells = [lab(rgb) for row in tints.cells for rgb in row]
        theirs = sum(math.dist(c, shown[i]) for c, i in zip(cells, reduced.get_flattened_data(), strict=True))
        assert ours < theirs / len(cells)


def test_colour_names_follow_css_and_stay_distinct() -> None:
    assert names(["#ff0000", "#f01010", "#000000", "#0000fe"]) == ["red", "red-2", "black", "blue"]


def test_a_blank_picture_is_refused(tmp_path: Path) -> None:
    Image.new("RGB", (6, 6), (255, 255, 255)).save(tmp_path / "white.png")
    with pytest.raises(Exception, match="every cell is blank"):
        from_image(tmp_path / "white.png", colours=3)


# --- generating --------------------------------------------------------------------------------


@pytest.mark.parametrize("name, colours", [("headphones", 2), ("skid_steer", 2), ("bill_jeb_and_bob", 3)])
@pytest.mark.parametrize("require", ["unique", "line"])
def test_a_scanned_colour_goal_comes_back_proved_and_close(
    corpus: Path, tmp_path: Path, name: str, colours: int, require: str
) -> None:
    loaded = load(corpus / PICTURES / f"{name}.png")
    goal = loaded.goal
    assert goal is not None
    scan = tmp_path / "scan.png"
    draw_scan(goal, scan, scale=8, blur=2.0, noise=30, seed=1, palette=loaded.palette)
    made = from_image(scan, width=loaded.width, height=loaded.height, colours=colours, require=require)
    puzzle = made.puzzle
    assert puzzle.is_colour and 2 <= len(puzzle.palette) <= colours + 1
    assert_proved(puzzle, made.start, made.changed)
    assert made.colour_error is not None and made.colour_error < 12
    theirs = [lab_of_hex(colour.rgb) for colour in loaded.palette]
    mine = [nearest(lab_of_hex(colour.rgb), theirs) for colour in puzzle.palette]
    assert tuple(tuple(mine[cell] for cell in row) for row in made.start) == goal  # every cell's colour back
    if require == "line":
        assert line_solve(bare(puzzle)).is_complete() and made.result.method == "line"


def switches() -> Grid:
    """Red and blue diagonals that can swap (each a 2x2 switch): many solutions."""
    return (
        (1, 0, 0, 0, 0, 0),
        (0, 1, 0, 0, 2, 0),
        (0, 0, 0, 2, 0, 0),
        (0, 2, 0, 0, 0, 0),
        (2, 0, 0, 0, 1, 0),
        (0, 0, 0, 1, 0, 1),
    )


def test_an_ambiguous_colour_picture_is_changed_where_two_solutions_differ(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    draw_scan(switches(), tmp_path / "switches.png", scale=4, blur=0, noise=0, palette=RED_AND_BLUE)
    seen: list[Result] = []

    def watched(puzzle: Puzzle, deadline: Deadline, **options: object) -> Result:
        result = solve_within(puzzle, deadline, **options)  # type: ignore[arg-type]
        seen.append(result)
        return result

    monkeypatch.setattr(importlib.import_module("nonosat.generate.checks"), "solve_within", watched)
    made = from_image(tmp_path / "switches.png", width=6, colours=2, require="unique")
    assert made.start == switches() and made.changed
    first = seen[0]
    assert first.status is Status.MULTIPLE
    differ = first.solutions[0].differences(first.solutions[1])
    assert any(cell in differ for cell in made.changed)  # `changed` is in grid order, not the repair's
    assert_proved(made.puzzle, made.start, made.changed)


@pytest.mark.parametrize("require", ["unique", "line"])
@pytest.mark.parametrize("colours", [2, 3, 5])
def test_random_colour_puzzles_meet_their_requirement(require: str, colours: int) -> None:
    for seed in (1, 2):
        made = random_puzzle(12, 10, colours=colours, seed=seed, require=require)
        puzzle = made.puzzle
        assert (puzzle.width, puzzle.height) == (12, 10) and len(puzzle.palette) == colours + 1
        assert_proved(puzzle, made.start, made.changed)
        if require == "line":
            assert line_solve(bare(puzzle)).is_complete()
        used = {cell for row in made.start for cell in row}
        assert used == set(range(colours + 1))  # about half the cells filled, in every colour
        filled = sum(cell > 0 for row in made.start for cell in row)
        assert 30 <= filled <= 90


def test_a_changed_cell_may_take_another_colour_not_only_the_blank() -> None:
    moves = set()
    for seed in range(1, 7):
        made = random_puzzle(12, 12, colours=3, seed=seed, require="line")
        assert made.puzzle.goal is not None
        moves |= {(made.start[r][c], made.puzzle.goal[r][c]) for r, c in made.changed}
    assert any(before and after for before, after in moves)  # colour to colour
    assert any(before == 0 for before, _ in moves)  # the blank to a colour


def test_the_changes_weighed_for_a_coloured_cell_are_its_neighbours_colours_and_the_blank() -> None:
    from nonosat.generate import random_palette
    from nonosat.generate.drawing import Drawing
    from nonosat.generate.repair import no_cost

    drawing = Drawing(((1, 2, 0), (3, 1, 1), (0, 1, 3)), random_palette(3), no_cost)
    moves = drawing.moves({0, 1, 2}, {0, 1, 2})
    assert sorted(k for r, c, k in moves if (r, c) == (1, 1)) == [0, 2, 3]
    assert sorted(k for r, c, k in moves if (r, c) == (2, 1)) == [0, 3]  # no neighbour is colour 2
    assert not [move for move in moves if move[:2] == (0, 1)]  # colour 2's last cell stays
    assert drawing.moves(set(), set()) == []  # nothing in a solved line, and nothing changed yet


def test_one_colour_at_random_is_the_black_and_white_puzzle() -> None:
    coloured = random_puzzle(10, 8, colours=1, seed=4, require="unique")
    plain = random_puzzle(10, 8, seed=4, require="unique")
    assert coloured.puzzle == plain.puzzle and not coloured.puzzle.is_colour


def test_one_colour_from_a_picture_is_that_colour(tmp_path: Path) -> None:
    cat = load(Path(__file__).resolve().parent.parent / "puzzles" / "webpbn-00006-cat.non")
    goal = solve(cat, jobs=1).solutions[0].grid
    draw_scan(goal, tmp_path / "red-cat.png", seed=2, palette=(WHITE, RED))
    made = from_image(tmp_path / "red-cat.png", width=cat.width, colours=1, require="line")
    palette = made.puzzle.palette
    assert len(palette) == 2 and math.dist(lab_of_hex(palette[1].rgb), lab_of_hex(RED.rgb)) < 15
    assert made.start == goal
    assert_proved(made.puzzle, made.start, made.changed)


def test_one_colour_is_the_silhouette_of_every_shape_whatever_its_hue(tmp_path: Path) -> None:
    """A review found `generate logo.png --colours 1` keeping a blue disc and dropping a red
    square and most of a green triangle beside it (red and green are nearer white than blue):
    one colour is the silhouette of all that is not the background."""
    from PIL import ImageDraw

    image = Image.new("RGB", (120, 90), "white")
    pen = ImageDraw.Draw(image)
    pen.rectangle((10, 10, 45, 60), fill=(230, 20, 20))  # red: cells 2-9 of 24, rows 2-12 of 18
    pen.polygon(((50, 80), (70, 20), (90, 80)), fill=(20, 200, 40))
    pen.ellipse((92, 30, 118, 56), fill=(42, 20, 251))
    image.save(tmp_path / "logo.png")
    quantised = quantise(load_tints(tmp_path / "logo.png", 24, 18), 1)
    assert len(quantised.palette) == 2
    grid = quantised.grid
    square = [grid[r][c] for r in range(3, 11) for c in range(3, 8)]
    triangle = [grid[r][c] for r in range(12, 15) for c in range(12, 17)]
    disc = [grid[r][c] for r in range(7, 10) for c in range(19, 23)]
    assert all(square) and all(triangle) and all(disc)
    assert not any(grid[0]) and not any(row[0] for row in grid)  # the white stays blank


def test_the_same_seed_gives_the_same_colour_puzzle() -> None:
    first = random_puzzle(12, 12, colours=3, seed=9)
    again = random_puzzle(12, 12, colours=3, seed=9)
    assert first.puzzle == again.puzzle and first.changed == again.changed


def test_too_few_changes_allowed_fails_without_a_claim(tmp_path: Path) -> None:
    draw_scan(switches(), tmp_path / "switches.png", scale=4, blur=0, noise=0, palette=RED_AND_BLUE)
    with pytest.raises(GenerateFailed, match="within 0 changed cells"):
        from_image(tmp_path / "switches.png", width=6, colours=2, max_changes=0)


@pytest.mark.parametrize("colours", [0, -1, MAX_COLOURS + 1, True])
def test_a_number_of_colours_out_of_range_is_refused_before_any_work(colours: int) -> None:
    with pytest.raises(UsageError, match="colours is a number of colours from 1 to 62"):
        from_image("no-such-picture.png", colours=colours)
    with pytest.raises(UsageError, match="colours is a number of colours"):
        random_puzzle(5, 5, colours=colours)


# --- command line ------------------------------------------------------------------------------

runner = CliRunner()


def test_generate_colours_writes_a_colour_puzzle_that_check_proves_unique(corpus: Path, tmp_path: Path) -> None:
    out, preview = tmp_path / "sub.xml", tmp_path / "sub.png"
    picture = corpus / PICTURES / "fire_submarine.png"
    done = runner.invoke(
        app, ["generate", str(picture), "--width", "40", "--colours", "3", "-o", str(out), "--preview", str(preview)]
    )
    assert done.exit_code == 0, done.output
    assert "unique (proved by" in done.output and "cells changed" in done.output
    puzzle = load(out)
    assert puzzle.is_colour and len(puzzle.palette) <= 4 and puzzle.goal is not None
    assert colours_in(puzzle.palette, puzzle.goal) == picture_colours(picture)
    assert preview.stat().st_size > 0
    checked = runner.invoke(app, ["check", str(out)])
    assert checked.exit_code == 0 and "unique" in checked.output


def test_random_colours_prints_a_non_file_that_loads(tmp_path: Path) -> None:
    done = runner.invoke(app, ["random", "--width", "9", "--height", "7", "--colours", "3", "--seed", "5"])
    assert done.exit_code == 0, done.output
    (tmp_path / "r.non").write_text(done.stdout)
    puzzle = load(tmp_path / "r.non")
    assert (puzzle.width, puzzle.height) == (9, 7) and len(puzzle.palette) == 4
    assert solve(bare(puzzle), count=2, jobs=1).status is Status.UNIQUE


@pytest.mark.parametrize(
    "arguments, says",
    [
        (["generate", "missing.png", "--colours", "0"], "--colours is a number of colours from 1 to 62, not 0"),
        (["generate", "missing.png", "--colours", "63"], "--colours is a number of colours from 1 to 62, not 63"),
        (["random", "--width", "5", "--height", "5", "--colours", "0"], "--colours is a number of colours"),
        (["generate", "missing.png", "--colours", "2", "--threshold", "90"], "--threshold is for black and white"),
        (["generate", "missing.png", "--colours", "2", "--invert"], "--invert is for black and white"),
    ],
)
def test_bad_colour_options_get_one_line_and_exit_2(arguments: list[str], says: str) -> None:
    done = runner.invoke(app, arguments)
    assert done.exit_code == 2
    assert done.output.startswith(f"nonosat: {says}") and done.output.count("\n") == 1
    assert done.output.rstrip().endswith(f"(see 'nonosat {arguments[0]} --help')")  # where the options are
