"""From a colour picture to a colour grid: at most K colours plus the blank, near the picture.

Colours are compared in CIELAB, where equal distances look about equally different (a distance
there is CIE76's delta E). The blank is the picture's white: its centre is fixed at white, so
white and transparent pixels (laid on white) stay blank. The K colours are found by k-means
(Lloyd's iterations) over the cells' mean colours, started from Pillow's median-cut palette, from
its octree palette (each less its entry nearest white) and from seeded k-means++ picks; Pillow's
two palettes also stand as they are (Lloyd's iterations minimise squared error, not delta E).
Of these, the one nearer the picture (the smaller summed delta E) is kept. Colours that look
alike (MIN_DIFFERENCE) are merged.

`python -m bench.quantise` measures it against Pillow's quantisers in the same run (scans of
the number-loom goals, painted pictures at fixed seeds, logos; bench/README.md, "Colour
quantiser"): a mean delta E of 6.69 over 65 cases, against 7.41 for the best of Pillow's
(octree, its cells mapped in CIELAB as here) and 11.16 for median cut with Pillow's k-means;
every scanned cell comes back in its goal's colour.

A colour no cell takes is dropped, so the palette has at most K colours. Each is named by its
CSS name, else by the nearest CSS colour's name ("red", then "red-2" for a second red).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from nonosat.deadline import NO_DEADLINE, Deadline
from nonosat.errors import BadImage
from nonosat.generate.image import Tints
from nonosat.model import Grid
from nonosat.palette import CHARS, NAMED, WHITE, Colour, Palette, css_name

Lab = tuple[float, float, float]
RGB = tuple[float, float, float]

ITERATIONS = 30
"""Lloyd's iterations at most (they usually settle within ten)."""
MIN_DIFFERENCE = 8.0
"""Colours closer than this (delta E) to the blank's white or to each other look alike in a
cell, so one of them is dropped: a near-white colour, say, from the paper of a scan."""
MAX_POINTS = 4096
"""Distinct colours k-means works on; a picture with more is first binned, 16 levels a channel
(each bin at the mean of its cells), and every cell then goes to its nearest centre."""


