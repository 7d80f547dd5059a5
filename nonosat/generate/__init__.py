"""Generate puzzles with one solution, proved: from a picture, or at random.

    from nonosat.generate import from_image, random_puzzle, suggest_edits
    made = from_image("cat.png", width=30, require="line")
    made.puzzle, made.changed, made.distance, made.result.method
    made = from_image("parrot.png", width=30, colours=4)  # a colour puzzle
    suggestions = suggest_edits("cat.png", width=30, count=5)  # one-cell edits, none made

Both keep a picture (the thresholded image, its colours quantised, or a random picture), then
change as few cells as `repair` needs until the solver proves the requirement. Same arguments
and seed, same puzzle.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from nonosat.deadline import Deadline
from nonosat.errors import UsageError
from nonosat.generate.image import PictureBytes, PictureSource, Threshold
from nonosat.generate.picture import check_colours, check_numbers, read_picture
from nonosat.generate.random_picture import random_palette, random_picture
from nonosat.generate.repair import REQUIREMENTS, Requirement, no_cost, repair
from nonosat.generate.suggestions import Edit, suggest
from nonosat.limits import MAX_GENERATED_SIDE, check_grid_size
from nonosat.model import Cell, Grid, Puzzle
from nonosat.palette import Palette
from nonosat.solver import Result

__all__ = [
    "Edit",
    "Generated",
    "PictureBytes",
    "default_max_changes",
    "from_image",
    "random_palette",
    "random_puzzle",
    "Suggestions",
    "suggest_edits",
]


@dataclass(frozen=True)
class Generated:
    """A generated puzzle (its goal is the final picture), how it was reached and its proof."""

    puzzle: Puzzle
    start: Grid
    """The picture before any change: the thresholded image, its quantised colours, or the random
    picture (cells index `puzzle.palette`)."""
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
    distance: float = 0.0
    """How far the changes moved the picture: each changed cell counts its grey level's distance
    from the threshold over 127.5 (1 for a black or a white cell cut at mid-grey, less for a cell
    near the threshold); in colour, the delta E it moved further from the picture over 100 (as
    far as black is from white); at random, 1 each."""

    @property
    def changed_share(self) -> float:
        return len(self.changed) / (self.puzzle.width * self.puzzle.height)


@dataclass(frozen=True)
class Suggestions:
    """One-cell edits for a picture's puzzle, none made (see `suggest_edits`)."""

    open: int
    """The cells line logic leaves open in the puzzle as drawn."""
    edits: list[Edit]
    """The best edits, best first."""
    palette: Palette
    """What each edit's colour is (0 the blank)."""


