"""The compiled core (`nonosat/core/module.c`), when `pip install` could build it.

Line logic, a depth-first search and a conflict-driven search for any palette and any grid
within the limits (`colour_core`: core/colour_*.c, core/paint_*.c) are in both builds. The
rest does for black-and-white grids of up to 126x126 what the Python code does, faster: line logic
over the whole grid (`propagation.propagate`, the same passes in the same order, so the same
counts), and a depth-first search with line logic and probing at every node (each probe's
result kept while it holds, tests/test_probe_records.py) that finds up to two solutions
of a puzzle line logic leaves open, or proves there are no more, within a node budget
(`solver.drive` tries it before building any CNF). It also finds each line's implication
clauses for the CNF, for lines of any length (`encodings.implications`). Without a C compiler
the package installs without it and everything runs in Python; `NONOSAT_PURE_PYTHON=1` makes it
run in Python anyway (tests/test_core_line_logic.py and tests/test_implications.py compare the two).

It is built twice from the same C files: `_core`, where a line's cells are one 64-bit word,
for grids of up to 64x64, and `_core_wide`, with 128-bit words, for the rest up to 126x126
(10-25% slower on the same grid, so only where the narrow one does not fit). `core_for` picks.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from types import ModuleType

from nonosat.model import Grid, Puzzle

MAX_SIDE = 64
"""The longest line of `core` (a line is one 64-bit word)."""
WIDE_SIDE = 126
"""The longest line of `wide_core` (a line is one 128-bit word; its clue has up to 128 states)."""


MISSING: dict[str, str] = {}
"""Why each compiled module that is not loaded is not (`nonosat --version` says it)."""


TURNED_OFF = os.environ.get("NONOSAT_PURE_PYTHON", "0") != "0"  # set, and not to 0 (a review: =0 turned it off)
"""Whether NONOSAT_PURE_PYTHON turns the compiled modules off (read once, at import)."""


def grids_kept(puzzle: Puzzle, count: int) -> int:
    """The grids of the `count` asked for that a compiled search of `puzzle` keeps: all, a bit a
    cell, in black and white up to 126x126 (`core_for`); else a byte a cell, `limits.held_grids`."""
    from nonosat.limits import held_grids

    return count if core_for(puzzle) is not None else held_grids(count, puzzle.width * puzzle.height)


def _load(name: str) -> ModuleType | None:
    if TURNED_OFF:
        MISSING[name] = "NONOSAT_PURE_PYTHON is set"
        return None
    from importlib import import_module

    try:
        return import_module(name)
    except ImportError as error:
        MISSING[name] = (
            "not built (pip install builds it with a C compiler: reinstall with gcc or clang present)"
            if isinstance(error, ModuleNotFoundError) and error.name == name
            else f"cannot be loaded: {error}"
        )
        return None


core = _load("nonosat._core")
"""The compiled module for lines of up to 64 cells, or None when it was not built (or
NONOSAT_PURE_PYTHON is set). Its `implications` takes lines of any length."""
wide_core = _load("nonosat._core_wide")
"""The same functions for lines of up to 126 cells, or None."""


def core_for(puzzle: Puzzle) -> ModuleType | None:
    """The compiled module that takes this puzzle's grid (black and white, no side over 126): the
    narrow one where it fits, else the wide one; None when neither does."""
    side = max(puzzle.width, puzzle.height)
    if puzzle.is_colour or side > WIDE_SIDE:
        return None
    return core if side <= MAX_SIDE else wide_core


def colour_core() -> ModuleType | None:
    """A compiled module for any palette and any size within the limits: line logic
    (`propagate_colours`, `settle_colours`), the depth-first search (`search_colours`) and the
    conflict-driven search (`cdcl_colours`); None when none was built."""
    return core or wide_core


def fits(puzzle: Puzzle) -> bool:
    """Whether a compiled core can take this puzzle: black and white, no side over 126."""
    return core_for(puzzle) is not None


class CoreGrids:
    """The grids a core's search found (`core.search`, `core.cdcl`: one bytes object, each grid's
    row masks of `CELL_BYTES` bytes in the machine's order), each read as a tuple of row masks
    only when asked for: a count of hundreds of thousands hands over at once, and Python reads
    what it has time for."""

    def __init__(self, packed: bytes, height: int, cell_bytes: int) -> None:
        self.words = memoryview(packed).cast("Q")
        self.height, self.wide = height, cell_bytes == 16
        self.size = height * (2 if self.wide else 1)
        self.low = 0 if sys.byteorder == "little" else 1
        """Which of a 128-bit row's two words holds its low 64 bits, in the machine's order."""

    def __len__(self) -> int:
        return len(self.words) // self.size if self.size else 0

    def __getitem__(self, index: int) -> tuple[int, ...]:
        if not 0 <= index < len(self):
            raise IndexError(index)
        words = self.words[index * self.size : (index + 1) * self.size]
        if self.wide:
            low, high = self.low, 1 - self.low
            return tuple(words[2 * r + low] | words[2 * r + high] << 64 for r in range(self.height))
        return tuple(words)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return (self[index] for index in range(len(self)))


def grid_of(rows: tuple[int, ...], width: int) -> Grid:
    """A grid the core gives back (a tuple of row masks) as rows of 0 and 1."""
    return tuple(tuple((row >> c) & 1 for c in range(width)) for row in rows)
