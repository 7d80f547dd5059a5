"""Colour puzzles generated from pictures and at random: proved unique (or line-solvable) from their
clues alone, close to the picture, repeatable; an ambiguous picture changed where two solutions
differ, a changed cell free to take another colour, one colour the silhouette of every shape, and
too few changes or a number of colours out of range refused without a claim."""

from __future__ import annotations

import importlib
import math
from pathlib import Path

import pytest
from generate_shared import bare

from nonosat import load
from nonosat.deadline import Deadline
from nonosat.errors import GenerateFailed, UsageError
from nonosat.generate import from_image, random_puzzle
from nonosat.generate.image import draw_scan, load_tints
from nonosat.generate.quantise import lab_of_hex, nearest, quantise
from nonosat.model import Grid, Puzzle
from nonosat.palette import MAX_COLOURS, WHITE, Colour, Palette
from nonosat.solver import Result, Status, solve, solve_within
from nonosat.solver.propagation import line_solve

Image = pytest.importorskip("PIL.Image")

RED, BLUE = Colour("red", "#ff0000", "r"), Colour("blue", "#0000ff", "b")
RED_AND_BLUE: Palette = (WHITE, RED, BLUE)
PICTURES = "colour/number-loom/examples/png"


def assert_proved(made_puzzle: Puzzle, start: Grid, changed: tuple[tuple[int, int], ...]) -> None:
    """Solved again from its clues alone: unique, and the solution is the repaired picture, which
    differs from the start exactly at the changed cells."""
    goal = made_puzzle.goal
    assert goal is not None and made_puzzle.satisfied_by(goal)
    result = solve(bare(made_puzzle), count=2, jobs=1)
    assert result.status is Status.UNIQUE and result.solutions[0].grid == goal
    differing = {(r, c) for r, row in enumerate(goal) for c, cell in enumerate(row) if cell != start[r][c]}
    assert differing == set(changed) and len(changed) == len(differing)


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
