"""Generate puzzles with one solution, proved: from a picture, or at random.

    from nonosat.generate import from_image, random_puzzle
    made = from_image("cat.png", width=30, require="line")
    made.puzzle, made.changed, made.result.method
    made = from_image("parrot.png", width=30, colours=4)  # a colour puzzle

Both keep a picture (the thresholded image, its colours quantised, or a random grid), then
change as few cells as `repair` needs until the solver proves the requirement. Same arguments
and seed, same puzzle.
"""

from __future__ import annotations

import colorsys
import random
import time
from dataclasses import dataclass
from pathlib import Path

from nonosat.deadline import Deadline, alarm
from nonosat.errors import UsageError
from nonosat.generate.image import Threshold, load_shades, load_tints, threshold
from nonosat.generate.quantise import names
from nonosat.generate.quantise import quantise as quantise_colours  # the module keeps its name
from nonosat.generate.repair import REQUIREMENTS, Requirement, flip_cost, no_cost, repair
from nonosat.limits import MAX_GENERATED_SIDE, check_grid_size
from nonosat.model import Cell, Grid, Puzzle
from nonosat.palette import BLACK, BLACK_AND_WHITE, CHARS, MAX_COLOURS, SPARE_RGB, WHITE, Colour, Palette
from nonosat.solver import Result

__all__ = ["Generated", "default_max_changes", "from_image", "random_puzzle"]


@dataclass(frozen=True)
class Generated:
    """A generated puzzle (its goal is the final picture), how it was reached and its proof."""

    puzzle: Puzzle
    start: Grid
    """The picture before any change: the thresholded image, its quantised colours, or the random
    grid (cells index `puzzle.palette`)."""
    changed: tuple[Cell, ...]
    """The (row, column) cells, from 0, where the puzzle's goal differs from `start`."""
    result: Result
    """The solver's proof: status unique; method "line" when line logic alone solves it."""
    threshold: float | None
    """The grey level a black-and-white picture was cut at (None in colour, or at random)."""
    seconds: float
    colour_error: float | None = None
    """In colour, from a picture: the mean delta E (CIE76) between each cell's colour in the
    shrunk picture and its colour in `start` (the blank shows white)."""

    @property
    def changed_share(self) -> float:
        return len(self.changed) / (self.puzzle.width * self.puzzle.height)


