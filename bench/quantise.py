"""The colour quantiser against Pillow's: how near the picture each keeps a puzzle's colours.

    python -m bench.quantise                        # every group, K = 2, 4 and 6
    python -m bench.quantise --groups scans,logos --json quantise.json
    python -m bench.quantise --save pictures/       # also keep every picture measured, to look at

Each picture is shrunk to its grid by `nonosat.generate.image.load_tints` (each cell the mean
colour of the pixels it covers, transparent pixels on white), and those cells are quantised to K
colours plus the blank, which a puzzle shows as white, by nonosat
(`nonosat.generate.quantise.quantise`) and by Pillow's quantisers on the same cells (rounded to
whole levels): median cut, maximum coverage, fast octree, and median cut refined by Pillow's
k-means (at most ITERATIONS passes, as many as nonosat's). Each Pillow method is used two ways:

- as it is: asked for K + 1 colours, each cell keeps the entry Pillow gave it, and the entry
  nearest white becomes the blank, shown as white;
- "in Lab": Pillow's colours, but each cell goes to the nearest of them in CIELAB, as nonosat
  maps its cells, the blank's white among them; of two palettes, the one nearer the picture:
  the K + 1 entries with the one nearest white made white, or K entries and white. This sets
  palette against palette, without Pillow's mapping of cells or its not knowing the blank.

The measure, per case: the mean CIE76 delta E (the distance in CIELAB, D65, computed here, not
by nonosat) between each cell's colour and the colour the puzzle shows for it, nonosat's taken
from its grid and palette. For a scan, also the cells whose shown colour is nearer another colour
of the goal than the cell's own colour.

The pictures, all made in the run, the same on every machine (seeded `random.Random`):

- scans: the 8 colour goals of number-loom's examples in the corpus, each drawn as a scan
  (`draw_scan`: 8 pixels a cell, Gaussian blur of radius 2, noise of +-30 levels a channel) and
  read back at the goal's size with K = the goal's colours.
- gradients, spheres, landscapes, shapes: pictures painted here, SEEDS of each, 240 pixels
  square, read at CELLS cells wide: blends of three colours along a random direction; shaded
  balls on a transparent ground; a sky, a sun and hills with grain; flat shapes drawn smooth
  (four times larger, then shrunk).
- logos: the three PNG logos that Dask's `distributed` package ships (Python, NumPy, pandas),
  at CELLS cells wide; left out, with a note, when `distributed` is not installed.
"""

from __future__ import annotations

import argparse
import colorsys
import importlib.util
import json
import math
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING

from bench.verdicts import corpus_root
from nonosat import load
from nonosat.formats.atomic import write_text_atomic
from nonosat.generate.image import Tints, draw_scan, load_tints
from nonosat.generate.quantise import quantise
from nonosat.model import Grid
from nonosat.palette import Palette

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

Lab = tuple[float, float, float]
RGB = tuple[int, int, int]

GOALS = "colour/number-loom/examples/png/*.png"
PAINTED = ("gradients", "spheres", "landscapes", "shapes")
GROUPS = ("scans", *PAINTED, "logos")
LOGOS = ("python.png", "numpy.png", "pandas.png")
COLOURS = (2, 4, 6)
SEEDS = (0, 1, 2, 3)
SIDE = 240
"""Pixels a side of a painted picture."""
CELLS = 40
"""Cells wide, for every picture but the scans."""
SCALE, BLUR, NOISE = 8, 2.0, 30
ITERATIONS = 30
"""Pillow's k-means passes at most, as nonosat's `quantise.ITERATIONS`."""
PILLOW = ("median cut", "max coverage", "octree", "median cut + k-means")
IN_LAB = ", in Lab"
RIVALS = tuple(name for m in PILLOW for name in (m, m + IN_LAB))
METHODS = ("nonosat", *RIVALS)


# --- the measure --------------------------------------------------------------------------------


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


# --- the cases ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One picture, the grid it is read at, and for a scan the goal it was drawn from."""

    group: str
    name: str
    path: Path
    width: int
    height: int | None = None
    goal: tuple[Grid, Palette] | None = None