def lab(rgb: RGB) -> Lab:
    """CIELAB (D65) of an sRGB colour, each channel 0..255."""
    r, g, b = (_linear(v / 255) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = _f(x), _f(y), _f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def rgb_of(colour: Lab) -> str:
    """The "#rrggbb" nearest a CIELAB colour (clipped to what sRGB shows)."""
    lightness, a, b = colour
    fy = (lightness + 16) / 116
    x, y, z = _f_inverse(fy + a / 500) * 0.95047, _f_inverse(fy), _f_inverse(fy - b / 200) * 1.08883
    linear = (
        3.2406 * x - 1.5372 * y - 0.4986 * z,
        -0.9689 * x + 1.8758 * y + 0.0415 * z,
        0.0557 * x - 0.2040 * y + 1.0570 * z,
    )
    return "#" + "".join(f"{round(255 * _gamma(min(1.0, max(0.0, v)))):02x}" for v in linear)


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _gamma(v: float) -> float:
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def _f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116


def _f_inverse(t: float) -> float:
    return t**3 if t**3 > 216 / 24389 else (116 * t - 16) * 27 / 24389


def lab_of_hex(rgb: str) -> Lab:
    return lab((int(rgb[1:3], 16), int(rgb[3:5], 16), int(rgb[5:7], 16)))


WHITE_LAB = lab_of_hex(WHITE.rgb)


def _distance2(p: Lab, q: Lab) -> float:
    return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2


def nearest(point: Lab, centres: Sequence[Lab]) -> int:
    """The index of the centre nearest a colour (the first, on a tie)."""
    best, best_distance = 0, math.inf
    for index, centre in enumerate(centres):
        distance = _distance2(point, centre)
        if distance < best_distance:
            best, best_distance = index, distance
    return best


@dataclass(frozen=True)
class Quantised:
    """A picture's colour grid (0 blank, k the palette's colour k), and how near the picture it is."""

    grid: Grid
    palette: Palette
    labs: tuple[tuple[Lab, ...], ...]
    """Each cell's colour in the picture, in CIELAB."""
    shown: tuple[Lab, ...]
    """Each palette colour (white for the blank) in CIELAB."""
    error: float
    """The mean delta E between a cell's colour in the picture and its colour in the grid."""

    def cost(self, row: int, column: int, colour: int) -> float:
        """How much further from the picture a cell is when it takes `colour` instead of its own."""
        here = self.labs[row][column]
        own = self.shown[self.grid[row][column]]
        return math.dist(here, self.shown[colour]) - math.dist(here, own)


def quantise(
    tints: Tints, colours: int, *, seed: int = 0, source: str = "the picture", deadline: Deadline = NO_DEADLINE
) -> Quantised:
    """The picture's cells in at most `colours` colours plus the blank (see the module's notes)."""
    labs = tuple(tuple(lab(rgb) for rgb in row) for row in tints.cells)
    points, weights = _points(tints)
    starts = [
        _pillow_palette(tints, colours, "MEDIANCUT"),
        _pillow_palette(tints, colours, "FASTOCTREE"),
        _kmeans_plus_plus(points, weights, colours, random.Random(seed)),
    ]
    runs = [_distinct(points, weights, start, deadline) for start in starts]
    runs += [_merged([WHITE_LAB, *start]) for start in starts[:2]]  # Lloyd's minimises squared error, not delta E
    centres = min(runs, key=lambda run: _spread(points, weights, run))
    raw = [[nearest(cell, centres) for cell in row] for row in labs]
    used = list(dict.fromkeys(k for row in raw for k in row if k))  # in the order the picture shows them
    if not used:
        raise BadImage(
            f"{source}: every cell is blank (nearest white) with {colours} colour(s): the picture is blank at this"
            " size; try a larger {width}",
            width="width",
        )
    rgbs = [_not_white(rgb_of(centres[k])) for k in used]
    named = zip(names(rgbs), rgbs, strict=True)
    palette = (WHITE, *(Colour(name, rgb, CHARS[i]) for i, (name, rgb) in enumerate(named)))
    shown = (WHITE_LAB, *(lab_of_hex(rgb) for rgb in rgbs))
    index = {k: i + 1 for i, k in enumerate(used)}
    grid = tuple(tuple(index.get(k, 0) for k in row) for row in raw)
    pairs = (pair for row, cells in zip(grid, labs, strict=True) for pair in zip(row, cells, strict=True))
    error = sum(math.dist(cell, shown[k]) for k, cell in pairs) / (tints.width * tints.height)
    return Quantised(grid, palette, labs, shown, error)


def _points(tints: Tints) -> tuple[list[Lab], list[int]]:
    """The distinct colours of the cells (binned when there are over MAX_POINTS), each with how
    many cells have it."""
    counts: dict[tuple[int, int, int], int] = {}
    for row in tints.cells:
        for red, green, blue in row:
            key = (round(red), round(green), round(blue))
            counts[key] = counts.get(key, 0) + 1
    if len(counts) <= MAX_POINTS:
        return [lab(rgb) for rgb in counts], list(counts.values())
    bins: dict[tuple[int, int, int], list[int]] = {}
    for (red, green, blue), count in counts.items():
        total = bins.setdefault((red >> 4, green >> 4, blue >> 4), [0, 0, 0, 0])
        total[0] += red * count
        total[1] += green * count
        total[2] += blue * count
        total[3] += count
    return [lab((r / n, g / n, b / n)) for r, g, b, n in bins.values()], [n for *_, n in bins.values()]


def _pillow_palette(tints: Tints, colours: int, method: str) -> list[Lab]:
    """Pillow's palette (by a method of Image.Quantize) of colours + 1 entries for the cells,
    less the one nearest white."""
    from PIL import Image

    small = Image.new("RGB", (tints.width, tints.height))
    small.putdata([tuple(round(v) for v in rgb) for row in tints.cells for rgb in row])
    reduced = small.quantize(colours + 1, method=Image.Quantize[method], dither=Image.Dither.NONE)
    entries = reduced.getpalette() or []
    used = [index for _, index in reduced.getcolors() or [] if isinstance(index, int)]  # a "P" image: indices
    found = [lab((entries[3 * i], entries[3 * i + 1], entries[3 * i + 2])) for i in used]
    found.pop(nearest(WHITE_LAB, found))
    return found


def _kmeans_plus_plus(points: list[Lab], weights: list[int], colours: int, rng: random.Random) -> list[Lab]:
    """k-means++ starting centres: after white, each pick drawn in proportion to its cells times
    its squared distance from the centres already picked."""
    picked = [WHITE_LAB]
    gaps = [w * _distance2(p, WHITE_LAB) for p, w in zip(points, weights, strict=True)]
    while len(picked) <= colours:
        total = sum(gaps)
        if total <= 0:
            break
        chosen = len(points) - 1
        mark = rng.random() * total
        for index, gap in enumerate(gaps):
            mark -= gap
            if mark <= 0 and gap > 0:
                chosen = index
                break
        picked.append(points[chosen])
        gaps = [min(g, w * _distance2(p, points[chosen])) for g, p, w in zip(gaps, points, weights, strict=True)]
    return picked[1:]


def _lloyd(points: list[Lab], weights: list[int], start: list[Lab], deadline: Deadline) -> list[Lab]:
    """Lloyd's iterations from `start`, with white (centre 0, the blank) held still."""
    centres = [WHITE_LAB, *start]
    owners: list[int] = []
    for _ in range(ITERATIONS):
        deadline.check("quantising the picture's colours")
        now = [nearest(p, centres) for p in points]
        if now == owners:
            break
        owners = now
        sums = [[0.0, 0.0, 0.0, 0] for _ in centres]
        for (lightness, a, b), weight, owner in zip(points, weights, owners, strict=True):
            total = sums[owner]
            total[0] += lightness * weight
            total[1] += a * weight
            total[2] += b * weight
            total[3] += weight
        centres[1:] = [
            (s[0] / s[3], s[1] / s[3], s[2] / s[3]) if s[3] else old
            for s, old in zip(sums[1:], centres[1:], strict=True)
        ]
    return centres


def _distinct(points: list[Lab], weights: list[int], start: list[Lab], deadline: Deadline) -> list[Lab]:
    """Lloyd's iterations from `start`; then, while two centres look alike, the later of the
    closest pair is dropped (its cells go to the nearest centre left; the blank's white stays)
    and the iterations run again, kept if they leave no two centres alike."""
    centres = _lloyd(points, weights, start, deadline)
    while (later := _alike(centres)) is not None:
        del centres[later]
        again = _lloyd(points, weights, centres[1:], deadline)
        if _alike(again) is None:
            centres = again
    return centres


def _merged(centres: list[Lab]) -> list[Lab]:
    """The centres as they are, less the later of each pair that looks alike."""
    centres = list(centres)
    while (later := _alike(centres)) is not None:
        del centres[later]
    return centres


def _alike(centres: list[Lab]) -> int | None:
    """The later of the two closest centres, if they are under MIN_DIFFERENCE apart."""
    pairs = [(math.dist(p, q), j) for i, p in enumerate(centres) for j, q in enumerate(centres) if i < j]
    distance, later = min(pairs, default=(math.inf, 0))
    return later if distance < MIN_DIFFERENCE else None


def _spread(points: list[Lab], weights: list[int], centres: list[Lab]) -> float:
    """The summed delta E between each cell and its nearest centre."""
    return sum(w * math.dist(p, centres[nearest(p, centres)]) for p, w in zip(points, weights, strict=True))


def _not_white(rgb: str) -> str:
    """A colour is never the blank's white, which would hide it."""
    return "#fefefe" if rgb == WHITE.rgb else rgb


def nearest_name(rgb: str) -> str:
    """The CSS name of a colour, else of the nearest named colour but white."""
    exact = css_name(rgb)
    if exact is not None:
        return exact
    here = lab_of_hex(rgb)
    return min((n for n, v in NAMED.items() if v != WHITE.rgb), key=lambda n: _distance2(here, lab_of_hex(NAMED[n])))


def names(rgbs: Sequence[str]) -> list[str]:
    """A distinct name for each colour, after the blank's "white": "red", "red-2"..."""
    taken = {WHITE.name}
    found = []
    for rgb in rgbs:
        stem = nearest_name(rgb)
        name = next(n for n in (stem, *(f"{stem}-{i}" for i in range(2, len(rgbs) + 2))) if n not in taken)
        taken.add(name)
        found.append(name)
    return found
