"""Colour pictures quantised for the generator: near the picture (Lab and back, the cost of a
change as how much further it moves), at most K colours, a flat picture kept cell for cell, white
and transparent blank, thin strokes and one-colour cells keeping their ink, better than Pillow's
median cut on a photograph; CSS colour names, and a blank picture refused."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from generate_shared import colours_in, picture_colours

from nonosat.generate import from_image
from nonosat.generate.image import Tints, load_tints
from nonosat.generate.quantise import lab, lab_of_hex, names, quantise, rgb_of
from nonosat.palette import WHITE

Image = pytest.importorskip("PIL.Image")


PICTURES = "colour/number-loom/examples/png"


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