def scans(folder: Path) -> list[Case]:
    """The corpus's colour goal pictures, each drawn as a blurred, noisy scan into `folder`."""
    goals = sorted(corpus_root().glob(GOALS))
    if not goals:
        raise SystemExit(f"bench.quantise: no pictures at {corpus_root() / GOALS}; set NONOSAT_CORPUS")
    cases = []
    for path in goals:
        puzzle = load(path)
        assert puzzle.goal is not None
        scan = folder / f"scan-{path.name}"
        draw_scan(puzzle.goal, scan, scale=SCALE, blur=BLUR, noise=NOISE, seed=0, palette=puzzle.palette)
        cases.append(Case("scans", path.stem, scan, puzzle.width, puzzle.height, (puzzle.goal, puzzle.palette)))
    return cases


def painted(group: str, folder: Path, seeds: Sequence[int] = SEEDS) -> list[Case]:
    """The group's pictures, one per seed, painted here and saved into `folder`."""
    cases = []
    for seed in seeds:
        path = folder / f"{group}-{seed}.png"
        PAINTERS[group](Random(f"nonosat bench.quantise {group} {seed}")).save(path)
        cases.append(Case(group, f"{group}-{seed}", path, CELLS))
    return cases


def logos() -> list[Case]:
    """The logos the `distributed` package ships, or none (with a note) when it is missing."""
    spec = importlib.util.find_spec("distributed")  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        print("bench.quantise: logos left out: the distributed package is not installed", file=sys.stderr)
        return []
    folder = Path(next(iter(spec.submodule_search_locations))) / "http" / "static" / "images"
    return [Case("logos", Path(name).stem, folder / name, CELLS) for name in LOGOS]


def cases_of(groups: Sequence[str], folder: Path) -> list[Case]:
    found = []
    for group in groups:
        if group == "scans":
            found += scans(folder)
        elif group == "logos":
            found += logos()
        else:
            found += painted(group, folder)
    return found


# --- the painted pictures -------------------------------------------------------------------------


def any_colour(rng: Random) -> RGB:
    """A colour of random hue, fairly saturated, neither near black nor near white."""
    red, green, blue = colorsys.hls_to_rgb(rng.random(), rng.uniform(0.25, 0.75), rng.uniform(0.45, 1.0))
    return round(255 * red), round(255 * green), round(255 * blue)


def mix(a: Sequence[float], b: Sequence[float], t: float) -> RGB:
    r, g, bl = (x + (y - x) * t for x, y in zip(a, b, strict=True))
    return round(r), round(g), round(bl)


def gradient(rng: Random) -> PILImage:
    """Three colours blended one into the next along a random direction, the way across bent by
    a slow wave: nothing but continuous tone, as in a sky or a shaded surface."""
    from PIL import Image

    stops = [any_colour(rng) for _ in range(3)]
    angle, wave, phase = rng.uniform(0, math.tau), rng.uniform(0.05, 0.15), rng.uniform(0, math.tau)
    dx, dy = math.cos(angle), math.sin(angle)
    reach = SIDE * (abs(dx) + abs(dy)) / 2
    pixels = []
    for y in range(SIDE):
        for x in range(SIDE):
            along = ((x - SIDE / 2) * dx + (y - SIDE / 2) * dy) / reach  # -1..1
            t = min(1.0, max(0.0, (along + 1) / 2 + wave * math.sin(phase + 6 * (x * dy - y * dx) / SIDE)))
            pixels.append(mix(stops[0], stops[1], 2 * t) if t < 0.5 else mix(stops[1], stops[2], 2 * t - 1))
    image = Image.new("RGB", (SIDE, SIDE))
    image.putdata(pixels)
    return image


