"""Pictures as puzzles: raw PBM with padded rows, PNG's dark opaque pixels filled, and the
install hint without Pillow."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from formats_shared import TINY, TINY_GOAL, run

from nonosat.errors import UsageError
from nonosat.formats import load
from nonosat.model import Puzzle


def test_raw_pbm_reads_padded_rows(tmp_path: Path) -> None:
    path = tmp_path / "bar.pbm"
    path.write_bytes(b"P4\n# ten wide\n10 2\n" + bytes([0b11000000, 0b01000000, 0b00000000, 0b10000000]))
    puzzle = load(path)
    assert puzzle.goal == ((1, 1, 0, 0, 0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 0, 0, 1, 0))
    assert puzzle.rows == ((2, 1), (1,)) and puzzle.source == str(path)


def test_png_dark_opaque_pixels_are_filled(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    pixels = [
        (0, 0, 0, 255),
        (255, 255, 255, 255),
        (127, 127, 127, 255),
        (128, 128, 128, 255),
        (0, 0, 0, 0),
        (0, 0, 0, 1),
    ]
    image = image_module.new("RGBA", (3, 2))
    image.putdata(pixels)
    path = tmp_path / "pixels.png"
    image.save(path)
    assert load(path).goal == ((1, 0, 1), (0, 0, 1))
    grey = image_module.new("L", (3, 3), 255)
    for xy in [(0, 0), (0, 2), (1, 2), (2, 2)]:
        grey.putpixel(xy, 0)
    unnamed = tmp_path / "grey"  # no suffix: recognised by its first bytes
    grey.save(unnamed, format="PNG")
    assert load(unnamed) == Puzzle(rows=TINY.rows, columns=TINY.columns, goal=TINY_GOAL, source=str(unnamed))


def test_png_without_pillow_gives_the_install_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "any.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(UsageError, match=re.escape("pip install 'nonosat[image]'")):
        load(path)
    code, _, stderr = run("solve", str(path))
    assert code == 2 and stderr.count("\n") == 1 and "nonosat[image]" in stderr


def test_a_picture_past_pillows_own_limit_is_refused_for_its_size(tmp_path: Path) -> None:
    """A review found a 20000x20000 PNG (48 kB) called unreadable: Pillow refuses to open a
    picture of over twice its bomb limit, before our own limit was looked at. Both readers now
    say it is over the limit."""
    pytest.importorskip("PIL.Image")
    import struct
    import zlib

    from nonosat.errors import NonosatError, ParseError
    from nonosat.generate.image import load_shades

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    huge = tmp_path / "huge.png"  # its header alone: Pillow refuses it from the size there
    header = struct.pack(">IIBBBBB", 20000, 20000, 1, 0, 0, 0, 0)
    huge.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")
    )
    with pytest.raises(ParseError, match="over the limit of 1024 cells a side"):
        load(huge)
    with pytest.raises(NonosatError, match="over 40000000 pixels, the limit"):
        load_shades(huge)


def test_a_16_bit_grey_picture_reads_as_its_8_bit_self(tmp_path: Path) -> None:
    """A review found a 16-bit PNG's puzzle wrong in a quarter of its cells, without a word:
    Pillow's convert clips 16-bit grey at 255, so every shade came out white."""
    image_module = pytest.importorskip("PIL.Image")
    from nonosat.generate import from_image

    shades = [0, 40, 100, 127, 128, 200, 255, 90, 30]  # 8-bit shades: dark ones (< 128) are filled
    narrow = image_module.new("L", (3, 3))
    narrow.putdata(shades)
    wide = image_module.new("I;16", (3, 3))
    wide.putdata([shade * 257 for shade in shades])
    narrow.save(tmp_path / "narrow.png")
    wide.save(tmp_path / "wide.png")
    with image_module.open(tmp_path / "wide.png") as wide:
        assert wide.mode.startswith("I")
    assert load(tmp_path / "wide.png").goal == load(tmp_path / "narrow.png").goal == ((1, 1, 1), (1, 0, 0), (0, 1, 1))
    made = [from_image(tmp_path / name, width=3, require="unique") for name in ("narrow.png", "wide.png")]
    assert made[0].start == made[1].start
    dark = image_module.new("I;16", (2, 2))  # 16-bit greys all under 256: near black, every cell filled
    dark.putdata([255, 0, 255, 0])
    dark.save(tmp_path / "dark.png")
    assert load(tmp_path / "dark.png").goal == ((1, 1), (1, 1))


def test_a_photo_is_read_the_way_its_exif_orientation_turns_it(tmp_path: Path) -> None:
    """A phone's photo stored sideways, with EXIF orientation 6 (turn it a quarter clockwise to
    show it), came out sideways: 80x40 stored, 40x80 shown, a 30x15 puzzle."""
    image_module = pytest.importorskip("PIL.Image")
    from nonosat.generate import from_image

    stored = image_module.new("RGB", (80, 40), "white")
    stored.paste((0, 0, 0), (0, 0, 20, 40))  # a black band on the stored picture's left
    exif = image_module.Exif()
    exif[0x0112] = 6
    stored.save(tmp_path / "photo.png", exif=exif)
    made = from_image(tmp_path / "photo.png", width=4, require="unique")
    assert (made.puzzle.width, made.puzzle.height) == (4, 8)
    assert made.start[0] == (1, 1, 1, 1) and made.start[-1] == (0, 0, 0, 0)  # the band is now on top


def test_a_folder_given_as_a_picture_is_called_a_folder(tmp_path: Path) -> None:
    """It was "no such file", for a folder and for /dev/null alike."""
    pytest.importorskip("PIL.Image")
    from nonosat.errors import BadImage
    from nonosat.generate import from_image

    with pytest.raises(BadImage, match="a folder, expected a picture"):
        from_image(tmp_path, width=3)
    with pytest.raises(BadImage, match="no such file"):
        from_image(tmp_path / "missing.png", width=3)
