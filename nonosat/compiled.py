"""The compiled core (`nonosat/_linecore.c`), when `pip install` could build it.

It does for black-and-white grids of up to 64x64 what the Python code does, faster: line logic
over the whole grid (`linesolve.propagate`, the same passes in the same order, so the same
counts), and a depth-first search with line logic and probing at every node (each probe's
result kept while it holds, tests/test_probe_records.py) that finds up to two solutions
of a puzzle line logic leaves open, or proves there are no more, within a node budget
(`solver.drive` tries it before building any CNF). It also finds each line's implication
clauses for the CNF, for lines of any length (`encodings.implications`). Without a C compiler
the package installs without it and everything runs in Python; `NONOSAT_PURE_PYTHON=1` makes it
run in Python anyway (tests/test_linecore.py and tests/test_implications.py compare the two).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

from nonosat.model import Grid, Puzzle

if TYPE_CHECKING:
    from nonosat.linesolve import Board

MAX_SIDE = 64
"""The longest line the compiled core takes (a line is one 64-bit word)."""


def _load() -> ModuleType | None:
    if os.environ.get("NONOSAT_PURE_PYTHON"):
        return None
    from importlib import import_module

    try:
        return import_module("nonosat._linecore")
    except ImportError:
        return None


core = _load()
"""The compiled module, or None when it was not built (or NONOSAT_PURE_PYTHON is set)."""


def fits(puzzle: Puzzle) -> bool:
    """Whether the compiled core can take this puzzle: black and white, no side over 64."""
    return core is not None and not puzzle.is_colour and puzzle.width <= MAX_SIDE and puzzle.height <= MAX_SIDE


def board_masks(board: Board) -> tuple[list[int], list[int], list[int], list[int]]:
    """A board as the core's searches take it: rows filled, rows empty, columns filled, columns
    empty (bit i of a mask is cell i)."""
    return board.row_not[0], board.row_not[1], board.col_not[0], board.col_not[1]


def grid_of(rows: tuple[int, ...], width: int) -> Grid:
    """A grid the core gives back (a tuple of row masks) as rows of 0 and 1."""
    return tuple(tuple((row >> c) & 1 for c in range(width)) for row in rows)
