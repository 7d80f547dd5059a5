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

Cells are matched to colours by their means, but a colour whose cells are mostly strokes
thinner than a cell is shown as their ink: the mean of their pixels that are not white
(WASHED_OUT). A thin red line on white makes cells whose mean is pink; their ink is the line's
red. A colour whose ink looks like one already shown (the pale cells at a shape's smooth edge,
whose ink is the shape's) keeps its centre. The costs and the distance to the picture stay
those of the means.

With one colour (K = 1) the grid is the picture's silhouette: every cell far from white takes
it, whatever its hue (`_silhouette`).

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
WASHED_OUT = 12.0
"""A colour is shown as its cells' ink only when their mean is this far from it (delta E) or
further: most of its cells are strokes thinner than a cell. Where fewer are (a shape's smooth
edge), its centre, nearer the cells' own colours, is shown."""
INK_APART = 24.0
"""...and only when no colour shown is within this of its ink (delta E): the pale cells at a
red shape's smooth edge have about the shape's ink, and keep their centre."""
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
    """Each palette colour's centre (white for the blank) in CIELAB: the colour of the cells'
    means it was found for, which the costs and `error` measure against. The palette shows the
    cells' ink (Tints.inks) instead, which a thin line does not wash out with white."""
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
    if colours == 1:
        centres, raw = _silhouette(labs)
    else:
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
    into, inks = _colours_shown(tints, raw, used, centres)
    kept = [k for k in used if into[k] == k]
    rgbs = [inks[k] for k in kept]
    named = zip(names(rgbs), rgbs, strict=True)
    palette = (WHITE, *(Colour(name, rgb, CHARS[i]) for i, (name, rgb) in enumerate(named)))
    shown = (WHITE_LAB, *(centres[k] for k in kept))
    index = {k: kept.index(into[k]) + 1 for k in used}
    grid = tuple(tuple(index.get(k, 0) for k in row) for row in raw)
    pairs = (pair for row, cells in zip(grid, labs, strict=True) for pair in zip(row, cells, strict=True))
    error = sum(math.dist(cell, shown[k]) for k, cell in pairs) / (tints.width * tints.height)
    return Quantised(grid, palette, labs, shown, error)


def _silhouette(labs: tuple[tuple[Lab, ...], ...]) -> tuple[list[Lab], list[list[int]]]:
    """One colour: the cells far from white (Otsu's split of their distances from white, and at
    least MIN_DIFFERENCE), whatever their hue, and their mean (nearest of white and one centre, a
    red square beside a blue disc went blank: red is nearer white than blue)."""
    from nonosat.generate.image import otsu

    apart = [[math.dist(cell, WHITE_LAB) for cell in row] for row in labs]
    flat = [distance for row in apart for distance in row]
    cut = max(MIN_DIFFERENCE, otsu(flat) if min(flat) < max(flat) else math.inf)
    inked = [cell for row in labs for cell in row if math.dist(cell, WHITE_LAB) >= cut]
    if not inked:
        return [WHITE_LAB], [[0] * len(row) for row in labs]
    light, green_red, blue_yellow = (sum(channel) / len(inked) for channel in zip(*inked, strict=True))
    return [WHITE_LAB, (light, green_red, blue_yellow)], [[int(d >= cut) for d in row] for row in apart]


def _ink(tints: Tints, raw: list[list[int]], k: int) -> tuple[str, str, float] | None:
    """The ink of the cells matched to centre k and their mean colour, each channel's median
    over those cells weighted by the share of the cell that is inked (Tints.inks, Tints.cells:
    a median, so that the few cells where a red line crosses a blue ring do not tint the ring),
    and the shares summed; None without inks, or with no ink."""
    if tints.inks is None or tints.inkiness is None:
        return None
    inked: list[tuple[tuple[float, float, float], float]] = []
    plain: list[tuple[tuple[float, float, float], float]] = []
    for owners, inks, means, shares in zip(raw, tints.inks, tints.cells, tints.inkiness, strict=True):
        for owner, ink, mean, share in zip(owners, inks, means, shares, strict=True):
            if owner == k and share > 0:
                inked.append((ink, share))
                plain.append((mean, share))
    if not inked:
        return None
    return _median(inked), _median(plain), sum(share for _, share in inked)


def _median(weighted: list[tuple[tuple[float, float, float], float]]) -> str:
    """The colour of each channel's weighted median, as "#rrggbb"."""
    half = sum(weight for _, weight in weighted) / 2
    channels = []
    for channel in range(3):
        ordered = sorted((colour[channel], weight) for colour, weight in weighted)
        seen = 0.0
        for value, weight in ordered:
            seen += weight
            if seen >= half:
                channels.append(value)
                break
    return "#" + "".join(f"{round(min(255.0, max(0.0, v))):02x}" for v in channels)


def _colours_shown(
    tints: Tints, raw: list[list[int]], used: list[int], centres: list[Lab]
) -> tuple[dict[int, int], dict[int, str]]:
    """Each centre -> the centre whose colour its cells show (itself, or one it merges into),
    and the colour each shows: its centre, or its cells' ink when they are mostly strokes (the
    ink and the mean of its cells WASHED_OUT apart or more) and no colour shown is INK_APART
    near that ink. The centres whose cells hold the most ink choose first; a centre whose
    colour looks like one shown (under MIN_DIFFERENCE; rare) merges into it."""
    found = {k: _ink(tints, raw, k) for k in used}
    into: dict[int, int] = {}
    shown: dict[int, tuple[str, Lab]] = {}  # the colour, and the same in CIELAB (a centre's own, unrounded)
    for k in sorted(used, key=lambda k: -(found[k] or ("", "", 0.0))[2]):
        colour = (_not_white(rgb_of(centres[k])), centres[k])
        if found[k] is not None:
            ink, plain, _ = found[k]  # type: ignore[misc]
            near_ink = min((math.dist(lab_of_hex(ink), other) for _, other in shown.values()), default=math.inf)
            if _near(ink, plain) >= WASHED_OUT and near_ink >= INK_APART:
                colour = (_not_white(ink), lab_of_hex(ink))
        alike = next((j for j, (_, other) in shown.items() if math.dist(colour[1], other) < MIN_DIFFERENCE), None)
        if alike is None:
            into[k], shown[k] = k, colour
        else:
            into[k] = alike
    return into, {k: rgb for k, (rgb, _) in shown.items()}


def _near(one: str, other: str) -> float:  # delta E between two "#rrggbb" colours
    return math.dist(lab_of_hex(one), lab_of_hex(other))


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


def _not_white(rgb: str) -> str:  # a colour is never the blank's white, which would hide it
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
