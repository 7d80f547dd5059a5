"""The exhaustive minimum of the generator benchmark's small cases: the fewest cells of the
thresholded picture to flip so that line logic alone solves the puzzle, found by trying every
set of 0, 1, 2, ... cells (`exhaustive_minimum`), with a line solver of its own on bitmasks
(`line_solvable`), which the tests check against `nonosat.solver.propagation`.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from nonosat.model import Cell, Grid

# The exhaustive minimum, on bitmasks: bit c of a row (bit r of a column) is cell c (r).


@functools.cache
def clues(length: int) -> tuple[tuple[int, ...], ...]:
    """The clue of every filling of a line of `length` cells, indexed by the filling."""
    return tuple(
        tuple(len(run) for run in format(mask, f"0{length}b")[::-1].split("0") if run) for mask in range(1 << length)
    )


@functools.cache
def fillings(length: int) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Every filling of a line of `length` cells, by its clue."""
    found: dict[tuple[int, ...], list[int]] = {}
    for mask, clue in enumerate(clues(length)):
        found.setdefault(clue, []).append(mask)
    return {clue: tuple(masks) for clue, masks in found.items()}


@functools.lru_cache(maxsize=1 << 20)
def settle(length: int, clue: tuple[int, ...], filled: int, empty: int) -> tuple[int, int]:
    """Complete line logic: the cells filled and empty in every filling that agrees with what is known."""
    full = (1 << length) - 1
    all_filled, all_empty = full, full
    for mask in fillings(length)[clue]:
        if mask & empty == 0 and filled & ~mask == 0:
            all_filled &= mask
            all_empty &= ~mask
    return all_filled, all_empty & full


def line_solvable(rows: Sequence[int], width: int, height: int) -> bool:
    """Whether line logic alone solves the puzzle whose solution has these rows."""
    columns = [sum(((row >> c) & 1) << r for r, row in enumerate(rows)) for c in range(width)]
    row_clues, column_clues = clues(width), clues(height)
    lines = [(width, row_clues[row]) for row in rows] + [(height, column_clues[col]) for col in columns]
    filled, empty = [0] * (height + width), [0] * (height + width)
    waiting = set(range(height + width))
    while waiting:
        line = waiting.pop()
        length, clue = lines[line]
        now_filled, now_empty = settle(length, clue, filled[line], empty[line])
        new_filled, new_empty = now_filled & ~filled[line], now_empty & ~empty[line]
        filled[line], empty[line] = now_filled, now_empty
        crossing = height if line < height else 0  # the first line of the other direction
        bit = 1 << (line if line < height else line - height)
        for news, known in ((new_filled, filled), (new_empty, empty)):
            while news:
                low = news & -news
                other = crossing + low.bit_length() - 1
                known[other] |= bit
                waiting.add(other)
                news ^= low
    full = (1 << width) - 1
    return all(filled[r] | empty[r] == full for r in range(height))


@dataclass(frozen=True)
class Exhaustive:
    """The fewest flips that make a grid line-solvable, or the most that were ruled out."""

    minimum: int | None
    """None when no set of up to `searched` flips works (the cap or the time budget was reached)."""
    searched: int
    """Every set of this many flips or fewer was tried."""
    flips: tuple[Cell, ...]
    checks: int
    seconds: float

    @property
    def text(self) -> str:
        return str(self.minimum) if self.minimum is not None else f">{self.searched}"


def exhaustive_minimum(grid: Grid, cap: int = 4, budget: float = 60.0) -> Exhaustive:
    """Try every set of k cells to flip, k = 0, 1, ..., cap, until one leaves a line-solvable
    puzzle; stop also when `budget` seconds have passed (the current k then counts as not searched)."""
    started = time.perf_counter()
    height, width = len(grid), len(grid[0])
    rows = [sum(cell << c for c, cell in enumerate(row)) for row in grid]
    cells = [(r, c) for r in range(height) for c in range(width)]
    checks = 0
    for k in range(cap + 1):
        for count, chosen in enumerate(itertools.combinations(cells, k)):
            if count % 4096 == 4095 and time.perf_counter() - started > budget:
                return Exhaustive(None, k - 1, (), checks, time.perf_counter() - started)
            flipped = list(rows)
            for r, c in chosen:
                flipped[r] ^= 1 << c
            checks += 1
            if line_solvable(flipped, width, height):
                return Exhaustive(k, k - 1, chosen, checks, time.perf_counter() - started)
    return Exhaustive(None, cap, (), checks, time.perf_counter() - started)