def spheres(rng: Random) -> PILImage:
    """Three to six shaded balls, lit from the upper left, on a transparent ground (read as white),
    as in an icon: each colour from its shadow to a white highlight, edges smooth."""
    from PIL import Image

    big = 2 * SIDE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    light = (-0.5, -0.6, 0.62)
    for _ in range(rng.randint(3, 6)):
        base = any_colour(rng)
        radius = rng.uniform(0.12, 0.3) * big
        cx, cy = rng.uniform(radius, big - radius), rng.uniform(radius, big - radius)
        for y in range(int(cy - radius), int(cy + radius) + 1):
            for x in range(int(cx - radius), int(cx + radius) + 1):
                nx, ny = (x + 0.5 - cx) / radius, (y + 0.5 - cy) / radius
                if nx * nx + ny * ny >= 1:
                    continue
                nz = math.sqrt(1 - nx * nx - ny * ny)
                lit = max(0.0, nx * light[0] + ny * light[1] + nz * light[2])
                shade = mix((0, 0, 0), base, 0.3 + 0.7 * lit)
                image.putpixel((x, y), (*mix(shade, (255, 255, 255), lit**12), 255))
    return image.resize((SIDE, SIDE), Image.Resampling.BOX)


def landscape(rng: Random) -> PILImage:
    """A sky fading to the horizon, a sun with a glow, three ranges of hills (each darker and
    nearer, shaded down its slope) and grain of +-8 levels a channel: a photograph, roughly."""
    from PIL import Image

    zenith, horizon = mix(any_colour(rng), (40, 60, 140), 0.5), mix(any_colour(rng), (255, 230, 200), 0.6)
    sun = (rng.uniform(0.15, 0.85) * SIDE, rng.uniform(0.1, 0.35) * SIDE, rng.uniform(0.04, 0.08) * SIDE)
    hills = []
    for layer in range(3):
        waves = [(rng.uniform(1, 4), rng.uniform(0, math.tau), rng.uniform(0.02, 0.06)) for _ in range(3)]
        colour = mix(any_colour(rng), (20, 40, 20), 0.25 + 0.2 * layer)
        hills.append((0.45 + 0.15 * layer, waves, colour))
    pixels = []
    for y in range(SIDE):
        sky = mix(zenith, horizon, y / SIDE)
        for x in range(SIDE):
            colour = sky
            glow = math.dist((x, y), sun[:2]) / sun[2]
            if glow < 1:
                colour = (255, 244, 200)
            elif glow < 4:
                colour = mix(colour, (255, 236, 180), ((4 - glow) / 3) ** 2)
            for top, waves, hill in hills:
                ridge = SIDE * (top + sum(a * math.sin(f * math.tau * x / SIDE + p) for f, p, a in waves))
                if y >= ridge:
                    colour = mix(hill, (0, 0, 0), min(0.5, (y - ridge) / SIDE))
            pixels.append(tuple(min(255, max(0, v + rng.randint(-8, 8))) for v in colour))
    image = Image.new("RGB", (SIDE, SIDE))
    image.putdata(pixels)
    return image


def shapes(rng: Random) -> PILImage:
    """Six to twelve flat shapes (ellipses, rectangles, triangles) in three to five colours on
    white, drawn four times larger and shrunk, so that their edges are smooth: a flat illustration."""
    from PIL import Image, ImageDraw

    big = 4 * SIDE
    image = Image.new("RGB", (big, big), "white")
    pen = ImageDraw.Draw(image)
    inks = [any_colour(rng) for _ in range(rng.randint(3, 5))]
    for _ in range(rng.randint(6, 12)):
        ink = rng.choice(inks)
        x, y = rng.uniform(0, big), rng.uniform(0, big)
        w, h = rng.uniform(0.05, 0.3) * big, rng.uniform(0.05, 0.3) * big
        kind = rng.choice(("ellipse", "rectangle", "triangle"))
        if kind == "ellipse":
            pen.ellipse([x - w, y - h, x + w, y + h], fill=ink)
        elif kind == "rectangle":
            pen.rectangle([x - w, y - h, x + w, y + h], fill=ink)
        else:
            pen.polygon([(x + rng.uniform(-w, w), y + rng.uniform(-h, h)) for _ in range(3)], fill=ink)
    return image.resize((SIDE, SIDE), Image.Resampling.LANCZOS)


PAINTERS: dict[str, Callable[[Random], PILImage]] = {
    "gradients": gradient,
    "spheres": spheres,
    "landscapes": landscape,
    "shapes": shapes,
}


# --- the run ------------------------------------------------------------------------------------


