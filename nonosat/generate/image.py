"""From a picture file to a black-and-white grid: load, greyscale, downscale, threshold.

Pillow reads the file (PNG, JPEG, GIF, BMP, WebP and the rest it knows) and is imported only
here. Transparent pixels are laid on white, so they count as background. The picture is shrunk
to the grid size by area averaging (each cell is the mean grey of the pixels it covers), then
each cell is filled when it is darker than the threshold, Otsu's by default. In colour,
`load_tints` keeps each cell's mean colour instead, for `quantise`.
"""

from __future__ import annotations

import io
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from nonosat.errors import BadImage, NonosatError, TooLarge, UsageError
from nonosat.formats.image import INSTALL_HINT, rgba_of
from nonosat.limits import MAX_FILE_BYTES, MAX_GENERATED_SIDE, MAX_PICTURE_PIXELS, check_grid_size
from nonosat.model import Grid
from nonosat.palette import Palette

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

T = TypeVar("T")

DEFAULT_LONG_SIDE = 30
"""With neither width nor height given, the longer side of the grid gets this many cells
(or the picture's own size, when it is smaller)."""

Threshold = str | int
""""otsu", or a grey level 0..255: cells darker than it are filled."""


@dataclass(frozen=True)
class Shades:
    """A picture shrunk to the grid: one grey level (0 black .. 255 white) per cell."""

    levels: tuple[tuple[float, ...], ...]

    @property
    def height(self) -> int:
        return len(self.levels)

    @property
    def width(self) -> int:
        return len(self.levels[0])


@dataclass(frozen=True)
class Tints:
    """A picture shrunk to the grid, in colour: one mean (red, green, blue), each 0..255, per cell."""

    cells: tuple[tuple[tuple[float, float, float], ...], ...]
    inks: tuple[tuple[tuple[float, float, float], ...], ...] | None = None
    """Each cell's ink: the mean colour of its pixels that are not white, so that a thin red line
    on white is red here where the mean is pink; a cell with no white, or white alone, has its
    mean. None when only the means are known."""
    inkiness: tuple[tuple[float, ...], ...] | None = None
    """The share of each cell's pixels that are inked (not white), 0 to 1."""

    @property
    def height(self) -> int:
        return len(self.cells)

    @property
    def width(self) -> int:
        return len(self.cells[0])


@dataclass(frozen=True)
class Thresholded:
    """The black-and-white grid of a picture, and how sure each cell is."""

    grid: Grid
    threshold: float
    margin: tuple[tuple[float, ...], ...]
    """How far each cell's grey level is from the threshold: the smaller, the less the picture
    changes when the cell is flipped."""


def grid_size(picture: tuple[int, int], width: int | None, height: int | None) -> tuple[int, int]:
    """The grid's (width, height): either given side sets the other by the picture's aspect."""
    pixels_wide, pixels_high = picture
    for side in (width, height):
        if side is not None and side < 1:
            raise UsageError("the grid's width and height must be at least 1")
    if width is None and height is None:
        long_side = min(DEFAULT_LONG_SIDE, max(pixels_wide, pixels_high))
        if pixels_wide >= pixels_high:
            width = long_side
        else:
            height = long_side
    if width is None:
        width = max(1, round(pixels_wide * height / pixels_high))  # type: ignore[operator]
    if height is None:
        height = max(1, round(pixels_high * width / pixels_wide))
    return width, height


@dataclass(frozen=True)
class PictureBytes:
    """A picture's bytes and the name its errors give it: an upload, where nothing is read from
    disk and no path of the client's is ever opened."""

    name: str
    data: bytes

    def __str__(self) -> str:
        return self.name


PictureSource = str | Path | PictureBytes
"""A picture file's path, or a picture's bytes."""


def load_shades(path: PictureSource, width: int | None = None, height: int | None = None) -> Shades:
    """Read a picture and shrink it to the grid size by area averaging."""
    picture, size = open_on_white(path, width, height)
    from PIL import Image  # after open_on_white, which says how to install it

    small = picture.convert("F").resize(size, Image.Resampling.BOX)  # floats keep the averages exact
    return Shades(_rows(_flat(small), size[0]))


def load_tints(path: PictureSource, width: int | None = None, height: int | None = None) -> Tints:
    """Read a picture and shrink it to the grid size by area averaging, each channel apart."""
    picture, size = open_on_white(path, width, height)
    from PIL import Image

    rgb = picture.convert("RGB")
    bands = [_flat(band.convert("F").resize(size, Image.Resampling.BOX)) for band in rgb.split()]
    means = list(zip(*bands, strict=True))
    inks, inkiness = _inks(rgb, size, means)
    return Tints(_rows(means, size[0]), _rows(inks, size[0]), _rows(inkiness, size[0]))


