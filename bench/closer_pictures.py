"""The closing tries' distance limit, measured: each picture made with it and without it.

    python -m bench.closer_pictures                       # every group, seeds 9301-9330 etc.
    python -m bench.closer_pictures --groups fresh-25 --first 10

After a repair finds a puzzle, `nonosat.generate.repair` runs it again with tighter limits and
keeps the closest puzzle (`CLOSER_TRIES`): first tries that allow fewer changed cells, then tries
that hold the distance below `NEARER` times the closest's; `NEARER = None` leaves only the
former (as before the distance was held). Each picture is made both ways, in
one process, one after the other, with `from_image` and the same options; printed per group:
the summed distance and changed cells either way, how many came out closer or further, and the
seconds either way with their ratio.

The groups: pictures drawn afresh here (rings, lines and boxes of random sizes and strokes,
blurred, 240x240 pixels, from their seeds) at 25 wide (seeds 9301-9330), at 40 wide
(9401-9420) and in 3 colours at 25 (9501-9510); and the repository's pictures (the smiley at
20, 30 and 40 wide, the knot at 25 and 45, the headphones at 30; in colour the headphones at 30
and the smiley at 30 in 2). Each is made with `line` and with `unique`.
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from bench.repair_ideas import setting
from nonosat.errors import GenerateFailed, TimeUp
from nonosat.generate import Generated, PictureBytes, from_image
from nonosat.generate.image import PictureSource

repair_module: ModuleType = importlib.import_module("nonosat.generate.repair")  # `repair` is also the function
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
SIDE, OVERSAMPLE = 240, 4
TIMEOUT = 120.0
REQUIRES = ("line", "unique")
GROUPS = {"fresh-25": (9301, 30, 25, None), "fresh-40": (9401, 20, 40, None), "fresh-colour": (9501, 10, 25, 3)}
"""A group of fresh pictures: its first seed, how many, the width in cells and the colours."""
REPOSITORY = (
    ("smiley-picture.png", 20, None),
    ("smiley-picture.png", 30, None),
    ("smiley-picture.png", 40, None),
    ("knot-picture.png", 25, None),
    ("knot-picture.png", 45, None),
    ("number-loom-headphones.png", 30, None),
    ("number-loom-headphones.png", 30, 4),
    ("smiley-picture.png", 30, 2),
)


@dataclass(frozen=True)
class Case:
    group: str
    name: str
    source: PictureSource
    width: int
    colours: int | None


def drawn(seed: int, colours: int | None) -> PictureBytes:
    """Rings, lines and boxes of random sizes and strokes, black (or of `colours` random colours)
    on white, drawn large, shrunk (antialiased) and blurred."""
    from PIL import Image, ImageDraw, ImageFilter

    pick = random.Random(seed)
    inks = [(0, 0, 0)] if colours is None else [tuple(pick.randrange(200) for _ in "rgb") for _ in range(colours)]
    big = SIDE * OVERSAMPLE
    picture = Image.new("RGB", (big, big), "white")
    pen = ImageDraw.Draw(picture)
    for _ in range(pick.randint(3, 7)):
        ink, stroke = pick.choice(inks), pick.randint(2, 12) * OVERSAMPLE
        x, y = pick.randrange(big), pick.randrange(big)
        w, h = pick.randint(big // 10, big // 2), pick.randint(big // 10, big // 2)
        box = (x - w // 2, y - h // 2, x + w // 2, y + h // 2)
        shape = pick.choice(("ring", "line", "box", "disc"))
        if shape == "ring":
            pen.ellipse(box, outline=ink, width=stroke)
        elif shape == "line":
            pen.line(box, fill=ink, width=stroke)
        elif shape == "box":
            pen.rectangle(box, outline=ink, width=stroke)
        else:
            pen.ellipse(box, fill=ink)
    small = picture.resize((SIDE, SIDE), Image.Resampling.LANCZOS).filter(ImageFilter.GaussianBlur(pick.uniform(0, 3)))
    data = io.BytesIO()
    small.save(data, "PNG")
    return PictureBytes(f"fresh-{seed}.png", data.getvalue())


def cases(groups: list[str], first: int | None) -> Iterator[Case]:
    for group in groups:
        if group == "repository":
            for name, width, colours in REPOSITORY[:first]:
                yield Case(
                    group,
                    f"{Path(name).stem} {width}{'' if colours is None else f' c{colours}'}",
                    PUZZLES / name,
                    width,
                    colours,
                )
            continue
        start, count, width, colours = GROUPS[group]
        for seed in range(start, start + min(count, first or count)):
            yield Case(group, str(seed), drawn(seed, colours), width, colours)


def made(case: Case, require: str) -> tuple[Generated | None, float]:
    started = time.monotonic()
    try:
        found = from_image(case.source, width=case.width, colours=case.colours, require=require, timeout=TIMEOUT)
    except (GenerateFailed, TimeUp):
        found = None
    return found, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", default=",".join([*GROUPS, "repository"]))
    parser.add_argument("--first", type=int, default=None, help="the first N pictures of each group")
    parser.add_argument("--requires", default=",".join(REQUIRES))
    args = parser.parse_args(argv)
    groups, requires = args.groups.split(","), args.requires.split(",")
    unknown = [group for group in groups if group not in GROUPS and group != "repository"]
    if unknown:
        parser.error(f"unknown groups: {', '.join(unknown)}")
    totals: dict[tuple[str, str], list[float]] = {}
    for case in cases(groups, args.first):
        for require in requires:
            with setting(repair_module, "NEARER", None):
                before, before_seconds = made(case, require)
            after, after_seconds = made(case, require)
            if before is None or after is None:
                print(f"{case.group} {case.name} {require}: no puzzle ({before is not None} / {after is not None})")
                continue
            row = totals.setdefault((case.group, require), [0.0] * 8)
            moved = (after.distance > before.distance + 1e-9) - (after.distance < before.distance - 1e-9)
            for index, value in enumerate(
                (before.distance, after.distance, len(before.changed), len(after.changed),
                 moved < 0, moved > 0, before_seconds, after_seconds)
            ):  # fmt: skip
                row[index] += value
            print(
                f"{case.group} {case.name} {require}: {len(before.changed)} cells {before.distance:.2f}"
                f" ({before_seconds:.2f} s) -> {len(after.changed)} cells {after.distance:.2f} ({after_seconds:.2f} s)",
                flush=True,
            )
    print("\n| group | require | distance, before -> after | cells | closer | further | seconds | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (group, require), row in totals.items():
        d0, d1, c0, c1, closer, further, s0, s1 = row
        print(
            f"| {group} | {require} | {d0:.2f} -> {d1:.2f} | {c0:.0f} -> {c1:.0f} | {closer:.0f} | {further:.0f}"
            f" | {s0:.1f} -> {s1:.1f} | {s1 / s0:.2f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