def default_max_changes(width: int, height: int) -> int:
    """5% of the cells, and at least 10."""
    return max(10, (width * height) // 20)


def _check_colours(colours: int | None) -> None:
    """Refuse a number of colours outside 1..MAX_COLOURS, before any work."""
    if colours is not None and (isinstance(colours, bool) or not 1 <= colours <= MAX_COLOURS):
        raise UsageError(
            f"{{colours}} is a number of colours from 1 to {MAX_COLOURS}, not {colours}", colours="colours"
        )


def _check_require(require: str) -> Requirement:
    if require not in REQUIREMENTS:
        raise UsageError(f"{{require}} is 'unique' or 'line', not {require!r}", require="require")
    return Requirement(require)


def from_image(
    path: str | Path,
    *,
    width: int | None = None,
    height: int | None = None,
    threshold_level: Threshold = "otsu",
    invert: bool = False,
    colours: int | None = None,
    require: str = "unique",
    max_changes: int | None = None,
    seed: int = 0,
    timeout: float | None = None,
    title: str | None = None,
    author: str | None = None,
    license: str | None = None,
) -> Generated:
    """A puzzle from a picture file, proved unique (line-solvable with require="line").

    The picture is shrunk to `width` x `height` cells (either alone keeps the aspect ratio),
    thresholded, then repaired by flipping the cells nearest the threshold. With `colours`, a
    colour puzzle instead: the picture's colours are quantised to at most that many plus the
    blank (see `nonosat.generate.quantise`), and a repaired cell may take any other colour or
    the blank, the nearest to the picture first. The title defaults to the file name. Raises
    `BadImage` for a missing, unreadable or blank picture, and `GenerateFailed` when
    `max_changes` changes are not enough.
    """
    started = time.monotonic()
    deadline = Deadline.after(timeout)
    requirement = _check_require(require)
    _check_colours(colours)
    if colours is not None and (threshold_level != "otsu" or invert):
        given = "{threshold}" if threshold_level != "otsu" else "{invert}"
        raise UsageError(
            f"{given} is for black and white: with {{colours}} the picture's colours are quantised",
            threshold="threshold_level",
            invert="invert=True",
            colours="colours",
        )
    palette: Palette = BLACK_AND_WHITE
    cut_at = colour_error = None
    if colours is None:
        with alarm(deadline, f"reading {path}"):  # Pillow does not look at the clock
            shades = load_shades(path, width, height)
        cut = threshold(shades, threshold_level, invert, source=str(path))
        start, cost, cut_at = cut.grid, flip_cost(cut.margin), cut.threshold
    else:
        with alarm(deadline, f"reading and quantising {path}"):
            tints = load_tints(path, width, height)
            quantised = quantise_colours(tints, colours, seed=seed, source=str(path), deadline=deadline)
        start, cost, palette, colour_error = quantised.grid, quantised.cost, quantised.palette, quantised.error
    height, width = len(start), len(start[0])
    limit = default_max_changes(width, height) if max_changes is None else max_changes
    fixed = repair(
        start, cost, requirement, palette=palette, max_changes=limit, seed=seed, timeout=deadline.remaining()
    )
    name = title if title is not None else Path(path).stem.replace("_", " ").replace("-", " ")
    puzzle = Puzzle.from_grid(fixed.grid, palette, title=name, author=author, license=license)
    seconds = time.monotonic() - started
    return Generated(puzzle, start, fixed.changed, fixed.result, cut_at, seconds, colour_error)


def random_puzzle(
    width: int,
    height: int,
    *,
    density: float = 0.5,
    colours: int | None = None,
    seed: int = 0,
    require: str = "unique",
    max_changes: int | None = None,
    timeout: float | None = None,
) -> Generated:
    """A random grid with about `density` of its cells filled, repaired to meet `require`.

    With `colours` (1 to MAX_COLOURS), each filled cell takes one of that many colours at random
    (black, then distinct colours; with 1, black: the same puzzle as without `colours`)."""
    started = time.monotonic()
    requirement = _check_require(require)
    _check_colours(colours)
    if width < 1 or height < 1:
        raise UsageError("the grid's width and height must be at least 1")
    check_grid_size(width, height, what="generated puzzle", side=MAX_GENERATED_SIDE)
    if not 0.0 <= density <= 1.0:
        raise UsageError(f"{{density}} is between 0 and 1, not {density}", density="density")
    rng = random.Random(seed)
    count = 1 if colours is None else colours
    if count == 1:
        grid = tuple(tuple(int(rng.random() < density) for _ in range(width)) for _ in range(height))
    else:
        grid = tuple(
            tuple(1 + rng.randrange(count) if rng.random() < density else 0 for _ in range(width))
            for _ in range(height)
        )
    palette = random_palette(count)
    limit = default_max_changes(width, height) if max_changes is None else max_changes
    fixed = repair(grid, no_cost, requirement, palette=palette, max_changes=limit, seed=seed, timeout=timeout)
    what = f"{density:g}" if count == 1 else f"{density:g}, {count} colours"
    puzzle = Puzzle.from_grid(fixed.grid, palette, title=f"Random {width}x{height} ({what}, seed {seed})")
    return Generated(puzzle, grid, fixed.changed, fixed.result, None, time.monotonic() - started)


def random_palette(colours: int) -> Palette:
    """Black, then Trubetskoy's distinct colours, then hues a golden angle apart at three
    lightnesses; each named after its nearest CSS colour."""
    if colours == 1:
        return BLACK_AND_WHITE
    rgbs = [BLACK.rgb, *SPARE_RGB[: colours - 1]]
    step = 0
    while len(rgbs) < colours:
        red, green, blue = colorsys.hls_to_rgb(step * 0.618034 % 1, (0.3, 0.5, 0.7)[step % 3], 0.8)
        rgb = "#" + "".join(f"{round(255 * v):02x}" for v in (red, green, blue))
        if rgb not in rgbs:
            rgbs.append(rgb)
        step += 1
    return (WHITE, *(Colour(name, rgb, CHARS[i]) for i, (name, rgb) in enumerate(zip(names(rgbs), rgbs, strict=True))))