def _inks(
    rgb: PILImage, size: tuple[int, int], means: list[tuple[float, float, float]]
) -> tuple[list[tuple[float, float, float]], list[float]]:
    """Each cell's ink (the mean of its inked pixels, those not white: INKED) and the share of
    its pixels that are inked (see Tints.inks). Pillow's 8-bit product of a channel and the
    mask (0 or 255) is exact, and one float picture is made at a time."""
    from PIL import Image, ImageChops

    red, green, blue = rgb.split()
    lowest = ImageChops.darker(ImageChops.darker(red, green), blue)
    mask = lowest.point(lambda level: 255 if level < INKED else 0)

    def shrunk(band: PILImage) -> list[float]:
        return [v / 255 for v in _flat(band.convert("F").resize(size, Image.Resampling.BOX))]

    shares = shrunk(mask)
    sums = [shrunk(ImageChops.multiply(band, mask)) for band in (red, green, blue)]
    inks = [  # a cell inked all over has its mean, exactly: the same sums over the same pixels
        (r * 255 / share, g * 255 / share, b * 255 / share) if share > 0 else mean
        for r, g, b, share, mean in zip(*sums, shares, means, strict=True)
    ]
    return inks, shares


INKED = 243
"""A pixel whose lowest channel is under this is inked, not white (paper, or a JPEG's noise on
white, is above it)."""


def _flat(image: PILImage) -> list[Any]:
    return list(getattr(image, "get_flattened_data", image.getdata)())  # Pillow 12 renamed it


def _rows(values: list[T], width: int) -> tuple[tuple[T, ...], ...]:
    return tuple(tuple(values[at : at + width]) for at in range(0, len(values), width))


def open_on_white(path: PictureSource, width: int | None, height: int | None) -> tuple[PILImage, tuple[int, int]]:
    """The picture laid on white (so transparent pixels are background), and the grid's (width,
    height). Refuses a missing, unreadable, empty or too large picture, or too large a grid."""
    try:
        from PIL import Image
    except ImportError:
        raise UsageError(f"reading pictures needs Pillow: {INSTALL_HINT}") from None
    if not isinstance(path, PictureBytes | str | os.PathLike):
        raise UsageError(f"a picture is a file's path (or PictureBytes), not {type(path).__name__}")
    if isinstance(path, PictureBytes):
        source: Any = io.BytesIO(path.data)
        file_bytes = len(path.data)
    else:
        source = Path(path)
        if not source.exists():
            from nonosat.formats.files import missing

            raise BadImage(f"{source}: {missing(source)}")
        if not source.is_file():
            raise BadImage(f"{source}: {'a folder' if source.is_dir() else 'not a regular file'}, expected a picture")
        file_bytes = source.stat().st_size
    for side, name in ((width, "wide"), (height, "high")):  # refused before the picture is read
        if side is not None and side > MAX_GENERATED_SIDE:
            raise TooLarge(
                f"a generated puzzle {side} cells {name} is over the limit of {MAX_GENERATED_SIDE} cells a side"
            )
    if file_bytes > MAX_FILE_BYTES:
        raise TooLarge(f"{path}: the file has {file_bytes} bytes, over the limit of {MAX_FILE_BYTES}")
    kind = None  # the format Pillow found at the picture's start, if any
    try:
        with warnings.catch_warnings():  # our own limit, MAX_PICTURE_PIXELS, is below Pillow's bomb warning
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(source) as image:
                kind = image.format
                pixels = image.width * image.height
                if pixels <= MAX_PICTURE_PIXELS:
                    image.load()
                    see_through = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
                    rgba = rgba_of(image)
    except NonosatError:  # a deadline's TimeUp, say
        raise
    except Image.DecompressionBombError:  # over twice Pillow's own limit, far past ours: refused at open
        raise TooLarge(f"{path}: the picture has over {MAX_PICTURE_PIXELS} pixels, the limit") from None
    except Exception:  # Pillow reports a bad image in many ways, from OSError to SyntaxError
        if kind:  # a truncated PNG was "not a picture ... (expected PNG, ...)" (an author's review)
            raise BadImage(f"{path}: a {kind} picture that cannot be read to its end (damaged or cut short)") from None
        raise BadImage(f"{path}: not a picture Pillow can read (expected PNG, JPEG, GIF, BMP or WebP)") from None
    if pixels > MAX_PICTURE_PIXELS:
        raise TooLarge(f"{path}: the picture has {pixels} pixels, over the limit of {MAX_PICTURE_PIXELS}")
    if rgba.width == 0 or rgba.height == 0:
        raise BadImage(f"{path}: the picture has no pixels")
    size = grid_size(rgba.size, width, height)
    check_grid_size(*size, what="generated puzzle", side=MAX_GENERATED_SIDE)
    if not see_through:  # opaque on white is itself: Pillow's compositing holds Python's lock (0.43 s on 36 Mpx)
        return rgba, size
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, rgba), size


