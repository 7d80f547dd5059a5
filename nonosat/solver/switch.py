"""A second solution by a local change: four cells at the corners of a rectangle, flipped.

Random puzzles with several solutions usually differ by such a "2x2 switch": cells (r1, c1) and
(r2, c2) filled, (r1, c2) and (r2, c1) empty, or the other way round, and flipping all four
keeps every clue. Looking for one directly, in the first solution, settles "multiple" without a
second SAT search, which on hard random puzzles costs as much as the first.
"""

from __future__ import annotations

from functools import cache

from nonosat.model import Grid, Puzzle


def _runs(text: str) -> list[int]:
    """The block lengths of a line written as '0'/'1' characters."""
    return [len(run) for run in text.split("0") if run]


REACH = 3
"""How far apart two switched cells of a line may be. Switches are nearly always this local:
on taai2011 #501-540 a reach of 3 finds 38 of the 39 that an unlimited reach finds, in a third
of the time."""


def line_swaps(cells: str, reach: int = REACH) -> set[tuple[int, int]]:
    """The pairs of cells (a < b <= a + reach), one filled and one empty, whose exchange keeps
    the line's clue.

    Only the window from a-1 to b+1 is looked at: the cells outside it do not change, and the
    window's edge cells do not either, so a run that crosses an edge crosses it in both lines,
    and the clue is kept exactly when the window's own runs are (`_swaps_in`, remembered for
    each window from a-1 to a + reach + 1: one look for each cell).
    """
    found = set()
    for a in range(len(cells)):
        start = a - 1 if a else 0
        for d in _swaps_in(cells[start : a + reach + 2], a - start, reach):
            found.add((a, a + d))
    return found


@cache
def _swaps_in(window: str, a: int, reach: int) -> tuple[int, ...]:
    """The distances d (1..reach) such that exchanging characters a and a + d of the window,
    which differ, keeps the runs of the window up to the character after a + d."""
    found = []
    for b in range(a + 1, min(len(window), a + reach + 1)):
        if window[a] != window[b]:
            part = window[: b + 2]
            swapped = part[:a] + part[b] + part[a + 1 : b] + part[a] + part[b + 1 :]
            if _runs(swapped) == _runs(part):
                found.append(b - a)
    return tuple(found)


def switched_solution(puzzle: Puzzle, grid: Grid) -> Grid | None:
    """Another grid meeting the clues that differs from `grid` in one 2x2 switch, if any (black
    and white only: a colour puzzle's second solution is left to the search)."""
    if puzzle.is_colour:
        return None
    rows = ["".join(map(str, row)) for row in grid]
    columns = ["".join(column) for column in zip(*rows, strict=True)]
    row_swaps = [line_swaps(row) for row in rows]
    column_swaps: dict[int, set[tuple[int, int]]] = {}
    for r1, pairs in enumerate(row_swaps):
        for c1, c2 in pairs:
            for r2 in range(r1 + 1, puzzle.height):
                if (c1, c2) not in row_swaps[r2] or rows[r1][c1] == rows[r2][c1]:
                    continue
                for c in (c1, c2):
                    if c not in column_swaps:
                        column_swaps[c] = line_swaps(columns[c])
                if (r1, r2) in column_swaps[c1] and (r1, r2) in column_swaps[c2]:
                    return _flip(grid, ((r1, c1), (r1, c2), (r2, c1), (r2, c2)))
    return None


def _flip(grid: Grid, cells: tuple[tuple[int, int], ...]) -> Grid:
    changed = [list(row) for row in grid]
    for r, c in cells:
        changed[r][c] = 1 - changed[r][c]
    return tuple(tuple(row) for row in changed)
