"""The quantiser benchmark's cases: the corpus's colour goals drawn as scans, the painted
pictures, and the logos of the `distributed` package; each with the grid it is read at.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

from bench.quantise_paint import PAINTERS
from bench.verdicts import corpus_root
from nonosat import load
from nonosat.generate.image import draw_scan
from nonosat.model import Grid
from nonosat.palette import Palette

GOALS = "colour/number-loom/examples/png/*.png"
PAINTED = ("gradients", "spheres", "landscapes", "shapes")
GROUPS = ("scans", *PAINTED, "logos")
LOGOS = ("python.png", "numpy.png", "pandas.png")
SEEDS = (0, 1, 2, 3)
CELLS = 40
"""Cells wide, for every picture but the scans."""
SCALE, BLUR, NOISE = 8, 2.0, 30


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
