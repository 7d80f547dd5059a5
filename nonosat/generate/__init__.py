"""Generate puzzles with one solution, proved: from a picture, or at random.

    from nonosat.generate import from_image, random_puzzle
    made = from_image("cat.png", width=30, require="line")
    made.puzzle, made.changed, made.result.method

Both keep a picture (the thresholded image, or a random grid), then change as few cells as
`repair` needs until the solver proves the requirement. Same arguments and seed, same puzzle.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from nonosat.deadline import Deadline, alarm
from nonosat.errors import UsageError
from nonosat.generate.image import Threshold, load_shades, threshold
from nonosat.generate.repair import REQUIREMENTS, Requirement, repair
from nonosat.limits import MAX_GENERATED_SIDE, check_grid_size
from nonosat.model import Cell, Grid, Puzzle
from nonosat.solver import Result

__all__ = ["Generated", "default_max_changes", "from_image", "random_puzzle"]


@dataclass(frozen=True)
class Generated:
    """A generated puzzle (its goal is the final picture), how it was reached and its proof."""

    puzzle: Puzzle
    start: Grid
    """The picture before any change: the thresholded image, or the random grid."""
    changed: tuple[Cell, ...]
    """The (row, column) cells, from 0, where the puzzle's goal differs from `start`."""
    result: Result
    """The solver's proof: status unique; method "line" when line logic alone solves it."""
    threshold: float | None
    seconds: float

    @property
    def changed_share(self) -> float:
        return len(self.changed) / (self.puzzle.width * self.puzzle.height)


def default_max_changes(width: int, height: int) -> int:
    """5% of the cells, and at least 10."""
    return max(10, (width * height) // 20)


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
    thresholded, then repaired by flipping the cells nearest the threshold. The title defaults
    to the file name. Raises `BadImage` for a missing, unreadable or blank picture, and
    `GenerateFailed` when `max_changes` flips are not enough.
    """
    started = time.monotonic()
    deadline = Deadline.after(timeout)
    requirement = _check_require(require)
    with alarm(deadline, f"reading {path}"):  # Pillow does not look at the clock
        shades = load_shades(path, width, height)
    cut = threshold(shades, threshold_level, invert, source=str(path))
    limit = default_max_changes(shades.width, shades.height) if max_changes is None else max_changes
    fixed = repair(cut.grid, cut.margin, requirement, max_changes=limit, seed=seed, timeout=deadline.remaining())
    name = title if title is not None else Path(path).stem.replace("_", " ").replace("-", " ")
    puzzle = Puzzle.from_grid(fixed.grid, title=name, author=author, license=license)
    return Generated(puzzle, cut.grid, fixed.changed, fixed.result, cut.threshold, time.monotonic() - started)


def random_puzzle(
    width: int,
    height: int,
    *,
    density: float = 0.5,
    seed: int = 0,
    require: str = "unique",
    max_changes: int | None = None,
    timeout: float | None = None,
) -> Generated:
    """A random grid with about `density` of its cells filled, repaired to meet `require`."""
    started = time.monotonic()
    requirement = _check_require(require)
    if width < 1 or height < 1:
        raise UsageError("the grid's width and height must be at least 1")
    check_grid_size(width, height, what="generated puzzle", side=MAX_GENERATED_SIDE)
    if not 0.0 <= density <= 1.0:
        raise UsageError(f"{{density}} is between 0 and 1, not {density}", density="density")
    rng = random.Random(seed)
    grid = tuple(tuple(int(rng.random() < density) for _ in range(width)) for _ in range(height))
    margin = [[0.0] * width for _ in range(height)]  # every cell as cheap: the seed breaks ties
    limit = default_max_changes(width, height) if max_changes is None else max_changes
    fixed = repair(grid, margin, requirement, max_changes=limit, seed=seed, timeout=timeout)
    title = f"Random {width}x{height} ({density:g}, seed {seed})"
    puzzle = Puzzle.from_grid(fixed.grid, title=title)
    return Generated(puzzle, grid, fixed.changed, fixed.result, None, time.monotonic() - started)
