"""The quantiser benchmark's measure: CIELAB computed here, the colour each cell shows with
nonosat's quantiser and with Pillow's (as it is and in Lab), and the mean CIE76 delta E
between them; for a scan, the cells off the goal.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from nonosat.generate.image import Tints
from nonosat.generate.quantise import quantise

Lab = tuple[float, float, float]

ITERATIONS = 30
"""Pillow's k-means passes at most, as nonosat's `quantise.ITERATIONS`."""
PILLOW = ("median cut", "max coverage", "octree", "median cut + k-means")
IN_LAB = ", in Lab"
RIVALS = tuple(name for m in PILLOW for name in (m, m + IN_LAB))
METHODS = ("nonosat", *RIVALS)


def lab(rgb: Sequence[float]) -> Lab:
    """CIELAB (D65) of an sRGB colour, each channel 0..255 (IEC 61966-2-1, CIE 15)."""
    r, g, b = (_linear(v / 255) for v in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
    fx, fy, fz = (_f(t) for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _f(t: float) -> float:
    return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29


WHITE: Lab = lab((255, 255, 255))


def mean_delta_e(cells: Sequence[Lab], shown: Sequence[Lab]) -> float:
    """The mean CIE76 delta E between each cell's colour and the colour shown for it."""
    return statistics.fmean(math.dist(a, b) for a, b in zip(cells, shown, strict=True))


def cell_labs(tints: Tints) -> list[Lab]:
    """Every cell's colour in CIELAB, row by row."""
    return [lab(rgb) for row in tints.cells for rgb in row]


def nonosat_shown(tints: Tints, colours: int) -> list[Lab]:
    """The colour each cell shows in nonosat's puzzle: its palette colour (white when blank)."""
    made = quantise(tints, colours)
    labs = [lab(colour.red_green_blue) for colour in made.palette]
    return [labs[cell] for row in made.grid for cell in row]


def pillow_palette(tints: Tints, count: int, method: str) -> tuple[list[Lab], list[int]]:
    """Pillow's palette of at most `count` colours for the cells (the entries used), and each
    cell's entry in it, row by row."""
    from PIL import Image

    kinds = {
        "median cut": (Image.Quantize.MEDIANCUT, 0),
        "max coverage": (Image.Quantize.MAXCOVERAGE, 0),
        "octree": (Image.Quantize.FASTOCTREE, 0),
        "median cut + k-means": (Image.Quantize.MEDIANCUT, ITERATIONS),
    }
    kind, passes = kinds[method]
    small = Image.new("RGB", (tints.width, tints.height))
    small.putdata([tuple(round(v) for v in rgb) for row in tints.cells for rgb in row])
    reduced = small.quantize(count, method=kind, kmeans=passes, dither=Image.Dither.NONE)
    entries = reduced.getpalette() or []
    indices = list(getattr(reduced, "get_flattened_data", reduced.getdata)())  # Pillow 12 renamed it
    used = sorted(set(indices))
    position = {entry: at for at, entry in enumerate(used)}
    return [lab(entries[3 * i : 3 * i + 3]) for i in used], [position[i] for i in indices]


def whitened(colours: list[Lab]) -> list[Lab]:
    """The colours with the one nearest white made the blank's white."""
    blank = min(range(len(colours)), key=lambda k: math.dist(colours[k], WHITE))
    return [WHITE if k == blank else c for k, c in enumerate(colours)]


def pillow_shown(tints: Tints, colours: int, method: str) -> list[Lab]:
    """The colour each cell shows with Pillow as it is: K + 1 entries, the one nearest white
    shown as the blank's white, each cell its entry."""
    palette, entries = pillow_palette(tints, colours + 1, method)
    shown = whitened(palette)
    return [shown[entry] for entry in entries]


def pillow_shown_in_lab(tints: Tints, colours: int, method: str, cells: Sequence[Lab]) -> list[Lab]:
    """The colour each cell shows with Pillow's palette and each cell at its nearest colour in
    CIELAB: K + 1 entries with the one nearest white made white, or K entries and white,
    whichever is nearer the picture."""
    with_blank = whitened(pillow_palette(tints, colours + 1, method)[0])
    and_white = [WHITE, *pillow_palette(tints, colours, method)[0]]
    ways = [[min(palette, key=lambda c: math.dist(c, cell)) for cell in cells] for palette in (with_blank, and_white)]
    return min(ways, key=lambda shown: mean_delta_e(cells, shown))


def off_goal(shown: Sequence[Lab], goal: Sequence[int], colours: Sequence[Lab]) -> int:
    """The cells whose shown colour is nearer another of the goal's colours than their own."""
    return sum(
        min(range(len(colours)), key=lambda k: math.dist(s, colours[k])) != g for s, g in zip(shown, goal, strict=True)
    )
