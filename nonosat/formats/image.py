"""Pictures read as a puzzle's goal, one pixel a cell, with the clues computed from the picture.

PBM (netpbm's bitmap: plain `P1` or raw `P4`) is read here; a 1 bit is a filled cell. PNG, GIF,
BMP, WebP (any image Pillow opens) need Pillow, imported only when such an image is read.

A picture whose opaque pixels are all grey (black, white and the greys between) is a
black-and-white puzzle: a pixel is filled when it is dark (grey level below 128) and not
transparent (alpha 0 is the background). Any other picture is a colour puzzle: a white or
fully transparent pixel is blank, and every other distinct colour is a colour of the palette
(named by its CSS name if it has one, else by its "#rrggbb"), in the order the picture first
shows them, row by row. A picture of more than MAX_COLOURS colours is refused (`generate` with
a number of colours quantises a photograph).
"""

from __future__ import annotations

import io
import re
import warnings
from typing import Any

from nonosat.errors import NonosatError, ParseError, UsageError
from nonosat.formats.common import PathName
from nonosat.limits import MAX_SIDE, grid_size_problem
from nonosat.model import Grid, Puzzle
from nonosat.palette import CHARS, MAX_COLOURS, WHITE, Colour, css_name

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PICTURE_SUFFIXES = (".png", ".gif", ".bmp", ".webp")
"""The suffixes of the pictures Pillow reads for nonosat."""
PBM_MAGIC = re.compile(rb"P[14](?:\s|#)")
_DIGITS = re.compile(rb"[0-9]+")
DARK = 128
"""Grey levels below this are filled cells."""
INSTALL_HINT = "pip install 'nonosat[image]'"


class Header:
    """A cursor over the text header of a PBM file, counting lines."""

    def __init__(self, data: bytes, path: PathName) -> None:
        self.data = data
        self.path = path
        self.position = 2
        self.line = 1

    def skip_space(self) -> None:
        """Skip whitespace and `#` comments."""
        while self.position < len(self.data):
            byte = self.data[self.position : self.position + 1]
            if byte == b"#":
                end = self.data.find(b"\n", self.position)
                self.position = len(self.data) if end < 0 else end
            elif byte.isspace():
                if byte == b"\n":
                    self.line += 1
                self.position += 1
            else:
                return

    def number(self, what: str) -> int:
        """Read the width or the height."""
        self.skip_space()
        digits = _DIGITS.match(self.data, self.position)
        if digits is None or int(digits.group()) < 1:
            found = self.data[self.position : self.position + 8].decode("latin-1") or "the end of the file"
            raise ParseError(
                self.path,
                self.line,
                f"expected the image {what} as a whole number of at least 1, found {found!r}",
            )
        self.position = digits.end()
        return int(digits.group())


def plain_pixels(header: Header, width: int, height: int) -> Grid:
    """Read the pixels of a plain (`P1`) PBM: `0` and `1`, whitespace and comments between."""
    cells: list[int] = []
    while len(cells) < width * height:
        header.skip_space()
        byte = header.data[header.position : header.position + 1]
        if byte not in (b"0", b"1"):
            found = repr(byte.decode("latin-1")) if byte else "the end of the file"
            raise ParseError(
                header.path,
                header.line,
                f"expected {width * height} pixels of 0 or 1, found {found} after {len(cells)}",
            )
        cells.append(int(byte))
        header.position += 1
    return tuple(tuple(cells[r * width : (r + 1) * width]) for r in range(height))