def measure(case: Case, colour_counts: Sequence[int] = COLOURS) -> Iterator[dict[str, object]]:
    """One row per colour count (a scan's own count only): every method's mean delta E and
    seconds, and for a scan its cells off the goal."""
    tints = load_tints(case.path, case.width, case.height)
    cells = cell_labs(tints)
    goal_cells: list[int] = []
    goal_colours: list[Lab] = []
    if case.goal is not None:
        grid, palette = case.goal
        goal_cells = [cell for row in grid for cell in row]
        goal_colours = [lab(colour.red_green_blue) for colour in palette]
        colour_counts = (len(palette) - 1,)
    for colours in colour_counts:
        row: dict[str, object] = {"group": case.group, "case": case.name, "K": colours, "cells": len(cells)}
        error, seconds, off = {}, {}, {}
        for method in METHODS:
            started = time.perf_counter()
            if method == "nonosat":
                shown = nonosat_shown(tints, colours)
            elif method.endswith(IN_LAB):
                shown = pillow_shown_in_lab(tints, colours, method.removesuffix(IN_LAB), cells)
            else:
                shown = pillow_shown(tints, colours, method)
            seconds[method] = time.perf_counter() - started
            error[method] = mean_delta_e(cells, shown)
            if case.goal is not None:
                off[method] = off_goal(shown, goal_cells, goal_colours)
        row.update(delta_e=error, seconds=seconds, off_goal=off or None)
        yield row


def ratio(a: float, b: float) -> float:
    """a / b, infinite when only b is 0, 1 when both are."""
    if b == 0:
        return 1.0 if a == 0 else math.inf
    return a / b


def case_table(rows: Sequence[dict[str, object]]) -> str:
    """Per case: nonosat's mean delta E, then each Pillow method's, as it is and in Lab, and
    nonosat's ratio to each."""
    head = "| case | K | cells | nonosat | " + " | ".join(f"{m}: as is / in Lab | ratios" for m in PILLOW) + " |"
    lines = [head, "|---|---:|---:|---:|" + "---:|---:|" * len(PILLOW)]
    for row in rows:
        error: dict[str, float] = row["delta_e"]  # type: ignore[assignment]
        ours = error["nonosat"]
        cells = " | ".join(_pair(error, m) for m in PILLOW)
        lines.append(f"| {row['case']} | {row['K']} | {row['cells']} | {ours:.2f} | {cells} |")
    return "\n".join(lines)


def _pair(error: dict[str, float], method: str) -> str:
    """A Pillow method's delta E as it is / in Lab, then nonosat's ratios to them."""
    own, in_lab = error[method], error[method + IN_LAB]
    ours = error["nonosat"]
    return f"{own:.2f} / {in_lab:.2f} | {ratio(ours, own):.2f} / {ratio(ours, in_lab):.2f}"


def summary(rows: Sequence[dict[str, object]]) -> dict[str, dict[str, object]]:
    """Per group and over all: each method's mean delta E over the cases, nonosat's ratio to it,
    in how many cases nonosat is lower, within 0.01, or higher, its seconds in all, and (scans)
    its cells off the goal."""
    found: dict[str, dict[str, object]] = {}
    groups = list(dict.fromkeys(str(row["group"]) for row in rows))
    for group in [*groups, "all"] if len(groups) > 1 else groups:
        chosen = [row for row in rows if group in ("all", row["group"])]
        errors: list[dict[str, float]] = [row["delta_e"] for row in chosen]  # type: ignore[misc]
        times: list[dict[str, float]] = [row["seconds"] for row in chosen]  # type: ignore[misc]
        offs: list[dict[str, int]] = [row["off_goal"] for row in chosen if row["off_goal"]]  # type: ignore[misc]
        means = {m: statistics.fmean(e[m] for e in errors) for m in METHODS}
        found[group] = {
            "cases": len(chosen),
            "cells": sum(int(row["cells"]) for row in chosen),  # type: ignore[call-overload]
            "mean_delta_e": means,
            "ratio": {m: ratio(means["nonosat"], means[m]) for m in RIVALS},
            "nonosat_lower": {m: sum(e["nonosat"] < e[m] - 0.01 for e in errors) for m in RIVALS},
            "within_001": {m: sum(abs(e["nonosat"] - e[m]) <= 0.01 for e in errors) for m in RIVALS},
            "nonosat_higher": {m: sum(e["nonosat"] > e[m] + 0.01 for e in errors) for m in RIVALS},
            "seconds": {m: sum(t[m] for t in times) for m in METHODS},
            "off_goal": {m: sum(o[m] for o in offs) for m in METHODS} if offs else None,
            "scan_cells": sum(int(r["cells"]) for r in chosen if r["off_goal"]) or None,  # type: ignore[call-overload]
        }
    return found