def otsu(levels: list[float]) -> float:
    """Otsu's threshold: the grey level that best splits the cells into a dark and a light class
    (largest between-class variance). Cells below it are dark."""
    ordered = sorted(levels)
    total = len(ordered)
    grand = sum(ordered)
    best, best_score = ordered[0] + 0.5, -1.0
    below = 0.0
    for count in range(1, total):
        below += ordered[count - 1]
        if ordered[count] == ordered[count - 1]:
            continue  # a threshold must fall between two different levels
        dark_mean = below / count
        light_mean = (grand - below) / (total - count)
        score = count * (total - count) * (dark_mean - light_mean) ** 2
        if score > best_score:
            best, best_score = (ordered[count - 1] + ordered[count]) / 2, score
    return best


def threshold(
    shades: Shades, level: Threshold = "otsu", invert: bool = False, source: str = "the picture"
) -> Thresholded:
    """Fill the cells darker than the threshold (lighter ones, with `invert`)."""
    flat = [v for row in shades.levels for v in row]
    if level == "otsu":
        if min(flat) == max(flat):
            raise BadImage(
                f"{source}: the picture is one flat shade (grey level "
                f"{flat[0]:.0f}) at this size: nothing to tell apart"
            )
        cut = otsu(flat)
    elif isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 255:
        cut = float(level)
    else:
        raise UsageError(f"the threshold is 'otsu' or a grey level from 0 to 255, not {level!r}")
    grid = tuple(tuple(int((v < cut) != invert) for v in row) for row in shades.levels)
    filled = sum(map(sum, grid))
    if filled == 0 or filled == shades.width * shades.height:
        kind = "background" if filled == 0 else "filled"
        raise BadImage(  # inverting a grid of one kind gives one of the other: no use suggesting it
            f"{source}: every cell is {kind} after thresholding at grey level {cut:.0f}"
            f"{' (inverted)' if invert else ''}: no puzzle in that; try another {{threshold}}, or a larger {{width}}",
            threshold="threshold",
            width="width",
        )
    margin = tuple(tuple(abs(v - cut) for v in row) for row in shades.levels)
    return Thresholded(grid, cut, margin)


def draw_scan(
    grid: Grid,
    path: str | Path,
    *,
    scale: int = 8,
    blur: float = 2.0,
    noise: int = 30,
    seed: int = 0,
    palette: Palette | None = None,
) -> None:
    """The way back, for tests and the generator benchmark: a grid drawn as a greyscale PNG at
    `scale` pixels a cell, with a Gaussian blur of radius `blur` and uniform noise of up to
    `noise` grey levels (seeded), like a scanned or photographed puzzle. With a `palette`, in
    colour: each cell in its colour, the noise on each channel."""
    import random

    try:
        from PIL import Image, ImageDraw, ImageFilter
    except ImportError:
        raise UsageError(f"drawing pictures needs Pillow: {INSTALL_HINT}") from None
    height, width = len(grid), len(grid[0])
    coloured = palette is not None
    image = Image.new("RGB" if coloured else "L", (width * scale, height * scale), "white")
    pen = ImageDraw.Draw(image)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell:
                ink = palette[cell].red_green_blue if palette is not None else 0
                pen.rectangle([c * scale, r * scale, (c + 1) * scale - 1, (r + 1) * scale - 1], fill=ink)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    if noise:
        rng = random.Random(seed)

        def noisy(v: int) -> int:
            return min(255, max(0, v + rng.randint(-noise, noise)))

        pixels = getattr(image, "get_flattened_data", image.getdata)()
        if coloured:
            image.putdata([tuple(noisy(v) for v in pixel) for pixel in pixels])  # type: ignore[union-attr]
        else:
            image.putdata([noisy(v) for v in pixels])  # type: ignore[union-attr]
    image.save(path)
