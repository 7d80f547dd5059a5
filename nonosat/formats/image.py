"""Black-and-white pictures read as a puzzle's goal, with the clues computed from the picture.

PBM (netpbm's bitmap: plain `P1` or raw `P4`) is read here; a 1 bit is a filled cell. PNG
(or any image Pillow opens) needs Pillow, imported only when such an image is read: a
pixel is filled when it is dark (grey level below 128) and not transparent (alpha 0 is the
background).
"""

from __future__ import annotations

import io
import re
import warnings

from nonosat.errors import NonosatError, ParseError, UsageError
from nonosat.formats.common import PathName
from nonosat.limits import grid_size_problem
from nonosat.model import Grid, Puzzle

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
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
    """Read a PNG (or any image Pillow opens) as a puzzle's goal: dark, opaque pixels are filled."""
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
                    rgba = image.convert("RGBA")
    except NonosatError:  # a deadline's TimeUp, say
        raise
    except Exception:  # Pillow reports a bad image in many ways, from OSError to SyntaxError
        raise ParseError(path, None, "expected a PNG image, but Pillow cannot read this file") from None
    if too_large is not None:
        raise ParseError(path, None, too_large)
    width, height = rgba.size
    greys, alphas = rgba.convert("L").tobytes(), rgba.getchannel("A").tobytes()
    cells = [int(grey < DARK and alpha > 0) for grey, alpha in zip(greys, alphas, strict=True)]
    return Puzzle.from_grid(tuple(tuple(cells[r * width : (r + 1) * width]) for r in range(height)), source=path)


def load_png_text(text: str, path: PathName = None) -> Puzzle:
    """A PNG image is binary: it cannot come as text."""
    raise ParseError(path, None, "a PNG image is binary; read it from its file")
