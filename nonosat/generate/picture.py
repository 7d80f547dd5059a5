"""A picture file made into a grid to repair: thresholded (black and white) or quantised
(colour), with what changing each cell costs."""

from __future__ import annotations

import operator
from dataclasses import dataclass

from nonosat.arguments import check_flag
from nonosat.deadline import Deadline, alarm, finished_by
from nonosat.errors import UsageError
from nonosat.generate.drawing import Cost
from nonosat.generate.image import PictureSource, Threshold, load_shades, load_tints, threshold
from nonosat.generate.quantise import quantise as quantise_colours  # the module keeps its name
from nonosat.generate.repair import flip_cost
from nonosat.model import Grid
from nonosat.palette import BLACK_AND_WHITE, MAX_COLOURS, Palette

GREY_UNIT = 127.5
"""Grey levels a change of full contrast costs: black's distance from mid-grey."""
COLOUR_UNIT = 100.0
"""Delta E a change of full contrast costs: black's distance from white."""


@dataclass(frozen=True)
class Picture:
    """A picture as a grid of cells, before any repair."""

    grid: Grid
    """Cells index `palette` (0 the blank)."""
    cost: Cost
    palette: Palette
    threshold: float | None
    """The grey level a black-and-white picture was cut at (None in colour)."""
    colour_error: float | None
    """In colour: the mean delta E between each cell's colour in the shrunk picture and its
    colour in `grid` (the blank shows white)."""
    unit: float
    """What `cost` says of a change of full contrast (see `nonosat.generate.drawing`)."""


def check_colours(colours: int | None) -> None:
    """Refuse a number of colours outside 1..MAX_COLOURS, before any work."""
    if colours is not None and (not _whole(colours) or not 1 <= colours <= MAX_COLOURS):
        raise UsageError(
            f"{{colours}} is a number of colours from 1 to {MAX_COLOURS}, not {colours!r}", colours="colours"
        )


def check_numbers(**numbers: object) -> None:
    """Refuse, before any work, a size (`width`, `height`: 1 or more), `max_changes` (0 or more)
    or `seed` (any) that is not a whole number (a review found `width=1.5` or `"20"` a
    TypeError from Pillow, and `max_changes=-1` taken). None is no choice, where one is allowed."""
    least = {"width": 1, "height": 1, "max_changes": 0}
    for name, value in numbers.items():
        if value is None and name != "seed":
            continue
        low = least.get(name)
        if not _whole(value) or (low is not None and operator.index(value) < low):  # type: ignore[arg-type]
            shape = "a whole number" if low is None else f"a whole number, {low} or more"
            raise UsageError(f"{{{name}}} is {shape}, not {value!r}", **{name: name})


def _whole(value: object) -> bool:
    """Whether `value` is a whole number (NumPy's too), not a bool."""
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


def read_picture(
    path: PictureSource,
    width: int | None,
    height: int | None,
    *,
    threshold_level: Threshold = "otsu",
    invert: bool = False,
    colours: int | None = None,
    seed: int = 0,
    deadline: Deadline,
) -> Picture:
    """Shrink a picture file to `width` x `height` cells (either alone keeps the aspect ratio)
    and threshold it, or with `colours`, quantise its colours (see `nonosat.generate.quantise`)."""
    check_colours(colours)
    check_flag(invert, "invert")
    if colours is not None and (threshold_level != "otsu" or invert):
        given = "{threshold}" if threshold_level != "otsu" else "{invert}"
        raise UsageError(
            f"{given} is for black and white: with {{colours}} the picture's colours are quantised",
            threshold="threshold_level",
            invert="invert=True",
            colours="colours",
        )
    if colours is None:
        shades = finished_by(deadline, f"reading {path}", lambda: load_shades(path, width, height))
        cut = threshold(shades, threshold_level, invert, source=str(path))
        return Picture(cut.grid, flip_cost(cut.margin, cut.grid), BLACK_AND_WHITE, cut.threshold, None, GREY_UNIT)
    tints = finished_by(deadline, f"reading {path}", lambda: load_tints(path, width, height))
    with alarm(deadline, f"quantising {path}"):
        quantised = quantise_colours(tints, colours, seed=seed, source=str(path), deadline=deadline)
    return Picture(quantised.grid, quantised.cost, quantised.palette, None, quantised.error, COLOUR_UNIT)