def summary_table(found: dict[str, dict[str, object]]) -> str:
    """Three tables: each method's mean delta E per group; nonosat's ratio to each Pillow method
    per group; and over the last group ("all" when there are several), in how many cases nonosat
    is lower, within 0.01 or higher, the cells off the goal on the scans, and the seconds."""
    means = _head(["group", "cases", *METHODS])
    ratios = _head(["group", "cases", *(f"nonosat / {m}" for m in RIVALS)])
    for group, s in found.items():
        mean: dict[str, float] = s["mean_delta_e"]  # type: ignore[assignment]
        ratio_of: dict[str, float] = s["ratio"]  # type: ignore[assignment]
        means += f"\n| {group} | {s['cases']} | " + " | ".join(f"{mean[m]:.2f}" for m in METHODS) + " |"
        ratios += f"\n| {group} | {s['cases']} | " + " | ".join(f"{ratio_of[m]:.3f}" for m in RIVALS) + " |"
    group, s = list(found.items())[-1]
    offs: dict[str, int] | None = s["off_goal"]  # type: ignore[assignment]
    seconds: dict[str, float] = s["seconds"]  # type: ignore[assignment]
    names = ["nonosat lower", "within 0.01", "nonosat higher", "scan cells off the goal", "seconds"]
    tally = [_head([f"method ({group}, {s['cases']} cases)", *names])]
    for method in METHODS:
        counts = "- | - | -" if method == "nonosat" else " | ".join(str(s[k][method]) for k in TALLIES)  # type: ignore[index]
        off = f"{offs[method]} of {s['scan_cells']}" if offs else "-"
        tally.append(f"| {method} | {counts} | {off} | {seconds[method]:.2f} |")
    return "\n\n".join([means, ratios, "\n".join(tally)])


def _head(names: Sequence[str]) -> str:
    """A table's header and its rule, the first column left, the rest right."""
    return "| " + " | ".join(names) + " |\n|---|" + "---:|" * (len(names) - 1)


TALLIES = ("nonosat_lower", "within_001", "nonosat_higher")


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for package in ("nonosat", "pillow", "distributed"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.quantise", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--groups", default=",".join(GROUPS), help=f"comma-separated, from: {', '.join(GROUPS)}")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write every case's figures as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    parser.add_argument("--save", type=Path, metavar="DIR", help="keep the pictures measured (scans, painted) here")
    args = parser.parse_args(argv)
    groups = [g.strip() for g in args.groups.split(",") if g.strip()]
    if not groups or any(g not in GROUPS for g in groups):
        print(f"bench.quantise: choose groups from {', '.join(GROUPS)}", file=sys.stderr)
        return 2
    if args.json is not None and args.json.exists() and not args.force:
        print(f"bench.quantise: {args.json} already exists; use --force to overwrite it", file=sys.stderr)
        return 2
    try:
        import PIL  # noqa: F401
    except ImportError:
        print("bench.quantise: needs Pillow: pip install -e '.[test]'", file=sys.stderr)
        return 2
    print(" ".join(f"{k} {v}" for k, v in versions().items()), flush=True)
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.save or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for case in cases_of(groups, folder):
            for row in measure(case):
                rows.append(row)
                print(case_table([row]).split("\n", 2)[2], flush=True)
    print()
    print(case_table(rows))
    print()
    found = summary(rows)
    print(summary_table(found))
    if args.json is not None:
        payload = {"versions": versions(), "cases": rows, "summary": found}
        write_text_atomic(args.json, json.dumps(payload, indent=2) + "\n", force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