def default_max_changes(width: int, height: int) -> int:
    """10% of the cells, and at least 10."""
    return max(10, (width * height) // 10)


def _check_require(require: str) -> Requirement:
    if require not in REQUIREMENTS:
        raise UsageError(f"{{require}} is 'unique', 'probe' or 'line', not {require!r}", require="require")
    return Requirement(require)


def _check_distance(max_distance: float | None) -> None:
    if max_distance is not None and (not isinstance(max_distance, int | float) or not max_distance >= 0):
        raise UsageError(f"{{max_distance}} is 0 or more, not {max_distance!r}", max_distance="max_distance")


def from_image(
    path: PictureSource,
    *,
    width: int | None = None,
    height: int | None = None,
    threshold_level: Threshold = "otsu",
    invert: bool = False,
    colours: int | None = None,
    require: str = "unique",
    max_changes: int | None = None,
    max_distance: float | None = None,
    seed: int = 0,
    timeout: float | Deadline | None = None,
    title: str | None = None,
    author: str | None = None,
    license: str | None = None,
    read: Callable[[Puzzle], None] | None = None,
) -> Generated:
    """A puzzle from a picture file, proved unique (solvable by line logic with require="line",
    by line logic and one-cell lookahead with require="probe").

    The picture is shrunk to `width` x `height` cells (either alone keeps the aspect ratio),
    thresholded, then repaired one cell at a time (see `nonosat.generate.search`): the change
    after which line logic leaves the fewest cells open for what it costs the picture (cells
    near the threshold are cheap; specks and holes are dear). With `colours`, a colour puzzle
    instead: the picture's colours are quantised to at most that many plus the blank (see
    `nonosat.generate.quantise`), and a repaired cell may take a neighbour's colour or the
    blank. The title defaults to the file name. Raises `BadImage` for a missing, unreadable or
    blank picture, and `GenerateFailed` when `max_changes` changed cells (or a `distance` of
    `max_distance`) are not enough. `read`, if given, is called with the picture's own puzzle
    once it is read, before the repair (the command line refuses there an output format that
    cannot hold it: a colour puzzle as .nin, a puzzle that is not square as a tournament).
    """
    started = time.monotonic()
    deadline = Deadline.of(timeout)
    requirement = _check_require(require)
    _check_distance(max_distance)
    check_numbers(width=width, height=height, max_changes=max_changes, seed=seed)
    for name, value in (("title", title), ("author", author), ("license", license)):
        if value is not None and not isinstance(value, str):  # before the work, not after it (a review)
            raise UsageError(f"{name} is text or None, not {type(value).__name__}")
    if read is not None and not callable(read):  # read="print" failed after the picture was read (a review)
        raise UsageError(f"read is a function of the picture's puzzle, or None, not {type(read).__name__}")
    picture = read_picture(
        path,
        width,
        height,
        threshold_level=threshold_level,
        invert=invert,
        colours=colours,
        seed=seed,
        deadline=deadline,
    )
    start = picture.grid
    height, width = len(start), len(start[0])
    name = title if title is not None else Path(str(path)).stem.replace("_", " ").replace("-", " ")
    if read is not None:
        read(Puzzle.from_grid(start, picture.palette, title=name))
    limit = default_max_changes(width, height) if max_changes is None else max_changes
    fixed = repair(
        start,
        picture.cost,
        requirement,
        palette=picture.palette,
        max_changes=limit,
        max_distance=max_distance,
        unit=picture.unit,
        seed=seed,
        timeout=deadline,
    )
    puzzle = Puzzle.from_grid(fixed.grid, picture.palette, title=name, author=author, license=license)
    seconds = time.monotonic() - started
    return Generated(
        puzzle, start, fixed.changed, fixed.result, picture.threshold, seconds, picture.colour_error, fixed.distance
    )


def suggest_edits(
    path: PictureSource,
    *,
    width: int | None = None,
    height: int | None = None,
    threshold_level: Threshold = "otsu",
    invert: bool = False,
    colours: int | None = None,
    count: int = 5,
    seed: int = 0,
    timeout: float | Deadline | None = None,
) -> Suggestions:
    """For authors who edit by hand: the cells line logic leaves open in the picture's puzzle
    (read as `from_image` reads it), and the `count` one-cell edits that free the most cells for
    what they cost the picture, best first, each with the cells left open after it. None is
    made; no edit is suggested when line logic already solves the puzzle."""
    deadline = Deadline.of(timeout)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise UsageError(f"{{count}} is a number of edits, 1 or more, not {count!r}", count="count")
    check_numbers(width=width, height=height, seed=seed)
    picture = read_picture(
        path,
        width,
        height,
        threshold_level=threshold_level,
        invert=invert,
        colours=colours,
        seed=seed,
        deadline=deadline,
    )
    left, edits = suggest(
        picture.grid,
        picture.cost,
        count,
        palette=picture.palette,
        unit=picture.unit,
        seed=seed,
        timeout=deadline,
    )
    return Suggestions(left, edits, picture.palette)


def random_puzzle(
    width: int,
    height: int,
    *,
    density: float = 0.5,
    colours: int | None = None,
    seed: int = 0,
    require: str = "unique",
    max_changes: int | None = None,
    timeout: float | Deadline | None = None,
) -> Generated:
    """A random picture with about `density` of its cells filled, repaired to meet `require`.

    The picture is made as Simon Tatham's Pattern makes its puzzles (see `random_picture`), so
    that it has shapes rather than noise. With `colours` (1 to MAX_COLOURS), its filled cells
    take that many colours in patches (black, then distinct colours; with 1, black: the same
    puzzle as without `colours`)."""
    started = time.monotonic()
    requirement = _check_require(require)
    check_colours(colours)
    check_numbers(max_changes=max_changes, seed=seed)
    if any(isinstance(side, bool) or not isinstance(side, int) for side in (width, height)):
        raise UsageError(f"the grid's width and height are whole numbers, not {width!r} and {height!r}")
    if width < 1 or height < 1:
        raise UsageError("the grid's width and height must be at least 1")
    check_grid_size(width, height, what="generated puzzle", side=MAX_GENERATED_SIDE)
    if isinstance(density, bool) or not isinstance(density, int | float) or not 0.0 <= density <= 1.0:
        raise UsageError(f"{{density}} is between 0 and 1, not {density!r}", density="density")
    deadline = Deadline.of(timeout)
    rng = random.Random(seed)
    count = 1 if colours is None else colours
    grid = random_picture(width, height, density, count, rng, deadline)
    palette = random_palette(count)
    limit = default_max_changes(width, height) if max_changes is None else max_changes
    fixed = repair(  # no picture to come close to: no closing tries; line logic's puzzle first, as a
        # picture's (a review: a 40x30 grid at 0.2 took 150 s toward `unique`, 0.7 s toward `line`)
        grid,
        no_cost,
        requirement,
        palette=palette,
        max_changes=limit,
        seed=seed,
        timeout=deadline,
        tries=0,
    )
    what = f"{density:g}" if count == 1 else f"{density:g}, {count} colours"
    puzzle = Puzzle.from_grid(fixed.grid, palette, title=f"Random {width}x{height} ({what}, seed {seed})")
    seconds = time.monotonic() - started
    return Generated(puzzle, grid, fixed.changed, fixed.result, None, seconds, None, float(len(fixed.changed)))
