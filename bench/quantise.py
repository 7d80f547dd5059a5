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
import json
import platform
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from importlib import metadata
from pathlib import Path

from bench.quantise_cases import GROUPS, Case, cases_of
from bench.quantise_measure import (
    IN_LAB,
    METHODS,
    Lab,
    cell_labs,
    lab,
    mean_delta_e,
    nonosat_shown,
    off_goal,
    pillow_shown,
    pillow_shown_in_lab,
)
from bench.quantise_tables import case_table, summary, summary_table
from nonosat.formats.atomic import write_text_atomic
from nonosat.generate.image import load_tints

COLOURS = (2, 4, 6)


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
