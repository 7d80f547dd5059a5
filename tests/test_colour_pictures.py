"""Colour pictures as puzzles (issue 16): PNG, GIF, BMP and WebP read in their colours, a
picture of greys stays black and white, one of too many colours is refused, and a picture is
known by its bytes without its suffix."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from nonosat.errors import ParseError
from nonosat.formats import load
from nonosat.palette import MAX_COLOURS


def test_colour_pictures(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.new("RGB", (3, 2), (255, 255, 255))
    for xy, colour in [((0, 0), (255, 0, 0)), ((1, 0), (0, 0, 255)), ((2, 1), (255, 0, 0))]:
        image.putpixel(xy, colour)
    for suffix, form in ((".png", "PNG"), (".gif", "GIF"), (".bmp", "BMP"), (".webp", "WEBP"), ("", "PNG")):
        path = tmp_path / f"picture{suffix}"
        image.save(path, format=form, **({"lossless": True} if form == "WEBP" else {}))
        puzzle = load(path)
        assert [(c.name, c.rgb) for c in puzzle.palette] == [
            ("white", "#ffffff"),
            ("red", "#ff0000"),
            ("blue", "#0000ff"),
        ]
        assert puzzle.goal == ((1, 2, 0), (0, 0, 1)), suffix
    see_through = image.convert("RGBA")
    see_through.putpixel((0, 1), (0, 0, 255, 0))  # transparent: blank, whatever its colour
    see_through.save(tmp_path / "alpha.png")
    assert load(tmp_path / "alpha.png").goal == ((1, 2, 0), (0, 0, 1))


def test_a_picture_of_greys_stays_black_and_white(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    grey = image_module.new("RGB", (2, 1), (200, 200, 200))
    grey.putpixel((0, 0), (60, 60, 60))
    grey.save(tmp_path / "grey.png")
    assert not load(tmp_path / "grey.png").is_colour and load(tmp_path / "grey.png").goal == ((1, 0),)


def test_a_picture_of_too_many_colours_is_refused(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.new("RGB", (MAX_COLOURS + 1, 1))
    image.putdata([(i, 100, 200) for i in range(MAX_COLOURS + 1)])
    image.save(tmp_path / "many.png")
    with pytest.raises(ParseError, match=f"more than {MAX_COLOURS} colours") as raised:
        load(tmp_path / "many.png")
    assert raised.value.path == str(tmp_path / "many.png")


def test_a_picture_in_bytes_is_known_without_its_suffix() -> None:
    from nonosat.formats.image import is_picture

    image_module = pytest.importorskip("PIL.Image")
    for form in ("PNG", "GIF", "BMP", "WEBP"):
        out = io.BytesIO()
        image_module.new("RGB", (2, 2)).save(out, format=form)
        assert is_picture(out.getvalue()), form
    assert not is_picture(b"BMW 3 series\n") and not is_picture(b"width 1\n")
