"""Pictures read into grids for the generator: Otsu's threshold, the size and its aspect ratio,
shrinking, transparency and what is laid on white, --invert, every common picture format alike,
and blank, cut-short or unreadable pictures refused."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from generate_shared import draw

from nonosat import load
from nonosat.errors import BadImage
from nonosat.generate import from_image
from nonosat.generate.image import Shades, grid_size, load_shades, otsu, threshold

Image = pytest.importorskip("PIL.Image")


def test_otsu_picks_the_split_with_the_largest_between_class_variance() -> None:
    rng = random.Random(4)
    for _ in range(50):
        levels = [float(rng.choice([rng.randint(0, 90), rng.randint(150, 255)])) for _ in range(40)]
        if len(set(levels)) < 2:
            continue

        def score(cut: float, levels: list[float] = levels) -> float:
            dark = [v for v in levels if v < cut]
            light = [v for v in levels if v >= cut]
            if not dark or not light:
                return -1.0

            def mean(xs: list[float]) -> float:
                return sum(xs) / len(xs)

            return len(dark) * len(light) * (mean(dark) - mean(light)) ** 2

        cuts = sorted({(a + b) / 2 for a, b in itertools.pairwise(sorted(set(levels)))})
        assert score(otsu(levels)) == pytest.approx(max(score(c) for c in cuts))


def test_either_side_alone_keeps_the_aspect_ratio() -> None:
    assert grid_size((400, 200), 40, None) == (40, 20)
    assert grid_size((400, 200), None, 10) == (20, 10)
    assert grid_size((400, 200), 7, 9) == (7, 9)
    assert grid_size((100, 300), None, None) == (10, 30)  # the long side gets 30 cells
    assert grid_size((12, 6), None, None) == (12, 6)  # a small picture keeps its size


def test_shrinking_averages_the_pixels_each_cell_covers(tmp_path: Path) -> None:
    image = Image.new("L", (4, 4), 255)
    image.putpixel((0, 0), 0)  # one black pixel of the top-left 2x2 block
    image.save(tmp_path / "dot.png")
    shades = load_shades(tmp_path / "dot.png", 2, 2)
    assert shades.levels == ((255 * 3 / 4, 255.0), (255.0, 255.0))


def test_transparent_pixels_are_background(tmp_path: Path) -> None:
    image = Image.new("RGBA", (2, 1), (0, 0, 0, 0))  # black, but fully transparent
    image.putpixel((1, 0), (0, 0, 0, 255))
    image.save(tmp_path / "clear.png")
    cut = threshold(load_shades(tmp_path / "clear.png", 2, 1))
    assert cut.grid == ((0, 1),)


def test_invert_fills_the_light_cells() -> None:
    shades = Shades(((0.0, 255.0, 10.0),))
    assert threshold(shades).grid == ((1, 0, 1),)
    assert threshold(shades, invert=True).grid == ((0, 1, 0),)
    assert threshold(shades, 5).grid == ((1, 0, 0),)


@pytest.mark.parametrize("invert", [False, True])
def test_a_grid_of_one_kind_is_refused_without_suggesting_invert(invert: bool) -> None:
    """A review found a grid filled in every cell called "blank", and --invert suggested even when
    it was given: inverting a grid of one kind only gives the other kind."""
    shades = Shades(((0.0, 10.0, 20.0),))
    with pytest.raises(BadImage) as refused:
        threshold(shades, 255, invert=invert)
    said = str(refused.value)
    assert ("every cell is background" if invert else "every cell is filled") in said
    assert "blank" not in said and "invert" not in said.replace("(inverted)", "")


@pytest.mark.parametrize("levels", [((255.0, 255.0),), ((0.0, 0.0),)])
def test_a_blank_picture_is_refused(levels: tuple[tuple[float, ...], ...]) -> None:
    with pytest.raises(BadImage, match="flat shade"):
        threshold(Shades(levels))
    with pytest.raises(BadImage, match="after thresholding"):
        threshold(Shades(levels), 128, invert=levels[0][0] == 0.0)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".gif", ".bmp", ".webp"])
def test_every_common_picture_format_gives_the_same_grid(corpus: Path, tmp_path: Path, suffix: str) -> None:
    goal = load(corpus / "webpbn" / "webpbn-00006-cat.non").goal
    assert goal is not None
    png = draw(goal, tmp_path / "cat.png", blur=1.0)
    other = tmp_path / f"cat{suffix}"
    Image.open(png).convert("RGB").save(other)  # JPEG's losses stay far from the threshold
    made = from_image(other, width=20)
    assert made.start == goal and made.puzzle.goal == goal and not made.changed


def test_a_picture_cut_short_is_said_to_be_one(tmp_path: Path) -> None:
    """A truncated PNG was "not a picture Pillow can read (expected PNG, JPEG, ...)" (an author's
    review): it is a PNG, damaged or cut short; a text file named .png is still no picture."""
    pytest.importorskip("PIL")
    whole = draw(tuple(tuple((r + c) % 2 == 0 for c in range(40)) for r in range(40)), tmp_path / "p.png")
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole.read_bytes()[: len(whole.read_bytes()) // 2])
    with pytest.raises(BadImage, match="cut.png: a PNG picture that cannot be read to its end"):
        from_image(cut, width=10)
    (tmp_path / "text.png").write_text("not a picture\n")
    with pytest.raises(BadImage, match="not a picture Pillow can read"):
        from_image(tmp_path / "text.png", width=10)


def test_only_a_picture_that_can_be_seen_through_is_laid_on_white(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture author's review: Pillow's compositing of an opaque 36-megapixel picture on white
    (itself) held Python's lock 0.43 s, and `--timeout 0.7` ended at 1.09 s. Only a picture with
    transparency is composited, and its clear pixels are still the background."""
    pytest.importorskip("PIL")
    from PIL import Image

    from nonosat.generate.image import open_on_white

    composited: list[str] = []
    real = Image.alpha_composite

    def counted(under: Image.Image, over: Image.Image) -> Image.Image:
        composited.append(over.mode)
        return real(under, over)

    monkeypatch.setattr(Image, "alpha_composite", counted)
    Image.new("L", (4, 4), 0).save(tmp_path / "grey.png")
    Image.new("RGB", (4, 4), (10, 20, 30)).save(tmp_path / "rgb.png")
    clear = Image.new("RGBA", (4, 4), (0, 0, 0, 0))
    clear.putpixel((0, 0), (0, 0, 0, 255))
    clear.save(tmp_path / "clear.png")
    for name in ("grey.png", "rgb.png"):
        laid, _ = open_on_white(tmp_path / name, 4, 4)
        assert laid.mode == "RGBA" and laid.getpixel((1, 1)) in ((0, 0, 0, 255), (10, 20, 30, 255))
    assert composited == []
    laid, _ = open_on_white(tmp_path / "clear.png", 4, 4)
    assert (
        composited == ["RGBA"]
        and laid.getpixel((1, 1)) == (255, 255, 255, 255)
        and laid.getpixel((0, 0)) == (0, 0, 0, 255)
    )