def raw_pixels(header: Header, width: int, height: int) -> Grid:
    """Read the pixels of a raw (`P4`) PBM: rows of bits, each row padded to whole bytes."""
    header.position += 1  # the single whitespace byte after the height
    stride = (width + 7) // 8
    raster = header.data[header.position : header.position + stride * height]
    if len(raster) < stride * height:
        raise ParseError(
            header.path,
            header.line,
            f"expected {stride * height} bytes of pixels for a {width}x{height} image, found {len(raster)}",
        )
    return tuple(tuple((raster[r * stride + c // 8] >> (7 - c % 8)) & 1 for c in range(width)) for r in range(height))


def load_pbm(data: bytes, path: PathName = None) -> Puzzle:
    """Read a PBM image (plain or raw) as a puzzle's goal."""
    if not PBM_MAGIC.match(data):
        raise ParseError(
            path, 1, f"expected a PBM image starting with 'P1' or 'P4', found {data[:2].decode('latin-1')!r}"
        )
    header = Header(data, path)
    width, height = header.number("width"), header.number("height")
    too_large = grid_size_problem(width, height)
    if too_large is not None:
        raise ParseError(path, header.line, too_large)
    read = plain_pixels if data[1:2] == b"1" else raw_pixels
    return Puzzle.from_grid(read(header, width, height), source=path)


def load_pbm_text(text: str, path: PathName = None) -> Puzzle:
    """Read a plain (`P1`) PBM image from its text."""
    return load_pbm(text.encode("utf-8"), path)


def load_png(data: bytes, path: PathName = None) -> Puzzle:
    """Read a PNG (or any image Pillow opens) as a puzzle's goal: in black and white, dark opaque
    pixels are filled; in colour, every colour but white is one."""
    try:
        from PIL import Image
    except ImportError:
        raise UsageError(f"reading {path or 'an image'} needs Pillow: {INSTALL_HINT}") from None
    try:
        with warnings.catch_warnings():  # our own size limit is far below Pillow's bomb warning
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                too_large = grid_size_problem(*image.size)  # before the pixels are decoded
                if too_large is None:
                    rgba = rgba_of(image)
    except NonosatError:  # a deadline's TimeUp, say
        raise
    except Image.DecompressionBombError:  # over twice Pillow's own limit, far past ours: refused at open
        raise ParseError(path, None, f"the picture is over the limit of {MAX_SIDE} cells a side") from None
    except Exception:  # Pillow reports a bad image in many ways, from OSError to SyntaxError
        raise ParseError(path, None, "expected a picture (PNG, GIF, BMP, WebP), but Pillow cannot read it") from None
    if too_large is not None:
        raise ParseError(path, None, too_large)
    width, height = rgba.size
    if not all(is_grey(pixel) for _, pixel in rgba.getcolors(width * height) or []):
        return colour_picture(rgba.tobytes(), width, height, path)
    greys, alphas = rgba.convert("L").tobytes(), rgba.getchannel("A").tobytes()
    cells = [int(grey < DARK and alpha > 0) for grey, alpha in zip(greys, alphas, strict=True)]
    return Puzzle.from_grid(tuple(tuple(cells[r * width : (r + 1) * width]) for r in range(height)), source=path)


def rgba_of(image: Any) -> Any:
    """A picture Pillow opened, as 8-bit RGBA the right way up: turned as its EXIF orientation says
    (a phone's photo), and 16-bit grey scaled to 8 bits (Pillow's convert clips it at 255: a
    review found a 16-bit PNG's puzzle wrong in a quarter of its cells, without a word)."""
    from PIL import ImageOps

    image = ImageOps.exif_transpose(image) or image
    if image.mode.startswith("I"):  # I;16, I;16B, ... and I: 16- or 32-bit integers
        wide = image.convert("I")
        low, high = wide.getextrema()
        sixteen = image.mode.startswith("I;16") or high > 255  # 32-bit I: 8-bit values kept as such
        scale = 1 / 257 if sixteen else 1
        image = wide.point(lambda value: value * scale).convert("L")
    return image.convert("RGBA")


def is_grey(pixel: object) -> bool:
    """Whether an RGBA pixel is transparent or grey (black and white included)."""
    return not isinstance(pixel, tuple) or pixel[3] == 0 or pixel[0] == pixel[1] == pixel[2]


def colour_picture(pixels: bytes, width: int, height: int, path: PathName) -> Puzzle:
    """The colour puzzle of RGBA pixels: white or transparent is blank, each other colour a colour."""
    index: dict[bytes, int] = {}
    cells = []
    for at in range(0, len(pixels), 4):
        pixel = pixels[at : at + 4]
        if pixel[3] == 0 or pixel[:3] == b"\xff\xff\xff":
            cells.append(0)
            continue
        colour = index.get(pixel[:3])
        if colour is None:
            if len(index) >= MAX_COLOURS:
                raise ParseError(path, None, f"the picture has more than {MAX_COLOURS} colours besides white")
            colour = index[pixel[:3]] = len(index) + 1
        cells.append(colour)
    palette = [WHITE]
    for rgb_bytes in index:
        rgb = "#" + rgb_bytes.hex()
        name = css_name(rgb)
        palette.append(
            Colour(name if name and name not in {c.name for c in palette} else rgb, rgb, CHARS[len(palette) - 1])
        )
    grid = tuple(tuple(cells[r * width : (r + 1) * width]) for r in range(height))
    return Puzzle.from_grid(grid, palette=tuple(palette), source=path)


def is_picture(data: bytes) -> bool:
    """Whether a file's first bytes are a PNG's, a GIF's, a BMP's or a WebP's."""
    bmp = data[:2] == b"BM" and len(data) >= 26 and data[6:10] == b"\0\0\0\0"
    return data.startswith((PNG_MAGIC, b"GIF87a", b"GIF89a")) or bmp or (data[:4], data[8:12]) == (b"RIFF", b"WEBP")


def load_png_text(text: str, path: PathName = None) -> Puzzle:
    """A PNG image is binary: it cannot come as text."""
    raise ParseError(path, None, "a PNG image is binary; read it from its file")
