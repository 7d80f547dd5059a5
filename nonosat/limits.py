"""The sizes nonosat accepts, refused at once beyond them, so that memory stays bounded.

Every number here is documented in the README ("Limits"). Larger inputs get a `TooLarge` error
(exit code 2) before any work starts; a formula that grows past `MAX_CLAUSES` stops the search
with status `unknown` (`FormulaTooLarge`), since the grid itself was within the limits.
"""

from __future__ import annotations

from nonosat.errors import TooLarge

MAX_SIDE = 1024
"""Rows, or columns, of a puzzle."""

MAX_CELLS = 512 * 512
"""Cells of a puzzle (Cauldron, the largest corpus puzzle, is 512x512)."""

MAX_GENERATED_SIDE = 256
"""Rows, or columns, of a puzzle made by `generate` or `random`: each repair round solves it again."""

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Bytes of a puzzle file (the 1,000-puzzle tournament files are under 200 kB)."""

MAX_PROOF_BYTES = 128 * 1024 * 1024
"""Bytes of a certificate's DRAT proof that `verify` reads (its other files: MAX_FILE_BYTES).
dratify holds about 25 times a proof's size in memory (an 18 MB proof peaked at 447 MB)."""

MAX_PICTURE_PIXELS = 40_000_000
"""Pixels of a picture given to `generate` (a 40-megapixel photo; Pillow's own bomb check is 89M)."""

MAX_COUNT = 1_000_000
"""Solutions a command (or a library call) may ask for: each found is kept in memory (a 25x25
grid about 1 kB), and the compiled searches count in a C int."""

MOST_HELD_CELLS = 8 * 1024 * 1024
"""Cells of the solutions the compiled search keeps in colour and over 126 cells a side, where it
keeps a byte a cell: of a 200x200 grid 209, of a 33x33 one 7,703. Past that the answer is "at
least" that many (a review: a million asked of a 200x200 puzzle took 2.4 GB, and making and
writing them took seconds past the deadline; a first cap of 2M cells cut a 33x33 puzzle's
2,048 solutions to "at least 1,925"). Black and white up to 126x126 is kept a bit a cell, and
holds MAX_COUNT."""


def held_grids(count: int, cells: int) -> int:
    """The grids a compiled search of a puzzle of `cells` keeps of the `count` asked for, where it
    keeps a byte a cell (colour, and over 126 cells a side): MOST_HELD_CELLS' worth, at least two
    (a verdict needs them)."""
    return min(count, max(2, MOST_HELD_CELLS // max(1, cells)))


MAX_JOBS = 256
"""Worker processes (or cores) a command may ask for: `batch --jobs` starts that many processes."""

MAX_CLAUSES = 3_000_000
"""Clauses of the SAT formula for what line logic leaves open: about 700 MB in PySAT and Python.
A random 300x300 grid would need 13.8 million (2.9 GB); real puzzles of that size are mostly
settled by line logic and need far fewer."""


def grid_size_problem(width: int, height: int, *, what: str = "puzzle", side: int = MAX_SIDE) -> str | None:
    """What is wrong with a grid over `side` cells a side or MAX_CELLS cells in all, or None."""
    if width > side or height > side:
        return f"a {what} of {width}x{height} is over the limit of {side} cells a side"
    if width * height > MAX_CELLS:
        return f"a {what} of {width}x{height} has {width * height} cells, over the limit of {MAX_CELLS}"
    return None


def check_grid_size(width: int, height: int, *, what: str = "puzzle", side: int = MAX_SIDE) -> None:
    """Refuse (TooLarge) a grid over `side` cells a side or MAX_CELLS cells in all."""
    problem = grid_size_problem(width, height, what=what, side=side)
    if problem is not None:
        raise TooLarge(problem)
